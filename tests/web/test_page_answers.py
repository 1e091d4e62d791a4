"""The judge's answers as a player reads them: on the page they speak of what was sent
(nothing was mailed), by mail of the mail; and an answer names the move or phase now due
with its deadline, not the one its orders just ended."""

from __future__ import annotations

import re

from mobadj.judge import Judge, Store, WebPlay
from mobadj.judge.config import config_from_data
from mobadj.web.cardview import replay
from mobadj.web.demo import Table, mail
from mobadj.web.pages import Site

from .helpers import said, seat_page, signed_in, world_and_server

START = 1_800_000_000.0


class World:
    def __init__(self, path) -> None:
        self.config = config_from_data({"judge": {
            "name": "Answer Judge", "address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, clock=lambda: START, kdf_n=2**10)
        self.dip = Table(self.judge, "dip", "standard")
        self.mm = Table(self.judge, "mm", "micromob", seats=["P1", "P2"], seed=3)
        self.play = WebPlay(self.judge)
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Answer Judge", clock=lambda: START)


world, srv = world_and_server(World, "page-answers")


def test_a_card_move_answer_names_the_move_now_due_and_its_deadline(srv, world):
    """micro mob: a move from the page ends move 1 at once; the answer names move 2 (the
    seat now due) and its deadline, as the page's heading does, on the page and by mail."""
    t = world.mm
    first = t.due()[0]
    move = str(replay("micromob", t.game.started_state).legal_actions(int(first[1:]) - 1)[0])
    v = signed_in(srv, "mm", first, f"pw-{first.lower()}", "10.4.0.1")
    assert v.act("mm", do="command", command=move, drawn="M1").status == 303
    shown = seat_page(v, "mm")
    answer = said(shown)
    assert f"Orders for {first}, move 1 (waiting for {first}), as the judge reads them" \
        in answer, answer
    heading = re.search(r"Now: (move 2 \(waiting for P\d\))", shown)
    assert heading, shown
    assert f"Deadline for {heading.group(1)}: " in answer and "Deadline for move 1" not in \
        answer, answer
    nxt = t.due()[0]
    move = str(replay("micromob", t.game.started_state).legal_actions(int(nxt[1:]) - 1)[0])
    reply = next(m.body for m in t.say(nxt, move) if m.to == t.emails[nxt])
    assert re.search(r"Deadline for move 3 \(waiting for P\d\): ", reply), reply
    assert "Deadline for move 2" not in reply


def test_an_answer_on_the_page_speaks_of_what_was_sent_and_a_mail_of_the_mail(srv, world):
    russia = signed_in(srv, "dip", "RUSSIA", "pw-russia", "10.3.0.20")
    russia.act("dip", do="orders", orders="A Mos - Ukr", ready="1")
    assert "and you are READY" in seat_page(russia, "dip")
    russia.act("dip", do="orders", orders="F Stp/sc - Bto\nA Mos - Ukr")
    answer = said(seat_page(russia, "dip"))
    assert ("You were READY; you are not any more, as a line of what you sent could not be "
            "read.") in answer, answer
    assert "this mail" not in answer and "new mail" not in answer
    russia.act("dip", do="command", command="F Stp/sc - Bto\nREADY")
    answer = said(seat_page(russia, "dip"))
    assert "could not take everything in what you sent" in answer, answer
    assert "this mail" not in answer and "new mail" not in answer
    # by mail, the same words speak of the mail
    world.dip.say("RUSSIA", "A Mos - Ukr\nREADY")
    out = world.judge.handle_mail(mail(world.dip.emails["RUSSIA"],
                                       "SIGNON dip RUSSIA pw-russia\nF Stp/sc - Bto\nA Mos - Ukr"))
    body = next(m.body for m in out if m.to == world.dip.emails["RUSSIA"])
    assert "You were READY; you are not any more, as a line of this mail could not be " \
        "read." in body, body
