"""Adjacency derived from a grid layout, so the picture and the rules graph agree.

Rule 4 of Mobtown II in geometric form:

* two spaces sharing a border are adjacent; if every stretch of that border lies on a
  highway, the move is a *highway crossing* (``via: highway``) unless a junction marked on
  it joins them (``via: junction``); a space that straddles a highway (Queens) is never
  across it from anyone;
* where four different spaces meet at a cell corner, the two diagonal pairs are adjacent
  (``via: diagonal``); when a highway passes through that corner between them, the
  diagonal is also a crossing: ``{via: highway, highway: H, diagonal: true}``.

A variant's route kind (the layout's ``lines``; Mobtown's subway, rule 5) adds its links;
where the two spaces are also neighbours over ground the edge keeps its ground ``via`` and
gains the route as a flag (``subway: true``), otherwise it goes ``via`` the route
(``via: subway``).  Spaces whose terrain is impassable get no edges.
"""

from __future__ import annotations

from collections.abc import Iterable

from mobadj.render.layout import Layout, LayoutError

Segment = tuple[tuple[int, int], tuple[int, int]]  # unit cell edge, endpoints sorted
Edge = dict[str, object]


def road_segments(layout: Layout) -> dict[Segment, str]:
    """Every unit cell edge a highway runs along -> the highway's name."""
    out: dict[Segment, str] = {}
    for hw in layout.roads:
        for (x0, y0), (x1, y1) in zip(hw.points, hw.points[1:], strict=False):
            if x0 != x1 and y0 != y1:
                raise LayoutError(f"{layout.source}: road {hw.name} bends off the grid "
                                  f"between {(x0, y0)} and {(x1, y1)}")
            xs, ys = int(x0), int(y0)
            steps = int(abs(x1 - x0) + abs(y1 - y0))
            dx = (x1 > x0) - (x1 < x0)
            dy = (y1 > y0) - (y1 < y0)
            for _ in range(steps):
                a, b = (xs, ys), (xs + dx, ys + dy)
                out[(min(a, b), max(a, b))] = hw.name
                xs, ys = b
    return out


def shared_borders(layout: Layout) -> dict[frozenset[str], list[Segment]]:
    """Pairs of different spaces that share cell edges -> those edges."""
    grid = layout.grid
    out: dict[frozenset[str], list[Segment]] = {}
    for y, row in enumerate(grid):
        for x, a in enumerate(row):
            if x + 1 < len(row) and row[x + 1] != a:
                seg = ((x + 1, y), (x + 1, y + 1))
                out.setdefault(frozenset((a, row[x + 1])), []).append(seg)
            if y + 1 < len(grid) and grid[y + 1][x] != a:
                seg = ((x, y + 1), (x + 1, y + 1))
                out.setdefault(frozenset((a, grid[y + 1][x])), []).append(seg)
    return out


def _diagonals(layout: Layout, hw: dict[Segment, str]):
    """Yield ``(a, b, highway_or_None, corner)`` for spaces meeting only at a corner."""
    grid = layout.grid
    for y in range(1, layout.height):
        for x in range(1, layout.width):
            nw, ne, sw, se = grid[y - 1][x - 1], grid[y - 1][x], grid[y][x - 1], grid[y][x]
            if len({nw, ne, sw, se}) != 4:
                continue
            n = hw.get(((x, y - 1), (x, y)))
            s = hw.get(((x, y), (x, y + 1)))
            w = hw.get(((x - 1, y), (x, y)))
            e = hw.get(((x, y), (x + 1, y)))
            # NW-SE is cut when both ways round the corner cross a highway; likewise NE-SW.
            # The crossing is named after the way that crosses fewer highway stretches.
            yield nw, se, _cut([n, e], [w, s]), (x, y)
            yield ne, sw, _cut([n, w], [e, s]), (x, y)


def _cut(way1: list[str | None], way2: list[str | None]) -> str | None:
    """The highway a diagonal crosses, given the stretches met going round either side."""
    one = [h for h in way1 if h]
    two = [h for h in way2 if h]
    if not one or not two:
        return None
    return min(one, two, key=len)[0]


def derive_edges(layout: Layout, impassable: Iterable[str] = ()) -> dict[frozenset[str], Edge]:
    """All Gang edges of a grid layout: pair of spaces -> edge attributes (without ``to``)."""
    if not layout.is_grid:
        raise LayoutError(f"{layout.source}: only grid layouts define adjacency")
    blocked = set(impassable)
    hw = road_segments(layout)
    junctions = {frozenset(j) for j in layout.junctions}
    straddlers = set(layout.straddle)
    edges: dict[frozenset[str], Edge] = {}
    for pair, segs in shared_borders(layout).items():
        if pair & blocked:
            continue
        names = sorted({hw[s] for s in segs if s in hw})
        if pair & straddlers or any(s not in hw for s in segs):
            edges[pair] = {"via": "plain"}
        elif pair in junctions:
            edges[pair] = {"via": "junction"}
        else:
            edges[pair] = {"via": layout.crossing, layout.crossing: names[0]}
    for a, b, cut, _corner in _diagonals(layout, hw):
        pair = frozenset((a, b))
        if pair in edges or pair & blocked:
            continue
        if cut is None or pair & straddlers:
            edges[pair] = {"via": "diagonal"}
        elif pair in junctions:
            edges[pair] = {"via": "junction", "diagonal": True}
        else:
            edges[pair] = {"via": layout.crossing, layout.crossing: cut, "diagonal": True}
    route = layout.lines.route if layout.lines is not None else ""
    for a, b in layout.links:
        pair = frozenset((a, b))
        if pair & blocked:
            raise LayoutError(f"{layout.source}: {route} {a}-{b} runs into an impassable space")
        if pair in edges:
            edges[pair] = {**edges[pair], route: True}
        else:
            edges[pair] = {"via": route}
    return edges


