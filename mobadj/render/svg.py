"""Draw a board and a position as SVG: the only picture of the city players have.

Main entry point: :func:`render_svg(game_map, layout, position_like)`.  The layout gives the
geometry (:mod:`mobadj.render.layout`), the map gives names, terrain, centres and mob
colours, the position (:mod:`mobadj.render.position`) gives units, owners and arrows.
Drawing order, bottom to top: spaces, borders, diagonal points, highways, junctions,
route lines (Mobtown's subway), labels, centres, split-coast tags, supports, arrows, units, legend.
:func:`draw_svg` also draws the picture as layers (board, per-owner tints, overlay) for the
PNG cache of :mod:`mobadj.render.raster`.  Colours, the SVG writer and
the unit glyphs live in :mod:`mobadj.render.ink`, the legend in :mod:`mobadj.render.legend`.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from xml.sax.saxutils import escape

from mobadj.board import GameMap
from mobadj.render import geometry
from mobadj.render.arrows import Obstacles, Routed, board_obstacles, marker_box, route_turn
from mobadj.render.ink import (
    BORDER,
    COAST,
    INK,
    LAND,
    PAPER,
    ROAD_CASING,
    ROAD_FILL,
    STOP,
    TERRAIN_FILL,
    Style,
    SvgWriter,
    line_marker_id,
    marker_id,
    mix,
    power_colour,
    text_width,
    unit_glyph,
    write_defs,
)
from mobadj.render.layout import Layout
from mobadj.render.legend import draw_legend
from mobadj.render.marks import draw_marks
from mobadj.render.placement import (
    MARKER_ORDER,
    MARKER_R,
    TAG_SIZE,
    Box,
    Marker,
    frame_of,
    marker_kind,
    marker_positions,
    placement,
    tag_point,
)
from mobadj.render.position import BoardView, as_view
from mobadj.render.signs import BAR_WIDTH
from mobadj.render.signs import TAG_SIZE as LINE_TAG_SIZE


class _Board:
    """Pixel geometry of a layout and where each label, marker and route line goes."""

    def __init__(self, game_map: GameMap, layout: Layout, style: Style) -> None:
        self.layout = layout
        self.c = layout.cell
        self.ox = style.margin
        self.oy = style.margin + style.title_h
        self.place = placement(game_map, layout, style)
        self.w: float
        self.h: float
        if layout.is_grid:
            self.cells = layout.cells()
            self.w, self.h = layout.width, layout.height
        else:  # free polygons, in layout units (cell = pixels per unit)
            self.cells = {sid: [] for sid in layout.polygons}
            self.w = max(x for poly in layout.polygons.values() for x, _ in poly)
            self.h = max(y for poly in layout.polygons.values() for _, y in poly)
        self.label = self.place.spaces  # the spaces that have a label group

    def px(self, gx: float, gy: float) -> tuple[float, float]:
        return self.ox + gx * self.c, self.oy + gy * self.c

    def unit_point(self, sid: str) -> tuple[float, float]:
        """Where a space's first marker stands (arrows and supports aim there)."""
        return self.place.spaces[sid].unit_at


PARTS = ("full", "base", "tint", "overlay")


def render_svg(game_map: GameMap, layout: Layout, position: object = None, *,
               title: str | None = None, style: Style | None = None) -> str:
    """The board of ``game_map`` drawn with ``layout`` and ``position`` as an SVG document.

    ``position`` may be None (starting position), a position mapping (YAML form), a
    :class:`~mobadj.render.position.BoardView` or an engine position object; see
    :func:`mobadj.render.position.as_view`.  The last few documents are remembered, so that
    :func:`mobadj.render.png.svg_to_png` can draw them from the cached board.
    """
    style = style or Style()
    view = as_view(game_map, position)
    svg = draw_svg(game_map, layout, view, title=title, style=style)
    _remember(svg, (game_map, layout, view, title, style))
    return svg


_DRAWN: OrderedDict[str, tuple] = OrderedDict()
_DRAWN_MAX = 8


def _remember(svg: str, inputs: tuple) -> None:
    key = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    _DRAWN[key] = inputs
    _DRAWN.move_to_end(key)
    while len(_DRAWN) > _DRAWN_MAX:
        _DRAWN.popitem(last=False)


