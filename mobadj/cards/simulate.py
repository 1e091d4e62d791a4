"""Random (or bot) playouts: a consistency check and the speed benchmark of every game.

Each game starts from ``seed + i``; the choosing RNG is separate from the game's own RNG,
so the game's shuffles are the same whoever plays.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from mobadj.cards.protocol import Bot, GameError, RandomBot
from mobadj.cards.registry import DEFAULT_BOT_LEVEL, bot_of_level, canonical_name, game_class

MAX_STEPS = 100_000


def simulate(
    game: str,
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    bots: bool = False,
    check_every: int = 1,
    bot_level: str = DEFAULT_BOT_LEVEL,
) -> dict[str, Any]:
    """Play ``games`` complete games with random legal actions (or the game's bot, at
    ``bot_level``: raises KeyError for a level the game does not have).

    Returns the JSON object of ``mobadj play GAME --simulate``: game, games, finished,
    mean_length, wins, invalid_actions, invariant_violations, seconds_per_game.
    """
    name = canonical_name(game)
    cls = game_class(name)
    n = players or cls.info.min_players
    chooser: Bot = bot_of_level(name, bot_level)() if bots else RandomBot()
    chooser_rng = random.Random(seed ^ 0x5EED)
    wins: Counter[str] = Counter()
    finished = invalid = violations = total_length = 0
    started = time.perf_counter()
    for i in range(games):
        state = cls.new(n, seed + i, options)
        steps = 0
        while not state.is_over() and steps < MAX_STEPS:
            actors = state.to_act()
            if not actors:
                violations += 1  # nobody to act yet not over: the game is stuck
                break
            player = actors[0] if len(actors) == 1 else chooser_rng.choice(actors)
            action = chooser.choose(state, player, chooser_rng)
            try:
                state.apply(player, action)
            except GameError:
                invalid += 1
                break
            steps += 1
            if check_every and steps % check_every == 0 and state.check_invariants():
                violations += 1
                break
        total_length += steps
        if state.is_over():
            finished += 1
            violations += bool(state.check_invariants())
            for p in state.winners():
                wins[f"P{p + 1}"] += 1
    elapsed = time.perf_counter() - started
    return {
        "game": name,
        "games": games,
        "finished": finished,
        "mean_length": round(total_length / games, 2) if games else 0,
        "wins": dict(sorted(wins.items())),
        "invalid_actions": invalid,
        "invariant_violations": violations,
        "seconds_per_game": round(elapsed / games, 6) if games else 0,
    }
