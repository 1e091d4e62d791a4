"""The movement resolver: Kruijswijk's guess-and-check algorithm (DATC 3.0 section 5).

Three steps, each its own function:

- :func:`validate` turns parsed orders into :class:`MOrder` records, marking impossible orders
  invalid (the unit then holds, DATC 4.E.1), and :func:`add_defaults` gives every unit
  without an order a hold;
- :class:`Resolver` decides every MOVE, SUPPORT and CONVOY with the equations of DATC 5.B
  and the guess algorithm of 5.F (with the 5.D convoy hack), applying the backup rule to
  cycles: circular movement succeeds, convoy paradoxes follow the Szykman rule (or "all hold");
- :func:`outcome` reads the decisions back into per-order results, dislodgements with their
  legal retreats, and standoffs.

Speed: everything the hot loop reads is precomputed into slotted records and dicts; variant
hooks (:mod:`mobadj.engine.rules`) are asked once per order before resolution.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mobadj.engine.position import Dislodged, Position, UnitState, province_of, unit_state
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.rules import BATTLE, BATTLE_UNLESS_EQUAL, PASS, Rules
from mobadj.engine.topology import Topology
from mobadj.orders.model import Convoy, Hold, Move, SupportHold, SupportMove

HOLD, MOVE, SUPPORT, CONVOY = 0, 1, 2, 3


class MOrder:
    """One unit's order in a movement phase, prepared for the resolver."""

    __slots__ = (
        "power",
        "ukind",
        "loc",
        "prov",
        "code",
        "dest",
        "dprov",
        "target",
        "convoy",
        "via_convoy",
        "subway",
        "source",
        "invalid",
        "void",
        "defaulted",
        "supports",
        "convoys",
        "opp",
        "h2h",
        "bonus",
        "margin",
        "forced",
        "resolved",
        "visited",
        "incycle",
        "res",
    )

    def __init__(self, power: str, kind: str, loc: str, prov: str, source: Any) -> None:
        self.power = power
        self.ukind = kind
        self.loc = loc
        self.prov = prov
        self.source = source  # the Order (or its text); printed only when results are read
        self.code = HOLD
        self.dest = self.dprov = self.target = None
        self.convoy = self.via_convoy = self.subway = self.defaulted = False
        self.invalid = self.void = self.forced = None
        self.supports: list[MOrder] | tuple[()] = ()  # a list once a support matches
        self.convoys: list[MOrder] | tuple[()] = ()
        self.opp: MOrder | None = None
        self.h2h = PASS
        self.bonus = self.margin = 0
        self.resolved = self.visited = self.incycle = self.res = False

    @property
    def text(self) -> str:
        return str(self.source)

    def __repr__(self) -> str:
        return f"MOrder({self.power}: {self.text})"


# ---- validation ------------------------------------------------------------------------------


@dataclass
class Validated:
    """The orders of a movement phase after validation and defaults."""

    orders: list[MOrder]  # one per unit on the board (defaults last)
    given: list[MOrder | OrderResult] = field(default_factory=list)  # as given, in order


_CODES: dict[type, int] = {Hold: HOLD, Move: MOVE, SupportHold: SUPPORT, SupportMove: SUPPORT,
                           Convoy: CONVOY}


