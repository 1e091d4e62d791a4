"""Marks of an adjustment or a convoy, drawn over a finished picture: units built (a ghost
of the new unit in a green ring with a plus) and removed (the unit crossed out in red), and
the route of each convoy (a wave from the army through its fleets to where it went, the
fleets ringed).

They are read from a phase's results into the view
(:func:`~mobadj.render.position.marks_from_results`, :func:`~mobadj.render.position.results_view`)
and drawn last by :func:`draw_marks`, over the picture, at the places its units stand: a
view without marks is drawn exactly as before.  They are part of the overlay, so a PNG drawn
from the cached board layers (mobadj.render.raster) has them too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from mobadj.board import GameMap
from mobadj.render.ink import Style, SvgWriter, power_colour, unit_glyph
from mobadj.render.layout import Layout
from mobadj.render.placement import (
    MARKER_ORDER,
    Marker,
    frame_of,
    marker_kind,
    marker_positions,
    placement,
)
from mobadj.render.position import AdjustmentMark, BoardView, ConvoyMark

BUILT = "#1b7f3b"
REMOVED = "#c62828"


MARK_KEYS = ("convoy", "build", "removal")
"""The key's symbols for the marks (mobadj.render.legend lists those a picture has)."""


def marks_of(view: BoardView) -> list[str]:
    """The symbols of :data:`MARK_KEYS` that ``view``'s marks use."""
    built = {m.built for m in view.adjustments}
    return [key for key, used in zip(MARK_KEYS, (bool(view.convoys), True in built,
                                                 False in built), strict=True) if used]


def mark_symbol(s: SvgWriter, key: str, x: float, y: float) -> None:
    """The key's symbol of a mark (one of :data:`MARK_KEYS`), centred on (x, y)."""
    if key == "convoy":
        steps = 24
        wave = "".join(f"{'M' if i == 0 else 'L'}{x - 12 + i:.1f} "
                       f"{y + 3 * math.sin(2 * math.pi * i / 8):.1f}" for i in range(steps + 1))
        s.add("path", d=wave, fill="none", stroke="#555555", stroke_width="2.2",
              stroke_linecap="round", stroke_linejoin="round")
    elif key == "build":
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="7.5", fill="#ffffff", stroke=BUILT,
              stroke_width="2")
        _badge(s, x + 7, y - 5, BUILT, "M-3.5 0H3.5M0 -3.5V3.5")
    elif key == "removal":
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="7.5", fill="none", stroke=REMOVED,
              stroke_width="2")
        for d in (f"M{x - 6:.1f} {y - 6:.1f}L{x + 6:.1f} {y + 6:.1f}",
                  f"M{x + 6:.1f} {y - 6:.1f}L{x - 6:.1f} {y + 6:.1f}"):
            s.add("path", d=d, stroke=REMOVED, stroke_width="2.4", stroke_linecap="round")


def draw_marks(s: SvgWriter, game_map: GameMap, layout: Layout, view: BoardView,
               style: Style) -> None:
    """The marks of ``view`` (its ``adjustments`` and ``convoys``), drawn last, over all
    else (nothing at all when it has none)."""
    if not view.adjustments and not view.convoys:
        return
    place = placement(game_map, layout, style)
    frame = frame_of(layout, style)
    s.raw('<g class="marks">')
    for route in _routes(view.convoys):
        _convoy(s, game_map, place.spaces, route)
    for mark in view.adjustments:
        at = _where(game_map, layout, frame, place.spaces, view, mark)
        if at is not None:
            _adjustment(s, game_map, mark, *at, star=mark.kind == layout.leader)
    s.raw("</g>")


def _where(game_map: GameMap, layout: Layout, frame: Any, spaces: Mapping[str, Any],
           view: BoardView, mark: AdjustmentMark) -> tuple[float, float] | None:
    """Where the unit stands (a removal; a build on a picture of the position after it: the
    judge's mail, the command line) or will stand (a build on a picture of the position
    before it: the game pages): at its coast on a split coast, else in its space's unit row
    with the units already there."""
    if mark.province not in spaces:
        return None
    place = spaces[mark.province]
    coast = layout.coasts.get(f"{mark.province}/{mark.coast}") if mark.coast else None
    if coast is not None:  # as the picture stands a fleet: beside its coast tag
        x, y = frame.px(*coast)
        lx, ly = place.unit_at
        d = math.hypot(lx - x, ly - y) or 1
        return x + (lx - x) / d * 19, y + (ly - y) / d * 19
    # the space's markers as the picture stands them: units (Gangs, Dons, captives), then
    # the dislodged; a new unit comes after the units
    here = [u for u in view.units if u.province == mark.province and not (
        u.coast and layout.coasts.get(f"{u.province}/{u.coast}") is not None)]
    leader = layout.leader
    markers = sorted((Marker(marker_kind(u.kind, u.held, leader), u) for u in here),
                     key=lambda m: MARKER_ORDER[m.what])
    if mark.built and not any(u.power == mark.power and u.kind == mark.kind and not u.held
                              for u in here):  # not yet built in the picture
        markers.append(Marker(marker_kind(mark.kind, False, leader), mark))
    markers += [Marker("dislodged", d.unit) for d in view.dislodged
                if d.unit.province == mark.province]
    stood = marker_positions(place, markers)
    for m, x, y in stood:
        if m.ref is mark:
            return x, y
    for dislodged in (False, True):  # a removal: the unit of that mob, else its dislodged
        for m, x, y in stood:
            if ((m.what == "dislodged") == dislodged and m.ref is not mark
                    and m.ref.power == mark.power and m.ref.kind == mark.kind):
                return x, y
    return place.unit_at


