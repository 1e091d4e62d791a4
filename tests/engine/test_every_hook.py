"""A variant that overrides any one hook the engine may skip (mobadj.engine.hooks) changes
what the engine does, with no flag to set: each hook alone, on one small position, against
the standard rules on the same position."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mobadj.engine import Outcome, Reason, Rules, adjudicate, position_from_data
from mobadj.engine.hooks import _STANDARD, standard
from mobadj.engine.results import OrderResult
from mobadj.orders.parser import parse_orders

from .helpers import STANDARD


def play(rules: Rules, units: dict, orders: str, phase: str = "S1901M", **extra):
    data = {"phase": phase, "units": units, "centers": extra.pop("centers", {}), **extra}
    position = position_from_data(data, STANDARD, rules)
    parsed = parse_orders(orders, STANDARD)
    assert not parsed.errors, parsed.errors
    return adjudicate(position, parsed.orders, STANDARD, rules)


def fate(result, prefix: str) -> tuple[str, str | None]:
    [r] = [r for r in result.results if r.order.startswith(prefix)]
    return r.outcome.value, r.reason.value if r.reason else None


BOUNCE = ({"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
          "FRANCE: A PAR - BUR\nGERMANY: A MUN - BUR")
ALONE = ({"FRANCE": ["A PAR"]}, "FRANCE: A PAR - BUR")
SWAP = ({"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]}, "FRANCE: A PAR - BUR\nGERMANY: A BUR - PAR")
ATTACK = ({"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
          "FRANCE: A PAR - BUR\nFRANCE: A MAR S A PAR - BUR\nGERMANY: A BUR H")
CUT = ({"GERMANY": ["A RUH", "A MUN"], "FRANCE": ["A BUR"], "AUSTRIA": ["A TYR"]},
       "GERMANY: A RUH - BUR\nGERMANY: A MUN S A RUH - BUR\nAUSTRIA: A TYR - MUN")
CONVOY = ({"ENGLAND": ["A LON", "F NTH"]}, "ENGLAND: A LON - BEL\nENGLAND: F NTH C A LON - BEL")
DISLODGE = ({"GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU"]},
            "GERMANY: A BER - PRU\nGERMANY: A SIL S A BER - PRU")
RETREAT = ({"GERMANY": ["A PAR"]}, "FRANCE: A PAR - BUR")
RETREAT_EXTRA = {"phase": "S1901R", "dislodged": {"FRANCE": [{"unit": "A PAR", "from": "PIC"}]}}


def outcome_of(scenario, prefix: str) -> Callable[[Rules], object]:
    return lambda rules: fate(play(rules, *scenario), prefix)


def retreats_of(rules: Rules) -> object:
    return [d.retreats for d in play(rules, *DISLODGE).dislodged]


def winter_build(rules: Rules) -> object:
    res = play(rules, {"FRANCE": ["A PAR"]}, "FRANCE: Build A BEL", phase="W1901A",
               centers={"FRANCE": ["PAR", "BEL", "MAR"]})
    return fate(res, "Build A BEL")


def variant(hook: str, body: Callable) -> type[Rules]:
    return type(f"Only_{hook}", (Rules,), {hook: body, "__module__": __name__})


def _swap_by_convoy(self, a, b):
    return 0  # PASS: the two units pass each other


def _bind(self, position, game_map):
    return variant("head_to_head", _swap_by_convoy)()


def _after_movement(self, before, after, outcome, results, aside, topology):
    return {}, ["news"]


def _after_phase(self, before, result, topology, scored):
    result.events.append("after the phase")


def _screen(self, position, power, order, game_map):
    return OrderResult(power or "?", order, Outcome.INVALID, Reason.WRONG_PHASE)


def _position(self, data, game_map):
    position = Rules.position_from_data(self, data, game_map)
    position.units.clear()
    return position


def _retreat_phase(self, position, orders, topology):
    result = Rules.retreat_phase(self, position, orders, topology)
    result.events.append("retreated")
    return result


#: hook -> (its override, what the engine then does differently)
CASES: dict[str, tuple[Callable, Callable[[Rules], object]]] = {
    "adjustment_counts": (lambda self, position: {"FRANCE": 0},
                          lambda r: fate(play(r, {"FRANCE": ["A PAR"]}, "FRANCE: Build A MAR",
                                              phase="W1901A", centers={"FRANCE": ["PAR", "MAR"]}),
                                         "Build A MAR")),
    "after_movement": (_after_movement, lambda r: play(r, *BOUNCE).events),
    "after_phase": (_after_phase, lambda r: play(r, *BOUNCE).events),
    "bind": (_bind, outcome_of(SWAP, "A PAR")),
    "build_sites": (lambda self, position, power, topology: set(position.centers_of(power)),
                    winter_build),
    "can_convoy": (lambda self, topology, location, kind: False,
                   outcome_of(CONVOY, "F NTH")),
    "check_move": (lambda self, game_map, order: Reason.NOT_ADJACENT,
                   outcome_of(BOUNCE, "A PAR")),
    "convoy_path": (lambda self, move, board: False, outcome_of(CONVOY, "A LON")),
    "convoy_seas": (lambda self, topology, units: [], outcome_of(CONVOY, "A LON")),
    "convoyable": (lambda self, kind: False, outcome_of(CONVOY, "A LON")),
    "cuts_support": (lambda self, support, attack, board: False, outcome_of(CUT, "A RUH")),
    "head_to_head": (_swap_by_convoy, outcome_of(SWAP, "A PAR")),
    "hold_bonus": (lambda self, order: 1, outcome_of(ATTACK, "A PAR")),
    "move_bonus": (lambda self, order: 1 if order.power == "FRANCE" else 0,
                   outcome_of(BOUNCE, "A PAR")),
    "needs_adjustment": (lambda self, position, topology: True,
                         lambda r: str(play(r, {"FRANCE": ["A PAR"]}, "FRANCE: A PAR H",
                                            phase="F1901M", centers={"FRANCE": ["PAR"]}
                                            ).next_phase)),
    "position_from_data": (_position, lambda r: sorted(play(r, *BOUNCE).position.units)),
    "remove_order": (lambda self, position, power, order, left: OrderResult(
        power, order, Outcome.INVALID, Reason.WRONG_PHASE),
        lambda r: fate(play(r, {"FRANCE": ["A PAR", "A MAR"]}, "FRANCE: Remove A PAR",
                            phase="W1901A", centers={"FRANCE": ["PAR"]}), "Remove")),
    "required_margin": (lambda self, order: 1, outcome_of(ALONE, "A PAR")),
    "retreat_allowed": (lambda self, dislodged, destination, via: destination != "WAR",
                        retreats_of),
    "retreat_choice": (lambda self, dislodged: False,
                       lambda r: str(play(r, *DISLODGE).next_phase)),
    "retreat_options": (lambda self, dislodged, topology, occupied, standoffs: (),
                        retreats_of),
    "retreat_phase": (_retreat_phase, lambda r: play(r, *RETREAT, **RETREAT_EXTRA).events),
    "screen": (_screen, outcome_of(BOUNCE, "A PAR")),
}


def test_every_hook_the_engine_may_skip_has_a_case() -> None:
    assert set(CASES) == set(_STANDARD)


@pytest.mark.parametrize("hook", sorted(CASES))
def test_overriding_one_hook_changes_what_the_engine_does(hook: str) -> None:
    override, observe = CASES[hook]
    rules = variant(hook, override)()
    assert not standard(rules, hook)
    assert all(standard(rules, other) for other in _STANDARD if other != hook)
    assert observe(rules) != observe(Rules())
