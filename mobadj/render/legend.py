"""The legend under the board: each mob with its centres and units, and a key to the symbols."""

from __future__ import annotations

import logging
from typing import Any

from mobadj.render.ink import (
    BLOCKED,
    BORDER,
    COAST,
    GAOL,
    HIGHWAY_CASING,
    HIGHWAY_FILL,
    INK,
    SUBWAY,
    WATER,
    Style,
    SvgWriter,
    marker_id,
    small_don,
    unit_glyph,
)
from mobadj.render.layout import Layout
from mobadj.render.position import BoardView

_COL_W = 272
STRADDLE_KEY = "#d8c3df"  # a pale straddling space in the key (its owner tints it on the board)


def draw_legend(s: SvgWriter, game_map: Any, view: BoardView, style: Style,
                w: float, h: float, part: str = "all", layout: Layout | None = None) -> None:
    """Mobs (colour, centres owned, units) on the left; the key to every symbol on the right.

    ``part`` "mobs" draws only the lines that change with the position (each mob's counts),
    "key" only the rest; "all" both.
    """
    top = h - style.margin - style.legend_h + 14
    x = style.margin
    if part != "mobs":
        s.text(x, top + 6, _rules(game_map).power_word, 13,
               text_anchor="start", font_weight="bold")
    if part != "key":
        _mob_lines(s, game_map, view, x, top)
    if part != "mobs":
        _key(s, game_map, style, x, top, h, layout)


