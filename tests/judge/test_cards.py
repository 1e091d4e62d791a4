"""Card games hosted by the judge through the card protocol: sequential turns (micro mob) and
sealed simultaneous choices (Mice Heist), per-player views only."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from mobadj.judge.hosts import host_for

from .helpers import mail

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def setup_game(judge, kind, n, seed=11, **options):
    """A started card game ``cg`` with players p1..pn@test.org; its secret seed is replaced
    by ``seed`` so that the deal is the same at every run."""
    game, _ = judge.create_game("cg", kind, "gm@test.org", "gm-pw", options, seed=11)
    out: list = []
    with judge.store.transaction():
        for i in range(n):
            judge.add_player(judge.store.game("cg"), f"p{i + 1}@test.org", f"P{i + 1}",
                             f"pw-p{i + 1}", 0, out)
        with mock.patch("mobadj.judge.cardhost.new_seed", return_value=seed):
            judge.start(judge.store.game("cg"), judge.clock(), out)
        for m in out:
            judge.store.queue(m, 0)
    return host_for(kind)


def act(judge, seat, text):
    n = seat[1:]
    return judge.handle_mail(mail(f"p{n}@test.org", f"SIGNON cg {seat} pw-p{n}\n{text}"))


def legal(judge, host, seat):
    g = judge.store.game("cg")
    game = host._game(g.state)
    return [str(a) for a in game.legal_actions(int(seat[1:]) - 1)]


def private_events(judge, host):
    game = host._game(judge.store.game("cg").state)
    public = {e.text for e in game.events if e.visible_to is None}
    return [e for e in game.events if e.visible_to is not None and e.text not in public]


def assert_no_leaks(judge, host, n):
    """No private event text reaches a player who may not see it (the same words in an
    event of their own, e.g. two equal sealed bets, are theirs to read)."""
    mails = judge.store.all_mail()
    events = private_events(judge, host)
    for e in events:
        for m in mails:
            if not m.to.startswith("p"):
                continue
            player = int(m.to[1:].split("@")[0]) - 1
            own = any(o.text == e.text and player in o.visible_to for o in events)
            if player not in e.visible_to and not own:
                assert e.text not in m.body, (e.text, m.to)


def test_micromob_turns_by_mail(judge):
    host = setup_game(judge, "micromob", 3)
    rng = random.Random(3)
    moves = 0
    for _ in range(12):
        g = judge.store.game("cg")
        (seat,) = host.due(g.state)
        command = rng.choice(legal(judge, host, seat))
        out = act(judge, seat, command)
        moves += 1
        assert "Errors" not in out[0].body, out[0].body
        # a sequential turn resolves at once; every player hears of it
        assert {m.to for m in out if "results" in m.subject} >= {"p1@test.org", "p2@test.org",
                                                                 "p3@test.org"}
    assert len(judge.store.game("cg").state["actions"]) >= moves
    # a command out of turn is refused with a reason, the state unchanged
    g = judge.store.game("cg")
    (seat,) = host.due(g.state)
    other = next(s for s in ("P1", "P2", "P3") if s != seat)
    r = act(judge, other, legal(judge, host, seat)[0])[0].body
    assert "No orders are needed" in r
    r = act(judge, seat, "fly to the moon")[0].body
    assert "Errors" in r and "line 2:" in r
    assert judge.store.game("cg").state["actions"] == g.state["actions"]
    assert_no_leaks(judge, host, 3)


def test_sealed_choices_are_revealed_together(judge):
    host = setup_game(judge, "miceheist", 3)
    rng = random.Random(5)
    for _ in range(80):  # play (by mail) until the game asks for sealed simultaneous choices
        due = host.due(judge.store.game("cg").state)
        if len(due) >= 2:
            break
        act(judge, due[0], rng.choice(legal(judge, host, due[0])))
    else:
        pytest.fail("Mice Heist never asked for simultaneous choices")
    before = list(judge.store.game("cg").state["actions"])
    first, *rest = due
    choice = legal(judge, host, first)[0]
    out = act(judge, first, choice)
    assert "as the judge reads them" in out[0].body and choice in out[0].body
    assert [m for m in out if "results" in m.subject] == []  # sealed: nothing revealed yet
    assert judge.store.game("cg").state["actions"] == before
    for seat in rest:
        out = act(judge, seat, legal(judge, host, seat)[0])
    results = [m for m in out if "results" in m.subject]
    assert {m.to for m in results} >= {"p1@test.org", "p2@test.org", "p3@test.org"}
    assert len(judge.store.game("cg").state["actions"]) == len(before) + len(due)
    assert_no_leaks(judge, host, 3)


def test_card_game_default_move_on_missed_deadline(judge, clock):
    host = setup_game(judge, "micromob", 2, extend_first_nmr_hours=0)
    before = len(judge.store.game("cg").state["actions"])
    clock.advance(hours=49)
    out = judge.tick()
    assert len(judge.store.game("cg").state["actions"]) == before + 1
    body = next(m for m in out if m.to == "p1@test.org").body
    assert "no command; the judge played a default move" in body
    assert host.due(judge.store.game("cg").state)


def test_a_finished_card_game_cannot_be_rolled_back(judge):
    """Its seed and salt were revealed at the end: played on, every card to come is known."""
    host = setup_game(judge, "micromob", 2)
    rng = random.Random(3)
    for _ in range(500):
        state = judge.store.game("cg").state
        if host.is_over(state):
            break
        seat = rng.choice(host.due(state))
        act(judge, seat, rng.choice(legal(judge, host, seat)))
    assert host.is_over(judge.store.game("cg").state)
    before = judge.store.game("cg").state
    # it ended in the move that was played last, not in the one after it
    last = f"M{len(before['actions']) - before.get('free', 0)}"
    assert judge.store.ending("cg")["phase"] == last
    listed = judge.handle_mail(mail("gm@test.org", "GM cg gm-pw\nLIST"))[0].body
    assert f"Ended in: {last} (move {last[1:]}, the last)\n" in listed
    out = judge.handle_mail(mail("gm@test.org", "GM cg gm-pw\nrollback"))
    reply = next(m for m in out if m.to == "gm@test.org").body
    assert "cannot roll back" in reply and "seed and salt were revealed" in reply
    assert judge.store.game("cg").state == before
    # a game an older mobadj recorded as ended in the move after its last is counted again
    ending = judge.store.ending("cg")
    with judge.store.transaction():
        judge.store.set_ending("cg", ending["result"], ending["powers"], ending["how"],
                               f"M{int(last[1:]) + 1}", ending["at"])
    summary = judge.handle_mail(mail("gm@test.org", "GM cg gm-pw\nSUMMARY"))[0].body
    assert f", in {last}." in summary and f"M{int(last[1:]) + 1}" not in summary, summary
