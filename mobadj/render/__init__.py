"""Pictures of a board and a position: SVG (:func:`render_svg`) and PNG (:func:`render_png`)."""

from mobadj.render.layout import Layout, LayoutError, load_layout
from mobadj.render.png import render_png, svg_to_png
from mobadj.render.position import BoardView, ViewError, as_view
from mobadj.render.svg import render_svg

__all__ = ["BoardView", "Layout", "LayoutError", "ViewError", "as_view", "load_layout",
           "render_png", "render_svg", "svg_to_png"]