def _mob_lines(s: SvgWriter, game_map: Any, view: BoardView, x: float, top: float) -> None:
    counts: dict[str, int] = {}
    for owner in view.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    col_w = _COL_W
    for i, (pid, power) in enumerate(game_map.powers.items()):
        cx = x + 12 + (i % 3) * col_w
        cy = top + 26 + (i // 3) * 30
        unit_glyph(s, next(iter(game_map.unit_kinds), "G"), cx, cy, power.colour or "#555555",
                   key=True)
        units = sum(1 for u in view.units if u.power == pid and not u.captive)
        label = f"{power.name}  ({counts.get(pid, 0)} centres, {units} units)"
        s.text(cx + 17, cy + 4.5, label, 12, text_anchor="start")


def key_items(game_map: Any, layout: Layout | None) -> list[tuple[str, str]]:
    """The symbols this map and layout use, each with its explanation."""
    terrains = {p.terrain for p in game_map.provinces.values()}
    items = [(f"unit:{kind}", "Don (boss)" if kind == "D" else name)
             for kind, name in game_map.unit_kinds.items()]
    items += [("centre", "supply centre"), ("home", "home centre")]
    if "water" in terrains:
        items.append(("water", "water (Gangs swim)"))
    if "sea" in terrains:
        items.append(("water", "sea (fleets only)"))
    if "gaol" in terrains:
        items.append(("gaol", "MTPD (gaol)"))
    if layout is not None:
        if layout.highways:
            items.append(("highway", "highway: cross with +1 support"))
        for sid in layout.straddle:  # rule 4: Queens lies on both sides of its highway
            prov = game_map.provinces.get(sid)
            items.append(("straddle", f"{prov.name if prov else sid}: both sides, no crossing"))
        if layout.junctions:
            items.append(("junction", "junction: free crossing"))
        if layout.subways:
            items.append(("subway", "subway: order G(X)-U-Y"))
        if layout.is_grid and layout.diagonals:
            items.append(("diag", "four spaces meet: diagonal move"))
        if layout.names:
            items.append(("blocked", "impassable"))
        if layout.coasts:
            items.append(("coast", "split coast: F SPA/NC"))
    items += [("ok", "move succeeded"), ("fail", "move failed"),
              ("sup", "support (cut: broken)"), ("dis", "dislodged unit")]
    if "D" in game_map.unit_kinds:
        items.append(("cap", "captured Don"))
    return items


def _key(s: SvgWriter, game_map: Any, style: Style, x: float, top: float, h: float,
         layout: Layout | None) -> None:
    kx = x + 3 * _COL_W + 12
    s.text(kx, top + 6, "Key", 13, text_anchor="start", font_weight="bold")
    items = key_items(game_map, layout)
    per_col = 5
    for i, (key, text) in enumerate(items):
        ix = kx + (i // per_col) * 226
        iy = top + 22 + (i % per_col) * 18.5
        key_symbol(s, key, ix + 12, iy)
        s.text(ix + 30, iy + 4, text, 11, text_anchor="start")
    s.text(style.margin, h - 10, _rules(game_map).picture_note or game_map.title, 9.5,
           text_anchor="start", fill="#7a7060", font_style="italic")


def _rules(game_map: Any) -> Any:
    """The rules class of the map (its legend heading and footnote), from the registry; the
    standard rules for a map object the registry does not know."""
    from mobadj.engine import Rules, VariantError, rules_class

    try:
        return rules_class(game_map)
    except VariantError as exc:  # drawn anyway, with the standard words
        logging.getLogger("mobadj.render").warning("%s", exc)
        return Rules
    except AttributeError:  # not a loaded map (a test's stand-in): the standard words
        return Rules


def key_symbol(s: SvgWriter, key: str, x: float, y: float) -> None:
    """One symbol of the key, centred on (x, y)."""
    if key.startswith("unit:"):
        unit_glyph(s, key[5:], x, y, "#666666", key=True)
    elif key == "blocked":
        s.add("rect", x=f"{x - 11}", y=f"{y - 7}", width="22", height="14", fill=BLOCKED,
              stroke=BORDER)
    elif key == "coast":
        s.add("rect", x=f"{x - 10}", y=f"{y - 6.5}", width="20", height="13", rx="6.5",
              fill="#ffffff", stroke=COAST, stroke_width="1.2")
        s.text(x, y + 3, "NC", 8.5, fill=COAST, font_weight="bold")
    elif key in ("centre", "home"):
        if key == "home":
            s.add("circle", cx=f"{x}", cy=f"{y}", r="7.5", fill="none", stroke=INK,
                  stroke_width="1.2")
        s.add("circle", cx=f"{x}", cy=f"{y}", r="5.2", fill="#ffffff", stroke=INK,
              stroke_width="1.5")
    elif key in ("water", "gaol"):
        s.add("rect", x=f"{x - 11}", y=f"{y - 7}", width="22", height="14",
              fill=WATER if key == "water" else GAOL, stroke=BORDER)
        if key == "gaol":
            s.add("rect", x=f"{x - 11}", y=f"{y - 7}", width="22", height="14", fill="url(#bars)",
                  opacity="0.55")
    elif key == "highway":
        s.add("line", x1=f"{x - 12}", y1=f"{y}", x2=f"{x + 12}", y2=f"{y}",
              stroke=HIGHWAY_CASING, stroke_width="9")
        s.add("line", x1=f"{x - 12}", y1=f"{y}", x2=f"{x + 12}", y2=f"{y}",
              stroke=HIGHWAY_FILL, stroke_width="5")
    elif key == "straddle":  # the road sunk into the space that straddles it
        for x0, x1 in ((x - 13, x - 6), (x + 6, x + 13)):
            s.add("line", x1=f"{x0}", y1=f"{y}", x2=f"{x1}", y2=f"{y}", stroke=HIGHWAY_CASING,
                  stroke_width="9")
            s.add("line", x1=f"{x0}", y1=f"{y}", x2=f"{x1}", y2=f"{y}", stroke=HIGHWAY_FILL,
                  stroke_width="5")
        s.add("rect", x=f"{x - 6}", y=f"{y - 7}", width="12", height="14", fill=STRADDLE_KEY,
              stroke=BORDER, stroke_width="0.8")
        s.add("line", x1=f"{x - 6}", y1=f"{y}", x2=f"{x + 6}", y2=f"{y}", stroke=HIGHWAY_FILL,
              stroke_width="3", stroke_dasharray="4 2")
    elif key == "junction":
        s.add("circle", cx=f"{x}", cy=f"{y}", r="7", fill="#ffffff", stroke=INK,
              stroke_width="2.2")
        s.add("circle", cx=f"{x}", cy=f"{y}", r="2.6", fill=INK)
    elif key == "subway":
        s.add("rect", x=f"{x - 7}", y=f"{y - 7}", width="14", height="14", rx="2.5", fill=SUBWAY)
        s.text(x, y + 4.3, "U", 11.5, fill="#ffffff", font_weight="bold")
    elif key == "diag":
        s.add("circle", cx=f"{x}", cy=f"{y}", r="4.2", fill=INK, stroke="#ffffff",
              stroke_width="1.2")
    elif key in ("ok", "fail"):
        s.add("line", x1=f"{x - 14}", y1=f"{y}", x2=f"{x + 10}", y2=f"{y}", stroke="#555555",
              stroke_width="3.2", stroke_dasharray="6 4" if key == "fail" else None,
              marker_end=f"url(#{marker_id('#555555')})")
    elif key == "sup":
        s.add("line", x1=f"{x - 14}", y1=f"{y}", x2=f"{x + 10}", y2=f"{y}", stroke="#555555",
              stroke_width="2.4", stroke_dasharray="1.5 4", stroke_linecap="round")
        s.add("circle", cx=f"{x + 10}", cy=f"{y}", r="3.4", fill="#555555")
    elif key == "cap":
        s.add("circle", cx=f"{x}", cy=f"{y}", r="9.5", fill="#ffffff", stroke=INK,
              stroke_width="1.6", stroke_dasharray="3 2")
        small_don(s, x, y)
    elif key == "dis":
        s.add("circle", cx=f"{x}", cy=f"{y}", r="9", fill="#ffffff", stroke="#d32f2f",
              stroke_width="2", stroke_dasharray="4 2.5")
