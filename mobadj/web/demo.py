"""Games played through a real judge with seeded random players, for the page tests, the
screenshots and the page benchmark: every order, press and card command goes in by mail
(``Judge.handle_mail``) exactly as a player's would, and phases end at their deadlines.

Random orders are plausible rather than clever, and come from the map's rules (the
``sample_orders`` hook, mobadj.engine.scenarios): each unit holds, moves to a neighbour or
supports a neighbour; dislodged units retreat where they may; builds go on free home centres.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

from mobadj.engine import topology_for
from mobadj.judge.core import Judge
from mobadj.judge.hosts import DiplomacyHost, host_for
from mobadj.judge.store import Game, Mail

_ids = itertools.count(1)


def mail(sender: str, body: str, to: str = "judge@test.org") -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = to
    m["Subject"] = "orders"
    m["Message-ID"] = f"<web{next(_ids)}@test.org>"
    m.set_content(body)
    return m.as_bytes()


class Table:
    """A started game whose players' passwords are known: ``say(seat, text)`` mails it."""

    def __init__(self, judge: Judge, name: str, kind: str, seats: list[str] | None = None,
                 seed: int = 7, **options: Any) -> None:
        self.judge, self.name, self.kind = judge, name, kind
        host = host_for(kind)
        game, _ = judge.create_game(name, kind, "gm@test.org", "gm-secret",
                                    {k: str(v) for k, v in options.items()}, seed=seed)
        self.seats = seats or host.seats(game.options)
        self.emails = {s: f"{name}-{s.lower()}@test.org" for s in self.seats}
        self.passwords = {s: f"pw-{s.lower()}" for s in self.seats}
        out: list[Mail] = []
        with judge.store.transaction():
            for seat in self.seats:
                judge.add_player(self.game, self.emails[seat], seat,
                                 self.passwords[seat], judge.clock(), out)
            judge.start(self.game, judge.clock(), out)

    def say(self, seat: str, text: str) -> list[Mail]:
        body = f"SIGNON {self.name} {seat} {self.passwords[seat]}\n{text}"
        return self.judge.handle_mail(mail(self.emails[seat], body))

    @property
    def game(self) -> Game:
        game = self.judge.store.game(self.name)
        assert game is not None  # created in __init__
        return game

    def due(self) -> list[str]:
        g = self.game
        return host_for(g.kind).due(g.started_state) if g.status == "active" else []

    def process(self) -> None:
        """End the phase now (the GM's PROCESS): missing orders get the rules' defaults."""
        out: list[Mail] = []
        with self.judge.store.transaction():
            self.judge.resolve(self.game, self.judge.clock(), out)


def board_orders(kind: str, state: dict[str, Any], power: str, rng: random.Random) -> str:
    """Random plausible orders of ``power`` for the current phase of a board game, from the
    map's rules (their ``sample_orders`` hook: every variant says what its players write)."""
    host = host_for(kind)
    if not isinstance(host, DiplomacyHost):
        raise ValueError(f"{kind} is not played on a map")
    game_map, rules = host.game_map, host.rules
    position = rules.position_from_data(state["position"], game_map)
    return "\n".join(rules.sample_orders(position, power, topology_for(game_map), rng))


def play_board(t: Table, phases: int, rng: random.Random,
               each: Callable[[Table], None] | None = None) -> None:
    """Play ``phases`` phases (or to the end): every due power sends orders, then the GM
    processes; ``each`` is called after every mail (the secrecy test looks then)."""
    for _ in range(phases):
        g = t.game
        if g.status != "active":
            return
        for power in t.due():
            text = board_orders(t.kind, g.started_state, power, rng)
            if text:
                t.say(power, text)
                if each:
                    each(t)
        t.process()
        if each:
            each(t)


def play_cards(t: Table, rng: random.Random, each: Callable[[Table], None] | None = None,
               limit: int = 2000) -> None:
    """Play a card game to its end by mail, each seat sending its bot's choice."""
    from mobadj.cards.registry import bot_class
    from mobadj.web.cardview import replay

    bot = bot_class(t.kind)()
    for _ in range(limit):
        g = t.game
        if g.status != "active":
            return
        due = t.due()
        if not due:
            return
        game = replay(t.kind, g.started_state)
        for seat in due:
            player = int(seat[1:]) - 1
            action = bot.choose(game, player, rng)
            t.say(seat, str(action))
            if each:
                each(t)
            if t.game.state != g.state:
                break
