"""Bot against bot: how often one bot beats another over seeded games (``make bench``
reports each game's current bot against its first one, ``bench/cards_bench.py``).

Game ``i`` is dealt from ``seed + i`` and the challenger sits in seat ``i % players``, the
other seats are the incumbent's, so every seat and deal is played alike.  A shared win
counts as a share (1/2 for two winners), so the challenger's fair share is 1/players.
"""

from __future__ import annotations

import random
from typing import Any

from mobadj.cards.protocol import Bot
from mobadj.cards.registry import canonical_name, game_class

MAX_STEPS = 100_000


def duel(
    game: str,
    challenger: Bot,
    incumbent: Bot,
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The challenger's win share in ``games`` seeded games, one seat against the others."""
    name = canonical_name(game)
    cls = game_class(name)
    n = players or cls.info.min_players
    share = 0.0
    by_seat = [0.0] * n
    unfinished = 0
    for i in range(games):
        state = cls.new(n, seed + i, options)
        seat = i % n
        rng = random.Random((seed + i) ^ 0xD0E1)
        steps = 0
        while not state.is_over() and steps < MAX_STEPS:
            actors = state.to_act()
            player = actors[0] if len(actors) == 1 else rng.choice(actors)
            bot = challenger if player == seat else incumbent
            state.apply(player, bot.choose(state, player, rng))
            steps += 1
        winners = state.winners()
        unfinished += not state.is_over()
        if seat in winners:
            share += 1 / len(winners)
            by_seat[seat] += 1 / len(winners)
    return {
        "game": name,
        "players": n,
        "options": dict(options or {}),
        "games": games,
        "seed": seed,
        "win_rate": round(share / games, 4) if games else 0.0,
        "fair_share": round(1 / n, 4),
        "wins_by_seat": [round(w, 2) for w in by_seat],
        "unfinished": unfinished,
    }
