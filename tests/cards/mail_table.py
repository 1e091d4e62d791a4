"""Players of a card game by mail, in-process: a real judge on a real SQLite file, mails
built as players would send them, every mail the judge sends checked against what its
recipient may know (see terminal_table.leaks): no other seat's hand, sealed choice or
private event, no draw pile, no seed or salt before the end."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any
from unittest import mock

from terminal_table import leaks

from mobadj.judge.cardhost import CardHost
from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.hosts import host_for
from mobadj.judge.store import Mail, Store

_ids = itertools.count(1)
MAX_MAILS = 4000


def mail(sender: str, body: str) -> bytes:
    """A plain-text mail as a mail program sends it (the bytes ``EmailMessage`` makes for
    a text body, written out directly: the harness should not cost more than the judge)."""
    return (f"From: {sender}\nTo: judge@test.org\nSubject: orders\n"
            f"Message-ID: <c{next(_ids)}@test.org>\nMIME-Version: 1.0\n"
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n\n'
            f"{body}\n").encode()


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def new_judge(directory: Path) -> Judge:
    config = config_from_data({"judge": {
        "name": "Card Judge", "address": "judge@test.org", "data_dir": str(directory),
        "timezone": "Europe/London", "gm_addresses": ["gm@test.org"]}})
    return Judge(Store(directory / "judge.sqlite"), config, clock=Clock(), kdf_n=2**10)


class MailTable:
    """One card game ``cg`` on ``judge``, seats P1..Pn played by p1..pn@test.org."""

    def __init__(self, judge: Judge, game: str, players: int, number: int,
                 options: dict[str, Any] | None = None, mischief: float = 0.1,
                 name: str = "cg") -> None:
        self.judge, self.name = judge, name
        self.rng = random.Random(f"mail-{game}-{players}-{number}")
        self.mischief = mischief
        judge.create_game(name, game, "gm@test.org", "gm-pw",
                          {f"game_{k}": v for k, v in (options or {}).items()}, seed=1)
        out: list[Mail] = []
        with judge.store.transaction():
            for i in range(players):
                judge.add_player(judge.store.game(name), f"p{i + 1}@test.org", f"P{i + 1}",
                                 f"pw-p{i + 1}", 0, out)
            with mock.patch("mobadj.judge.cardhost.new_seed",
                            return_value=self.rng.getrandbits(128)):
                judge.start(judge.store.game(name), judge.clock(), out)
        self.host: CardHost = host_for(game)  # type: ignore[assignment]
        self._state: dict[str, Any] | None = None  # the stored state, read once per mail
        self.mails = 0
        self.checked = 0
        self.check(out, "")

    @property
    def state(self) -> dict[str, Any]:
        if self._state is None:
            game = self.judge.store.game(self.name)
            assert game is not None and game.state is not None
            self._state = game.state
        return self._state

    def send(self, seat: str, text: str) -> list[Mail]:
        n = seat[1:]
        self.mails += 1
        out = self.judge.handle_mail(mail(f"p{n}@test.org",
                                          f"SIGNON {self.name} {seat} pw-p{n}\n{text}"))
        self._state = None
        self.check(out, text, seat)
        return out

    def legal(self, seat: str) -> list[str]:
        game = self.host._game(self.state, fresh=False)
        return [str(a) for a in game.legal_actions(int(seat[1:]) - 1)]

    def play(self) -> None:
        """Random moves from each due seat's legal commands (and some mistakes) to the end."""
        rng = self.rng
        while not self.host.is_over(self.state):
            if self.mails > MAX_MAILS:
                raise AssertionError("the game does not end by mail")
            due = self.host.due(self.state)
            seat = rng.choice(due)
            game = self.host._game(self.state, fresh=False)
            seats = [f"P{p + 1}" for p in range(game.players)]
            if rng.random() < self.mischief:
                other = rng.choice(seats)
                theirs = self.legal(rng.choice(seats)) or ["pass"]
                self.send(other, rng.choice([rng.choice(theirs), "PREVIEW", "LIST", "xyzzy",
                                             "say psst", "reveal", "HELP"]))
                continue
            self.send(seat, rng.choice(self.legal(seat)))

    def check(self, out: list[Mail], typed: str, sender: str | None = None) -> None:
        game = self.host._game(self.state, fresh=False)
        over = game.is_over()
        secret = (str(self.state["seed"]), self.state.get("salt") or "-")
        for m in out:
            if m.to.startswith("p"):
                viewer: int | None = int(m.to[1:].split("@")[0]) - 1
            else:
                viewer = None  # the GM's copies: public only
            own = typed if sender is not None and viewer == int(sender[1:]) - 1 else ""
            body = m.body
            if over:  # the end reveals seed, salt and record: only others' events stay theirs
                found = [t for t in leaks(body, game, viewer, game.events, own)
                         if " " in t and len(t) >= 12]
            else:
                body += "".join(a[2].decode(errors="replace") for a in m.attachments)
                assert not any(w in body for w in secret), f"seed or salt mailed to {m.to}"
                found = leaks(body, game, viewer, game.events, own)
            assert not found, f"{m.to} was sent {found}:\n{m.body}"
            self.checked += 1
