"""Deadline policy: what the judge must do for a game at a given moment.

Fair-play options (game options, hours unless named): ``reminder_hours`` before the deadline
those who have not submitted are reminded; ``grace_hours`` after it late orders still count
when someone is missing; ``extend_first_nmr_hours`` gives one automatic extension when a
player misses a deadline for the first time; ``disorder_after_nmr`` missed deadlines in a
row put a power in civil disorder; ``pause_max_days`` ends a pause by itself;
``absence_quota_days`` is each player's vacation allowance.

Weekday rules: with ``deadline_days`` (e.g. ``[mon, thu]``) and ``deadline_time`` (e.g.
``18:00``, in the judge's time zone unless a zone follows: ``18:00 Europe/Paris``) a phase
lasts at least its hours and then until the next allowed day at that time.  Either may be
given alone: days alone end at 18:00; a time alone allows every day.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from mobadj.judge.commands import parse_duration

HOUR = 3600.0
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_TIME = "18:00"
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
    "draw": "dias",  # dias: a draw includes every survivor; named: votes name the members
    "open": "no",  # yes: players sign up by mail (JOIN)
    "approve": "no",  # yes: the GM approves each JOIN
    "autostart": "yes",  # a full open game starts by itself (no: it waits for START)
    "watch": "yes",  # observers may WATCH the game
    "deadline_days": "",  # weekday rules: e.g. mon,thu (empty: any day)
    "deadline_time": "",  # e.g. 18:00 [zone] (empty: no rule; 18:00 when days are set)
    "takeover": "yes",  # TAKEOVER of powers without player, in disorder or offered: approve, no
    "press_to": "any",  # any: press to one, some or all powers; public: to everyone only
    "gm_press_copy": "no",  # yes: the GM gets a copy of every press message
    "bot_moves": "deadline",  # a card seat without a player moves at the deadline; at_once
    "order_mails": "replace",  # a mail's orders replace the earlier set; merge: per unit
}
#: the choices of ``order_mails``
ORDER_MAILS = ("replace", "merge")
#: the choices of ``bot_moves``
BOT_MOVES = ("deadline", "at_once")


def bots_at_once(options: dict[str, Any]) -> bool:
    """Does the game's bot move for a card seat without a player as soon as it is due
    (``bot_moves at_once``), rather than at the deadline?"""
    return str(options.get("bot_moves", DEFAULTS["bot_moves"])).lower() == "at_once"


class Action(StrEnum):
    NOTHING = "nothing"
    REMIND = "remind"
    EXTEND = "extend"  # automatic extension for a first NMR
    RESOLVE = "resolve"
    RESUME = "resume"  # a pause has expired


@dataclass(frozen=True)
class Decision:
    """What to do about a deadline now: the action, the powers still missing, and (for an
    extension) the seconds the new deadline lies after the old one."""

    action: Action
    missing: tuple[str, ...] = ()
    seconds: float = 0.0


@dataclass(frozen=True)
class Number:
    """What a numeric game option holds, for its checks and their messages: ``what`` it
    counts ("hours"), an ``example``, its ``least`` value (``above``: it must be more than
    that), ``whole`` numbers only, and the seconds one of its units lasts (for a did-you-mean
    when a unit was written: 36h for 36)."""

    what: str
    example: float
    least: float = 0.0
    above: bool = False
    whole: bool = False
    unit_seconds: float | None = None


_HOURS, _DAYS = HOUR, 24 * HOUR
#: the judge's numeric game options
NUMBERS: dict[str, Number] = {
    "deadline_hours": Number("a number of hours", 48, above=True, unit_seconds=_HOURS),
    "retreat_hours": Number("a number of hours", 24, above=True, unit_seconds=_HOURS),
    "reminder_hours": Number("a number of hours", 12, unit_seconds=_HOURS),
    "grace_hours": Number("a number of hours", 6, unit_seconds=_HOURS),
    "extend_first_nmr_hours": Number("a number of hours", 24, unit_seconds=_HOURS),
    "absence_quota_days": Number("a number of days", 14, unit_seconds=_DAYS),
    "pause_max_days": Number("a number of days", 14, above=True, unit_seconds=_DAYS),
    "disorder_after_nmr": Number("a whole number of missed deadlines", 2, whole=True),
    "start_year": Number("a year", 1901, least=1, whole=True),
}


def _as_number(value: Any) -> float | None:
    """``value`` as a finite number (48, 48.0, "48"), else None (yes, "36h", "nan")."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _in_units(key: str, value: Any) -> float | None:
    """A duration with a unit written for a numeric option (``36h``, ``2 days`` for an
    option in hours) in the option's own unit, else None."""
    unit = NUMBERS[key].unit_seconds
    if unit is None or not isinstance(value, str):
        return None
    try:
        return parse_duration(value) / unit
    except ValueError:
        return None


