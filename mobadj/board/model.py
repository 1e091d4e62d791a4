"""The map model the resolver asks: provinces, powers and a location graph.

Nodes of the graph are *locations*: a province id (``"PAR"``) or a province with a coast
(``"SPA/NC"``).  Each edge's key is the unit kind that may use it (``"A"``, ``"F"``,
Mobtown's ``"G"``/``"D"``) and its attributes say how (``via``: plain, highway, junction,
diagonal, or a route kind the map declares under ``routes``, plus any extra attributes from
the map file).  A map keeps them as plain
data (:attr:`GameMap.nodes`, :attr:`GameMap.edges`); :attr:`GameMap.graph` is the networkx
graph of the same, built on first use for the tools that want one (map checks, balance,
layout), so adjudicating never imports networkx.  The resolver runs in hot loops, so
neighbour sets are precomputed frozensets and :meth:`GameMap.lookup` caches every spelling it
has resolved.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from mobadj.board.locations import province_of
from mobadj.errors import MapError

if TYPE_CHECKING:
    import networkx as nx

Edge = tuple[str, str, str, dict[str, object]]


class Node(TypedDict, total=False):
    """A location's attributes: its province, terrain, coast (None for the province itself)
    and the unit kinds that may stand there (absent where none may)."""

    province: str
    terrain: str
    coast: str | None
    kinds: frozenset[str]
"""One directed edge of the location graph: (source, destination, key, attributes)."""

EMPTY: frozenset[str] = frozenset()

COAST_WORDS = {
    "nc": "NC", "n": "NC", "north": "NC", "northcoast": "NC", "ncs": "NC",
    "sc": "SC", "s": "SC", "south": "SC", "southcoast": "SC", "scs": "SC",
    "ec": "EC", "e": "EC", "east": "EC", "eastcoast": "EC", "ecs": "EC",
    "wc": "WC", "w": "WC", "west": "WC", "westcoast": "WC", "wcs": "WC",
}
"""Spellings of a coast after a province name (``/nc``, ``(nc)``, ``NC``, ``north coast``)."""

_COAST_SUFFIX = re.compile(
    r"^(?P<prov>.+?)\s*(?:[/(.\-]\s*|\s+)"
    r"(?P<coast>(?:north|south|east|west)(?:\s*coast)?|[nsew]c?s?)\s*\)?\s*$",
    re.IGNORECASE,
)


def close_matches(word: str, choices: Iterable[str], n: int = 3, cutoff: float = 0.6
                  ) -> list[str]:
    """``difflib.get_close_matches``, for did-you-mean messages; difflib is imported when
    first asked (a batch of good lines never is)."""
    import difflib

    return difflib.get_close_matches(word, list(choices), n=n, cutoff=cutoff)


def fold(text: str) -> str:
    """The case- and punctuation-blind key of a name: ``"St. Petersburg"`` -> ``"stpetersburg"``."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


class UnknownNameError(MapError, LookupError):
    """A name that matches no province, location or power; ``suggestions`` are close ids.

    ``suggestions`` may be given as a function: it is called only when someone reads them
    (most failed look-ups are tries whose message nobody sees, and suggesting is slow)."""

    def __init__(self, text: str, suggestions: Iterable[str] | Callable[[], Iterable[str]] = (),
                 what: str = "province") -> None:
        self.text = text
        self._suggestions = suggestions
        self.what = what
        super().__init__(text)

    @property
    def suggestions(self) -> tuple[str, ...]:
        if not isinstance(self._suggestions, tuple):
            given = self._suggestions
            self._suggestions = tuple(given() if callable(given) else given)
        return self._suggestions

    def __str__(self) -> str:
        msg = f"unknown {self.what} {self.text!r}"
        if self.suggestions:
            msg += "; did you mean " + " or ".join(self.suggestions) + "?"
        return msg


class UnknownCoastError(UnknownNameError):
    """A province that has no such coast; ``suggestions`` are its coasts."""

    def __init__(self, text: str, coasts: Iterable[str]) -> None:
        super().__init__(text, coasts, "coast")


class AmbiguousNameError(UnknownNameError):
    """A name that fits several ids (``lop`` on a map that keeps ``LOP`` and ``Lop`` apart);
    ``suggestions`` are those ids."""

    def __init__(self, text: str, candidates: Iterable[str]) -> None:
        super().__init__(text, candidates, "ambiguous name")


