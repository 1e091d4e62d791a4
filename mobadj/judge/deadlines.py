"""Deadline policy: what the judge must do for a game at a given moment.

Fair-play options (game options, hours unless named): ``reminder_hours`` before the deadline
those who have not submitted are reminded; ``grace_hours`` after it late orders still count
when someone is missing; ``extend_first_nmr_hours`` gives one automatic extension when a
player misses a deadline for the first time; ``disorder_after_nmr`` missed deadlines in a
row put a power in civil disorder; ``pause_max_days`` ends a pause by itself;
``absence_quota_days`` is each player's vacation allowance.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

HOUR = 3600.0
DEFAULTS: dict[str, Any] = {
    "press": "white",
    "deadline_hours": 48,
    "retreat_hours": 24,
    "reminder_hours": 12,
    "grace_hours": 0,
    "absence_quota_days": 14,
    "extend_first_nmr_hours": 24,
    "disorder_after_nmr": 2,
    "pause_max_days": 14,
    "early": "ready",  # ready: resolve early when every due player is READY; never
    "picture": "both",  # map pictures on results: both (SVG and PNG) | svg | none
}


class Action(StrEnum):
    NOTHING = "nothing"
    REMIND = "remind"
    EXTEND = "extend"  # automatic extension for a first NMR
    RESOLVE = "resolve"
    RESUME = "resume"  # a pause has expired


@dataclass(frozen=True)
class Decision:
    action: Action
    missing: tuple[str, ...] = ()
    seconds: float = 0.0


def option(options: dict[str, Any], key: str) -> float:
    """A numeric option with its default."""
    try:
        return float(options.get(key, DEFAULTS[key]))
    except (TypeError, ValueError):
        return float(DEFAULTS[key])


def decide(
    *,
    now: float,
    status: str,
    deadline: float | None,
    paused_until: float | None,
    options: dict[str, Any],
    missing: list[str],
    first_nmr: bool,
    extended: bool,
    reminded: bool,
) -> Decision:
    """The one thing to do now.  ``missing``: due, active seats without orders;
    ``first_nmr``: one of them has never missed a deadline."""
    if status == "paused":
        if paused_until is not None and now >= paused_until:
            return Decision(Action.RESUME)
        return Decision(Action.NOTHING)
    if status != "active" or deadline is None:
        return Decision(Action.NOTHING)
    grace = option(options, "grace_hours") * HOUR
    if now >= deadline:
        if not missing:
            return Decision(Action.RESOLVE)
        if now < deadline + grace:
            return Decision(Action.NOTHING)
        ext = option(options, "extend_first_nmr_hours") * HOUR
        if ext > 0 and first_nmr and not extended:
            return Decision(Action.EXTEND, tuple(missing), ext)
        return Decision(Action.RESOLVE, tuple(missing))
    remind = option(options, "reminder_hours") * HOUR
    if missing and not reminded and remind > 0 and now >= deadline - remind:
        return Decision(Action.REMIND, tuple(missing))
    return Decision(Action.NOTHING)


def parse_when(text: str, tz: ZoneInfo) -> float:
    """``2026-12-01 18:00 [zone]`` or ``+36h`` -> epoch seconds."""
    text = text.strip()
    parts = text.split()
    zone = tz
    if len(parts) >= 2 and not parts[-1][0].isdigit():
        try:
            zone = ZoneInfo(parts[-1])
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {parts[-1]!r}") from None
        parts = parts[:-1]
    try:
        dt = datetime.fromisoformat(" ".join(parts))
    except ValueError:
        raise ValueError(f"cannot read {text!r}: expected YYYY-MM-DD HH:MM [zone]") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=zone)
    return dt.timestamp()
