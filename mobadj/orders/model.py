"""Order value types shared by the parser, the resolver and every front end.

Each order is a frozen dataclass whose ``str()`` is its canonical text, so a parsed
order prints back as an order a judge would accept (round-trip).  Locations are map
location ids: a province id (``"PAR"``, ``"Lex"``) or a province with a coast
(``"STP/NC"``).  Unit kinds: ``A`` army, ``F`` fleet, ``G`` Gang, ``D`` Don, and
``"?"`` (:data:`UNKNOWN_KIND`) when an order left the type out and the map alone cannot
tell ("Remove pic"); the engine then takes the kind of the unit standing there.

Phases: the parser cannot know the phase, so "A PAR - BUR" is always a :class:`Move`;
in a retreat phase the engine treats a Move as a retreat, a :class:`Disband` in an
adjustment phase as a removal and a :class:`Remove` in a retreat phase as a disband.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from mobadj.board import province_of

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


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit as an order names it: kind and location (the power is known from context)."""

    kind: str
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __hash__(self) -> int:
        # written out (the dataclass would make the same): the compiled build then hashes
        # units, keys of the parser's caches, without a Python call
        return hash((self.kind, self.location))

    def __str__(self) -> str:
        if self.kind == UNKNOWN_KIND:
            return self.location
        return f"{self.kind} {self.location}"


@dataclass(frozen=True, slots=True)
class Hold:
    """The unit stays where it is (``A PAR H``)."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"

    def __hash__(self) -> int:
        # written out, as the dataclass would make it: the compiled build hashes without
        # a Python call, and the dataclass makes one method fewer at every start
        return hash((self.unit,))


@dataclass(frozen=True, slots=True)
class Move:
    """A move; ``via_convoy`` is the explicit "via convoy" (or a written convoy route);
    ``route`` a variant's route tag (:func:`register_route`; Mobtown's ``"subway"``,
    written ``G Tam - U - Ext``); ``escort`` the kind of a piece that travels with the unit
    (Mobtown's Don, ``G+D Lex - Col``)."""

    unit: Unit
    destination: str
    via_convoy: bool = False
    route: str = ""
    escort: str = ""

    def __str__(self) -> str:
        arrow = f" - {route_mark(self.route)} - " if self.route else " - "
        unit = (f"{self.unit.kind}+{self.escort} {self.unit.location}" if self.escort
                else str(self.unit))
        text = f"{unit}{arrow}{self.destination}"
        return text + (" via convoy" if self.via_convoy else "")

    def __hash__(self) -> int:
        return hash((self.unit, self.destination, self.via_convoy, self.route, self.escort))


@dataclass(frozen=True, slots=True)
class SupportHold:
    """Support of ``supported`` where it stands (``A PAR S A BUR``)."""

    unit: Unit
    supported: Unit

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"

    def __hash__(self) -> int:
        return hash((self.unit, self.supported))


@dataclass(frozen=True, slots=True)
class SupportMove:
    """Support of ``supported`` moving to ``destination`` (a province or location id)."""

    unit: Unit
    supported: Unit
    destination: str
    route: str = ""  # the route tag of the supported move (a variant's, as Move's)

    def __str__(self) -> str:
        arrow = f" - {route_mark(self.route)} - " if self.route else " - "
        return f"{self.unit} S {self.supported}{arrow}{self.destination}"

    def __hash__(self) -> int:
        return hash((self.unit, self.supported, self.destination, self.route))


@dataclass(frozen=True, slots=True)
class Convoy:
    """A fleet carrying ``convoyed`` to ``destination`` (``F NTH C A LON - NWY``)."""

    unit: Unit
    convoyed: Unit
    destination: str

    def __str__(self) -> str:
        return f"{self.unit} C {self.convoyed} - {self.destination}"

    def __hash__(self) -> int:
        return hash((self.unit, self.convoyed, self.destination))


@dataclass(frozen=True, slots=True)
class Retreat:
    """An explicit retreat ("A PAR R BUR"); "A PAR - BUR" parses as a Move (see above)."""

    unit: Unit
    destination: str
    route: str = ""  # a variant's route tag, as Move's

    def __str__(self) -> str:
        marker = f" R {route_mark(self.route)} " if self.route else " R "
        return f"{self.unit}{marker}{self.destination}"

    def __hash__(self) -> int:
        return hash((self.unit, self.destination, self.route))


@dataclass(frozen=True, slots=True)
class Disband:
    """A dislodged unit leaves the board (``A PAR D``); a removal in an adjustment phase."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} Disband"

    def __hash__(self) -> int:
        return hash((self.unit,))


@dataclass(frozen=True, slots=True)
class Build:
    """A new unit in a home supply centre (``Build A PAR``)."""

    unit: Unit

    def __str__(self) -> str:
        return f"Build {self.unit}"

    def __hash__(self) -> int:
        return hash((self.unit,))


@dataclass(frozen=True, slots=True)
class Remove:
    """A unit taken off in an adjustment phase (``Remove F KIE``)."""

    unit: Unit

    def __str__(self) -> str:
        return f"Remove {self.unit}"

    def __hash__(self) -> int:
        return hash((self.unit,))


@dataclass(frozen=True, slots=True)
class Waive:
    """A build given up (``Waive``)."""

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
