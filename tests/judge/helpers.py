"""Shared helpers: an injectable clock and a mail builder."""

from __future__ import annotations

import itertools
from email.message import EmailMessage

_ids = itertools.count(1)


class Clock:
    """A clock the tests move by hand (no sleeping)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float = 0.0, seconds: float = 0.0) -> None:
        self.now += hours * 3600 + seconds


def mail(sender: str, body: str, subject: str = "orders", to: str = "judge@test.org",
         message_id: str | None = None, **headers: str) -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = to
    m["Subject"] = subject
    m["Message-ID"] = message_id or f"<t{next(_ids)}@test.org>"
    for k, v in headers.items():
        m[k.replace("_", "-")] = v
    m.set_content(body)
    return m.as_bytes()
