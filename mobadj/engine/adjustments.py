"""Adjustment (winter) phases: builds, removals, waives and civil-disorder removals.

Rules (2023 rulebook; DATC 6.I, 6.J and 4.D):

- a power with more centres than units builds in its *vacant home* centres that it still
  *owns*; a fleet only where a fleet may stand, with the coast named in a split-coast
  province (6.B.14); a fleet in an inland province fails (4.C.4 a, 6.I.2);
- a build may be waived (4.D.7 a);
- a power with more units than centres removes the difference;
- orders are taken one by one: the first legal ones are used, extra ones fail
  (4.D.4 b, 4.D.5 b, 4.D.6 b; 6.I.1, 6.I.7, 6.J.1, 6.J.2);
- too few removals: civil disorder (2023 rule, DATC 6.J.3-6.J.11) removes the units farthest
  from the power's nearest *owned* supply centre, counting moves over land and sea for every
  unit; on equal distance fleets go before armies, then alphabetically by English province name.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from mobadj.board import province_of
from mobadj.engine.hooks import names, standard, untyped, whole
from mobadj.engine.position import Position, PositionT
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.rules import Rules
from mobadj.engine.topology import Topology
from mobadj.engine.units import UnitState, unit_state
from mobadj.orders.model import AnyOrder, Build, Disband, Remove, Waive


class AdjustmentOutcome:
    """What an adjustment phase decided (a plain class, as PhaseResult
    (mobadj.engine.pipeline))."""

    results: list[OrderResult]
    defaults: list[OrderResult]  # civil-disorder removals
    built: list[UnitState]
    removed: list[UnitState]

    def __init__(self, results: list[OrderResult], defaults: list[OrderResult],
                 built: list[UnitState], removed: list[UnitState]) -> None:
        self.results = results
        self.defaults = defaults
        self.built = built
        self.removed = removed


def adjustment_counts(position: Position) -> dict[str, int]:
    """Power -> centres minus units (positive: builds, negative: removals)."""
    out: dict[str, int] = {}
    for owner in position.centers.values():
        out[owner] = out.get(owner, 0) + 1
    for u in position.units.values():
        power = u.power
        out[power] = out.get(power, 0) - 1
    return out


def needs_adjustment(position: PositionT, topo: Topology, rules: Rules[PositionT] | None = None
                     ) -> bool:
    """Does any power have a build it can make, or a unit to remove?"""
    own = _own_sites(rules)
    return any(_adjusts(position, topo, power, n, own)
               for power, n in adjustment_counts(position).items())


def adjusting(position: PositionT, topo: Topology, rules: Rules[PositionT] | None = None
              ) -> list[str]:
    """The powers with a build they can make or a unit to remove, sorted: a power with more
    centres than units but no vacant home centre of its own has nothing to order (DPjudge,
    the ``diplomacy`` package: such a power is not waited for)."""
    own = _own_sites(rules)
    return sorted(power for power, n in adjustment_counts(position).items()
                  if _adjusts(position, topo, power, n, own))


def _own_sites(rules: Rules[PositionT] | None) -> Rules[PositionT] | None:
    """``rules`` when they have their own ``build_sites`` (mobadj.engine.hooks), else None."""
    return None if rules is None or standard(rules, "build_sites") else rules


def build_sites(position: PositionT, topo: Topology, power: str,
                rules: Rules[PositionT] | None) -> Collection[str]:
    """Where ``power`` may build if it owns the centre and it is vacant: its home centres,
    or the rules' ``build_sites`` when a variant has its own (mobadj.engine.hooks)."""
    own = _own_sites(rules)
    if own is None:
        return topo.homes.get(power, frozenset())
    return names(untyped(own).build_sites(position, power, topo), "build_sites")


def _adjusts(position: PositionT, topo: Topology, power: str, n: int,
             own: Rules[PositionT] | None) -> bool:
    """Does ``power``, with ``n`` centres more than units, build or remove?  (``own``: rules
    with their own ``build_sites``, else None.)"""
    if n <= 0:
        return n < 0
    sites = (topo.homes.get(power, frozenset()) if own is None
             else names(untyped(own).build_sites(position, power, topo), "build_sites"))
    return any(position.centers.get(h) == power and h not in position.units
                         for h in sites)


