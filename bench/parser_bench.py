"""Order-reading benchmark (``make bench``; by hand: ``.venv/bin/python bench/parser_bench.py``).

Lines per second and the slowest line, for what GMs really get:

* *everyday orders*: readable orders of random positions, in the spellings players use;
* *the fuzz corpus*: the 100,000 seeded lines of tests/orders/test_fuzz.py (good, mutated
  and noise lines, mobadj.orders.corpus), read as one file and one line at a time;
* *the worst lines*: long, repetitive lines built to be slow (a word repeated to the line
  cap, hundreds of stray words, brackets, separators), each the best of three runs;
* *``mobadj batch``*: the fuzz corpus as the orders of 5,000 phases, in a new process.

Times are CPU seconds of this process (so they hold on a busy machine), except the batch's
wall clock.  Every text is read on a fresh parser (its caches empty), and the garbage
collector is paused while a single line is timed.  Prints a table; ``--write``
replaces the "Reading orders" section of docs/performance.md (and nothing else in it).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mobadj.board.loader import load_map  # noqa: E402
from mobadj.orders.corpus import batch_cases, fuzz_lines, good_lines  # noqa: E402
from mobadj.orders.errors import OrderError  # noqa: E402
from mobadj.orders.parser import MAX_LINE, OrderParser, parse_orders  # noqa: E402

SEED = 20261125  # the fuzz test's seed
COUNT = 100_000

WORST = {
    "one province repeated to the cap (`A PAR - BUR BUR ...`)": "A PAR - " + "BUR " * 300,
    "stray words after a unit (`A PAR BUR BUR ...`)": "A PAR " + "BUR " * 300,
    "unit types only (`A A A ...`)": "A " * 600,
    "arrows only (`A PAR - - - ...`)": "A PAR " + "- " * 600,
    "supports of supports (`A PAR S A S A ...`)": "A PAR " + "S A " * 300,
    "a name's beginning repeated (`A Bohem Bohem ...`)": "A " + "Bohem " * 200,
    "hyphenated names (`F Mid-Mid-...`)": "F " + "Mid-" * 300,
    "coasts in brackets (`F SPA(nc)(nc)...`)": "F SPA" + "(nc)" * 300,
    "unit groups (`A PAR & A PAR & ...`)": "A PAR " + "& A PAR " * 150 + "H",
    "abbreviations with stops (`A St. St. ...`)": "A " + "St. " * 300,
    "bad orders by the hundred (`A X1 H, A X2 H, ...`)": ", ".join(f"A X{i} H" for i in range(200)),
    "brackets (`A PAR - BUR (((...`)": "A PAR - BUR " + "(" * 1000,
    "spaces (`A` ... `B`)": "A" + " " * 998 + "B",
    "accented letters (`A PAR ééé...`)": "A PAR " + "é" * 1000,
}
"""Lines built to be slow, cut to the longest line read (:data:`MAX_LINE`)."""
WORST = {what: line[:MAX_LINE].rstrip() for what, line in WORST.items()}
WORST["a 1 MB line (not read: too long)"] = "A PAR - " + "BUR " * 250_000


def fresh(parser: OrderParser) -> OrderParser:
    """``parser`` with its caches emptied (the grammar, built once per map, is kept)."""
    parser._cache.clear()
    parser._accepts_cache.clear()
    parser.builder._suggestions.clear()
    parser.game_map._lookup_cache.clear()
    return parser


def per_line(parser: OrderParser, lines: list[str]) -> tuple[float, float, str]:
    """Lines per second through the single-order API, the slowest line's time and text."""
    clock = time.process_time
    slowest, slow_text = 0.0, ""
    gc.collect()
    gc.disable()
    try:
        start = clock()
        for line in lines:
            t0 = clock()
            with contextlib.suppress(OrderError):
                parser.parse_group(line)
            took = clock() - t0
            if took > slowest:
                slowest, slow_text = took, line
        total = clock() - start
    finally:
        gc.enable()
    return len(lines) / total, slowest, slow_text


def whole_file(game_map, parser: OrderParser, lines: list[str]) -> float:
    """Lines per second through ``parse_orders`` (one file)."""
    text = "\n".join(lines)
    t0 = time.process_time()
    parse_orders(text, game_map, parser=parser)
    return len(lines) / (time.process_time() - t0)


def worst_lines(parser: OrderParser) -> list[tuple[str, float, int]]:
    """Each worst line: best of three on a fresh parser, with its length."""
    out = []
    for what, line in WORST.items():
        best = 1e9
        for _ in range(3):
            fresh(parser)
            gc.collect()
            gc.disable()
            t0 = time.process_time()
            parse_orders(line, parser.game_map, parser=parser)
            best = min(best, time.process_time() - t0)
            gc.enable()
        out.append((what, best, len(line)))
    return out


