"""Order value types shared by the parser, the resolver and every front end.

Each order is an immutable record (mobadj.records) whose ``str()`` is its canonical
text, so a parsed order prints back as an order a judge would accept (round-trip).
Locations are map location ids: a province id (``"PAR"``, ``"Lex"``) or a province with a coast
(``"STP/NC"``).  Unit kinds: ``A`` army, ``F`` fleet, ``G`` Gang, ``D`` Don, and
``"?"`` (:data:`UNKNOWN_KIND`) when an order left the type out and the map alone cannot
tell ("Remove pic"); the engine then takes the kind of the unit standing there.

Phases: the parser cannot know the phase, so "A PAR - BUR" is always a :class:`Move`;
in a retreat phase the engine treats a Move as a retreat, a :class:`Disband` in an
adjustment phase as a removal and a :class:`Remove` in a retreat phase as a disband.
"""

from __future__ import annotations

from typing import Final, Protocol, final

from mobadj.board import province_of
from mobadj.records import Record

UNKNOWN_KIND: Final = "?"
"""The kind of a unit whose type the order left out and the map could not infer."""

#: route tag -> how orders write it (between the arrows of a move, after a retreat's R)
_ROUTE_MARKS: Final[dict[str, str]] = {}


def register_route(tag: str, mark: str) -> None:
    """A variant's route tag, and the mark its orders write for it: Mobtown's ``"subway"``
    is written ``U`` (``G Tam - U - Ext``, ``G Mem R U WCP``)."""
    _ROUTE_MARKS[tag] = mark


def route_mark(tag: str) -> str:
    """How orders write a route tag (the tag itself, if no variant registered it)."""
    return _ROUTE_MARKS.get(tag, tag)


@final
class Unit(Record):
    """A unit as an order names it: kind and location (the power is known from context)."""

    __slots__ = ("kind", "location")
    _fields = ("kind", "location")
    kind: str
    location: str

    def __init__(self, kind: str, location: str) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "location", location)

    def __eq__(self, other: object) -> bool:
        return type(other) is Unit and self.kind == other.kind and self.location == other.location

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __hash__(self) -> int:
        return hash((self.kind, self.location))

    def __str__(self) -> str:
        if self.kind == UNKNOWN_KIND:
            return self.location
        return f"{self.kind} {self.location}"


@final
class Hold(Record):
    """The unit stays where it is (``A PAR H``)."""

    __slots__ = ("unit",)
    _fields = ("unit",)
    unit: Unit

    def __init__(self, unit: Unit) -> None:
        object.__setattr__(self, "unit", unit)

    def __eq__(self, other: object) -> bool:
        return type(other) is Hold and self.unit == other.unit

    def __str__(self) -> str:
        return f"{self.unit} H"

    def __hash__(self) -> int:
        return hash((self.unit,))


@final
class Move(Record):
    """A move; ``via_convoy`` is the explicit "via convoy" (or a written convoy route);
    ``route`` a variant's route tag (:func:`register_route`; Mobtown's ``"subway"``,
    written ``G Tam - U - Ext``); ``escort`` the kind of a piece that travels with the unit
    (Mobtown's Don, ``G+D Lex - Col``)."""

    __slots__ = ("unit", "destination", "via_convoy", "route", "escort")
    _fields = ("unit", "destination", "via_convoy", "route", "escort")
    unit: Unit
    destination: str
    via_convoy: bool
    route: str
    escort: str

    def __init__(self, unit: Unit, destination: str, via_convoy: bool = False, route: str = "",
                 escort: str = "") -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "via_convoy", via_convoy)
        object.__setattr__(self, "route", route)
        object.__setattr__(self, "escort", escort)

    def __eq__(self, other: object) -> bool:
        return (type(other) is Move and self.unit == other.unit
                and self.destination == other.destination and self.via_convoy == other.via_convoy
                and self.route == other.route and self.escort == other.escort)

    def __str__(self) -> str:
        arrow = f" - {route_mark(self.route)} - " if self.route else " - "
        unit = (f"{self.unit.kind}+{self.escort} {self.unit.location}" if self.escort
                else str(self.unit))
        text = f"{unit}{arrow}{self.destination}"
        return text + (" via convoy" if self.via_convoy else "")

    def __hash__(self) -> int:
        return hash((self.unit, self.destination, self.via_convoy, self.route, self.escort))


@final
class SupportHold(Record):
    """Support of ``supported`` where it stands (``A PAR S A BUR``)."""

    __slots__ = ("unit", "supported")
    _fields = ("unit", "supported")
    unit: Unit
    supported: Unit

    def __init__(self, unit: Unit, supported: Unit) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "supported", supported)

    def __eq__(self, other: object) -> bool:
        return (type(other) is SupportHold and self.unit == other.unit
                and self.supported == other.supported)

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"

    def __hash__(self) -> int:
        return hash((self.unit, self.supported))


