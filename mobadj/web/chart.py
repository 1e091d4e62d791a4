"""The supply-centre chart: one line per power over the game's phases, as a small SVG drawn
here (a plotting library would be a large dependency for a few polylines), and the same
numbers as a table beside it.

Read without colour vision: every power has its own dash pattern and marker shape, its name
at its line's end, and a colour darkened where needed to stand out 3:1 against the chart's
white (its name, which is text, 4.5:1).  Powers with the same count at a phase (seven
powers at 3 in 1901) are drawn side by side there, as strands of a bundle, so none hides
another.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from mobadj.web.story import Power, Step, Story

PLOT_W, H = 540, 250  # the plot's width; the names at the lines' ends are added to it
LEFT, TOP, BOTTOM = 30, 12, 26
CHAR_W = 8.0  # px: a character of a power's name (12 px, bold) at most
STRAND = 2.6  # px between the strands of powers tied at a count
#: dash patterns and marker shapes, one of each per power in the map's order
DASHES = ("", "8 3", "2 2.5", "10 3 2 3", "5 5", "1 4", "12 3 2 3 2 3")
MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus", "cross", "star")
MIN_CONTRAST = 3.0  # against white: WCAG's least for graphics
TEXT_CONTRAST = 4.5  # against white: WCAG's least for text of this size (the names)


@dataclass(frozen=True)
class Line:
    """How a power's line is drawn."""

    id: str
    name: str
    colour: str
    dash: str
    marker: str
    text: str  # the colour of its name: darker where needed, as text must be


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(colour: str, against: str = "#ffffff") -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours."""
    a, b = _luminance(_rgb(colour)), _luminance(_rgb(against))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def _rgb(colour: str) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        return (0.33, 0.33, 0.33)  # not a colour this chart reads: grey
    try:
        return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)
    except ValueError:
        return (0.33, 0.33, 0.33)


def readable(colour: str, least: float = MIN_CONTRAST) -> str:
    """``colour``, darkened (same hue) until it stands out ``least`` to 1 on white."""
    h, lightness, s = colorsys.rgb_to_hls(*_rgb(colour))
    while True:
        rgb = colorsys.hls_to_rgb(h, lightness, s)
        out = "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
        if contrast(out) >= least or lightness <= 0:
            return out
        lightness = max(0.0, lightness - 0.02)


def lines(powers: list[Power]) -> list[Line]:
    return [Line(p.id, p.name, readable(p.colour), DASHES[i % len(DASHES)],
                 MARKERS[i % len(MARKERS)], readable(p.colour, TEXT_CONTRAST))
            for i, p in enumerate(powers)]


def marker(shape: str, x: float, y: float, colour: str, r: float = 3.6) -> str:
    """One marker, filled white inside the power's colour (it reads on any line)."""
    paint = f'fill="#fff" stroke="{colour}" stroke-width="1.6"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.9:.1f}" {paint}/>'
    if shape == "square":
        s = r * 0.8
        return f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" ' \
               f'height="{2 * s:.1f}" {paint}/>'
    shapes: dict[str, list[tuple[float, float]]] = {
        "triangle": [(0, -1.1), (1, 0.7), (-1, 0.7)],
        "down": [(0, 1.1), (1, -0.7), (-1, -0.7)],
        "diamond": [(0, -1.15), (1, 0), (0, 1.15), (-1, 0)],
        "plus": [(-.35, -1), (.35, -1), (.35, -.35), (1, -.35), (1, .35), (.35, .35),
                 (.35, 1), (-.35, 1), (-.35, .35), (-1, .35), (-1, -.35), (-.35, -.35)],
        "cross": [(-.75, -1), (0, -.3), (.75, -1), (1, -.75), (.3, 0), (1, .75), (.75, 1),
                  (0, .3), (-.75, 1), (-1, .75), (-.3, 0), (-1, -.75)],
        "star": [(math.sin(a * math.pi / 5) * (1.15 if a % 2 == 0 else 0.5),
                  -math.cos(a * math.pi / 5) * (1.15 if a % 2 == 0 else 0.5))
                 for a in range(10)],
    }
    pts = " ".join(f"{x + dx * r:.1f},{y + dy * r:.1f}" for dx, dy in shapes[shape])
    return f'<polygon points="{pts}" {paint}/>'


def key(line: Line) -> Markup:
    """A power's line in small (its dash and marker), for the table's heading."""
    dash = f' stroke-dasharray="{line.dash}"' if line.dash else ""
    return Markup(f'<svg class="key" viewBox="0 0 34 12" width="34" height="12" '
                  f'aria-hidden="true"><line x1="1" x2="33" y1="6" y2="6" '
                  f'stroke="{line.colour}" stroke-width="2.2"{dash}/>'
                  f'{marker(line.marker, 17, 6, line.colour)}</svg>')


def _strands(counts: list[dict[str, int]], ids: list[str]) -> list[dict[str, float]]:
    """Per step, each power's offset from its count's height: 0 alone, else its place in
    the bundle of powers with the same count (in the map's order)."""
    out = []
    for c in counts:
        at: dict[int, list[str]] = {}
        for pid in ids:
            at.setdefault(c.get(pid, 0), []).append(pid)
        out.append({pid: (tied.index(pid) - (len(tied) - 1) / 2) * STRAND
                    for tied in at.values() for pid in tied})
    return out


