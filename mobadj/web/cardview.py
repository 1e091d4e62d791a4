"""A card game as an observer sees it: the game rebuilt from the judge's record, then read
only through the card protocol's views with no seat (``view(None)``, ``render(None)``,
``history(None)``), and the seed check once the game is over.

The record's fields (seed, commitment) are read here and nowhere else in the pages, so a
change of the commitment scheme in :mod:`mobadj.cards.record` is adapted in this file alone.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from mobadj.cards.protocol import GameState, stopped
from mobadj.cards.record import GameRecord, seed_commitment


def replay(kind: str, state: dict[str, Any], ended: bool = False) -> GameState:
    """The game after every action of the judge's record (the state's ``actions``), under
    the rules it started with (a state with no ``rules_version`` is of the oldest).  A game
    ended before its end (a draw, or its GM's word; ``ended``: the judge's game says so)
    has nobody to act, as the judge says."""
    record = GameRecord(kind, int(state["players"]), int(state["seed"]),
                        dict(state.get("options") or {}),
                        [(int(p), str(a)) for p, a in state.get("actions", [])],
                        str(state.get("rules_version") or ""))
    game = record.replay()
    return stopped(game) if ended or state.get("ended") else game


@dataclass(frozen=True)
class SeedCheck:
    """The seed revealed at the end and whether it matches what was committed at the start."""

    commitment: str
    seed: str
    recomputed: str
    scheme: str  # how the commitment is made, for a reader who checks it by hand
    salt: str | None = None  # None: a game started before salts

    @property
    def ok(self) -> bool:
        return self.recomputed == self.commitment


def commitment(state: dict[str, Any]) -> str | None:
    """The published commitment to the seed (shown from the start)."""
    value = state.get("commitment")
    return str(value) if value else None


def seed_check(kind: str, state: dict[str, Any], over: bool) -> SeedCheck | None:
    """The seed and its check, only once the game is over (None before, and None when the
    record carries no commitment)."""
    committed = commitment(state)
    if not over or committed is None:
        return None
    seed, salt = state["seed"], state.get("salt")
    if salt is None:  # a game started before salts: the old, unsalted scheme
        return SeedCheck(committed, str(seed), seed_commitment(kind, seed),
                         f'sha256("{kind}:<seed>") in hex (the old scheme, without a salt)')
    return SeedCheck(committed, str(seed), seed_commitment(kind, seed, salt),
                     f'HMAC-SHA256 of "{kind}:<seed>" keyed by the salt, in hex', str(salt))


@dataclass(frozen=True)
class ScoreRow:
    """One player's final score, with its terms when the game gives them."""

    seat: str
    total: float
    terms: dict[str, Any]
    winner: bool


def final_scores(game: GameState) -> list[ScoreRow]:
    """Scores of a finished game; each game's ``score_details()`` (when it has one) gives the
    breakdown term by term."""
    if not game.is_over():
        return []
    totals = game.scores()
    winners = set(game.winners())
    details: list[Any] = []
    detail_fn = getattr(game, "score_details", None)
    if callable(detail_fn):
        details = list(detail_fn())
    rows = []
    for p, total in enumerate(totals):
        terms: dict[str, Any] = {}
        if p < len(details) and is_dataclass(details[p]):
            terms = {f.name: getattr(details[p], f.name) for f in fields(details[p])
                     if f.name != "total"}
        rows.append(ScoreRow(f"P{p + 1}", total, terms, p in winners))
    return rows
