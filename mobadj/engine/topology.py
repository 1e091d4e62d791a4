"""Adjacency precomputed once per map, in plain dicts and frozensets for the resolver's hot loop.

The GameMap (mobadj.board) is the source of truth; this module only asks its documented
API (``locations``, ``neighbours``, ``can_occupy``, ``provinces``) once per location and
keeps the answers, so no networkx call happens while a phase is adjudicated.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Final

from mobadj.board import province_of
from mobadj.engine.units import UnitState

if TYPE_CHECKING:
    from mobadj.board import GameMap

SEA_TERRAINS: Final = frozenset({"sea", "water"})


class Topology:
    """What the engine needs to know about a map, precomputed."""

    __slots__ = (
        "game_map",
        "name",
        "kinds",
        "provinces",
        "locations",
        "neighbours",
        "reach",
        "sea",
        "fleet_reach",
        "coastal",
        "supply_centers",
        "homes",
        "names",
        "prov_of",
        "bit",
        "by_bit",
        "fleet_mask",
        "fleet_mask_at",
        "_dist",
    )

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self.name: str = game_map.name
        self.kinds: tuple[str, ...] = tuple(game_map.unit_kinds)
        self.provinces: tuple[str, ...] = tuple(game_map.provinces)
        self.locations: dict[str, tuple[str, ...]] = {
            p: tuple(game_map.locations(p)) for p in self.provinces
        }
        # neighbours[kind][location] -> frozenset of locations that kind can move to
        self.neighbours: dict[str, dict[str, frozenset[str]]] = {}
        # reach[kind][location] -> frozenset of *provinces* reachable (any coast)
        self.reach: dict[str, dict[str, frozenset[str]]] = {}
        for kind in self.kinds:
            nb: dict[str, frozenset[str]] = {}
            rc: dict[str, frozenset[str]] = {}
            for locs in self.locations.values():
                for loc in locs:
                    if not game_map.can_occupy(kind, loc):
                        continue
                    n = frozenset(game_map.neighbours(kind, loc))
                    nb[loc] = n
                    rc[loc] = frozenset(province_of(x) for x in n)
            self.neighbours[kind] = nb
            self.reach[kind] = rc
        self.sea: frozenset[str] = frozenset(
            p for p, prov in game_map.provinces.items() if prov.terrain in SEA_TERRAINS
        )
        # fleet_reach[province] -> provinces a fleet reaches from any of its locations: the
        # geometry of convoy chains (sea to sea, first and last hop to the coast).
        fleet = self.reach.get("F", {})
        self.fleet_reach: dict[str, frozenset[str]] = {}
        for p, locs in self.locations.items():
            acc: set[str] = set()
            for loc in locs:
                acc |= fleet.get(loc, frozenset())
            self.fleet_reach[p] = frozenset(acc)
        army_ok = self.reach.get("A", {})
        self.coastal: frozenset[str] = frozenset(
            p
            for p in self.provinces
            if p not in self.sea and p in army_ok and self.fleet_reach[p] & self.sea
        )
        self.supply_centers: frozenset[str] = frozenset(game_map.supply_centers)
        self.homes: dict[str, frozenset[str]] = {
            pid: frozenset(p.home_centers) for pid, p in game_map.powers.items()
        }
        self.names: dict[str, str] = {p: game_map.provinces[p].name for p in self.provinces}
        self.prov_of: dict[str, str] = {
            loc: p for p, locs in self.locations.items() for loc in locs
        }
        # Sets of provinces as bit masks, for the convoy-chain searches (SeaChains):
        # bit[province] is 1 << its index in ``by_bit``; fleet_mask[province] the mask of
        # fleet_reach[province], and fleet_mask_at the same by index.  Seas come first, then
        # the coast: a fleet reaches nothing else, so on a map of up to 62 seas and coastal
        # provinces every mask is a machine-sized integer (the compiled build's fast kind).
        self.by_bit: tuple[str, ...] = tuple(sorted(
            self.provinces, key=lambda p: (p not in self.sea, not self.fleet_reach[p])))
        self.bit: dict[str, int] = {p: 1 << i for i, p in enumerate(self.by_bit)}
        self.fleet_mask: dict[str, int] = {
            p: sum(self.bit[q] for q in self.fleet_reach[p]) for p in self.provinces
        }
        self.fleet_mask_at: list[int] = [self.fleet_mask[p] for p in self.by_bit]
        self._dist: dict[str, dict[str, int]] | None = None

    def provinces_in(self, mask: int) -> set[str]:
        """The provinces of a mask of ``bit``s."""
        provinces = self.by_bit
        out = set()
        while mask:
            low = mask & -mask
            mask ^= low
            out.add(provinces[low.bit_length() - 1])
        return out

    def can_reach(self, kind: str, location: str, province: str) -> bool:
        """Can a ``kind`` at ``location`` move to some location of ``province``?"""
        r = self.reach.get(kind, {}).get(location)
        return r is not None and province in r

    def convoy_route_exists(self, origin: str, dest: str, seas: set[str] | frozenset[str]) -> bool:
        """Is there a chain of the sea provinces ``seas`` from ``origin`` to ``dest``?"""
        mask = 0
        bit = self.bit
        for sea in seas:
            mask |= bit[sea]
        return self.convoy_route_within(origin, dest, mask)

    def convoy_route_within(self, origin: str, dest: str, seas: int) -> bool:
        """:meth:`convoy_route_exists` for the seas of the mask ``seas`` (of ``bit``s): a
        flood fill from ``origin`` over those seas that reaches ``dest``."""
        near_at, dest_bit = self.fleet_mask_at, self.bit[dest]
        seen = frontier = self.fleet_mask[origin] & seas
        while frontier:
            grow = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                near = near_at[low.bit_length() - 1]
                if near & dest_bit:
                    return True
                grow |= near
            frontier = grow & seas & ~seen
            seen |= frontier
        return False

    def necessary_seas(self, origin: str, dest: str, seas: set[str]) -> set[str]:
        """The provinces of ``seas`` that some convoy from ``origin`` to ``dest`` needs
        (:meth:`SeaChains.necessary`; a phase with several questions asks one SeaChains)."""
        return SeaChains(self, seas).necessary(origin, dest)

    def distances(self) -> dict[str, dict[str, int]]:
        """All-pairs province distances over land *and* sea (2023 civil-disorder rule)."""
        if self._dist is None:
            adj: dict[str, set[str]] = {p: set() for p in self.provinces}
            for kind in self.kinds:
                for loc, provs in self.reach[kind].items():
                    adj[province_of(loc)] |= provs
            dist: dict[str, dict[str, int]] = {}
            for src in self.provinces:
                d = {src: 0}
                frontier = [src]
                while frontier:
                    nxt = []
                    for p in frontier:
                        for q in adj[p]:
                            if q not in d:
                                d[q] = d[p] + 1
                                nxt.append(q)
                    frontier = nxt
                dist[src] = d
            self._dist = dist
        return self._dist


def fleet_convoys(kind: str, location: str, sea: AbstractSet[str]) -> bool:
    """The standard game's rule of who convoys: a fleet in a sea province, never a coastal
    one (DATC 6.A.7)."""
    return kind == "F" and location in sea


def army_convoyed(kind: str) -> bool:
    """The standard game's rule of who is convoyed: an army (DATC 6.A.7)."""
    return kind == "A"


