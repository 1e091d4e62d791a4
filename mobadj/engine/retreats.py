"""Retreat phases: dislodged units retreat or disband.

Rules (2023 rulebook; DATC 6.H): a unit retreats to an adjacent empty province, never to the
province its attacker came from (unless the attacker came by convoy, DATC 4.A.5 b), never to a
province left empty by a standoff, never by convoy (6.H.3).  Two or more retreats to the same
province all fail and those units are disbanded (6.H.7 ...).  A unit without a valid retreat
order is disbanded.
"""

from __future__ import annotations

from collections.abc import Iterable

from mobadj.board import province_of
from mobadj.engine.hooks import names, standard, untyped
from mobadj.engine.position import PositionT
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.rules import Rules
from mobadj.engine.topology import Topology
from mobadj.engine.units import Dislodged, UnitState, unit_state
from mobadj.orders.model import AnyOrder, Disband, Hold, Move, Remove, Retreat


class RetreatOutcome:
    """What a retreat phase decided (a plain class, as PhaseResult (mobadj.engine.pipeline))."""

    results: list[OrderResult]  # the orders as given, with outcomes
    defaults: list[OrderResult]  # units that got no order and were disbanded
    retreated: dict[str, UnitState]  # province -> unit now standing there
    disbanded: list[UnitState]

    def __init__(self, results: list[OrderResult], defaults: list[OrderResult],
                 retreated: dict[str, UnitState], disbanded: list[UnitState]) -> None:
        self.results = results
        self.defaults = defaults
        self.retreated = retreated
        self.disbanded = disbanded


def legal_retreats(
    position: PositionT, d: Dislodged, topo: Topology, rules: Rules[PositionT]
) -> tuple[str, ...]:
    """The retreat locations open to ``d`` on this board."""
    return retreat_options(rules, d, topo, position.units, position.standoffs)


def retreat_options(
    rules: Rules[PositionT],
    dislodged: Dislodged,
    topology: Topology,
    occupied: Iterable[str],
    standoffs: Iterable[str],
) -> tuple[str, ...]:
    """``rules.retreat_options(...)``: the standard rules' answer is made here, without a
    call into the rules (mobadj.engine.hooks)."""
    if standard(rules, "retreat_options"):
        return open_retreats(rules, dislodged, topology, occupied, standoffs)
    return names(untyped(rules).retreat_options(dislodged, topology, occupied, standoffs),
                 "retreat_options")


def open_retreats(
    rules: Rules[PositionT],
    dislodged: Dislodged,
    topology: Topology,
    occupied: Iterable[str],
    standoffs: Iterable[str],
) -> tuple[str, ...]:
    """The standard ``Rules.retreat_options``: an adjacent empty place, not a standoff
    province, not where the attacker came from unless it came by convoy (DATC 4.A.5 b,
    6.H.11), and whatever ``rules.retreat_allowed`` forbids."""
    banned = set(occupied)
    banned.update(standoffs)
    if not dislodged.convoyed:
        banned.add(dislodged.attacker_from)
    unit = dislodged.unit
    plain = standard(rules, "retreat_allowed")
    out = [
        loc
        for loc in topology.neighbours[unit.kind].get(unit.location, ())
        if province_of(loc) not in banned and (
            retreat_allowed(rules.convoy_retreat, dislodged, loc) if plain
            else bool(untyped(rules).retreat_allowed(dislodged, loc, None)))
    ]
    return tuple(sorted(out))


def retreat_allowed(convoy_retreat: bool, dislodged: Dislodged, destination: str) -> bool:
    """The standard ``Rules.retreat_allowed``: any place, but with ``convoy_retreat`` off not
    a convoyed attacker's origin (DATC 4.A.5 a, 6.H.11)."""
    if convoy_retreat or not dislodged.convoyed:
        return True
    return destination.partition("/")[0] != dislodged.attacker_from


