"""Does mobadj's order parser read the oracle's order notation?  (docs/crosscheck.md)

    python -m tools.crosscheck.parser_check --count 200

For generated positions the oracle lists every order it would accept (movement, the
retreat phase that follows, adjustments), in its own notation (``A PAR - BUR``,
``F NTH C A LON - NWY``, ``A LON - NWY VIA``, ``A PAR R BUR``, ``A PAR D``, ``F BRE B``,
``WAIVE``).  Each distinct text is fed to ``mobadj.orders.parser.parse_order``; the
failures are grouped by the shape of the order.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from collections import Counter
from typing import Any

from mobadj.board.loader import load_map
from mobadj.orders.parser import parse_order
from tools.crosscheck.generate import generate
from tools.crosscheck.run import DRIVER


def shape(text: str) -> str:
    """The order with its provinces blanked out: ``A PAR - BUR VIA`` -> ``A xxx - xxx VIA``."""
    return re.sub(r"\b[A-Z]{3}(/[A-Z]{2})?\b", lambda m: "xxx" + ("/cc" if m.group(1) else ""),
                  text)


def check(count: int, seed: int, python: str) -> tuple[int, Counter[str], dict[str, str]]:
    cases: list[dict[str, Any]] = []
    for case in generate(seed, count):
        case["mode"] = "possible"
        cases.append(case)
    text = "".join(json.dumps(c) + "\n" for c in cases)
    proc = subprocess.run([python, str(DRIVER)], input=text, capture_output=True, text=True,
                          check=True)
    texts = {t for line in proc.stdout.splitlines() for t in json.loads(line).get("possible", [])}
    game_map = load_map("standard")
    failed: Counter[str] = Counter()
    example: dict[str, str] = {}
    for t in sorted(texts):
        try:
            got = str(parse_order(t, game_map))
        except ValueError as exc:
            key = shape(t)
            failed[key] += 1
            example.setdefault(key, f"{t!r}: {exc}")
            continue
        if got != t:  # read, but as something else?
            key = "read differently: " + shape(t)
            failed[key] += 1
            example.setdefault(key, f"{t!r} -> {got!r}")
    return len(texts), failed, example


def main() -> None:
    ap = argparse.ArgumentParser(description="feed the oracle's order texts to our parser")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--oracle-python", default="/tmp/oracle-venv/bin/python")
    args = ap.parse_args()
    total, failed, example = check(args.count, args.seed, args.oracle_python)
    print(f"distinct oracle order texts: {total}; not parsed: {sum(failed.values())}")
    for key, n in failed.most_common():
        print(f"  {n:6d}  {key:28s} e.g. {example[key]}")


if __name__ == "__main__":
    main()