def validate(
    position: Position,
    orders: Iterable[tuple[str | None, Any]],
    topo: Topology,
    rules: Rules,
) -> Validated:
    """Check each (power, order) against the board; the first legal order of a unit is used
    (DATC 4.D.3, illegal orders ignored per 4.E.1)."""
    units = position.units
    prov_of = topo.prov_of
    neighbours = topo.neighbours
    hooks = rules.move_hooks
    codes = _CODES
    chosen: dict[str, MOrder] = {}
    first_invalid: dict[str, MOrder] = {}
    given: list[MOrder | OrderResult] = []
    convoys = False
    for power, order in orders:
        t = type(order)
        if t not in codes:
            given.append(OrderResult(power or "?", order, Outcome.INVALID, Reason.WRONG_PHASE))
            continue
        loc = order.unit.location
        prov = prov_of.get(loc) or province_of(loc)
        unit = units.get(prov)
        if unit is None:
            given.append(OrderResult(power or "?", order, Outcome.INVALID, Reason.NO_UNIT))
            continue
        owner = unit.power
        if power is not None and owner != power:  # DATC 6.A.6
            given.append(OrderResult(power, order, Outcome.INVALID, Reason.NOT_OWNER))
            continue
        kind, uloc = unit.kind, unit.location
        mo = MOrder(owner, kind, uloc, prov, order)
        if t is Move:
            # fast path: a plain move to a neighbouring location
            dest = order.destination
            nb = neighbours[kind].get(uloc)
            dprov = prov_of.get(dest)
            if (
                nb is not None
                and dest in nb
                and dprov is not None
                and dprov != prov
                and not order.via_convoy
                and not order.via_subway
            ):
                mo.code = MOVE
                mo.dest = dest
                mo.dprov = dprov
            else:
                _check(mo, order, units, topo, rules)
                convoys = convoys or mo.convoy
        else:
            _check(mo, order, units, topo, rules)
            convoys = convoys or t is Convoy
        if hooks and mo.code == MOVE and mo.invalid is None:
            mo.invalid = rules.check_move(topo.game_map, mo)
        if prov in chosen:
            mo.invalid = mo.invalid or Reason.DUPLICATE
            given.append(OrderResult(owner, order, Outcome.INVALID, mo.invalid))
            continue
        if mo.invalid is None:
            chosen[prov] = mo
            # an earlier illegal order of this unit is ignored (DATC 4.D.3 / 4.E.1); it is
            # still reported as invalid with its own reason
            if first_invalid:
                first_invalid.pop(prov, None)
        elif prov not in first_invalid:
            first_invalid[prov] = mo
        given.append(mo)
    if first_invalid:
        for mo in first_invalid.values():
            mo.code = HOLD
        chosen.update(first_invalid)
    result = list(chosen.values())
    if convoys:
        _convoy_intent(result, units, topo, rules)
    return Validated(result, given)


def add_defaults(validated: Validated, position: Position) -> Validated:
    """Every unit without an order holds (DATC 4.E.3: no implicit orders beyond that)."""
    orders = validated.orders
    if len(orders) == len(position.units):
        return validated
    ordered = {mo.prov for mo in orders}
    for prov, unit in position.units.items():
        if prov not in ordered:
            mo = MOrder(unit.power, unit.kind, unit.location, prov, f"{unit} H")
            mo.defaulted = True
            orders.append(mo)
    return validated


def _check(mo: MOrder, order: Any, units: dict[str, UnitState], topo: Topology, rules: Rules):
    """Fill ``mo`` from ``order``; set ``mo.invalid`` when the order is impossible."""
    kind, loc = mo.ukind, mo.loc
    t = type(order)
    if t is Hold:
        return
    if t is Move:
        mo.code = MOVE
        mo.via_convoy = order.via_convoy
        mo.subway = order.via_subway
        dest = order.destination
        dprov = province_of(dest)
        mo.dprov = dprov
        if dprov == mo.prov:  # DATC 6.A.4, 6.A.5
            mo.invalid = Reason.OWN_PROVINCE
            return
        nb = topo.neighbours[kind].get(loc, frozenset())
        if dest not in nb:
            locs = topo.locations.get(dprov, (dprov,))
            cands = [x for x in locs if x in nb]
            if not cands:
                if (
                    rules.convoyable(kind)
                    and mo.prov in topo.coastal
                    and dprov in topo.coastal
                    and not order.via_subway
                ):
                    mo.dest = dprov
                    mo.convoy = True  # a move by convoy (path decided by the resolver)
                    return
                occupiable = any(x in topo.neighbours[kind] for x in locs)
                mo.invalid = Reason.NOT_ADJACENT if occupiable else Reason.WRONG_TERRAIN
                return
            if "/" in dest:
                if dprov in cands:  # an army told a coast: ignore it (DATC 4.B.6)
                    dest = dprov
                else:  # a coast the fleet cannot reach (DATC 4.B.3 b, 6.B.3)
                    mo.invalid = Reason.BAD_COAST
                    return
            elif len(cands) == 1:  # the only reachable coast (DATC 4.B.2 a, 6.B.2)
                dest = cands[0]
            else:  # DATC 6.B.1
                mo.invalid = Reason.AMBIGUOUS_COAST
                return
        mo.dest = dest
        if order.via_convoy and rules.convoyable(kind) and mo.prov in topo.coastal:
            mo.convoy = dprov in topo.coastal
        return
    if t is SupportHold or t is SupportMove:
        mo.code = SUPPORT
        sprov = province_of(order.supported.location)
        mo.target = sprov
        if sprov not in units:
            mo.invalid = Reason.NO_SUPPORTED_UNIT
            return
        if sprov == mo.prov:  # DATC 6.A.8
            mo.invalid = Reason.SUPPORT_SELF
            return
        goal = sprov
        if t is SupportMove:
            goal = province_of(order.destination)
            mo.dprov = goal
            mo.dest = order.destination  # a coast, if named, must match (DATC 6.B.9)
            mo.subway = order.via_subway
            if goal == sprov:  # support of a move to its own province (DATC 6.A.5)
                mo.invalid = Reason.OWN_PROVINCE
                return
        if not topo.can_reach(kind, loc, goal):  # DATC 6.A.10, 6.B.4, 6.B.5
            mo.invalid = Reason.SUPPORT_UNREACHABLE
        return
    if t is Convoy:
        mo.code = CONVOY
        if not rules.can_convoy(topo, mo.prov, kind):
            mo.invalid = Reason.CANNOT_CONVOY
            return
        aprov = province_of(order.convoyed.location)
        mo.target = aprov
        mo.dprov = province_of(order.destination)
        army = units.get(aprov)
        if army is None:
            mo.invalid = Reason.NO_CONVOYED_UNIT
        elif not rules.convoyable(army.kind):  # DATC 6.A.7
            mo.invalid = Reason.NOT_CONVOYABLE
        return


