"""The DATC 3.0 (chapter 6), all 164 cases, as data: one parametrised test named by case id.

Each YAML file under tests/datc/ holds one section.  A case gives the position before
(``phase``, ``units``, ``centers``, ``dislodged``, ``standoffs``), the orders as text
(``"POWER: order"``, optionally ``=> succeeds|fails|invalid`` where the DATC states the
result), and the expected board after (``expect.units``; ``expect.dislodged`` for movement
phases; ``expect.no_retreat`` lists dislodged units that have nowhere to go, which the engine
disbands at once).  ``variants``
holds further scenarios of the same case (6.J.9).  Where the DATC gives options, the data
follows its preference; docs/rulings.md lists them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mobadj.board.loader import load_map
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import position_from_data
from mobadj.orders.parser import parse_orders

HERE = Path(__file__).parent
CASES = [case for path in sorted(HERE.glob("6*.yaml")) for case in yaml.safe_load(path.read_text())]
GAME_MAP = load_map("standard")


def _sorted(per_power: dict | None) -> dict[str, list[str]]:
    return {p: sorted(v) for p, v in (per_power or {}).items() if v}


def _run(case: dict, scenario: dict, case_id: str) -> None:
    data = {**case, **scenario}
    position = position_from_data(data, GAME_MAP)
    lines, wanted = [], []
    for line in data["orders"]:
        text, _, result = line.partition(" => ")
        lines.append(text)
        wanted.append(result or None)
    parsed = parse_orders("\n".join(lines), GAME_MAP)
    assert not parsed.errors, f"{case_id}: {parsed.errors}"
    assert len(parsed.orders) == len(lines)
    outcome = adjudicate(position, parsed.orders, GAME_MAP)
    after = outcome.position.to_data()
    expect = scenario.get("expect", case["expect"])
    assert _sorted(after["units"]) == _sorted(expect.get("units")), f"{case_id}: units"
    assert len(outcome.results) == len(lines)
    for line, want, got in zip(lines, wanted, outcome.results, strict=True):
        if want is None:
            continue
        if want == "fails":  # the DATC's "fails" covers orders we report as invalid
            assert got.outcome.value in ("fails", "invalid"), f"{case_id}: {line}: {got}"
        else:
            assert got.outcome.value == want, f"{case_id}: {line}: {got}"
    if outcome.phase.is_movement:
        # a dislodged unit with no retreat is disbanded at once (docs/rulings.md, "Skipped
        # phases"): it is dislodged all the same, and the DATC's no_retreat lists it
        got_dislodged: dict[str, list[str]] = {}
        for d in [*outcome.dislodged, *outcome.destroyed]:
            got_dislodged.setdefault(d.unit.power, []).append(str(d.unit))
        assert _sorted(got_dislodged) == _sorted(expect.get("dislodged")), f"{case_id}: dislodged"
        assert all(d.retreats for d in outcome.dislodged), f"{case_id}: retreat options"
        stuck = {f"{d.unit.power}: {d.unit}" for d in outcome.destroyed}
        assert stuck == set(expect.get("no_retreat", [])), f"{case_id}: retreat options"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc(case: dict) -> None:
    _run(case, {}, case["id"])
    for n, variant in enumerate(case.get("variants", []), 2):
        _run(case, variant, f"{case['id']} (scenario {n})")


def test_all_164_cases_transcribed() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) == 164
