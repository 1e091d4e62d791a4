"""Validation of movement orders: every order checked against the board before resolution.

An order that is impossible on this board (a non-adjacent move, a support the unit could not
give, an order for a unit that is not there or not the power's own, a convoy no chain of
fleets needs) is marked invalid with its reason, and the unit holds (DATC 4.E.1).  Moves that
go by convoy are decided here too (2023 rules, DATC 4.A.3).  The result is one
:class:`MOrder` per unit, the slotted record the resolver works on.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final

from mobadj.board import province_of
from mobadj.engine.hooks import names, standard, untyped
from mobadj.engine.position import Position
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.rules import PASS, Rules
from mobadj.engine.topology import (
    SeaChains,
    Topology,
    army_convoyed,
    fleet_convoys,
    sea_fleets,
)
from mobadj.engine.units import UnitState
from mobadj.orders.model import AnyOrder, Convoy, Hold, Move, SupportHold, SupportMove, Unit

# The kinds of order the resolver tells apart (Final: the compiled build inlines them)
HOLD: Final = 0
MOVE: Final = 1
SUPPORT: Final = 2
CONVOY: Final = 3
_KINDS: Final = ("hold", "move", "support", "convoy")


class MOrder:
    """One unit's order in a movement phase, prepared for the resolver.

    A variant's hooks read it by its long names, the properties below: ``power``,
    ``unit_kind``, ``location``, ``province``, ``kind``, ``destination``,
    ``destination_province``, ``supported_province``, ``by_convoy``, ``route``, ``opponent``
    and ``order``.  The short fields (``loc``, ``dest``, ``dprov``, ``opp``, ``h2h``,
    ``res``, ...) are the resolver's own working state, named short for its hot loop; they
    are no part of the hook API and may change."""

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
        "route",
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

    def __init__(self, power: str, kind: str, loc: str, prov: str, source: AnyOrder | str
                 ) -> None:
        self.power = power
        self.ukind = kind
        self.loc = loc
        self.prov = prov
        self.source = source  # the Order (or its text); printed only when results are read
        self.code = HOLD
        #: where a move goes, the move a support is for goes, a convoy takes its army ("")
        self.dest = ""
        #: the province of ``dest`` ("" for a hold or the support of a hold)
        self.dprov = ""
        #: the province of the unit a support or a convoy is for ("" for others)
        self.target = ""
        #: a variant's route tag of a move or of the move a support is for ("": the usual
        #: way; Mobtown's "subway"); a support matches only a move by the same route
        self.route = ""
        self.convoy = self.defaulted = False
        self.invalid: StrEnum | None = None  # why the order is impossible (the unit holds)
        self.void: StrEnum | None = None  # why a support or convoy matches no order
        self.forced: StrEnum | None = None  # a decision the backup rule imposed
        self.supports: list[MOrder] | tuple[()] = ()  # a list once a support matches
        self.convoys: list[MOrder] | tuple[()] = ()
        self.opp: MOrder | None = None
        self.h2h = PASS
        self.bonus = self.margin = 0
        self.resolved = self.visited = self.incycle = self.res = False

    # -- the order in a variant author's words (the hooks of mobadj.engine.rules read these;
    # the short names are the resolver's own) --

    @property
    def order(self) -> AnyOrder | str:
        """The order as given (an ``mobadj.orders.model`` order, or a default hold's text)."""
        return self.source

    @property
    def unit_kind(self) -> str:
        """The ordered unit's kind: ``"A"``, ``"F"`` or a variant's letter."""
        return self.ukind

    @property
    def location(self) -> str:
        """Where the unit stands (a coast for a fleet on one: ``"SPA/NC"``)."""
        return self.loc

    @property
    def province(self) -> str:
        """The province the unit stands in (``"SPA"``)."""
        return self.prov

    @property
    def kind(self) -> str:
        """``"hold"``, ``"move"``, ``"support"`` or ``"convoy"`` (an impossible order is a
        hold)."""
        return _KINDS[self.code]

    @property
    def destination(self) -> str:
        """Where a move goes, or the move a support is for goes ("" for others)."""
        return self.dest

    @property
    def destination_province(self) -> str:
        """The province of :attr:`destination` ("" for a hold or the support of a hold)."""
        return self.dprov

    @property
    def supported_province(self) -> str:
        """The province of the unit a support or convoy is for ("" for others)."""
        return self.target

    @property
    def by_convoy(self) -> bool:
        """Does this move go by convoy?"""
        return self.convoy

    @property
    def opponent(self) -> MOrder | None:
        """The order of the unit in a move's destination (None: empty, or not a move)."""
        return self.opp

    @property
    def text(self) -> str:
        return str(self.source)

    def __repr__(self) -> str:
        return f"MOrder({self.power}: {self.text})"


class Validated:
    """The orders of a movement phase after validation and defaults (a plain class, as
    PhaseResult (mobadj.engine.pipeline))."""

    orders: list[MOrder]  # one per unit on the board (defaults last)
    given: list[MOrder | OrderResult]  # as given, in order

    def __init__(self, orders: list[MOrder], given: list[MOrder | OrderResult] | None = None
                 ) -> None:
        self.orders = orders
        self.given = [] if given is None else given



def validate(
    position: Position,
    orders: Iterable[tuple[str | None, AnyOrder]],
    topo: Topology,
    rules: Rules,
) -> Validated:
    """Check each (power, order) against the board; the first legal order of a unit is used
    (DATC 4.D.3, illegal orders ignored per 4.E.1)."""
    units = position.units
    prov_of = topo.prov_of
    neighbours = topo.neighbours
    check_move = not standard(rules, "check_move")
    chosen: dict[str, MOrder] = {}
    first_invalid: dict[str, MOrder] = {}
    given: list[MOrder | OrderResult] = []
    convoys = False
    for power, order in orders:
        if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
            given.append(OrderResult(power or "?", order, Outcome.INVALID, Reason.WRONG_PHASE))
            continue
        ordered: Unit = order.unit  # typed: the compiled build reads the fields directly
        loc = ordered.location
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
        if loc != uloc and "/" in loc and rules.unit_coast == "fail":  # DATC 4.B.5 a
            mo.invalid = Reason.WRONG_UNIT_COAST
        elif isinstance(order, Move):
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
                and not order.route
            ):
                mo.code = MOVE
                mo.dest = dest
                mo.dprov = dprov
            else:
                _check(mo, order, units, topo, rules)
                convoys = convoys or mo.convoy
        elif not isinstance(order, Hold):  # a hold needs no check
            _check(mo, order, units, topo, rules)
            convoys = convoys or isinstance(order, Convoy)
        if check_move and mo.code == MOVE and mo.invalid is None:
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


