"""Saved games checked as a player would try them: what a save file shows in readable form,
and the ways a file can be changed.  Used by the save tests."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from terminal_table import secret_tokens

from mobadj.cards.protocol import GameError, GameState
from mobadj.cards.saves import open_sealed, read_save


def hidden_values(state: GameState, seats: list[int], salt: str) -> set[str]:
    """What the seats at the keyboard may not see now: the seed (in decimal and in hex) and
    the salt; cards in piles, in the other seats' hands and face down; sealed choices still
    to be revealed."""
    values = {str(state.seed), f"{state.seed:x}", salt}
    for seat in seats:
        values |= secret_tokens(state, seat)
    name = type(state).info.name
    if name == "miceheist":
        values |= {str(bet) for q, bet in state.sealed.items() if q in state.pending
                   or q not in seats}
        values |= {state.data.skills[k].name for k in state.deck}
    if name == "irontriangle":
        values |= {state.deck.cards[c].name for q, c in state.offers.items()
                   if state.phase == "offer" and q not in seats}
    return {v for v in values if v}


def readable_leaks(text: str, values: set[str]) -> list[str]:
    """The values of ``values`` that ``text`` shows as words."""
    lower = text.lower()
    return sorted(v for v in values if v.lower() in lower and re.search(
        rf"(?<![\w']){re.escape(v)}(?![\w'])", text, re.I))


def _reserialised(change: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        data = json.loads(text)
        change(data)
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return edit


def _flip_sealed(text: str) -> str:
    data = json.loads(text)
    sealed = data["sealed"]
    i = len(sealed) // 3
    data["sealed"] = sealed[:i] + ("0" if sealed[i] != "0" else "1") + sealed[i + 1:]
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _seat_to_human(data: dict[str, Any]) -> None:
    seats = data["seats"]
    bot = next((s for s, kind in seats.items() if kind != "human"), next(iter(seats)))
    seats[bot] = "human" if seats[bot] != "human" else "bot (standard)"


# every way a player might change a save: each must be refused
EDITS: dict[str, Callable[[str], str]] = {
    "a digit of the sealed part": _flip_sealed,
    "the number of moves": _reserialised(lambda d: d.update(moves=d["moves"] + 1)),
    "a seat": _reserialised(_seat_to_human),
    "the save's number": _reserialised(lambda d: d.update(save=d["save"] - 1)),
    "the options": _reserialised(lambda d: d.update(options={**d["options"], "x": 1})),
    "the nonce": _reserialised(lambda d: d.update(nonce="00" * 16)),
    "the tag": _reserialised(lambda d: d.update(tag="0" * 64)),
    "no nonce": _reserialised(lambda d: d.pop("nonce")),
    "the commitment": _reserialised(lambda d: d.update(seed_commitment="0" * 64)),
    "a space added": lambda text: text.replace(", ", ",  ", 1).replace('": ', '":  ', 1),
    "the end cut off": lambda text: text[: len(text) * 2 // 3],
    "the sealed part of another save": lambda text: text,  # replaced by the caller
}


def refused(path: Path, text: str | None = None) -> str:
    """The one line a changed save is refused with ('' if it is not refused): the file at
    ``path``, or ``text`` as if it were that file's."""
    try:
        if text is None:
            read_save(path)
        else:
            open_sealed(text, json.loads(text))
    except GameError as err:
        return str(err)
    return ""


def mixed(text: str, other: str) -> str:
    """``text`` with the sealed part (and nonce) of the save ``other`` of the same game."""
    data, theirs = json.loads(text), json.loads(other)
    data["sealed"], data["nonce"] = theirs["sealed"], theirs["nonce"]
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


class Keyboard:
    """The humans at the keyboard: at every prompt of a seat a random legal move (some help,
    board, a mistake, an undo), Enter where the bots wait or the screen is handed over; and
    ``quit`` the first time each prompt comes up, when ``quitting``."""

    PROMPT = re.compile(r"P(\d+)( \(Enter: play on\))?> ")

    def __init__(self, seed: int, quitting: bool = True) -> None:
        self.rng = random.Random(seed)
        self.quitting = quitting
        self.quit_at: set[tuple[int, str]] = set()
        self.session: Any = None
        self.prompts = 0

    def read(self, prompt: str) -> str:
        state = self.session.state
        key = (len(state.actions), prompt)
        if self.quitting and key not in self.quit_at:
            self.quit_at.add(key)
            self.prompts += 1
            return "quit"
        turn = self.PROMPT.fullmatch(prompt)
        if turn is None:
            return ""
        seat = int(turn.group(1)) - 1
        roll = self.rng.random()
        if turn.group(2):
            return "undo" if roll < 0.2 else ""
        legal = state.legal_actions(seat)
        if roll < 0.05:
            return self.rng.choice(["help", "board", "history", "undo", "xyzzy"])
        return str(self.rng.choice(legal)) if legal else "help"
