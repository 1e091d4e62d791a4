"""PNG output through cairosvg (which needs the system library libcairo2)."""

from __future__ import annotations

from typing import Any

from mobadj.render.layout import Layout


class PngUnavailableError(RuntimeError):
    """cairosvg or libcairo2 is missing; the message says how to install them."""


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Convert an SVG document to PNG bytes (``scale`` 0.5 halves each side)."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: cairosvg found but libcairo2 is not
        raise PngUnavailableError(
            "PNG output needs cairosvg and the system library libcairo2 "
            "(pip install cairosvg; apt-get install libcairo2); write .svg instead"
        ) from exc
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def render_png(game_map: Any, layout: Layout, position: object = None, *,
               scale: float = 1.0, title: str | None = None) -> bytes:
    """:func:`mobadj.render.svg.render_svg` as PNG bytes."""
    from mobadj.render.svg import render_svg
    return svg_to_png(render_svg(game_map, layout, position, title=title), scale=scale)
