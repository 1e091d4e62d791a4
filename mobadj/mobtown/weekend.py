"""Weekends (rule 6): the June 1919 Don placement, retreats (rules 5, 7) and adjustments
(rule 3's Don rebuild).

Retreat options are written as a player orders them: ``Bgt`` (over ground), ``U-WCP``
(through a subway), ``MTPD`` (the gaol).  A space linked both ways appears twice.
"""

from __future__ import annotations

from typing import Any

from mobadj.engine.adjustments import civil_disorder
from mobadj.engine.position import Dislodged, UnitState
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.topology import topology_for
from mobadj.mobtown.notation import PlaceDon
from mobadj.mobtown.rules import GAOL, MobtownReason, MobtownRules
from mobadj.mobtown.state import MobtownPosition
from mobadj.orders.model import Build, Disband, Hold, Move, Remove, Retreat, Unit, Waive

MAX_DONS = 6  # rule 3


def _result(phase: Any, results: list, defaults: list, after: MobtownPosition,
            events: list[str] | None = None) -> Any:
    from mobadj.mobtown.turn import MobtownResult

    return MobtownResult(phase, results, defaults, after, events=events or [])


# ---- June 1919 -----------------------------------------------------------------------------


def place_dons(pos: MobtownPosition, pairs: list, game_map: Any) -> Any:
    """Rule 6: each mob chooses the home centre its Don starts in (default: the first home
    centre in the rulebook's list, ruling 14)."""
    after = pos.copy()
    results: list[OrderResult] = []
    for power, order in pairs:
        who = power or "?"
        if isinstance(order, Build) and order.unit.kind == "D":
            order = PlaceDon(order.unit)
        if not isinstance(order, PlaceDon):
            results.append(OrderResult(who, order, Outcome.INVALID, MobtownReason.WRONG_PHASE))
            continue
        prov = order.unit.location
        owner = power or next((p for p, pw in game_map.powers.items()
                               if prov in pw.home_centers), None)
        if owner is None or prov not in game_map.powers[owner].home_centers:
            results.append(OrderResult(who, order, Outcome.INVALID, MobtownReason.NOT_HOME))
        elif owner in after.dons:
            results.append(OrderResult(owner, order, Outcome.INVALID,
                                       MobtownReason.ALREADY_PLACED))
        else:
            after.dons[owner] = prov
            results.append(OrderResult(owner, order, Outcome.SUCCEEDS))
    defaults = []
    for pid, power in game_map.powers.items():
        if pid not in after.dons and power.home_centers:
            prov = power.home_centers[0]
            after.dons[pid] = prov
            defaults.append(OrderResult(pid, PlaceDon(Unit("D", prov)), Outcome.SUCCEEDS,
                                        MobtownReason.DEFAULT_PLACED))
    return _result(pos.phase, results, defaults, after)


# ---- retreats --------------------------------------------------------------------------------


def retreat_options(d: Dislodged, pos: MobtownPosition, game_map: Any,
                    rules: MobtownRules) -> tuple[str, ...]:
    """Rule 5: retreats may use subways, never to the attacker's origin, and (option
    ``subway_retreats``) only by subway after an attack from under ground.  Rule 7: MTPD is
    open to a Gang next to it (the gaol holds any number, ruling 6) whenever a retreat over
    ground is allowed; no subway leads there, so after an attack from under ground it is
    closed by default and the Gang may disband (ruling 24)."""
    src = d.unit.location
    under_only = d.via == "subway" and rules.subway_retreats == "subway_only"
    out: list[str] = []
    for dest in sorted(game_map.neighbours("G", src)):
        if dest == d.attacker_from:
            continue
        edge = game_map.edge("G", src, dest)
        if dest == GAOL:
            if rules.ground_link(edge) and not under_only:
                out.append(GAOL)
            continue
        if dest in pos.gangs or dest in pos.standoffs:
            continue
        if rules.ground_link(edge) and not under_only:
            out.append(dest)
        if rules.subway_link(edge):
            out.append(f"U-{dest}")
    return tuple(out)


