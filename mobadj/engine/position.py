"""Positions: who stands where, who owns what, and which phase comes next.

A :class:`Position` is the whole state a phase is adjudicated from.  Its text form (YAML
file or batch JSON line) is documented in docs/adjudication.md::

    phase: S1901M
    units: {ENGLAND: [F LON, A LVP], RUSSIA: [F STP/SC]}
    centers: {ENGLAND: [LON, LVP, EDI]}
    dislodged: {GERMANY: [{unit: A MUN, from: BOH, convoyed: false}]}   # retreat phases
    standoffs: [BUR]                                                     # retreat phases

A variant reads and writes its own positions (a :class:`Position` subclass, its own phase and
:class:`Calendar`) through its rule hooks: :func:`position_from_data` and
:func:`initial_position` ask the map's rules (mobadj.engine.variants).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a type variable's default: typing has it from Python 3.13 on
    from typing_extensions import TypeVar
else:  # only the type checker reads the default, and typing_extensions takes every start ~10 ms
    import typing

    def TypeVar(name: str, *, default: object = None, **kwargs: Any) -> Any:  # noqa: N802
        return typing.TypeVar(name, **kwargs)

from mobadj.board import GameMap, province_of
from mobadj.engine.phases import (
    KIND_NAMES,
    SEASON_NAMES,
    STANDARD,
    Calendar,
    Phase,
    PhaseCalendar,
    PhaseLike,
    PositionError,
)
from mobadj.engine.units import Dislodged, UnitState

if TYPE_CHECKING:
    from mobadj.engine.rules import Rules

__all__ = ["KIND_NAMES", "SEASON_NAMES", "STANDARD", "Calendar", "Dislodged", "Phase",
           "PhaseCalendar", "PhaseLike", "Position", "PositionError", "UnitState",
           "initial_position", "position_from_data", "standard_initial_position",
           "unknown_keys"]


@dataclass(slots=True)
class Position:
    """The board a phase is adjudicated from (also the board after it)."""

    phase: PhaseLike
    units: dict[str, UnitState] = field(default_factory=dict)  # province -> unit
    centers: dict[str, str] = field(default_factory=dict)  # province -> owning power
    dislodged: dict[str, Dislodged] = field(default_factory=dict)  # province -> unit
    standoffs: frozenset[str] = frozenset()

    def copy(self) -> Position:
        return Position(
            self.phase, dict(self.units), dict(self.centers), dict(self.dislodged), self.standoffs
        )

    def units_of(self, power: str) -> list[UnitState]:
        return [u for u in self.units.values() if u.power == power]

    def centers_of(self, power: str) -> list[str]:
        return sorted(p for p, owner in self.centers.items() if owner == power)

    def powers(self) -> list[str]:
        """Every power with a unit, a centre or a dislodged unit, sorted."""
        seen = {u.power for u in self.units.values()}
        seen.update(self.centers.values())
        seen.update(d.unit.power for d in self.dislodged.values())
        return sorted(seen)

    # ---- text form -------------------------------------------------------------------------

    def dislodged_entry(self, d: Dislodged) -> dict[str, object]:
        """``{unit, from, convoyed?, via?, retreats}``: one dislodged unit as written."""
        return d.as_data()

    def unit_lists(self) -> dict[str, list[str]]:
        """Power -> its units as written (``["A PAR", "F BRE"]``), both sorted."""
        units: dict[str, list[str]] = {}
        for u in sorted(self.units.values(), key=lambda u: (u.power, str(u))):
            units.setdefault(u.power, []).append(str(u))
        return units

    def extra_data(self) -> dict[str, object]:
        """A variant's own keys of the text form (after the standard ones)."""
        return {}

    def to_data(self) -> dict[str, Any]:
        """The YAML/JSON shape (units and centres per power, dislodged with their retreats)."""
        centers: dict[str, list[str]] = {}
        for prov, owner in sorted(self.centers.items()):
            centers.setdefault(owner, []).append(prov)
        dislodged: dict[str, list[dict[str, object]]] = {}
        for d in sorted(self.dislodged.values(), key=lambda d: (d.unit.power, d.unit.location)):
            dislodged.setdefault(d.unit.power, []).append(self.dislodged_entry(d))
        return {
            "phase": str(self.phase),
            "units": self.unit_lists(),
            "centers": centers,
            "dislodged": dislodged,
            "standoffs": sorted(self.standoffs),
            **self.extra_data(),
        }


def standard_initial_position(game_map: GameMap, year: int | None = None) -> Position:
    """The starting position of a map: every power's starting units and home centres."""
    pos = Position(STANDARD.first(year))
    for pid, power in game_map.powers.items():
        for kind_, loc in power.starting_units:
            pos.units[province_of(loc)] = UnitState(pid, kind_, loc)
        for home in power.home_centers:
            pos.centers[home] = pid
    return pos


# ---- every map: the map's rules read and start its positions ---------------------------------


def position_from_data(
    data: Mapping[str, object], game_map: GameMap, rules: Rules | None = None
) -> Position:
    """Read a position of any map (its rules' shape); raises :class:`PositionError`."""
    if rules is None:
        from mobadj.engine.variants import default_rules

        rules = default_rules(game_map)
    return rules.position_from_data(data, game_map)


def unknown_keys(keys: Iterable[object], known: tuple[str, ...],
                 accepted: Collection[str] = ()) -> list[str]:
    """A warning for each of ``keys`` (a position's, in its order) that is neither one of
    ``known`` nor of ``accepted``, naming the known key it most resembles: a misspelt
    ``units`` would leave the board empty without a word, so it is said (the key itself is
    ignored).  ``accepted``: keys taken without a word but not suggested."""
    import difflib

    out = []
    for key in keys:
        if key in known or key in accepted:
            continue
        close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(known)})"
        out.append(f"unknown key {str(key)[:80]!r} ignored{hint}")
    return out


def initial_position(
    game_map: GameMap, year: int | None = None, rules: Rules | None = None
) -> Position:
    """The first position of a game on any map (its rules' set-up)."""
    if rules is None:
        from mobadj.engine.variants import default_rules

        rules = default_rules(game_map)
    return rules.initial_position(game_map, year)


#: the position a variant's rules read and write (a Position subclass may keep more state):
#: ``class MobtownRules(Rules[MobtownPosition])`` gets its own in every hook, without a cast
PositionT = TypeVar("PositionT", bound=Position, default=Position)
#: the position a phase's result holds: ``PhaseResult[MobtownPosition]`` is read as any
#: ``PhaseResult`` by the reports and front ends, which only read it
ResultPositionT = TypeVar("ResultPositionT", bound=Position, default=Position, covariant=True)
