"""The map of a step: the position at the start of the phase with its orders drawn (solid
arrows for moves that succeeded, dashed for those that failed; supports as lines; units
built and removed, convoy routes), through the renderer every other front end uses
(:mod:`mobadj.render`)."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

import yaml

from mobadj.web.story import Step

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.render import Layout

log = logging.getLogger("mobadj.web")


@functools.lru_cache(maxsize=8)
def _board(kind: str) -> tuple[GameMap, Layout]:
    from mobadj.judge.hosts import DiplomacyHost, host_for
    from mobadj.render import load_layout

    host = host_for(kind)
    if not isinstance(host, DiplomacyHost):
        raise LookupError(f"a game of {kind} has no map")
    game_map = host.game_map
    return game_map, load_layout(game_map.name)


@functools.lru_cache(maxsize=32)
def can_draw(kind: str) -> bool:
    """Is there a layout to draw this map with here? (Asked once per kind: the log says why
    not.)"""
    try:
        _board(kind)
    except (ImportError, OSError, ValueError, LookupError, yaml.YAMLError) as exc:
        # no renderer, no layout for this map, not a map game: the pages go without maps
        log.info("%s: the pages go without pictures: %s", kind, exc)
        return False
    return True


@functools.lru_cache(maxsize=32)
def size(kind: str) -> tuple[int, int]:
    """The map's picture in pixels (width, height): the page keeps its room before it
    comes, and its zoom knows the picture's own size."""
    from mobadj.render import Style, page_size

    w, h = page_size(_board(kind)[1], Style())
    return round(w), round(h)


def step_svg(kind: str, step: Step, title: str, names: dict[str, str] | None = None) -> str:
    """The SVG picture of a step (``ViewError`` if the stored position cannot be drawn);
    ``names``: what the game calls its powers (the key shows them)."""
    from mobadj.render import render_svg, results_view

    game_map, layout = _board(kind)
    drawn = [{"power": o.power, "order": o.order, "result": o.result} for o in step.orders]
    view = results_view(game_map, step.position or None, drawn, names)
    return render_svg(game_map, layout, view, title=title)
