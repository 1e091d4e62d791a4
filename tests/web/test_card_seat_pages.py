"""A card game's seat page as a player sees it over real HTTP, beside mail players: a
sealed choice shown to its own seat alone, and every page counting the moves of a finished
game alike (the GM's early end and a natural end)."""

from __future__ import annotations

import html
import random
import re

from mobadj.judge import Judge, Store, WebPlay
from mobadj.judge.config import config_from_data
from mobadj.web.cardview import replay
from mobadj.web.demo import Table, play_cards
from mobadj.web.pages import Site

from .helpers import Visitor, said, seat_page, signed_in, world_and_server

START = 1_800_000_000.0


class World:
    def __init__(self, path) -> None:
        self.config = config_from_data({"judge": {
            "name": "Card Judge", "address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, clock=lambda: START, kdf_n=2**10)
        self.mice = Table(self.judge, "mice", "miceheist", seats=["P1", "P2", "P3"], seed=4)
        self.early = Table(self.judge, "early", "miceheist", seats=["P1", "P2", "P3"], seed=6)
        self.done = Table(self.judge, "done", "miceheist", seats=["P1", "P2", "P3"], seed=9)
        play_cards(self.done, random.Random(2))
        self.play = WebPlay(self.judge)
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Card Judge", clock=lambda: START)


world, srv = world_and_server(World, "card-seat-pages")


def sent_move(text: str) -> str:
    found = re.search(r'Your move sent: <strong class="sent-move">(.*?)</strong>', text)
    return found.group(1) if found else ""


def test_a_sealed_bet_is_shown_on_its_own_seat_page_alone_and_the_next_deadline_named(
        srv, world):
    """Mice Heist: P1's job, then P2's sealed bet from its page, replaced by one by mail:
    P2's page shows the bet standing (the last one sent); no other page holds it.  Each
    answer names the move now due and its deadline, not the move just played."""
    first = world.mice.due()[0]  # the seat that picks the job (as the deal had it)
    picker = signed_in(srv, "mice", first, f"pw-{first.lower()}", "10.3.0.1")
    job = str(replay("miceheist", world.mice.game.started_state).legal_actions(
        int(first[1:]) - 1)[0])
    assert picker.act("mice", do="command", command=job, drawn="M1").status == 303
    answer = said(seat_page(picker, "mice"))
    bettor, last = world.mice.due()
    assert f"Orders for {first}, move 1 (waiting for {first}), as the judge reads them:\n" \
        f"  {job}" in answer, answer
    assert f"Deadline for move 2 (waiting for {bettor}, {last}): " in answer, answer
    assert "Deadline for move 1" not in answer

    mine_v = signed_in(srv, "mice", bettor, f"pw-{bettor.lower()}", "10.3.0.2")
    before = seat_page(mine_v, "mice")
    assert "Your move is due." in before and sent_move(before) == ""
    assert mine_v.act("mice", do="command", command="bet 2", drawn="M2").status == 303
    mine = seat_page(mine_v, "mice")
    assert "Your move is in (you may change it until the deadline)." in mine
    assert sent_move(mine) == "bet 2", mine
    assert "You may change it until the deadline: the last one sent, from this page or by " \
        "mail, stands." in mine
    assert 'class="chosen" aria-pressed="true">bet 2 (sent)</button>' in mine
    assert f"Deadline for move 2 (waiting for {bettor}, {last}): " in said(mine)

    public_before = Visitor(srv.url).get("/g/mice/")
    world.mice.say(bettor, "bet 1")  # by mail: the last one sent stands, and the page says so
    mine = seat_page(mine_v, "mice")
    assert sent_move(mine) == "bet 1" and ">bet 2 (sent)<" not in mine
    assert ">bet 1 (sent)</button>" in mine

    other = signed_in(srv, "mice", last, f"pw-{last.lower()}", "10.3.0.3")
    theirs = seat_page(other, "mice")
    assert sent_move(theirs) == "" and "(sent)" not in theirs and "Your move is due." in theirs
    public = Visitor(srv.url).get("/g/mice/")
    assert "Your move sent" not in public.text and "(sent)" not in public.text
    assert public.headers.get("Etag") == public_before.headers.get("Etag")
    assert sent_move(seat_page(picker, "mice")) == ""

    # the last bet, by mail, ends the round: the answer names the move now due (move 4: a
    # job and two bets were three moves), and the bettor's page shows no bet standing
    reply = next(m for m in world.mice.say(last, "bet 0") if m.to == world.mice.emails[last])
    assert re.search(r"Deadline for move 4 \(waiting for P\d\): ", reply.body), reply.body
    assert "Deadline for move 2" not in reply.body
    assert sent_move(seat_page(mine_v, "mice")) == ""


def test_a_game_the_gm_ends_early_counts_its_moves_alike_on_every_page(srv, world):
    """After a job and two sealed bets (three moves, the judge at move 4) the GM declares
    P2 the winner: index, game page, seat pages, STATUS and the GM's summary all say the
    game ended after move 3."""
    t = world.early
    for _ in range(2):  # the job, then both bets (by mail, the bets sealed until both are in)
        played = replay("miceheist", t.game.started_state)
        for due in t.due():
            t.say(due, str(played.legal_actions(int(due[1:]) - 1)[0]))
    assert t.game.phase == "M4" and len(t.game.started_state["actions"]) == 3
    gm = signed_in(srv, "early", "GM", "gm-secret", "10.3.0.9")
    assert gm.act("early", do="command", command="ENDGAME WIN P2").status == 303
    index = Visitor(srv.url).get("/").text
    row = re.search(r'<tr class="game" id="game-early">.*?</tr>', index, re.S).group(0)
    assert "after move 3" in row and "P2 wins (declared by the GM)" in row, row
    public = html.unescape(Visitor(srv.url).get("/g/early/").text)
    assert "Final table, after move 3" in public
    assert "Moves 2-3" in public  # the sealed round: each seat's bet is a move
    for power in ("P1", "P2", "P3"):
        v = signed_in(srv, "early", power, f"pw-{power.lower()}", f"10.3.1.{power[1]}")
        assert "move 3, the last (the game has ended: nobody is waiting)" in seat_page(v, "early")
    p1 = signed_in(srv, "early", "P1", "pw-p1", "10.3.0.1")
    p1.act("early", do="command", command="STATUS")
    status = said(seat_page(p1, "early"))
    assert "Ended in: M3 (move 3, the last)" in status and "M4" not in status, status
    summary = seat_page(gm, "early")
    assert "Result: win (P2), declared by the GM, in M3." in summary, summary
    # (a word of its own: the page's random form tokens may hold the letters M4)
    assert "the start - M3" in summary and not re.search(r"(?<![\w-])M4\b", summary)


def test_a_card_game_played_to_its_end_counts_its_moves_alike(srv, world):
    """Mice Heist played to its end by mail: the moves it played (each sealed bet one) are
    the count of the index, the final table, every seat's page and STATUS."""
    state = world.done.game.started_state
    moves = len(state["actions"]) - state.get("free", 0)
    index = Visitor(srv.url).get("/").text
    row = re.search(r'<tr class="game" id="game-done">.*?</tr>', index, re.S).group(0)
    assert f"after move {moves}<" in row or f"after move {moves} " in row, row
    assert f"Final table, after move {moves}" in Visitor(srv.url).get("/g/done/").text
    p1 = signed_in(srv, "done", "P1", "pw-p1", "10.3.2.1")
    assert f"move {moves}, the last (the game has ended" in seat_page(p1, "done")
    p1.act("done", do="command", command="STATUS")
    assert f"Ended in: M{moves} (move {moves}, the last)" in said(seat_page(p1, "done"))
