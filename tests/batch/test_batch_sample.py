"""tools/batch_sample.py: the seeded sample that proves refactors leave batch output alone."""

from __future__ import annotations

import json
from collections import Counter

from mobadj.batch import answer_line, json_line, run_case
from tools.batch_sample import sample


def _kind(phase: str) -> str:
    return "START" if phase.endswith("START") else phase[-1]


def test_the_sample_is_seeded_and_covers_both_maps_and_every_phase_kind():
    lines = list(sample(7, 400))
    assert lines == list(sample(7, 400))
    assert lines != list(sample(8, 400))
    seen: Counter[tuple[str, str]] = Counter()
    for line in lines:
        try:
            case = json.loads(line)
        except ValueError:
            continue
        if not isinstance(case, dict) or "map" not in case:
            continue
        out = run_case(case)
        assert not any("internal error" in e for e in out["errors"]), out
        seen[(case["map"].lower(), _kind(str(case.get("phase"))))] += 1
    for kind in ("M", "R", "A"):
        assert seen[("standard", kind)] > 0, seen
    for kind in ("START", "M", "A"):
        assert seen[("mobtown2", kind)] > 0, seen


def test_every_line_is_written_as_json_line_writes_its_value() -> None:
    """The batch writes each line value by value (mobadj.batch.serialize), straight from the
    results; on both maps, every phase kind and the lines with mistakes, the bytes are those
    json_line writes of the line's value."""
    for text in sample(5, 1500):
        written = answer_line(text.encode())
        assert written == json_line(json.loads(written)), text