def resolve_adjustments(
    position: Position,
    orders: Iterable[tuple[str | None, AnyOrder]],
    topo: Topology,
    rules: Rules | None = None,
    events: list[str] | None = None,
) -> AdjustmentOutcome:
    """Adjudicate builds, removals and waives; apply civil disorder where too few removals.

    ``position`` is the board being built: the variant's hooks (``rules``) may change it
    (e.g. a new Don), builds and removals are only listed.  ``rules.too_many`` (DATC 4.D.4 /
    4.D.6): "first" legal orders are used (b, the preference); "last" legal orders (c);
    "all_invalid" (a): a power that orders too many builds builds nothing, one that orders too
    many removals has them all made by the civil-disorder rule.  ``rules.civil_disorder``
    picks the civil-disorder rule (see :func:`civil_disorder`)."""
    rules = rules or Rules()
    orders = list(orders)
    got = untyped(rules).before_adjustments(position, orders, topo,
                                            [] if events is None else events)
    early: dict[int, OrderResult] = dict(got) if got else {}  # (None: nothing settled)
    if early:
        rest = [pair for i, pair in enumerate(orders) if i not in early]
        out = _resolve_mode(position, rest, topo, rules)
        them = iter(out.results)
        out.results = [early[i] if i in early else next(them) for i in range(len(orders))]
        return out
    return _resolve_mode(position, orders, topo, rules)


def _resolve_mode(
    position: Position, orders: list[tuple[str | None, AnyOrder]], topo: Topology, rules: Rules
) -> AdjustmentOutcome:
    """The orders taken by the ``too_many`` rule."""
    too_many = rules.too_many
    if too_many == "first":
        return _resolve(position, orders, topo, rules)
    if too_many == "last":
        out = _resolve(position, orders[::-1], topo, rules)
        out.results.reverse()
        return out
    first = _resolve(position.copy(), orders, topo, rules)  # a trial: hooks may change a board
    over = {
        (r.power, isinstance(o, Build))
        for (_, o), r in zip(orders, first.results, strict=True)
        if r.reason is Reason.TOO_MANY
    }
    if not over:
        return _resolve(position, orders, topo, rules)
    kept: list[tuple[str | None, AnyOrder]] = []
    void: dict[int, OrderResult] = {}
    for i, ((power, o), r) in enumerate(zip(orders, first.results, strict=True)):
        if isinstance(o, (Build, Remove, Disband)) and (r.power, isinstance(o, Build)) in over:
            keep_own = r.outcome is Outcome.INVALID and r.reason is not Reason.TOO_MANY
            void[i] = r if keep_own else OrderResult(
                r.power, o, Outcome.INVALID, Reason.TOO_MANY)
        else:
            kept.append((power, o))
    out = _resolve(position, kept, topo, rules)
    rest = iter(out.results)
    out.results = [void[i] if i in void else next(rest) for i in range(len(orders))]
    return out


def _counts(position: Position, rules: Rules) -> dict[str, int]:
    """``rules.adjustment_counts(position)``; a variant's counts taken as whole numbers
    (mobadj.engine.hooks), from any mapping."""
    if standard(rules, "adjustment_counts"):
        return adjustment_counts(position)
    got = dict(untyped(rules).adjustment_counts(position))
    return {power: whole(n, "adjustment_counts") for power, n in got.items()}


def _resolve(
    position: Position,
    orders: Iterable[tuple[str | None, AnyOrder]],
    topo: Topology,
    rules: Rules,
) -> AdjustmentOutcome:
    """The orders one by one, the first legal ones used (DATC 4.D.4 b, 4.D.6 b)."""
    counts = _counts(position, rules)
    left = dict(counts)
    results: list[OrderResult] = []
    built: list[UnitState] = []
    removed: list[UnitState] = []
    taken: set[str] = set()  # provinces built in or removed from this phase
    for power, order in orders:
        if isinstance(order, Waive):
            owner = power or "?"
            if left.get(owner, 0) > 0:
                left[owner] -= 1
                results.append(OrderResult(owner, order, Outcome.SUCCEEDS))
            else:
                results.append(OrderResult(owner, order, Outcome.INVALID, Reason.NO_BUILDS))
            continue
        if isinstance(order, Build):
            results.append(_build(position, power, order, topo, left, taken, built, counts, rules))
            continue
        if isinstance(order, (Remove, Disband)):
            own = (None if standard(rules, "remove_order")
                   else rules.remove_order(position, power, order, left))
            results.append(own if own is not None else
                           _remove(position, power, order, left, taken, removed, counts, rules))
            continue
        results.append(OrderResult(power or "?", order, Outcome.INVALID, Reason.WRONG_PHASE))
    defaults: list[OrderResult] = []
    for power, n in sorted(left.items()):
        if n >= 0:
            continue
        for u in civil_disorder(position, power, -n, taken, topo, rules.civil_disorder,
                                names(untyped(rules).removed_last(position, power),
                                      "removed_last")):
            removed.append(u)
            taken.add(u.province)
            defaults.append(
                OrderResult(power, f"Remove {u}", Outcome.SUCCEEDS, Reason.CIVIL_DISORDER)
            )
    return AdjustmentOutcome(results, defaults, built, removed)


def _beyond(counts: dict[str, int], owner: str, builds: bool, rules: Rules) -> Reason:
    """Why a build or removal beyond the allowance fails: too many orders when the power had
    some (DATC 4.D.4 b), else none allowed."""
    n = counts.get(owner, 0)
    had = n > 0 if builds else n < 0
    return Reason.TOO_MANY if had and rules.too_many_reason else Reason.NO_BUILDS