def recall(svg: str) -> tuple | None:
    """``(game_map, layout, view, title, style)`` when ``svg`` is one of the documents
    :func:`render_svg` returned lately in this process, else None."""
    return _DRAWN.get(hashlib.sha256(svg.encode("utf-8")).hexdigest())


def page_size(layout: Layout, style: Style) -> tuple[float, float]:
    """Width and height of the picture in pixels (at scale 1)."""
    bw: float
    bh: float
    if layout.is_grid:
        bw, bh = layout.width, layout.height
    else:
        bw = max(x for poly in layout.polygons.values() for x, _ in poly)
        bh = max(y for poly in layout.polygons.values() for _, y in poly)
    w = max(2 * style.margin + bw * layout.cell, 1180)
    h = style.margin * 2 + style.title_h + bh * layout.cell + style.legend_h
    return w, h


def space_outlines(layout: Layout, style: Style) -> dict[str, list[list[tuple[float, float]]]]:
    """Space id -> the polygons (pixels, scale 1) that make up its area: one square per cell
    of a grid layout, the polygon of a free layout."""
    f = frame_of(layout, style)
    if not layout.is_grid:
        return {sid: [[f.px(x, y) for x, y in poly]] for sid, poly in layout.polygons.items()}
    return {sid: [[f.px(x, y), f.px(x + 1, y), f.px(x + 1, y + 1), f.px(x, y + 1)]
                  for x, y in cells] for sid, cells in layout.cells().items()}


def draw_svg(game_map: GameMap, layout: Layout, view: BoardView, *, title: str | None = None,
             style: Style | None = None, part: str = "full",
             only: frozenset[str] | None = None) -> str:
    """The SVG document of ``view``, or one layer of it for the raster cache.

    ``part`` "full" is the whole picture.  The others split it for
    :mod:`mobadj.render.raster`: "base" is what never changes with the position (spaces,
    water, highways, junctions, route lines, labels, the key), drawn with the centres that
    ``view`` owns (none, for the plain board); "tint" is the same limited to the spaces in
    ``only`` (their fills, labels and stations) and without the legend; "overlay" is what
    the position adds on a transparent page (title, supports, arrows, units, the mobs'
    counts, and last the marks of builds, removals and convoys).  Drawn in this order, with
    each tint clipped to its spaces, the layers give the full picture.
    """
    if part not in PARTS:
        raise ValueError(f"unknown picture part {part!r}; expected one of {', '.join(PARTS)}")
    style = style or Style()
    b = _Board(game_map, layout, style)
    w, h = page_size(layout, style)
    board = part in ("full", "base", "tint")
    moves = part in ("full", "overlay")
    s = SvgWriter()
    s.raw(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
          f'viewBox="0 0 {w:.0f} {h:.0f}">')
    write_defs(s, {p.colour for p in game_map.powers.values() if p.colour} | {"#555555"})
    if board:
        s.add("rect", x=0, y=0, width=f"{w:.0f}", height=f"{h:.0f}", fill=PAPER)
    if moves:
        heading = title or f"{game_map.title}" + (f" \u2014 {view.caption}"
                                                  if view.caption else "")
        s.text(style.margin, style.margin + 28, heading, 24, text_anchor="start",
               font_weight="bold", letter_spacing="0.5")
    if board:
        if layout.is_grid:
            _spaces(s, b, game_map, view, only)
            _borders(s, b, game_map)
            _diagonal_points(s, b)
        else:
            _polygons(s, b, game_map, view, only)
        _roads(s, b, game_map, view)
        if layout.is_grid:
            _junctions(s, b)
        _road_names(s, b)
        _route_lines(s, b, game_map, only)
        _labels(s, b, game_map, view, only)
        _coast_labels(s, b, only)
    if moves:
        routed = turn_lines(b, view)
        _supports(s, game_map, view, routed)
        _moves(s, b, game_map, view, routed)
        _units(s, b, game_map, view)
    if part != "tint":
        draw_legend(s, game_map, view, style, w, h,
                    {"full": "all", "base": "key", "overlay": "mobs"}[part], layout)
    if moves:
        draw_marks(s, game_map, layout, view, style)
    s.raw("</svg>")
    return "\n".join(s.parts)


