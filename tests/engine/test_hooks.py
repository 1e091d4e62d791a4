"""The engine skips a call into the rules for a hook the rules keep standard
(mobadj/engine/hooks.py); a variant that overrides the hook is asked as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.engine import Outcome, Reason, Rules
from mobadj.engine.hooks import _STANDARD, standard
from mobadj.engine.results import OrderResult

from .helpers import play, result_of, units_after


class Asking(Rules):
    """Standard rules that note every hook the engine calls, and change what some answer."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.asked: list[str] = []

    def bind(self, position, game_map):
        self.asked.append("bind")
        return self

    def after_movement(self, before, after, outcome, results, aside, topology):
        self.asked.append("after_movement")
        return {}, ["the hook spoke"]

    def after_phase(self, before, result, topology, scored):
        self.asked.append("after_phase")
        result.events.append("after the phase")

    def needs_adjustment(self, position, topology):
        self.asked.append("needs_adjustment")
        return True  # a winter phase even with nothing to build

    def convoyable(self, kind):
        self.asked.append("convoyable")
        return False  # nobody is convoyed

    def can_convoy(self, topology, location, kind):
        self.asked.append("can_convoy")
        return super().can_convoy(topology, location, kind)

    def convoy_seas(self, topology, units):
        self.asked.append("convoy_seas")
        return super().convoy_seas(topology, units)

    def retreat_options(self, dislodged, topology, occupied, standoffs):
        self.asked.append("retreat_options")
        return super().retreat_options(dislodged, topology, occupied, standoffs)

    def retreat_allowed(self, dislodged, destination, via):
        self.asked.append("retreat_allowed")
        return destination != "WAR"

    def retreat_phase(self, position, orders, topology):
        self.asked.append("retreat_phase")
        return super().retreat_phase(position, orders, topology)

    def position_from_data(self, data, game_map):
        self.asked.append("position_from_data")
        return super().position_from_data(data, game_map)

    def remove_order(self, position, power, order, left):
        self.asked.append("remove_order")
        return OrderResult(power, order, Outcome.INVALID, Reason.WRONG_PHASE)


def test_the_standard_rules_keep_every_hook_and_a_variant_overrides_its_own() -> None:
    assert all(standard(Rules(), hook) for hook in _STANDARD)
    asked = [hook for hook in _STANDARD if hook in vars(Asking)]
    assert len(asked) == 12  # every other hook: tests/engine/test_every_hook.py
    assert not any(standard(Asking(), hook) for hook in asked)
    assert all(standard(Asking(), hook) for hook in _STANDARD if hook not in asked)


CONVOY_AND_ATTACK = (
    {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU"]},
    "ENGLAND: A LON - NWY\nENGLAND: F NTH C A LON - NWY\n"
    "GERMANY: A BER - PRU\nGERMANY: A SIL S A BER - PRU\nRUSSIA: A PRU H")


def test_a_variants_movement_hooks_are_asked() -> None:
    rules = Asking()
    res = play(*CONVOY_AND_ATTACK, rules=rules)
    assert {"bind", "after_movement", "after_phase", "convoyable", "can_convoy",
            "convoy_seas", "retreat_options", "retreat_allowed"} <= set(rules.asked)
    # nobody is convoyed: the army holds and the fleet's convoy order is impossible
    assert result_of(res, "A LON").outcome is not Outcome.SUCCEEDS
    assert result_of(res, "F NTH").outcome is Outcome.INVALID
    assert res.events == ["the hook spoke", "after the phase"]
    [dislodged] = res.dislodged
    assert dislodged.retreats == ("LVN",)  # retreat_allowed refuses Warsaw
    assert "PRU" in {u.location for u in res.position.units.values() if u.power == "GERMANY"}


def test_the_standard_rules_answer_alike_without_the_calls() -> None:
    res = play(*CONVOY_AND_ATTACK)
    assert result_of(res, "A LON").outcome is Outcome.SUCCEEDS
    assert result_of(res, "F NTH").outcome is Outcome.SUCCEEDS
    [dislodged] = res.dislodged
    assert dislodged.retreats == ("LVN", "WAR")
    assert res.events == []


@pytest.mark.parametrize("rules", [Rules(), Asking()], ids=["standard", "variant"])
def test_a_variants_other_phase_hooks_are_asked(rules) -> None:
    res = play({"FRANCE": ["A PAR", "A MAR"]}, "FRANCE: Remove A PAR", phase="W1901A",
               centers={"FRANCE": ["PAR"]}, rules=rules)
    if isinstance(rules, Asking):
        assert "remove_order" in rules.asked
        assert result_of(res, "Remove A PAR").reason is Reason.WRONG_PHASE
    else:
        assert result_of(res, "Remove A PAR").outcome is Outcome.SUCCEEDS
    retreat = play({"GERMANY": ["A PAR"]}, "FRANCE: A PAR - BUR", phase="S1901R",
                   rules=rules, dislodged={"FRANCE": [{"unit": "A PAR", "from": "PIC"}]})
    assert units_after(retreat) == {"GERMANY A PAR", "FRANCE A BUR"}
    if isinstance(rules, Asking):
        assert "retreat_phase" in rules.asked
    after_fall = play({"FRANCE": ["A PAR"]}, "FRANCE: A PAR H", phase="F1901M",
                      centers={"FRANCE": ["PAR"]}, rules=rules)
    # the standard rules skip a winter with nothing to build; the variant asks for one
    assert str(after_fall.next_phase) == ("W1901A" if isinstance(rules, Asking) else "S1902M")


BATCH_WITH_ASKING = """
import json, sys
from mobadj.engine.variants import register_variant
from tests.engine.test_hooks import Asking

asked = []


class Noting(Asking):
    def __init__(self, **options):
        super().__init__(**options)
        self.asked = asked


if sys.argv[1] == "variant":
    register_variant("standard", Noting)
from mobadj.batch import run_case

out = run_case(json.loads(sys.argv[2]))
print(json.dumps({"asked": asked, "errors": out["errors"], "orders": out["orders"]}))
"""


@pytest.mark.parametrize("rules", ["standard", "variant"])
def test_a_batch_reads_positions_by_a_variants_hook(rules) -> None:
    """mobadj batch reads a line's position itself (mobadj.engine.reading) only for rules
    that keep the standard ``position_from_data``; a variant's own is asked."""
    line = {"phase": "S1901R", "units": {"GERMANY": ["A PRU"]},
            "dislodged": {"RUSSIA": [{"unit": "A PRU", "from": "BER"}]},
            "orders": {"RUSSIA": ["A PRU R WAR"]}}
    run = subprocess.run([sys.executable, "-c", BATCH_WITH_ASKING, rules, json.dumps(line)],
                         capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    got = json.loads(run.stdout)
    assert got["errors"] == []
    [order] = got["orders"]
    if rules == "variant":
        assert "position_from_data" in got["asked"] and "retreat_allowed" in got["asked"]
        assert order["result"] != "succeeds"  # the variant's retreat_allowed refuses Warsaw
    else:
        assert got["asked"] == [] and order["result"] == "succeeds"
