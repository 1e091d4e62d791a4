"""Replies and results as plain text that reads well in any mail client.

Results carry njudge-style ``::`` header lines (game, phase, deadline) that existing tools
read.  Every moment (a deadline, the end of a pause) is written as a :func:`stamp` and shown
to each reader in their own time zone (``SET TIMEZONE``, else the judge's) *and* UTC when
the mail is queued (:func:`localize`), so one announcement reads right for everyone.
"""

from __future__ import annotations

import re
import textwrap
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

RULE = "-" * 68


def when(ts: float | None, tz: ZoneInfo) -> str:
    """``Sat 28 Nov 2026 18:00 GMT (18:00 UTC)``; "no deadline" for None."""
    if ts is None:
        return "no deadline"
    utc = datetime.fromtimestamp(ts, UTC)
    local = utc.astimezone(tz)
    text = local.strftime("%a %d %b %Y %H:%M %Z")
    if local.utcoffset() != utc.utcoffset() or local.tzname() != "UTC":
        text += utc.strftime(" (%H:%M UTC)")
    return text


_STAMP = re.compile("\ue000(-|[0-9.e+-]+)\ue001")


def stamp(ts: float | None) -> str:
    """A moment in a mail's text, to be written out for its reader by :func:`localize`."""
    return "\ue000" + ("-" if ts is None else repr(float(ts))) + "\ue001"


def localize(text: str, tz: ZoneInfo) -> str:
    """Every :func:`stamp` in ``text`` as a date in ``tz`` (and UTC)."""
    if "\ue000" not in text:
        return text
    return _STAMP.sub(lambda m: when(None if m.group(1) == "-" else float(m.group(1)), tz),
                      text)




def duration(seconds: float) -> str:
    """``2 days 3 hours`` / ``45 minutes``."""
    minutes = int(round(seconds / 60))
    days, rem = divmod(minutes, 1440)
    hours, mins = divmod(rem, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if mins and not days:
        parts.append(f"{mins} minute{'s' if mins != 1 else ''}")
    return " ".join(parts) or "0 minutes"


def header_lines(judge: str, game: str, kind: str, phase: str, deadline: str,
                 rules: str = "") -> str:
    """The ``::`` lines at the top of results (njudge style); ``rules``: the game's rule
    options (``paradox=1982, ...``), a line of their own when there are any."""
    return (
        f":: Judge: {judge}  Game: {game}  Variant: {kind}\n"
        + (f":: Rules: {rules}\n" if rules else "")
        + f":: Phase: {phase}\n"
        f":: Deadline: {deadline}\n"
    )




def wrap(text: str, width: int = 72) -> str:
    out = []
    for para in text.split("\n"):
        out.append(textwrap.fill(para, width) if len(para) > width else para)
    return "\n".join(out)


def signature(judge: str, address: str) -> str:
    return f"{RULE}\n{judge} <{address}>  --  send HELP for the commands\n"