#: the overlay pattern of each terrain every map may use (a layout adds its own terrains')
OVERLAYS = {"water": "waves", "sea": "waves", "impassable": "bay", "blocked": "bay"}


def terrain_overlay(layout: Layout, terrain: str) -> tuple[str | None, str | None]:
    """The fill of a terrain's overlay (a pattern of the picture) and its opacity."""
    look = layout.terrains.get(terrain)
    if look is not None and look.pattern:
        return f"url(#{look.pattern})", look.opacity
    pattern = OVERLAYS.get(terrain)
    return (f"url(#{pattern})" if pattern else None), None


def _space_fill(game_map: GameMap, sid: str, view: BoardView, layout: Layout) -> str:
    prov = game_map.provinces.get(sid)
    terrain = _terrain(game_map, sid)
    look = layout.terrains.get(terrain)
    if look is not None and look.fill:
        return look.fill
    if terrain in TERRAIN_FILL:
        return TERRAIN_FILL[terrain]
    owner = view.centers.get(sid)
    if owner and owner in game_map.powers and game_map.powers[owner].colour:
        return mix(game_map.powers[owner].colour, 0.30)
    if prov is not None and prov.supply_center:
        return "#f3dfb0"
    return LAND


def _spaces(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView,
            only: frozenset[str] | None = None) -> None:
    c = b.c
    for sid, cells in b.cells.items():
        if only is not None and sid not in only:
            continue
        fill = _space_fill(game_map, sid, view, b.layout)
        terrain = _terrain(game_map, sid)
        s.raw(f'<g id="space-{escape(sid)}">')
        for x, y in cells:
            px, py = b.px(x, y)
            s.add("rect", x=f"{px:.1f}", y=f"{py:.1f}", width=f"{c + 0.6:.1f}",
                  height=f"{c + 0.6:.1f}", fill=fill)
            overlay, opacity = terrain_overlay(b.layout, terrain)
            if overlay:
                s.add("rect", x=f"{px:.1f}", y=f"{py:.1f}", width=f"{c:.1f}", height=f"{c:.1f}",
                      fill=overlay, opacity=opacity)
        s.raw("</g>")


def _polygons(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView,
              only: frozenset[str] | None = None) -> None:
    """Spaces of a free-polygon layout (any map): filled shapes with their borders."""
    for sid, poly in b.layout.polygons.items():
        if only is not None and sid not in only:
            continue
        pts = " ".join(f"{b.px(x, y)[0]:.1f},{b.px(x, y)[1]:.1f}" for x, y in poly)
        wet = _terrain(game_map, sid) in ("water", "sea", "impassable")
        s.add("polygon", points=pts, fill=_space_fill(game_map, sid, view, b.layout),
              stroke=COAST if wet else BORDER, stroke_width="1.6", id=f"space-{sid}")


def _terrain(game_map: GameMap, sid: str) -> str:
    """The space's terrain; "blocked" for a drawn space that is no province (Switzerland)."""
    prov = game_map.provinces.get(sid)
    return prov.terrain if prov else "blocked"


def _borders(s: SvgWriter, b: _Board, game_map: GameMap) -> None:
    wet = {"water", "sea", "impassable"}
    inner: list[str] = []
    coast: list[str] = []
    for pair, segs in geometry.shared_borders(b.layout).items():
        a, c = sorted(pair)
        is_coast = (_terrain(game_map, a) in wet) != (_terrain(game_map, c) in wet)
        for (x0, y0), (x1, y1) in segs:
            p0, p1 = b.px(x0, y0), b.px(x1, y1)
            d = f"M{p0[0]:.1f} {p0[1]:.1f}L{p1[0]:.1f} {p1[1]:.1f}"
            (coast if is_coast else inner).append(d)
    s.add("path", d="".join(inner), stroke=BORDER, stroke_width="1.4", fill="none",
          stroke_linecap="round")
    s.add("path", d="".join(coast), stroke=COAST, stroke_width="2.6", fill="none",
          stroke_linecap="round")
    left, top = b.px(0, 0)
    s.add("rect", x=f"{left:.1f}", y=f"{top:.1f}", width=f"{b.layout.width * b.c:.1f}",
          height=f"{b.layout.height * b.c:.1f}", fill="none", stroke=INK, stroke_width="2")


