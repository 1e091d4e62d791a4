"""The resolver for the DATC's non-preferred rule options (docs/rulings.md).

:class:`OptionResolver` is :class:`mobadj.engine.movement.Resolver` with some decisions
changed (the support rule of the base class reads its ``uncut`` and ``sea_attack``), and is
used only when the rules ask for one of these options (:func:`resolver_class`), so the
standard resolver stays as fast as it is:

- ``paradox`` "1982", "2000" or "1971" (DATC 4.A.2 b, c, a): a convoyed army does not cut
  certain supports.  Whatever paradox the rule leaves open (second order, betrayal: DATC
  6.F.18, 6.F.22-6.F.24) falls to the Szykman rule as backup.
- ``dislodged_bounce`` "never" (DATC 4.A.7 a): a dislodged unit has no effect on the province
  its attacker came from, even when they passed each other by convoy.
- ``convoy_attack`` "cuts" (DATC 4.A.4 b): a convoyed attack "comes from the sea", so it
  cuts a support for an attack on its own province.
- ``support_coast`` "same_power" / "required" (DATC 4.B.4): a support that omits the coast
  of a fleet's move to a split-coast province is void when the fleet is foreign (Calhamer's
  position) or always (orders checked on submission).
- ``adjacent_convoy`` "fallback" (DATC 4.A.3 as DATC 2.4 preferred): an army convoyed to a
  province it could reach over land takes the land route when its convoy fails; two units
  moving into each other's province then meet head-on unless one of them is convoyed.
- ``convoy_disruption`` "any_route" (DATC 4.A.1 a, the 1971 rule): a convoy with several
  routes is disrupted when any fleet on any of its routes fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mobadj.engine.movement import CONVOY, MOVE, SUPPORT, MOrder, Resolver
from mobadj.engine.results import Reason
from mobadj.engine.rules import CUT_RULES, Rules
from mobadj.engine.topology import Topology

FALLBACK: Final = 3  # MOrder.h2h of two units moving into each other where one may fall back


def resolver_class(rules: Rules) -> type[Resolver]:
    """The resolver these options need: the standard one, or :class:`OptionResolver` when
    any option changes resolution (so the standard game keeps the fast one).  A variant
    never chooses: its own rules of resolution are hooks (``cuts_support``, ``convoy_path``,
    ``head_to_head``, ``move_bonus``, ...) that both resolvers ask, so they compose with
    every option."""
    if (
        rules.paradox in CUT_RULES
        or rules.dislodged_bounce != "unless_h2h"
        or rules.convoy_disruption != "all_routes"
        or rules.convoy_attack != "from_origin"
        or rules.support_coast != "optional"
        or rules.adjacent_convoy == "fallback"
    ):
        return OptionResolver
    return Resolver


class OptionResolver(Resolver):
    """The movement resolver with the DATC's alternative rules (see the module docstring)."""

    __slots__ = ("literal_dislodge", "any_route", "on_route", "fallback")

    def __init__(self, orders: Sequence[MOrder], topo: Topology, rules: Rules) -> None:
        super().__init__(orders, topo, rules)
        self.literal_dislodge = rules.dislodged_bounce == "never"
        self.any_route = rules.convoy_disruption == "any_route"
        self.on_route: dict[str, set[str]] = {}
        self.sea_attack = rules.convoy_attack == "cuts"
        self.fallback: set[MOrder] = set()
        if rules.adjacent_convoy == "fallback":
            self._fallbacks()
        if rules.support_coast != "optional":
            void_coastless_supports(self, rules.support_coast == "same_power")
        if rules.paradox in CUT_RULES:
            self.uncut = uncut_pairs(self)

    def _fallbacks(self) -> None:
        """Convoyed moves to a land neighbour; a swap involving one is decided in battle()."""
        nb = self.topo.neighbours
        for o in self.orders:
            if o.code == MOVE and o.convoy and o.dprov in nb[o.ukind].get(o.loc, ()):
                self.fallback.add(o)
                opp = o.opp
                if opp is not None and opp.code == MOVE and opp.dprov == o.prov:
                    o.h2h = opp.h2h = FALLBACK

    def run(self) -> None:
        super().run()
        for o in self.fallback:  # went by land: retreats and reports treat it so
            if not self._by_convoy(o):
                o.convoy = False

    def _by_convoy(self, o: MOrder) -> bool:
        return o.convoy and self._route(o)

    def battle(self, o: MOrder) -> bool:
        """Head-on unless either unit arrives by convoy (for fallback moves)."""
        if o.h2h != FALLBACK:
            return Resolver.battle(self, o)
        assert o.opp is not None  # a head-to-head has a unit coming the other way
        return not (self._by_convoy(o) or self._by_convoy(o.opp))

    def route(self, o: MOrder) -> bool:
        """DATC 5.B.4; with 4.A.1 a every convoying fleet on any route must succeed; a
        fallback move always has its land route."""
        if o in self.fallback:
            return True
        return self._route(o)

    def _route(self, o: MOrder) -> bool:
        if not (o.convoy and self.any_route):
            return Resolver.route(self, o)
        need = self.on_route.get(o.prov)
        if need is None:
            ordered = {c.prov for c in o.convoys}
            need = self.on_route[o.prov] = (
                self.topo.necessary_seas(o.prov, o.dprov, ordered)
                if ordered and self.topo.convoy_route_exists(o.prov, o.dprov, ordered)
                else set()
            )
        if not need:
            return False
        return all(c.res if c.resolved else self.resolve(c) for c in o.convoys
                   if c.prov in need)

    def prevent(self, k: MOrder) -> int:
        """DATC 5.B.6 PREVENT STRENGTH; with 4.A.7 a also 0 when the unit is dislodged by a
        unit coming the other way by convoy (no head-to-head battle)."""
        if self.literal_dislodge:
            opp = k.opp
            if (
                opp is not None
                and opp.code == MOVE
                and opp.dprov == k.prov
                and (opp.res if opp.resolved else self.resolve(opp))
            ):
                return 0
        return Resolver.prevent(self, k)