def resolve_retreats(
    position: PositionT,
    orders: Iterable[tuple[str | None, AnyOrder]],
    topo: Topology,
    rules: Rules[PositionT],
) -> RetreatOutcome:
    """Adjudicate the retreat orders of ``position`` (its ``dislodged`` units)."""
    orders = list(orders)
    results: list[OrderResult | None] = []
    chosen: dict[str, tuple[int, str | None]] = {}  # dislodged province -> (result index, dest)
    attempted: set[str] = set()  # dislodged units that got some order, even an illegal one
    for power, order in orders:
        unit_ref = getattr(order, "unit", None)
        if not isinstance(order, (Move, Retreat, Disband, Remove, Hold)) or unit_ref is None:
            results.append(OrderResult(power or "?", order, Outcome.INVALID, Reason.WRONG_PHASE))
            continue
        prov = province_of(unit_ref.location)
        d = position.dislodged.get(prov)
        if d is None:
            reason = Reason.NOT_DISLODGED if prov in position.units else Reason.NO_UNIT
            results.append(OrderResult(power or "?", order, Outcome.INVALID, reason))
            continue
        owner = d.unit.power
        if power is not None and power != owner:
            results.append(OrderResult(power, order, Outcome.INVALID, Reason.NOT_OWNER))
            continue
        attempted.add(prov)
        if prov in chosen:
            results.append(OrderResult(owner, order, Outcome.INVALID, Reason.DUPLICATE))
            continue
        if isinstance(order, (Disband, Remove)):  # "Remove" in a retreat phase disbands
            chosen[prov] = (len(results), None)
            results.append(None)
            continue
        if isinstance(order, Hold):  # a hold is no retreat: the unit is disbanded
            results.append(OrderResult(owner, order, Outcome.INVALID, Reason.WRONG_PHASE))
            continue
        dest = _destination(d, order.destination, topo)
        options = legal_retreats(position, d, topo, rules)  # by these rules' options
        if dest is None or dest not in options:
            results.append(OrderResult(owner, order, Outcome.INVALID, Reason.RETREAT_BLOCKED))
            continue
        chosen[prov] = (len(results), dest)
        results.append(None)
    # Two or more retreats to one province: all fail (DATC 6.H.7 ...)
    count: dict[str, int] = {}
    for _idx, dest in chosen.values():
        if dest is not None:
            p = province_of(dest)
            count[p] = count.get(p, 0) + 1
    retreated: dict[str, UnitState] = {}
    disbanded: list[UnitState] = []
    for prov, d in position.dislodged.items():
        entry = chosen.get(prov)
        if entry is None:
            disbanded.append(d.unit)
            continue
        idx, dest = entry
        order = orders[idx][1]
        if dest is None:
            results[idx] = OrderResult(d.unit.power, order, Outcome.SUCCEEDS)
            disbanded.append(d.unit)
        elif count[province_of(dest)] > 1:
            results[idx] = OrderResult(d.unit.power, order, Outcome.FAILS, Reason.RETREAT_CLASH)
            disbanded.append(d.unit)
        else:
            results[idx] = OrderResult(d.unit.power, order, Outcome.SUCCEEDS)
            retreated[province_of(dest)] = unit_state(d.unit.power, d.unit.kind, dest)
    defaults = [
        OrderResult(d.unit.power, f"{d.unit} Disband", Outcome.SUCCEEDS, Reason.NO_ORDER_DISBANDED)
        for prov, d in position.dislodged.items()
        if prov not in attempted
    ]
    return RetreatOutcome([r for r in results if r is not None], defaults, retreated, disbanded)


def _destination(d: Dislodged, dest: str, topo: Topology) -> str | None:
    """The location a retreat order names, fixing an omitted or irrelevant coast like a move."""
    nb = topo.neighbours[d.unit.kind].get(d.unit.location, frozenset())
    if dest in nb:
        return dest
    dprov = province_of(dest)
    cands = [x for x in topo.locations.get(dprov, ()) if x in nb]
    if "/" in dest:
        return dprov if dprov in cands else None
    return cands[0] if len(cands) == 1 else None
