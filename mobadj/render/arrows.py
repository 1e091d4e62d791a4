"""Where the lines of a turn go: move arrows and support lines that cross no name and end
clear of every unit.

A line is routed from the markers of its space to the markers of its target (or, for the
support of a move, to the middle of that move's arrow): first as a straight line, then as
curves bending ever wider to either side, and where every curve is blocked, as the
shortest path round the obstacles on a lattice.  The obstacles are every label of the
board (abbreviations, names, centre discs, route line stops and tags, highway names) and
every marker of the position, each kept :data:`CLEAR` pixels away; a line starts where it
leaves its own space's markers and stops before the target's, so that its head lies in
the open.  Two moves between the same two spaces take a lane each (they bend to opposite
sides), so the Mic/Mem clash shows both ways.  ``tests/render/test_busy.py`` checks the
result on busy generated positions at the size the judge mails.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from mobadj.render.placement import Box, Placement, circle_box, polyline_corners

Point = tuple[float, float]

CLEAR = 4.5  # between a line's centre and anything it must not touch: half its white casing
RES = 2.0  # pixels per cell of the obstacle raster
STEP = 3.0  # pixels between the points a line is checked at
#: the arrow head (ink.write_defs: a 10-unit triangle, refX 7, 3.6 x the 3.6 px stroke):
#: how far it reaches beyond the line's end and back along it, and its half width
HEAD_TIP, HEAD_BACK, HEAD_HALF = 3.9, 9.1, 6.5
BENDS = (0.0, 0.2, -0.2, 0.38, -0.38, 0.58, -0.58, 0.8, -0.8, 1.05, -1.05, 1.35, -1.35)
LANE_BENDS = (0.3, 0.45, 0.62, 0.8, 1.0, 1.25, 1.5)
LATTICE = 8.0  # pixels between the points of the fallback route's lattice
TAG = 12.0  # side of the tag on a move by a variant's route (its mark: Mobtown's U)
MAX_VISITS = 12000  # lattice points a fallback route may visit before it gives up
ROOM = 6.0  # pixels round a fallback route's lattice point that make it roomy
_PROBES = ((-ROOM, -ROOM), (-ROOM, ROOM), (ROOM, -ROOM), (ROOM, ROOM))
TIGHT = 3.0  # the cost of a tight lattice point, against 1 for a roomy one
GREED = 1.6  # how much the fallback route trusts its heuristic (fewer points visited)
BACK_OFF = 8  # points (of STEP pixels) an arrow may stop short to keep its head in the open


@dataclass(frozen=True)
class Line:
    """A routed line: its SVG path data, the points it passes (every few pixels, in order)
    and its middle (where a support of a move aims)."""

    d: str
    points: tuple[Point, ...]
    mid: Point

    @property
    def end(self) -> Point:
        return self.points[-1]


class Obstacles:
    """Where lines may not go: boxes burnt into a raster of the picture (a point is tested
    in constant time)."""

    def __init__(self, bounds: Box, boxes: Iterable[Box] = ()) -> None:
        self.bounds = bounds
        self.nx = int((bounds.x1 - bounds.x0) / RES) + 2
        self.ny = int((bounds.y1 - bounds.y0) / RES) + 2
        self.cells = bytearray(self.nx * self.ny)
        for box in boxes:
            self.block(box)

    def copy(self) -> Obstacles:
        out = Obstacles.__new__(Obstacles)
        out.bounds, out.nx, out.ny = self.bounds, self.nx, self.ny
        out.cells = bytearray(self.cells)
        return out

    def empty(self) -> Obstacles:
        """A raster of the same picture with nothing in it."""
        return Obstacles(self.bounds)

    def union(self, other: Obstacles) -> Obstacles:
        """What either raster (of the same picture) holds."""
        out = self.empty()
        n = len(self.cells)
        both = int.from_bytes(self.cells, "little") | int.from_bytes(other.cells, "little")
        out.cells = bytearray(both.to_bytes(n, "little"))
        return out

    def block(self, box: Box) -> None:
        b = self.bounds
        gx0 = max(0, math.floor((box.x0 - b.x0) / RES))
        gx1 = min(self.nx - 1, math.ceil((box.x1 - b.x0) / RES))
        gy0 = max(0, math.floor((box.y0 - b.y0) / RES))
        gy1 = min(self.ny - 1, math.ceil((box.y1 - b.y0) / RES))
        if gx0 > gx1:
            return
        row = b"\x01" * (gx1 - gx0 + 1)
        for gy in range(gy0, gy1 + 1):
            start = gy * self.nx + gx0
            self.cells[start:start + len(row)] = row

    def free(self, x: float, y: float) -> bool:
        b = self.bounds
        if not (b.x0 <= x <= b.x1 and b.y0 <= y <= b.y1):
            return False
        return not self.cells[int((y - b.y0) / RES) * self.nx + int((x - b.x0) / RES)]


def board_obstacles(place: Placement, bounds: Box, extra: Iterable[Box] = ()) -> Obstacles:
    """The obstacles of a board without a position: every label group, the highway names
    and ``extra`` (tags the drawing adds), each grown by :data:`CLEAR`."""
    boxes = [b for p in place.spaces.values() for b in p.label_boxes()]
    boxes += [b for _name, b in place.road_tags]
    boxes += list(extra)
    return Obstacles(bounds, (b.grow(CLEAR) for b in boxes))


# ---- geometry ------------------------------------------------------------------------------

def _unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def _quad(a: Point, c: Point, b: Point, t: float) -> Point:
    u = 1 - t
    return (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
            u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])


def _blossom(a: Point, c: Point, b: Point, s: float, t: float) -> Point:
    """The control point of the piece of the quadratic curve a-c-b between s and t."""
    u, v = 1 - s, 1 - t
    k = u * t + s * v
    return (u * v * a[0] + k * c[0] + s * t * b[0], u * v * a[1] + k * c[1] + s * t * b[1])


def _polyline_points(pts: Sequence[Point]) -> list[Point]:
    """Points every STEP pixels along a polyline (its corners included)."""
    out = [pts[0]]
    for p, q in zip(pts, pts[1:], strict=False):
        n = max(1, math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / STEP))
        out += [(p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n)
                for k in range(1, n + 1)]
    return out


def halfway(points: Sequence[Point]) -> Point:
    """The point half-way along a polyline."""
    lengths = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(points, points[1:],
                                                                      strict=False)]
    half = sum(lengths) / 2
    for (p, q), n in zip(zip(points, points[1:], strict=False), lengths, strict=True):
        if half <= n and n > 0:
            k = half / n
            return p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k
        half -= n
    return points[-1]


def head_points(end: Point, direction: Point) -> list[Point]:
    """The corners and edge middles of the arrow head drawn at ``end``."""
    ux, uy = direction
    nx, ny = -uy, ux
    tip = (end[0] + ux * HEAD_TIP, end[1] + uy * HEAD_TIP)
    bx, by = end[0] - ux * HEAD_BACK, end[1] - uy * HEAD_BACK
    left = (bx + nx * HEAD_HALF, by + ny * HEAD_HALF)
    right = (bx - nx * HEAD_HALF, by - ny * HEAD_HALF)
    return [tip, left, right, ((tip[0] + left[0]) / 2, (tip[1] + left[1]) / 2),
            ((tip[0] + right[0]) / 2, (tip[1] + right[1]) / 2), (bx, by)]


# ---- routing ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class End:
    """One end of a line: the point it aims at and the box it starts or stops outside (the
    markers of a space, grown; None: the line reaches the point itself)."""

    at: Point
    box: Box | None = None


class Router:
    """Routes the lines of one picture over its obstacles: the board's (``labels``, which
    no part of a line may touch) and the position's ``markers`` (which a line may touch
    only inside the boxes it starts and ends in, where it is not drawn)."""

    def __init__(self, labels: Obstacles, markers: Obstacles) -> None:
        self.labels = labels
        self.markers = markers
        self.both = labels.union(markers)
        self._memo: tuple[bytearray, bytearray] | None = None

    def lattice_memo(self, size: int) -> tuple[bytearray, bytearray]:
        """What is known of the fallback lattice's points: clear of everything, clear of
        labels (kept until the labels change)."""
        if self._memo is None:
            self._memo = (bytearray(size), bytearray(size))
        return self._memo

    def block_label(self, box: Box) -> None:
        """A label placed while routing (a U tag): lines keep off it from now on."""
        self.labels.block(box.grow(CLEAR))
        self.both.block(box.grow(CLEAR))
        self._memo = None

    def free(self, x: float, y: float) -> bool:
        """Is (x, y) clear of labels and markers?"""
        return self.both.free(x, y)

    def passable(self, x: float, y: float, ends: Sequence[End]) -> bool:
        """Is (x, y) clear of labels, and of markers unless inside one of ``ends``' boxes?"""
        if not self.labels.free(x, y):
            return False
        return self.markers.free(x, y) or any(e.box is not None and e.box.contains(x, y)
                                              for e in ends)

    def route(self, start: End, goal: End, *, head: bool, bends: Sequence[float] = BENDS
              ) -> Line:
        """The first clear candidate: a straight line, then curves bending ever wider."""
        a, b = start.at, goal.at
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < 1:
            return Line(f"M{a[0]:.1f} {a[1]:.1f}", (a,), a)
        nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        tried: list[Line] = []
        for k in bends:
            c = (mx + nx * k * length, my + ny * k * length)
            line = self._curve(a, c, b, start, goal, head, length)
            if line is not None and self._clear(line.points, head):
                return line
            if line is not None:
                tried.append(line)
        found = self._around(start, goal, head)
        if found is not None:
            return found
        if tried:  # nothing clear: the least blocked curve
            return min(tried, key=lambda line: self._blocked(line.points, head))
        return Line(f"M{a[0]:.1f} {a[1]:.1f}L{b[0]:.1f} {b[1]:.1f}", (a, b), ((mx, my)))

    def _curve(self, a: Point, c: Point, b: Point, start: End, goal: End, head: bool,
               length: float) -> Line | None:
        n = max(8, math.ceil(length * 1.4 / STEP))
        ts = [i / n for i in range(n + 1)]
        pts = [_quad(a, c, b, t) for t in ts]
        cut = self._cut(pts, start, goal, head)
        if cut is None:
            return None
        i, j = cut
        s, t = ts[i], ts[j]
        p0, p1, ctrl = pts[i], pts[j], _blossom(a, c, b, s, t)
        d = f"M{p0[0]:.1f} {p0[1]:.1f}Q{ctrl[0]:.1f} {ctrl[1]:.1f} {p1[0]:.1f} {p1[1]:.1f}"
        drawn = tuple(pts[i:j + 1])
        return Line(d, drawn, halfway(drawn))

    def _clear(self, pts: Sequence[Point], head: bool) -> bool:
        """Is every point of the line, and its head, clear?  (Stops at the first that is
        not.)"""
        free = self.both.free
        if not all(free(x, y) for x, y in pts):
            return False
        return not head or len(pts) < 2 or all(
            free(x, y) for x, y in head_points(pts[-1], _unit(pts[-2], pts[-1])))

    def _cut(self, pts: Sequence[Point], start: End, goal: End, head: bool
             ) -> tuple[int, int] | None:
        """The indices where the line leaves its start box and where it stops before its
        goal box (room for the head); None when nothing is left between."""
        i = 0
        if start.box is not None:
            while i < len(pts) and start.box.contains(*pts[i]):
                i += 1
        j = len(pts) - 1
        if goal.box is not None:
            stop = goal.box.grow(HEAD_TIP if head else 0.0)
            k = i
            while k < len(pts) and not stop.contains(*pts[k]):
                k += 1
            j = k - 1
        elif head:  # the tip reaches the goal point
            while j > i and math.hypot(pts[j][0] - pts[-1][0],
                                       pts[j][1] - pts[-1][1]) < HEAD_TIP:
                j -= 1
        if head:  # back off (a few pixels at most) until the head lies in the open
            free = self.free
            for k in range(j, max(i + 2, j - BACK_OFF) - 1, -1):
                if all(free(*p) for p in head_points(pts[k], _unit(pts[k - 1], pts[k]))):
                    j = k
                    break
        if j - i < 2:
            return None
        return i, j

    def _blocked(self, pts: Sequence[Point], head: bool) -> int:
        free = self.free
        n = sum(1 for p in pts if not free(*p))
        if head and len(pts) > 1:
            u = _unit(pts[-2], pts[-1])
            n += sum(1 for p in head_points(pts[-1], u) if not free(*p))
        return n

    # -- the fallback: a shortest path round the obstacles

    def _around(self, start: End, goal: End, head: bool) -> Line | None:
        path = _Lattice(self, start, goal).path()
        if path is None:
            return None
        raw = [start.at, *path, goal.at]
        for pts in (self._straighten(raw, start, goal), polyline_corners(raw)):
            fine = _polyline_points(pts)
            cut = self._cut(fine, start, goal, head)
            if cut is None:
                continue
            i, j = cut
            drawn = fine[i:j + 1]
            if not self._clear(drawn, head):
                continue  # straightened too far; the lattice's own path keeps its room
            corners = _corners_of(drawn, pts)
            d = "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in corners)
            return Line(d, tuple(drawn), halfway(drawn))
        return None

    def _straighten(self, pts: list[Point], start: End, goal: End) -> list[Point]:
        out = [pts[0]]
        i = 0
        while i < len(pts) - 1:
            j = len(pts) - 1
            while j > i + 1 and not self._open(pts[i], pts[j], start, goal):
                j -= 1
            out.append(pts[j])
            i = j
        return out

    def _open(self, p: Point, q: Point, start: End, goal: End) -> bool:
        ends = (start, goal)
        return all(self.passable(x, y, ends) for x, y in _polyline_points((p, q)))