def _diagonal_points(s: SvgWriter, b: _Board) -> None:
    if not b.layout.diagonals:
        return
    seen = set()
    for _a, _c, corner in geometry.corner_points(b.layout):
        if corner in seen:
            continue
        seen.add(corner)
        x, y = b.px(*corner)
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="4.2", fill=INK,
              stroke="#ffffff", stroke_width="1.2", class_="diagonal")


def _roads(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView) -> None:
    x0, y0 = b.px(0, 0)
    s.raw(f'<clipPath id="board"><rect x="{x0:.1f}" y="{y0:.1f}" width="{b.w * b.c:.1f}" '
          f'height="{b.h * b.c:.1f}"/></clipPath><g clip-path="url(#board)">')
    _road_lines(s, b)
    if b.layout.is_grid:
        _straddles(s, b, game_map, view)
    s.raw("</g>")


def _road_lines(s: SvgWriter, b: _Board) -> None:
    for hw in b.layout.roads:
        pts = " ".join(f"{b.px(*p)[0]:.1f},{b.px(*p)[1]:.1f}" for p in hw.points)
        s.add("polyline", points=pts, fill="none", stroke=ROAD_CASING, stroke_width="11",
              stroke_linejoin="round", stroke_linecap="round")
        s.add("polyline", points=pts, fill="none", stroke=ROAD_FILL, stroke_width="6.5",
              stroke_linejoin="round", stroke_linecap="round")
        s.add("polyline", points=pts, fill="none", stroke="#fff6d5", stroke_width="1",
              stroke_dasharray="6 6")


def straddled_stretches(layout: Layout) -> dict[str, list[geometry.Segment]]:
    """Space -> the unit stretches of highway that run through it (rule 4: Queens)."""
    out: dict[str, list[geometry.Segment]] = {}
    grid = layout.grid
    for seg in geometry.road_segments(layout):
        (x0, y0), (x1, _y1) = seg
        # the cells either side: left and right of a vertical stretch, above and below else
        sides = [(x0 - 1, y0), (x0, y0)] if x0 == x1 else [(x0, y0 - 1), (x0, y0)]
        if all(0 <= x < layout.width and 0 <= y < layout.height for x, y in sides):
            a, c = (grid[y][x] for x, y in sides)
            if a == c and a in layout.straddle:
                out.setdefault(a, []).append(seg)
    return out


def _straddles(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView) -> None:
    """Where a space straddles a highway (Queens), the road is drawn sunk into the space: no
    crossing there, the space is on both sides (rule 4).  The key shows the same sign."""
    for sid, segs in straddled_stretches(b.layout).items():
        fill = _space_fill(game_map, sid, view, b.layout)
        d = "".join(f"M{b.px(*p)[0]:.1f} {b.px(*p)[1]:.1f}L{b.px(*q)[0]:.1f} {b.px(*q)[1]:.1f}"
                    for p, q in segs)
        s.add("path", d=d, fill="none", stroke=fill, stroke_width="13", class_="straddle")
        s.add("path", d=d, fill="none", stroke=ROAD_FILL, stroke_width="3.5",
              stroke_dasharray="9 5")


def _road_names(s: SvgWriter, b: _Board) -> None:
    for i, hw in enumerate(b.layout.roads):
        mx, my, angle = tag_point(b.place.frame, b.layout, i)
        s.raw(f'<g transform="translate({mx:.1f},{my:.1f}) rotate({angle:.0f})">')
        tw = text_width(hw.name, TAG_SIZE, bold=True) + 14
        s.add("rect", x=f"{-tw / 2:.1f}", y="-8", width=f"{tw:.1f}", height="16", rx="8",
              fill=ROAD_CASING, stroke=ROAD_FILL, stroke_width="1.5")
        s.text(0, 4, hw.name, TAG_SIZE, fill="#ffffff", font_weight="bold")
        s.raw("</g>")