def _options(pos: MobtownPosition, d: Dislodged, game_map: Any, rules: MobtownRules):
    return retreat_options(d, pos, game_map, rules)  # with this game's options


def retreats(pos: MobtownPosition, pairs: list, game_map: Any, rules: MobtownRules) -> Any:
    """The weekend's retreats: a Gang that may retreat to MTPD may not disband (rule 7); one
    left without a valid retreat goes to gaol when it can, else disbands."""
    after = pos.copy()
    after.dislodged = {}
    results: list[OrderResult | None] = []
    chosen: dict[str, tuple[int, str]] = {}  # province -> (index, option)
    for power, order in pairs:
        who = power or "?"
        unit = getattr(order, "unit", None)
        if not isinstance(order, (Move, Retreat, Disband, Remove, Hold)) or unit is None:
            results.append(OrderResult(who, order, Outcome.INVALID, Reason.WRONG_PHASE))
            continue
        if unit.kind == "D":  # ruling 11: Dons never retreat
            results.append(OrderResult(who, order, Outcome.INVALID, MobtownReason.DON_ALONE))
            continue
        d = pos.dislodged.get(unit.location)
        if d is None:
            reason = Reason.NOT_DISLODGED if unit.location in pos.gangs else Reason.NO_UNIT
            results.append(OrderResult(who, order, Outcome.INVALID, reason))
            continue
        owner = d.unit.power
        if power is not None and power != owner:
            results.append(OrderResult(power, order, Outcome.INVALID, Reason.NOT_OWNER))
            continue
        if unit.location in chosen:
            results.append(OrderResult(owner, order, Outcome.INVALID, Reason.DUPLICATE))
            continue
        options = _options(pos, d, game_map, rules)
        if isinstance(order, (Disband, Remove)):
            if GAOL in options:  # rule 7
                results.append(OrderResult(owner, order, Outcome.INVALID,
                                           MobtownReason.NO_DISBAND_GAOL))
                continue
            chosen[unit.location] = (len(results), "")
            results.append(None)
            continue
        if isinstance(order, Hold):
            results.append(OrderResult(owner, order, Outcome.INVALID, Reason.WRONG_PHASE))
            continue
        dest = order.destination
        option = f"U-{dest}" if order.via_subway else dest
        if option not in options:
            edge = game_map.edge("G", unit.location, dest)
            reason: Any = Reason.RETREAT_BLOCKED
            if edge is not None and dest != d.attacker_from:
                other = dest if order.via_subway else f"U-{dest}"
                if other in options:
                    reason = MobtownReason.RETREAT_ROUTE
                elif (not order.via_subway and d.via == "subway"
                      and rules.subway_retreats == "subway_only"):
                    reason = MobtownReason.RETREAT_OVERGROUND
            results.append(OrderResult(owner, order, Outcome.INVALID, reason))
            continue
        chosen[unit.location] = (len(results), option)
        results.append(None)
    count: dict[str, int] = {}
    for _i, option in chosen.values():
        dest = option.removeprefix("U-")
        if option and dest != GAOL:
            count[dest] = count.get(dest, 0) + 1
    defaults: list[OrderResult] = []
    events: list[str] = []
    for prov, d in sorted(pos.dislodged.items()):
        options = _options(pos, d, game_map, rules)
        entry = chosen.get(prov)
        fate = ""  # "" disband, "gaol", or a province
        if entry is not None:
            idx, option = entry
            order = pairs[idx][1]
            dest = option.removeprefix("U-")
            if not option:
                results[idx] = OrderResult(d.unit.power, order, Outcome.SUCCEEDS)
            elif count.get(dest, 0) > 1:
                fate = GAOL if GAOL in options else ""
                why = MobtownReason.CLASH_GAOL if fate else Reason.RETREAT_CLASH
                results[idx] = OrderResult(d.unit.power, order, Outcome.FAILS, why)
            else:
                results[idx] = OrderResult(d.unit.power, order, Outcome.SUCCEEDS)
                fate = dest
        else:
            fate = GAOL if GAOL in options else ""
            reason = MobtownReason.TO_GAOL if fate else Reason.NO_ORDER_DISBANDED
            what = f"{d.unit} R {GAOL}" if fate else f"{d.unit} Disband"
            defaults.append(OrderResult(d.unit.power, what, Outcome.SUCCEEDS, reason))
        if fate == GAOL:
            after.gaol.append(d.unit.power)
            mob = game_map.powers[d.unit.power].name
            events.append(f"{mob}'s {d.unit} goes to gaol in MTPD for the rest of the game "
                          "(rule 7)")
        elif fate:
            after.gangs[fate] = UnitState(d.unit.power, "G", fate)
    after.gaol.sort()
    return _result(pos.phase, [r for r in results if r is not None], defaults, after, events)