@final
class SupportMove(Record):
    """Support of ``supported`` moving to ``destination`` (a province or location id)."""

    __slots__ = ("unit", "supported", "destination", "route")
    _fields = ("unit", "supported", "destination", "route")
    unit: Unit
    supported: Unit
    destination: str
    route: str

    def __init__(self, unit: Unit, supported: Unit, destination: str, route: str = "") -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "supported", supported)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "route", route)

    def __eq__(self, other: object) -> bool:
        return (type(other) is SupportMove and self.unit == other.unit
                and self.supported == other.supported and self.destination == other.destination
                and self.route == other.route)

    def __str__(self) -> str:
        arrow = f" - {route_mark(self.route)} - " if self.route else " - "
        return f"{self.unit} S {self.supported}{arrow}{self.destination}"

    def __hash__(self) -> int:
        return hash((self.unit, self.supported, self.destination, self.route))


@final
class Convoy(Record):
    """A fleet carrying ``convoyed`` to ``destination`` (``F NTH C A LON - NWY``)."""

    __slots__ = ("unit", "convoyed", "destination")
    _fields = ("unit", "convoyed", "destination")
    unit: Unit
    convoyed: Unit
    destination: str

    def __init__(self, unit: Unit, convoyed: Unit, destination: str) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "convoyed", convoyed)
        object.__setattr__(self, "destination", destination)

    def __eq__(self, other: object) -> bool:
        return (type(other) is Convoy and self.unit == other.unit
                and self.convoyed == other.convoyed and self.destination == other.destination)

    def __str__(self) -> str:
        return f"{self.unit} C {self.convoyed} - {self.destination}"

    def __hash__(self) -> int:
        return hash((self.unit, self.convoyed, self.destination))


@final
class Retreat(Record):
    """An explicit retreat ("A PAR R BUR"); "A PAR - BUR" parses as a Move (see above)."""

    __slots__ = ("unit", "destination", "route")
    _fields = ("unit", "destination", "route")
    unit: Unit
    destination: str
    route: str

    def __init__(self, unit: Unit, destination: str, route: str = "") -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "route", route)

    def __eq__(self, other: object) -> bool:
        return (type(other) is Retreat and self.unit == other.unit
                and self.destination == other.destination and self.route == other.route)

    def __str__(self) -> str:
        marker = f" R {route_mark(self.route)} " if self.route else " R "
        return f"{self.unit}{marker}{self.destination}"

    def __hash__(self) -> int:
        return hash((self.unit, self.destination, self.route))


@final
class Disband(Record):
    """A dislodged unit leaves the board (``A PAR D``); a removal in an adjustment phase."""

    __slots__ = ("unit",)
    _fields = ("unit",)
    unit: Unit

    def __init__(self, unit: Unit) -> None:
        object.__setattr__(self, "unit", unit)

    def __eq__(self, other: object) -> bool:
        return type(other) is Disband and self.unit == other.unit

    def __str__(self) -> str:
        return f"{self.unit} Disband"

    def __hash__(self) -> int:
        return hash((self.unit,))


@final
class Build(Record):
    """A new unit in a home supply centre (``Build A PAR``)."""

    __slots__ = ("unit",)
    _fields = ("unit",)
    unit: Unit

    def __init__(self, unit: Unit) -> None:
        object.__setattr__(self, "unit", unit)

    def __eq__(self, other: object) -> bool:
        return type(other) is Build and self.unit == other.unit

    def __str__(self) -> str:
        return f"Build {self.unit}"

    def __hash__(self) -> int:
        return hash((self.unit,))


@final
class Remove(Record):
    """A unit taken off in an adjustment phase (``Remove F KIE``)."""

    __slots__ = ("unit",)
    _fields = ("unit",)
    unit: Unit

    def __init__(self, unit: Unit) -> None:
        object.__setattr__(self, "unit", unit)

    def __eq__(self, other: object) -> bool:
        return type(other) is Remove and self.unit == other.unit

    def __str__(self) -> str:
        return f"Remove {self.unit}"

    def __hash__(self) -> int:
        return hash((self.unit,))


@final
class Waive(Record):
    """A build given up (``Waive``)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Waive


    def __str__(self) -> str:
        return "Waive"

    def __hash__(self) -> int:
        return hash(())


Order = (Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Remove
         | Waive)
"""The orders of every map."""


class VariantOrder(Protocol):
    """An order a variant adds through its grammar extension (Mobtown's Don placement and
    cement overcoat): a frozen value naming its unit, whose ``str()`` is its text."""

    @property
    def unit(self) -> Unit: ...


AnyOrder = Order | VariantOrder
"""What the parser returns: an order of every map or one a variant's grammar adds."""