def sea_fleets(units: Mapping[str, UnitState], sea: AbstractSet[str]) -> list[str]:
    """The provinces of the units among ``units`` (province -> unit) that convoy by the
    standard rule (:func:`fleet_convoys`; compiled with the engine: it runs in every phase
    with a convoy order)."""
    return [p for p, u in units.items() if fleet_convoys(u.kind, u.location, sea)]


class SeaChains:
    """The provinces that hold a convoying fleet in one phase, split once into connected
    groups.

    Every convoy route of the phase runs inside one group (fleet adjacency is symmetric), so
    a question about a route looks only at the groups both of its ends touch: none, and
    there is no route at all; one sea, and that fleet is the route.  Grouping once per phase
    spares a flood fill from each end of every route asked about.  Sets of provinces are bit
    masks (``Topology.bit``), which keeps the search for chordless chains cheap.
    """

    __slots__ = ("topo", "groups")

    def __init__(self, topo: Topology, seas: Iterable[str]) -> None:
        self.topo = topo
        bit, near_at = topo.bit, topo.fleet_mask_at
        left = 0
        for s in seas:
            left |= bit[s]
        #: the groups, each a mask of provinces connected through one another
        self.groups: list[int] = []
        while left:
            group = frontier = left & -left
            while frontier:
                grow = 0
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    grow |= near_at[low.bit_length() - 1]
                frontier = grow & left & ~group
                group |= frontier
            left &= ~group
            self.groups.append(group)

    def between(self, origin: str, dest: str) -> int:
        """The mask of the seas reachable through seas from both ``origin`` and ``dest``: the
        members of the groups that touch both ends."""
        near = self.topo.fleet_mask
        at_origin, at_dest = near[origin], near[dest]
        out = 0
        for g in self.groups:
            if g & at_origin and g & at_dest:
                out |= g
        return out

    def necessary(self, origin: str, dest: str) -> set[str]:
        """The seas that some convoy from ``origin`` to ``dest`` needs (:meth:`needed`)."""
        return self.topo.provinces_in(self.needed(origin, dest))

    def needed(self, origin: str, dest: str) -> int:
        """The mask of the seas that some convoy from ``origin`` to ``dest`` needs.

        A fleet is needed when it lies on a chordless chain origin -> sea ... sea -> dest: a
        chain no other fleet could shorten.  A fleet only on longer, redundant chains is not
        necessary (DATC 6.G.19), and its convoy order is impossible.  The search is bounded;
        on a pathological board it falls back to "on some chain".
        """
        topo = self.topo
        candidates = self.between(origin, dest)
        if candidates & (candidates - 1) == 0:  # no sea, or one
            return candidates
        near_at = topo.fleet_mask_at
        dest_bit = topo.bit[dest]
        found = 0
        budget = 5000
        # a depth-first walk over the chains: (what the chain's last member reaches, the
        # neighbours of every member but the last (they would be chords), the chain)
        stack = [(topo.fleet_mask[origin], 0, 0)]
        while stack:
            reach, banned, path = stack.pop()
            budget -= 1
            if path and reach & dest_bit:
                found |= path
                continue
            if budget <= 0 or found == candidates:
                break
            child_banned = banned | reach | path
            todo = reach & candidates & ~banned & ~path
            while todo:
                low = todo & -todo
                todo ^= low
                stack.append((near_at[low.bit_length() - 1], child_banned, path | low))
        return found if budget > 0 else candidates


@functools.lru_cache(maxsize=32)
def topology_for(game_map: GameMap) -> Topology:
    """The (cached) Topology of a GameMap object (maps hash by identity)."""
    return Topology(game_map)
