"""Where everything goes on the board picture, so that every name stays readable.

Each space gets a *label group*, laid out top to bottom in the roomiest rectangle of its
cells: the abbreviation row (the stop of a variant's route lines on the left, Mobtown's
subway ``U``; the abbreviation; the supply centre disc on the right), the full name
(wrapped to the room, shrunk only as far as ``NAME_MIN``), and below them the *unit row*
where its markers stand.  Nothing of one group overlaps another's text, and markers never
stand on text.

Route lines are routed around every label (:func:`route_links`): a shortest path on a
fine lattice over the board that treats the label boxes, stops and highway names as
walls and unit rows, junctions and the bay as costly ground; the path is then straightened
wherever a straight stretch stays clear.  The tests check the result on the pictures of the
starting position and of the rulebook's examples (``tests/render/test_legibility.py``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mobadj.board import GameMap, Province
from mobadj.render import geometry
from mobadj.render.ink import Style, text_width
from mobadj.render.layout import Layout

if TYPE_CHECKING:
    from mobadj.render.signs import JunctionBar, RouteLine

ABBR_SIZE = 15.0  # the abbreviation, bold
ABBR_SIZES = (15.0, 14.0, 13.0, 12.0)  # smaller only where a space is too narrow
NAME_SIZE = 11.0  # the full name
NAME_MIN = 9.5  # smallest size a name is shrunk to before it may leave its room
LINE_H = 1.16  # line height, in font sizes
ASCENT, DESCENT = 0.76, 0.24  # of DejaVu Sans, in font sizes
STATION = 14.0  # side of a route line's stop square
CENTER_R = 7.5  # outer ring of a home centre's disc
BADGE = (38.0, 13.0)  # a terrain's tag over the name (the layout's ``terrains``)
PAD_BORDER, PAD_EDGE, PAD_ROAD = 3.0, 5.0, 9.0  # kept free inside a space, by what
# bounds it: a border, the board's frame, a highway (its casing and name tag)
ROW_GAP = 2.0  # between the abbreviation row and the name
UNIT_GAP = 2.0  # between the name and the unit row
UNIT_ROW = 29.0  # height of a row of markers (a Don's star)
MARKER_R = {"unit": 11.0, "leader": 15.5, "held": 17.0, "dislodged": 15.5}
"""Half the width of each marker (:func:`marker_kind`): a unit's badge, the layout's
``leader`` (a star), a held piece (in its ring), a dislodged unit (in its ring)."""
MARKER_ORDER = {"unit": 0, "leader": 1, "held": 2, "dislodged": 3}
"""The order of a space's markers in its unit row."""
MARKER_GAP = 2.0


def marker_kind(kind: str, held: bool, leader: str) -> str:
    """The marker of a unit of ``kind`` (``held``: a held piece) on a layout whose
    ``leader`` kind is drawn as a star ("" when there is none)."""
    return "held" if held else "leader" if kind == leader else "unit"


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in pixels."""

    x0: float
    y0: float
    x1: float
    y1: float

    def grow(self, d: float) -> Box:
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 \
            and other.y0 < self.y1

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def hit_by(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Does the segment a-b pass through this box?  (Liang-Barsky clipping.)"""
        (x0, y0), (x1, y1) = a, b
        dx, dy = x1 - x0, y1 - y0
        lo, hi = 0.0, 1.0
        for p, q in ((-dx, x0 - self.x0), (dx, self.x1 - x0), (-dy, y0 - self.y0),
                     (dy, self.y1 - y0)):
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                lo = max(lo, t)
            else:
                hi = min(hi, t)
            if lo > hi:
                return False
        return True


def circle_box(x: float, y: float, r: float) -> Box:
    return Box(x - r, y - r, x + r, y + r)


@dataclass(frozen=True)
class Frame:
    """Pixel frame of the board: grid point (gx, gy) -> pixel."""

    cell: float
    ox: float
    oy: float

    def px(self, gx: float, gy: float) -> tuple[float, float]:
        return self.ox + gx * self.cell, self.oy + gy * self.cell


def frame_of(layout: Layout, style: Style) -> Frame:
    return Frame(layout.cell, style.margin, style.margin + style.title_h)


