"""Picture benchmark (run by hand: ``.venv/bin/python bench/render_bench.py``).

Times the Mobtown II board as PNG, for the start position and a mid-game position with 33
units, 7 move arrows and 3 supports (tests/render/data/position.yaml), and the standard map:

* *full conversion*: cairosvg converting the whole board SVG (how every PNG was made before
  the layer cache, and still the fallback);
* *cold*: the first picture with an empty disk cache (every layer drawn and stored);
* *disk*: the first picture of a new process whose disk cache is filled;
* *warm*: every later picture (median), through ``render_png`` and through the judge's
  ``render_svg`` + ``svg_to_png``.

Wall-clock and CPU seconds; prints JSON, or with ``--markdown`` a table; ``--write``
replaces the "Rendering" section of docs/performance.md (and nothing else in that file).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cairosvg  # noqa: E402
import yaml  # noqa: E402

from mobadj.board.loader import load_map  # noqa: E402
from mobadj.render import (  # noqa: E402
    load_layout,
    placement,
    raster,
    render_png,
    render_svg,
    svg_to_png,
)


def timed(fn, runs: int = 1) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``runs`` calls, and the last result."""
    walls, cpus, out = [], [], None
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of the warm figures")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--write", action="store_true",
                        help="replace the Rendering section of docs/performance.md")
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="render-bench-")
    os.environ["MOBADJ_RENDER_CACHE"] = cache
    try:
        rows, load = measure(args.runs)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if args.write:
        write_section(rows, load, args.runs)
    if args.markdown or args.write:
        print(table(rows, load, args.runs))
    else:
        print(json.dumps({"load_average": round(load, 1), "rows": [
            {"what": w, "wall_s": round(a, 3), "cpu_s": round(c, 3), "bytes": s}
            for w, a, c, s in rows]}, indent=1))


def table(rows: list[tuple[str, float, float, int | None]], load: float, runs: int) -> str:
    lines = [f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
             f"{platform.python_version()}, load average {load:.1f}; warm figures are the "
             f"median of {runs} runs.", "",
             "| picture | wall | CPU | PNG size |", "|---|---|---|---|"]
    for what, wall, cpu, size in rows:
        kb = f"{size / 1024:.0f} KB" if size else ""
        lines.append(f"| {what} | {wall:.3f} s | {cpu:.3f} s | {kb} |")
    return "\n".join(lines)


SECTION = """## Rendering

Measured by `bench/render_bench.py --write` (this section only; the rest of the file is
`make bench`'s).  The Mobtown II board as PNG at scale 1 (1952 x 1314 pixels), start
position and a mid-game position with 33 units, 7 move arrows and 3 supports; the standard
map (1824 x 1650 pixels) at its start.  Every process also lays out the labels and routes
the subway lines once (`mobadj.render.placement`, about 0.3 s for Mobtown II), which the
*cold* and *disk* rows include.

{table}

Before: every PNG was the cairosvg conversion of the whole board SVG (first row: about 530
text elements, pattern fills), and a Mobtown II phase with PNG mail-out took 6.5 s in
`bench/judge_bench.py` (target 2 s); with the layers it took 1.28 s (0.49 s adjudication,
results and pictures; 0.79 s SMTP; docs/performance-judge.md has today's figure).

Now (`mobadj/render/raster.py`): the board without owners (spaces, water, highways,
junctions, subways, labels, key) is rasterised once per map, layout, style and scale, and
for each mob the supply centres as that mob's (tinted fill, label halos, coloured disc).  A
picture copies the base, pastes each owned centre from its mob's tint clipped to the
centre's cells, and has cairosvg draw only the overlay (title, units, arrows, supports, the
mobs' counts) onto it.  The result matches the full conversion pixel for pixel except a few
dozen halo pixels where an owned centre's label reaches over its border
(`tests/render/test_raster.py` compares them).  The judge's `render_svg` + `svg_to_png`
takes the same path: `svg_to_png` recognises documents `render_svg` returned in the process.

- *cold* is paid once per machine (or after the map, the layout or the drawing code
  changes): layers are stored under `~/.cache/mobadj/render` (`$MOBADJ_RENDER_CACHE`;
  `off` disables it) as zlib-compressed raw pixels, named by a hash of everything they
  depend on.  `mobadj.render.raster.warm(map, layout)` builds them ahead of time.
- Board PNGs are written with a 256-colour palette: a third of the size (it is mailed to
  every player after every phase) and quicker to encode; no pixel moves by more than a
  quarter of the scale and the eye sees no difference.  `palette=False` keeps full colour.
- Memory: about 10 MB per layer at scale 1 (base + one tint per mob), at most 4 boards.
"""


def write_section(rows: list[tuple[str, float, float, int | None]], load: float,
                  runs: int) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    start = text.find("\n## Rendering")
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + (text[end:] if end >= 0 else "\n")
    section = SECTION.format(table=table(rows, load, runs))
    path.write_text(text.rstrip("\n") + "\n\n" + section, encoding="utf-8")


def measure(runs: int) -> tuple[list[tuple[str, float, float, int | None]], float]:
    """The figures, with the disk cache the caller set up."""
    gm, layout = load_map("mobtown2"), load_layout("mobtown2")
    mid = yaml.safe_load((ROOT / "tests/render/data/position.yaml").read_text(encoding="utf-8"))
    rows: list[tuple[str, float, float, int | None]] = []

    def row(what: str, fn, runs: int = 1) -> None:
        wall, cpu, out = timed(fn, runs)
        rows.append((what, wall, cpu, len(out) if isinstance(out, bytes) else None))

    svg_mid = render_svg(gm, layout, mid)
    row("full conversion (cairosvg), mid-game", lambda: cairosvg.svg2png(
        bytestring=svg_mid.encode("utf-8")), 3)
    placement._CACHE.clear()  # a new process lays the board out afresh
    row("cold: first picture, empty disk cache", lambda: render_png(gm, layout, mid))
    raster._BOARDS.clear()
    placement._CACHE.clear()
    row("disk: first picture of a new process", lambda: render_png(gm, layout, mid))
    row("warm: render_png, start position", lambda: render_png(gm, layout), runs)
    row("warm: render_png, mid-game", lambda: render_png(gm, layout, mid), runs)
    row("warm: render_svg + svg_to_png (the judge), mid-game",
        lambda: svg_to_png(render_svg(gm, layout, mid)), runs)
    row("warm: render_png, mid-game, full colour",
        lambda: render_png(gm, layout, mid, palette=False), runs)
    std, std_layout = load_map("standard"), load_layout("standard")
    svg_std = render_svg(std, std_layout)
    row("standard map: full conversion (cairosvg), start", lambda: cairosvg.svg2png(
        bytestring=svg_std.encode("utf-8")), 3)
    row("standard map: cold, empty disk cache", lambda: render_png(std, std_layout))
    row("standard map: warm, start position", lambda: render_png(std, std_layout), runs)
    return rows, os.getloadavg()[0]


if __name__ == "__main__":
    main()
