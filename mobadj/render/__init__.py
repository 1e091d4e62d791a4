"""Pictures of a board and a position: SVG (:func:`render_svg`) and PNG (:func:`render_png`)."""

from mobadj.render.layout import Layout, LayoutError, load_layout
from mobadj.render.plan import adjacency_yaml, plan_differences
from mobadj.render.png import PngUnavailableError, render_png, svg_to_png
from mobadj.render.position import (
    BoardView,
    ViewError,
    as_view,
    moves_from_results,
    supports_from_results,
)
from mobadj.render.svg import render_svg

__all__ = [
    "BoardView",
    "Layout",
    "LayoutError",
    "PngUnavailableError",
    "ViewError",
    "adjacency_yaml",
    "as_view",
    "load_layout",
    "moves_from_results",
    "plan_differences",
    "render_png",
    "render_svg",
    "supports_from_results",
    "svg_to_png",
]