def _adjustment(s: SvgWriter, game_map: GameMap, mark: AdjustmentMark, x: float, y: float,
                star: bool) -> None:
    colour = power_colour(game_map, mark.power)
    if mark.built:
        s.raw(f'<g class="build" data-space="{mark.province}" data-power="{mark.power or ""}">')
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="15.5", fill="#ffffff",
              fill_opacity="0.75", stroke=BUILT, stroke_width="2.6")
        unit_glyph(s, mark.kind, x, y, colour, star=star, ghost=True)
        _badge(s, x + 12, y - 12, BUILT, "M-3.5 0H3.5M0 -3.5V3.5")
    else:
        s.raw(f'<g class="removal" data-space="{mark.province}" '
              f'data-power="{mark.power or ""}">')
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="15.5", fill="none", stroke=REMOVED,
              stroke_width="2.6")
        for d in (f"M{x - 11:.1f} {y - 11:.1f}L{x + 11:.1f} {y + 11:.1f}",
                  f"M{x + 11:.1f} {y - 11:.1f}L{x - 11:.1f} {y + 11:.1f}"):
            s.add("path", d=d, stroke="#ffffff", stroke_width="6", stroke_linecap="round")
            s.add("path", d=d, stroke=REMOVED, stroke_width="3", stroke_linecap="round")
    s.raw("</g>")


def _badge(s: SvgWriter, x: float, y: float, colour: str, sign: str) -> None:
    s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="6.5", fill=colour, stroke="#ffffff",
          stroke_width="1.5")
    s.add("path", d=sign, transform=f"translate({x:.1f} {y:.1f})", stroke="#ffffff",
          stroke_width="2", stroke_linecap="round")


def _routes(convoys: list[ConvoyMark]) -> list[tuple[ConvoyMark, list[str]]]:
    """Each convoyed move once: its first mark (for power and result) and its fleets."""
    out: dict[tuple[str, str], tuple[ConvoyMark, list[str]]] = {}
    for c in convoys:
        first, fleets = out.setdefault((c.army, c.to), (c, []))
        if c.fleet not in fleets:
            fleets.append(c.fleet)
        if not c.succeeded and first.succeeded:
            out[(c.army, c.to)] = (c, fleets)
    return list(out.values())


def _convoy(s: SvgWriter, game_map: GameMap, spaces: Mapping[str, Any],
            route: tuple[ConvoyMark, list[str]]) -> None:
    """The route from the army through its fleets (nearest first) to where it goes."""
    mark, fleets = route
    if mark.army not in spaces or mark.to not in spaces:
        return
    points = [spaces[mark.army].unit_at]
    left = [spaces[f].unit_at for f in fleets if f in spaces]
    while left:
        here = points[-1]
        nearest = min(left, key=lambda p: math.hypot(p[0] - here[0], p[1] - here[1]))
        points.append(nearest)
        left.remove(nearest)
    points.append(spaces[mark.to].unit_at)
    colour = power_colour(game_map, mark.power)
    wave = _wave(points)
    klass = "convoy-route" if mark.succeeded else "convoy-failed"
    s.raw(f'<g class="{klass}" data-power="{mark.power or ""}">')
    s.add("path", d=wave, fill="none", stroke="#ffffff", stroke_width="6",
          stroke_opacity="0.85", stroke_linecap="round", stroke_linejoin="round")
    s.add("path", d=wave, fill="none", stroke=colour, stroke_width="2.6",
          stroke_dasharray=None if mark.succeeded else "6 4", stroke_linecap="round",
          stroke_linejoin="round")
    for x, y in points[1:-1]:
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="15", fill="none", stroke=colour,
              stroke_width="2.4", stroke_dasharray="4 2.5")
    s.raw("</g>")


def _wave(points: list[tuple[float, float]], amplitude: float = 3.2, length: float = 14
          ) -> str:
    """A wavy path through ``points``, clear of the units at its ends and corners."""
    parts: list[str] = []
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        d = math.hypot(x1 - x0, y1 - y0)
        if d < 1:
            continue
        ux, uy = (x1 - x0) / d, (y1 - y0) / d
        start, end = min(13.0, d / 3), max(d - 13.0, 2 * d / 3)
        steps = max(2, int((end - start) / 2))
        for i in range(steps + 1):
            t = start + (end - start) * i / steps
            w = amplitude * math.sin(2 * math.pi * (t - start) / length)
            px, py = x0 + ux * t - uy * w, y0 + uy * t + ux * w
            parts.append(f"{'M' if i == 0 else 'L'}{px:.1f} {py:.1f}")
    return "".join(parts)
