"""Each card game played to its end by mail through real servers: players send SMTP to
aiosmtpd, which delivers into the judge's pymap IMAP inbox; the judge's service fetches,
handles and replies over SMTP.  Every move is taken from the seat's own list of legal
commands, as the judge's PREVIEW reply gives it; the last mail reveals seed and salt and
carries the record, which verifies against the commitment of the first mail."""

from __future__ import annotations

import email
import email.policy
import itertools
import json
import random
import re
import smtplib
from email.message import EmailMessage
from unittest import mock

import pytest

from mobadj.cards.record import verify_record
from mobadj.judge.hosts import host_for

from .e2e import send, service, text  # noqa: F401 (service: the fixture)
from .servers import JUDGE_ADDRESS

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build

_ids = itertools.count(1)

GAMES = [("micromob", 2, {"game_modules": "1"}), ("miceheist", 2, {}),
         ("irontriangle", 3, {}), ("microcity", 1, {})]


class Player:
    """A player's mailbox on the real SMTP server: counts what arrived, reads the last."""

    def __init__(self, servers, seat: str) -> None:
        self.servers, self.seat = servers, seat
        self.address = f"{seat.lower()}@test.org"
        self.count = self.arrived()
        self.password = ""

    def mail(self, game: str, body: str) -> None:
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = self.address, JUDGE_ADDRESS, "orders"
        m["Message-ID"] = f"<{next(_ids)}.{self.seat}@test.org>"  # two PREVIEWs are two mails
        m.set_content(f"SIGNON {game} {self.seat} {self.password}\n{body}")
        with smtplib.SMTP("127.0.0.1", self.servers.smtp_port, timeout=10) as smtp:
            smtp.send_message(m)

    def arrived(self) -> int:
        return len(self.servers.all_delivered().get(self.address, []))

    def new(self) -> list:
        """The mails that arrived since the last call (parsing only those)."""
        self.servers.wait_for_raw(self.address, self.count + 1)
        raws = self.servers.all_delivered()[self.address]
        fresh, self.count = raws[self.count:], len(raws)
        return [email.message_from_bytes(r, policy=email.policy.default) for r in fresh]


def _commands(body: str) -> list[str]:
    """The legal commands listed in a mail ([] when it lists none)."""
    listed = re.search(r"Your legal commands now \(\d+\):\n((?:  .+\n?)+)", body)
    if listed is None:
        return []
    return [line.strip() for line in listed.group(1).splitlines()
            if line.strip() and not line.strip().startswith(("...", "(none)"))]


@pytest.mark.parametrize("kind,players,options", GAMES)
def test_a_card_game_to_its_end_by_mail(service, mail_servers, kind, players, options):  # noqa: F811
    S, judge = mail_servers, service.judge
    name = f"e2e{kind}"[:16]
    seats = [f"P{i + 1}" for i in range(players)]
    judge.create_game(name, kind, "gm@test.org", "gm-pw", options)
    people = {seat: Player(S, seat) for seat in seats}
    send(S, "gm@test.org", f"GM {name} gm-pw\n"
         + "".join(f"addplayer {p.address} {seat}\n" for seat, p in people.items()) + "start")
    with mock.patch("mobadj.judge.cardhost.new_seed", return_value=2**127 + 12345):
        assert service.step() == 1
    commitment = ""
    for p in people.values():
        welcome, started = (p.new() + (p.new() if p.count < 2 else []))[:2]
        p.password = re.search(r"Your password: (\S+)", text(welcome)).group(1)
        commitment = re.search(r"Seed commitment: ([0-9a-f]{64})", text(started)).group(1)
    host = host_for(kind)
    rng = random.Random(kind)
    lists = {seat: _commands(text(started)) for seat in seats}  # the start mail's lists
    moves = previews = 0
    while not host.is_over(judge.store.game(name).state):
        game = judge.store.game(name)
        sent = judge.store.orders(name, host.phase(game.state))  # sealed, not yet revealed
        seat = rng.choice([s for s in host.due(game.state) if s not in sent])
        p = people[seat]
        if not lists[seat]:  # no list in the last mail: ask for it
            p.mail(name, "PREVIEW")
            service.step()
            lists[seat] = _commands(text(p.new()[-1]))
            previews += 1
        assert lists[seat], f"{seat} is due but has no legal command"
        p.mail(name, rng.choice(lists[seat]))
        lists[seat] = []
        service.step()
        moves += 1
        assert moves < 400, "the game does not end by mail"
        for other in people.values():  # each results mail brings a due seat its list
            fresh = other.new() if other is p or other.arrived() > other.count else []
            if other is p:
                assert "Errors" not in text(fresh[0]), text(fresh[0])
            for m in fresh:
                if "results" in m["Subject"]:
                    lists[other.seat] = _commands(text(m))
    assert previews < moves / 4  # the lists came with the results, mostly
    final = next(m for m in S.inbox(people["P1"].address)[::-1] if "results" in m["Subject"])
    body = text(final)
    state = judge.store.game(name).state
    assert f"Seed: {state['seed']}" in body and f"Salt: {state['salt']}" in body
    record = next(part for part in final.iter_attachments()
                  if part.get_filename() == "record.json")
    data = json.loads(record.get_content())
    assert verify_record(data, commitment).ok and len(data["actions"]) == moves
    for address, raws in S.all_delivered().items():  # the salt only in the final mails
        for raw in raws:
            if state["salt"].encode() in raw:
                assert b"results" in raw and b"Seed: " in raw, address


def test_with_bot_moves_at_once_a_seat_without_a_player_never_holds_up_the_game(
        service, mail_servers, clock):  # noqa: F811
    """Micro mob for two by mail; the GM sets ``bot_moves at_once`` and P2 resigns. Each move
    P1 sends comes back at once with the judge's bot move for P2 and P1's next list of legal
    commands: the game never stands waiting a deadline for the empty seat (the clock never
    moves here)."""
    S, judge = mail_servers, service.judge
    name, host = "botnow", host_for("micromob")
    judge.create_game(name, "micromob", "gm@test.org", "gm-pw", {"game_modules": "1"})
    people = {seat: Player(S, seat) for seat in ("P1", "P2")}
    send(S, "gm@test.org", f"GM {name} gm-pw\nSET bot_moves at_once\n"
         + "".join(f"addplayer {p.address} {seat}\n" for seat, p in people.items()) + "start")
    service.step()
    gm_reply = text(S.wait_for("gm@test.org", 1)[0])
    assert "Option bot_moves = at_once." in gm_reply, gm_reply
    for p in people.values():
        welcome = (p.new() + (p.new() if p.count < 2 else []))[0]
        p.password = re.search(r"Your password: (\S+)", text(welcome)).group(1)
    p1 = people["P1"]
    people["P2"].mail(name, "RESIGN")
    service.step()
    notice = next(m for m in p1.new() if "resigned" in m["Subject"])
    assert "the game's bot's move as soon as it is due (bot_moves at_once)" in text(notice)
    listed = next(filter(None, (_commands(text(m)) for m in S.inbox(p1.address)[::-1])), [])
    for _ in range(3):
        assert host.due(judge.store.game(name).state) == ["P1"]  # P2's bot has moved
        assert listed, "P1 is due but was sent no legal command"
        p1.mail(name, listed[0])
        service.step()
        results = [text(m) for m in p1.new() if "results" in m["Subject"]]
        assert any("P2: no player; the judge played the game's bot move" in r for r in results)
        listed = _commands(results[-1])  # P1's next move is asked for at once
    assert judge.store.game(name).status == "active"
