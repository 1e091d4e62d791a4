"""``mobadj serve``: the judge's loop.  Fetch new mail, handle each in its own transaction,
do what the deadlines require, send the outbox; wait on IDLE (or poll); on a network error
drop the connection and retry with exponential back-off.  Killed at any point, it resumes
where the store says it was."""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

from mobadj.judge.config import ConfigError, MailServerError
from mobadj.judge.core import Judge
from mobadj.judge.mailbox import IMAP_ERRORS, Mailbox
from mobadj.judge.mailer import SMTP_ERRORS, Mailer
from mobadj.judge.private import private_file
from mobadj.judge.store import StoreError, store_trouble

log = logging.getLogger("mobadj.judge.service")
MAX_BACKOFF = 300.0
NETWORK_ERRORS = IMAP_ERRORS + SMTP_ERRORS
DAY = 86400.0
EXPUNGE_EVERY = 3600.0  # look for old handled mail to expunge at most this often
HOUSEKEEPING_EVERY = 3600.0  # drop what the store no longer needs at most this often


def describe(exc: BaseException) -> str:
    """A network error in one line: the server and what went wrong."""
    if isinstance(exc, MailServerError):
        return str(exc)
    return f"mail server trouble ({type(exc).__name__}: {exc})"


def lock_path(db_path: Path) -> Path:
    """The file a serving judge holds locked beside its store (it names the judge's pid)."""
    return db_path.with_name(db_path.name + ".lock")


def one_judge(db_path: Path) -> IO[str]:
    """Make this process the one judge of the store at ``db_path``, for its whole life:
    two judges on one store would send every queued mail twice.  The lock (``flock``) is
    the system's: it goes when the process ends, however it ends.  Raises
    :class:`StoreError` naming the other judge's pid when one serves the store already.
    Keep the returned file open while serving."""
    path = lock_path(db_path)
    private_file(path)  # it names the pid, and sits beside the players' mails
    held = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held for the process's life)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        held.seek(0)
        pid = held.read().strip() or "unknown"
        held.close()
        raise StoreError(f"another judge (pid {pid}) is serving {db_path}; this one stops "
                         f"without touching the mail") from None
    try:
        held.truncate(0)
        held.write(f"{os.getpid()}\n")
        held.flush()
    except OSError:  # a full disk: the lock holds all the same, only the pid is not shown
        pass
    return held


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
        self.backoff = backoff
        self.failures: list[float] = []  # back-off delays taken (for the log and the tests)
        self._expunged_at: float | None = None
        self._kept_at: float | None = None

    def _connect(self) -> None:
        self.mailbox.connect()
        old = self.judge.store.new_uidvalidity(self.mailbox.uidvalidity)
        if old is not None:
            log.warning("UIDVALIDITY changed (%s -> %s): relying on Message-IDs", old,
                        self.mailbox.uidvalidity)

    def step(self) -> int:
        """One round: new mail, deadlines, outbox.  Returns the number of mails handled."""
        if self.mailbox.client is None:
            self._connect()
        store = self.judge.store
        uids = self.mailbox.new_uids(store.max_uid())
        n = 0
        done: list[int] = []
        due = self._next_due() if uids else None
        for uid, raw, arrived in self.mailbox.fetch(uids):
            self.on_step("fetched")
            if due is not None and arrived is not None and min(arrived, self.judge.clock()) >= due:
                # a deadline passed before this mail came (the judge was down, or runs
                # from cron): it is applied first, so orders sent late are late
                self.judge.tick(due_at=arrived)
                due = self._next_due()
            try:
                self.judge.handle_mail(raw, uid=uid, arrived=arrived)
            except sqlite3.OperationalError:
                raise  # the store is locked or gone: the mail is tried again next round
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
        self._expunge_old()
        self.judge.tick()
        self.judge.tell_wrong_passwords(self.judge.clock())
        self.on_step("ticked")
        self.mailer.send_outbox(store)
        self.on_step("sent")
        if self.judge.notify_refused(self.judge.clock()):  # the GMs hear of refused mail
            self.mailer.send_outbox(store)
        self._housekeeping()
        return n

    def _next_due(self) -> float | None:
        """The earliest time a game's deadline (or the end of its pause) may ask for
        something, or None: before it no mail needs the deadlines applied first."""
        times = [t for g in self.judge.store.games() if g.status in ("active", "paused")
                 for t in (g.deadline, g.paused_until) if t is not None]
        return min(times, default=None)

    def _housekeeping(self) -> None:
        """Once an hour: the text of mail sent longer ago than ``mail_retention_days`` goes
        (its record stays), and so do counters the judge no longer needs."""
        now = self.judge.clock()
        if self._kept_at is not None and now < self._kept_at + HOUSEKEEPING_EVERY:
            return
        self._kept_at = now
        store = self.judge.store
        with store.transaction():
            dropped = store.prune(now, self.judge.config.mail_retention_days)
        store.give_back_space()
        if dropped:
            log.info("store: dropped %s", ", ".join(f"{n} {what}"
                                                   for what, n in dropped.items()))

    def _expunge_old(self) -> None:
        """With ``expunge_after_days``, delete handled mail that old from the mailbox (the
        store keeps its record: it is never fetched nor handled again)."""
        days = self.mailbox.server.expunge_after_days
        now = self.judge.clock()
        if days is None or (self._expunged_at is not None
                            and now < self._expunged_at + EXPUNGE_EVERY):
            return
        self._expunged_at = now
        before = now - days * DAY
        uids = self.judge.store.uids_to_expunge(before)
        if uids:
            self.mailbox.expunge(uids)
            log.info("expunged %d handled mail(s) older than %g days", len(uids), days)
        with self.judge.store.transaction():
            self.judge.store.set_meta("expunged_before", repr(before))

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
                self.mailbox.wait(self._next_wait(), self.judge.store.max_uid())
                continue
            except NETWORK_ERRORS as exc:  # network trouble: reconnect later, lose nothing
                log.warning("%s; retrying in %.0f s", describe(exc), backoff)
            except ConfigError as exc:  # e.g. a password unset
                log.error("%s; retrying in %.0f s", exc, backoff)
            except sqlite3.OperationalError as exc:  # e.g. a full disk: nothing was stored
                log.error("%s; retrying in %.0f s", store_trouble(self.judge.store.path, exc),
                          backoff)
            except Exception:  # a bug must not stop the judge: logged in full, retried
                log.exception("the serve loop failed; retrying in %.0f s", backoff)
            self.mailbox.close()
            self.failures.append(backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, ceiling)
        self.mailbox.close()