def _convoy_intent(
    mos: list[MOrder], units: dict[str, UnitState], topo: Topology, rules: Rules
) -> None:
    """Decide, before resolution, which convoy orders are possible and which army moves go
    by convoy.

    A convoy is possible only along sea provinces holding a fleet at the start of the turn
    (DATC 4.E.1: an order impossible for this position is illegal, 6.D.32, 6.G.7), but it
    does not need the right convoy orders (6.D.8: such a move simply fails).

    - A convoy order by a fleet that no such route needs is illegal (6.G.7, 6.G.19); the
      fleet holds.
    - A move to a non-adjacent province, or one ordered "via convoy", goes by convoy; with no
      such route it is illegal and the army holds (no land fallback, DATC 4.A.3, 6.G.8).
    - A move to an adjacent province goes by convoy when a fleet of the army's own power
      is legally ordered to convoy it (2023 rules, DATC 4.A.3, 6.G.6).
    """
    seas = {p for p, u in units.items() if rules.can_convoy(topo, u.location, u.kind)}
    cache: dict[tuple[str, str], set[str]] = {}

    def route(a: str, d: str) -> set[str]:
        got = cache.get((a, d))
        if got is None:
            got = cache[(a, d)] = topo.necessary_seas(a, d, seas)
        return got

    intent: set[tuple[str, str]] = set()
    for c in mos:
        if c.code == CONVOY and c.invalid is None:
            if c.prov not in route(c.target, c.dprov):
                c.invalid = Reason.NO_ROUTE
                c.code = HOLD
            elif units[c.target].power == c.power:
                intent.add((c.target, c.dprov))
    for m in mos:
        if m.code != MOVE:
            continue
        if m.convoy:
            if not route(m.prov, m.dprov):
                m.invalid = Reason.NO_CONVOY
                m.code = HOLD
        elif (m.prov, m.dprov) in intent:
            m.convoy = True
            m.dest = m.dprov


# ---- resolution ------------------------------------------------------------------------------


