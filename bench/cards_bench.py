"""Card-game simulation benchmark and bot duels (``make bench`` runs it with ``--write``).

Runs each game's ``mobadj play GAME --simulate 10000`` in a fresh process, with the player
count and options of docs/performance.md, and records wall-clock and CPU seconds together
with the simulation's own JSON (finished games, invalid actions, invariant violations).
Then plays each game's standard bot in one seat against the bot it replaced (level
"intermediate", where there is one; else its first bot, level "basic") in the others, over
1,000 seeded games (:func:`mobadj.cards.duel.duel`): the standard bot must win more than its
fair share.  ``--write`` replaces the "Card games" section of docs/performance.md and
nothing else.
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
from typing import Any

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
# (game, players, options) of the bot duels: the player counts above; Micro City's bots
# meet in its competitive mode (the solo and cooperative modes have no opponent)
DUELS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("micromob", 4, {"modules": 4}),
    ("irontriangle", 5, {}),
    ("microcity", 2, {"mode": "competitive"}),
)


def run_duel(game: str, players: int, options: dict[str, Any], games: int, seed: int) -> dict:
    """The standard bot (one rotating seat) against the bot it replaced (intermediate, else
    basic), with its CPU seconds."""
    from mobadj.cards.duel import duel
    from mobadj.cards.registry import bot_levels

    levels = bot_levels(game)
    against = "intermediate" if "intermediate" in levels else "basic"
    started = time.process_time()
    result = duel(game, levels["standard"](), levels[against](), games, seed=seed,
                  players=players, options=options)
    return {**result, "against": against, "cpu": time.process_time() - started}


def duel_lines(duels: list[dict]) -> list[str]:
    lines = [
        "Bots: each game's standard bot (the default) in one seat, rotating, against the bot it",
        "replaced (`intermediate`, kept for this comparison; micro mob, whose standard bot is",
        "unchanged: its first bot, `basic`) in the others, over seeded games",
        "(`mobadj.cards.duel.duel`, game i dealt from seed + i; a shared win counts as a share):",
        "",
        "| game | players, options | against | games | standard bot wins | fair share "
        "| wins by seat | CPU |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in duels:
        opts = ", ".join(f"{k}={v}" for k, v in d["options"].items())
        seats = " / ".join(f"{w:g}" for w in d["wins_by_seat"])
        lines.append(
            f"| {d['game']} | {d['players']}{', ' + opts if opts else ''} | {d['against']} "
            f"| {d['games']} "
            f"| {100 * d['win_rate']:.1f} % | {100 * d['fair_share']:.1f} % | {seats} "
            f"| {d['cpu']:.0f} s |"
        )
    return lines + [""]


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


def section(results: list[dict], targets: list[int], duels: list[dict]) -> str:
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
    if duels:
        lines += duel_lines(duels)
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
    parser.add_argument("--duel-games", type=int, default=1_000,
                        help="games per bot duel (0: no duels)")
    parser.add_argument("--write", action="store_true", help="replace the section in docs")
    args = parser.parse_args()
    results = []
    for game, players, options, _target in RUNS:
        result = run(game, players, options, args.games, args.seed)
        print(json.dumps(result), flush=True)
        results.append(result)
    duels = []
    for game, players, opts in DUELS if args.duel_games else ():
        result = run_duel(game, players, opts, args.duel_games, args.seed)
        print(json.dumps(result), flush=True)
        duels.append(result)
    text = section(results, [target for *_, target in RUNS], duels)
    if args.write:
        write_section(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
