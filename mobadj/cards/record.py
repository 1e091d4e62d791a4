"""A game's record: what is needed to replay it exactly, plus the seed commitment.

The seed is committed at the start (its SHA-256 hash is published to the players) and
revealed only when the game is over, so anyone can then audit every shuffle and die.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from mobadj.cards.protocol import GameState, IllegalAction, undo_refusal
from mobadj.cards.registry import game_class


def seed_commitment(game: str, seed: int) -> str:
    """The published hash of the seed: ``sha256("<game>:<seed>")`` in hex."""
    return hashlib.sha256(f"{game}:{seed}".encode()).hexdigest()


@dataclass
class GameRecord:
    """Everything that defines a game: replaying ``actions`` from ``seed`` rebuilds it."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)
    rules_version: str = ""
    deck_version: str = ""

    @classmethod
    def of(cls, game: str, state: GameState) -> GameRecord:
        info = type(state).info
        return cls(
            game=game,
            players=state.players,
            seed=state.seed,
            options=dict(state.options),
            actions=list(state.actions),
            rules_version=info.rules_version,
            deck_version=info.deck_version,
        )

    @property
    def commitment(self) -> str:
        return seed_commitment(self.game, self.seed)

    def replay(self, upto: int | None = None) -> GameState:
        """The state after the first ``upto`` actions (all when None)."""
        state = game_class(self.game).new(self.players, self.seed, self.options)
        for player, text in self.actions[:upto]:
            state.command(player, text)
        return state

    def to_json(self, reveal_seed: bool = False) -> dict[str, Any]:
        """A JSON-able record; the seed itself only when ``reveal_seed`` (game over)."""
        data: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "rules_version": self.rules_version,
            "deck_version": self.deck_version,
            "seed_commitment": self.commitment,
            "actions": [[p, a] for p, a in self.actions],
        }
        if reveal_seed:
            data["seed"] = self.seed
        return data


def undo_last(game: str, state: GameState, player: int) -> GameState:
    """Take back ``player``'s last action if it was the last one made and the rules allow.

    Rebuilt by replay, so no undo data exists that could leak anything.
    """
    if not state.actions or state.actions[-1][0] != player:
        raise IllegalAction("you can only undo your own last action, before anyone else acts")
    record = GameRecord.of(game, state)
    before = record.replay(len(record.actions) - 1)
    action = before.parse(player, record.actions[-1][1])
    refusal = undo_refusal(before, state, player, action)
    if refusal:
        raise IllegalAction(refusal)
    return before