class Resolver:
    """Decides every order of a validated movement phase (DATC 5.B equations, 5.F guesses)."""

    __slots__ = ("orders", "unit_at", "moves_to", "topo", "rules", "cycle", "guess_based", "hits")

    def __init__(self, orders: Sequence[MOrder], topo: Topology, rules: Rules) -> None:
        self.orders = orders
        self.topo = topo
        self.rules = rules
        self.cycle: list[MOrder] = []
        self.guess_based = False
        self.hits = 0
        unit_at: dict[str, MOrder] = {o.prov: o for o in orders}
        self.unit_at = unit_at
        moves_to: dict[str, list[MOrder]] = {}
        hooks = rules.move_hooks
        for o in orders:
            code = o.code
            if code == MOVE:
                lst = moves_to.get(o.dprov)
                if lst is None:
                    moves_to[o.dprov] = [o]
                else:
                    lst.append(o)
                opp = unit_at.get(o.dprov)
                o.opp = opp
                if opp is not None and opp.code == MOVE and opp.dprov == o.prov:
                    o.h2h = rules.head_to_head(o, opp) if hooks else (
                        PASS if (o.convoy or opp.convoy) else BATTLE
                    )
                if hooks:
                    o.bonus = rules.move_bonus(o)
                    o.margin = rules.required_margin(o)
            elif code == SUPPORT:
                t = unit_at[o.target]
                if o.dprov is None:
                    if t.code == MOVE:
                        o.void = Reason.VOID_SUPPORT
                        o.resolved = True
                    elif t.supports:
                        t.supports.append(o)
                    else:
                        t.supports = [o]
                elif (
                    t.code == MOVE
                    and t.dprov == o.dprov
                    and t.subway == o.subway
                    and (o.dest == o.dprov or o.dest == t.dest)
                ):
                    if t.supports:
                        t.supports.append(o)
                    else:
                        t.supports = [o]
                else:
                    o.void = Reason.VOID_SUPPORT
                    o.resolved = True
            elif code == CONVOY:
                t = unit_at[o.target]
                if t.code == MOVE and t.convoy and t.dprov == o.dprov:
                    if t.convoys:
                        t.convoys.append(o)
                    else:
                        t.convoys = [o]
                else:
                    o.void = Reason.VOID_CONVOY
                    o.resolved = True  # a void order fails (its res stays False)
        self.moves_to = moves_to

    # -- the generic part: resolve (DATC 5.F, second version) --

    def run(self) -> None:
        """Resolve every decision."""
        resolve = self.resolve
        for o in self.orders:
            if o.code != HOLD and not o.resolved:
                resolve(o)

    def resolve(self, o: MOrder) -> bool:
        """The decision of ``o`` (DATC 5.F, the version that handles nested cycles): resolve
        recursively, guess when a decision is met again during its own resolution, try both
        guesses at the ancestor of the cycle, and apply the backup rule when they disagree."""
        if o.resolved:
            return o.res
        if o.incycle:
            self.guess_based = True
            return o.res
        if o.visited:
            self.cycle.append(o)
            o.incycle = True
            self.guess_based = True
            self.hits += 1
            return o.res
        o.visited = True
        old_len = len(self.cycle)
        old_gb = self.guess_based
        self.guess_based = False
        old_hits = self.hits
        o.res = False
        first = self.adjudicate(o)
        if not self.guess_based:
            self.guess_based = old_gb
            o.res = first
            o.resolved = True
            return first
        if o.incycle:
            self.hits -= 1
        if self.hits == old_hits:
            # This order is the ancestor of the whole cycle: try the other guess.
            self._drop_cycle(old_len)
            o.res = True
            second = self.adjudicate(o)
            if first == second:
                self._drop_cycle(old_len)
                self.guess_based = old_gb
                o.res = first
                o.resolved = True
                return first
            self._backup_rule(self.cycle[old_len:])
            self._drop_cycle(old_len)
            self.guess_based = old_gb
            o.visited = False
            return self.resolve(o)
        if not o.incycle:
            self.cycle.append(o)
            o.incycle = True
        o.res = first
        o.visited = False
        return first

    def _drop_cycle(self, n: int) -> None:
        cyc = self.cycle
        for o in cyc[n:]:
            o.incycle = False
        del cyc[n:]

    def _backup_rule(self, members: list[MOrder]) -> None:
        """DATC 5.B.9: a cycle with zero or two solutions.  Only moves: circular movement, all
        succeed.  Convoys in it: a convoy paradox, the Szykman rule (the convoys fail) or the
        "all hold" rule.  Anything else (variants): every order of the cycle fails."""
        convoys = [m for m in members if m.code == CONVOY]
        if convoys:
            if self.rules.paradox == "all_hold":
                for c in convoys:
                    c.forced = Reason.PARADOX_ALL_HOLD
                    for k in self.moves_to.get(c.prov, ()):
                        k.forced = Reason.PARADOX_ALL_HOLD
                    army = self.unit_at.get(c.target)
                    if army is not None and army.code == MOVE:
                        army.forced = Reason.PARADOX_ALL_HOLD
            else:
                for c in convoys:
                    c.forced = Reason.PARADOX
            for m in members:
                if not m.resolved:
                    m.visited = False
            return
        if all(m.code == MOVE for m in members):
            for m in members:
                m.res = True
                m.resolved = True
            return
        for m in members:
            m.forced = Reason.PARADOX_ALL_HOLD

    # -- the rules: adjudicate (DATC 5.B) --

    def adjudicate(self, o: MOrder) -> bool:
        code = o.code
        if code == MOVE:
            return self._move(o)
        if code == SUPPORT:
            return self._support(o)
        return self._convoy(o)

    def _count(self, supports: list[MOrder], exclude: str | None = None) -> int:
        n = 0
        for s in supports:
            if s.power != exclude and (s.res if s.resolved else self.resolve(s)):
                n += 1
        return n

    def path(self, o: MOrder) -> bool:
        """DATC 5.B.4: a convoyed move needs a chain of successful convoying fleets."""
        if not o.convoy:
            return True
        resolve = self.resolve
        seas = {c.prov for c in o.convoys if (c.res if c.resolved else resolve(c))}
        return bool(seas) and self.topo.convoy_route_exists(o.prov, o.dprov, seas)

    def battle(self, o: MOrder) -> bool:
        """Is ``o`` in a head-to-head battle with the unit at its destination?"""
        mode = o.h2h
        if mode != BATTLE_UNLESS_EQUAL:
            return mode == BATTLE
        opp = o.opp
        return not (
            self.attack(o, True) == self.defend(opp) and self.attack(opp, True) == self.defend(o)
        )

    def attack(self, o: MOrder, battle: bool) -> int:
        """DATC 5.B.8 ATTACK STRENGTH (the path is checked by the caller)."""
        opp = o.opp
        if opp is None or (
            not battle and opp.code == MOVE and (opp.res if opp.resolved else self.resolve(opp))
        ):
            return 1 + o.bonus + self._count(o.supports)
        if opp.power == o.power:  # no self-dislodgement (DATC 6.D.10 ...)
            return 0
        # supports by the defender's power do not help dislodge it (DATC 6.D.13 ...)
        return 1 + o.bonus + self._count(o.supports, opp.power)

    def defend(self, o: MOrder) -> int:
        """DATC 5.B.7 DEFEND STRENGTH."""
        return 1 + o.bonus + self._count(o.supports)

    def hold(self, prov: str) -> int:
        """DATC 5.B.5 HOLD STRENGTH of a province."""
        u = self.unit_at.get(prov)
        if u is None:
            return 0
        if u.code == MOVE:
            return 0 if (u.res if u.resolved else self.resolve(u)) else 1
        return 1 + self._count(u.supports)

    def prevent(self, k: MOrder) -> int:
        """DATC 5.B.6 PREVENT STRENGTH."""
        if k.convoy and not self.path(k):
            return 0
        if k.h2h != PASS and self.battle(k):
            opp = k.opp
            if opp.res if opp.resolved else self.resolve(opp):
                return 0
        return 1 + k.bonus + self._count(k.supports)

    def _move(self, o: MOrder) -> bool:
        """DATC 5.B.1 MOVE."""
        if o.forced is not None:
            return False
        if o.convoy and not self.path(o):
            return False
        battle = o.h2h != PASS and self.battle(o)
        att = self.attack(o, battle) - o.margin
        if att <= 0:
            return False
        if battle:
            if att <= self.defend(o.opp):
                return False
        elif att <= self.hold(o.dprov):
            return False
        return all(not (k is not o and att <= self.prevent(k)) for k in self.moves_to[o.dprov])

    def _support(self, s: MOrder) -> bool:
        """DATC 5.B.2 SUPPORT: cut by a foreign attack with a path, except from the province
        the support is directed into (unless that attack dislodges the supporter)."""
        if s.forced is not None:
            return False
        attackers = self.moves_to.get(s.prov)
        if attackers is None:
            return True
        into = s.dprov
        for k in attackers:
            if k.power == s.power:
                continue
            if into is not None and k.prov == into:
                if k.res if k.resolved else self.resolve(k):
                    return False
                continue
            if not k.convoy or self.path(k):
                return False
        return True

    def _convoy(self, c: MOrder) -> bool:
        """DATC 5.B.3 CONVOY: the fleet is not dislodged.  Per the 5.D hack the attacking moves
        are adjudicated, not resolved, so that paradox cycles stay simple."""
        if c.forced is not None:
            return False
        for k in self.moves_to.get(c.prov, ()):
            if k.res if k.resolved else self._move(k):
                return False
        return True