def _build(
    position: Position,
    power: str | None,
    order: Build,
    topo: Topology,
    left: dict[str, int],
    taken: set[str],
    built: list[UnitState],
    counts: dict[str, int],
    rules: Rules,
) -> OrderResult:
    loc = order.unit.location
    prov = province_of(loc)
    owner = power or position.centers.get(prov) or "?"

    def bad(reason: Reason) -> OrderResult:
        return OrderResult(owner, order, Outcome.INVALID, reason)

    if left.get(owner, 0) <= 0:
        return bad(_beyond(counts, owner, True, rules))
    if prov not in build_sites(position, topo, owner, rules):
        return bad(Reason.NOT_HOME if standard(rules, "build_sites") else Reason.NO_BUILD_SITE)
    if position.centers.get(prov) != owner:
        return bad(Reason.NOT_OWNED)
    if prov in position.units or prov in taken:
        return bad(Reason.OCCUPIED)
    kind = order.unit.kind
    spots = topo.neighbours.get(kind, {})
    if loc not in spots:
        cands = [x for x in topo.locations.get(prov, ()) if x in spots]
        if not cands:
            return bad(Reason.WRONG_TERRAIN)  # DATC 6.I.2
        if prov in cands:
            loc = prov  # an army built "on a coast": the coast is ignored
        else:
            return bad(Reason.AMBIGUOUS_COAST)  # DATC 6.B.14
    left[owner] -= 1
    taken.add(prov)
    built.append(unit_state(owner, kind, loc))
    return OrderResult(owner, order, Outcome.SUCCEEDS)


def _remove(
    position: Position,
    power: str | None,
    order: Remove | Disband,
    left: dict[str, int],
    taken: set[str],
    removed: list[UnitState],
    counts: dict[str, int],
    rules: Rules,
) -> OrderResult:
    prov = province_of(order.unit.location)
    unit = position.units.get(prov)
    owner = power or (unit.power if unit else "?")
    if unit is None:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NO_UNIT)
    if unit.power != owner:
        return OrderResult(owner, order, Outcome.INVALID, Reason.NOT_OWNER)
    if prov in taken:  # DATC 6.J.2
        return OrderResult(owner, order, Outcome.INVALID, Reason.DUPLICATE)
    if left.get(owner, 0) >= 0:
        return OrderResult(owner, order, Outcome.INVALID, _beyond(counts, owner, False, rules))
    left[owner] += 1
    taken.add(prov)
    removed.append(unit)
    return OrderResult(owner, order, Outcome.SUCCEEDS)


def civil_disorder(
    position: Position,
    power: str,
    n: int,
    taken: set[str],
    topo: Topology,
    rule: str = "2023",
    last: Collection[str] = (),
) -> list[UnitState]:
    """The ``n`` units the civil-disorder rule removes (DATC 4.D.8, 6.J.3-6.J.11); the
    units in the provinces ``last`` (a variant's, Rules.removed_last) only when no other
    unit is left to remove.

    ``rule`` "2023": distance to the nearest *owned* supply centre, over land and sea for
    every unit.  "home_centres" (the common rule before 2023, DATC 2.4 6.J.3-6.J.11):
    distance to the nearest *home* supply centre, fleets by fleet moves only, armies over land
    and sea.  Ties: fleets first, then alphabetically by English province name."""
    if rule == "2023":
        targets = [p for p, o in position.centers.items() if o == power]
    else:
        targets = list(topo.homes.get(power, ()))
    dist = topo.distances()
    far = 10**6

    def key(u: UnitState) -> tuple[bool, int, int, str]:
        if rule != "2023" and u.kind == "F":
            nearest = _fleet_distance(topo, u.location, set(targets), far)
        else:
            d = dist.get(u.province, {})
            nearest = min((d.get(c, far) for c in targets), default=far)
        return (u.province in last, -nearest, 0 if u.kind == "F" else 1,
                topo.names.get(u.province, u.province))

    candidates = [
        u for u in position.units.values() if u.power == power and u.province not in taken
    ]
    candidates.sort(key=key)
    return candidates[:n]


def _fleet_distance(topo: Topology, loc: str, targets: set[str], far: int) -> int:
    """Fleet moves from ``loc`` to the nearest province of ``targets`` (``far`` if none)."""
    if province_of(loc) in targets:
        return 0
    nb = topo.neighbours.get("F", {})
    seen, frontier, steps = {loc}, [loc], 0
    while frontier:
        steps += 1
        nxt: list[str] = []
        for here in frontier:
            for there in nb.get(here, ()):
                if there in seen:
                    continue
                if province_of(there) in targets:
                    return steps
                seen.add(there)
                nxt.append(there)
        frontier = nxt
    return far