def _corners_of(drawn: Sequence[Point], corners: Sequence[Point]) -> list[Point]:
    """The drawn piece of a polyline as its own corners: its two ends and the corners of
    ``corners`` it passes."""
    keep = set(corners)
    return [drawn[0], *(p for p in drawn[1:-1] if p in keep), drawn[-1]]


class _Lattice:
    """Points every LATTICE pixels.  A point is open when it is clear of labels, and of
    markers unless inside one of the two end boxes; it is *roomy* when its probes
    (:data:`ROOM` pixels off diagonally) are clear too, and a route through tight points
    costs more (the head needs room where a line ends).  What is known of each point is
    kept by the router for its next routes."""

    def __init__(self, router: Router, start: End, goal: End) -> None:
        b = router.labels.bounds
        self.b = b
        self.nx = int((b.x1 - b.x0) / LATTICE) + 1
        self.ny = int((b.y1 - b.y0) / LATTICE) + 1
        self.router = router
        self.ends = [e.box for e in (start, goal) if e.box is not None]
        self.clear, self.unlabelled = router.lattice_memo(self.nx * self.ny)
        self.start = self._node(*start.at)
        self.goal = self._node(*goal.at)

    def _node(self, x: float, y: float) -> int:
        gx = min(self.nx - 1, max(0, round((x - self.b.x0) / LATTICE)))
        gy = min(self.ny - 1, max(0, round((y - self.b.y0) / LATTICE)))
        return gy * self.nx + gx

    def _xy(self, i: int) -> Point:
        return self.b.x0 + (i % self.nx) * LATTICE, self.b.y0 + (i // self.nx) * LATTICE

    @staticmethod
    def _state(free: Callable[[float, float], bool], x: float, y: float) -> int:
        """1 roomy, 2 tight, 3 closed."""
        if not free(x, y):
            return 3
        return 1 if all(free(x + dx, y + dy) for dx, dy in _PROBES) else 2

    def cost(self, i: int) -> float:
        """The cost of passing point ``i``: 0 when closed."""
        known = self.clear[i]
        if known == 0:
            known = self.clear[i] = self._state(self.router.free, *self._xy(i))
        if known == 3 and self.ends:
            x, y = self._xy(i)
            if any(box.contains(x, y) for box in self.ends):
                known = self.unlabelled[i]
                if known == 0:
                    known = self.unlabelled[i] = self._state(self.router.labels.free, x, y)
        if known == 3:
            return 1.0 if i == self.start or i == self.goal else 0.0
        return 1.0 if known == 1 else TIGHT

    def path(self) -> list[Point] | None:
        nx, ny = self.nx, self.ny
        goal = self.goal
        gx1, gy1 = goal % nx, goal // nx
        best = {self.start: 0.0}
        came: dict[int, int] = {}
        queue = [(0.0, self.start)]
        done: set[int] = set()
        while queue and len(done) < MAX_VISITS:
            _f, i = heapq.heappop(queue)
            if i == goal:
                out = []
                while i in came:
                    i = came[i]
                    out.append(self._xy(i))
                return out[::-1][1:]
            if i in done:
                continue
            done.add(i)
            g = best[i]
            x, y = i % nx, i // nx
            for dx, dy, length in _STEPS:
                u, v = x + dx, y + dy
                if not (0 <= u < nx and 0 <= v < ny):
                    continue
                j = v * nx + u
                if j in done:
                    continue
                price = self.cost(j)
                if not price:
                    continue
                if dx and dy and not (self.cost(y * nx + u) and self.cost(v * nx + x)):
                    continue
                ng = g + length * price
                if ng < best.get(j, math.inf):
                    best[j] = ng
                    came[j] = i
                    h = math.hypot(gx1 - u, gy1 - v) * GREED
                    heapq.heappush(queue, (ng + h, j))
        return None


_STEPS = [(dx, dy, math.hypot(dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


# ---- the lines of a turn -------------------------------------------------------------------

@dataclass(frozen=True)
class Routed:
    """The lines of one picture: ``moves[i]`` for the view's i-th move (None: not drawn),
    likewise ``supports``, and where the tag of each move by the route goes."""

    moves: tuple[Line | None, ...]
    supports: tuple[Line | None, ...]
    tags: tuple[Box | None, ...]


def route_turn(obstacles: Obstacles, markers: Mapping[str, Sequence[Box]],
               anchors: Mapping[str, Point], moves: Sequence[tuple[str, str, bool]],
               supports: Sequence[tuple[str, str, str | None]]) -> Routed:
    """Route every move ``(src, dst, by_route)`` and support ``(src, unit, to)``.

    ``markers``: space -> the boxes of the markers drawn there; ``anchors``: space -> the
    point a line aims at when the space has no marker (its unit row).  Spaces missing from
    ``anchors`` are not drawn on this picture: their lines are None."""
    labels = obstacles.copy()  # the tags of moves by the route are added as placed
    marks = obstacles.empty()
    for boxes in markers.values():
        for box in boxes:
            marks.block(box.grow(CLEAR))
    router = Router(labels, marks)

    def end(sid: str) -> End:
        boxes = markers.get(sid)
        if not boxes:
            return End(anchors[sid])
        box = Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                  max(b.x1 for b in boxes), max(b.y1 for b in boxes)).grow(CLEAR + 2 * RES)
        return End(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2), box)

    pairs = {(src, dst) for src, dst, _u in moves}
    routed_moves: list[Line | None] = []
    tags: list[Box | None] = []
    for src, dst, under in moves:
        if src not in anchors or dst not in anchors or src == dst:
            routed_moves.append(None)
            tags.append(None)
            continue
        lane = (dst, src) in pairs
        line = router.route(end(src), end(dst), head=True,
                            bends=LANE_BENDS if lane else BENDS)
        routed_moves.append(line)
        tag = _tag_spot(router, line) if under else None
        if tag is not None:
            router.block_label(tag)
        tags.append(tag)
    drawn = {(src, dst): line for (src, dst, _u), line in zip(moves, routed_moves, strict=True)
             if line is not None}
    routed_supports: list[Line | None] = []
    for src, unit, to in supports:
        if src not in anchors or unit not in anchors or (to is not None and to not in anchors):
            routed_supports.append(None)
            continue
        if to is None:
            goal = end(unit)
        else:
            target = drawn.get((unit, to))
            if target is not None:
                goal = End(target.mid)
            else:
                (ax, ay), (bx, by) = end(unit).at, end(to).at
                goal = End(((ax + bx) / 2, (ay + by) / 2))
        routed_supports.append(router.route(end(src), goal, head=False))
    return Routed(tuple(routed_moves), tuple(routed_supports), tuple(tags))


def _tag_spot(router: Router, line: Line) -> Box | None:
    """Where the tag of a move by the route stands: on the line, as near its middle as it is
    clear of everything (None when nowhere)."""
    pts = line.points
    mid = len(pts) // 2
    order = sorted(range(len(pts)), key=lambda k: abs(k - mid))
    half = TAG / 2
    for k in order:
        x, y = pts[k]
        box = Box(x - half, y - half, x + half, y + half)
        probe = box.grow(CLEAR - 1)
        xs = [probe.x0 + (probe.x1 - probe.x0) * i / 6 for i in range(7)]
        ys = [probe.y0 + (probe.y1 - probe.y0) * i / 6 for i in range(7)]
        if all(router.free(px, py) for px in xs for py in ys):
            return box
    return None


def marker_box(x: float, y: float, r: float) -> Box:
    """What a marker of radius ``r`` at (x, y) covers (a Don's star reaches a pixel lower)."""
    return circle_box(x, y + 0.5, r + 0.5)
