"""Play a card game at the terminal: hot-seat for humans, bots for the other seats.

Every human turn shows that player's own view only (hot-seat players should look away).
Words understood besides the game's commands: ``help``/``?`` (legal commands), ``undo``,
``history``, ``quit``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mobadj.cards.protocol import GameError, GameState
from mobadj.cards.record import GameRecord, undo_last
from mobadj.cards.registry import bot_class, canonical_name, game_class


def play_terminal(
    game: str,
    players: int,
    seed: int,
    bots: set[int],
    options: dict[str, Any] | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> GameState:
    """Run one game to its end (or ``quit``); returns the final state."""
    name = canonical_name(game)
    state = game_class(name).new(players, seed, options)
    bot = bot_class(name)()
    bot_rng = random.Random(seed ^ 0xB07)
    record = GameRecord.of(name, state)
    write(f"{state.info.title}: {players} players, seed commitment {record.commitment}")
    seen = 0
    while not state.is_over():
        player = state.to_act()[0]
        if player in bots:
            action = bot.choose(state, player, bot_rng)
            state.apply(player, action)
            write(f"P{player + 1} (bot): {action}")
            continue
        for line in state.history(player)[seen:]:
            write(f"  {line}")
        seen = len(state.history(player))
        write(state.render(player))
        try:
            text = read(f"P{player + 1}> ").strip()
        except EOFError:
            text = "quit"
        if text in ("quit", "exit"):
            return state
        if text in ("help", "?"):
            write("You can: " + "; ".join(str(a) for a in state.legal_actions(player)))
            continue
        if text == "history":
            write("\n".join(state.history(player)))
            continue
        try:
            if text == "undo":
                state = undo_last(name, state, player)
                seen = 0
            else:
                state.command(player, text)
        except GameError as err:
            write(f"! {err}")
    write(state.render(None))
    write("Scores: " + ", ".join(f"P{p + 1} {s:g}" for p, s in enumerate(state.scores())))
    write("Winner(s): " + ", ".join(f"P{p + 1}" for p in state.winners()))
    write(f"Seed (for auditing the shuffles): {state.seed}")
    return state
