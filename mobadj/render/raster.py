"""Fast PNG pictures: the board is rasterised once, each position only adds its overlay.

Converting the whole board SVG with cairosvg takes seconds (hundreds of text labels), too
slow for a judge that mails a picture after every phase.  Almost all of it never changes, so
the picture is built from layers (see :func:`mobadj.render.svg.draw_svg`):

1. *base*: the board with no centre owned (spaces, water, highways, junctions, route lines,
   labels, the key), rasterised once per (map, layout, style, scale);
2. *tints*: for each mob, the supply-centre spaces drawn as if that mob owned them all
   (tinted fill, label halos, coloured centre disc), rasterised once per mob; each centre a
   mob owns is copied from its tint, clipped to the centre's own area;
3. *overlay*: title, units, arrows, supports and the mobs' counts, drawn by cairosvg straight
   onto that surface (a few dozen elements: fast).

The result matches the full conversion (``tests/render/test_raster.py`` compares pixels).
Layers are kept in memory and on disk (raw pixels, zlib-compressed), named by a hash of
the map, the layout, the style, the scale, the drawing code and cairosvg's version, so a
change to any of them never reuses a stale layer.
The cache directory is ``$MOBADJ_RENDER_CACHE`` (``off`` disables it), else
``$XDG_CACHE_HOME/mobadj/render`` or ``~/.cache/mobadj/render``; a cache that cannot be
written is simply not used.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import struct
import sys
import tempfile
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mobadj.board import GameMap
from mobadj.diskcache import cache_directory
from mobadj.render.ink import Style
from mobadj.render.layout import Layout
from mobadj.render.position import BoardView
from mobadj.render.svg import draw_svg, near_spaces, space_outlines

_log = logging.getLogger(__name__)

_MEMORY_BOARDS = 4  # boards (map, layout, style, scale) kept in memory, each ~10 MB per layer


@dataclass
class _Board:
    """The cached layers of one board at one scale."""

    base: Any = None  # cairocffi.ImageSurface
    tints: dict[str, Any] = field(default_factory=dict)  # power id -> ImageSurface
    outlines: dict[str, list[list[tuple[float, float]]]] = field(default_factory=dict)
    size: tuple[int, int] = (0, 0)


_BOARDS: OrderedDict[tuple, _Board] = OrderedDict()
_LOCK = threading.Lock()


def cache_dir() -> Path | None:
    """Where layers are kept between runs, or None when the disk cache is off."""
    return cache_directory("MOBADJ_RENDER_CACHE", "render")


def ownable(game_map: GameMap) -> frozenset[str]:
    """Spaces whose look depends on an owner: the supply centres."""
    return frozenset(sid for sid, p in game_map.provinces.items() if p.supply_center)


def fingerprint(game_map: GameMap, layout: Layout, style: Style, scale: float) -> tuple:
    """Everything the static layers depend on, as a hashable key (content, not identity:
    the judge loads the layout afresh for every phase)."""
    text = repr((game_map.name, game_map.title, game_map.unit_kinds,
                 sorted(game_map.provinces.items()), list(game_map.powers.items()),
                 layout, style))
    return (hashlib.sha256(text.encode("utf-8")).hexdigest(), float(scale))


def raster_png(game_map: GameMap, layout: Layout, view: BoardView, *, title: str | None = None,
               style: Style | None = None, scale: float = 1.0,
               palette: bool = True) -> bytes | None:
    """The PNG of ``view`` from the cached layers, or None when this view cannot be drawn
    that way (an owned space that is no supply centre: the caller converts the full SVG).
    ``palette``: see :func:`encode_png`."""
    import cairocffi as cairo

    style = style or Style()
    owned = {sid: p for sid, p in view.centers.items() if p in game_map.powers}
    if not set(owned) <= ownable(game_map):
        return None
    board = _board(game_map, layout, style, scale, set(owned.values()))
    width, height = board.size
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    ctx = cairo.Context(surface)
    ctx.set_source_surface(board.base, 0, 0)
    ctx.paint()
    for power in sorted(set(owned.values())):
        ctx.save()
        ctx.scale(scale, scale)
        for sid, owner in owned.items():
            if owner == power:
                for poly in board.outlines.get(sid, ()):
                    ctx.move_to(*poly[0])
                    for pt in poly[1:]:
                        ctx.line_to(*pt)
                    ctx.close_path()
        ctx.identity_matrix()
        ctx.clip()
        ctx.set_source_surface(board.tints[power], 0, 0)
        ctx.paint()
        ctx.restore()
    overlay = draw_svg(game_map, layout, view, title=title, style=style, part="overlay")
    _draw_onto(surface, overlay, scale)
    return encode_png(surface, palette=palette)


def encode_png(surface: Any, *, palette: bool = True) -> bytes:
    """PNG bytes of an opaque cairo surface.  With ``palette`` the picture is reduced to 256
    colours (the board has a few dozen flat colours plus anti-aliased edges; the difference
    cannot be seen), which makes the file about a third the size and quicker to write: it
    goes to every player by mail after every phase."""
    out = io.BytesIO()
    try:
        from PIL import Image
    except ImportError:  # Pillow comes with cairosvg; without it, full colour
        palette = False
    if not palette:
        surface.write_to_png(out)
        return out.getvalue()
    surface.flush()
    raw = "BGRX" if sys.byteorder == "little" else "XRGB"  # cairo ARGB32 is native-endian
    image = Image.frombuffer("RGB", (surface.get_width(), surface.get_height()),
                             bytes(surface.get_data()), "raw", raw, surface.get_stride(), 1)
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, "PNG")
    return out.getvalue()


def warm(game_map: GameMap, layout: Layout, *, style: Style | None = None,
         scale: float = 1.0) -> None:
    """Build (or load) every layer of this board now, e.g. when a judge starts."""
    _board(game_map, layout, style or Style(), scale, set(game_map.powers))


def _board(game_map: GameMap, layout: Layout, style: Style, scale: float,
           powers: set[str]) -> _Board:
    key = fingerprint(game_map, layout, style, scale)
    with _LOCK:
        board = _BOARDS.get(key)
        if board is None:
            board = _Board(outlines=space_outlines(layout, style))
            board.base = _layer(key, "base", scale, lambda: draw_svg(
                game_map, layout, BoardView(), style=style, part="base"))
            board.size = (board.base.get_width(), board.base.get_height())
            _BOARDS[key] = board
            while len(_BOARDS) > _MEMORY_BOARDS:
                _BOARDS.popitem(last=False)
        _BOARDS.move_to_end(key)
        centers = ownable(game_map)
        for power in sorted(powers - set(board.tints)):
            def tint(power: str = power) -> str:
                view = BoardView(centers={sid: power for sid in centers})
                near = near_spaces(game_map, layout, style, centers)
                return draw_svg(game_map, layout, view, style=style, part="tint", only=near)
            board.tints[power] = _layer(key, f"tint-{power}", scale, tint)
        return board


_CODE_VERSION: list[str] = []


def code_version() -> str:
    """A hash of the drawing code and of cairosvg's version: a layer stored by other code
    is never reused."""
    if not _CODE_VERSION:
        import cairocffi
        import cairosvg
        digest = hashlib.sha256(f"{cairosvg.__version__} {cairocffi.cairo_version()}".encode())
        for path in sorted(Path(__file__).parent.glob("*.py")):
            digest.update(path.read_bytes())
        _CODE_VERSION.append(digest.hexdigest())
    return _CODE_VERSION[0]


_MAGIC = b"mobadj-raster 1\n"
_HEADER = struct.Struct(">III")  # width, height, stride


def _layer(key: tuple, name: str, scale: float, make_svg: Callable[[], str]) -> Any:
    """The raster of one layer: from the disk cache, else drawn by cairosvg (and stored).
    Files hold the raw pixels, zlib-compressed: loading them is much quicker than a PNG."""
    import cairosvg

    folder = cache_dir()
    path = None
    if folder is not None:
        digest = hashlib.sha256(f"{key} {name} {code_version()}".encode()).hexdigest()[:40]
        path = folder / f"{digest}.raster"
        surface = _load(path)
        if surface is not None:
            return surface
    tree = cairosvg.parser.Tree(bytestring=make_svg().encode("utf-8"))
    surface = cairosvg.surface.PNGSurface(tree, None, 96, scale=scale).cairo
    if path is not None:
        _store(surface, path)
    return surface


def _load(path: Path) -> Any:
    import cairocffi as cairo

    try:
        blob = path.read_bytes()
        os.utime(path)  # most recently used: kept by _prune
    except OSError:
        return None
    head = len(_MAGIC) + _HEADER.size
    if not blob.startswith(_MAGIC) or len(blob) < head:
        return None  # not ours or damaged: drawn again
    width, height, stride = _HEADER.unpack_from(blob, len(_MAGIC))
    try:
        data = bytearray(zlib.decompress(blob[head:]))
    except zlib.error:
        return None
    if len(data) != stride * height or stride != cairo.ImageSurface.format_stride_for_width(
            cairo.FORMAT_ARGB32, width):
        return None
    return cairo.ImageSurface.create_for_data(data, cairo.FORMAT_ARGB32, width, height, stride)


def _store(surface: Any, path: Path) -> None:
    surface.flush()
    blob = (_MAGIC + _HEADER.pack(surface.get_width(), surface.get_height(),
                                  surface.get_stride())
            + zlib.compress(bytes(surface.get_data()), 1))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
        _prune(path.parent)
    except OSError as exc:  # read-only or full disk: the cache is only a cache
        _log.info("board layers not cached in %s: %s", path.parent, exc)


_DISK_LAYERS = 96  # ~25 MB: a few boards at a few scales, across code and map versions


def _prune(folder: Path) -> None:
    """Keep the most recently used layers only (loading one touches it)."""
    files = sorted(folder.glob("*.raster"), key=lambda f: f.stat().st_mtime, reverse=True)
    for old in files[_DISK_LAYERS:]:
        old.unlink(missing_ok=True)


def _draw_onto(surface: Any, svg: str, scale: float) -> None:
    """Let cairosvg draw ``svg`` over what ``surface`` already holds."""
    import cairosvg

    class _Over(cairosvg.surface.PNGSurface):
        def _create_surface(self, width: float, height: float) -> tuple:
            return surface, surface.get_width(), surface.get_height()

    _Over(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, 96, scale=scale)
