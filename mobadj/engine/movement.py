"""The movement resolver: Kruijswijk's guess-and-check algorithm (DATC 3.0 section 5).

Three steps, each its own function:

- :func:`validate` (mobadj.engine.validation) turns parsed orders into :class:`MOrder`
  records, marking impossible orders invalid (the unit then holds, DATC 4.E.1), and
  :func:`add_defaults` gives every unit without an order a hold;
- :class:`Resolver` decides every MOVE, SUPPORT and CONVOY with the equations of DATC 5.B
  and the guess algorithm of 5.F (with the 5.D convoy hack), applying the backup rule to
  cycles: circular movement succeeds, convoy paradoxes follow the Szykman rule (or "all hold");
- :func:`outcome` reads the decisions back into per-order results, dislodgements with their
  legal retreats, and standoffs.

Speed: everything the hot loop reads is precomputed into slotted records and dicts; variant
hooks (:mod:`mobadj.engine.rules`) are asked once per order before resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from enum import StrEnum
from typing import Final

from mobadj.board import province_of
from mobadj.engine.hooks import standard, untyped, whole
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.retreats import retreat_options
from mobadj.engine.rules import BATTLE, BATTLE_UNLESS_EQUAL, PASS, Rules
from mobadj.engine.topology import Topology
from mobadj.engine.units import Dislodged, unit_state
from mobadj.engine.validation import (
    CONVOY,
    HOLD,
    MOVE,
    SUPPORT,
    MOrder,
    Validated,
    add_defaults,
    validate,
)

__all__ = [
    "CONVOY",
    "HOLD",
    "Decisions",
    "MOVE",
    "SUPPORT",
    "MOrder",
    "MovementOutcome",
    "Resolver",
    "Validated",
    "add_defaults",
    "outcome",
    "validate",
]


# ---- resolution ------------------------------------------------------------------------------

_NONE: Final[frozenset[tuple[MOrder, MOrder]]] = frozenset()
BIG_BOARD: Final = 64
"""Orders of a phase above which chains of moves are decided from their far end
(:meth:`Resolver.run`): more than any built-in map's units, whose phases are decided in the
order their orders come."""


class Resolver:
    """Decides every order of a validated movement phase (DATC 5.B equations, 5.F guesses)."""

    __slots__ = ("orders", "unit_at", "moves_to", "topo", "rules", "cycle", "guess_based", "hits",
                 "uncut", "sea_attack", "cut_hook", "path_hook")

    def __init__(self, orders: Sequence[MOrder], topo: Topology, rules: Rules) -> None:
        self.orders = orders
        self.topo = topo
        self.rules = rules
        self.cycle: list[MOrder] = []
        self.guess_based = False
        self.hits = 0
        #: (support, convoyed army) pairs where the army does not cut (paradox options)
        self.uncut: AbstractSet[tuple[MOrder, MOrder]] = _NONE
        #: a convoyed attack from the supported province cuts (DATC 4.A.4 b)
        self.sea_attack = False
        #: the rules' own support and convoy route tests (mobadj.engine.rules), asked only
        #: when a variant overrides them
        variant = type(rules) is not Rules  # the standard rules ask no hook
        self.cut_hook = variant and not standard(rules, "cuts_support")
        self.path_hook = variant and not standard(rules, "convoy_path")
        unit_at: dict[str, MOrder] = {o.prov: o for o in orders}
        self.unit_at = unit_at
        moves_to: dict[str, list[MOrder]] = {}
        # a hook the rules keep is the standard one: read here, not asked (mobadj.engine.hooks)
        h2h_hook = variant and not standard(rules, "head_to_head")
        bonus_hook = variant and not standard(rules, "move_bonus")
        margin_hook = variant and not standard(rules, "required_margin")
        hold_hook = variant and not standard(rules, "hold_bonus")
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
                    o.h2h = (whole(untyped(rules).head_to_head(o, opp), "head_to_head")
                             if h2h_hook else PASS if (o.convoy or opp.convoy) else BATTLE)
                if bonus_hook:
                    o.bonus = whole(untyped(rules).move_bonus(o), "move_bonus")
                if margin_hook:
                    o.margin = whole(untyped(rules).required_margin(o), "required_margin")
                continue
            if hold_hook:
                o.bonus = whole(untyped(rules).hold_bonus(o), "hold_bonus")
            if code == SUPPORT:
                t = unit_at[o.target]
                if not o.dprov:  # the support of a hold
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
                    and t.route == o.route
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
        if len(self.orders) > BIG_BOARD:
            self._chains_from_the_end()
        for o in self.orders:
            if o.code != HOLD and not o.resolved:
                self.resolve(o)  # (a bound method kept aside is a Python call when compiled)

    def _chains_from_the_end(self) -> None:
        """Decide each chain of moves (every move into the province the next one leaves) from
        its far end.  Decided from its front, a chain recurses once per move, and a big
        variant board's chain of a few hundred moves goes deeper than Python allows; from the
        far end each move finds the one ahead of it decided.  The decisions are the same in
        any order (DATC 5.F)."""
        walked: set[MOrder] = set()
        for first in self.orders:
            if first.code != MOVE or first.resolved or first in walked:
                continue
            chain: list[MOrder] = []
            ahead: MOrder | None = first
            while (ahead is not None and ahead.code == MOVE and not ahead.resolved
                   and ahead not in walked):
                walked.add(ahead)
                chain.append(ahead)
                ahead = ahead.opp
            for o in reversed(chain):
                if not o.resolved:
                    self.resolve(o)

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

    def _count(self, supports: Sequence[MOrder], exclude: str | None = None) -> int:
        n = 0
        for s in supports:
            if s.power != exclude and (s.res if s.resolved else self.resolve(s)):
                n += 1
        return n

    def path(self, o: MOrder) -> bool:
        """DATC 5.B.4: a convoyed move needs a chain of successful convoying fleets (the
        rules' ``convoy_path`` when a variant has its own)."""
        if not o.convoy:
            return True
        if self.path_hook:
            return bool(untyped(self.rules).convoy_path(o, self))
        return self.route(o)

    def route(self, o: MOrder) -> bool:
        """The route rule of these options for a convoyed move ``o``: a chain of successful
        convoying fleets (DATC 5.B.4)."""
        topo = self.topo
        bit = topo.bit
        seas = 0  # the mask of the seas of the successful convoys
        for c in o.convoys:
            if c.res if c.resolved else self.resolve(c):
                seas |= bit[c.prov]
        return seas != 0 and topo.convoy_route_within(o.prov, o.dprov, seas)

    def battle(self, o: MOrder) -> bool:
        """Is ``o`` in a head-to-head battle with the unit at its destination?  A pair that
        battles unless equal (Mobtown's over/under swap) passes when both are equally
        strong, and always when both units are one power's: neither may dislodge the other."""
        mode = o.h2h
        if mode != BATTLE_UNLESS_EQUAL:
            return mode == BATTLE
        opp = o.opp
        assert opp is not None  # a head-to-head has a unit coming the other way
        return opp.power != o.power and self.swap_strength(o) != self.swap_strength(opp)

    def swap_strength(self, o: MOrder) -> int:
        """The strength of one move of a pair that battles unless equal, against the other:
        its own and its supports, less the supports of the other unit's power (no power
        helps to dislodge its own unit) and less its required margin.  The stronger move
        wins and dislodges the other; so the pair never both fails in battle."""
        opp = o.opp
        assert opp is not None  # a head-to-head has a unit coming the other way
        return 1 + o.bonus + self._count(o.supports, opp.power) - o.margin

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
        return 1 + u.bonus + self._count(u.supports)

    def prevent(self, k: MOrder) -> int:
        """DATC 5.B.6 PREVENT STRENGTH."""
        if k.convoy and not self.path(k):
            return 0
        if k.h2h != PASS and self.battle(k):
            opp = k.opp
            assert opp is not None  # a head-to-head has a unit coming the other way
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
            opp = o.opp
            assert opp is not None  # a head-to-head has a unit coming the other way
            if att <= (self.swap_strength(opp) if o.h2h == BATTLE_UNLESS_EQUAL
                       else self.defend(opp)):
                return False
        elif att <= self.hold(o.dprov):
            return False
        return all(not (k is not o and att <= self.prevent(k)) for k in self.moves_to[o.dprov])

    def _support(self, s: MOrder) -> bool:
        """DATC 5.B.2 SUPPORT: cut by a foreign attack with a path, except from the province
        the support is directed into (unless that attack dislodges the supporter).  With the
        DATC options (mobadj.engine.options) the ``uncut`` attacks do not cut, and with
        ``sea_attack`` a convoyed attack from the supported province cuts like any other."""
        if s.forced is not None:
            return False
        attackers = self.moves_to.get(s.prov)
        if attackers is None:
            return True
        if self.cut_hook:
            rules = untyped(self.rules)
            return not any(bool(rules.cuts_support(s, k, self)) for k in attackers)
        into = s.dprov
        uncut = self.uncut
        for k in attackers:
            if k.power == s.power or (uncut and (s, k) in uncut):
                continue
            if into and k.prov == into and not (k.convoy and self.sea_attack):
                if k.res if k.resolved else self.resolve(k):
                    return False
                continue
            if not k.convoy or self.path(k):
                return False
        return True

    def cuts(self, s: MOrder, k: MOrder) -> bool:
        """Does the move ``k`` into the province of the support ``s`` cut it by the standard
        rule and these DATC options (the rules' default ``cuts_support``)?  As ``_support``
        for one attack."""
        if k.power == s.power or (self.uncut and (s, k) in self.uncut):
            return False
        if s.dprov and k.prov == s.dprov and not (k.convoy and self.sea_attack):
            return k.res if k.resolved else self.resolve(k)
        return not k.convoy or self.path(k)

    # -- the decisions as a variant's hooks read them (``board`` in mobadj.engine.rules) --

    def succeeds(self, o: MOrder) -> bool:
        """Does the order ``o`` succeed: a move reaches its destination, a support is not
        cut, a convoy is not disrupted?"""
        return o.res if o.resolved else self.resolve(o)

    def has_route(self, o: MOrder) -> bool:
        """Does the move ``o`` get there: over land always, by convoy along a chain of
        convoys that succeed (or the variant's own ``convoy_path``)?"""
        return self.path(o)

    def unit_in(self, province: str) -> MOrder | None:
        """The order of the unit standing in ``province`` (None: the province is empty)."""
        return self.unit_at.get(province)

    def moves_into(self, province: str) -> Sequence[MOrder]:
        """Every move ordered into ``province``."""
        return self.moves_to.get(province, ())

    def supporters(self, o: MOrder) -> Sequence[MOrder]:
        """The supports given to the order ``o`` (each may yet be cut)."""
        return o.supports

    def convoyers(self, o: MOrder) -> Sequence[MOrder]:
        """The convoy orders given for the move ``o`` (each may yet be disrupted)."""
        return o.convoys

    def hold_strength(self, province: str) -> int:
        """DATC 5.B.5: the strength with which ``province`` is held."""
        return self.hold(province)

    def _convoy(self, c: MOrder) -> bool:
        """DATC 5.B.3 CONVOY: the fleet is not dislodged.  Per the 5.D hack the attacking moves
        are adjudicated, not resolved, so that paradox cycles stay simple."""
        if c.forced is not None:
            return False
        for k in self.moves_to.get(c.prov, ()):
            if k.res if k.resolved else self._move(k):
                return False
        return True


#: The resolver as a variant's resolution hooks see it (``Rules.cuts_support``,
#: ``Rules.convoy_path``): what is decided, or decided now, in words (``succeeds``,
#: ``has_route``, ``hold_strength``, ``unit_in``, ``moves_into``, ``supporters``,
#: ``convoyers``) and the standard rules (``cuts``, ``route``).
Decisions = Resolver


# ---- reading the decisions back --------------------------------------------------------------


class MovementOutcome:
    """Everything a movement phase decided.  (A plain class, as PhaseResult
    (mobadj.engine.pipeline): a dataclass's methods are written and compiled at every
    start.)"""

    results: list[OrderResult]  # the orders as given, in order, with outcomes
    defaults: list[OrderResult]  # default holds of unordered units
    moves: dict[str, str]  # province moved from -> location moved to
    dislodged: list[Dislodged]
    standoffs: frozenset[str]
    _records: list[MOrder]  # the resolver's own

    def __init__(self, results: list[OrderResult], defaults: list[OrderResult],
                 moves: dict[str, str], dislodged: list[Dislodged], standoffs: frozenset[str],
                 _records: list[MOrder] | None = None) -> None:
        self.results = results
        self.defaults = defaults
        self.moves = moves
        self.dislodged = dislodged
        self.standoffs = standoffs
        self._records = [] if _records is None else _records

    @property
    def followed(self) -> dict[str, object]:
        """Province -> the order (as given) its unit carried out; a unit that held without an
        order, or because its orders were impossible, is not listed."""
        return {o.prov: o.source for o in self._records
                if o.invalid is None and not o.defaulted}


def _move_reason(r: Resolver, o: MOrder) -> StrEnum:
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
        d = Dislodged(unit, k.prov, k.convoy, via=k.route or None)
        options = retreat_options(rules, d, topo, occupied, standoffs)
        dislodged.append(Dislodged(unit, k.prov, k.convoy, options, d.via))

    results = [
        item if isinstance(item, OrderResult) else result_of(r, item, dislodged_by)
        for item in validated.given
    ]
    defaults = [result_of(r, o, dislodged_by) for o in orders if o.defaulted]
    for o in orders:  # all is read: links between orders (head-to-head opponents, mutual
        o.opp = None  # supports) would keep them alive until the garbage collector ran
        o.supports = o.convoys = ()
    return MovementOutcome(results, defaults, moves, dislodged, standoffs, validated.orders)


_SUCCEEDS: Final = Outcome.SUCCEEDS
_FAILS: Final = Outcome.FAILS


def result_of(r: Resolver, o: MOrder, dislodged_by: dict[str, MOrder]) -> OrderResult:
    """The result of one decided order (``dislodged_by``: province -> the move that
    dislodged the unit there)."""
    if o.invalid is not None:
        return OrderResult(o.power, o.source, Outcome.INVALID, o.invalid)
    code = o.code
    if code == MOVE:
        if o.res:
            return OrderResult(o.power, o.source, _SUCCEEDS)
        return OrderResult(o.power, o.source, _FAILS, _move_reason(r, o))
    if code == HOLD:
        if o.prov in dislodged_by:
            return OrderResult(o.power, o.source, _FAILS, Reason.DISLODGED)
        return OrderResult(o.power, o.source, _SUCCEEDS)
    if o.res:
        return OrderResult(o.power, o.source, _SUCCEEDS)
    if o.void is not None:
        return OrderResult(o.power, o.source, _FAILS, o.void)
    if o.forced is not None:
        return OrderResult(o.power, o.source, _FAILS, o.forced)
    why = Reason.DISLODGED if (o.prov in dislodged_by or code == CONVOY) else Reason.CUT
    return OrderResult(o.power, o.source, _FAILS, why)
