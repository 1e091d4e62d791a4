"""The legend under the board: each mob with its centres and units, and a key to the symbols."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from mobadj.board import GameMap
from mobadj.render.ink import (
    BLOCKED,
    BORDER,
    COAST,
    INK,
    LAND,
    ROAD_CASING,
    ROAD_FILL,
    STOP,
    TERRAIN_FILL,
    Style,
    SvgWriter,
    marker_id,
    small_star,
    text_width,
    unit_glyph,
)
from mobadj.render.layout import Layout
from mobadj.render.marks import mark_symbol, marks_of
from mobadj.render.position import BoardView

if TYPE_CHECKING:
    from mobadj.engine import Rules

_COL_W = 272
STRADDLE_KEY = "#d8c3df"  # a pale straddling space in the key (its owner tints it on the board)


def draw_legend(s: SvgWriter, game_map: GameMap, view: BoardView, style: Style,
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
        _mob_lines(s, game_map, view, x, top, layout)
        _mark_keys(s, game_map, view, x, top, layout)
    if part != "mobs":
        _key(s, game_map, style, x, top, h, layout)


def _mob_lines(s: SvgWriter, game_map: GameMap, view: BoardView, x: float, top: float,
               layout: Layout | None = None) -> None:
    counts: dict[str, int] = {}
    for owner in view.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    col_w = _COL_W
    leader = layout.leader if layout is not None else ""
    row_h = 34 if len(game_map.powers) <= 6 else 28  # a third row keeps off the footnote
    for i, (pid, power) in enumerate(game_map.powers.items()):
        cx = x + 12 + (i % 3) * col_w
        cy = top + 30 + (i // 3) * row_h
        kind = next(iter(game_map.unit_kinds), "")
        unit_glyph(s, kind, cx, cy, power.colour or "#555555", star=kind == leader, key=True)
        name, size = fit_text(view.names.get(pid) or power.name, 12.0, col_w - 30)
        s.text(cx + 17, cy - 1.5, name, size, text_anchor="start", font_weight="bold",
               class_="mob-name", data_power=pid)
        count, size = fit_text(f"{counts.get(pid, 0)} centres, "
                               f"{unit_count(game_map, view, pid, layout)}", 10.5, col_w - 30, 9.5)
        s.text(cx + 17, cy + 11, count, size, text_anchor="start", class_="mob-count",
               data_power=pid)


def unit_count(game_map: GameMap, view: BoardView, power: str,
               layout: Layout | None = None) -> str:
    """The units a mob's centres must pay for, said so a GM can compare them with its
    centres: on a map whose layout names a leader (a kind that costs no centre), the
    fighting units counted and the leader named apart ("7 Gangs + Don", "+ Don (captive)"
    when another mob holds him)."""
    kinds = game_map.unit_kinds
    leader = layout.leader if layout is not None else ""
    if leader not in kinds:
        n = sum(1 for u in view.units if u.power == power)
        return f"{n} unit{'' if n == 1 else 's'}"
    n = sum(1 for u in view.units if u.power == power and u.kind != leader)
    n += sum(1 for d in view.dislodged if d.unit.power == power and d.unit.kind != leader)
    word = next((name for kind, name in kinds.items() if kind != leader), "unit")
    text = f"{n} {word}{'' if n == 1 else 's'}"
    led = [u for u in view.units if u.power == power and u.kind == leader]
    if led:
        held = layout.held if layout is not None else None
        text += f" + {kinds[leader]}" + (f" ({held.words[0]})" if led[0].held and held else "")
    return text


def fit_text(text: str, size: float, room: float, smallest: float = 10.0) -> tuple[str, float]:
    """``text`` at the largest size down to ``smallest`` that fits ``room`` pixels, else
    shortened with an ellipsis at ``smallest``."""
    while size > smallest and text_width(text, size) > room:
        size = max(smallest, size - 0.5)
    if text_width(text, size) <= room:
        return text, size
    while len(text) > 1 and text_width(text + "\u2026", size) > room:
        text = text[:-1]
    return text.rstrip() + "\u2026", size


#: the key's words where the layout gives none (its ``legend`` gives its own)
KEY_WORDS = {
    "centre": "supply centre", "home": "home centre",
    "terrain:water": "water", "terrain:sea": "sea (fleets only)",
    "road": "road: a border to cross", "straddle": "{name}: both sides, no crossing",
    "junction": "junction: joins its two ends", "line": "line number, at both stops",
    "diag": "four spaces meet: diagonal move", "blocked": "impassable",
    "coast": "split coast: F SPA/NC", "ok": "move succeeded", "fail": "move failed",
    "sup": "support (cut: broken)", "dis": "dislodged unit",
    "convoy": "convoy: the army's route, its fleets ringed", "build": "unit built",
    "removal": "unit removed",
}


def key_items(game_map: GameMap, layout: Layout | None) -> list[tuple[str, str]]:
    """The symbols this map and layout use, each with its explanation: the layout's words
    (its ``legend``) or the core's (:data:`KEY_WORDS`, a unit kind's name from the map)."""
    words = layout.legend if layout is not None else {}

    def said(key: str, default: str | None = None) -> tuple[str, str]:
        return key, words.get(key) or (KEY_WORDS[key] if default is None else default)

    terrains = {p.terrain for p in game_map.provinces.values()}
    items = [said(f"unit:{kind}", name) for kind, name in game_map.unit_kinds.items()]
    items += [said("centre"), said("home")]
    drawn = ["water", "sea"] + [k.partition(":")[2] for k in words if k.startswith("terrain:")]
    drawn += list(layout.terrains) if layout is not None else []
    for terrain in dict.fromkeys(drawn):
        if terrain in terrains:
            key = f"terrain:{terrain}"
            items.append(said(key, KEY_WORDS.get(key, terrain)))
    if layout is not None:
        if layout.roads:
            items.append(said("road"))
        for sid in layout.straddle:  # a space that lies on both sides of its road
            prov = game_map.provinces.get(sid)
            key, text = said("straddle")
            items.append((key, text.replace("{name}", prov.name if prov else sid)))
        if layout.junctions:
            items.append(said("junction"))
        if layout.lines is not None and layout.links:
            items.append(said(f"stop:{layout.line_mark(game_map.routes)}", layout.lines.key))
            items.append(said("line"))
        if layout.is_grid and layout.diagonals:
            items.append(said("diag"))
        if layout.names:
            items.append(said("blocked"))
        if layout.coasts:
            items.append(said("coast"))
    items += [said("ok"), said("fail")]
    if layout is not None and layout.lines is not None and layout.links:
        items.append(said(f"route-move:{layout.line_mark(game_map.routes)}",
                          layout.lines.move_key))
    items += [said("sup"), said("dis")]
    if layout is not None and layout.held is not None and layout.held.kind in game_map.unit_kinds:
        items.append(said("held", f"held {game_map.unit_kinds[layout.held.kind]}"))
    return items


def _key(s: SvgWriter, game_map: GameMap, style: Style, x: float, top: float, h: float,
         layout: Layout | None) -> None:
    s.text(x + 3 * _COL_W + 12, top + 6, "Key", 13, text_anchor="start", font_weight="bold")
    for i, (key, text) in enumerate(key_items(game_map, layout)):
        ix, iy = _key_place(x, top, i)
        key_symbol(s, key, ix + 12, iy, layout)
        s.text(ix + 30, iy + 4, text, 11, text_anchor="start")
    s.text(style.margin, h - 10, _rules(game_map).picture_note or game_map.title, 9.5,
           text_anchor="start", fill="#7a7060", font_style="italic")


def _key_place(x: float, top: float, i: int) -> tuple[float, float]:
    """Where the key's ``i``-th symbol stands: five to a column."""
    per_col = 5
    return x + 3 * _COL_W + 12 + (i // per_col) * 226, top + 22 + (i % per_col) * 18.5


def _mark_keys(s: SvgWriter, game_map: GameMap, view: BoardView, x: float, top: float,
               layout: Layout | None) -> None:
    """The key's lines for the marks the picture has (a convoy's route, a unit built or
    removed), after the key's fixed symbols: they change with the position, so they are
    drawn with it (in the overlay of the cached layers)."""
    keys = marks_of(view)
    if not keys:
        return
    words = layout.legend if layout is not None else {}
    first = len(key_items(game_map, layout))
    for i, key in enumerate(keys, first):
        ix, iy = _key_place(x, top, i)
        mark_symbol(s, key, ix + 12, iy)
        s.text(ix + 30, iy + 4, words.get(key) or KEY_WORDS[key], 11, text_anchor="start")


def _rules(game_map: GameMap) -> type[Rules]:
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


def key_symbol(s: SvgWriter, key: str, x: float, y: float, layout: Layout | None = None) -> None:
    """One symbol of the key, centred on (x, y); a terrain as the layout draws it."""
    if key.startswith("unit:"):
        unit_glyph(s, key[5:], x, y, "#666666", key=True,
                   star=layout is not None and key[5:] == layout.leader)
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
    elif key.startswith("terrain:"):  # a patch of it, its overlay pattern over it
        terrain = key.partition(":")[2]
        look = layout.terrains.get(terrain) if layout is not None else None
        s.add("rect", x=f"{x - 11}", y=f"{y - 7}", width="22", height="14",
              fill=look.fill if look is not None and look.fill else TERRAIN_FILL.get(terrain, LAND),
              stroke=BORDER)
        if look is not None and look.pattern:
            s.add("rect", x=f"{x - 11}", y=f"{y - 7}", width="22", height="14",
                  fill=f"url(#{look.pattern})", opacity=look.opacity)
    elif key == "road":
        s.add("line", x1=f"{x - 12}", y1=f"{y}", x2=f"{x + 12}", y2=f"{y}",
              stroke=ROAD_CASING, stroke_width="9")
        s.add("line", x1=f"{x - 12}", y1=f"{y}", x2=f"{x + 12}", y2=f"{y}",
              stroke=ROAD_FILL, stroke_width="5")
    elif key == "straddle":  # the road sunk into the space that straddles it
        for x0, x1 in ((x - 13, x - 6), (x + 6, x + 13)):
            s.add("line", x1=f"{x0}", y1=f"{y}", x2=f"{x1}", y2=f"{y}", stroke=ROAD_CASING,
                  stroke_width="9")
            s.add("line", x1=f"{x0}", y1=f"{y}", x2=f"{x1}", y2=f"{y}", stroke=ROAD_FILL,
                  stroke_width="5")
        s.add("rect", x=f"{x - 6}", y=f"{y - 7}", width="12", height="14", fill=STRADDLE_KEY,
              stroke=BORDER, stroke_width="0.8")
        s.add("line", x1=f"{x - 6}", y1=f"{y}", x2=f"{x + 6}", y2=f"{y}", stroke=ROAD_FILL,
              stroke_width="3", stroke_dasharray="4 2")
    elif key == "junction":  # a highway with a crossing over it, as on the board
        s.add("line", x1=f"{x}", y1=f"{y - 9}", x2=f"{x}", y2=f"{y + 9}",
              stroke=ROAD_CASING, stroke_width="9")
        s.add("line", x1=f"{x}", y1=f"{y - 9}", x2=f"{x}", y2=f"{y + 9}",
              stroke=ROAD_FILL, stroke_width="5")
        for width, colour, dash in ((10, INK, None), (6.4, "#ffffff", None),
                                    (6.4, INK, "1.6 2.4")):
            s.add("line", x1=f"{x - 8}", y1=f"{y}", x2=f"{x + 8}", y2=f"{y}",
                  stroke=colour, stroke_width=f"{width}", stroke_dasharray=dash,
                  stroke_linecap=None if dash else "round")
    elif key == "line":
        s.add("line", x1=f"{x - 14}", y1=f"{y}", x2=f"{x + 14}", y2=f"{y}", stroke=STOP,
              stroke_width="2.4", stroke_dasharray="7 4")
        s.add("rect", x=f"{x - 7}", y=f"{y - 6}", width="14", height="12", rx="3", fill=STOP,
              stroke="#ffffff", stroke_width="1")
        s.text(x, y + 3, "5", 9, fill="#ffffff", font_weight="bold")
    elif key.startswith("route-move:"):  # a move by the variant's route kind: its mark
        s.add("line", x1=f"{x - 14}", y1=f"{y}", x2=f"{x + 10}", y2=f"{y}", stroke="#555555",
              stroke_width="3.2", marker_end=f"url(#{marker_id('#555555')})")
        s.add("rect", x=f"{x - 8}", y=f"{y - 6}", width="12", height="12", rx="2",
              fill="#555555", stroke="#ffffff", stroke_width="1.2")
        s.text(x - 2, y + 3.4, key.partition(":")[2], 9.5, fill="#ffffff", font_weight="bold")
    elif key.startswith("stop:"):  # a stop of the variant's route lines: its mark
        s.add("rect", x=f"{x - 7}", y=f"{y - 7}", width="14", height="14", rx="2.5", fill=STOP)
        s.text(x, y + 4.3, key.partition(":")[2], 11.5, fill="#ffffff", font_weight="bold")
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
    elif key == "held":
        s.add("circle", cx=f"{x}", cy=f"{y}", r="9.5", fill="#ffffff", stroke=INK,
              stroke_width="1.6", stroke_dasharray="3 2")
        small_star(s, x, y)
    elif key == "dis":
        s.add("circle", cx=f"{x}", cy=f"{y}", r="9", fill="#ffffff", stroke="#d32f2f",
              stroke_width="2", stroke_dasharray="4 2.5")
