"""What every part of the judge shares: the store, the configuration, the clock, and the
errors and sessions that travel between them.  :class:`mobadj.judge.core.Judge` is made of
this base and three parts with one job each: player commands (:mod:`.players`), GM commands
(:mod:`.gm`) and the turn of phases at deadlines (:mod:`.turns`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from mobadj.errors import JudgeServiceError
from mobadj.judge import reports
from mobadj.judge.commands import Command
from mobadj.judge.config import JudgeConfig
from mobadj.judge.deadlines import deadline_after
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.mailparse import Incoming
from mobadj.judge.store import Game, Mail, Store

PRESS_OPTIONS = ("none", "white", "grey")
# Commands any address may give, with or without a sign-on.
OPEN_COMMANDS = ("confirm", "join", "unjoin", "watch", "unwatch", "takeover")


class JudgeError(JudgeServiceError):
    """A GM or player request that cannot be done; the message is the reply."""


@dataclass
class Session:
    """Who a mail speaks for after sign-on."""

    game: Game
    power: str | None  # None for the GM
    email: str


class JudgeBase:
    """One judge: a store, a configuration, a clock."""

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

    if TYPE_CHECKING:  # the parts of a Judge call one another; each is defined in its part
        def start(self, game: Game, now: float, out: list[Mail]) -> str: ...  # gm
        def add_player(self, game: Game, email: str, power: str, password: str | None,
                       now: float, out: list[Mail]) -> str: ...  # gm
        def resume(self, game: Game, now: float, out: list[Mail], by: str) -> str: ...  # gm
        def resolve(self, game: Game, now: float, out: list[Mail],
                    forced: bool = False) -> str: ...  # turns
        def rollback(self, game: Game, now: float, out: list[Mail]) -> str: ...  # turns
        def _maybe_early(self, game: Game, now: float, out: list[Mail]) -> None: ...  # turns
        def _seats_line(self, game: Game) -> str: ...  # forming
        def _confirm_request(self, inc: Incoming, digest: str, since: float, now: float,
                             out: list[Mail]) -> str | None: ...  # forming
        def _status(self, game: Game, power: str | None) -> str: ...  # players
        def _history(self, game: Game, which: str | None) -> str: ...  # players
        def export(self, name: str) -> dict[str, Any]: ...  # core
        def _takeover_confirmed(self, game: Game, email: str, seat: str, now: float,
                                out: list[Mail]) -> str: ...  # seats
        def _tell_gm(self, game: Game, subject: str, text: str,
                     out: list[Mail]) -> None: ...  # notices

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

    def _open_command(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]) -> str:
        """A command any address may give, signed on or not (the judge's, in core.py)."""
        raise NotImplementedError

    def _sig(self) -> str:
        return reports.signature(self.config.name, self.config.address)

    def _announce(self, game: Game, subject: str, text: str, out: list[Mail],
                  skip: str | None = None) -> None:
        for p in self.store.players(game.name):
            if p.power != skip and p.status != "out":
                out.append(Mail(p.email, subject, f"{text}\n\n{self._sig()}", game=game.name))
