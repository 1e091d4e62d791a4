"""The Don (rule 3): where each Don ends a movement turn, and when he dies.

A Don has no strength and never takes part in resolution.  After the Gangs are resolved:

- a Don whose Gang moved ``G+D(X)-Y`` and succeeded goes with it (every Don in X does,
  his own and any captive, ruling 2);
- a Don whose Gang is dislodged is left behind: in water he drowns, on land the dislodging
  Gang now stands in his space and has captured him;
- ``D(X) cement overcoat`` succeeds when the captor's Gang left X without him and no Gang
  ends in X: the captive drowns (only in water);
- with the ``lone_don_drowns`` option every Don left alone in water drowns (ruling 4).

A mob whose Don died stands in civil disorder for the next movement (rule 3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mobadj.engine.position import UnitState
from mobadj.engine.results import OrderResult, Outcome
from mobadj.mobtown.rules import MobtownReason, MobtownRules

WATER = "water"


@dataclass
class DonOutcome:
    """Where the Dons are after the turn and who died (and how)."""

    dons: dict[str, str]  # mob -> province
    died: dict[str, str] = field(default_factory=dict)  # mob -> province where he drowned
    how: dict[str, str] = field(default_factory=dict)  # mob -> words for the report
    results: dict[int, OrderResult] = field(default_factory=dict)  # cement orders by index


def is_water(game_map: Any, prov: str) -> bool:
    """Is ``prov`` a water space (where Dons drown, rule 3)?"""
    return game_map.provinces[prov].terrain == WATER


def check_cement(order: Any, power: str, dons: dict[str, str], gangs: dict[str, UnitState],
                 game_map: Any) -> MobtownReason | None:
    """Is ``D(X) cement overcoat`` possible now (rule 3)?  None if so."""
    prov = order.unit.location
    gang = gangs.get(prov)
    captives = [p for p, where in dons.items() if where == prov and p != power]
    if gang is None or gang.power != power or not captives:
        return MobtownReason.NO_CAPTIVE
    if not is_water(game_map, prov):
        return MobtownReason.CEMENT_NOT_WATER
    return None


def move_dons(
    dons: dict[str, str],
    gangs_before: dict[str, UnitState],
    gangs_after: dict[str, UnitState],
    moved: dict[str, str],
    with_don: set[str],
    dislodged: Iterable[str],
    cement: list[tuple[int, str, Any]],
    game_map: Any,
    rules: MobtownRules,
) -> DonOutcome:
    """Apply rule 3 to every Don; ``cement`` holds (index, power, order) of valid orders."""
    out = DonOutcome(dict(dons))
    gone = set(dislodged)
    for power, prov in sorted(dons.items()):
        if prov in with_don and prov in moved:
            out.dons[power] = moved[prov]
        elif prov in gone and is_water(game_map, prov):
            out.died[power] = prov
            out.how[power] = f"drowned in {prov}: his Gang was dislodged from the water"
    for index, power, order in cement:
        prov = order.unit.location
        left = prov in moved and prov not in with_don and prov not in gangs_after
        if not left:
            out.results[index] = OrderResult(power, order, Outcome.FAILS,
                                             MobtownReason.CEMENT_NOT_ALONE)
            continue
        out.results[index] = OrderResult(power, order, Outcome.SUCCEEDS)
        for victim, where in sorted(dons.items()):
            if where == prov and victim != power and victim not in out.died:
                out.died[victim] = prov
                captor = game_map.powers[power].name if power in game_map.powers else power
                out.how[victim] = f"was given the cement overcoat in {prov} by {captor}"
    if rules.lone_don_drowns:
        for power, prov in sorted(out.dons.items()):
            if power not in out.died and prov not in gangs_after and is_water(game_map, prov):
                out.died[power] = prov
                out.how[power] = f"drowned alone in {prov} (lone_don_drowns)"
    for power in out.died:
        out.dons.pop(power, None)
    return out
