"""Play a card game at the terminal: hot-seat for humans, bots for the other seats.

Every human turn shows that player's own view only (hot-seat players should look away).
Words understood besides the game's commands: ``help``/``?`` (legal commands), ``undo``,
``history``, ``quit``.  Another human seat gives a free command (one the game allows out of
turn, :meth:`GameState.free_commands`) at anyone's prompt with its seat as prefix:
``P3: say I can do it cheap``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from mobadj.cards.protocol import GameError, GameState, IllegalAction
from mobadj.cards.record import GameRecord, undo_last
from mobadj.cards.registry import bot_class, canonical_name, game_class

_SEAT_PREFIX = re.compile(r"[Pp](\d+)\s*:\s*(.*)")


def _free_hint(state: GameState, player: int, bots: set[int]) -> str:
    """One line naming what the other human seats may do out of turn now ('' if nothing)."""
    parts = []
    for p in range(state.players):
        if p != player and p not in bots:
            free = state.free_commands(p)
            if free:
                parts.append(f"P{p + 1} {', '.join(free)}")
    if not parts:
        return ""
    return "Out of turn (type 'P<n>: <command>'): " + "; ".join(parts)


def _seat_command(state: GameState, text: str, bots: set[int]) -> tuple[int, str] | None:
    """``P3: say hi`` -> (2, "say hi"); None when the line has no seat prefix."""
    match = _SEAT_PREFIX.fullmatch(text)
    if match is None:
        return None
    seat = int(match.group(1)) - 1
    if not 0 <= seat < state.players:
        raise IllegalAction(f"there is no player P{seat + 1}")
    if seat in bots:
        raise IllegalAction(f"P{seat + 1} is played by a bot")
    return seat, match.group(2).strip()


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
        hint = _free_hint(state, player, bots)
        if hint:
            write(hint)
        try:
            text = read(f"P{player + 1}> ").strip()
        except EOFError:
            text = "quit"
        if text in ("quit", "exit"):
            return state
        if text in ("help", "?"):
            write("You can: " + "; ".join(str(a) for a in state.legal_actions(player)))
            free = state.free_commands(player)
            if free:
                write("Also, out of turn: " + "; ".join(free))
            if hint:
                write(hint)
            continue
        if text == "history":
            write("\n".join(state.history(player)))
            continue
        try:
            other = _seat_command(state, text, bots)
            if other is not None:  # another seat's free command (the state says if it is)
                state.command(*other)
            elif text == "undo":
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