# ---- reading the decisions back --------------------------------------------------------------


@dataclass
class MovementOutcome:
    """Everything a movement phase decided."""

    results: list[OrderResult]  # the orders as given, in order, with outcomes
    defaults: list[OrderResult]  # default holds of unordered units
    moves: dict[str, str]  # province moved from -> location moved to
    dislodged: list[Dislodged]
    standoffs: frozenset[str]


def _move_reason(r: Resolver, o: MOrder) -> Reason:
    if o.forced is not None:
        return o.forced
    if o.convoy and not r.path(o):
        return Reason.CONVOY_DISRUPTED
    battle = o.h2h != PASS and r.battle(o)
    att = r.attack(o, battle) - o.margin
    if att <= 0 and o.opp is not None and o.opp.power == o.power:
        return Reason.OWN_UNIT
    for k in r.moves_to[o.dprov]:
        if k is not o and att <= r.prevent(k):
            return Reason.BOUNCED
    if battle:
        return Reason.LOST_HEAD_TO_HEAD
    return Reason.HELD


def outcome(r: Resolver, validated: Validated) -> MovementOutcome:
    """Per-order results, moves, dislodgements (with retreats) and standoffs."""
    orders = r.orders
    moves: dict[str, str] = {}
    for o in orders:
        if o.code == MOVE and o.res:
            moves[o.prov] = o.dest
    dislodged_by: dict[str, MOrder] = {}
    for prov, lst in r.moves_to.items():
        for k in lst:
            if k.res:
                u = r.unit_at.get(prov)
                if u is not None and u.prov not in moves:
                    dislodged_by[prov] = k
    # Standoffs only matter to retreats: work them out when something is dislodged.
    standoffs: frozenset[str] = frozenset()
    if dislodged_by:
        occupied = {o.prov for o in orders if o.prov not in moves}
        occupied.update(province_of(d) for d in moves.values())
        standoffs = frozenset(
            prov
            for prov, lst in r.moves_to.items()
            if prov not in occupied and any(not k.res and r.prevent(k) > 0 for k in lst)
        )
    dislodged: list[Dislodged] = []
    topo, rules = r.topo, r.rules
    for prov, k in dislodged_by.items():
        u = r.unit_at[prov]
        unit = unit_state(u.power, u.ukind, u.loc)
        d = Dislodged(unit, k.prov, k.convoy, via="subway" if k.subway else None)
        dislodged.append(
            Dislodged(
                unit, k.prov, k.convoy, retreat_options(d, topo, rules, occupied, standoffs), d.via
            )
        )

    succeeds, fails = Outcome.SUCCEEDS, Outcome.FAILS

    def result_of(o: MOrder) -> OrderResult:
        if o.invalid is not None:
            return OrderResult(o.power, o.source, Outcome.INVALID, o.invalid)
        code = o.code
        if code == MOVE:
            if o.res:
                return OrderResult(o.power, o.source, succeeds)
            return OrderResult(o.power, o.source, fails, _move_reason(r, o))
        if code == HOLD:
            if o.prov in dislodged_by:
                return OrderResult(o.power, o.source, fails, Reason.DISLODGED)
            return OrderResult(o.power, o.source, succeeds)
        if o.res:
            return OrderResult(o.power, o.source, succeeds)
        if o.void is not None:
            return OrderResult(o.power, o.source, fails, o.void)
        if o.forced is not None:
            return OrderResult(o.power, o.source, fails, o.forced)
        why = Reason.DISLODGED if (o.prov in dislodged_by or code == CONVOY) else Reason.CUT
        return OrderResult(o.power, o.source, fails, why)

    results = [
        item if type(item) is OrderResult else result_of(item) for item in validated.given
    ]
    defaults = [result_of(o) for o in orders if o.defaulted]
    return MovementOutcome(results, defaults, moves, dislodged, standoffs)


def retreat_options(
    d: Dislodged,
    topo: Topology,
    rules: Rules,
    occupied: set[str] | frozenset[str],
    standoffs: Iterable[str],
) -> tuple[str, ...]:
    """Where a dislodged unit may retreat: an adjacent empty place, not a standoff province,
    not where the attacker came from unless it came by convoy (DATC 4.A.5 b, 6.H.11)."""
    banned = set(occupied)
    banned.update(standoffs)
    if not d.convoyed:
        banned.add(d.attacker_from)
    out = [
        loc
        for loc in topo.neighbours[d.unit.kind].get(d.unit.location, ())
        if province_of(loc) not in banned and rules.retreat_allowed(d, loc, None)
    ]
    return tuple(sorted(out))


def resolve_movement(
    position: Position,
    orders: Iterable[tuple[str | None, Any]],
    topo: Topology,
    rules: Rules,
) -> MovementOutcome:
    """Validate, resolve and read back one movement phase."""
    validated = add_defaults(validate(position, orders, topo, rules), position)
    r = Resolver(validated.orders, topo, rules)
    r.run()
    return outcome(r, validated)
