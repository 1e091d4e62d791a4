"""Phases and the calendar that orders them: ``S1901M``, the standard year, what comes next.

Kept apart from :mod:`mobadj.engine.position` so that the compiled build can compile them
(every phase of a batch asks the calendar what comes next); a position itself stays a plain
class that variants extend.  A variant brings its own phases and calendar (the protocols
below say what the engine asks of them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol, final

from mobadj.errors import EngineError
from mobadj.records import Record

__all__ = ["KIND_NAMES", "SEASON_NAMES", "STANDARD", "Calendar", "Phase", "PhaseCalendar",
           "PhaseLike", "PositionError"]

SEASON_NAMES: Final = {"S": "Spring", "F": "Fall", "W": "Winter"}
KIND_NAMES: Final = {"M": "Movement", "R": "Retreats", "A": "Adjustments"}
# ASCII digits only
_PHASE_RE: Final = re.compile(r"^\s*([A-Za-z])\s*([0-9]{1,5})\s*([A-Za-z])\s*$")
#: a phase as mobadj's reports name it: "Spring 1901 Movement", "Fall 1901 Retreats (F1901R)",
#: "Winter 1901" (adjustments), "Autumn 1902"
_LONG_RE: Final = re.compile(
    r"^\s*(spring|fall|autumn|winter)\s+([0-9]{1,5})\s*(movements?|moves?|retreats?|"
    r"adjustments?|builds?)?\s*(?:\(\s*([A-Za-z][0-9]{1,5}[A-Za-z])\s*\))?\s*$", re.I)
_LONG_KINDS: Final = {"mov": "M", "ret": "R", "adj": "A", "bui": "A"}
_PHASES: Final[dict[tuple[int, str, str], Phase]] = {}
_PHASE_TEXT: Final[dict[str, Phase]] = {}


class PositionError(EngineError, ValueError):
    """A position (YAML file or batch line) that cannot be read; the message says what and where."""


@final
class Phase(Record):
    """A phase such as ``S1901M`` (Spring 1901 movement), ``F1901R``, ``W1901A``; phases
    compare as (year, season, kind)."""

    __slots__ = ("year", "season", "kind")
    _fields = ("year", "season", "kind")
    year: int
    season: str
    kind: str

    def __init__(self, year: int, season: str, kind: str) -> None:
        object.__setattr__(self, "year", year)
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "kind", kind)

    def _key(self) -> tuple[int, str, str]:
        return (self.year, self.season, self.kind)

    def __eq__(self, other: object) -> bool:
        return (type(other) is Phase and self.year == other.year
                and self.season == other.season and self.kind == other.kind)

    def __lt__(self, other: object) -> bool:
        if type(other) is not Phase:
            return NotImplemented  # (another kind of value: Python says they do not compare)
        return self._key() < other._key()

    def __le__(self, other: object) -> bool:
        if type(other) is not Phase:
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: object) -> bool:
        if type(other) is not Phase:
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: object) -> bool:
        if type(other) is not Phase:
            return NotImplemented
        return self._key() >= other._key()

    @classmethod
    def of(cls, year: int, season: str, kind: str) -> Phase:
        """The (interned) phase; phases are immutable and made often."""
        key = (year, season, kind)
        got = _PHASES.get(key)
        if got is None:
            got = _PHASES[key] = cls(year, season, kind)
        return got

    @classmethod
    def parse(cls, text: object) -> Phase:
        """Read ``S1901M``; raises :class:`PositionError` with the expected shape."""
        got = _PHASE_TEXT.get(text) if type(text) is str else None
        if got is not None:
            return got
        m = _PHASE_RE.match(str(text))
        if not m:
            long = _long_phase(str(text))
            if long is None:
                raise PositionError(f"bad phase {text!r}: expected e.g. S1901M, F1901R or "
                                    "W1901A (or Spring 1901 Movement)")
            if type(text) is str:
                _PHASE_TEXT[text] = long
            return long
        season, year, kind = m.group(1).upper(), int(m.group(2)), m.group(3).upper()
        if kind not in KIND_NAMES:
            raise PositionError(f"bad phase {text!r}: last letter must be M, R or A")
        if year < 1:
            raise PositionError(f"bad phase {text!r}: there is no year 0")
        phase = cls.of(year, season, kind)
        if type(text) is str:
            _PHASE_TEXT[text] = phase
        return phase

    @property
    def is_movement(self) -> bool:
        return self.kind == "M"

    @property
    def is_retreat(self) -> bool:
        return self.kind == "R"

    @property
    def is_adjustment(self) -> bool:
        return self.kind == "A"

    def long_name(self) -> str:
        """``Spring 1901 Movement``."""
        season = SEASON_NAMES.get(self.season, self.season)
        return f"{season} {self.year} {KIND_NAMES[self.kind]}"

    def place(self) -> tuple[str, str]:
        """Its place in a calendar of the game: (group, name in the group), e.g.
        ``("1901", "Fall retreats")``."""
        return str(self.year), SEASON_NAMES.get(self.season, self.season) + _IN_GROUP[self.kind]

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    def __hash__(self) -> int:
        return hash((self.year, self.season, self.kind))


_IN_GROUP: Final = {"M": "", "R": " retreats", "A": " adjustments"}


def _long_phase(text: str) -> Phase | None:
    """The phase ``text`` names as a report does ("Spring 1901 Movement", "Winter 1901"),
    else None; a phase id in brackets after it must be the same phase."""
    m = _LONG_RE.match(text)
    if m is None:
        return None
    season = {"spring": "S", "fall": "F", "autumn": "F", "winter": "W"}[m.group(1).lower()]
    year = int(m.group(2))
    word = m.group(3)
    kind = _LONG_KINDS[word[:3].lower()] if word else ("A" if season == "W" else "M")
    if year < 1 or (season == "W") != (kind == "A"):
        return None
    phase = Phase.of(year, season, kind)
    given = m.group(4)
    if given is not None and given.upper() != str(phase):
        return None
    return phase


class PhaseLike(Protocol):
    """What the engine asks of any phase (a variant's calendar may have its own phases)."""

    @property
    def year(self) -> int: ...

    @property
    def is_movement(self) -> bool: ...

    @property
    def is_retreat(self) -> bool: ...

    @property
    def is_adjustment(self) -> bool: ...

    def long_name(self) -> str: ...

    def place(self) -> tuple[str, str]:
        """(group, name in the group) in a calendar of the game (the game pages)."""
        ...


# ---- the calendar ---------------------------------------------------------------------------


class PhaseCalendar(Protocol):
    """What the engine asks of a variant's calendar (:class:`Calendar` is the standard one)."""

    # ``phase`` is one this calendar made (its own type, e.g. Mobtown's weeks): the engine
    # only hands back what ``parse``, ``first`` and ``next_phase`` gave it

    def parse(self, text: object) -> PhaseLike:
        """The phase written ``text``; raises :class:`PositionError`."""

    def first(self, year: int | None = None) -> PhaseLike:
        """The first phase of a game."""

    def next_phase(
        self, phase: Any, has_dislodged: bool, needs_adjustment: Callable[[], bool]
    ) -> PhaseLike:
        """The next phase to play."""

    def scores_after(self, phase: Any, has_retreat_phase_next: bool) -> bool:
        """Do centres change owner once ``phase`` is adjudicated?"""


@dataclass(frozen=True)
class Calendar:
    """The order of phases in a year, and which ones may be skipped.

    ``cycle`` lists (season, kind) in order.  A retreat phase is skipped when nothing is
    dislodged; an adjustment phase when no power has a build or removal to make (as judges do).
    ``scoring`` lists the seasons after which supply centres change owner.
    """

    name: str
    cycle: tuple[tuple[str, str], ...]
    scoring: frozenset[str]

    def parse(self, text: object) -> Phase:
        """``S1901M`` -> the Phase, if this calendar has such phases."""
        phase = Phase.parse(text)
        if (phase.season, phase.kind) not in self.cycle:
            known = ", ".join(f"{s}....{k}" for s, k in self.cycle)
            raise PositionError(f"bad phase {text!r}: this map's phases are {known}")
        return phase

    def first(self, year: int | None = None) -> Phase:
        """The first phase of a game starting in ``year`` (1901 by default)."""
        season, kind = self.cycle[0]
        return Phase(1901 if year is None else year, season, kind)

    def following(self, phase: Phase) -> Phase:
        """The phase right after ``phase`` (no skipping)."""
        i = self.cycle.index((phase.season, phase.kind))
        if i + 1 < len(self.cycle):
            season, kind = self.cycle[i + 1]
            return Phase.of(phase.year, season, kind)
        season, kind = self.cycle[0]
        return Phase.of(phase.year + 1, season, kind)

    def next_phase(
        self,
        phase: Phase,
        has_dislodged: bool,
        needs_adjustment: Callable[[], bool],
    ) -> Phase:
        """The next phase to play, skipping empty retreat and adjustment phases."""
        nxt = self.following(phase)
        while True:
            if nxt.kind == "R" and not (has_dislodged and phase.kind == "M"):
                nxt = self.following(nxt)
                continue
            if nxt.kind == "A" and not needs_adjustment():
                nxt = self.following(nxt)
                continue
            return nxt

    def scores_after(self, phase: Phase, has_retreat_phase_next: bool) -> bool:
        """Do centres change owner once ``phase`` is adjudicated?

        After the last movement of a scoring season if no retreat phase follows, else after
        that season's retreats.
        """
        if phase.season not in self.scoring:
            return False
        if phase.kind == "R":
            return True
        return phase.kind == "M" and not has_retreat_phase_next

    def __hash__(self) -> int:
        return hash((self.name, self.cycle, self.scoring))


#: The standard calendar: spring and fall movement with retreats, winter adjustments.
STANDARD: Final = Calendar(
    "standard",
    (("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")),
    frozenset({"F"}),
)
