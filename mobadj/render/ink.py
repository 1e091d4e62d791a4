"""Drawing primitives shared by the board and its legend: colours, sizes, an SVG writer,
arrow heads and the unit glyphs (Gang: a round badge with G; Don: a star with D)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import yaml

from mobadj.board import GameMap

PAPER = "#f6f1e4"
LAND = "#efe6cf"
WATER = "#a8d1ec"
BAY = "#5d93c4"
BORDER = "#9c8f72"
COAST = "#2f6690"
INK = "#2b2b2b"
ROAD_CASING = "#4a4a4a"
ROAD_FILL = "#f0b429"
STOP = "#1d4e89"  # a stop of a variant's route lines (Mobtown's subway), and the first line
#: the colours of a route kind's lines (layout ``lines``), none of them a Mobtown mob's
#: (maps/mobtown2.yaml), told apart from each other
LINE_COLOURS = (STOP, "#00796b", "#ad1457", "#795548")
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

BLOCKED = "#c9c2b1"  # a drawn space that is no province (Switzerland): impassable land

#: the fill of each terrain every map may use (a layout draws its own terrains: ``terrains``)
TERRAIN_FILL = {"water": WATER, "sea": WATER, "impassable": BAY, "blocked": BLOCKED}


@dataclass(frozen=True)
class Style:
    """Sizes in pixels; ``cell`` comes from the layout unless given."""

    margin: float = 16
    title_h: float = 44
    legend_h: float = 118


def mix(colour: str, weight: float, base: str = LAND) -> str:
    """``colour`` blended into ``base``: the tint of an owned space."""
    def rgb(c: str) -> tuple[int, int, int]:
        c = c.lstrip("#")
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    a, b = rgb(colour), rgb(base)
    r, g, bl = (round(x * weight + y * (1 - weight)) for x, y in zip(a, b, strict=True))
    return f"#{r:02x}{g:02x}{bl:02x}"


@functools.cache
def _advances() -> dict[str, dict[str, float]]:
    """Advance widths of DejaVu Sans in em (fontwidths.yaml), regular and bold."""
    with (Path(__file__).parent / "fontwidths.yaml").open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return {face: {str(k): float(v) for k, v in widths.items()} for face, widths in data.items()}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Rendered width of ``text`` at font ``size`` in DejaVu Sans (the font the pictures
    name first), from its advance widths, so that label boxes are true to the picture."""
    widths = _advances()["bold" if bold else "regular"]
    other = widths["other"]
    return sum(widths.get(ch, other) for ch in text) * size


class SvgWriter:
    """A small SVG writer: elements are appended in drawing order."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, body: str | None = None, **attrs: object) -> None:
        att = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(str(v), {chr(34): "&quot;"})}"'
                       for k, v in attrs.items() if v is not None)
        if body is None:
            self.parts.append(f"<{tag} {att}/>")
        else:
            self.parts.append(f"<{tag} {att}>{body}</{tag}>")

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: str, size: float, **attrs: object) -> None:
        attrs.setdefault("text_anchor", "middle")
        attrs.setdefault("font_family", FONT)
        attrs.setdefault("fill", INK)
        self.add("text", escape(s), x=f"{x:.1f}", y=f"{y:.1f}", font_size=f"{size:.1f}", **attrs)


def marker_id(colour: str) -> str:
    return "arrow-" + colour.lstrip("#").lower()


def line_marker_id(colour: str) -> str:
    return "subarrow-" + colour.lstrip("#").lower()


def write_defs(s: SvgWriter, colours: set[str]) -> None:
    for colour in sorted(colours):  # one arrow head per colour (no context-stroke in cairo)
        s.raw(f'<marker id="{marker_id(colour)}" viewBox="0 0 10 10" refX="7" refY="5" '
              'markerWidth="3.6" markerHeight="3.6" orient="auto-start-reverse">'
              f'<path d="M0 0 L10 5 L0 10 z" fill="{colour}"/></marker>')
    s.raw(
        "<defs>"
        '<pattern id="waves" width="22" height="12" patternUnits="userSpaceOnUse">'
        '<path d="M0 8 q5.5 -5 11 0 t11 0" fill="none" stroke="#ffffff" stroke-opacity="0.45" '
        'stroke-width="1.1"/></pattern>'
        '<pattern id="bay" width="14" height="14" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(35)"><line x1="0" y1="0" x2="0" y2="14" stroke="#ffffff" '
        'stroke-opacity="0.22" stroke-width="3"/></pattern>'
        '<pattern id="bars" width="9" height="9" patternUnits="userSpaceOnUse">'
        '<line x1="4.5" y1="0" x2="4.5" y2="9" stroke="#6d6d6d" stroke-width="2"/></pattern>'
        + "".join(
            f'<marker id="{line_marker_id(c)}" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
            f'<path d="M0 0 L10 5 L0 10 z" fill="{c}"/></marker>' for c in LINE_COLOURS)
        + "</defs>"
    )


def unit_glyph(s: SvgWriter, kind: str, x: float, y: float, colour: str, *,
               star: bool = False, ghost: bool = False, key: bool = False) -> None:
    """A unit: a round badge with its kind's letter; ``star``: a five-pointed star with it
    (the layout's ``leader``)."""
    opacity = "0.75" if ghost else None
    if star:
        pts = []
        for i in range(10):
            r = 14.5 if i % 2 == 0 else 7
            a = -math.pi / 2 + i * math.pi / 5
            pts.append(f"{x + r * math.cos(a):.1f},{y + 1 + r * math.sin(a):.1f}")
        s.add("polygon", points=" ".join(pts), fill=colour, stroke="#ffffff", stroke_width="2",
              stroke_linejoin="round", opacity=opacity, class_=None if key else "unit-" + kind)
        s.add("polygon", points=" ".join(pts), fill="none", stroke=INK, stroke_width="0.8",
              stroke_linejoin="round", opacity=opacity)
        s.text(x, y + 5, kind, 10.5, fill="#ffffff", font_weight="bold")
    else:
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="10", fill=colour, stroke="#ffffff",
              stroke_width="2", opacity=opacity, class_=None if key else "unit-" + kind)
        s.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="10", fill="none", stroke=INK,
              stroke_width="0.8", opacity=opacity)
        s.text(x, y + 4.2, kind, 11.5, fill="#ffffff", font_weight="bold")


def small_star(s: SvgWriter, x: float, y: float) -> None:
    """A small grey star (the key's held piece)."""
    pts = []
    for i in range(10):
        r = 7.5 if i % 2 == 0 else 3.6
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{x + r * math.cos(a):.1f},{y + 0.6 + r * math.sin(a):.1f}")
    s.add("polygon", points=" ".join(pts), fill="#666666")


def power_colour(game_map: GameMap, power: str | None) -> str:
    if power and power in game_map.powers and game_map.powers[power].colour:
        return game_map.powers[power].colour
    return "#555555"
