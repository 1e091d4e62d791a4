"""Drawing geometry of a board, kept apart from the rules map.

A layout file (``maps/<name>.layout.yaml``) says *where* each space is drawn; the rules map
(``maps/<name>.yaml``) says what it is and what it touches.  Two shapes are supported:

* a **grid** plan (Mobtown II): ``grid`` is a block of rows, one space id per cell; a space is
  the union of its cells, highways run along cell edges, so borders, highway crossings and
  "four spaces meet at a point" diagonals can be derived from the picture itself
  (:mod:`mobadj.render.geometry`);
* free **polygons** (any other map): ``spaces: {ID: {polygon: [[x, y], ...], label: [x, y]}}``
  in pixels.

Grid coordinates: ``x`` grows to the east, ``y`` to the south, a cell ``(x, y)`` spans the
square ``[x, x+1] x [y, y+1]``; highway points are cell corners.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mobadj.board import map_dirs
from mobadj.errors import RenderError

Point = tuple[float, float]


class LayoutError(RenderError, ValueError):
    """A layout file that cannot be drawn; the message names the file and the problem."""


@dataclass(frozen=True)
class Road:
    """A named road drawn along borders (Mobtown's highways): a polyline of cell corners
    (grid) or pixels (polygon layouts)."""

    name: str
    points: tuple[Point, ...]
    label_at: int = 0  # index of the segment that carries the name
    label: Point | None = None  # or an explicit point on the road for the name


@dataclass(frozen=True)
class RouteLines:
    """A route kind of the map's variant (the map's ``routes``: Mobtown II's subway) drawn as
    numbered lines between stops: its name, the pairs of spaces it links, and the key's words
    for a stop and for a move by it."""

    route: str
    links: tuple[tuple[str, str], ...] = ()
    key: str = ""
    move_key: str = ""


@dataclass(frozen=True)
class TerrainLook:
    """How the picture draws a terrain of the map's own (the layout's ``terrains``): its
    fill, an overlay pattern of the picture (``waves``, ``bay``, ``bars``) at an opacity, and
    a tag over the space's name."""

    fill: str = ""
    pattern: str = ""
    opacity: str | None = None
    badge: str = ""


@dataclass(frozen=True)
class HeldPiece:
    """A piece another power may hold (the layout's ``held``): its unit kind, and the words
    a position writes after it ("D Chi captive"); the first is said in its power's line."""

    kind: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    """Where every space of one map is drawn."""

    map_name: str
    cell: float
    grid: tuple[tuple[str, ...], ...] = ()
    polygons: dict[str, tuple[Point, ...]] = field(default_factory=dict)
    labels: dict[str, Point] = field(default_factory=dict)
    roads: tuple[Road, ...] = ()
    crossing: str = "road"  # the ``via`` of a move across a road in the map's adjacency
    junctions: tuple[tuple[str, str], ...] = ()
    lines: RouteLines | None = None  # a route kind drawn as lines between stops
    straddle: dict[str, str] = field(default_factory=dict)
    title: str = ""
    source: str = ""
    diagonals: bool = True  # mark corners where four spaces meet (Mobtown: diagonal moves)
    names: dict[str, str] = field(default_factory=dict)  # drawn spaces that are no province
    coasts: dict[str, Point] = field(default_factory=dict)  # "SPA/NC" -> where to label it
    legend: dict[str, str] = field(default_factory=dict)  # key symbol -> its words in the key
    terrains: dict[str, TerrainLook] = field(default_factory=dict)  # the map's own terrains
    leader: str = ""  # a unit kind that costs no centre, counted apart in its power's line
    held: HeldPiece | None = None  # a piece another power may hold

    @property
    def is_grid(self) -> bool:
        return bool(self.grid)

    @property
    def width(self) -> int:
        """Width in cells (grid layouts)."""
        return len(self.grid[0]) if self.grid else 0

    @property
    def height(self) -> int:
        """Height in cells (grid layouts)."""
        return len(self.grid)

    def cells(self) -> dict[str, list[tuple[int, int]]]:
        """Space id -> its cells ``(x, y)``, in reading order."""
        out: dict[str, list[tuple[int, int]]] = {}
        for y, row in enumerate(self.grid):
            for x, sid in enumerate(row):
                out.setdefault(sid, []).append((x, y))
        return out

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """The pairs of spaces the drawn route kind links (none without one)."""
        return self.lines.links if self.lines is not None else ()

    def route_of(self, via: str) -> bool:
        """Does a move ``via`` this way go by the drawn route kind?"""
        return self.lines is not None and via == self.lines.route

    def line_mark(self, routes: dict[str, str]) -> str:
        """The mark on the stops of the drawn route kind and on a move by it: how orders
        write it (``routes``: the map's, name -> mark)."""
        route = self.lines.route if self.lines is not None else ""
        return routes.get(route, route[:1].upper())

    def space_ids(self) -> frozenset[str]:
        """Every space the layout draws."""
        if self.grid:
            return frozenset(sid for row in self.grid for sid in row)
        return frozenset(self.polygons)


