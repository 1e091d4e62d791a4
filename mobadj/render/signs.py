"""The signs of a city plan that say what joins what: junctions drawn as crossings from one
space to the other, and a variant's route lines told apart by number and colour.

A *junction* (rule 4) is drawn as a short white crossing over the highway, from inside one
of the two spaces it joins to inside the other: at a corner where four spaces meet (42nd
Street-Chinatown) it runs diagonally between the two, so it cannot be read as joining the
others.  It is placed along the pair's highway border where it touches no name.

A *route line* (the layout's ``lines``: Mobtown's subway, rule 5) gets a number (its place
in the layout's list) and one of a few
line colours, chosen so that lines that cross or run side by side differ; the number
stands in a tag of the line's colour at both ends, on the line near each stop, clear of
every name, stop and unit row.  ``tests/render/test_signs.py`` checks both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mobadj.render import geometry
from mobadj.render.ink import LINE_COLOURS, text_width
from mobadj.render.layout import Layout
from mobadj.render.placement import UNIT_ROW, Box, Frame, SpacePlace

Point = tuple[float, float]

BAR_HALF = 15.0  # half the length of a junction's crossing, pixels
BAR_WIDTH = 10.0
TAG_SIZE = 9.0  # the line number
TAG_H = 12.0
TAG_AIR = 2.0  # kept between a tag and anything else


@dataclass(frozen=True)
class JunctionBar:
    """A junction between spaces ``a`` and ``b``, drawn from ``at_a`` (inside a) to
    ``at_b`` (inside b)."""

    a: str
    b: str
    at_a: Point
    at_b: Point

    def box(self) -> Box:
        half = BAR_WIDTH / 2 + 1
        (x0, y0), (x1, y1) = self.at_a, self.at_b
        return Box(min(x0, x1) - half, min(y0, y1) - half, max(x0, x1) + half,
                   max(y0, y1) + half)


@dataclass(frozen=True)
class RouteLine:
    """One link of a route kind as drawn: its number, colour, path and the tags at its two
    ends."""

    a: str
    b: str
    number: int
    colour: str
    path: tuple[Point, ...]
    tags: tuple[Box, Box]  # at a's end, at b's end


# ---- junctions -------------------------------------------------------------------------------

def junction_bars(layout: Layout, frame: Frame, labels: Sequence[Box]) -> list[JunctionBar]:
    """A crossing for each junction of the layout, placed along the pair's highway border
    where it overlaps no label (the middle of the border when it can)."""
    hw = geometry.road_segments(layout)
    borders = geometry.shared_borders(layout)
    corners = {frozenset((a, b)): c for a, b, c in geometry.corner_points(layout)}
    out = []
    for a, b in layout.junctions:
        pair = frozenset((a, b))
        candidates = [_across(layout, frame, a, b, seg)
                      for seg in _middle_first([s for s in borders.get(pair, []) if s in hw])]
        if not candidates and pair in corners:
            candidates = [_diagonal(layout, frame, a, b, corners[pair])]
        if not candidates:  # geometry.plan_problems reports it; nothing to draw
            continue
        clear = [bar for bar in candidates
                 if not any(bar.box().overlaps(box) for box in labels)]
        out.append((clear or candidates)[0])
    return out


def _middle_first(segs: list[geometry.Segment]) -> list[geometry.Segment]:
    mid = (len(segs) - 1) / 2
    return sorted(segs, key=lambda s: abs(segs.index(s) - mid))


def _across(layout: Layout, frame: Frame, a: str, b: str, seg: geometry.Segment
            ) -> JunctionBar:
    """The crossing over a border stretch: at its middle, square to it."""
    (x0, y0), (x1, y1) = seg
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if x0 == x1:  # a vertical stretch: the spaces lie west and east
        west = layout.grid[int(my)][int(mx) - 1]
        ends = ((mx - 1, my), (mx + 1, my)) if west == a else ((mx + 1, my), (mx - 1, my))
    else:
        north = layout.grid[int(my) - 1][int(mx)]
        ends = ((mx, my - 1), (mx, my + 1)) if north == a else ((mx, my + 1), (mx, my - 1))
    return _bar(frame, a, b, (mx, my), ends[0], ends[1])


def _diagonal(layout: Layout, frame: Frame, a: str, b: str, corner: tuple[int, int]
              ) -> JunctionBar:
    """The crossing at a corner where four spaces meet: from a's quarter to b's."""
    x, y = corner
    quarters = {layout.grid[y - 1][x - 1]: (x - 1, y - 1), layout.grid[y - 1][x]: (x + 1, y - 1),
                layout.grid[y][x - 1]: (x - 1, y + 1), layout.grid[y][x]: (x + 1, y + 1)}
    return _bar(frame, a, b, (x, y), quarters[a], quarters[b])


def _bar(frame: Frame, a: str, b: str, at: Point, toward_a: Point, toward_b: Point
         ) -> JunctionBar:
    cx, cy = frame.px(*at)

    def reach(p: Point) -> Point:
        px, py = frame.px(*p)
        n = math.hypot(px - cx, py - cy) or 1.0
        return cx + (px - cx) / n * BAR_HALF, cy + (py - cy) / n * BAR_HALF

    return JunctionBar(a, b, reach(toward_a), reach(toward_b))


# ---- route lines -------------------------------------------------------------------------------

def route_lines(routes: dict[tuple[str, str], tuple[Point, ...]],
                spaces: dict[str, SpacePlace], walls: Sequence[Box]) -> list[RouteLine]:
    """Number, colour and end tags of every routed line (``walls``: what a tag must
    keep off besides the label groups, stops and unit rows: highway names, junctions)."""
    links = list(routes)
    colours = _colours([routes[link] for link in links])
    keep_off = [b for p in spaces.values() for b in p.label_boxes()] + list(walls)
    keep_off += [_unit_row(p) for p in spaces.values() if p.kind not in ("impassable",
                                                                         "blocked")]
    out = []
    for n, (link, colour) in enumerate(zip(links, colours, strict=True), start=1):
        path = routes[link]
        tags = []
        for forward in (True, False):
            tag = _tag_spot(path if forward else path[::-1], str(n), keep_off)
            keep_off.append(tag)
            tags.append(tag)
        out.append(RouteLine(link[0], link[1], n, colour, path, (tags[0], tags[1])))
    return out


def _unit_row(p: SpacePlace) -> Box:
    """Where a space's markers may stand (its first row of units)."""
    ux, uy = p.unit_at
    half = max(p.unit_room, 52.0) / 2
    return Box(ux - half, uy - UNIT_ROW / 2, ux + half, uy + UNIT_ROW / 2)


