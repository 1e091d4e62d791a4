"""The Mobtown II calendar (rule 6): weeks, weekends and the June 1919 Don placement.

Phases are written ``1919-06-START`` (the weekend at the end of June 1919: each mob places
its Don), ``YYYY-MM-Wn-M`` (movement of week n, four weeks to a month), ``YYYY-MM-Wn-R``
(that weekend's retreats) and ``YYYY-MM-Wn-A`` (adjustments, after weeks 2 and 4 only).
Centres change hands on possession at the end of week 2 or 4 (rule 6); victory is checked
then too (rule 8).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from mobadj.engine import PositionError

START, MOVE, RETREAT, ADJUST = "START", "M", "R", "A"
SCORING_WEEKS = (2, 4)  # rule 6: possession at the end of week 2 or 4; rule 8
FIRST = "1919-06-START"
_RE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(?:(START)|W([1-4])-([MRA]))\s*$", re.IGNORECASE)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


_KIND_ORDER = {START: 0, MOVE: 1, RETREAT: 2, ADJUST: 3}


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class MPhase:
    """One Mobtown phase: year, month, week (0 for the June 1919 weekend) and kind.
    Phases compare in playing order (movement, then retreats, then adjustments)."""

    year: int
    month: int
    week: int
    kind: str

    def key(self) -> tuple[int, int, int, int]:
        """The playing-order key."""
        return (self.year, self.month, self.week, _KIND_ORDER[self.kind])

    def __lt__(self, other: MPhase) -> bool:
        return self.key() < other.key()

    @classmethod
    def parse(cls, text: object) -> MPhase:
        """``1919-07-W1-M`` -> MPhase; raises PositionError saying the expected shape."""
        m = _RE.match(str(text))
        if not m:
            raise PositionError(
                f"bad phase {text!r}: expected 1919-06-START or YYYY-MM-Wn-M|R|A, "
                "e.g. 1919-07-W1-M")
        year, month = int(m.group(1)), int(m.group(2))
        if not 1 <= month <= 12:
            raise PositionError(f"bad phase {text!r}: month must be 01-12")
        if m.group(3):
            return cls(year, month, 0, START)
        week, kind = int(m.group(4)), m.group(5).upper()
        if kind == ADJUST and week not in SCORING_WEEKS:
            raise PositionError(f"bad phase {text!r}: adjustments come only after week 2 or 4")
        return cls(year, month, week, kind)

    @property
    def is_start(self) -> bool:
        """The June 1919 Don placement."""
        return self.kind == START

    @property
    def is_movement(self) -> bool:
        """A week's movement."""
        return self.kind == MOVE

    @property
    def is_retreat(self) -> bool:
        """A weekend's retreats."""
        return self.kind == RETREAT

    @property
    def is_adjustment(self) -> bool:
        """The adjustments after week 2 or 4."""
        return self.kind == ADJUST

    @property
    def scoring(self) -> bool:
        """Week 2 or 4: centres change hands at its end (rule 6)."""
        return self.week in SCORING_WEEKS

    def long_name(self) -> str:
        """``Week 1, July 1919: movement``."""
        month = f"{_MONTHS[self.month - 1]} {self.year}"
        if self.is_start:
            return f"Weekend at the end of {month}: Don placement"
        what = {MOVE: "movement", RETREAT: "weekend retreats", ADJUST: "weekend adjustments"}
        return f"Week {self.week}, {month}: {what[self.kind]}"

    def place(self) -> tuple[str, str]:
        """Its place in the calendar: ``("July 1919", "Week 2")``, ``("June 1919", "Don
        placement")``."""
        month = f"{_MONTHS[self.month - 1]} {self.year}"
        if self.is_start:
            return month, "Don placement"
        return month, f"Week {self.week}" + {MOVE: "", RETREAT: " retreats",
                                             ADJUST: " adjustments"}[self.kind]

    def __str__(self) -> str:
        if self.is_start:
            return f"{self.year}-{self.month:02d}-START"
        return f"{self.year}-{self.month:02d}-W{self.week}-{self.kind}"


def next_movement(phase: MPhase) -> MPhase:
    """The movement turn after ``phase`` (rule 6: four weeks to a month)."""
    if phase.is_start:
        return _after_month(phase.year, phase.month)
    if phase.week < 4:
        return MPhase(phase.year, phase.month, phase.week + 1, MOVE)
    return _after_month(phase.year, phase.month)


def _after_month(year: int, month: int) -> MPhase:
    if month == 12:
        return MPhase(year + 1, 1, 1, MOVE)
    return MPhase(year, month + 1, 1, MOVE)


def next_phase(phase: MPhase, has_dislodged: bool, needs_adjustment: Callable[[], bool]) -> MPhase:
    """The next phase to play: retreats only when something is dislodged, adjustments only
    after weeks 2 and 4 and only when some mob has something to build or remove."""
    if phase.is_movement and has_dislodged:
        return MPhase(phase.year, phase.month, phase.week, RETREAT)
    if (phase.is_movement or phase.is_retreat) and phase.scoring and needs_adjustment():
        return MPhase(phase.year, phase.month, phase.week, ADJUST)
    return next_movement(phase)


def scores_after(phase: MPhase, has_retreat_next: bool) -> bool:
    """Do centres change hands once ``phase`` is adjudicated (rule 6)?  After the movement of
    week 2 or 4 when no retreats follow, else after that weekend's retreats."""
    if not phase.scoring:
        return False
    return phase.is_retreat or (phase.is_movement and not has_retreat_next)


class MobtownCalendar:
    """Rule 6 as the engine asks a calendar (mobadj.engine.position.PhaseCalendar)."""

    name = "mobtown"

    def parse(self, text: object) -> MPhase:
        """``1919-07-W1-M`` -> MPhase; raises PositionError saying the expected shape."""
        return MPhase.parse(text)

    def first(self, year: int | None = None) -> MPhase:
        """The June 1919 weekend, whatever ``year`` (the rulebook's start)."""
        return MPhase.parse(FIRST)

    def next_phase(self, phase: MPhase, has_dislodged: bool,
                   needs_adjustment: Callable[[], bool]) -> MPhase:
        return next_phase(phase, has_dislodged, needs_adjustment)

    def scores_after(self, phase: MPhase, has_retreat_phase_next: bool) -> bool:
        return scores_after(phase, has_retreat_phase_next)


CALENDAR = MobtownCalendar()
