"""The supply-centre chart: one line per power over the game's phases, as a small SVG drawn
here (a plotting library would be a large dependency for a few polylines)."""

from __future__ import annotations

import math
from html import escape

from mobadj.web.story import Story

W, H = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 12, 12, 26


def centre_chart(story: Story, current: int | None = None) -> str:
    """Inline SVG: centres per power at each step; a marker at step ``current``."""
    steps = story.steps
    if not story.board or not steps:
        return ""
    counts = [s.centres for s in steps]
    top = max([n for c in counts for n in c.values()] + [1])
    top = max(top, 4)
    n = len(steps)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v: float) -> float:
        return TOP + ph - ph * v / top

    out = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" '
           f'xmlns="http://www.w3.org/2000/svg" aria-labelledby="chart-title">',
           '<title id="chart-title">Supply centres of each power, phase by phase</title>']
    tick = max(1, round(top / 4))
    for v in range(0, top + 1, tick):
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'class="grid"/><text x="{LEFT - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{v}</text>')
    starts = [(i, s.group) for i, s in enumerate(steps)
              if s.group and (i == 0 or steps[i - 1].group != s.group)]
    every = max(1, math.ceil(len(starts) / 10))  # at most ten labels under the axis
    for j, (i, group) in enumerate(starts):
        if j % every == 0:
            first, *rest = group.split()  # "July 1919" -> "Jul 1919"; "1901" stays
            label = " ".join([first[:3], *rest]) if rest else group
            out.append(f'<text x="{x(i):.1f}" y="{H - 8}" text-anchor="middle">'
                       f'{escape(label)}</text>')
    if current is not None and 0 <= current < n:
        out.append(f'<line x1="{x(current):.1f}" x2="{x(current):.1f}" y1="{TOP}" '
                   f'y2="{TOP + ph}" class="now"/>')
    for p in story.powers:
        pts = " ".join(f"{x(i):.1f},{y(c.get(p.id, 0)):.1f}" for i, c in enumerate(counts))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{escape(p.colour)}" '
                   f'stroke-width="2.2"><title>{escape(p.name)}</title></polyline>')
    out.append("</svg>")
    return "".join(out)
