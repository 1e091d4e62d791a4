"""Measure order-parsing speed on the standard map: ``python tests/orders/parse_speed.py``.

CPU time is measured (time.process_time), so other load on the machine counts little.
Two corpora of seeded random orders (moves, holds, supports, convoys, some full names):
"distinct" with the per-text cache disabled (every line parsed from scratch), and "cached"
as a judge or batch run sees it (orders repeat; the cache fills on the first pass).
"""

from __future__ import annotations

import random
import statistics
import time

from mobadj.board.loader import load_map
from mobadj.orders import parser as order_parser


def corpus(game_map, count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    provinces = sorted(game_map.provinces)
    lines = []
    for _ in range(count):
        a = rng.choice(provinces)
        kind = "A" if game_map.can_occupy("A", a) else "F"
        near = sorted(game_map.neighbour_provinces(kind, a)) or provinces
        b, c = rng.choice(near), rng.choice(provinces)
        roll = rng.random()
        if roll < 0.4:
            lines.append(f"{kind} {a} - {b}")
        elif roll < 0.55:
            lines.append(f"{kind} {a} H")
        elif roll < 0.8:
            lines.append(f"{kind} {a} S A {b} - {c}")
        elif roll < 0.9:
            lines.append(f"F {a} C A {b} - {c}")
        else:
            lines.append(f"{kind} {game_map.provinces[a].name} -> {game_map.provinces[b].name}")
    return lines


def measure(text: str, game_map, lines: int, cache: bool, runs: int = 5) -> tuple[float, float]:
    parser = order_parser.parser_for(game_map)
    saved = order_parser.CACHE_SIZE
    order_parser.CACHE_SIZE = saved if cache else 1
    times = []  # CPU time of this process: other load on the machine does not count
    try:
        for _ in range(runs):
            parser._cache.clear()
            start = time.process_time()
            result = order_parser.parse_orders(text, game_map)
            times.append(time.process_time() - start)
            assert not result.errors
    finally:
        order_parser.CACHE_SIZE = saved
    return lines / min(times), lines / statistics.median(times)


def main() -> None:
    game_map = load_map("standard")
    lines = corpus(game_map, 20_000)
    text = "\n".join(lines)
    order_parser.parse_orders("\n".join(lines[:200]), game_map)  # build the parser first
    for label, cache in (("distinct, no cache", False), ("with cache", True)):
        best, median = measure(text, game_map, len(lines), cache)
        print(f"{label:20} best {best:>9,.0f} lines/s   median {median:>9,.0f} lines/s")


if __name__ == "__main__":
    main()