def corner_points(layout: Layout) -> list[tuple[str, str, tuple[int, int]]]:
    """Corners where four spaces meet: ``(a, b, corner)`` for each diagonal pair (drawing)."""
    hw = road_segments(layout)
    return [(a, b, c) for a, b, _cut, c in _diagonals(layout, hw)]


def junction_points(layout: Layout) -> dict[frozenset[str], tuple[float, float]]:
    """Where to draw each junction: the middle of the joined pair's highway border."""
    hw = road_segments(layout)
    borders = shared_borders(layout)
    diag = {frozenset((a, b)): c for a, b, _cut, c in _diagonals(layout, hw)}
    out: dict[frozenset[str], tuple[float, float]] = {}
    for a, b in layout.junctions:
        pair = frozenset((a, b))
        segs = [s for s in borders.get(pair, []) if s in hw]
        if segs:
            seg = segs[len(segs) // 2]
            out[pair] = ((seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2)
        elif pair in diag:
            out[pair] = (float(diag[pair][0]), float(diag[pair][1]))
        else:
            raise LayoutError(f"{layout.source}: junction {a}-{b} is not on a road "
                              f"between the two spaces")
    return out


def label_point(layout: Layout, sid: str, cells: list[tuple[int, int]]) -> tuple[float, float]:
    """Grid point where a space's name goes: an override, or the middle of its biggest block."""
    if sid in layout.labels:
        return layout.labels[sid]
    cellset = set(cells)
    cx = sum(x + 0.5 for x, _ in cells) / len(cells)
    cy = sum(y + 0.5 for _, y in cells) / len(cells)
    if _center_ok(cellset, cx, cy):
        return (cx, cy)
    x, y = min(cells, key=lambda c: (c[0] + 0.5 - cx) ** 2 + (c[1] + 0.5 - cy) ** 2)
    return (x + 0.5, y + 0.5)


def _center_ok(cells: set[tuple[int, int]], cx: float, cy: float) -> bool:
    """True when the point (cx, cy) lies inside (or on an inner edge of) the cell set."""
    eps = 1e-9
    xs = {int(cx - eps), int(cx + eps)} if abs(cx - round(cx)) < eps else {int(cx)}
    ys = {int(cy - eps), int(cy + eps)} if abs(cy - round(cy)) < eps else {int(cy)}
    return all((x, y) in cells for x in xs for y in ys)


def plan_problems(layout: Layout, known: Iterable[str] | None = None) -> list[str]:
    """What is wrong with a grid plan: split spaces, highways cutting through spaces that do
    not straddle them, junctions or route links naming unknown spaces (empty when sound)."""
    problems: list[str] = []
    cells = layout.cells()
    for sid, cs in cells.items():
        todo, seen = [cs[0]], {cs[0]}
        own = set(cs)
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in own and n not in seen:
                    seen.add(n)
                    todo.append(n)
        if len(seen) != len(own):
            problems.append(f"{sid} is split into pieces that do not touch")
    cut: dict[str, set[str]] = {}
    for ((x0, y0), (x1, _y1)), name in road_segments(layout).items():
        if x0 == x1:
            inside = 0 < x0 < layout.width and layout.grid[y0][x0 - 1] == layout.grid[y0][x0]
        else:
            inside = 0 < y0 < layout.height and layout.grid[y0 - 1][x0] == layout.grid[y0][x0]
        if inside:
            cut.setdefault(layout.grid[y0][x0], set()).add(name)
    for sid, names in sorted(cut.items()):
        if layout.straddle.get(sid) not in names:
            problems.append(f"road {', '.join(sorted(names))} cuts through {sid}, which is "
                            f"not listed under straddle")
    for sid, name in layout.straddle.items():
        if name not in cut.get(sid, set()):
            problems.append(f"{sid} is said to straddle {name}, but {name} does not cross it")
    names = set(known) if known is not None else set(cells)
    route = layout.lines.route if layout.lines is not None else ""
    for what, pairs in (("junction", layout.junctions), (route, layout.links)):
        for a, b in pairs:
            for sid in (a, b):
                if sid not in names:
                    problems.append(f"{what} {a}-{b} names unknown space {sid}")
    try:
        junction_points(layout)
    except LayoutError as exc:
        problems.append(str(exc).split(": ", 1)[-1])
    return problems
