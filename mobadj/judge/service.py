"""``mobadj serve``: the judge's loop.  Fetch new mail, handle each in its own transaction,
do what the deadlines require, send the outbox; wait on IDLE (or poll); on a network error
drop the connection and retry with exponential back-off.  Killed at any point, it resumes
where the store says it was."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer

log = logging.getLogger("mobadj.judge.service")
MAX_BACKOFF = 300.0


class Service:
    """The serve loop around a :class:`Judge`."""

    def __init__(self, judge: Judge, mailbox: Mailbox, mailer: Mailer,
                 poll_seconds: float | None = None,
                 on_step: Callable[[str], None] | None = None,
                 backoff: tuple[float, float] = (1.0, MAX_BACKOFF)) -> None:
        self.judge = judge
        self.mailbox = mailbox
        self.mailer = mailer
        self.poll = poll_seconds if poll_seconds is not None else mailbox.server.poll_seconds
        self.on_step = on_step or (lambda what: None)
        self.handled = 0
        self.backoff = backoff
        self.failures: list[float] = []  # back-off delays taken (for the log and the tests)

    def _check_uidvalidity(self) -> None:
        store = self.judge.store
        row = store.db.execute("SELECT value FROM meta WHERE key='uidvalidity'").fetchone()
        now = str(self.mailbox.uidvalidity)
        if row is None or row[0] != now:
            with store.transaction():
                if row is not None:
                    log.warning("UIDVALIDITY changed (%s -> %s): relying on Message-IDs",
                                row[0], now)
                    store.db.execute("UPDATE mails SET uid=NULL")
                store.db.execute("INSERT OR REPLACE INTO meta VALUES ('uidvalidity', ?)", (now,))

    def step(self) -> int:
        """One round: new mail, deadlines, outbox.  Returns the number of mails handled."""
        if self.mailbox.client is None:
            self.mailbox.connect()
            self._check_uidvalidity()
        store = self.judge.store
        uids = self.mailbox.new_uids(store.max_uid())
        n = 0
        done: list[int] = []
        for uid, raw in self.mailbox.fetch(uids):
            self.on_step("fetched")
            try:
                self.judge.handle_mail(raw, uid=uid)
            except Exception:  # a bug must not stop the judge; the mail is recorded as failed
                log.exception("mail uid %s could not be handled", uid)
                with store.transaction():
                    if not store.uid_seen(uid):
                        store.record_mail(f"<failed-uid-{uid}-{self.mailbox.uidvalidity}>", uid,
                                          "", "", self.judge.clock(), "failed")
            self.on_step("handled")
            done.append(uid)
            n += 1
        self.mailbox.mark_seen(done)
        self.judge.tick()
        self.on_step("ticked")
        self.mailer.send_outbox(store)
        self.on_step("sent")
        self.handled += n
        return n

    def _next_wait(self) -> float:
        """Sleep no longer than the poll interval nor past the next deadline."""
        now = self.judge.clock()
        wait = self.poll
        for g in self.judge.store.games():
            for t in (g.deadline, g.paused_until):
                if t is not None and g.status in ("active", "paused"):
                    wait = min(wait, max(0.0, t - now) + 1)
        return max(0.05, wait)

    def serve(self, stop: threading.Event | None = None) -> None:
        """Run until ``stop`` is set (or forever)."""
        stop = stop or threading.Event()
        first, ceiling = self.backoff
        backoff = first
        while not stop.is_set():
            try:
                self.step()
                backoff = first
                if stop.is_set():
                    break
                self.mailbox.wait(self._next_wait())
            except Exception as exc:  # network trouble: reconnect later, lose nothing
                log.warning("mail server trouble (%s: %s); retrying in %.0f s",
                            type(exc).__name__, exc, backoff)
                self.mailbox.close()
                self.failures.append(backoff)
                stop.wait(backoff)
                backoff = min(backoff * 2, ceiling)
        self.mailbox.close()


def run_forever(judge: Judge, mailbox: Mailbox, mailer: Mailer) -> None:  # pragma: no cover
    """The CLI's entry: serve until interrupted."""
    service = Service(judge, mailbox, mailer)
    try:
        service.serve()
    except KeyboardInterrupt:
        log.info("stopped")
    time.sleep(0)
