"""A judge run for weeks as a GM runs it, for the store's size and the backups: a Mobtown II
game with six players and an observer, one movement a week (the weekends and retreats in
between), pictures on (SVG and PNG), press every week, a player who resigns and one who
takes over, an absence.  Everything goes through the real servers (pymap IMAP, aiosmtpd
SMTP) and the real serve loop, running in a thread while the clock moves a week at a time;
the store is backed up and the backup restored while the judge runs.

``simulate(weeks)`` is used by the suite (a few weeks, tests/judge/test_year.py) and by
``bench/judge_year.py`` (52 weeks: the figures in docs/gm-guide.md)."""

from __future__ import annotations

import random
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from mobadj.judge import storetools
from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.hosts import host_for
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Mail, Store
from mobadj.web.demo import board_orders

from .helpers import Clock
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS, MailServers

GAME = "year"
HOUR = 3600.0
WORDS = ("the docks", "Capone's men", "the Bronx", "a truce", "the subway", "the police",
         "Lepke", "our friends", "the warehouse", "next week")


@dataclass
class YearFigures:
    """What a simulated run measured."""

    weeks: int = 0
    phases: int = 0
    mails_in: int = 0
    mails_out: int = 0
    store_bytes: int = 0
    tables: dict[str, int] = field(default_factory=dict)
    backup_bytes: int = 0
    backup_seconds: float = 0.0
    restore_seconds: float = 0.0
    compact_bytes: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Year:
    """The running judge and its players."""

    def __init__(self, tmp: Path, servers: MailServers, seed: int = 7) -> None:
        self.tmp, self.servers = tmp, servers
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.cfg = config_from_data({
            "judge": {"name": "Year Judge", "address": JUDGE_ADDRESS, "data_dir": str(tmp),
                      "timezone": "UTC", "gm_addresses": ["gm@test.org"]},
            "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                     "user": IMAP_USER, "password_env": "YEAR_IMAP_PW", "poll_seconds": 0.2},
            "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none",
                     "user": ""},
        })
        self.judge = Judge(Store(self.cfg.db_path), self.cfg, clock=self.clock, kdf_n=2**10)
        assert self.cfg.imap is not None and self.cfg.smtp is not None
        self.service = Service(self.judge, Mailbox(self.cfg.imap),
                               Mailer(self.cfg.smtp, self.cfg.address, self.cfg.name,
                                      self.clock))
        self.host = host_for("mobtown2")
        self.seats = self.host.seats({})[:6]
        self.emails = {s: f"{s}@test.org" for s in self.seats}
        self.passwords = {s: f"pw-{s}" for s in self.seats}
        self.delivery = servers.imap()
        self.sent = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.service.serve, args=(self.stop,),
                                       daemon=True)

    # -- mail in -----------------------------------------------------------------------------
    def mail(self, sender: str, body: str) -> bytes:
        self.sent += 1
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = sender, JUDGE_ADDRESS, f"turn mail {self.sent}"
        m["Message-ID"] = f"<year-{self.sent}@test.org>"
        m.set_content(body)
        return m.as_bytes()

    def deliver(self, mails: list[bytes]) -> None:
        """Into the judge's mailbox, then wait until the judge has handled them all."""
        if mails:
            self.delivery.multiappend("INBOX", mails)
        self.wait(lambda: self._count("SELECT COUNT(*) FROM mails") >= self.sent)

    def wait(self, what: Any, timeout: float = 120.0) -> None:
        end = time.monotonic() + timeout
        while not what():
            if time.monotonic() > end or not self.thread.is_alive():
                raise AssertionError("the judge did not get there in time")
            time.sleep(0.02)

    def _count(self, sql: str, *args: Any) -> int:
        db = sqlite3.connect(self.cfg.db_path, timeout=30)
        try:
            return int(db.execute(sql, args).fetchone()[0] or 0)
        finally:
            db.close()

    def _phase(self) -> tuple[str, Any]:
        store = Store(self.cfg.db_path, readonly=True)
        try:
            game = store.game(GAME)
            assert game is not None
            return game.phase, game.state
        finally:
            store.close()

    def _code(self, address: str) -> str:
        for raw in reversed(self.servers.all_delivered().get(address, [])):
            found = re.search(rb"CONFIRM (\w+)", raw)
            if found:
                return found.group(1).decode()
        raise AssertionError(f"no code for {address}")

    # -- the year ------------------------------------------------------------------------------
    def start(self) -> None:
        self.judge.create_game(GAME, "mobtown2", "gm@test.org", "gm-pw", {
            "picture": "both", "deadline_hours": 168, "retreat_hours": 48}, seed=11)
        out: list[Mail] = []
        with self.judge.store.transaction():
            for seat in self.seats:
                self.judge.add_player(self.judge.store.game(GAME), self.emails[seat], seat,
                                      self.passwords[seat], self.clock(), out)
            self.judge.start(self.judge.store.game(GAME), self.clock(), out)
            self.judge.queue(out, self.clock())
        self.thread.start()
        self.deliver([self.mail("fan@test.org", f"WATCH {GAME}")])
        self.servers.wait_for_raw("fan@test.org", 1)
        self.deliver([self.mail("fan@test.org", f"CONFIRM {self._code('fan@test.org')}")])

    def phase(self, week: int) -> bool:
        """Every due player sends orders (and READY, and some press); returns whether the
        phase was a movement."""
        phase, state = self._phase()
        mails = []
        for seat in self.host.due(state):
            if seat not in self.emails:
                continue
            signon = f"SIGNON {GAME} {seat} {self.passwords[seat]}"
            if self.rng.random() < 0.3:  # a first try, changed later
                mails.append(self.mail(self.emails[seat], signon + "\n" + board_orders(
                    "mobtown2", state, seat, self.rng)))
            lines = [signon, board_orders("mobtown2", state, seat, self.rng), "READY"]
            if phase.endswith("-M") and self.rng.random() < 0.5:
                other = self.rng.choice([s for s in self.emails if s != seat])
                lines += [f"PRESS TO {other}", self._press(), "ENDPRESS"]
            if phase.endswith("-M") and self.rng.random() < 0.15:
                lines += ["BROADCAST", self._press(), "ENDPRESS"]
            mails.append(self.mail(self.emails[seat], "\n".join(lines)))
        self.deliver(mails)
        if self._phase()[0] == phase:  # someone without a player: the GM processes
            self.deliver([self.mail("gm@test.org", f"GM {GAME} gm-pw\nPROCESS")])
        self.wait(lambda: self._phase()[0] != phase)
        return phase.endswith("-M")

    def _press(self) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(8, 40)))

    def events(self, week: int, weeks: int) -> None:
        """What happens in a year besides orders: an absence, a resignation, a takeover
        (early on in a short run)."""
        absence, takeover = (5, 9) if weeks >= 10 else (1, 2)
        if week == absence:
            seat = self.seats[2]
            self.deliver([self.mail(self.emails[seat], f"SIGNON {GAME} {seat} "
                                    f"{self.passwords[seat]}\nABSENCE 2 days")])
        if week == takeover:
            seat = self.seats[4]
            self.deliver([self.mail(self.emails[seat], f"SIGNON {GAME} {seat} "
                                    f"{self.passwords[seat]}\nRESIGN")])
            del self.emails[seat]
            new = "newcomer@test.org"
            self.deliver([self.mail(new, f"TAKEOVER {GAME} {seat}")])
            self.servers.wait_for_raw(new, 1)
            self.deliver([self.mail(new, f"CONFIRM {self._code(new)}")])
            self.servers.wait_for_raw(new, 3)
            welcome = next(r for r in self.servers.all_delivered()[new]
                           if b"Your password:" in r)
            found = re.search(rb"Your password: (\S+)", welcome)
            assert found is not None
            self.emails[seat], self.passwords[seat] = new, found.group(1).decode()

    def run(self, weeks: int) -> YearFigures:
        t0 = time.perf_counter()
        figures = YearFigures(weeks=weeks)
        self.start()
        week = 0
        done_events: dict[int, bool] = {}
        while week < weeks:
            if not done_events.get(week):
                self.events(week, weeks)
                done_events[week] = True
            if self.phase(week):
                week += 1
                self.clock.advance(hours=24 * 6)
            else:
                self.clock.advance(hours=12)
        self.deliver([self.mail("fan@test.org", f"SUMMARY {GAME}")])
        figures.backup_bytes, figures.backup_seconds, figures.restore_seconds = \
            self.backup_and_restore()
        self.stop.set()
        self.thread.join(60)
        self.delivery.logout()
        store = self.judge.store
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        figures.phases = len(store.results(GAME))
        figures.mails_in = store.mail_count()
        figures.mails_out = store.sent_count()
        figures.store_bytes = storetools.size(self.cfg.db_path)
        figures.tables = {name: int(n) for name, n in store.db.execute(
            "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")}
        store.close()
        before, after, _ = storetools.compact(self.cfg.db_path, self.cfg.mail_retention_days,
                                              now=self.clock())
        figures.compact_bytes = after
        figures.seconds = round(time.perf_counter() - t0, 1)
        return figures

    def backup_and_restore(self) -> tuple[int, float, float]:
        """A backup while players' mail comes in and the judge answers it, then the backup
        restored (into a copy, checked against the live store once the judge is done)."""
        phase, state = self._phase()
        burst = [self.mail(self.emails[s], f"SIGNON {GAME} {s} {self.passwords[s]}\nLIST")
                 for s in self.seats[:3]]
        self.delivery.multiappend("INBOX", burst)
        t0 = time.perf_counter()
        backup = storetools.backup(self.cfg.db_path, self.tmp / "backups", keep=3)
        backup_seconds = time.perf_counter() - t0
        self.wait(lambda: self._count("SELECT COUNT(*) FROM mails") >= self.sent)
        t0 = time.perf_counter()
        restored = storetools.restore(backup, self.tmp / "restored" / "judge.sqlite").store
        restore_seconds = time.perf_counter() - t0
        game = restored.game(GAME)
        assert game is not None and game.phase == phase
        assert len(restored.results(GAME)) == self._count(
            "SELECT COUNT(*) FROM results WHERE game=? AND rolled_back=0", GAME)
        restored.close()
        return backup.stat().st_size, round(backup_seconds, 3), round(restore_seconds, 3)


def simulate(tmp: Path, servers: MailServers, weeks: int) -> YearFigures:
    import os

    os.environ["YEAR_IMAP_PW"] = IMAP_PASSWORD
    year = Year(tmp, servers)
    try:
        return year.run(weeks)
    finally:
        year.stop.set()
        if year.thread.is_alive():
            year.thread.join(30)
        year.service.mailbox.close()