def _junctions(s: SvgWriter, b: _Board) -> None:
    """Each junction as a crossing over the highway from one space it joins to the other
    (mobadj.render.signs): a corner junction runs diagonally between its two spaces."""
    for bar in b.place.junctions:
        (x0, y0), (x1, y1) = bar.at_a, bar.at_b
        d = f"M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}"
        s.add("path", d=d, stroke=INK, stroke_width=f"{BAR_WIDTH:.1f}", stroke_linecap="round",
              fill="none", class_="junction", data_join=f"{bar.a}-{bar.b}")
        s.add("path", d=d, stroke="#ffffff", stroke_width=f"{BAR_WIDTH - 3.6:.1f}",
              stroke_linecap="round", fill="none")
        s.add("path", d=d, stroke=INK, stroke_width=f"{BAR_WIDTH - 3.6:.1f}",
              stroke_dasharray="1.6 2.4", fill="none")


def _route_lines(s: SvgWriter, b: _Board, game_map: GameMap,
                 only: frozenset[str] | None = None) -> None:
    """The lines of a variant's route kind (Mobtown's subway; routed round every label, see
    mobadj.render.placement), each in its colour with its number at both ends
    (mobadj.render.signs), and their stops, marked as orders write the route."""
    if b.layout.lines is None:
        return
    route, mark = b.layout.lines.route, b.layout.line_mark(game_map.routes)
    stations: set[str] = set()
    for line in b.place.lines:
        stations.update((line.a, line.b))
        d = "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in line.path)
        s.add("path", d=d, fill="none", stroke="#ffffff", stroke_width="5", stroke_opacity="0.8",
              stroke_linejoin="round")
        marker = f"url(#{line_marker_id(line.colour)})"
        s.add("path", d=d, fill="none", stroke=line.colour, stroke_width="2.4",
              stroke_dasharray="7 4", stroke_linejoin="round", marker_start=marker,
              marker_end=marker, class_=route, data_link=f"{line.a}-{line.b}",
              data_line=str(line.number))
    for line in b.place.lines:
        for sid, tag in zip((line.a, line.b), line.tags, strict=True):
            if only is not None and sid not in only:
                continue
            s.add("rect", x=f"{tag.x0:.1f}", y=f"{tag.y0:.1f}", width=f"{tag.x1 - tag.x0:.1f}",
                  height=f"{tag.y1 - tag.y0:.1f}", rx="3", fill=line.colour, stroke="#ffffff",
                  stroke_width="1", class_="line-tag", data_line=str(line.number),
                  data_space=sid)
            s.text((tag.x0 + tag.x1) / 2, tag.y1 - 3, str(line.number), LINE_TAG_SIZE,
                   fill="#ffffff", font_weight="bold")
    for sid in sorted(stations):
        if only is not None and sid not in only:
            continue
        at = b.place.spaces[sid].station
        if at is None:
            continue
        x, y = at
        s.add("rect", x=f"{x - 7:.1f}", y=f"{y - 7:.1f}", width="14", height="14", rx="2.5",
              fill=STOP, stroke="#ffffff", stroke_width="1.2", class_="station",
              data_space=sid)
        s.text(x, y + 4.3, mark, 11.5, fill="#ffffff", font_weight="bold")


def _toward(x: float, y: float, tx: float, ty: float, d: float) -> tuple[float, float]:
    dist = math.hypot(tx - x, ty - y) or 1
    return x + (tx - x) / dist * d, y + (ty - y) / dist * d


def label_extent(b: _Board, sid: str) -> tuple[float, float, float, float]:
    """A box (pixels) round everything drawn in a space's label group."""
    e = b.place.spaces[sid].extent().grow(4)
    return e.x0, e.y0, e.x1, e.y1


