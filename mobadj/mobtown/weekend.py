"""Weekends (rule 6): the June 1919 Don placement, retreats (rules 5, 7) and adjustments
(rule 3's Don rebuild).

Retreat options are written as a player orders them: ``Bgt`` (over ground), ``U-WCP``
(through a subway), ``MTPD`` (the gaol).  A space linked both ways appears twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from mobadj.engine import (
    Dislodged,
    OrderInput,
    OrderResult,
    Outcome,
    PhaseResult,
    Reason,
    UnitState,
)
from mobadj.mobtown.notation import PlaceDon
from mobadj.mobtown.state import MobtownPosition
from mobadj.mobtown.terms import (
    GAOL,
    MAX_DONS,
    SUBWAY,
    MobtownReason,
    Options,
    ground_link,
    mob_name,
    refused_reason,
    subway_link,
)
from mobadj.orders.model import Build, Disband, Hold, Move, Remove, Retreat, Unit

if TYPE_CHECKING:
    from mobadj.board import GameMap


# ---- June 1919 -----------------------------------------------------------------------------


def place_dons(pos: MobtownPosition, pairs: list[OrderInput], game_map: GameMap
               ) -> PhaseResult[MobtownPosition]:
    """Rule 6: each mob chooses the home centre its Don starts in (default: the first home
    centre in the rulebook's list, ruling 14)."""
    after = pos.copy()
    results: list[OrderResult] = []
    for power, order in pairs:
        who = power or "?"
        if isinstance(order, Build) and order.unit.kind == "D":
            order = PlaceDon(order.unit)
        if not isinstance(order, PlaceDon):
            results.append(OrderResult(who, order, Outcome.INVALID,
                                       refused_reason(order, MobtownReason.WRONG_PHASE)))
            continue
        prov = order.unit.location
        owner = power or next((p for p, pw in game_map.powers.items()
                               if prov in pw.home_centers), None)
        if owner is None or prov not in game_map.powers[owner].home_centers:
            results.append(OrderResult(who, order, Outcome.INVALID,
                                       MobtownReason.NOT_HOME_START))
        elif owner in after.dons:
            results.append(OrderResult(owner, order, Outcome.INVALID,
                                       MobtownReason.ALREADY_PLACED))
        else:
            after.dons[owner] = prov
            results.append(OrderResult(owner, order, Outcome.SUCCEEDS))
    defaults = []
    for pid, mob in game_map.powers.items():
        if pid not in after.dons and mob.home_centers:
            prov = mob.home_centers[0]
            after.dons[pid] = prov
            defaults.append(OrderResult(pid, PlaceDon(Unit("D", prov)), Outcome.SUCCEEDS,
                                        MobtownReason.DEFAULT_PLACED))
    return PhaseResult(pos.phase, results, defaults, after)


# ---- retreats --------------------------------------------------------------------------------


def retreat_options(d: Dislodged, occupied: Iterable[str], standoffs: Iterable[str],
                    game_map: GameMap, options: Options) -> tuple[str, ...]:
    """Rule 5: retreats may use subways, never to the attacker's origin, and (option
    ``subway_retreats``) only by subway after an attack from under ground.  Rule 7: MTPD is
    open to a Gang next to it (the gaol holds any number, ruling 6) whenever a retreat over
    ground is allowed; no subway leads there, so after an attack from under ground it is
    closed by default and the Gang may disband (ruling 24)."""
    src = d.unit.location
    under_only = d.via == "subway" and options.subway_retreats == "subway_only"
    blocked = set(occupied) | set(standoffs)
    out: list[str] = []
    for dest in sorted(game_map.neighbours("G", src)):
        if dest == d.attacker_from:
            continue
        edge = game_map.edge("G", src, dest)
        if dest == GAOL:
            if ground_link(edge) and not under_only:
                out.append(GAOL)
            continue
        if dest in blocked:
            continue
        if ground_link(edge) and not under_only:
            out.append(dest)
        if subway_link(edge):
            out.append(f"U-{dest}")
    return tuple(out)


def _options(pos: MobtownPosition, d: Dislodged, game_map: GameMap, options: Options
             ) -> tuple[str, ...]:
    return retreat_options(d, pos.units, pos.standoffs, game_map, options)


def retreats(pos: MobtownPosition, pairs: list[OrderInput], game_map: GameMap,
             options: Options) -> PhaseResult[MobtownPosition]:
    """The weekend's retreats: a Gang that may retreat to MTPD may not disband (rule 7); one
    left without a valid retreat goes to gaol when it can, else disbands."""
    after = pos.copy()
    after.dislodged = {}
    results: list[OrderResult | None] = []
    chosen: dict[str, tuple[int, str]] = {}  # province -> (index, option)
    attempted: set[str] = set()  # dislodged Gangs that got some order, even an invalid one
    for power, order in pairs:
        unit = getattr(order, "unit", None)
        who = (pos.owner_of(power, unit.kind, unit.location) if isinstance(unit, Unit)
               else power or "?")
        if not isinstance(order, (Move, Retreat, Disband, Remove, Hold)) or unit is None:
            results.append(OrderResult(who, order, Outcome.INVALID,
                                       refused_reason(order, Reason.WRONG_PHASE)))
            continue
        if unit.kind == "D":  # ruling 11: Dons never retreat
            results.append(OrderResult(who, order, Outcome.INVALID, MobtownReason.DON_ALONE))
            continue
        d = pos.dislodged.get(unit.location)
        if d is None:
            why = Reason.NOT_DISLODGED if unit.location in pos.units else Reason.NO_UNIT
            results.append(OrderResult(who, order, Outcome.INVALID, why))
            continue
        owner = d.unit.power
        if power is not None and power != owner:
            results.append(OrderResult(power, order, Outcome.INVALID, Reason.NOT_OWNER))
            continue
        attempted.add(unit.location)
        if unit.location in chosen:
            results.append(OrderResult(owner, order, Outcome.INVALID, Reason.DUPLICATE))
            continue
        open_ = _options(pos, d, game_map, options)
        if isinstance(order, (Disband, Remove)):
            if GAOL in open_:  # rule 7
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
        option = f"U-{dest}" if order.route == SUBWAY else dest
        if option not in open_:
            edge = game_map.edge("G", unit.location, dest)
            blocked: StrEnum = (MobtownReason.RETREAT_BLOCKED_GAOL if GAOL in open_
                                else Reason.RETREAT_BLOCKED)  # disbanded
            if edge is not None and dest != d.attacker_from:
                other = dest if order.route == SUBWAY else f"U-{dest}"
                if other in open_:
                    blocked = _route_reason(order.route == SUBWAY, GAOL in open_)
                elif (order.route != SUBWAY and d.via == SUBWAY
                      and options.subway_retreats == "subway_only"):
                    blocked = MobtownReason.RETREAT_OVERGROUND
            results.append(OrderResult(owner, order, Outcome.INVALID, blocked))
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
        open_ = _options(pos, d, game_map, options)
        entry = chosen.get(prov)
        fate = ""  # "" disband, "gaol", or a province
        if entry is not None:
            idx, option = entry
            order = pairs[idx][1]
            dest = option.removeprefix("U-")
            if not option:
                results[idx] = OrderResult(d.unit.power, order, Outcome.SUCCEEDS)
            elif count.get(dest, 0) > 1:
                fate = GAOL if GAOL in open_ else ""
                clash: StrEnum = MobtownReason.CLASH_GAOL if fate else Reason.RETREAT_CLASH
                results[idx] = OrderResult(d.unit.power, order, Outcome.FAILS, clash)
            else:
                results[idx] = OrderResult(d.unit.power, order, Outcome.SUCCEEDS)
                fate = dest
        else:  # no valid order: to gaol, else disbanded; listed as a default only when
            fate = GAOL if GAOL in open_ else ""  # it got no order at all (its invalid
            if prov not in attempted:  # order is reported once, as on the standard map)
                gone: StrEnum = MobtownReason.TO_GAOL if fate else Reason.NO_ORDER_DISBANDED
                what = f"{d.unit} R {GAOL}" if fate else f"{d.unit} Disband"
                defaults.append(OrderResult(d.unit.power, what, Outcome.SUCCEEDS, gone))
        if fate == GAOL:
            after.gaol.append(d.unit.power)
            mob = game_map.powers[d.unit.power].name
            events.append(f"{mob}'s {d.unit} goes to gaol in MTPD for the rest of the game "
                          "(rule 7)")
        elif fate:
            after.units[fate] = UnitState(d.unit.power, "G", fate)
    after.gaol.sort()
    after.standoffs = frozenset()
    return PhaseResult(pos.phase, [r for r in results if r is not None], defaults, after,
                       events=events)


# ---- adjustments (hooks of the engine's adjustment phase) -----------------------------------


def _free_homes(pos: MobtownPosition, power: str, game_map: GameMap) -> list[str]:
    """Home centres the mob owns with no Gang in them (rule 3: "free")."""
    return [h for h in game_map.powers[power].home_centers
            if pos.centers.get(h) == power and h not in pos.units]


def don_free(pos: MobtownPosition, power: str, prov: str, options: Options) -> bool:
    """Is home centre ``prov`` free for a new Don (rule 3, ruling 17)?  No enemy Gang there;
    with the ``don_needs_empty_home`` option no Gang at all."""
    gang = pos.units.get(prov)
    return gang is None or (gang.power == power and not options.don_needs_empty_home)


def electing(pos: MobtownPosition, power: str, options: Options) -> bool:
    """Is the mob's new Don still being elected (rule 3: its units stand in civil disorder
    for the next move "while a new Don is 'elected'. A new Don is then created")?  Until
    that move is played he cannot be built, unless the ``don_election`` option lets the mob
    rebuild at the next adjustment (ruling 13)."""
    return options.don_election == "after_disorder" and power in pos.disorder


def retired(pos: MobtownPosition, power: str, options: Options) -> bool:
    """Was the mob's rebuilt Don removed with option ``removed_don=gone``, so that it builds
    no other ("you may only build a Don if yours has been drowned", rule 3, ruling 26)?  The
    mob stays in ``rebuilt_dons`` with no Don."""
    return options.removed_don == "gone" and power in pos.rebuilt and power not in pos.dons


def may_rebuild(pos: MobtownPosition, power: str, game_map: GameMap, options: Options) -> bool:
    """May the mob rebuild its Don now, on a free home centre (rule 3)?"""
    if electing(pos, power, options) or retired(pos, power, options):
        return False
    return power not in pos.dons and len(pos.dons) < MAX_DONS and any(
        pos.centers.get(h) == power and don_free(pos, power, h, options)
        for h in game_map.powers[power].home_centers)


def balance(pos: MobtownPosition, power: str, options: Options) -> int:
    """Centres minus units that count against supply (positive: builds)."""
    owned = sum(1 for o in pos.centers.values() if o == power)
    return owned - pos.units_count(power, options.gaol_counts_for_supply)


def needs_adjustment(pos: MobtownPosition, game_map: GameMap, options: Options) -> bool:
    """Does any mob have a build, a removal, or a Don to rebuild?"""
    return any(_adjusts(pos, power, game_map, options) for power in game_map.powers)


def adjusting(pos: MobtownPosition, game_map: GameMap, options: Options) -> list[str]:
    """The mobs with a build they can make, a Gang (or rebuilt Don) to remove, or a Don to
    rebuild: the mobs due in an adjustment phase.  A mob short of units with no free home
    centre, or over its supply with only gaoled Gangs (they stay, rule 7), has nothing to
    order."""
    return sorted(p for p in game_map.powers if _adjusts(pos, p, game_map, options))


def _adjusts(pos: MobtownPosition, power: str, game_map: GameMap, options: Options) -> bool:
    n = balance(pos, power, options)
    if n < 0 and (any(u.power == power for u in pos.units.values())
                  or (power in pos.rebuilt and power in pos.dons)):
        return True
    if n > 0 and _free_homes(pos, power, game_map):
        return True
    return may_rebuild(pos, power, game_map, options)


def removable(pos: MobtownPosition, power: str) -> int:
    """The mob's units a removal may take: its Gangs out of gaol (rule 7, ruling 8) and a
    rebuilt Don (ruling 9)."""
    n = sum(1 for u in pos.units.values() if u.power == power)
    return n + (1 if power in pos.rebuilt and power in pos.dons else 0)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def due_words(pos: MobtownPosition, power: str, game_map: GameMap, options: Options) -> str:
    """What the mob has to do at the weekend adjustments, in words ("" for nothing): its
    builds or removals, and the rebuild of its Don when it may make one (rule 3): how to order
    it, and that the new Don counts as a unit, so he uses one build (ruling 9)."""
    n = balance(pos, power, options)
    centres = sum(1 for o in pos.centers.values() if o == power)
    rebuild = may_rebuild(pos, power, game_map, options)
    head = f"{_plural(centres, 'centre')}, {_plural(centres - n, 'unit')}: "
    parts: list[str] = []
    if n > 0:
        homes = _free_homes(pos, power, game_map)
        if homes:
            parts.append(f"may build {min(n, len(homes))} (vacant home centres: "
                         f"{', '.join(sorted(homes))}), or waive")
        elif not rebuild:
            parts.append("no vacant home centre of its own, so no build")
    elif n < 0:
        can = min(-n, removable(pos, power))
        stay = "gaoled Gangs stay (rule 7, ruling 8)"
        if can == -n:
            parts.append(f"must remove {_plural(-n, 'unit')} (else the rules choose)")
        elif can:
            parts.append(f"must remove {_plural(can, 'unit')} (else the rules choose): {-n} "
                         f"over, but {stay}")
        else:
            parts.append(f"{-n} over, but {stay}: nothing to remove")
    if rebuild:
        sites = sorted(h for h in game_map.powers[power].home_centers
                       if pos.centers.get(h) == power and don_free(pos, power, h, options))
        cost = ("he uses one of its builds" if n > 0 else
                "a Gang must go for him: Remove G X, else the rules choose")
        parts.append(f"may rebuild its Don (Build D X on a free home centre: "
                     f"{', '.join(sites)}); he counts as a unit, so {cost} (rule 3, ruling 9)")
    elif parts and power not in pos.dons and electing(pos, power, options):
        parts.append("its new Don is still being elected: he may be rebuilt at the first "
                     "weekend after its civil-disorder move (rule 3, ruling 13)")
    return head + "; ".join(parts) if parts else ""


def _route_reason(by_subway: bool, gaol_open: bool) -> MobtownReason:
    """A retreat written the wrong way (rule 5): with U where no subway is, or without U
    where only a subway is; sent to gaol instead when MTPD is open (rule 7, ruling 16)."""
    if by_subway:
        return (MobtownReason.RETREAT_NO_SUBWAY_GAOL if gaol_open
                else MobtownReason.RETREAT_NO_SUBWAY)
    return (MobtownReason.RETREAT_SUBWAY_ONLY_GAOL if gaol_open
            else MobtownReason.RETREAT_SUBWAY_ONLY)


def retreat_choice(d: Dislodged) -> bool:
    """Has a dislodged Gang anything to decide?  Not with no retreat open (it is disbanded),
    nor when MTPD is its only retreat: it may not disband then (rule 7), so it is "forced to
    retreat to MTPD" and goes to gaol whatever it is ordered (ruling 25)."""
    return bool(d.retreats) and d.retreats != (GAOL,)


def build_dons(after: MobtownPosition, pairs: list[OrderInput], game_map: GameMap,
               options: Options, events: list[str]) -> dict[int, OrderResult]:
    """The Don first: he changes how many Gangs the mob may keep (rule 3).  A Don is rebuilt
    on a free home centre only after he died, and then counts against supply."""
    built: set[str] = set()  # the mobs whose Don an earlier order of this weekend rebuilt
    return {i: _build_don(after, power, order, game_map, options, events, built)
            for i, (power, order) in enumerate(pairs)
            if isinstance(order, Build) and order.unit.kind == "D"}


def _build_don(after: MobtownPosition, power: str | None, order: Build, game_map: GameMap,
               options: Options, events: list[str], built: set[str]) -> OrderResult:
    prov = order.unit.location
    owner = power or after.centers.get(prov) or "?"

    def bad(reason: MobtownReason) -> OrderResult:
        return OrderResult(owner, order, Outcome.INVALID, reason)

    if owner in built:
        return bad(MobtownReason.DON_JUST_BUILT)
    if owner in after.dons:
        return bad(MobtownReason.DON_ALIVE)
    if retired(after, owner, options):
        return bad(MobtownReason.DON_REMOVED)
    if electing(after, owner, options):
        return bad(MobtownReason.DON_ELECTED_LATER)
    if owner not in game_map.powers or prov not in game_map.powers[owner].home_centers \
            or after.centers.get(prov) != owner:
        return bad(MobtownReason.NOT_HOME)
    if not don_free(after, owner, prov, options):
        return bad(MobtownReason.NOT_FREE)
    if len(after.dons) >= MAX_DONS:
        return bad(MobtownReason.SIX_DONS)
    after.dons[owner] = prov
    after.rebuilt = after.rebuilt | {owner}
    built.add(owner)
    events.append(f"{mob_name(game_map, owner)} elects a new Don in {prov}; he needs a "
                  "supply centre (rule 3)")
    return OrderResult(owner, order, Outcome.SUCCEEDS)


def dons_adjusted(before: MobtownPosition, result: PhaseResult[MobtownPosition],
                  game_map: GameMap, options: Options) -> None:
    """The Dons rebuilt (rule 3) and the rebuilt Dons removed (ruling 9) at the weekend are
    in the summary of the adjustments with the Gangs; a removed Don is dead "by one way or
    another", so his mob stands in civil disorder for the next move while a new Don is
    elected, and may rebuild him after it (rule 3, ruling 26).  Option ``removed_don=gone``:
    he was not drowned, so no civil disorder and no other Don for the mob."""
    after = result.position
    for p, prov in sorted(after.dons.items()):
        if before.dons.get(p) != prov:
            result.built.append(UnitState(p, "D", prov))
    for p, prov in sorted(before.dons.items()):
        if p in after.dons or p not in before.rebuilt:
            continue
        result.removed.append(UnitState(p, "D", prov))
        if options.removed_don == "gone":
            result.events.append(f"{mob_name(game_map, p)} removes its Don from {prov}; he "
                                 "was not drowned, so the mob builds no other Don (rule 3, "
                                 "ruling 26)")
            continue
        after.disorder = after.disorder | {p}
        result.events.append(f"{mob_name(game_map, p)} removes its Don from {prov}: he is "
                             "dead to the mob, which stands in civil disorder next week while "
                             "a new Don is elected (rule 3, ruling 26)")


def build_used_by_don(before: MobtownPosition, result: PhaseResult[MobtownPosition],
                      options: Options) -> None:
    """A Gang build (or a waive) refused because the mob's new Don took its build says so,
    not just "no builds allowed" (rule 3, ruling 9)."""
    after = result.position
    took = {p for p in after.rebuilt - before.rebuilt
            if p not in before.dons and balance(before, p, options) > 0}
    if not took:
        return
    for i, r in enumerate(result.results):
        if r.power in took and r.reason is Reason.NO_BUILDS:
            result.results[i] = OrderResult(r.power, r.order, r.outcome,
                                            MobtownReason.BUILD_USED_BY_DON)


def remove_order(after: MobtownPosition, power: str | None, order: Remove | Disband,
                 left: dict[str, int], options: Options) -> OrderResult | None:
    """A gaoled Gang stays (rule 7); a rebuilt Don may be removed for a Gang's sake (rule 3);
    None for a Gang, which the engine removes."""
    prov = order.unit.location
    who = power or "?"
    if prov == GAOL:
        return OrderResult(who, order, Outcome.INVALID, MobtownReason.GAOL_STAYS)
    if order.unit.kind != "D":
        return None
    owner = power or next((p for p, w in after.dons.items() if w == prov), "?")
    if after.dons.get(owner) != prov:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NO_UNIT)
    if owner not in after.rebuilt:
        return OrderResult(owner, order, Outcome.INVALID, MobtownReason.DON_FREE)
    if left.get(owner, 0) >= 0:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NO_BUILDS)
    del after.dons[owner]
    if options.removed_don == "dies":  # ruling 26: "gone" keeps the mark, no other Don
        after.rebuilt = after.rebuilt - {owner}
    left[owner] += 1
    return OrderResult(owner, order, Outcome.SUCCEEDS)
