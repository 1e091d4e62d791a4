"""Units on the board and dislodged units: immutable values the engine reads on every order.

They live apart from :mod:`mobadj.engine.position` so that the compiled build can make them
native classes (their attributes are then read directly); a position itself stays a plain
class that variants extend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mobadj.board import province_of

__all__ = ["Dislodged", "UnitState", "unit_state"]


@dataclass(frozen=True, slots=True)
class UnitState:
    """A unit on the board: its power, kind (``A``/``F``; Mobtown ``G``/``D``) and location."""

    power: str
    kind: str
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"

    def __hash__(self) -> int:
        # written out, as the dataclass would make it: the compiled build hashes without
        # a Python call, and the dataclass makes one method fewer at every start
        return hash((self.power, self.kind, self.location))


_UNITS: Final[dict[tuple[str, str, str], UnitState]] = {}


def unit_state(power: str, kind: str, location: str) -> UnitState:
    """An interned UnitState (they are immutable; making them anew is the slow part)."""
    key = (power, kind, location)
    got = _UNITS.get(key)
    if got is None:
        got = _UNITS[key] = UnitState(power, kind, location)
    return got


@dataclass(frozen=True, slots=True, init=False)
class Dislodged:
    """A unit waiting to retreat.

    ``attacker_from`` is the province the dislodging unit started from; when it came by convoy
    (``convoyed``) the 2023 rules let the unit retreat there (DATC 4.A.5 b).  ``retreats`` are
    the legal retreat locations, filled in by the engine.
    """

    unit: UnitState
    attacker_from: str
    convoyed: bool = False
    retreats: tuple[str, ...] = ()
    via: str | None = None  # Mobtown: "subway" when the attacker came underground

    def __init__(self, unit: UnitState, attacker_from: str, convoyed: bool = False,
                 retreats: tuple[str, ...] = (), via: str | None = None) -> None:
        # written out (the dataclass would make the same): the compiled build then makes
        # dislodged units without a Python call
        setattr_ = object.__setattr__
        setattr_(self, "unit", unit)
        setattr_(self, "attacker_from", attacker_from)
        setattr_(self, "convoyed", convoyed)
        setattr_(self, "retreats", retreats)
        setattr_(self, "via", via)


    def __hash__(self) -> int:
        return hash((self.unit, self.attacker_from, self.convoyed, self.retreats, self.via))

    def as_data(self) -> dict[str, object]:
        """``{unit, from, convoyed?, via?, retreats}``: as a position file or a batch line
        writes it (and reads it back)."""
        entry: dict[str, object] = {"unit": str(self.unit), "from": self.attacker_from}
        if self.convoyed:
            entry["convoyed"] = True
        if self.via:
            entry["via"] = self.via
        entry["retreats"] = list(self.retreats)
        return entry