@dataclass(frozen=True)
class SpacePlace:
    """Where one space's label group and markers go (pixels)."""

    sid: str
    kind: str  # "space", "badged" (a tag over the name), "impassable" (a big name), "blocked"
    cx: float  # the group's centre line
    abbr_at: tuple[float, float]  # centre x and baseline of the abbreviation
    abbr_w: float
    name_lines: tuple[str, ...]
    name_size: float
    name_baselines: tuple[float, ...]
    station: tuple[float, float] | None  # centre of the route lines' stop, if it has one
    center: tuple[float, float] | None  # centre of the supply-centre disc, if it is one
    badge: Box | None  # the terrain's tag (a badged space)
    unit_at: tuple[float, float]  # centre of the first marker row
    unit_room: float  # width of a marker row
    room: Box  # the rectangle the group was laid out in
    abbr_size: float = ABBR_SIZE

    def text_boxes(self) -> list[Box]:
        """The boxes of everything readable in the group except the route lines' stop."""
        ax, base = self.abbr_at
        boxes = [Box(ax - self.abbr_w / 2, base - ASCENT * self.abbr_size,
                     ax + self.abbr_w / 2, base + DESCENT * self.abbr_size)]
        for line, y in zip(self.name_lines, self.name_baselines, strict=True):
            w = text_width(line, self.name_size)
            boxes.append(Box(self.cx - w / 2, y - ASCENT * self.name_size, self.cx + w / 2,
                             y + DESCENT * self.name_size))
        if self.center is not None:
            boxes.append(circle_box(*self.center, CENTER_R))
        if self.badge is not None:
            boxes.append(self.badge)
        return boxes

    def label_boxes(self) -> list[Box]:
        """Every box of the label group: the text boxes and the route lines' stop."""
        boxes = self.text_boxes()
        if self.station is not None:
            boxes.append(circle_box(*self.station, STATION / 2))
        return boxes

    def extent(self) -> Box:
        """One box round the whole label group."""
        boxes = self.label_boxes()
        return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                   max(b.x1 for b in boxes), max(b.y1 for b in boxes))


# ---- label groups -------------------------------------------------------------------------

def wrap_name(name: str, room: float, max_lines: int = 3,
              size: float = NAME_SIZE) -> tuple[tuple[str, ...], float]:
    """The name in as few lines as fit ``room`` at ``size`` (balanced), else shrunk down to
    NAME_MIN; if even that does not fit, the fewest-overflow choice at NAME_MIN."""
    words = name.split()
    while True:
        for n in range(1, min(max_lines, len(words)) + 1):
            lines = _balanced(words, n, size)
            if max(text_width(line, size) for line in lines) <= room:
                return lines, size
        if size <= NAME_MIN:
            break
        size = max(NAME_MIN, size - 0.5)
    n = min(max_lines, len(words))
    return _balanced(words, n, NAME_MIN), NAME_MIN


def _balanced(words: list[str], n: int, size: float) -> tuple[str, ...]:
    """``words`` split into ``n`` lines with the widest line as narrow as possible."""
    if n <= 1:
        return (" ".join(words),)
    best: tuple[float, tuple[str, ...]] | None = None
    for cut in range(1, len(words) - n + 2):
        head = " ".join(words[:cut])
        rest = _balanced(words[cut:], n - 1, size)
        lines = (head, *rest)
        score = max(text_width(line, size) for line in lines)
        if best is None or score < best[0]:
            best = (score, lines)
    assert best is not None
    return best[1]


def _fit_name(name: str, room: float, height: float, badged: bool, abbr: float = ABBR_SIZE
              ) -> tuple[tuple[str, ...], float, float]:
    """The name wrapped to ``room`` at the largest size whose group fits ``height`` (fewer
    lines in a smaller type where a space is low); the group's height with it."""
    size = NAME_SIZE
    first = None
    while size >= NAME_MIN:
        lines, got = wrap_name(name, room, size=size)
        need = _group_height(len(lines), got, badged, abbr)
        first = first or (lines, got, need)
        if need <= height:
            return lines, got, need
        size -= 0.5
    assert first is not None
    return first


def _group_height(lines: int, size: float, badged: bool, abbr: float = ABBR_SIZE) -> float:
    top = BADGE[1] + 3 if badged else 0.0
    return top + abbr + ROW_GAP + lines * LINE_H * size + UNIT_GAP + UNIT_ROW


