"""micro mob actions: small frozen values whose ``str`` is the canonical command text.

``parse(str(action))`` gives the action back, so the game log is plain command text.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("hit", "hire", "ally")  # the three spending actions (rulebook, "gameplay")


@dataclass(frozen=True, slots=True)
class Draft:
    """Take a goon from the draft pool into your hand (set-up)."""

    card: str

    def __str__(self) -> str:
        return f"draft {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Hit, hire or ally: spend ``goons`` from your hand on the city boss ``target``."""

    kind: str  # one of KINDS
    target: str
    goons: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.kind} {self.target} with {' '.join(self.goons)}"

    @classmethod
    def fast(cls, kind: str, target: str, goons: tuple[str, ...]) -> Take:
        """The same value as ``Take(kind, target, goons)``, built at half the cost.

        Legal-action lists build thousands of these per simulated game; a frozen
        dataclass's ``__init__`` is the slowest part of that.
        """
        obj = _new(cls)
        _set_kind(obj, kind)
        _set_target(obj, target)
        _set_goons(obj, goons)
        return obj


_new = object.__new__
_set_kind = Take.__dict__["kind"].__set__  # the slot's own setter
_set_target = Take.__dict__["target"].__set__  # the slot's own setter
_set_goons = Take.__dict__["goons"].__set__  # the slot's own setter


@dataclass(frozen=True, slots=True)
class Payroll:
    """Return every goon in your fatigue area to your hand."""

    def __str__(self) -> str:
        return "payroll"


@dataclass(frozen=True, slots=True)
class Use:
    """Use the special ability of the ally ``card`` (before your action).

    ``target``: the card it moves (fatigue goon, ally, or city card for swap);
    ``give``: for swap, the goon from your hand that goes to the city.
    """

    card: str
    target: str | None = None
    give: str | None = None

    @classmethod
    def fast(cls, card: str, target: str | None, give: str | None) -> Use:
        """The same value as ``Use(card, target, give)``, built faster (see Take.fast)."""
        obj = _new(cls)
        _set_card(obj, card)
        _set_use_target(obj, target)
        _set_give(obj, give)
        return obj

    def __str__(self) -> str:
        if self.give is not None:
            return f"use {self.card} take {self.target} give {self.give}"
        if self.target is not None:
            return f"use {self.card} on {self.target}"
        return f"use {self.card}"


_set_card = Use.__dict__["card"].__set__  # the slot's own setter
_set_use_target = Use.__dict__["target"].__set__  # the slot's own setter
_set_give = Use.__dict__["give"].__set__  # the slot's own setter


@dataclass(frozen=True, slots=True)
class Done:
    """End your turn without taking the bonus actions still open to you."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Pass:
    """Take no action: only when no hit, hire, ally or payroll is possible (a ruling)."""

    def __str__(self) -> str:
        return "pass"


Action = Draft | Take | Payroll | Use | Done | Pass