def tag_width(number: str) -> float:
    return text_width(number, TAG_SIZE, bold=True) + 7


def _tag_spot(path: Sequence[Point], number: str, keep_off: Sequence[Box]) -> Box:
    """A tag on the line near its first end: the first spot along it (then beside it) that
    keeps off everything; failing that, the least crowded."""
    w, h = tag_width(number), TAG_H
    spots = list(_along(path, 14.0, 0.45))
    best: tuple[int, Box] | None = None
    for shift in (0.0, 9.0, -9.0):
        for (x, y), (nx, ny) in spots:
            cx, cy = x + nx * shift, y + ny * shift
            box = Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            hits = sum(1 for other in keep_off if box.grow(TAG_AIR).overlaps(other))
            if hits == 0:
                return box
            if best is None or hits < best[0]:
                best = (hits, box)
    assert best is not None, "a routed line has at least one spot"
    return best[1]


def _along(path: Sequence[Point], first: float, share: float):
    """Points along ``path`` every 3 pixels from ``first`` pixels in up to ``share`` of its
    length, each with the line's normal there."""
    total = sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(path, path[1:],
                                                                       strict=False))
    d = first
    while d <= max(first, total * share):
        yield _at(path, d)
        d += 3.0


def _at(path: Sequence[Point], d: float) -> tuple[Point, Point]:
    for p, q in zip(path, path[1:], strict=False):
        n = math.hypot(q[0] - p[0], q[1] - p[1])
        if d <= n and n > 0:
            ux, uy = (q[0] - p[0]) / n, (q[1] - p[1]) / n
            return (p[0] + ux * d, p[1] + uy * d), (-uy, ux)
        d -= n
    (px, py), (qx, qy) = path[-2], path[-1]
    n = math.hypot(qx - px, qy - py) or 1.0
    return path[-1], (-(qy - py) / n, (qx - px) / n)


def _colours(paths: Sequence[Sequence[Point]]) -> list[str]:
    """A line colour for each path, differing from those of the paths it crosses or runs
    beside (greedy, in order; the least used when every colour is taken)."""
    out: list[str] = []
    for i, path in enumerate(paths):
        taken = {out[j] for j in range(i) if _meet(path, paths[j])}
        free = [c for c in LINE_COLOURS if c not in taken]
        pool = free or list(LINE_COLOURS)
        out.append(min(pool, key=lambda c: (out.count(c), LINE_COLOURS.index(c))))
    return out


def _meet(p: Sequence[Point], q: Sequence[Point], near: float = 8.0) -> bool:
    """Do two polylines cross, or come within ``near`` pixels of each other?"""
    for a, b in zip(p, p[1:], strict=False):
        for c, d in zip(q, q[1:], strict=False):
            if _segments_cross(a, b, c, d) or _segment_gap(a, b, c, d) < near:
                return True
    return False


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (side(a, b, c) * side(a, b, d) < 0) and (side(c, d, a) * side(c, d, b) < 0)


def _segment_gap(a: Point, b: Point, c: Point, d: Point) -> float:
    return min(_point_gap(a, c, d), _point_gap(b, c, d), _point_gap(c, a, b),
               _point_gap(d, a, b))


def _point_gap(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)