def _pair(item: object, what: str, source: str) -> tuple[str, str]:
    if not (isinstance(item, list) and len(item) == 2
            and all(isinstance(s, str | int) and not isinstance(s, bool) for s in item)):
        raise LayoutError(f"{source}: each {what} must be a pair of space ids, got {item!r}")
    return (str(item[0]), str(item[1]))  # bare 110 or 325 in YAML reads as a number


def _point(item: object, what: str, source: str) -> Point:
    if not (isinstance(item, list) and len(item) == 2
            and all(isinstance(v, int | float) for v in item)):
        raise LayoutError(f"{source}: {what} must be a point [x, y], got {item!r}")
    return (float(item[0]), float(item[1]))


def _route_lines(data: object, source: str) -> RouteLines | None:
    """``lines: {route: NAME, key: ..., move_key: ..., links: [[A, B], ...]}``."""
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("route"), str):
        raise LayoutError(f"{source}: lines needs the route kind they draw (route: NAME) and "
                          f"their links, got {data!r}")
    route = data["route"]
    return RouteLines(route, tuple(_pair(s, route, source) for s in data.get("links") or []),
                      str(data.get("key") or ""), str(data.get("move_key") or ""))


def _words(data: object, what: str, source: str) -> dict[str, str]:
    """A mapping of names to words (``legend``)."""
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, str | int | float)
                                             and not isinstance(v, bool) for v in data.values()):
        raise LayoutError(f"{source}: {what} maps each name to its words, got {data!r}")
    return {str(k): str(v) for k, v in data.items()}


LEGEND_KEYS = ("blocked", "build", "centre", "coast", "convoy", "diag", "dis", "fail", "held",
               "home", "junction", "line", "ok", "removal", "road", "straddle", "sup")
"""The symbols of the key whose words a layout's ``legend`` may give (docs/maps.md)."""
LEGEND_KINDS = ("unit:", "terrain:", "stop:", "route-move:")
"""The symbols of the key named after a thing of the map: ``unit:K`` (a unit kind),
``terrain:T``, ``stop:M`` and ``route-move:M`` (a route kind's mark)."""