def number_refusal(key: str, value: Any) -> str | None:
    """Why ``value`` cannot be the numeric option ``key`` ("deadline_hours is a number of
    hours: '36h' is not one (did you mean 36?)"), or None when it can."""
    spec = NUMBERS[key]
    number = _as_number(value)
    if number is None:
        meant = _in_units(key, value)
        if meant is not None and number_refusal(key, meant) is None:
            return f"{key} is {spec.what}: {value!r} is not one (did you mean {meant:g}?)"
        return f"{key} is {spec.what}, e.g. {spec.example:g}: {value!r} is not one"
    if spec.whole and not number.is_integer():
        return f"{key} is {spec.what}, e.g. {spec.example:g}: {value!r} is not a whole number"
    if number < spec.least or (spec.above and number == spec.least):
        bound = f"above {spec.least:g}" if spec.above else f"{spec.least:g} or more"
        return f"{key} is {spec.what}, {bound}: {value!r} is not"
    return None


def option(options: dict[str, Any], key: str) -> float:
    """A numeric option with its default.  Values are checked when they are set; one an
    older mobadj let through (``36h``) is read as what it says when it has a unit, else as
    the default, so that a game never stops at its deadline for it."""
    value = options.get(key, DEFAULTS[key])
    if number_refusal(key, value) is None:
        return float(value)
    meant = _in_units(key, value)
    if meant is not None and number_refusal(key, meant) is None:
        return meant
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
    ``first_nmr``: one of them has never missed a deadline.

    The first-miss extension counts from when the miss was due to be seen (the deadline,
    after ``grace_hours``), not from ``now``: a judge run from cron or back from downtime
    gives no more time than one that was on time, and one that comes back after the
    extension would have run out adjudicates at once."""
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
        if ext > 0 and first_nmr and not extended and now < deadline + grace + ext:
            return Decision(Action.EXTEND, tuple(missing), grace + ext)
        return Decision(Action.RESOLVE, tuple(missing))
    remind = option(options, "reminder_hours") * HOUR
    if missing and not reminded and remind > 0 and now >= deadline - remind:
        return Decision(Action.REMIND, tuple(missing))
    return Decision(Action.NOTHING)


def weekdays(value: Any) -> list[int]:
    """``[mon, thu]``, ``"mon,thu"`` or ``"Monday Thursday"`` -> ``[0, 3]`` (sorted)."""
    if value in (None, "", []):
        return []
    words = value if isinstance(value, list | tuple) else str(value).replace(",", " ").split()
    days = set()
    for word in words:
        key = str(word).strip().lower()[:3]
        if key not in WEEKDAYS:
            raise ValueError(f"unknown weekday {word!r}; expected e.g. mon, thu "
                             f"({', '.join(WEEKDAYS)})")
        days.add(WEEKDAYS.index(key))
    return sorted(days)


def time_of_day(value: Any, tz: ZoneInfo) -> tuple[time, ZoneInfo]:
    """``"18:00"`` or ``"18:00 Europe/Paris"`` -> (18:00, zone)."""
    parts = str(value).split()
    if not parts or len(parts) > 2:
        raise ValueError(f"cannot read the time {value!r}: expected HH:MM [zone]")
    zone = tz
    if len(parts) == 2:
        try:
            zone = ZoneInfo(parts[1])
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {parts[1]!r}") from None
    try:
        hour, minute = (int(x) for x in parts[0].split(":"))
        return time(hour, minute), zone
    except ValueError:
        raise ValueError(f"cannot read the time {parts[0]!r}: expected HH:MM, e.g. 18:00"
                         ) from None


def deadline_after(now: float, hours: float, options: dict[str, Any], tz: ZoneInfo) -> float:
    """The deadline of a phase that starts ``now`` and lasts ``hours``: at least that long,
    then on to the next allowed weekday at the set time when the game has weekday rules."""
    earliest = now + hours * HOUR
    days_opt, time_opt = options.get("deadline_days"), options.get("deadline_time")
    if days_opt in (None, "", []) and time_opt in (None, ""):
        return earliest
    days = weekdays(days_opt) or list(range(7))
    at, zone = time_of_day(time_opt or DEFAULT_TIME, tz)
    day = datetime.fromtimestamp(earliest, zone).date()
    for k in range(8):
        date = day + timedelta(days=k)
        if date.weekday() in days:
            moment = datetime.combine(date, at, tzinfo=zone).timestamp()
            if moment >= earliest:
                return moment
    return earliest  # unreachable: a week always holds an allowed day at or after earliest


def parse_when(text: str, tz: ZoneInfo, now: float | None = None) -> float:
    """``2026-12-01 18:00 [zone]`` or, from ``now``, ``+36h`` / ``+2d`` / ``+90m`` -> epoch
    seconds."""
    text = text.strip()
    if text.startswith("+"):
        if now is None:
            raise ValueError(f"{text!r} needs the present moment")
        return now + parse_duration(text[1:])
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
        there = datetime.fromtimestamp(dt.timestamp(), zone)
        if there.replace(tzinfo=None) != dt.replace(tzinfo=None):  # in the hour skipped
            raise ValueError(f"there is no {dt:%H:%M} on {dt:%d %b %Y} in {zone.key} (the "
                             f"clocks go forward then): give a time before or after it")
    return dt.timestamp()
