"""Picture benchmark (run by hand: ``.venv/bin/python bench/render_bench.py``).

Times the Mobtown II board as PNG, for the start position and a mid-game position with 33
units, 7 move arrows and 3 supports (tests/render/data/position.yaml):

* *full conversion*: cairosvg converting the whole board SVG (how every PNG was made before
  the layer cache, and still the fallback);
* *cold*: the first picture with an empty disk cache (every layer drawn and stored);
* *disk*: the first picture of a new process whose disk cache is filled;
* *warm*: every later picture (median), through ``render_png`` and through the judge's
  ``render_svg`` + ``svg_to_png``.

Wall-clock and CPU seconds; prints JSON, or with ``--markdown`` a table for
docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
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
from mobadj.render import load_layout, raster, render_png, render_svg, svg_to_png  # noqa: E402


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
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="render-bench-")
    os.environ["MOBADJ_RENDER_CACHE"] = cache
    try:
        rows, load = measure(args.runs)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if args.markdown:
        print(f"Load average {load:.1f}; median of {args.runs} runs for the warm figures.\n")
        print("| picture | wall | CPU | PNG size |")
        print("|---|---|---|---|")
        for what, wall, cpu, size in rows:
            kb = f"{size / 1024:.0f} KB" if size else ""
            print(f"| {what} | {wall:.3f} s | {cpu:.3f} s | {kb} |")
    else:
        print(json.dumps({"load_average": round(load, 1), "rows": [
            {"what": w, "wall_s": round(a, 3), "cpu_s": round(c, 3), "bytes": s}
            for w, a, c, s in rows]}, indent=1))


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
    row("cold: first picture, empty disk cache", lambda: render_png(gm, layout, mid))
    raster._BOARDS.clear()
    row("disk: first picture of a new process", lambda: render_png(gm, layout, mid))
    row("warm: render_png, start position", lambda: render_png(gm, layout), runs)
    row("warm: render_png, mid-game", lambda: render_png(gm, layout, mid), runs)
    row("warm: render_svg + svg_to_png (the judge), mid-game",
        lambda: svg_to_png(render_svg(gm, layout, mid)), runs)
    row("warm: render_png, mid-game, full colour",
        lambda: render_png(gm, layout, mid, palette=False), runs)
    return rows, os.getloadavg()[0]


if __name__ == "__main__":
    main()