@dataclass(frozen=True, slots=True)
class Province:
    """One space of the board; ``line`` is where the map file defines it."""

    id: str
    name: str
    terrain: str
    supply_center: bool = False
    home_of: str | None = None
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Power:
    """A power: its home centres and its starting units as ``(kind, location)`` pairs."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    colour: str = ""
    home_centers: tuple[str, ...] = ()
    starting_units: tuple[tuple[str, str], ...] = ()
    line: int = 0


@dataclass(eq=False)
class GameMap:
    """A loaded map: read-only once built (the resolver shares one instance per map)."""

    name: str
    title: str
    calendar: str
    unit_kinds: dict[str, str]
    provinces: dict[str, Province]
    powers: dict[str, Power]
    #: location -> its attributes (province, terrain, coast, and the unit kinds that may
    #: stand there), in the order of the map file
    nodes: dict[str, Node]
    #: every directed edge (source, destination, key, attributes) in the map file's order
    edges: list[Edge]
    variant: str = ""  # "module:Class" of the rules this map is played by ("" standard)
    case_sensitive_ids: bool = False
    source: str = ""
    extra: dict[str, object] = field(default_factory=dict)
    #: the route kinds of the map's variant -> the mark orders write for each (Mobtown II:
    #: ``{"subway": "U"}``): an edge may go ``via`` one of them, or carry it as a flag
    #: (``name: true``) beside its ground link
    routes: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._neigh: dict[tuple[str, str], frozenset[str]] = {}
        self._neigh_prov: dict[tuple[str, str], frozenset[str]] = {}
        self._occupy: set[tuple[str, str]] = {
            (kind, loc)
            for loc, data in self.nodes.items()
            for kind in data.get("kinds", ())
        }
        by_src: dict[tuple[str, str], set[str]] = {}
        self._edge_data: dict[tuple[str, str, str], dict[str, object]] = {}
        for src, dst, kind, data in self.edges:
            by_src.setdefault((_kind_of(kind), src), set()).add(dst)
            self._edge_data[(src, dst, kind)] = data
        for key, dsts in by_src.items():
            self._neigh[key] = frozenset(dsts)
            self._neigh_prov[key] = frozenset(province_of(d) for d in dsts)
        self._locations = {
            pid: (pid, *(f"{pid}/{c}" for c in p.coasts)) for pid, p in self.provinces.items()
        }
        self._supply = frozenset(pid for pid, p in self.provinces.items() if p.supply_center)
        self._build_name_tables()

    @functools.cached_property
    def graph(self) -> nx.MultiDiGraph[str]:
        """The location graph as a networkx MultiDiGraph (built on first use; read-only)."""
        import networkx as nx

        graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        for loc, node in self.nodes.items():
            graph.add_node(loc, **node)
        for src, dst, key, data in self.edges:
            graph.add_edge(src, dst, key=key, **data)
        return graph

    def __getstate__(self) -> dict[str, object]:
        """Pickled (the map cache) without the networkx graph, which is rebuilt on use."""
        state = dict(self.__dict__)
        state.pop("graph", None)
        return state

    # -- graph queries (hot paths) ---------------------------------------------------------
    def locations(self, province: str) -> tuple[str, ...]:
        """All locations of a province: ``("SPA", "SPA/NC", "SPA/SC")``."""
        return self._locations[province_of(province)]

    def neighbours(self, kind: str, location: str) -> frozenset[str]:
        """Locations a unit of ``kind`` at ``location`` can move to in one step."""
        return self._neigh.get((kind, location), EMPTY)

    def neighbour_provinces(self, kind: str, location: str) -> frozenset[str]:
        """Provinces (coasts dropped) a unit of ``kind`` at ``location`` can reach in one step."""
        return self._neigh_prov.get((kind, location), EMPTY)

    def adjacent(self, kind: str, src: str, dst: str) -> bool:
        """Whether ``kind`` can move from location ``src`` to location ``dst`` in one step."""
        return dst in self._neigh.get((kind, src), EMPTY)

    def reaches_province(self, kind: str, src: str, province: str) -> bool:
        """Whether ``kind`` at ``src`` can reach *some* location of ``province`` (support rule)."""
        return province in self._neigh_prov.get((kind, src), EMPTY)

    def coasts_to(self, kind: str, src: str, province: str) -> tuple[str, ...]:
        """The locations of ``province`` that ``kind`` at ``src`` can move to (coast choice)."""
        neigh = self._neigh.get((kind, src), EMPTY)
        return tuple(loc for loc in self.locations(province) if loc in neigh)

    def edge(self, kind: str, src: str, dst: str) -> dict[str, object] | None:
        """The attributes of the ``kind`` edge ``src -> dst`` (``{"via": ...}``) or None."""
        return self._edge_data.get((src, dst, kind))

    def can_occupy(self, kind: str, location: str) -> bool:
        """Whether a unit of ``kind`` may stand on ``location`` (armies never at sea, ...)."""
        return (kind, location) in self._occupy

    @property
    def supply_centers(self) -> frozenset[str]:
        """Province ids of all supply centres."""
        return self._supply

    # -- names ------------------------------------------------------------------------------
    def _build_name_tables(self) -> None:
        exact: dict[str, str] = {}
        folded: dict[str, set[str]] = {}
        for pid, prov in self.provinces.items():
            for loc in self._locations[pid]:
                exact[loc] = loc
            for spelling in (pid, prov.name, *prov.aliases):
                folded.setdefault(fold(spelling), set()).add(pid)
            for coast in prov.coasts:
                folded.setdefault(fold(f"{pid}{coast}"), set()).add(f"{pid}/{coast}")
        self._exact = exact
        self._folded = folded
        self._lookup_cache: dict[str, str] = {}
        self._choices = sorted(
            {s for pid, p in self.provinces.items() for s in (pid, p.name, *p.aliases)}
        )
        self._choice_keys: list[str] | None = None
        pw: dict[str, str] = {}
        for pid, power in self.powers.items():
            for spelling in (pid, power.name, *power.aliases):
                pw.setdefault(fold(spelling), pid)
        self._power_folded = pw

    def lookup(self, text: str) -> str:
        """Any spelling of a location -> its id; raises :class:`UnknownNameError`.

        Exact ids win first (case-sensitive maps keep ``LOP`` and ``Lop`` apart), then ids,
        aliases and full names ignoring case and punctuation, then a trailing coast in any
        of the forms ``/nc``, ``(nc)``, `` NC``, ``north coast``.
        """
        try:
            return self._lookup_cache[text]
        except KeyError:
            pass
        result = self._lookup_uncached(text)
        self._lookup_cache[text] = result
        return result

    def _lookup_uncached(self, text: str) -> str:
        stripped = text.strip()
        if stripped in self._exact:
            return stripped
        hit = self._folded_one(stripped)
        if hit is not None:
            return hit
        match = _COAST_SUFFIX.match(stripped)
        if match:
            coast = COAST_WORDS.get(fold(match.group("coast")))
            prov = self._exact.get(match.group("prov")) or self._folded_one(match.group("prov"))
            if coast and prov is not None:
                loc = f"{province_of(prov)}/{coast}"
                if loc in self._exact:
                    return loc
                raise UnknownCoastError(text, self.locations(prov)[1:] or (prov,))
        raise UnknownNameError(text, lambda: self.suggest(stripped))

    def _folded_one(self, text: str) -> str | None:
        ids = self._folded.get(fold(text))
        if not ids:
            return None
        if len(ids) == 1:
            return next(iter(ids))
        raise AmbiguousNameError(text, sorted(ids))

    def suggest(self, text: str, limit: int = 3, cutoff: float = 0.6) -> tuple[str, ...]:
        """Close spellings of ``text`` as location ids (for did-you-mean messages); a
        higher ``cutoff`` asks for closer ones."""
        key = fold(text)
        keys = self._choice_keys
        if keys is None:
            keys = self._choice_keys = list(dict.fromkeys(fold(c) for c in self._choices))
        close = close_matches(key, keys, n=limit * 2, cutoff=cutoff)
        out: list[str] = []
        for k in close:
            for pid in sorted(self._folded.get(k, ())):
                if pid not in out:
                    out.append(pid)
        return tuple(out[:limit])

    def find_power(self, text: str) -> str | None:
        """The id of the power ``text`` spells exactly (its id, name or alias, in any case
        and punctuation), else None: no did-you-mean, for text that may be no name at all."""
        return self._power_folded.get(fold(text))

    def power_id(self, text: str) -> str:
        """A power's id from its id, name or alias (case-insensitive)."""
        pid = self._power_folded.get(fold(text))
        if pid is None:
            names = {fold(s): p for p, pw in self.powers.items() for s in (p, pw.name)}
            close = close_matches(fold(text), list(names), n=2, cutoff=0.6)
            raise UnknownNameError(text, tuple(dict.fromkeys(names[c] for c in close)), "power")
        return pid

    def describe(self, location: str) -> str:
        """``"Spain (north coast)"`` style text for messages."""
        prov = self.provinces[province_of(location)]
        if "/" in location:
            return f"{prov.name} ({location.split('/', 1)[1].lower()})"
        return prov.name

    def starting_units(self) -> Mapping[str, tuple[tuple[str, str], ...]]:
        """Power id -> its 1901 (or scenario start) units."""
        return {pid: p.starting_units for pid, p in self.powers.items()}


def _kind_of(edge_key: str) -> str:
    """Edge keys are the unit kind, or ``kind:via`` when one pair has several routes."""
    return edge_key.split(":", 1)[0]
