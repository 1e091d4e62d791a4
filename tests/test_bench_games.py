"""bench/games.py: the bench's phases are the same on every run, and mobadj reads every one
of them (a unit dislodged by convoy keeps its ``"convoyed": true``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WRITE = "import sys; from pathlib import Path; from bench.games import write; " \
        "write(Path(sys.argv[1]), 1, 600)"


def _phases(tmp_path: Path, hash_seed: str) -> bytes:
    out = tmp_path / f"phases-{hash_seed}.jsonl"
    subprocess.run([sys.executable, "-c", WRITE, str(out)], cwd=ROOT, check=True,
                   env={**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)})
    return out.read_bytes()


def test_the_phases_do_not_follow_the_hash_seed(tmp_path: Path) -> None:
    assert _phases(tmp_path, "1") == _phases(tmp_path, "2")


def test_mobadj_reads_every_phase_and_a_convoyed_attack_is_marked(tmp_path: Path) -> None:
    phases = _phases(tmp_path, "3")
    assert b'"convoyed": true' in phases
    run = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], cwd=ROOT, check=True,
                         input=phases, capture_output=True)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == 600
    assert [a["id"] for a in answers if a["errors"]] == []
