"""Positions where the cross-check against an independent adjudicator disagreed.

The cases live in crosscheck_cases.yaml, each with the rule that decides it (DATC 3.0 and
the 2023 rules); docs/crosscheck.md tells how they were found and shrunk.  They pin down
mobadj's answer exactly where another engine gives a different one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mobadj.engine import adjudicate
from mobadj.orders.parser import parse_orders

from .helpers import STANDARD, play, units_after

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).with_name("crosscheck_cases.yaml")).read_text()
)


def test_the_case_file_is_complete() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) >= 9
    for case in CASES:
        assert {"id", "found", "phase", "units", "orders", "expect"} <= set(case), case["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_crosscheck_regression(case: dict[str, Any]) -> None:
    res = play(case["units"], case["orders"] or "", phase=case["phase"],
               centers=case.get("centers") or {p: [] for p in case["units"]})
    expect = case["expect"]
    assert units_after(res) == set(expect["units"])
    dislodged = {f"{d.unit.power} {d.unit}": d for d in res.position.dislodged.values()}
    assert set(dislodged) == set(expect.get("dislodged", []))
    for unit, spaces in (expect.get("retreats") or {}).items():
        found = [d for key, d in dislodged.items() if key.endswith(" " + unit)]
        assert len(found) == 1, unit
        assert sorted(found[0].retreats) == sorted(spaces)
    if "retreat_orders" in case:  # the retreat phase that follows
        parsed = parse_orders(case["retreat_orders"], STANDARD)
        assert not parsed.errors, parsed.errors
        after = adjudicate(res.position, parsed.orders, STANDARD)
        assert units_after(after) == set(expect["after_retreat"])
