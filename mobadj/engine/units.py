"""Units on the board and dislodged units: immutable values the engine reads on every order.

They live apart from :mod:`mobadj.engine.position` so that the compiled build can make them
native classes (their attributes are then read directly); a position itself stays a plain
class that variants extend.
"""

from __future__ import annotations

from typing import Final, final

from mobadj.board import province_of
from mobadj.records import Record

__all__ = ["Dislodged", "UnitState", "unit_state"]


@final
class UnitState(Record):
    """A unit on the board: its power, kind (``A``/``F``; Mobtown ``G``/``D``) and location;
    ``text`` is how it is written (``"F STP/SC"``), made once: a batch line writes every
    unit of the board, and units are interned (:func:`unit_state`)."""

    __slots__ = ("power", "kind", "location", "text")
    _fields = ("power", "kind", "location")
    _derived = ("text",)
    power: str
    kind: str
    location: str
    text: str

    def __init__(self, power: str, kind: str, location: str) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "text", f"{kind} {location}")

    def __eq__(self, other: object) -> bool:
        return (type(other) is UnitState and self.power == other.power
                and self.kind == other.kind and self.location == other.location)

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return hash((self.power, self.kind, self.location))


_UNITS: Final[dict[tuple[str, str, str], UnitState]] = {}


def unit_state(power: str, kind: str, location: str) -> UnitState:
    """An interned UnitState (they are immutable; making them anew is the slow part)."""
    key = (power, kind, location)
    got = _UNITS.get(key)
    if got is None:
        got = _UNITS[key] = UnitState(power, kind, location)
    return got


@final
class Dislodged(Record):
    """A unit waiting to retreat.

    ``attacker_from`` is the province the dislodging unit started from; when it came by convoy
    (``convoyed``) the 2023 rules let the unit retreat there (DATC 4.A.5 b).  ``retreats`` are
    the legal retreat locations, filled in by the engine.
    """

    __slots__ = ("unit", "attacker_from", "convoyed", "retreats", "via")
    _fields = ("unit", "attacker_from", "convoyed", "retreats", "via")
    unit: UnitState
    attacker_from: str
    convoyed: bool
    retreats: tuple[str, ...]
    via: str | None  # Mobtown: "subway" when the attacker came underground

    def __init__(self, unit: UnitState, attacker_from: str, convoyed: bool = False,
                 retreats: tuple[str, ...] = (), via: str | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "attacker_from", attacker_from)
        object.__setattr__(self, "convoyed", convoyed)
        object.__setattr__(self, "retreats", retreats)
        object.__setattr__(self, "via", via)

    def __eq__(self, other: object) -> bool:
        return (type(other) is Dislodged and self.unit == other.unit
                and self.attacker_from == other.attacker_from
                and self.convoyed == other.convoyed and self.retreats == other.retreats
                and self.via == other.via)

    def with_retreats(self, retreats: tuple[str, ...]) -> Dislodged:
        """This unit with ``retreats`` as its retreat locations."""
        return Dislodged(self.unit, self.attacker_from, self.convoyed, retreats, self.via)

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