def _check(
    mo: MOrder, order: AnyOrder, units: dict[str, UnitState], topo: Topology, rules: Rules
) -> None:
    """Fill ``mo`` from ``order``; set ``mo.invalid`` when the order is impossible."""
    kind, loc = mo.ukind, mo.loc
    t = type(order)
    if t is Hold:
        return
    if isinstance(order, Move):
        move = order
        mo.code = MOVE
        mo.route = move.route
        dest = move.destination
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
                    _convoyable(rules, kind)
                    and mo.prov in topo.coastal
                    and dprov in topo.coastal
                    and not move.route
                ):
                    mo.dest = dprov
                    mo.convoy = True  # a move by convoy (path decided by the resolver)
                    return
                occupiable = any(x in topo.neighbours[kind] for x in locs)
                mo.invalid = Reason.NOT_ADJACENT if occupiable else Reason.WRONG_TERRAIN
                return
            if "/" in dest:
                if dprov in cands:  # an army told a coast: ignore it (DATC 4.B.6)
                    if rules.irrelevant_coast == "fail":  # option: DATC 4.B.6 a
                        mo.invalid = Reason.ARMY_COAST
                        return
                    dest = dprov
                elif len(cands) == 1 and rules.impossible_coast == "ignore":
                    dest = cands[0]  # option: DATC 4.B.3 a, the only reachable coast
                else:  # a coast the fleet cannot reach (DATC 4.B.3 b, 6.B.3)
                    mo.invalid = Reason.BAD_COAST
                    return
            elif len(cands) == 1:  # the only reachable coast (DATC 4.B.2 a, 6.B.2)
                if rules.missing_coast == "fail":  # option: DATC 4.B.2 b
                    mo.invalid = Reason.AMBIGUOUS_COAST
                    return
                dest = cands[0]
            else:  # DATC 6.B.1
                mo.invalid = Reason.AMBIGUOUS_COAST
                return
        mo.dest = dest
        if move.via_convoy and _convoyable(rules, kind) and mo.prov in topo.coastal:
            mo.convoy = dprov in topo.coastal
        return
    if isinstance(order, (SupportHold, SupportMove)):
        mo.code = SUPPORT
        supported: Unit = order.supported
        sprov = province_of(supported.location)
        mo.target = sprov
        if sprov not in units:
            mo.invalid = Reason.NO_SUPPORTED_UNIT
            return
        if sprov == mo.prov:  # DATC 6.A.8
            mo.invalid = Reason.SUPPORT_SELF
            return
        goal = sprov
        if isinstance(order, SupportMove):
            support = order
            goal = province_of(support.destination)
            mo.dprov = goal
            mo.dest = support.destination  # a coast, if named, must match (DATC 6.B.9)
            mo.route = support.route
            if goal == sprov:  # support of a move to its own province (DATC 6.A.5)
                mo.invalid = Reason.OWN_PROVINCE
                return
        if not topo.can_reach(kind, loc, goal):  # DATC 6.A.10, 6.B.4, 6.B.5
            mo.invalid = Reason.SUPPORT_UNREACHABLE
        return
    if isinstance(order, Convoy):
        mo.code = CONVOY
        if not _can_convoy(rules, topo, mo.prov, kind):
            mo.invalid = Reason.CANNOT_CONVOY
            return
        convoy = order
        aprov = province_of(convoy.convoyed.location)
        mo.target = aprov
        mo.dprov = province_of(convoy.destination)
        army = units.get(aprov)
        if army is None:
            mo.invalid = Reason.NO_CONVOYED_UNIT
        elif not _convoyable(rules, army.kind):  # DATC 6.A.7
            mo.invalid = Reason.NOT_CONVOYABLE
        return


