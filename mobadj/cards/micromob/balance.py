"""Deck balance figures from bot-vs-bot games (the numbers quoted in docs/cards/micromob.md).

Run ``mobadj cards balance micromob [--games N] [--players N] [--option modules=N]
[--report bots|versus]``.  For every card it reports how often the player who made it an
ally won, next to the fair share 1/players; a dominant card would stand far above the rest.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from mobadj.cards.micromob.bot import MicroMobBot
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import Bot, RandomBot

MIN_SAMPLES = 30  # cards seen fewer times are left out of the extremes


def play(players: int, seed: int, modules: int, bots: list[Bot]) -> MicroMobState:
    state = MicroMobState.new(players, seed, {"modules": modules})
    rng = random.Random(seed ^ 0xBA1)
    while not state.is_over():
        p = state.current
        state.apply(p, bots[p].choose(state, p, rng))
    return state


def report(games: int, players: int, modules: int, seed: int = 0) -> dict[str, Any]:
    """Game length, seat wins, end reasons, and per-card / per-power win rates."""
    bots: list[Bot] = [MicroMobBot() for _ in range(players)]
    seat_wins: Counter[int] = Counter()
    ally_seen: Counter[str] = Counter()
    ally_won: Counter[str] = Counter()
    power_seen: Counter[str] = Counter()
    power_won: Counter[str] = Counter()
    turns = actions = deadlocks = 0
    margin = 0.0
    for g in range(games):
        state = play(players, seed + g, modules, bots)
        winners = state.winners()
        turns += state.turn
        actions += len(state.actions)
        deadlocks += state.kingpin is None
        scores = sorted(state.scores(), reverse=True)
        margin += scores[0] - scores[1]
        for p in winners:
            seat_wins[p + 1] += 1
        for p, text in state.actions:  # every ally made during the game, kept or not
            if text.startswith("ally "):
                a = text.split()[1]
                won = p in winners
                ally_seen[a] += 1
                ally_won[a] += won
                power = state.card(a).power
                power_seen[power] += 1
                power_won[power] += won
    rates = {c: ally_won[c] / n for c, n in ally_seen.items() if n >= MIN_SAMPLES}
    ranked = sorted(rates, key=rates.__getitem__)
    return {
        "games": games,
        "players": players,
        "modules": modules,
        "mean_turns": round(turns / games, 1),
        "mean_actions": round(actions / games, 1),
        "mean_winning_margin": round(margin / games, 2),
        "deadlocks": deadlocks,
        "seat_wins": dict(sorted(seat_wins.items())),
        "fair_share": round(1 / players, 3),
        "best_allies": [(c, round(rates[c], 3), ally_seen[c]) for c in ranked[::-1][:3]],
        "worst_allies": [(c, round(rates[c], 3), ally_seen[c]) for c in ranked[:3]],
        "power_win_rate": {
            p: round(power_won[p] / n, 3) for p, n in sorted(power_seen.items())
        },
    }


def bot_vs_random(games: int, players: int, modules: int) -> float:
    """Win rate of one bot seat (rotating) against random players."""
    wins = 0
    for g in range(games):
        seat = g % players
        bots: list[Bot] = [RandomBot() for _ in range(players)]
        bots[seat] = MicroMobBot()
        wins += seat in play(players, 5000 + g, modules, bots).winners()
    return wins / games


def _modules(options: dict[str, Any]) -> int:
    modules = options.get("modules", 4)
    if type(modules) is not int:
        raise ValueError(f"modules must be a whole number, not {modules!r}")
    return modules


#: The reports of ``mobadj cards balance micromob`` (the first is the default): each takes the
#: number of games, of players and the game options (``modules``, 4 unless given).
REPORTS: dict[str, Callable[[int, int, dict[str, Any]], object]] = {
    "bots": lambda games, players, options: report(games, players, _modules(options)),
    "versus": lambda games, players, options: {
        "bot_seat_win_rate": bot_vs_random(games, players, _modules(options)),
        "fair_share": round(1 / players, 3)},
}
DEFAULT_GAMES = 400
DEFAULT_PLAYERS = 4
OPTIONS = ("modules",)
