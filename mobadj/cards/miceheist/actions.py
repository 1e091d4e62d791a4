"""Mice Heist actions: small frozen values whose ``str()`` is the canonical command text.

The game log stores that text, and :func:`mobadj.cards.miceheist.parser.parse_command`
reads it back to the same action, so a game replays exactly.  The text is made once, when
the action is created (random playouts print every action they apply).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Select:
    """Select Obstacle: test the top obstacle of ``job``."""

    job: str
    _text: str = field(init=False, repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", f"select {self.job}")

    def __str__(self) -> str:
        return self._text


@dataclass(frozen=True, slots=True)
class Bet:
    """Get Help: a sealed bet of ``amount`` cheese.

    ``uncover`` names covered skills to take the cheese from first (then other covered
    skills in the order they lie in front of you, then the stash); with ``amount`` 0 it is
    the one covered skill an abstaining player uncovers.
    """

    amount: int
    uncover: tuple[str, ...] = ()
    _text: str = field(init=False, repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        text = f"bet {self.amount}"
        if self.uncover:
            text += f" uncover {', '.join(self.uncover)}"
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text


@dataclass(frozen=True, slots=True)
class Use:
    """Activate Skills: pay a cheese onto ``skill``; ``chip`` (1-based) for flip/cancel."""

    skill: str
    chip: int | None = None
    _text: str = field(init=False, repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        text = f"use {self.skill}" if self.chip is None else f"use {self.skill} on {self.chip}"
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text


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
    _text: str = field(init=False, repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        if self.skill is None:
            text = "learn nothing"
        else:
            text = f"learn {self.skill}" + (f" discard {self.discard}" if self.discard else "")
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text


Action = Select | Bet | Use | Test | Learn
