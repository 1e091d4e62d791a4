"""What the front ends (terminal and judge) say about a game beyond its view: the rules in
brief, a hidden move as the others may hear of it, and the end report.

Each game's ``render`` module may provide ``SUMMARY`` (a paragraph), ``HIDDEN_MOVES``
(command word -> what the others hear, e.g. ``"bet": "has sealed a bet"``), ``end_report``
(why the game ended, each score as its rulebook counts it, the winner once) and
``SUPERSEDED`` (a regex of the engine's own end-of-game events that the report says again in
full, so they are not shown twice).  A game without them gets plain defaults.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType

from mobadj.cards.protocol import Event, GameState
from mobadj.cards.record import SCHEME, GameRecord


def _render(state: GameState) -> ModuleType | None:
    return _render_of(type(state).info.name)


def _render_of(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"mobadj.cards.{game}.render")
    except ImportError:
        return None


def hidden_move(game: str, player: int, action: str) -> str | None:
    """What the others hear of ``player``'s ``action`` when it is a move ``game`` keeps face
    down (a command word of its ``HIDDEN_MOVES``): "P2 has sealed a bet."; None for a move
    everyone may read.  For whoever must not read a game's moves before the end."""
    words = action.split(maxsplit=1)
    moves = getattr(_render_of(game), "HIDDEN_MOVES", {})
    phrase = moves.get(words[0].lower()) if words else None
    return None if phrase is None else f"P{player + 1} {phrase}."


def _together(state: GameState) -> dict[str, str]:
    return getattr(_render(state), "HIDDEN_MOVES_TOGETHER", {})


def told_together(state: GameState, texts: list[str]) -> list[str]:
    """The lines of a feed: hidden moves of one kind told one after another are told in one
    line, "P2, P4 and P5 have made their offers, face down." (the game's
    ``HIDDEN_MOVES_TOGETHER`` maps each phrase to its plural); other texts as they are."""
    together = _together(state)
    out: list[str] = []
    run: list[str] = []  # seats of the current run
    phrase = ""
    for text in [*texts, ""]:
        m = _NARRATED.fullmatch(text)
        if m and m.group(2) in together and (not run or m.group(2) == phrase):
            run.append(m.group(1))
            phrase = m.group(2)
            continue
        if len(run) == 1:
            out.append(f"{run[0]} {phrase}.")
        elif run:
            out.append(f"{', '.join(run[:-1])} and {run[-1]} {together[phrase]}.")
        run = []
        if m and m.group(2) in together:
            run, phrase = [m.group(1)], m.group(2)
        elif text:
            out.append(text)
    return out


def told_apart(state: GameState, line: str) -> list[str] | None:
    """The hidden moves one line of :func:`told_together` stands for (None: no such line)."""
    for phrase, plural in _together(state).items():
        if line.endswith(f" {plural}.") and " and " in line:
            seats = line[: -len(plural) - 2].replace(" and ", ", ").split(", ")
            if all(re.fullmatch(r"P\d+", s) for s in seats):
                return [f"{s} {phrase}." for s in seats]
    return None


_NARRATED = re.compile(r"(P\d+) (.+)\.")


def summary(state: GameState) -> str:
    """The game's rules in brief (one paragraph), for ``help``."""
    module = _render(state)
    return getattr(module, "SUMMARY", f"{type(state).info.title}: see its page in docs/cards/.")


def narration(state: GameState, player: int, action: str, new: list[Event]) -> Event | None:
    """An event telling the seats that can see none of ``new`` (what ``player``'s ``action``
    logged) that ``player`` has moved: a hidden move (a command word of the game's
    ``HIDDEN_MOVES``) without saying how, "P2 has sealed a bet."; any other move as what it
    is, "P2: done." (the games log every move that hides nothing, so this is a fallback).
    None when every seat saw something of it."""
    blind = frozenset(q for q in range(state.players)
                      if q != player and not any(e.visible(q) for e in new))
    if not blind:
        return None
    words = action.split(maxsplit=1)
    moves = getattr(_render(state), "HIDDEN_MOVES", {})
    phrase = moves.get(words[0].lower()) if words else None
    if phrase is None:
        return Event(f"P{player + 1}: {action}.", blind)
    return Event(f"P{player + 1} {phrase}.", blind)


def superseded(state: GameState, event: Event) -> bool:
    """Is ``event`` one of the engine's end-of-game lines that :func:`end_report` says again
    (scores, winner)?  Only once the game is over, and only public events."""
    if not state.is_over() or event.visible_to is not None:
        return False
    pattern: re.Pattern[str] | None = getattr(_render(state), "SUPERSEDED", None)
    return bool(pattern and pattern.match(event.text))


def superseded_line(state: GameState, line: str) -> bool:
    """Is ``line`` of the finished game's table one of the end-of-game lines that
    :func:`end_report` says again in full (the winner, the totals)?"""
    pattern: re.Pattern[str] | None = getattr(_render(state), "SUPERSEDED", None)
    return bool(state.is_over() and pattern and pattern.match(line.strip()))


def end_report(state: GameState) -> list[str]:
    """Why the game ended, each player's score as the rulebook counts it, the winner once."""
    module = _render(state)
    if module is not None and hasattr(module, "end_report"):
        return list(module.end_report(state))
    scores = ", ".join(f"P{p + 1} {s:g}" for p, s in enumerate(state.scores()))
    winners = " and ".join(f"P{p + 1}" for p in state.winners()) or "nobody"
    return [f"Final scores: {scores}", f"Winner: {winners}"]


def seed_lines(record: GameRecord, secret: bool = True) -> list[str]:
    """The seed and salt revealed at the end, and how to check them against the commitment
    published at the start."""
    lines = [f"Seed: {record.seed}"]
    if record.salt is not None:
        lines.append(f"Salt: {record.salt}")
    if not secret:
        lines.append("(the seed was chosen by hand: this game was not secret)")
    elif record.scheme == SCHEME:
        lines.append(f"Commitment published at the start: {record.commitment} = "
                     "HMAC-SHA256 of '<game>:<seed>' keyed by the salt")
    else:
        lines.append(f"Commitment published at the start: {record.commitment} = sha256 of "
                     "'<game>:<seed>' (the old scheme, without a salt: it could be guessed)")
    return lines
