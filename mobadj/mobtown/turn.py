"""One Mobtown II phase: Don placement, movement, weekend retreats or adjustments.

:func:`adjudicate` is the Mobtown entry point (CLI, batch, judge).  Movement goes through the
engine (validate -> defaults -> resolve -> outcome) with :class:`MobtownRules` hooks; what the
engine does not know (Dons, civil disorder, the gaol, the calendar) is done here and in
:mod:`mobadj.mobtown.dons` / :mod:`mobadj.mobtown.weekend`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mobadj.engine import movement
from mobadj.engine.pipeline import execute_movement, normalise_orders
from mobadj.engine.position import Dislodged
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.topology import topology_for
from mobadj.mobtown import calendar, weekend
from mobadj.mobtown.calendar import MPhase
from mobadj.mobtown.dons import check_cement, move_dons
from mobadj.mobtown.notation import CementOvercoat, PlaceDon
from mobadj.mobtown.rules import GAOL, MobtownReason, MobtownRules
from mobadj.mobtown.state import MobtownPosition
from mobadj.orders.model import Hold, Move, SupportHold, SupportMove

WIN = 17  # rule 8


@dataclass
class MobtownResult:
    """Everything one Mobtown phase produced (see the engine's PhaseResult)."""

    phase: MPhase
    results: list[OrderResult]
    defaults: list[OrderResult]
    position: MobtownPosition
    centre_changes: list[tuple[str, str | None, str]] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)  # for the picture
    events: list[str] = field(default_factory=list)  # Don news, gaol, victory

    @property
    def next_phase(self) -> MPhase:
        """The phase to play next."""
        return self.position.phase


def adjudicate(position: MobtownPosition, orders: Iterable[Any], game_map: Any,
               rules: MobtownRules | None = None) -> MobtownResult:
    """Adjudicate one phase; ``position`` is not changed."""
    rules = rules or MobtownRules()
    pairs = normalise_orders(list(orders))
    phase = position.phase
    if phase.is_start:
        result = weekend.place_dons(position, pairs, game_map)
    elif phase.is_movement:
        result = _movement(position, pairs, game_map, rules)
    elif phase.is_retreat:
        result = weekend.retreats(position, pairs, game_map, rules)
    else:
        result = weekend.adjustments(position, pairs, game_map, rules)
    result.events += _captures(position, result.position, game_map)
    _advance(result, game_map, rules)
    return result


def _captures(before: MobtownPosition, after: MobtownPosition, game_map: Any) -> list[str]:
    """News of Dons captured or freed in this phase (rule 3)."""
    out = []
    for p, prov in sorted(after.dons.items()):
        old, new = before.captor(p), after.captor(p)
        if new and new != old:
            out.append(f"{_name(game_map, p)}'s Don in {prov} is captured by "
                       f"{_name(game_map, new)} (rule 3)")
        elif old and not new and p in before.dons:
            out.append(f"{_name(game_map, p)}'s Don in {prov} is no longer held by "
                       f"{_name(game_map, old)}")
    return out


# ---- movement ---------------------------------------------------------------------------


def _pre_check(position: MobtownPosition, power: str | None, order: Any, game_map: Any,
               rules: MobtownRules) -> OrderResult | None:
    """Mobtown reasons an order is refused before the engine sees it (None: pass it on)."""
    who = power or "?"
    unit = getattr(order, "unit", None)
    if isinstance(order, PlaceDon) or type(order) not in (Hold, Move, SupportHold, SupportMove,
                                                          CementOvercoat):
        return OrderResult(who, order, Outcome.INVALID, Reason.WRONG_PHASE)
    loc = unit.location
    gang = position.gangs.get(loc)
    owner = power or (gang.power if gang is not None else None)
    if owner is not None and owner in position.disorder:
        return OrderResult(owner, order, Outcome.INVALID, MobtownReason.CIVIL_DISORDER)
    if isinstance(order, CementOvercoat):
        return None
    if unit.kind == "D":  # rule 3: a Don never acts alone; "D(X) H" is harmless
        mine = [p for p, where in sorted(position.dons.items())
                if where == loc and power in (None, p)]
        if type(order) is Hold and mine:
            return OrderResult(mine[0], order, Outcome.SUCCEEDS)
        return OrderResult(who, order, Outcome.INVALID, MobtownReason.DON_ALONE)
    if loc == GAOL:
        return OrderResult(who, order, Outcome.INVALID, MobtownReason.IN_GAOL)
    if type(order) in (SupportMove, SupportHold) and not rules.subway_support:
        goal = order.destination if type(order) is SupportMove else order.supported.location
        edge = game_map.edge("G", loc, goal)
        if edge is not None and not rules.ground_link(edge):
            return OrderResult(who, order, Outcome.INVALID, MobtownReason.SUPPORT_BY_SUBWAY)
    return None