# ---- adjustments -----------------------------------------------------------------------------


def _free_homes(pos: MobtownPosition, power: str, game_map: Any) -> list[str]:
    """Home centres the mob owns with no Gang in them (rule 3: "free")."""
    return [h for h in game_map.powers[power].home_centers
            if pos.centers.get(h) == power and h not in pos.gangs]


def don_free(pos: MobtownPosition, power: str, prov: str, rules: MobtownRules) -> bool:
    """Is home centre ``prov`` free for a new Don (rule 3, ruling 17)?  No enemy Gang there;
    with the ``don_needs_empty_home`` option no Gang at all."""
    gang = pos.gangs.get(prov)
    return gang is None or (gang.power == power and not rules.don_needs_empty_home)


def _may_rebuild(pos: MobtownPosition, power: str, game_map: Any, rules: MobtownRules) -> bool:
    return power not in pos.dons and len(pos.dons) < MAX_DONS and any(
        pos.centers.get(h) == power and don_free(pos, power, h, rules)
        for h in game_map.powers[power].home_centers)


def balance(pos: MobtownPosition, power: str, rules: MobtownRules) -> int:
    """Centres minus units that count against supply (positive: builds)."""
    owned = sum(1 for o in pos.centers.values() if o == power)
    return owned - pos.units_count(power, rules.gaol_counts_for_supply)


def needs_adjustment(pos: MobtownPosition, game_map: Any, rules: MobtownRules) -> bool:
    """Does any mob have a build, a removal, or a Don to rebuild?"""
    for power in game_map.powers:
        n = balance(pos, power, rules)
        removable = any(u.power == power for u in pos.gangs.values()) or (
            power in pos.rebuilt and power in pos.dons)
        if n < 0 and removable:
            return True
        if n > 0 and _free_homes(pos, power, game_map):
            return True
        if _may_rebuild(pos, power, game_map, rules):
            return True
    return False


def adjustments(pos: MobtownPosition, pairs: list, game_map: Any, rules: MobtownRules) -> Any:
    """Builds and removals; a Don is rebuilt on a free home centre only after he died, and
    then counts against supply (rule 3) - a mob over its supply removes Gangs for him."""
    after = pos.copy()
    results: list[OrderResult] = []
    taken: set[str] = set()
    events: list[str] = []
    # the Don first: he changes how many Gangs the mob may keep (rule 3)
    dons = {i: _build_don(after, power, order, game_map, rules, events)
            for i, (power, order) in enumerate(pairs)
            if isinstance(order, Build) and order.unit.kind == "D"}
    left = {p: balance(after, p, rules) for p in game_map.powers}
    for i, (power, order) in enumerate(pairs):
        who = power or "?"
        if i in dons:  # results stay in the order given
            results.append(dons[i])
            continue
        if isinstance(order, Waive):
            ok = left.get(who, 0) > 0
            if ok:
                left[who] -= 1
            results.append(OrderResult(who, order, Outcome.SUCCEEDS if ok else Outcome.INVALID,
                                       None if ok else Reason.NO_BUILDS))
        elif isinstance(order, Build):
            results.append(_build_gang(after, power, order, game_map, left, taken))
        elif isinstance(order, (Remove, Disband)):
            results.append(_remove(after, power, order, left, taken))
        else:
            results.append(OrderResult(who, order, Outcome.INVALID, MobtownReason.WRONG_PHASE))
    defaults: list[OrderResult] = []
    topo = topology_for(game_map)
    for power, n in sorted(left.items()):
        if n >= 0:
            continue
        board = after.board()
        for u in civil_disorder(board, power, -n, taken, topo):
            after.gangs.pop(u.province, None)
            taken.add(u.province)
            defaults.append(OrderResult(power, f"Remove {u}", Outcome.SUCCEEDS,
                                        Reason.CIVIL_DISORDER))
    return _result(pos.phase, results, defaults, after, events)


