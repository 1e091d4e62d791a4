"""A mob's picks for the seat's page (the rules' ``order_choices`` hook): where its Don starts
(rule 6), a Don rebuilt (rule 3), retreats by subway or to gaol with no disbanding while MTPD
is open (rules 5, 7), Gangs built, and the removals: any Gang but a gaoled one (ruling 8) and a
rebuilt Don, never the first (ruling 9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobadj.engine import (
    Dislodged,
    OrderChoice,
    adjustment_choices,
    removal_options,
    retreat_choices,
)
from mobadj.mobtown.terms import GAOL
from mobadj.mobtown.weekend import balance, don_free, may_rebuild

if TYPE_CHECKING:
    from mobadj.engine import Topology
    from mobadj.mobtown.rules import MobtownRules
    from mobadj.mobtown.state import MobtownPosition


def order_choices(pos: MobtownPosition, power: str, topology: Topology, rules: MobtownRules
                  ) -> list[OrderChoice]:
    """The picks of ``power`` in any phase but a movement (there the orders box alone)."""
    phase = pos.phase
    if phase.is_movement:
        return []
    if phase.is_retreat:
        return retreat_choices(pos, power, rules, line=_retreat,
                               may_disband=lambda d: GAOL not in d.retreats)
    game_map = topology.game_map
    homes = sorted(game_map.powers[power].home_centers) if power in game_map.powers else []
    if not phase.is_adjustment:  # June 1919
        if power in pos.dons:
            return []
        return [OrderChoice("Your Don starts in", tuple((f"Don starts in {h}", h)
                                                        for h in homes))]
    out: list[OrderChoice] = []
    rebuilt = [f"Remove D {pos.dons[power]}"] if (power in pos.rebuilt
                                                   and power in pos.dons) else []
    if may_rebuild(pos, power, game_map, rules):
        out.append(OrderChoice("Your Don: rebuild him now, or not yet (he needs a centre: "
                               "a build or a Gang)", tuple(
            (f"Build D {h}", f"rebuild your Don in {h}") for h in homes
            if pos.centers.get(h) == power and don_free(pos, power, h, rules))))
        if balance(pos, power, rules) <= 0:  # he needs a centre: a Gang goes (ruling 9)
            out.append(OrderChoice("The Gang removed for the new Don (else the judge picks)",
                                   removal_options(pos, power)))
    return out + adjustment_choices(pos, power, topology, rules, kinds=("G",),
                                     removable=rebuilt)


def _retreat(d: Dislodged, where: str) -> tuple[str, str]:
    """``G(Mem)-U-WCP``, ``G(Tim)-MTPD``, ``G(Mem)-Bgt``, as the rulings write them."""
    line = f"{d.unit.kind}({d.unit.location})-{where}"
    if where == GAOL:
        return line, "go to gaol (MTPD) for the rest of the game"
    if where.startswith("U-"):
        return line, f"retreat by subway to {where[2:]}"
    return line, f"retreat to {where}"