def _rects(cells: set[tuple[int, int]], cut: set[tuple[tuple[int, int], tuple[int, int]]],
           max_w: int = 4, max_h: int = 3) -> Iterable[tuple[int, int, int, int]]:
    """Rectangles of whole cells ``(x0, y0, x1, y1)`` (inclusive) inside ``cells`` that no
    highway runs through."""
    for x0, y0 in cells:
        for w in range(1, max_w + 1):
            for h in range(1, max_h + 1):
                inside = [(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)]
                if not all(c in cells for c in inside):
                    break
                if any(_crosses(cut, x0, y0, w, h)):
                    continue
                yield x0, y0, x0 + w - 1, y0 + h - 1


def _crosses(cut: set, x0: int, y0: int, w: int, h: int) -> Iterable[bool]:
    for x in range(x0 + 1, x0 + w):
        for y in range(y0, y0 + h):
            yield ((x, y), (x, y + 1)) in cut
    for y in range(y0 + 1, y0 + h):
        for x in range(x0, x0 + w):
            yield ((x, y), (x + 1, y)) in cut


def _abbr_row(sid: str, station: bool, center: bool, size: float = ABBR_SIZE
              ) -> tuple[float, float, float]:
    """Width of the abbreviation row, of the abbreviation, and its offset from the row's
    centre."""
    w = text_width(sid, size, bold=True)
    left = STATION + 4 if station else 0.0
    right = 4 + 2 * CENTER_R if center else 0.0
    total = left + w + right
    return total, w, (left - right) / 2