def _build_don(after: MobtownPosition, power: str | None, order: Build, game_map: Any,
               rules: MobtownRules, events: list[str]) -> OrderResult:
    prov = order.unit.location
    owner = power or after.centers.get(prov) or "?"
    bad = lambda reason: OrderResult(owner, order, Outcome.INVALID, reason)  # noqa: E731
    if owner in after.dons:
        return bad(MobtownReason.DON_ALIVE)
    if owner not in game_map.powers or prov not in game_map.powers[owner].home_centers \
            or after.centers.get(prov) != owner:
        return bad(MobtownReason.NOT_HOME)
    if not don_free(after, owner, prov, rules):
        return bad(MobtownReason.NOT_FREE)
    if len(after.dons) >= MAX_DONS:
        return bad(MobtownReason.SIX_DONS)
    after.dons[owner] = prov
    after.rebuilt = after.rebuilt | {owner}
    events.append(f"{game_map.powers[owner].name} elects a new Don in {prov}; he needs a "
                  "supply centre (rule 3)")
    return OrderResult(owner, order, Outcome.SUCCEEDS)


def _build_gang(after: MobtownPosition, power: str | None, order: Build, game_map: Any,
                left: dict[str, int], taken: set[str]) -> OrderResult:
    prov = order.unit.location
    owner = power or after.centers.get(prov) or "?"
    bad = lambda reason: OrderResult(owner, order, Outcome.INVALID, reason)  # noqa: E731
    if left.get(owner, 0) <= 0:
        return bad(Reason.NO_BUILDS)
    if owner not in game_map.powers or prov not in game_map.powers[owner].home_centers:
        return bad(Reason.NOT_HOME)
    if after.centers.get(prov) != owner:
        return bad(Reason.NOT_OWNED)
    if prov in after.gangs or prov in taken:
        return bad(Reason.OCCUPIED)
    left[owner] -= 1
    taken.add(prov)
    after.gangs[prov] = UnitState(owner, "G", prov)
    return OrderResult(owner, order, Outcome.SUCCEEDS)


def _remove(after: MobtownPosition, power: str | None, order: Any, left: dict[str, int],
            taken: set[str]) -> OrderResult:
    prov = order.unit.location
    who = power or "?"
    if prov == GAOL:
        return OrderResult(who, order, Outcome.INVALID, MobtownReason.GAOL_STAYS)
    if order.unit.kind == "D":
        owner = power or next((p for p, w in after.dons.items() if w == prov), "?")
        if after.dons.get(owner) != prov:
            return OrderResult(owner, order, Outcome.INVALID, Reason.NO_UNIT)
        if owner not in after.rebuilt:
            return OrderResult(owner, order, Outcome.INVALID, MobtownReason.DON_FREE)
        if left.get(owner, 0) >= 0:
            return OrderResult(owner, order, Outcome.INVALID, Reason.NO_BUILDS)
        del after.dons[owner]
        after.rebuilt = after.rebuilt - {owner}
        left[owner] += 1
        return OrderResult(owner, order, Outcome.SUCCEEDS)
    unit = after.gangs.get(prov)
    owner = power or (unit.power if unit else "?")
    if unit is None:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NO_UNIT)
    if unit.power != owner:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NOT_OWNER)
    if prov in taken:
        return OrderResult(owner, order, Outcome.INVALID, Reason.DUPLICATE)
    if left.get(owner, 0) >= 0:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NO_BUILDS)
    del after.gangs[prov]
    taken.add(prov)
    left[owner] += 1
    return OrderResult(owner, order, Outcome.SUCCEEDS)