def near_spaces(game_map: GameMap, layout: Layout, style: Style,
                spaces: frozenset[str]) -> frozenset[str]:
    """``spaces`` and every other space whose label may reach into one of them: what a
    "tint" layer of ``spaces`` must draw to look like the full picture inside them."""
    b = _Board(game_map, layout, style)
    areas = []
    for sid, polys in space_outlines(layout, style).items():
        if sid in spaces:
            for poly in polys:
                xs, ys = [p[0] for p in poly], [p[1] for p in poly]
                areas.append((min(xs), min(ys), max(xs), max(ys)))
    out = set(spaces)
    for sid in b.cells:
        if sid in out or sid not in b.label:
            continue
        x0, y0, x1, y1 = label_extent(b, sid)
        if any(x0 < ax1 and ax0 < x1 and y0 < ay1 and ay0 < y1 for ax0, ay0, ax1, ay1 in areas):
            out.add(sid)
    return frozenset(out)


def _labels(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView,
            only: frozenset[str] | None = None) -> None:
    for sid in b.cells:
        if only is not None and sid not in only:
            continue
        p = b.place.spaces[sid]
        prov = game_map.provinces.get(sid)
        terrain = _terrain(game_map, sid)
        name = prov.name if prov else b.layout.names.get(sid, sid)
        x, base = p.abbr_at
        if terrain == "blocked":
            s.text(x, base, name, 10, fill="#5b5446", font_weight="bold", font_style="italic")
            s.text(x, base + 11, "impassable", 8, fill="#6d6657", font_style="italic")
            continue
        if terrain == "impassable":
            s.text(x, base, name, 17, fill="#ffffff", font_weight="bold", font_style="italic",
                   letter_spacing="2")
            s.text(x, base + 17, "impassable", 10, fill="#eaf3fb", font_style="italic")
            continue
        wet = terrain in ("water", "sea")
        colour = "#123c5e" if wet else INK
        halo = _space_fill(game_map, sid, view, b.layout)
        italic = "italic" if wet else None
        s.text(x, base, sid, p.abbr_size, fill=colour, font_weight="bold", font_style=italic,
               stroke=halo, stroke_width="3.5", stroke_linejoin="round")
        s.text(x, base, sid, p.abbr_size, fill=colour, font_weight="bold", font_style=italic,
               class_="abbr")
        for line, ty in zip(p.name_lines, p.name_baselines, strict=True):
            s.text(p.cx, ty, line, p.name_size, fill=halo, stroke=halo, stroke_width="2.5",
                   stroke_linejoin="round")
            s.text(p.cx, ty, line, p.name_size, fill=colour, font_style=italic, class_="name")
        if p.center is not None:
            _center_mark(s, game_map, view, sid, *p.center)
        if p.badge is not None:
            bx = p.badge
            s.add("rect", x=f"{bx.x0:.1f}", y=f"{bx.y0:.1f}", width=f"{bx.x1 - bx.x0:.1f}",
                  height=f"{bx.y1 - bx.y0:.1f}", rx="3", fill="#222222")
            s.text(p.cx, bx.y1 - 3, b.layout.terrains[terrain].badge, 9, fill="#ffffff",
                   font_weight="bold",
                   letter_spacing="1.5")


def _coast_labels(s: SvgWriter, b: _Board, only: frozenset[str] | None = None) -> None:
    """Split coasts: a small tag ("NC", "SC") where each coast meets the sea."""
    for loc, (gx, gy) in b.layout.coasts.items():
        sid, _, coast = loc.partition("/")
        if only is not None and sid not in only:
            continue
        x, y = b.px(gx, gy)
        tw = text_width(coast, 8.5) + 8
        s.add("rect", x=f"{x - tw / 2:.1f}", y=f"{y - 6.5:.1f}", width=f"{tw:.1f}", height="13",
              rx="6.5", fill="#ffffff", stroke=COAST, stroke_width="1.2", class_="coast")
        s.text(x, y + 3, coast.upper(), 8.5, fill=COAST, font_weight="bold")


def _coast_point(b: _Board, sid: str, coast: str) -> tuple[float, float] | None:
    """Where a fleet on a split coast stands: beside its coast tag, toward the land."""
    at = b.layout.coasts.get(f"{sid}/{coast}") if coast else None
    if at is None:
        return None
    x, y = b.px(*at)
    lx, ly = b.place.spaces[sid].unit_at
    return _toward(x, y, lx, ly, 19)


