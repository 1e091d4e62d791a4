"""Micro City actions: frozen values whose ``str()`` is the canonical command text.

``parse(str(action)) == action`` for every action (the game log stores the text).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True, slots=True)
class Start:
    """Place your Engineer on a Quarter of your choice (set-up)."""

    quarter: str

    def __str__(self) -> str:
        return f"start {self.quarter}"


@dataclass(frozen=True, slots=True)
class Assign:
    """Cooperative preparation: the two dice (1-4) that go to the first player's pool."""

    dice: tuple[int, int]

    def __str__(self) -> str:
        return f"assign {self.dice[0]} {self.dice[1]}"


@dataclass(frozen=True, slots=True)
class ChangeDie:
    """Preparation: change a die by +1/-1 (6 and 1 wrap) paying a Material or 2 money."""

    die: int  # 1-based
    up: bool
    pay: str

    def __str__(self) -> str:
        return f"change die{self.die} {'up' if self.up else 'down'} pay {self.pay}"


@dataclass(frozen=True, slots=True)
class RemoveMarker:
    """Preparation: remove an Investment marker from a Quarter paying a Material or 2 money."""

    quarter: str
    pay: str

    def __str__(self) -> str:
        return f"remove {self.quarter} pay {self.pay}"


@dataclass(frozen=True, slots=True)
class Sell:
    """Preparation: sell 1 Material for 1 money."""

    material: str

    def __str__(self) -> str:
        return f"sell {self.material}"


@dataclass(frozen=True, slots=True)
class Done:
    """End the preparation phase."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Play:
    """Project phase: play a Project card and move the Engineer to ``to``."""

    card: str
    to: str

    def __str__(self) -> str:
        return f"play {self.card} to {self.to}"


@dataclass(frozen=True, slots=True)
class Retrieve:
    """Project phase: move 1 Quarter and take back every discarded Project card."""

    to: str

    def __str__(self) -> str:
        return f"retrieve to {self.to}"


@dataclass(frozen=True, slots=True)
class Do:
    """Carry out the pending action (card, Quarter or bonus) at ``level`` with arguments."""

    level: str  # basic / advanced / bonus
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.level, *self.args))


@dataclass(frozen=True, slots=True)
class Pass:
    """Forgo the pending (optional) action."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Claim:
    """Competitive: take a face-up Advantage card whose condition you meet."""

    card: int

    def __str__(self) -> str:
        return f"claim {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Competitive: with an empty pool, lose 1 point and take back your marker from ``area``."""

    area: str

    def __str__(self) -> str:
        return f"take {self.area}"


Action = (Start | Assign | ChangeDie | RemoveMarker | Sell | Done | Play | Retrieve | Do | Pass
          | Claim | Take)


Table = dict[str, tuple[Any, Any]]


def put(table: Table, action: Any, payload: Any) -> None:
    """Add a legal action to a table keyed by its canonical text (str keys hash fast)."""
    table[str(action)] = (action, payload)


@cache
def play(card: str, to: str) -> tuple[str, Play]:
    """An interned :class:`Play` with its text (tables build the same ones again and again)."""
    a = Play(card, to)
    return str(a), a


@cache
def change_die(die: int, up: bool, pay: str) -> tuple[str, ChangeDie]:
    a = ChangeDie(die, up, pay)
    return str(a), a


@cache
def remove_marker(quarter: str, pay: str) -> tuple[str, RemoveMarker]:
    a = RemoveMarker(quarter, pay)
    return str(a), a


@cache
def retrieve(to: str) -> tuple[str, Retrieve]:
    a = Retrieve(to)
    return str(a), a
