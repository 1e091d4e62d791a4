"""PNG output through cairosvg (which needs the system library libcairo2).

Pictures of a board go through the layer cache of :mod:`mobadj.render.raster` (fast: the
board is rasterised once); any other SVG is converted whole.
"""

from __future__ import annotations

from typing import Any

from mobadj.render.ink import Style
from mobadj.render.layout import Layout


class PngUnavailableError(RuntimeError):
    """cairosvg or libcairo2 is missing; the message says how to install them."""


def _cairosvg() -> Any:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: cairosvg found but libcairo2 is not
        raise PngUnavailableError(
            "PNG output needs cairosvg and the system library libcairo2 "
            "(pip install cairosvg; apt-get install libcairo2); write .svg instead"
        ) from exc
    return cairosvg


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Convert an SVG document to PNG bytes (``scale`` 0.5 halves each side).

    A document that :func:`mobadj.render.svg.render_svg` returned lately in this process is
    drawn from the cached board layers (the same picture, in a fraction of the time).
    """
    cairosvg = _cairosvg()
    from mobadj.render.svg import recall
    inputs = recall(svg)
    if inputs is not None:
        game_map, layout, view, title, style = inputs
        png = _fast(game_map, layout, view, title, style, scale)
        if png is not None:
            return png
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def render_png(game_map: Any, layout: Layout, position: object = None, *,
               scale: float = 1.0, title: str | None = None,
               style: Style | None = None) -> bytes:
    """:func:`mobadj.render.svg.render_svg` as PNG bytes, drawn from the cached layers."""
    from mobadj.render.position import as_view
    from mobadj.render.svg import draw_svg
    cairosvg = _cairosvg()
    view = as_view(game_map, position)
    png = _fast(game_map, layout, view, title, style, scale)
    if png is not None:
        return png
    svg = draw_svg(game_map, layout, view, title=title, style=style)
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def _fast(game_map: Any, layout: Layout, view: Any, title: str | None,
          style: Style | None, scale: float) -> bytes | None:
    from mobadj.render.raster import raster_png
    return raster_png(game_map, layout, view, title=title, style=style, scale=scale)