def void_coastless_supports(r: Resolver, foreign_only: bool) -> None:
    """DATC 4.B.4 options: a support without the coast a fleet's move names is void (only when
    the fleet is of another power with ``foreign_only``)."""
    for s in r.orders:
        if s.code != SUPPORT or s.void is not None or not s.dprov or s.dest != s.dprov:
            continue
        t = r.unit_at[s.target]
        if "/" in t.dest and not (foreign_only and t.power == s.power):
            assert isinstance(t.supports, list)  # s is one of them
            t.supports.remove(s)
            s.void = Reason.VOID_SUPPORT
            s.resolved = True


def uncut_pairs(r: Resolver) -> set[tuple[MOrder, MOrder]]:
    """(support, convoyed army) pairs where the army's attack does not cut the support.

    - 1982 (DATC 4.A.2 b): the support is for an action in a body of water that holds a
      convoying fleet (a fleet whose convoy order matches an army's move).
    - 2000/2023 (c): the support is for an attack on a fleet *necessary* for the army's convoy
      (without it no route is left among the army's convoying fleets).
    - 1971 (a): the support is for a fleet attacking one of the army's convoying fleets.
    """
    rule = r.rules.paradox
    unit_at = r.unit_at
    out: set[tuple[MOrder, MOrder]] = set()
    for s in r.orders:
        if s.code != SUPPORT or s.void is not None:
            continue
        armies = [k for k in r.moves_to.get(s.prov, ()) if k.convoy and k.power != s.power]
        if not armies:
            continue
        place = s.dprov or s.target
        there = unit_at.get(place)
        if there is None or there.code != CONVOY:
            continue
        if rule == "1982":
            if there.void is None:
                out.update((s, k) for k in armies)
            continue
        if not s.dprov:  # 1971 and 2000 speak of supporting an attack
            continue
        mover = unit_at[s.target]
        for k in armies:
            if there not in k.convoys:
                continue
            if rule == "1971":
                if mover.ukind == "F":
                    out.add((s, k))
            else:
                rest = {c.prov for c in k.convoys if c is not there}
                if not (rest and r.topo.convoy_route_exists(k.prov, k.dprov, rest)):
                    out.add((s, k))
    return out