def batch_run(game_map, lines: list[str]) -> tuple[float, float, int]:
    """``mobadj batch`` over the corpus as orders: wall seconds, CPU seconds, phases."""
    cases = batch_cases(game_map, SEED, lines, per_case=20)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in cases))
        before = os.times()
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mobadj", "batch", str(path)], check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                          - before.children_system)
    return wall, cpu, len(cases)


def measure() -> dict:
    game_map = load_map("standard")
    parser = OrderParser(game_map)
    load = os.getloadavg()[0]
    everyday = good_lines(game_map, random.Random(SEED), 50_000)
    corpus = fuzz_lines(game_map, SEED, COUNT)
    figures: dict = {"load": load}
    figures["everyday_file"] = whole_file(game_map, fresh(parser), everyday)
    figures["everyday_line"] = per_line(fresh(parser), everyday)
    figures["fuzz_file"] = whole_file(game_map, fresh(parser), corpus)
    figures["fuzz_line"] = per_line(fresh(parser), corpus)
    figures["worst"] = worst_lines(parser)
    figures["batch"] = batch_run(game_map, corpus)
    figures["load_end"] = os.getloadavg()[0]
    return figures


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def _shown(text: str) -> str:
    shown = repr(text[:70] + ("..." if len(text) > 70 else ""))
    return "`" + shown.replace("`", "'").replace("|", "\\|") + "`"


def table(f: dict) -> str:
    rate_e, slow_e, text_e = f["everyday_line"]
    rate_f, slow_f, text_f = f["fuzz_line"]
    wall, cpu, phases = f["batch"]
    rows = [
        ("everyday orders, one file (`parse_orders`, 50,000 lines)",
         f"{f['everyday_file']:,.0f} lines/s"),
        ("everyday orders, one at a time: rate / slowest line",
         f"{rate_e:,.0f} lines/s / {_ms(slow_e)} ({_shown(text_e)})"),
        (f"fuzz corpus, one file ({COUNT:,} lines)", f"{f['fuzz_file']:,.0f} lines/s"),
        ("fuzz corpus, one at a time: rate / slowest line",
         f"{rate_f:,.0f} lines/s / {_ms(slow_f)} ({_shown(text_f)})"),
        (f"`mobadj batch`, the fuzz corpus as {phases:,} phases (start-up included)",
         f"{COUNT / wall:,.0f} order lines/s ({wall:.1f} s wall, {cpu:.1f} s CPU)"),
    ]
    worst = max(f["worst"], key=lambda w: w[1])
    rows.append(("the worst line below", f"{_ms(worst[1])} ({worst[0]})"))
    lines = [f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
             f"load average {f['load']:.1f} at the start and {f['load_end']:.1f} at the end.", "",
             "| measurement | figure |", "|---|---|"]
    lines += [f"| {a} | {b} |" for a, b in rows]
    lines += ["", f"The worst lines (each at most {MAX_LINE:,} characters is read; best of three "
              "runs on a fresh parser):", "", "| line | characters | time |", "|---|---|---|"]
    lines += [f"| {what} | {n:,} | {_ms(t)} |" for what, t, n in f["worst"]]
    return "\n".join(lines)


SECTION = """## Reading orders

Measured by `bench/parser_bench.py --write` (part of `make bench`; this section only).
Seed {seed}; the fuzz corpus is the one `tests/orders/test_fuzz.py` checks (about 35 %
readable orders, 50 % mutated ones, 15 % noise; `mobadj/orders/corpus.py`).  CPU time of
the reading process (the batch: wall clock and CPU of its process), on a fresh parser.

{table}

Before: one order line of 16 KB (`"A PAR - " + "BUR " * 4000`) took 13 s and one of 64 KB
169 s, because looking for "a known name followed by a stray word" tried every head of
the line and each failed look-up computed a did-you-mean.  Now a line is read only up to
{max_line:,} characters (a longer one is an error that says so), the stray-word search
looks no further than the longest name of the map, did-you-means are computed only for the
message shown (and kept per name), errors and the grammar's "expected" words are cached,
and after ten unreadable orders on one line the rest of that line is reported, not read.

The slowest single line of a corpus is mostly the first that takes the grammar into a
state not used before in the process (Lark builds those lexers on first use), not a line
that is slow itself: the worst lines above, read on a warmed-up grammar, stay within a few
milliseconds.
"""


def write_section(figures: dict) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    start = text.find("\n## Reading orders")
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + (text[end:] if end >= 0 else "\n")
    section = SECTION.format(seed=SEED, table=table(figures), max_line=MAX_LINE)
    path.write_text(text.rstrip("\n") + "\n\n" + section, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="replace the Reading orders section of docs/performance.md")
    args = parser.parse_args()
    figures = measure()
    if args.write:
        write_section(figures)
    print(table(figures))


if __name__ == "__main__":
    main()
