"""Mice Heist actions: small frozen values whose ``str()`` is the canonical command text.

The game log stores that text, and :func:`mobadj.cards.miceheist.parser.parse_command`
reads it back to the same action, so a game replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Select:
    """Select Obstacle: test the top obstacle of ``job``."""

    job: str

    def __str__(self) -> str:
        return f"select {self.job}"


@dataclass(frozen=True, slots=True)
class Bet:
    """Get Help: a sealed bet of ``amount`` cheese.

    ``uncover`` names covered skills to take the cheese from first (then other covered
    skills in the order they lie in front of you, then the stash); with ``amount`` 0 it is
    the one covered skill an abstaining player uncovers.
    """

    amount: int
    uncover: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"bet {self.amount}"
        return f"{text} uncover {', '.join(self.uncover)}" if self.uncover else text


@dataclass(frozen=True, slots=True)
class Use:
    """Activate Skills: pay a cheese onto ``skill``; ``chip`` (1-based) for flip/cancel."""

    skill: str
    chip: int | None = None

    def __str__(self) -> str:
        return f"use {self.skill}" if self.chip is None else f"use {self.skill} on {self.chip}"


@dataclass(frozen=True, slots=True)
class Test:
    """Calculate Result: stop activating and compare the rating with the target."""

    __test__ = False  # not a pytest test class

    def __str__(self) -> str:
        return "test"


@dataclass(frozen=True, slots=True)
class Learn:
    """After a failed test: learn ``skill`` from the market (None: learn nothing).

    ``discard`` is the skill returned to the box when you already have the maximum.
    """

    skill: str | None = None
    discard: str | None = None

    def __str__(self) -> str:
        if self.skill is None:
            return "learn nothing"
        return f"learn {self.skill}" + (f" discard {self.discard}" if self.discard else "")


Action = Select | Bet | Use | Test | Learn