def _center_mark(s: SvgWriter, game_map: GameMap, view: BoardView, sid: str,
                 cx: float, cy: float) -> None:
    owner = view.centers.get(sid)
    colour = game_map.powers[owner].colour if owner in game_map.powers else "#ffffff"
    prov = game_map.provinces[sid]
    if prov.home_of:  # home centre: a double ring
        s.add("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r="7.5", fill="none", stroke=INK,
              stroke_width="1.2")
    s.add("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r="5.2", fill=colour, stroke=INK,
          stroke_width="1.5", class_="centre")


def unit_markers(b: _Board, view: BoardView) -> list[tuple[Marker, float, float]]:
    """Every marker of the position with its centre: the units of each space in its unit
    row (Gangs, then Dons, then captives), then its dislodged units."""
    by_space: dict[str, list[Marker]] = {}
    for u in view.units:
        if _coast_point(b, u.province, u.coast) is not None:
            continue  # a fleet on a split coast stands at its coast
        what = marker_kind(u.kind, u.held, b.layout.leader)
        by_space.setdefault(u.province, []).append(Marker(what, u))
    for d in view.dislodged:
        by_space.setdefault(d.unit.province, []).append(Marker("dislodged", d))
    out = []
    for sid, markers in by_space.items():
        if sid not in b.label:
            continue
        markers.sort(key=lambda m: MARKER_ORDER[m.what])
        out.extend(marker_positions(b.place.spaces[sid], markers))
    return out


def _units(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView) -> None:
    leader = b.layout.leader
    for u in view.units:
        at = _coast_point(b, u.province, u.coast) if u.province in b.label else None
        if at is not None:  # a fleet on a split coast stands at its coast
            s.raw(f'<g class="unit" data-space="{escape(u.province)}" data-power="{u.power}">')
            unit_glyph(s, u.kind, at[0], at[1], power_colour(game_map, u.power),
                       star=u.kind == leader)
            s.raw("</g>")
    for m, ux, uy in unit_markers(b, view):
        if m.what == "dislodged":
            d = m.ref
            s.raw(f'<g class="dislodged" data-space="{escape(d.unit.province)}" '
                  f'data-power="{d.unit.power}">')
            s.add("circle", cx=f"{ux:.1f}", cy=f"{uy:.1f}", r="14", fill="#ffffff",
                  fill_opacity="0.6", stroke="#d32f2f", stroke_width="2.2",
                  stroke_dasharray="4 2.5")
            unit_glyph(s, d.unit.kind, ux, uy, power_colour(game_map, d.unit.power),
                       star=d.unit.kind == leader, ghost=True)
            s.raw("</g>")
            continue
        u = m.ref
        s.raw(f'<g class="unit" data-space="{escape(u.province)}" data-power="{u.power}">')
        if u.held:  # a held piece: its own colour, bound in a dark dashed ring
            s.add("circle", cx=f"{ux:.1f}", cy=f"{uy + 1:.1f}", r="15.5", fill="#ffffff",
                  fill_opacity="0.7", stroke=INK, stroke_width="1.8",
                  stroke_dasharray="3 2", class_=held_class(b.layout))
        unit_glyph(s, u.kind, ux, uy, power_colour(game_map, u.power), star=u.kind == leader)
        s.raw("</g>")


def held_class(layout: Layout) -> str:
    """The class of a held piece's ring: the first word positions mark it with."""
    return layout.held.words[0] if layout.held is not None else "held"


def turn_lines(b: _Board, view: BoardView) -> Routed:
    """The routes of the view's moves and supports (mobadj.render.arrows): clear of every
    label and marker, each ending outside its target's markers."""
    markers: dict[str, list[Box]] = {}
    for m, ux, uy in unit_markers(b, view):
        sid = m.ref.unit.province if m.what == "dislodged" else m.ref.province
        markers.setdefault(sid, []).append(marker_box(ux, uy, MARKER_R[m.what]))
    for u in view.units:  # fleets on split coasts stand at their coasts
        at = _coast_point(b, u.province, u.coast) if u.province in b.label else None
        if at is not None:
            markers.setdefault(u.province, []).append(marker_box(*at, 11.0))
    anchors = {sid: p.unit_at for sid, p in b.place.spaces.items()
               if p.kind not in ("impassable", "blocked")}
    moves = [(mv.src, mv.dst, b.layout.route_of(mv.via)) for mv in view.moves]
    supports = [(sp.src, sp.unit, sp.to) for sp in view.supports]
    return route_turn(_obstacles(b), markers, anchors, moves, supports)


