"""Reading a drawn picture back as a person sees it: where its names, markers, lines, arrow
heads and tags are (pixels), measured from the SVG itself."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from mobadj.render.ink import text_width
from mobadj.render.placement import ASCENT, DESCENT, Box

NS = "{http://www.w3.org/2000/svg}"
#: the arrow head of a move (mobadj.render.ink.write_defs: a 10-unit triangle, refX 7,
#: markerWidth 3.6 on a 3.6 px stroke): reach beyond the line's end, back along it, half width
HEAD = (3.9, 9.1, 6.5)


def text_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """Box of every abbreviation, name line, centre disc, subway stop and subway line tag."""
    out = []
    for el in root.iter(f"{NS}text"):
        cls = el.get("class")
        if cls not in ("abbr", "name"):
            continue
        x, y, size = float(el.get("x")), float(el.get("y")), float(el.get("font-size"))
        w = text_width(el.text, size, bold=cls == "abbr")
        out.append((el.text, Box(x - w / 2, y - ASCENT * size, x + w / 2, y + DESCENT * size)))
    for el in root.iter(f"{NS}circle"):
        if el.get("class") == "centre":
            x, y = float(el.get("cx")), float(el.get("cy"))
            out.append(("centre", Box(x - 7.5, y - 7.5, x + 7.5, y + 7.5)))
    for el in root.iter(f"{NS}rect"):
        if el.get("class") in ("station", "line-tag"):
            x, y = float(el.get("x")), float(el.get("y"))
            w, h = float(el.get("width")), float(el.get("height"))
            what = "station" if el.get("class") == "station" else f"line {el.get('data-line')}"
            out.append((f"{what} {el.get('data-space')}", Box(x, y, x + w, y + h)))
    return out


def marker_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """What each unit, captive and dislodged marker covers."""
    out = []
    for g in root.iter(f"{NS}g"):
        if g.get("class") not in ("unit", "dislodged"):
            continue
        xs, ys = [], []
        for el in g:
            if el.tag == f"{NS}circle":
                x, y, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
                xs += [x - r - 1, x + r + 1]
                ys += [y - r - 1, y + r + 1]
            elif el.tag == f"{NS}polygon":
                pts = [tuple(map(float, p.split(","))) for p in el.get("points").split()]
                xs += [p[0] for p in pts]
                ys += [p[1] for p in pts]
        out.append((f"{g.get('class')} {g.get('data-space')}", Box(min(xs), min(ys),
                                                                    max(xs), max(ys))))
    return out


def path_points(d: str, step: float = 2.0) -> list[tuple[float, float]]:
    """The points of an SVG path (absolute M, L and Q commands) every ``step`` pixels."""
    out: list[tuple[float, float]] = []
    for cmd, args in re.findall(r"([MLQ])([^MLQ]*)", d):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if cmd == "M":
            out.append((nums[0], nums[1]))
        elif cmd == "L":
            for x, y in zip(nums[::2], nums[1::2], strict=True):
                p = out[-1]
                n = max(1, math.ceil(math.hypot(x - p[0], y - p[1]) / step))
                out += [(p[0] + (x - p[0]) * k / n, p[1] + (y - p[1]) * k / n)
                        for k in range(1, n + 1)]
        else:
            (ax, ay), (cx, cy, bx, by) = out[-1], nums
            n = max(2, math.ceil((math.hypot(cx - ax, cy - ay) + math.hypot(bx - cx, by - cy))
                                 / step))
            for k in range(1, n + 1):
                t = k / n
                u = 1 - t
                out.append((u * u * ax + 2 * u * t * cx + t * t * bx,
                            u * u * ay + 2 * u * t * cy + t * t * by))
    return out


def lines(root: ET.Element, *classes: str) -> list[tuple[ET.Element, list[tuple[float, float]]]]:
    """The paths of the given classes with their points."""
    return [(el, path_points(el.get("d"))) for el in root.iter(f"{NS}path")
            if el.get("class") in classes]


def head(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The corners and edge middles of the arrow head at the end of a line."""
    (px, py), (ex, ey) = points[-2], points[-1]
    n = math.hypot(ex - px, ey - py) or 1.0
    ux, uy = (ex - px) / n, (ey - py) / n
    tip_d, back_d, half = HEAD
    tip = (ex + ux * tip_d, ey + uy * tip_d)
    bx, by = ex - ux * back_d, ey - uy * back_d
    left, right = (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)
    return [tip, left, right, ((tip[0] + left[0]) / 2, (tip[1] + left[1]) / 2),
            ((tip[0] + right[0]) / 2, (tip[1] + right[1]) / 2), (bx, by)]


def tag_boxes(root: ET.Element, cls: str) -> list[Box]:
    out = []
    for el in root.iter(f"{NS}rect"):
        if el.get("class") == cls:
            x, y = float(el.get("x")), float(el.get("y"))
            out.append(Box(x, y, x + float(el.get("width")), y + float(el.get("height"))))
    return out


def crossings(pts: list[tuple[float, float]], boxes: list[tuple[str, Box]]) -> list[str]:
    """What of ``boxes`` the polyline ``pts`` passes through."""
    from mobadj.render.placement import polyline_hits

    span = Box(min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts),
               max(y for _, y in pts))
    return [what for what, box in boxes if box.overlaps(span) and polyline_hits(pts, box)]
