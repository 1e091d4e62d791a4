"""Pictures of a board and a position: SVG (:func:`render_svg`) and PNG (:func:`render_png`)."""

from mobadj.render.ink import Style
from mobadj.render.layout import Layout, LayoutError, load_layout
from mobadj.render.plan import adjacency_yaml, plan_differences
from mobadj.render.png import PngUnavailableError, render_png, svg_to_png
from mobadj.render.position import (
    BoardView,
    ViewError,
    as_view,
    marks_from_results,
    moves_from_results,
    results_view,
    supports_from_results,
)
from mobadj.render.svg import page_size, render_svg

__all__ = [
    "BoardView",
    "Layout",
    "LayoutError",
    "PngUnavailableError",
    "Style",
    "ViewError",
    "adjacency_yaml",
    "as_view",
    "load_layout",
    "marks_from_results",
    "moves_from_results",
    "page_size",
    "plan_differences",
    "render_png",
    "render_svg",
    "results_view",
    "supports_from_results",
    "svg_to_png",
]
