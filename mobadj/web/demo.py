"""Games played through a real judge with seeded random players, for the page tests, the
screenshots and the page benchmark: every order, press and card command goes in by mail
(``Judge.handle_mail``) exactly as a player's would, and phases end at their deadlines.

Random orders are plausible rather than clever: each unit holds, moves to a neighbour or
supports a neighbour; dislodged units retreat where they may; builds go on free home centres.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

from mobadj.judge.core import Judge
from mobadj.judge.hosts import host_for

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
        out: list[Any] = []
        with judge.store.transaction():
            for seat in self.seats:
                judge.add_player(judge.store.game(name), self.emails[seat], seat,
                                 self.passwords[seat], judge.clock(), out)
            judge.start(judge.store.game(name), judge.clock(), out)

    def say(self, seat: str, text: str) -> list[Any]:
        body = f"SIGNON {self.name} {seat} {self.passwords[seat]}\n{text}"
        return self.judge.handle_mail(mail(self.emails[seat], body))

    @property
    def game(self) -> Any:
        return self.judge.store.game(self.name)

    def due(self) -> list[str]:
        g = self.game
        return host_for(g.kind).due(g.state) if g.status == "active" else []

    def process(self) -> None:
        """End the phase now (the GM's PROCESS): missing orders get the rules' defaults."""
        out: list[Any] = []
        with self.judge.store.transaction():
            self.judge.resolve(self.game, self.judge.clock(), out)


def board_orders(kind: str, state: dict[str, Any], power: str, rng: random.Random) -> str:
    """Random plausible orders of ``power`` for the current phase of a board game."""
    game_map = host_for(kind).game_map
    pos = state["position"]
    phase = str(pos["phase"])
    units = pos.get("units") or {}
    mine = [u for u in units.get(power, []) if not str(u).startswith("D ")]
    if phase.endswith("-START"):
        return f"Don starts in {game_map.powers[power].home_centers[0]}"
    if phase.endswith("R"):
        lines = []
        for d in (pos.get("dislodged") or {}).get(power, []):
            options = d.get("retreats") or []
            unit = d["unit"]
            lines.append(f"{unit} - {rng.choice(options)}" if options and rng.random() < 0.8
                         else f"{unit} disband")
        return "\n".join(lines)
    if phase.endswith("A"):
        return _builds(game_map, pos, power, rng)
    occupied = {str(u).split()[1].split("/")[0] for lst in units.values() for u in lst
                if not str(u).startswith("D ")}
    lines = []
    for u in mine:
        kind_, loc = str(u).split()[:2]
        if loc == "MTPD":
            continue
        near = sorted(game_map.neighbours(kind_, loc))
        r = rng.random()
        if r < 0.55 and near:
            lines.append(f"{kind_} {loc} - {rng.choice(near)}")
        elif r < 0.8 and near:
            friends = [p for p in near if p.split("/")[0] in occupied]
            if friends:
                target = rng.choice(friends).split("/")[0]
                other = next(str(v) for lst in units.values() for v in lst
                             if str(v).split()[1].split("/")[0] == target
                             and not str(v).startswith("D "))
                lines.append(f"{kind_} {loc} S {other}")
            else:
                lines.append(f"{kind_} {loc} H")
        else:
            lines.append(f"{kind_} {loc} H")
    return "\n".join(lines)


def _builds(game_map: Any, pos: dict[str, Any], power: str, rng: random.Random) -> str:
    centres = len((pos.get("centers") or {}).get(power, []))
    units = [u for u in (pos.get("units") or {}).get(power, []) if not str(u).startswith("D ")]
    delta = centres - len(units)
    if delta < 0:
        return "\n".join(f"{u} disband" for u in units[:-delta])
    occupied = {str(u).split()[1].split("/")[0] for lst in (pos.get("units") or {}).values()
                for u in lst}
    free = [c for c in game_map.powers[power].home_centers
            if c in (pos.get("centers") or {}).get(power, []) and c not in occupied]
    rng.shuffle(free)
    kinds = sorted(game_map.unit_kinds) if getattr(game_map, "unit_kinds", None) else ["A"]
    army = "A" if "A" in kinds else kinds[0]
    return "\n".join(f"Build {army} {c}" for c in free[:max(delta, 0)])


def play_board(t: Table, phases: int, rng: random.Random,
               each: Callable[[Table], None] | None = None) -> None:
    """Play ``phases`` phases (or to the end): every due power sends orders, then the GM
    processes; ``each`` is called after every mail (the secrecy test looks then)."""
    for _ in range(phases):
        g = t.game
        if g.status != "active":
            return
        for power in t.due():
            text = board_orders(t.kind, g.state, power, rng)
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
        game = replay(t.kind, g.state)
        for seat in due:
            player = int(seat[1:]) - 1
            action = bot.choose(game, player, rng)
            t.say(seat, str(action))
            if each:
                each(t)
            if t.game.state != g.state:
                break