def _movement(position: MobtownPosition, pairs: list[tuple[str | None, Any]], game_map: Any,
              rules: MobtownRules) -> MobtownResult:
    topo = topology_for(game_map)
    bound = rules.bind(position.dons_at(), game_map)
    slots: list[OrderResult | int | None] = []  # per input: a result, or an engine index
    engine_pairs: list[tuple[str | None, Any]] = []
    cement: list[tuple[int, str, Any]] = []
    for i, (power, order) in enumerate(pairs):
        early = _pre_check(position, power, order, game_map, rules)
        if early is not None:
            slots.append(early)
        elif isinstance(order, CementOvercoat):
            if power is None:  # no mob named: the captor is the Gang standing there
                gang = position.gangs.get(order.unit.location)
                power = gang.power if gang is not None else None
            why = check_cement(order, power or "?", position.dons, position.gangs, game_map)
            if why is not None:
                slots.append(OrderResult(power or "?", order, Outcome.INVALID, why))
            else:
                slots.append(None)
                cement.append((i, power or "?", order))
        else:
            slots.append(len(engine_pairs))
            engine_pairs.append((power, order))
    board = position.board()
    validated = movement.add_defaults(movement.validate(board, engine_pairs, topo, bound), board)
    resolver = movement.Resolver(validated.orders, topo, bound)
    resolver.run()
    outcome = movement.outcome(resolver, validated)
    after_board = execute_movement(board, outcome)
    # Which successful moves took the Don along (rule 3)
    with_don = {
        mo.prov for mo in validated.orders
        if mo.code == movement.MOVE and mo.res and mo.invalid is None
        and getattr(mo.source, "with_don", False)
    }
    don_out = move_dons(position.dons, position.gangs, after_board.units, outcome.moves,
                        with_don, [d.unit.province for d in outcome.dislodged], cement,
                        game_map, rules)
    crossing = {id(mo.source) for mo in validated.orders
                if mo.code == movement.MOVE and mo.margin > 0 and not mo.res}
    exchange = {id(mo.source) for mo in validated.orders  # example b: both under, equal
                if mo.code == movement.MOVE and mo.subway and not mo.res and mo.opp is not None
                and mo.opp.code == movement.MOVE and mo.opp.dprov == mo.prov
                and mo.opp.subway and not mo.opp.res}
    results: list[OrderResult] = []
    for i, slot in enumerate(slots):
        if isinstance(slot, OrderResult):
            results.append(slot)
        elif slot is None:
            results.append(don_out.results[i])
        else:
            results.append(_reason(outcome.results[slot], crossing, exchange))
    after = position.copy()
    after.gangs = dict(after_board.units)
    after.dons = don_out.dons
    after.disorder = frozenset(don_out.died)
    after.standoffs = outcome.standoffs if outcome.dislodged else frozenset()
    after.dislodged = {}
    for d in outcome.dislodged:
        via = "subway" if d.via == "subway" else "ground"
        plain = Dislodged(d.unit, d.attacker_from, False, via=via)
        options = weekend.retreat_options(plain, after, game_map, rules)
        after.dislodged[d.unit.province] = Dislodged(d.unit, d.attacker_from, False, options,
                                                     via)
    events = [f"{_name(game_map, p)}'s Don {how}; {_name(game_map, p)} stands in civil "
              "disorder next week (rule 3)" for p, how in sorted(don_out.how.items())]
    moves = []
    for mo in validated.orders:
        if mo.code == movement.MOVE and mo.invalid is None:
            moves.append({"power": mo.power, "from": mo.prov, "to": mo.dprov,
                          "via": "subway" if mo.subway else "ground",
                          "result": "succeeds" if mo.res else "fails"})
    return MobtownResult(position.phase, results, outcome.defaults, after, moves=moves,
                         events=events)


def _reason(r: OrderResult, crossing: set[int], exchange: set[int]) -> OrderResult:
    """A failed highway crossing says so (rule 4) rather than "destination held"; so does a
    failed exchange through a subway (rule 5)."""
    if r.outcome is not Outcome.FAILS:
        return r
    if id(r._order) in crossing and r.reason in (
            Reason.HELD, Reason.BOUNCED, Reason.LOST_HEAD_TO_HEAD):
        return OrderResult(r.power, r._order, r.outcome, MobtownReason.HIGHWAY)
    if id(r._order) in exchange and r.reason is Reason.LOST_HEAD_TO_HEAD:
        return OrderResult(r.power, r._order, r.outcome, MobtownReason.SUBWAY_EXCHANGE)
    return r


def _name(game_map: Any, pid: str) -> str:
    power = game_map.powers.get(pid)
    return power.name if power is not None else pid


# ---- after every phase --------------------------------------------------------------------


def update_centres(pos: MobtownPosition, game_map: Any) -> list[tuple[str, str | None, str]]:
    """Rule 6: a Gang standing in a centre at the end of week 2 or 4 takes it (a Don alone
    takes nothing, ruling 10)."""
    changes = []
    for prov, gang in sorted(pos.gangs.items()):
        if prov in game_map.supply_centers and pos.centers.get(prov) != gang.power:
            changes.append((prov, pos.centers.get(prov), gang.power))
            pos.centers[prov] = gang.power
    return changes


def _advance(result: MobtownResult, game_map: Any, rules: MobtownRules) -> None:
    after = result.position
    phase = result.phase
    has_dislodged = bool(after.dislodged)
    scoring = phase.is_movement or phase.is_retreat
    if scoring and calendar.scores_after(phase, has_dislodged and phase.is_movement):
        result.centre_changes = update_centres(after, game_map)
        counts: dict[str, int] = {}
        for owner in after.centers.values():
            counts[owner] = counts.get(owner, 0) + 1
        leaders = [p for p, n in counts.items() if n >= WIN]  # rule 8
        if leaders and not after.winner:
            after.winner = leaders[0]
            result.events.append(f"{_name(game_map, leaders[0])} controls "
                                 f"{counts[leaders[0]]} of 32 centres and wins (rule 8)")
    after.phase = calendar.next_phase(
        phase, has_dislodged, lambda: weekend.needs_adjustment(after, game_map, rules))
    if not after.phase.is_retreat:
        after.dislodged = {}
        after.standoffs = frozenset()


__all__ = ["MobtownResult", "adjudicate", "update_centres"]
