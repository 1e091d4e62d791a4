"""The cross-check's random phases (tools/crosscheck/generate.py): a case is made again from
its id alone, whatever Python's hash seed, so a disagreement found once can be shown again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cases(hash_seed: str, *args: str) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "tools.crosscheck.generate", "--seed", "5",
                          *args], cwd=ROOT, check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": hash_seed})
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_a_case_is_the_same_whatever_the_hash_seed_and_from_its_id_alone() -> None:
    cases = _cases("1", "--count", "300")
    assert cases == _cases("2", "--count", "300")
    assert {c["phase"][-1] for c in cases} == {"M", "A"}  # movement and adjustment phases
    assert _cases("3", "--start", "217", "--count", "1") == [cases[217]]