def _legend(data: object, source: str) -> dict[str, str]:
    """``legend``: each symbol of the key with its words; a symbol the key does not have is
    refused (a misspelt one would be left with the core's words)."""
    words = _words(data, "legend", source)
    for key in words:
        if key in LEGEND_KEYS or (key.startswith(LEGEND_KINDS) and key.partition(":")[2]):
            continue
        from mobadj.board.model import close_matches

        near = close_matches(key, LEGEND_KEYS + tuple(f"{k}NAME" for k in LEGEND_KINDS), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise LayoutError(f"{source}: the legend has no symbol {key!r}{hint}; its symbols are "
                          f"{', '.join(LEGEND_KEYS)} and "
                          f"{', '.join(k + 'NAME' for k in LEGEND_KINDS)}")
    return words


def _terrains(data: object, source: str) -> dict[str, TerrainLook]:
    """``terrains: {NAME: {fill: "#b8b8b8", pattern: bars, opacity: 0.55, badge: TAG}}``."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: terrains maps each terrain to how it is drawn, "
                          f"got {data!r}")
    known = ("fill", "pattern", "opacity", "badge")
    out = {}
    for name, spec in data.items():
        if not isinstance(spec, dict) or set(spec) - set(known):
            raise LayoutError(f"{source}: terrain {name} is drawn with "
                              f"{', '.join(known)}, got {spec!r}")
        opacity = spec.get("opacity")
        out[str(name)] = TerrainLook(str(spec.get("fill") or ""), str(spec.get("pattern") or ""),
                                     None if opacity is None else str(opacity),
                                     str(spec.get("badge") or ""))
    return out


def _held(data: object, source: str) -> HeldPiece | None:
    """``held: {kind: K, words: [WORD, ...]}``."""
    if data is None:
        return None
    words = data.get("words") if isinstance(data, dict) else None
    if (not isinstance(data, dict) or not isinstance(data.get("kind"), str)
            or not isinstance(words, list) or not words
            or not all(isinstance(w, str) and w.isalpha() for w in words)):
        raise LayoutError(f"{source}: held needs the unit kind held and the words that mark "
                          f"it in a position (kind: K, words: [WORD, ...]), got {data!r}")
    return HeldPiece(data["kind"], tuple(w.lower() for w in words))


LAYOUT_KEYS = ("cell", "coasts", "crossing", "diagonals", "grid", "held", "junctions", "leader",
               "legend", "lines", "map", "names", "roads", "spaces", "straddle", "terrains",
               "title")
"""The keys of a layout file (docs/maps.md): any other is refused, so that a misspelt or
renamed key is never silently left undrawn."""


def parse_layout(data: dict, source: str = "<layout>") -> Layout:
    """Build a :class:`Layout` from parsed YAML, checking its shape."""
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: a layout file is a mapping")
    unknown = sorted(str(k) for k in data if k not in LAYOUT_KEYS)
    if unknown:
        from mobadj.board.model import close_matches

        near = close_matches(unknown[0], LAYOUT_KEYS, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise LayoutError(f"{source}: unknown key {unknown[0]!r}{hint}; a layout's keys are "
                          f"{', '.join(LAYOUT_KEYS)}")
    grid: tuple[tuple[str, ...], ...] = ()
    if "grid" in data:
        rows = [r.split() for r in str(data["grid"]).strip().splitlines() if r.strip()]
        widths = {len(r) for r in rows}
        if len(widths) != 1:
            bad = next(i for i, r in enumerate(rows) if len(r) != len(rows[0]))
            raise LayoutError(
                f"{source}: grid row {bad + 1} has {len(rows[bad])} cells, "
                f"expected {len(rows[0])} like row 1"
            )
        grid = tuple(tuple(r) for r in rows)
    polygons: dict[str, tuple[Point, ...]] = {}
    labels: dict[str, Point] = {}
    for sid, spec in (data.get("spaces") or {}).items():
        sid = str(sid)
        spec = spec or {}
        if "polygon" in spec:
            polygons[sid] = tuple(_point(p, f"polygon point of {sid}", source)
                                  for p in spec["polygon"])
        if "label" in spec:
            labels[sid] = _point(spec["label"], f"label of {sid}", source)
    if not grid and not polygons:
        raise LayoutError(f"{source}: a layout needs either a grid or space polygons")
    roads = []
    for h in data.get("roads") or []:
        if not isinstance(h, dict) or "name" not in h or "points" not in h:
            raise LayoutError(f"{source}: a road needs a name and points, got {h!r}")
        pts = tuple(_point(p, f"point of road {h['name']}", source) for p in h["points"])
        label = None
        if "label" in h:
            label = _point(h["label"], f"label of road {h['name']}", source)
        roads.append(Road(str(h["name"]), pts, int(h.get("label_at", 0)), label))
    return Layout(
        map_name=str(data.get("map", "")),
        cell=float(data.get("cell", 1)),
        grid=grid,
        polygons=polygons,
        labels=labels,
        roads=tuple(roads),
        crossing=str(data.get("crossing") or "road"),
        junctions=tuple(_pair(j, "junction", source) for j in data.get("junctions") or []),
        lines=_route_lines(data.get("lines"), source),
        straddle={str(k): str(v) for k, v in (data.get("straddle") or {}).items()},
        title=str(data.get("title", "")),
        source=source,
        diagonals=bool(data.get("diagonals", True)),
        names={str(k): str(v) for k, v in (data.get("names") or {}).items()},
        coasts={str(k): _point(v, f"coast {k}", source)
                for k, v in (data.get("coasts") or {}).items()},
        legend=_legend(data.get("legend"), source),
        terrains=_terrains(data.get("terrains"), source),
        leader=str(data.get("leader") or ""),
        held=_held(data.get("held"), source),
    )


def load_layout(name_or_path: str | Path) -> Layout:
    """Load ``<name>.layout.yaml`` (by map name: beside the map file, where map names are
    looked up) or a layout file path."""
    path = Path(name_or_path)
    if not path.suffix:
        candidates = [folder / f"{name_or_path}.layout.yaml" for folder in map_dirs()]
        path = next((c for c in candidates if c.exists()), candidates[-1])
    if not path.exists():
        raise LayoutError(f"no layout file {path}: the map cannot be drawn without one")
    from mobadj.board import load_data
    from mobadj.orders.textfile import read_text_file

    try:
        data = load_data(read_text_file(path)[0])
    except ValueError as exc:  # not YAML (YamlError names the line)
        raise LayoutError(f"{path}: {exc}") from None
    return parse_layout(data, str(path))
