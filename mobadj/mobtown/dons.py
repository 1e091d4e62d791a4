"""The Don (rule 3): where each Don ends a movement turn, and when he dies.

A Don has no strength and never takes part in resolution.  After the Gangs are resolved:

- a Don whose Gang moved ``G+D(X)-Y`` and succeeded goes with it (every Don in X does,
  his own and any captive, ruling 2);
- a Don whose Gang is dislodged is left behind: in water he drowns (a captive too, with his
  captor's Gang, unless the ``captive_don_drowns`` option is off: then he is left behind
  like a Don on land), on land the dislodging Gang now stands in his space and has captured
  him (or freed him, if it is his own mob's);
- ``D(X) cement overcoat`` succeeds when the captor's Gang left X without him and no Gang
  ends in X: the captive drowns (only in water);
- with the ``lone_don_drowns`` option every Don left alone in water drowns (ruling 4).

A mob whose Don died stands in civil disorder for the next movement (rule 3).
:func:`after_movement` is the variant's hook once the Gangs have moved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mobadj.engine import OrderResult, Outcome, UnitState
from mobadj.mobtown.notation import CementOvercoat
from mobadj.mobtown.state import MobtownPosition
from mobadj.mobtown.terms import MobtownReason, Options, is_water, mob_name
from mobadj.orders.model import Hold, Move, Unit

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.engine import MovementOutcome
    from mobadj.orders.model import AnyOrder


@dataclass
class DonOutcome:
    """Where the Dons are after the turn and who died (and how)."""

    dons: dict[str, str]  # mob -> province
    died: dict[str, str] = field(default_factory=dict)  # mob -> province where he drowned
    how: dict[str, str] = field(default_factory=dict)  # mob -> words for the report
    results: dict[int, OrderResult] = field(default_factory=dict)  # cement orders by index


def check_cement(order: CementOvercoat, power: str, dons: dict[str, str],
                 gangs: dict[str, UnitState], game_map: GameMap) -> MobtownReason | None:
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
    gangs_after: dict[str, UnitState],
    moved: dict[str, str],
    with_don: set[str],
    dislodged: Mapping[str, str],
    cement: list[tuple[int, str, CementOvercoat]],
    game_map: GameMap,
    lone_don_drowns: bool = False,
    captive_don_drowns: bool = True,
) -> DonOutcome:
    """Apply rule 3 to every Don; ``dislodged`` maps the province of each dislodged Gang to
    its mob; ``cement`` holds (index, power, order) of valid orders."""
    out = DonOutcome(dict(dons))
    for power, prov in sorted(dons.items()):
        gang = dislodged.get(prov)
        if prov in with_don and prov in moved:
            out.dons[power] = moved[prov]
        elif gang is not None and is_water(game_map, prov):
            if gang == power:
                out.died[power] = prov
                out.how[power] = f"drowned in {prov}: his Gang was dislodged from the water"
            elif captive_don_drowns:
                out.died[power] = prov
                out.how[power] = (f"drowned in {prov}: the Gang that held him was dislodged "
                                  "from the water")
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
    if lone_don_drowns:
        for power, prov in sorted(out.dons.items()):
            if power not in out.died and prov not in gangs_after and is_water(game_map, prov):
                out.died[power] = prov
                out.how[power] = f"drowned alone in {prov} (lone_don_drowns)"
    for power in out.died:
        out.dons.pop(power, None)
    return out


def after_movement(before: MobtownPosition, after: MobtownPosition, outcome: MovementOutcome,
                   aside: list[tuple[int, str | None, AnyOrder]], game_map: GameMap,
                   options: Options) -> tuple[dict[int, OrderResult], list[str]]:
    """Rule 3 once the Gangs have moved: the Dons go along, are left behind, captured or
    drowned; the cement overcoat orders (kept aside) are judged; a mob whose Don died stands
    in civil disorder next week.  ``after`` is changed; returns the cement results and news."""
    cement: list[tuple[int, str, CementOvercoat]] = []
    for i, power, order in aside:
        assert isinstance(order, CementOvercoat), "only cement overcoats are kept aside"
        if power is None:  # no mob named: the captor is the Gang standing there
            gang = before.units.get(order.unit.location)
            power = gang.power if gang is not None else None
        cement.append((i, power or "?", order))
    with_don = {  # which successful moves took the Don along
        src for src, order in outcome.followed.items()
        if src in outcome.moves and getattr(order, "escort", "") == "D"
    }
    don_out = move_dons(before.dons, after.units, outcome.moves, with_don,
                        {d.unit.province: d.unit.power for d in outcome.dislodged}, cement,
                        game_map, options.lone_don_drowns, options.captive_don_drowns)
    after.dons = don_out.dons
    after.disorder = frozenset(don_out.died)
    events = [f"{mob_name(game_map, p)}'s Don {how}; {mob_name(game_map, p)} stands in civil "
              "disorder next week (rule 3)" for p, how in sorted(don_out.how.items())]
    return don_out.results, events


def captures(before: MobtownPosition, after: MobtownPosition, game_map: GameMap) -> list[str]:
    """News of Dons captured or freed in a phase (rule 3)."""
    out = []
    for p, prov in sorted(after.dons.items()):
        old, new = before.captor(p), after.captor(p)
        if new and new != old:
            out.append(f"{mob_name(game_map, p)}'s Don in {prov} is captured by "
                       f"{mob_name(game_map, new)} (rule 3)")
        elif old and not new and p in before.dons:
            out.append(f"{mob_name(game_map, p)}'s Don in {prov} is no longer held by "
                       f"{mob_name(game_map, old)}")
    return out


def unordered(before: MobtownPosition, results: list[OrderResult]) -> list[OrderResult]:
    """The Dons no order of the turn named, each holding by default as a Gang without an
    order does (the report lists them, ``D DtB H  succeeds (no order needed: a Don moves
    only with a Gang)``: he needs none, ruling 4).  A Don is
    named by an order of his own (``D(X) H``, ``D(X) cement overcoat``) or by a ``G+D``
    move from his space, which takes every Don there along (ruling 2)."""
    named: set[str] = set()
    for r in results:
        order = r.given
        unit = getattr(order, "unit", None)
        if unit is None:
            continue
        if unit.kind == "D" or (isinstance(order, Move) and order.escort == "D"):
            named.add(unit.location)
    return [OrderResult(power, Hold(Unit("D", where)), Outcome.SUCCEEDS)
            for power, where in sorted(before.dons.items()) if where not in named]