def _spread(ys: list[tuple[float, str]], low: float, high: float, gap: float = 13.5
            ) -> dict[str, float]:
    """Label heights near ``ys`` at least ``gap`` apart, within [low, high]."""
    ys = sorted(ys)
    placed: list[float] = []
    for y, _ in ys:
        placed.append(max(y, placed[-1] + gap) if placed else y)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:  # pushed past the bottom: shift up, keeping the gaps
        placed = [p - overflow for p in placed]
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    return {pid: max(p, low) for p, (_, pid) in zip(placed, ys, strict=True)}


def center_chart(story: Story, current: int | None = None) -> str:
    """Inline SVG: centres per power at each step; a marker at step ``current``."""
    steps = story.steps
    if not story.board or not steps:
        return ""
    counts = [s.centers for s in steps]
    top = max([n for c in counts for n in c.values()] + [4])
    n = len(steps)
    styles = lines(story.powers)
    right = 16 + CHAR_W * max([len(s.name) for s in styles] + [4])
    W = round(LEFT + PLOT_W + right)  # noqa: N806 - the chart's width, as the constants
    pw, ph = PLOT_W, H - TOP - BOTTOM
    offsets = _strands(counts, [s.id for s in styles])

    def x(i: int) -> float:
        return LEFT + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v: float) -> float:
        return TOP + ph - ph * v / top

    out = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" '
           f'xmlns="http://www.w3.org/2000/svg" aria-labelledby="chart-title">',
           '<title id="chart-title">Supply centres of each power, phase by phase (the '
           'numbers are in the table beside)</title>']
    tick = max(1, round(top / 4))
    for v in range(0, top + 1, tick):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + PLOT_W}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'class="grid"/><text x="{LEFT - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{v}</text>')
    starts = [(i, s.group) for i, s in enumerate(steps)
              if s.group and (i == 0 or steps[i - 1].group != s.group)]
    every = max(1, math.ceil(len(starts) / 8))  # at most eight labels under the axis
    for j, (i, group) in enumerate(starts):
        if j % every == 0:
            first, *rest = group.split()  # "July 1919" -> "Jul 1919"; "1901" stays
            label = " ".join([first[:3], *rest]) if rest else group
            anchor = "start" if i == 0 and n > 1 else "middle"
            out.append(f'<text x="{x(i) - (4 if i == 0 else 0):.1f}" y="{H - 8}" '
                       f'text-anchor="{anchor}">{escape(label)}</text>')
    if current is not None and 0 <= current < n:
        out.append(f'<line x1="{x(current):.1f}" x2="{x(current):.1f}" y1="{TOP}" '
                   f'y2="{TOP + ph}" class="now"/>')
    # markers: about ten per line, staggered so that no two powers have theirs at one step
    stride = max(len(styles), math.ceil(n / 10))
    ends: list[tuple[float, str]] = []
    for k, line in enumerate(styles):
        pts = [(x(i), y(c.get(line.id, 0)) + offsets[i][line.id])
               for i, c in enumerate(counts)]
        dash = f' stroke-dasharray="{line.dash}"' if line.dash else ""
        out.append(f'<g class="power" data-power="{escape(line.id)}"><title>'
                   f'{escape(line.name)}</title>')
        out.append('<polyline points="' + " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
                   + f'" fill="none" stroke="{line.colour}" stroke-width="2"{dash}/>')
        for i, (px, py) in enumerate(pts):
            if (i + k) % stride == 0 or i == n - 1:
                out.append(marker(line.marker, px, py, line.colour))
        out.append("</g>")
        ends.append((pts[-1][1], line.id))
    label_at = _spread(ends, TOP + 4, TOP + ph + 4)
    by_id = {s.id: s for s in styles}
    for end_y, pid in ends:
        line = by_id[pid]
        ly = label_at[pid]
        out.append(f'<line x1="{LEFT + PLOT_W + 3}" x2="{LEFT + PLOT_W + 9}" y1="{end_y:.1f}" '
                   f'y2="{ly:.1f}" stroke="{line.colour}" stroke-width="1"/>'
                   f'<text class="end" x="{LEFT + PLOT_W + 11}" y="{ly + 4:.1f}" '
                   f'fill="{line.text}">{escape(line.name)}</text>')
    out.append("</svg>")
    return "".join(out)


def _owners(step: Step) -> dict[str, list[str]]:
    """Who owns which centre at the start of ``step``."""
    centers = (step.position or {}).get("centers") or {}
    return {p: sorted(c) for p, c in centers.items() if c}


def center_table(story: Story, current: int | None = None) -> dict[str, object]:
    """The chart's numbers: a row for the first step, for each step whose centres' owners
    differ from the step before's (the first after centres changed owner: a winter, Mobtown's week 2
    and 4 adjustments, rule 6) and for the last; the same rows on every page (``current``
    is marked where it is one); each power's key for the heading."""
    steps = story.steps
    if not story.board or not steps:
        return {"powers": [], "rows": []}
    owners = [_owners(s) for s in steps]
    picks = [i for i, o in enumerate(owners) if i == 0 or o != owners[i - 1]]
    if len(steps) - 1 not in picks:
        picks.append(len(steps) - 1)
    styles = lines(story.powers)
    rows = []
    for i in picks:
        s = steps[i]
        counts = s.centers
        rows.append({"label": f"{s.short} {s.group}" if s.group else s.label, "id": s.id,
                     "current": i == current,
                     "counts": [counts.get(line.id, 0) for line in styles]})
    return {"powers": [{"name": line.name, "key": key(line)} for line in styles],
            "rows": rows}
