"""A variant board far bigger than the built-in maps: a chain of hundreds of moves, each into
the province the next one leaves, is adjudicated (on both builds alike), not lost to Python's
recursion limit.  The map is a line of provinces written as a hobbyist writes a map file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROVINCES = 700
CHAIN = 600


def _pid(i: int) -> str:
    return "P" + format(i, "03d").translate(str.maketrans("0123456789", "ABCDEFGHIJ"))


def _line_map(folder: Path) -> None:
    lines = ["name: line", "title: A line of provinces", "unit_kinds: {A: Army, F: Fleet}",
             "calendar: standard", "powers:", "  NORTH:", "    name: North",
             f"    home: [{_pid(0)}]", f"    units: [A {_pid(0)}]", "  SOUTH:",
             "    name: South", f"    home: [{_pid(PROVINCES - 1)}]",
             f"    units: [A {_pid(PROVINCES - 1)}]", "provinces:"]
    for i in range(PROVINCES):
        lines += [f"  {_pid(i)}:", f"    name: Province {_pid(i)}", "    terrain: land"]
        if i in (0, PROVINCES - 1):
            lines += ["    supply: true", f"    home: {'NORTH' if i == 0 else 'SOUTH'}"]
        near = ", ".join(_pid(j) for j in (i - 1, i + 1) if 0 <= j < PROVINCES)
        lines += ["    adj:", f"      A: [{near}]"]
    (folder / "line.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_chain_of_six_hundred_moves_is_adjudicated(tmp_path: Path) -> None:
    _line_map(tmp_path)
    north = [f"A {_pid(i)}" for i in range(CHAIN)]
    moves = [f"A {_pid(i)} - {_pid(i + 1)}" for i in range(CHAIN)]
    blocked = {"id": "blocked", "map": "line", "phase": "S1901M",
               "units": {"North": north, "South": [f"A {_pid(CHAIN)}"]}, "centers": {},
               "orders": {"North": moves, "South": [f"A {_pid(CHAIN)} H"]}}
    free = {"id": "free", "map": "line", "phase": "S1901M", "units": {"North": north},
            "centers": {}, "orders": {"North": moves}}
    cases = tmp_path / "chains.jsonl"
    cases.write_text(json.dumps(blocked) + "\n" + json.dumps(free) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", "1", str(cases)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "MOBADJ_MAPS": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    got = [json.loads(line) for line in run.stdout.splitlines()]
    assert [g["errors"] for g in got] == [[], []]
    # blocked: the front move bounces off the army that holds, and every move behind it
    # would dislodge its own power's unit
    results = Counter((o["result"], o["reason"]) for o in got[0]["orders"])
    assert results == {("fails", "cannot dislodge own unit"): CHAIN - 1,
                       ("fails", "destination held"): 1, ("succeeds", None): 1}
    assert got[0]["units"]["North"] == sorted(north)
    # free: the whole chain moves up one province
    assert Counter(o["result"] for o in got[1]["orders"]) == {"succeeds": CHAIN}
    assert got[1]["units"]["North"] == sorted(f"A {_pid(i + 1)}" for i in range(CHAIN))
