"""What every part of the judge shares: the store, the configuration, the clock, the
mailing helpers, and the errors and sessions that travel between them.

:class:`mobadj.judge.core.Judge` reads the mails and does their commands by their
declarations (:mod:`.registry`, :mod:`.verbs`).  The work is done by parts with one job
each, which the judge holds (the attributes of :class:`JudgeBase` below list them); each
part gets this desk and reaches the others through it, never through a base class."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from mobadj.errors import JudgeServiceError
from mobadj.judge import reports
from mobadj.judge.config import JudgeConfig
from mobadj.judge.deadlines import deadline_after
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.store import Game, Mail, Store

if TYPE_CHECKING:
    from mobadj.judge.accounts import Accounts
    from mobadj.judge.endings import Endings
    from mobadj.judge.forming import Forming
    from mobadj.judge.gm import GMCommands
    from mobadj.judge.habits import Habits
    from mobadj.judge.loops import ReplyLimits
    from mobadj.judge.notices import Notices
    from mobadj.judge.players import PlayerCommands
    from mobadj.judge.seats import Seats
    from mobadj.judge.turns import Turns
    from mobadj.judge.unsigned import UnsignedMail

PRESS_OPTIONS = ("none", "white", "grey")


class JudgeError(JudgeServiceError):
    """A GM or player request that cannot be done; the message is the reply."""


@dataclass
class Session:
    """Who a mail speaks for after sign-on."""

    game: Game
    power: str | None  # None for the GM
    email: str


class JudgeBase:
    """One judge's desk: a store, a configuration, a clock, the helpers every part mails
    with, and the parts with one job each (made by :class:`~mobadj.judge.core.Judge`)."""

    notices: Notices  # what the GM and the table are told without asking
    endings: Endings  # votes, draws, concessions and the end of a game
    accounts: Accounts  # passwords, addresses, time zones
    turns: Turns  # the turn of phases: deadlines, resolution, pause, rollback
    seats: Seats  # who holds which seat: ADDPLAYER, REPLACE, RESIGN, TAKEOVER, OFFER
    forming: Forming  # games taking players, their observers, and START
    players: PlayerCommands  # a player's orders, press, status and history
    gm: GMCommands  # creating games, their options, the GM's orders by mail
    limits: ReplyLimits  # how often an address is answered
    unsigned: UnsignedMail  # what a mail without a sign-on is told to send
    habits: Habits  # njudge's sign-on line, read as this judge's

    def __init__(
        self,
        store: Store,
        config: JudgeConfig,
        clock: Callable[[], float] = time.time,
        kdf_n: int = 2**14,
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.kdf_n = kdf_n
        self.tz = ZoneInfo(config.timezone)

    def _deadline(self, game: Game, state: Any, now: float) -> float:
        """The deadline of a phase starting now: its hours, then the game's weekday rules."""
        hours = host_for(game.kind).phase_hours(state, game.options)
        return deadline_after(now, hours, game.options, self.tz)

    def rules_line(self, game: Game) -> str:
        """``Rules: paradox=1982, ...``: the rule options the GM chose for the game, as
        players are shown them; "" when it is played by the defaults."""
        try:
            text = host_for(game.kind).rules_text(game.options)
        except HostError:  # a map this installation cannot load: the rest is still shown
            return ""
        return f"Rules: {text}" if text else ""

    def tz_for(self, address: str | None) -> ZoneInfo:
        """The time zone an address reads its mail in (``SET TIMEZONE``), else the judge's."""
        name = self.store.timezone(address) if address else None
        return ZoneInfo(name) if name else self.tz

    def localize(self, text: str, address: str | None = None) -> str:
        """``text`` with its moments written out for ``address`` (None: the judge's zone)."""
        return reports.localize(text, self.tz_for(address))

    def queue(self, mails: list[Mail], now: float, auto: str = "auto-generated") -> None:
        """Put mails in the outbox, each with its moments in its reader's time zone and the
        ``Auto-Submitted`` header that keeps auto-responders from answering."""
        for m in mails:
            m.body = self.localize(m.body, m.to)
            m.headers.setdefault("Auto-Submitted", auto)
            m.id = self.store.queue(m, now)

    def _sig(self) -> str:
        return reports.signature(self.config.name, self.config.address)

    def _announce(self, game: Game, subject: str, text: str, out: list[Mail],
                  skip: str | None = None) -> None:
        for p in self.store.players(game.name):
            if p.power != skip and p.status != "out":
                out.append(Mail(p.email, subject, f"{text}\n\n{self._sig()}", game=game.name))