_OBSTACLES: dict[int, tuple[object, Obstacles]] = {}


def _obstacles(b: _Board) -> Obstacles:
    """The board's obstacles to lines (kept with its placement, which is cached)."""
    got = _OBSTACLES.get(id(b.place))
    if got is not None and got[0] is b.place:
        return got[1]
    x0, y0 = b.px(0, 0)
    x1, y1 = b.px(b.w, b.h)
    extra = b.place.sign_boxes() + [
        Box(*_coast_tag(b, loc)) for loc in b.layout.coasts]
    obs = board_obstacles(b.place, Box(x0 + 3, y0 + 3, x1 - 3, y1 - 3), extra)
    if len(_OBSTACLES) > 8:
        _OBSTACLES.clear()
    _OBSTACLES[id(b.place)] = (b.place, obs)
    return obs


def _coast_tag(b: _Board, loc: str) -> tuple[float, float, float, float]:
    x, y = b.px(*b.layout.coasts[loc])
    tw = text_width(loc.partition("/")[2], 8.5) + 8
    return x - tw / 2, y - 6.5, x + tw / 2, y + 6.5


def _supports(s: SvgWriter, game_map: GameMap, view: BoardView, routed: Routed) -> None:
    """Dotted lines from each supporter to the unit it supports, or to the middle of the
    arrow of the move it supports; broken when the support failed (cut)."""
    for sp, line in zip(view.supports, routed.supports, strict=True):
        if line is None:
            continue
        colour = power_colour(game_map, sp.power)
        s.add("path", d=line.d, fill="none", stroke="#ffffff", stroke_width="5",
              stroke_opacity="0.7", stroke_linecap="round")
        s.add("path", d=line.d, fill="none", stroke=colour, stroke_width="2.4",
              stroke_dasharray="1.5 4" if sp.succeeded else "1.5 4 8 4", stroke_linecap="round",
              class_="support-ok" if sp.succeeded else "support-failed",
              data_from=sp.src, data_unit=sp.unit, data_to=sp.to)
        x1, y1 = line.end
        s.add("circle", cx=f"{x1:.1f}", cy=f"{y1:.1f}", r="3.6", fill=colour, stroke="#ffffff",
              stroke_width="1")


def _moves(s: SvgWriter, b: _Board, game_map: GameMap, view: BoardView, routed: Routed
           ) -> None:
    """Move arrows (solid: succeeded, dashed: failed), each with its head in the open; a
    move by the layout's route kind (Mobtown's subway) carries a tag with its mark (U)."""
    mark = b.layout.line_mark(game_map.routes)
    for mv, line, tag in zip(view.moves, routed.moves, routed.tags, strict=True):
        if line is None:
            continue
        colour = power_colour(game_map, mv.power)
        s.add("path", d=line.d, fill="none", stroke="#ffffff", stroke_width="7",
              stroke_opacity="0.8", stroke_linecap="round")
        s.add("path", d=line.d, fill="none", stroke=colour, stroke_width="3.6",
              stroke_dasharray=None if mv.succeeded else "7 5",
              marker_end=f"url(#{marker_id(colour)})", stroke_linecap="round",
              class_="move-ok" if mv.succeeded else "move-failed",
              data_from=mv.src, data_to=mv.dst, data_via=mv.via)
        if tag is not None:
            s.add("rect", x=f"{tag.x0:.1f}", y=f"{tag.y0:.1f}", width=f"{tag.x1 - tag.x0:.1f}",
                  height=f"{tag.y1 - tag.y0:.1f}", rx="2", fill=colour, stroke="#ffffff",
                  stroke_width="1.2", class_=f"{mv.via}-move-tag")
            s.text((tag.x0 + tag.x1) / 2, tag.y1 - 2.6, mark, 9.5, fill="#ffffff",
                   font_weight="bold")