def _convoyable(rules: Rules, kind: str) -> bool:
    """``rules.convoyable(kind)``, the standard rule's test read here (mobadj.engine.hooks)."""
    if standard(rules, "convoyable"):
        return army_convoyed(kind)
    return bool(untyped(rules).convoyable(kind))


def _can_convoy(rules: Rules, topo: Topology, location: str, kind: str) -> bool:
    """``rules.can_convoy(topo, location, kind)``, the standard rule's test read here."""
    if standard(rules, "can_convoy"):
        return fleet_convoys(kind, location, topo.sea)
    return bool(untyped(rules).can_convoy(topo, location, kind))


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
      is legally ordered to convoy it (2023 rules, DATC 4.A.3, 6.G.6).  Options
      (``Rules.adjacent_convoy``): "dptg", only a move written "via convoy"; "1971", a legal
      convoy order by any power's fleet when the unit there moves the opposite way;
      "fallback", as 2023 but a convoy to an adjacent province falls back to the land route.
    """
    seas = (sea_fleets(units, topo.sea)
            if standard(rules, "convoy_seas") and standard(rules, "can_convoy")
            else names(untyped(rules).convoy_seas(topo, units), "convoy_seas"))
    chains = SeaChains(topo, seas)
    bit = topo.bit
    cache: dict[tuple[str, str], int] = {}
    intent: set[tuple[str, str]] = set()
    mode = rules.adjacent_convoy
    plain: list[MOrder] = []  # moves over land, which a convoy order may yet carry
    armies: list[MOrder] = []  # moves by convoy
    for m in mos:
        code = m.code
        if code == MOVE:
            if m.convoy:
                armies.append(m)
            else:
                plain.append(m)
        elif code == CONVOY and m.invalid is None:
            if not _route(chains, cache, m.target, m.dprov) & bit[m.prov]:
                m.invalid = Reason.NO_ROUTE
                m.code = HOLD
            elif units[m.target].power == m.power or mode == "1971":
                intent.add((m.target, m.dprov))
    if mode == "dptg":  # option, DATC 4.A.3: only "via convoy" takes the convoy (6.G.1)
        intent.clear()
    elif mode == "1971" and intent:  # option, DATC 4.A.3 a: only to swap (6.G.2, 6.G.11)
        swaps = {(m.prov, m.dprov) for m in plain + armies}
        intent = {(a, d) for a, d in intent if (d, a) in swaps}
    if intent:
        for m in plain:
            if (m.prov, m.dprov) in intent:
                m.convoy = True
                m.dest = m.dprov
    for m in armies:
        if _route(chains, cache, m.prov, m.dprov):
            pass
        elif mode == "fallback" and m.dprov in topo.neighbours[m.ukind].get(m.loc, ()):
            m.convoy = False  # option: the land route as fallback (DATC 2.4, 6.G.8)
        else:
            m.invalid = Reason.NO_CONVOY
            m.code = HOLD


def _route(chains: SeaChains, cache: dict[tuple[str, str], int], a: str, d: str) -> int:
    """The mask of the seas a convoy from ``a`` to ``d`` needs (``cache`` keeps them for
    the phase: several orders ask about one route)."""
    got = cache.get((a, d))
    if got is None:
        got = cache[(a, d)] = chains.needed(a, d)
    return got
