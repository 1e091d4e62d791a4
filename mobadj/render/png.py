"""PNG output through cairosvg (which needs the system library libcairo2).

Pictures of a board go through the layer cache of :mod:`mobadj.render.raster` (fast: the
board is rasterised once) and come out as 256-colour PNGs (a third of the size, the same to
the eye; ``palette=False`` keeps full colour); any other SVG is converted whole, as it is.
"""

from __future__ import annotations

import logging
from typing import Any

from mobadj.board import GameMap
from mobadj.errors import RenderError
from mobadj.render.ink import Style
from mobadj.render.layout import Layout

_log = logging.getLogger(__name__)


class PngUnavailableError(RenderError, RuntimeError):
    """cairosvg or libcairo2 is missing; the message says how to install them."""


PNG_EXTRA = ("PNG pictures need the optional render extra: pip install 'mobadj[render]' "
             "(with the system library libcairo2); or write .svg")
PNG_CAIRO = ("PNG pictures need the system library libcairo2 (e.g. apt-get install "
             "libcairo2), which the render extra's cairosvg draws with; or write .svg")


def _cairosvg() -> Any:
    try:
        import cairosvg
    except ImportError as exc:  # the render extra is not installed
        raise PngUnavailableError(PNG_EXTRA) from exc
    except OSError as exc:  # cairosvg is, but libcairo2 is not
        raise PngUnavailableError(PNG_CAIRO) from exc
    return cairosvg


def svg_to_png(svg: str, scale: float = 1.0, *, palette: bool = True) -> bytes:
    """Convert an SVG document to PNG bytes (``scale`` 0.5 halves each side).

    A board picture that :func:`mobadj.render.svg.render_svg` returned lately in this
    process is drawn from the cached board layers (the same picture in a fraction of the
    time) and, with ``palette``, in 256 colours.  Any other SVG is converted as it is.
    """
    cairosvg = _cairosvg()
    from mobadj.render.svg import recall
    inputs = recall(svg)
    if inputs is not None:
        game_map, layout, view, title, style = inputs
        return _board_png(game_map, layout, view, title, style, scale, palette)
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def render_png(game_map: GameMap, layout: Layout, position: object = None, *,
               scale: float = 1.0, title: str | None = None,
               style: Style | None = None, palette: bool = True) -> bytes:
    """:func:`mobadj.render.svg.render_svg` as PNG bytes, drawn from the cached layers;
    ``palette``: 256 colours (see :func:`mobadj.render.raster.encode_png`)."""
    from mobadj.render.position import as_view
    _cairosvg()
    return _board_png(game_map, layout, as_view(game_map, position), title, style, scale,
                      palette)


def _board_png(game_map: GameMap, layout: Layout, view: Any, title: str | None,
               style: Style | None, scale: float, palette: bool) -> bytes:
    import cairosvg

    from mobadj.render.raster import encode_png, raster_png
    from mobadj.render.svg import draw_svg
    try:
        png = raster_png(game_map, layout, view, title=title, style=style, scale=scale,
                         palette=palette)
    except Exception:  # the cache is an optimisation: a fault in it must not cost the picture
        _log.warning("board layers failed; converting the whole picture", exc_info=True)
        png = None
    if png is not None:
        return png
    # a view the layers cannot draw (see raster_png), or a fault: convert the whole picture
    svg = draw_svg(game_map, layout, view, title=title, style=style)
    if not palette:
        return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"))
    return encode_png(cairosvg.surface.PNGSurface(tree, None, 96, scale=scale).cairo)