def place_space(sid: str, name: str, kind: str, frame: Frame, cells: Sequence[tuple[int, int]],
                cut: set, grid: tuple[int, int], target: tuple[float, float], station: bool,
                center: bool, fixed: bool = False) -> SpacePlace:
    """The label group of one grid space (see the module docstring): in the rectangle of
    its cells where it fits best (one holding ``target`` when ``fixed``, the label point of
    the layout file); where the whole group fits nowhere, the label in one rectangle and
    the markers in a cell of their own."""
    cellset = set(cells)
    badged = kind == "badged"
    best = None
    rects = list(_rects(cellset, cut))
    for abbr in ABBR_SIZES:
        row_w = _abbr_row(sid, station, center, abbr)[0]
        for x0, y0, x1, y1 in rects:
            inner = _inner(frame, (x0, y0, x1, y1), cut, grid)
            room, avail = inner.x1 - inner.x0, inner.y1 - inner.y0
            lines, size, height = _fit_name(name, room, avail, badged, abbr)
            fits = height <= avail and row_w <= room and max(
                text_width(line, size) for line in lines) <= room
            mx, my = (x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2
            holds = x0 <= target[0] <= x1 + 1 and y0 <= target[1] <= y1 + 1
            dist = math.hypot(mx - target[0], my - target[1])
            score = (holds if fixed else True, fits, abbr, size, -len(lines),
                     min(x1 - x0 + 1, 3) * min(y1 - y0 + 1, 2), -dist)
            if best is None or score > best[0]:
                best = (score, (x0, y0, x1, y1), lines, size, height, abbr)
        if best is not None and best[0][1]:
            break
    assert best is not None, sid
    score, rect, lines, size, height, abbr = best
    if not score[1]:
        for abbr in ABBR_SIZES:
            split = _split(sid, name, kind, frame, cellset, cut, grid, station, center, abbr)
            if split is not None:
                return split
    room_box = _rect_box(frame, rect)
    inner = _inner(frame, rect, cut, grid)
    cx, cy = (inner.x0 + inner.x1) / 2, (inner.y0 + inner.y1) / 2
    return _group(sid, kind, cx, cy - height / 2, lines, size, station, center,
                  room_box, inner.x1 - inner.x0, abbr)


def _inner(frame: Frame, rect: tuple[int, int, int, int], cut: set,
           grid: tuple[int, int]) -> Box:
    """The room a rectangle of cells leaves for text: less on each side what bounds it."""
    x0, y0, x1, y1 = rect
    box = _rect_box(frame, rect)

    def pad(side: list, edge: bool) -> float:
        if any(seg in cut for seg in side):
            return PAD_ROAD
        return PAD_EDGE if edge else PAD_BORDER

    left = pad([((x0, y), (x0, y + 1)) for y in range(y0, y1 + 1)], x0 == 0)
    right = pad([((x1 + 1, y), (x1 + 1, y + 1)) for y in range(y0, y1 + 1)], x1 + 1 == grid[0])
    top = pad([((x, y0), (x + 1, y0)) for x in range(x0, x1 + 1)], y0 == 0)
    bottom = pad([((x, y1 + 1), (x + 1, y1 + 1)) for x in range(x0, x1 + 1)],
                 y1 + 1 == grid[1])
    return Box(box.x0 + left, box.y0 + top, box.x1 - right, box.y1 - bottom)


def _rect_box(frame: Frame, rect: tuple[int, int, int, int]) -> Box:
    x0, y0, x1, y1 = rect
    left, top = frame.px(x0, y0)
    right, bottom = frame.px(x1 + 1, y1 + 1)
    return Box(left, top, right, bottom)


def _split(sid: str, name: str, kind: str, frame: Frame, cellset: set, cut: set,
           grid: tuple[int, int], station: bool, center: bool, abbr: float
           ) -> SpacePlace | None:
    """The label alone in a rectangle and the unit row centred in another cell of the space,
    clear of the label; None when no such pair exists."""
    c = frame.cell
    badged = kind == "badged"
    row_w = _abbr_row(sid, station, center, abbr)[0]
    best = None
    for rect in _rects(cellset, cut):
        box = _rect_box(frame, rect)
        inner = _inner(frame, rect, cut, grid)
        room, avail = inner.x1 - inner.x0, inner.y1 - inner.y0
        lines, size, height = _fit_name(name, room, avail + UNIT_GAP + UNIT_ROW, badged, abbr)
        height -= UNIT_GAP + UNIT_ROW
        if height > avail or row_w > room or max(
                text_width(line, size) for line in lines) > room:
            continue
        cx, cy = (inner.x0 + inner.x1) / 2, (inner.y0 + inner.y1) / 2
        probe = _group(sid, kind, cx, cy - height / 2, lines, size, station, center, box, 0.0,
                       abbr)
        label = probe.extent().grow(2)
        for x, y in sorted(cellset):
            ux, uy = frame.px(x + 0.5, y + 0.5)
            row = Box(ux - 24, uy - UNIT_ROW / 2, ux + 24, uy + UNIT_ROW / 2)
            if row.overlaps(label):
                continue
            dist = math.hypot(ux - cx, uy - cy)
            if best is None or dist < best[0]:
                best = (dist, probe, (ux, uy))
    if best is None:
        return None
    _d, probe, at = best
    return dataclasses.replace(probe, unit_at=at, unit_room=c - 4)


def _group(sid: str, kind: str, cx: float, top: float, lines: Sequence[str], size: float,
           station: bool, center: bool, room: Box, unit_room: float,
           abbr: float = ABBR_SIZE) -> SpacePlace:
    """A label group laid out from ``top`` down, centred on ``cx``."""
    _row_w, abbr_w, shift = _abbr_row(sid, station, center, abbr)
    y = top
    badge = None
    if kind == "badged":
        bw, bh = BADGE
        badge = Box(cx - bw / 2, y, cx + bw / 2, y + bh)
        y += bh + 3
    base = y + ASCENT * abbr
    ax = cx + shift
    st = (ax - abbr_w / 2 - 4 - STATION / 2, base - 5.0) if station else None
    cen = (ax + abbr_w / 2 + 4 + CENTER_R, base - 5.0) if center else None
    y += abbr + ROW_GAP
    baselines = []
    for _line in lines:
        baselines.append(y + ASCENT * size)
        y += LINE_H * size
    unit_y = y + UNIT_GAP + UNIT_ROW / 2
    return SpacePlace(sid, kind, cx, (ax, base), abbr_w, tuple(lines), size, tuple(baselines),
                      st, cen, badge, (cx, unit_y), unit_room, room, abbr)


def place_free(sid: str, name: str, kind: str, at: tuple[float, float], room: float,
               station: bool, center: bool) -> SpacePlace:
    """The label group of a polygon-layout space: centred on its label point."""
    lines, size = wrap_name(name, room)
    height = _group_height(len(lines), size, kind == "badged")
    cx, cy = at
    box = Box(cx - room / 2, cy - height / 2, cx + room / 2, cy + height / 2)
    return _group(sid, kind, cx, cy - height / 2, lines, size, station, center, box, room)


def place_big(sid: str, name: str, kind: str, at: tuple[float, float]) -> SpacePlace:
    """The impassable bay (a big italic name) or a drawn non-province (Switzerland)."""
    cx, cy = at
    big, small = (17.0, 10.0) if kind == "impassable" else (10.0, 8.0)
    w = max(text_width(name, big, bold=True) * 1.12, text_width("impassable", small))
    box = Box(cx - w / 2, cy - 4 - ASCENT * big, cx + w / 2, cy + 13 + DESCENT * small)
    return SpacePlace(sid, kind, cx, (cx, cy - 4), w, (), small, (), None, None, box,
                      (cx, cy + 30), 0.0, box)


# ---- markers --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Marker:
    """One marker to stand in a space's unit row: ``what`` is a unit kind, "held" or
    "dislodged"; ``ref`` is what the caller wants back with its position."""

    what: str
    ref: Any = None


def marker_positions(place: SpacePlace, markers: Sequence[Marker]
                     ) -> list[tuple[Marker, float, float]]:
    """Each marker's centre: left to right in rows as wide as the room, centred, the first
    row at the group's unit row, further rows below it."""
    rows: list[list[Marker]] = [[]]
    used = 0.0
    for m in markers:
        w = 2 * MARKER_R[m.what] + MARKER_GAP
        if rows[-1] and used + w > max(place.unit_room, 2 * w):
            rows.append([])
            used = 0.0
        rows[-1].append(m)
        used += w
    out = []
    x, y = place.unit_at
    for i, row in enumerate(rows):
        widths = [2 * MARKER_R[m.what] + MARKER_GAP for m in row]
        left = x - sum(widths) / 2
        for m, w in zip(row, widths, strict=True):
            out.append((m, left + w / 2, y + i * UNIT_ROW))
            left += w
    return out


# ---- the whole board ------------------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
    """Label groups of every space, the paths of the route lines, the highway name tags,
    the junctions' crossings and the route lines' numbers (mobadj.render.signs)."""

    frame: Frame
    spaces: dict[str, SpacePlace]
    paths: dict[tuple[str, str], tuple[tuple[float, float], ...]]
    road_tags: tuple[tuple[str, Box], ...]
    junctions: tuple[JunctionBar, ...] = ()
    lines: tuple[RouteLine, ...] = ()

    def sign_boxes(self) -> list[Box]:
        """What the signs cover: junction crossings and route line tags."""
        return [j.box() for j in self.junctions] + [t for line in self.lines for t in line.tags]

    def text_boxes(self) -> list[tuple[str, Box]]:
        return [(sid, b) for sid, p in self.spaces.items() for b in p.text_boxes()]


_CACHE: dict[str, Placement] = {}


def placement(game_map: GameMap, layout: Layout, style: Style) -> Placement:
    """The placement of this board (computed once per map, layout and style)."""
    key = hashlib.sha256(repr((game_map.name, sorted(
        (sid, p.name, p.terrain, p.supply_center) for sid, p in game_map.provinces.items()),
        layout, style)).encode("utf-8")).hexdigest()
    found = _CACHE.get(key)
    if found is None:
        found = _place(game_map, layout, style)
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _place(game_map: GameMap, layout: Layout, style: Style) -> Placement:
    frame = frame_of(layout, style)
    stations = {sid for pair in layout.links for sid in pair}
    spaces: dict[str, SpacePlace] = {}
    if layout.is_grid:
        cut = set(geometry.road_segments(layout))
        for sid, cells in layout.cells().items():
            prov = game_map.provinces.get(sid)
            kind = _kind(prov, layout)
            name = prov.name if prov else layout.names.get(sid, sid)
            fixed = sid in layout.labels
            target = geometry.label_point(layout, sid, cells)
            if kind in ("impassable", "blocked"):
                spaces[sid] = place_big(sid, name, kind, frame.px(*target))
                continue
            spaces[sid] = place_space(sid, name, kind, frame, cells, cut,
                                      (layout.width, layout.height), target, sid in stations,
                                      bool(prov and prov.supply_center), fixed)
    else:
        for sid, poly in layout.polygons.items():
            prov = game_map.provinces.get(sid)
            kind = _kind(prov, layout)
            name = prov.name if prov else layout.names.get(sid, sid)
            at = layout.labels.get(sid) or (sum(x for x, _ in poly) / len(poly),
                                            sum(y for _, y in poly) / len(poly))
            xs = [x for x, _ in poly]
            if kind in ("impassable", "blocked"):
                spaces[sid] = place_big(sid, name, kind, frame.px(*at))
                continue
            spaces[sid] = place_free(sid, name, kind, frame.px(*at),
                                     (max(xs) - min(xs)) * frame.cell * 0.8, sid in stations,
                                     bool(prov and prov.supply_center))
    from mobadj.render import signs

    tags = tuple((hw.name, tag_box(frame, layout, i)) for i, hw in enumerate(layout.roads))
    bars: list[JunctionBar] = []
    if layout.is_grid:
        labels = [b for p in spaces.values() for b in p.label_boxes()]
        bars = signs.junction_bars(layout, frame, labels + [b for _n, b in tags])
        walls = [b for _n, b in tags] + [bar.box() for bar in bars]
        routes = route_links(layout, frame, spaces, walls)
    else:  # free polygons: straight from stop to stop
        routes = {}
        walls = [b for _n, b in tags]
        for a, b in layout.links:
            start, end = spaces[a].station, spaces[b].station
            if start and end:
                routes[(a, b)] = _trim((start, end), STATION / 2 + 2)
    lines = signs.route_lines(routes, spaces, walls) if routes else []
    return Placement(frame, spaces, routes, tags, tuple(bars), tuple(lines))


def _kind(prov: Province | None, layout: Layout) -> str:
    if prov is None:
        return "blocked"
    if prov.terrain == "impassable":
        return "impassable"
    look = layout.terrains.get(prov.terrain)
    return "badged" if look is not None and look.badge else "space"


def tag_point(frame: Frame, layout: Layout, index: int) -> tuple[float, float, float]:
    """Where a highway's name tag goes: its centre and angle (0 or 90 degrees)."""
    hw = layout.roads[index]
    i = min(max(hw.label_at, 0), len(hw.points) - 2)
    (x0, y0), (x1, y1) = frame.px(*hw.points[i]), frame.px(*hw.points[i + 1])
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if hw.label is not None:
        mx, my = frame.px(*hw.label)
        for (ax, ay), (bx, by) in zip(hw.points, hw.points[1:], strict=False):
            if min(ax, bx) <= hw.label[0] <= max(ax, bx) and \
                    min(ay, by) <= hw.label[1] <= max(ay, by):
                (x0, y0), (x1, y1) = frame.px(ax, ay), frame.px(bx, by)
                break
    return mx, my, 90.0 if abs(x1 - x0) < 1e-6 else 0.0


TAG_SIZE = 11.0


def tag_box(frame: Frame, layout: Layout, index: int) -> Box:
    mx, my, angle = tag_point(frame, layout, index)
    half = (text_width(layout.roads[index].name, TAG_SIZE, bold=True) + 14) / 2
    return Box(mx - 8, my - half, mx + 8, my + half) if angle else \
        Box(mx - half, my - 8, mx + half, my + 8)


# ---- route lines' paths ----------------------------------------------------------------------

LINE_CLEAR = 4.0  # how far a route line keeps from any text (half its casing, and air)


def route_links(layout: Layout, frame: Frame, spaces: dict[str, SpacePlace],
                walls: Sequence[Box] = ()) -> dict[tuple[str, str], tuple[tuple[float, float],
                                                                         ...]]:
    """A polyline for each link of the layout's route lines, from stop to stop, that crosses
    no label, none of ``walls`` (highway names, junctions) and no point where four spaces
    meet."""
    rings = []
    if layout.diagonals:
        rings += [circle_box(*frame.px(*c), 5) for _a, _b, c in geometry.corner_points(layout)]
    lattice = _Lattice(layout, frame, spaces, [*walls, *rings])
    out = {}
    for a, b in layout.links:
        path = lattice.route(a, b)
        out[(a, b)] = path
        lattice.wear(path)
    return out


class _Lattice:
    """A fine grid of points over the board with a cost (or a wall) at each."""

    def __init__(self, layout: Layout, frame: Frame, spaces: dict[str, SpacePlace],
                 walls: Sequence[Box]) -> None:
        self.frame = frame
        self.step = frame.cell / 8
        self.nx = int(layout.width * 8) + 1
        self.ny = int(layout.height * 8) + 1
        self.spaces = spaces
        self.text = [b.grow(LINE_CLEAR) for p in spaces.values() for b in p.text_boxes()]
        self.text += [b.grow(LINE_CLEAR) for b in walls]
        self.stops = {sid: circle_box(*p.station, STATION / 2).grow(LINE_CLEAR)
                      for sid, p in spaces.items() if p.station is not None}
        n = self.nx * self.ny
        self.wall = bytearray(n)
        self.cost = [1.0] * n
        for box in self.text + list(self.stops.values()):
            for i in self._inside(box):
                self.wall[i] = 1
        for p in spaces.values():  # unit rows: lines there hide under the markers
            ux, uy = p.unit_at
            for i in self._inside(Box(ux - 26, uy - 16, ux + 26, uy + 16)):
                self.cost[i] = max(self.cost[i], 4.0)
        for i in range(n):  # along a border the line would hide it: keep off
            if (i % self.nx) % 8 == 0 or (i // self.nx) % 8 == 0:
                self.cost[i] = max(self.cost[i], 1.6)
        impassable = {sid for sid, p in spaces.items() if p.kind == "impassable"}
        for sid, cells in layout.cells().items():
            if sid in impassable:
                for x, y in cells:
                    x0, y0 = frame.px(x, y)
                    for i in self._inside(Box(x0, y0, x0 + frame.cell, y0 + frame.cell)):
                        self.cost[i] = max(self.cost[i], 3.0)
        self.edge_pad = 2  # keep off the board's frame

    def _xy(self, i: int) -> tuple[float, float]:
        gx, gy = i % self.nx, i // self.nx
        return self.frame.ox + gx * self.step, self.frame.oy + gy * self.step

    def _inside(self, box: Box) -> Iterable[int]:
        gx0 = max(0, math.ceil((box.x0 - self.frame.ox) / self.step))
        gx1 = min(self.nx - 1, math.floor((box.x1 - self.frame.ox) / self.step))
        gy0 = max(0, math.ceil((box.y0 - self.frame.oy) / self.step))
        gy1 = min(self.ny - 1, math.floor((box.y1 - self.frame.oy) / self.step))
        for gy in range(gy0, gy1 + 1):
            for gx in range(gx0, gx1 + 1):
                yield gy * self.nx + gx

    def _node(self, x: float, y: float) -> int:
        gx = min(self.nx - 1, max(0, round((x - self.frame.ox) / self.step)))
        gy = min(self.ny - 1, max(0, round((y - self.frame.oy) / self.step)))
        return gy * self.nx + gx

    def wear(self, path: Sequence[tuple[float, float]]) -> None:
        """Make the ground along a routed line dearer, so lines keep apart."""
        for a, b in zip(path, path[1:], strict=False):
            n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / (self.step / 2)))
            for k in range(n + 1):
                x = a[0] + (b[0] - a[0]) * k / n
                y = a[1] + (b[1] - a[1]) * k / n
                for i in self._inside(Box(x - 6, y - 6, x + 6, y + 6)):
                    self.cost[i] = max(self.cost[i], 2.5)

    def route(self, a: str, b: str) -> tuple[tuple[float, float], ...]:
        pa, pb = self.spaces[a].station, self.spaces[b].station
        assert pa is not None and pb is not None
        open_up = set(self._inside(self.stops[a])) | set(self._inside(self.stops[b]))
        start, goal = self._node(*pa), self._node(*pb)
        nodes = self._astar(start, goal, open_up)
        if nodes is None:  # walled in: a straight line (the tests would show it)
            return (pa, pb)
        near = (self.stops[a], self.stops[b])  # lattice points inside the end stops
        inner = [self._xy(i) for i in nodes[1:-1]]
        pts = [pa, *(p for p in inner if not any(box.contains(*p) for box in near)), pb]
        pts = self._straighten(pts, {a, b})
        return _trim(pts, STATION / 2 + 2)

    def _astar(self, start: int, goal: int, open_up: set[int]) -> list[int] | None:
        nx, step = self.nx, self.step
        gx1, gy1 = goal % nx, goal // nx
        moves = [(dx, dy, step * math.hypot(dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                 if dx or dy]
        best = {start: 0.0}
        came: dict[int, int] = {}
        queue = [(0.0, start)]
        while queue:
            _f, i = heapq.heappop(queue)
            if i == goal:
                out = [i]
                while i in came:
                    i = came[i]
                    out.append(i)
                return out[::-1]
            g = best[i]
            x, y = i % nx, i // nx
            for dx, dy, length in moves:
                u, v = x + dx, y + dy
                if not (self.edge_pad <= u < nx - self.edge_pad
                        and self.edge_pad <= v < self.ny - self.edge_pad):
                    continue
                j = v * nx + u
                if self.wall[j] and j not in open_up:
                    continue
                if dx and dy and ((self.wall[y * nx + u] and y * nx + u not in open_up)
                                  or (self.wall[v * nx + x] and v * nx + x not in open_up)):
                    continue  # no squeezing between two walls at a corner
                ng = g + length * self.cost[j]
                if ng < best.get(j, math.inf):
                    best[j] = ng
                    came[j] = i
                    h = step * (max(abs(gx1 - u), abs(gy1 - v))
                                + (math.sqrt(2) - 1) * min(abs(gx1 - u), abs(gy1 - v)))
                    heapq.heappush(queue, (ng + h, j))
        return None

    def _clear(self, p: tuple[float, float], q: tuple[float, float], ends: set[str]) -> bool:
        """Is the straight stretch p-q free of text and of other lines' stops?"""
        span = Box(min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
        if any(box.overlaps(span) and box.hit_by(p, q) for box in self.text):
            return False
        return not any(box.overlaps(span) and box.hit_by(p, q)
                       for sid, box in self.stops.items() if sid not in ends)

    def _price(self, p: tuple[float, float], q: tuple[float, float]) -> float:
        length = math.hypot(q[0] - p[0], q[1] - p[1])
        n = max(1, int(length / (self.step / 2)))
        total = 0.0
        for k in range(n):
            x = p[0] + (q[0] - p[0]) * (k + 0.5) / n
            y = p[1] + (q[1] - p[1]) * (k + 0.5) / n
            total += self.cost[self._node(x, y)] * length / n
        return total

    def _straighten(self, pts: list[tuple[float, float]], ends: set[str]
                    ) -> list[tuple[float, float]]:
        """Skip corners wherever the straight stretch is clear and no dearer than the path."""
        pts = polyline_corners(pts)
        along = [0.0]
        for p, q in zip(pts, pts[1:], strict=False):
            along.append(along[-1] + self._price(p, q))
        out = [pts[0]]
        i = 0
        while i < len(pts) - 1:
            j = len(pts) - 1
            while j > i + 1:
                if self._clear(pts[i], pts[j], ends) and \
                        self._price(pts[i], pts[j]) <= (along[j] - along[i]) * 1.02 + 1:
                    break
                j -= 1
            out.append(pts[j])
            i = j
        return out


def polyline_corners(pts: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The polyline without the points that lie straight between their neighbours."""
    out = [pts[0]]
    for k in range(1, len(pts) - 1):
        (ax, ay), (bx, by), (cx, cy) = out[-1], pts[k], pts[k + 1]
        if abs((bx - ax) * (cy - by) - (by - ay) * (cx - bx)) > 1e-6:
            out.append(pts[k])
    out.append(pts[-1])
    return out


def _trim(pts: Sequence[tuple[float, float]], d: float) -> tuple[tuple[float, float], ...]:
    """The polyline shortened by ``d`` at both ends (so the arrow heads meet the stops)."""
    def cut(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
        length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1
        k = min(d / length, 0.45)
        return p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k

    out = list(pts)
    out[0] = cut(out[0], out[1])
    out[-1] = cut(out[-1], out[-2])
    return tuple(out)


def polyline_hits(path: Sequence[tuple[float, float]], box: Box) -> bool:
    """Does any stretch of the polyline pass through ``box``?"""
    return any(box.hit_by(p, q) for p, q in zip(path, path[1:], strict=False))
