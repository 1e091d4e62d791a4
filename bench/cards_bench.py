"""Card-game simulation benchmark (``make bench`` runs it with ``--write``).

Runs each game's ``mobadj play GAME --simulate 10000`` in a fresh process, with the player
count and options the issues name, and records wall-clock and CPU seconds together with the
simulation's own JSON (finished games, invalid actions, invariant violations).  ``--write``
replaces the "Card games" section of docs/performance.md and nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOBADJ = Path(sys.executable).with_name("mobadj")
TITLE = "## Card games"

# (game, players, options, target in seconds) as the performance targets state them.
RUNS = (
    ("micromob", 4, ("modules=4",), 60),
    ("miceheist", 4, (), 60),
    ("irontriangle", 5, (), 60),
    ("microcity", 1, (), 60),
)


def run(game: str, players: int, options: tuple[str, ...], games: int, seed: int) -> dict:
    """One simulation in a child process: its JSON plus wall and CPU seconds."""
    cmd = [str(MOBADJ), "play", game, "--simulate", str(games), "--seed", str(seed),
           "--players", str(players)]
    for option in options:
        cmd += ["--option", option]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**json.loads(out), "wall": wall, "cpu": cpu, "command": " ".join(cmd[1:])}


def section(results: list[dict], targets: list[int]) -> str:
    load = os.getloadavg()[0]
    lines = [
        TITLE,
        "",
        "Measured by `bench/cards_bench.py --write` (this section only): each game's",
        f"`mobadj play GAME --simulate N` in a fresh process; {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, load average {load:.1f} at the end.",
        "",
        "| command | wall | CPU | target | finished | mean length | invalid | violations |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r, target in zip(results, targets, strict=True):
        lines.append(
            f"| `mobadj {r['command']}` | {r['wall']:.1f} s | {r['cpu']:.1f} s | < {target} s "
            f"| {r['finished']}/{r['games']} | {r['mean_length']} | {r['invalid_actions']} "
            f"| {r['invariant_violations']} |"
        )
    lines += ["", "Wall-clock time suffers when other work shares the cores; CPU time less.", ""]
    return "\n".join(lines)


def write_section(text_section: str) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    start = text.find("\n" + TITLE)
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + (text[end:] if end >= 0 else "\n")
    path.write_text(text.rstrip("\n") + "\n\n" + text_section, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per simulation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="replace the section in docs")
    args = parser.parse_args()
    results = []
    for game, players, options, _target in RUNS:
        result = run(game, players, options, args.games, args.seed)
        print(json.dumps(result), flush=True)
        results.append(result)
    text = section(results, [target for *_, target in RUNS])
    if args.write:
        write_section(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
