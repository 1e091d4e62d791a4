"""Free commands by mail (protocol ``free_commands``): Iron Triangle's table talk and reveals
come from any seated player at any time, are applied at once, relayed to the others as the
game's events, and do not count as moves."""

from __future__ import annotations

from mobadj.cards.registry import GAMES
from mobadj.judge.cardhost import seat_index

from .helpers import mail
from .test_cards import act, setup_game


def _state(judge):
    return judge.store.game("cg").state


def _news(out):
    return {m.to: m.body for m in out if "news from" in m.subject and "GM copy" not in m.subject}


def _to_negotiation(judge, host):
    """Job and offers by mail; returns (boss seat, gangster seats)."""
    (boss,) = host.due(_state(judge))
    act(judge, boss, "job 1 cheap")
    gangsters = host.due(_state(judge))
    for seat in gangsters:
        act(judge, seat, "offer 1")
    assert host.due(_state(judge)) == [boss]  # the negotiation window: the boss alone is due
    return boss, gangsters


def test_table_talk_out_of_turn_reaches_everyone_at_once(judge) -> None:
    host = setup_game(judge, "irontriangle", 4)
    (boss,) = host.due(_state(judge))
    before = list(_state(judge)["actions"])
    # too early: the table talks once all offers are in (the game's reason, nothing applied)
    r = act(judge, "P1" if boss != "P1" else "P2", "say hurry up")[0].body
    assert "you cannot talk" in r and "Errors" in r
    assert _state(judge)["actions"] == before
    boss, gangsters = _to_negotiation(judge, host)
    talker = gangsters[0]
    phase = host.phase(_state(judge))
    out = act(judge, talker, "say   I can do it cheap")
    reply = out[0].body
    assert f"Done at once by {talker} (out of turn):" in reply
    assert "say I can do it cheap" in reply
    assert "Out of turn, at any time now, you may also send: say <anything>" in reply
    news = _news(out)
    others = {f"p{s[1:]}@test.org" for s in [boss, *gangsters] if s != talker}
    assert set(news) == others  # not to the sender, to every other seat
    assert all(f"{talker} says: I can do it cheap" in b for b in news.values())
    gm = [m for m in out if m.to == "gm@test.org" and "news from" in m.subject]
    assert len(gm) == 1 and "I can do it cheap" in gm[0].body
    st = _state(judge)
    assert st["actions"][-1] == [seat_index(talker), "say I can do it cheap"]
    assert host.phase(st) == phase and host.due(st) == [boss]  # not a move: no one else due
    # the boss talks and picks in one mail; the talk goes out first, the pick resolves
    out = act(judge, boss, f"say convince me\npick {talker}")
    assert all(f"{boss} says: convince me" in b for b in _news(out).values())
    results = [m for m in out if "results" in m.subject]
    assert results and f"{boss} picks the offer of {talker}" in results[0].body
    texts = [a for _, a in _state(judge)["actions"]]
    assert texts[-2:] == ["say convince me", f"pick {talker}"]
    # the round is over: the table no longer talks, the refusal says why
    r = act(judge, gangsters[1], "say too late")[0].body
    assert "you cannot talk" in r


def test_an_unpicked_offer_is_revealed_by_mail_out_of_turn(judge) -> None:
    host = setup_game(judge, "irontriangle", 4)
    boss, gangsters = _to_negotiation(judge, host)
    act(judge, boss, f"pick {gangsters[0]}")
    other = gangsters[1]
    game = host._game(_state(judge))
    card = game.deck.cards[game.last["offers"][seat_index(other)]]
    assert other not in host.due(_state(judge))
    # HELP lists what may be given out of turn now
    assert "reveal" in act(judge, other, "HELP")[0].body.split("out of turn")[-1]
    out = act(judge, other, "reveal")
    assert "Done at once" in out[0].body
    news = _news(out)
    assert len(news) == 3
    assert all(f"{other} reveals the offer that was not picked: {card.offer_text()}" in b
               for b in news.values())
    r = act(judge, other, "reveal")[0].body  # once only: the game's reason
    assert "no face-down offer" in r
    # the new Mob Boss may also reveal if they made an unpicked offer, and still play a job
    assert len([a for a in _state(judge)["actions"] if a[1] == "reveal"]) == 1


def test_free_commands_need_the_same_sign_on(judge) -> None:
    host = setup_game(judge, "irontriangle", 3)
    boss, gangsters = _to_negotiation(judge, host)
    before = list(_state(judge)["actions"])
    n = gangsters[0][1:]
    out = judge.handle_mail(mail(f"p{n}@test.org",
                                 f"SIGNON cg {gangsters[0]} wrong-password\nsay let me in"))
    assert "let me in" not in "".join(m.body for m in out if m.to != f"p{n}@test.org")
    assert _news(out) == {}
    assert _state(judge)["actions"] == before


def test_a_game_without_free_commands_is_unchanged(judge) -> None:
    host = setup_game(judge, "micromob", 3)
    (seat,) = host.due(_state(judge))
    other = next(s for s in ("P1", "P2", "P3") if s != seat)
    assert host.free(_state(judge), other, "say hello") is None
    r = act(judge, other, "say hello")[0].body
    assert "No orders are needed" in r and "Out of turn" not in r


def test_a_private_free_command_reaches_only_those_who_may_see_it(judge, monkeypatch) -> None:
    # a toy game whose free command (a wink) is seen only by the two players concerned
    monkeypatch.setitem(GAMES, "winktoy", ("tests.judge.cardtoy:WinkState",
                                           "mobadj.cards.protocol:RandomBot"))
    host = setup_game(judge, "winktoy", 3)
    assert host.due(_state(judge)) == ["P1"]
    out = act(judge, "P3", "wink P2")  # out of turn, through the protocol's default is_free
    assert "Done at once by P3 (out of turn):\n  wink P2\n  P3 winks at P2" in out[0].body
    news = _news(out)
    assert set(news) == {"p2@test.org"} and news["p2@test.org"].startswith("P3 winks at P2\n")
    assert not [m for m in out if m.to == "gm@test.org"]  # nothing public happened
    assert "winks" not in "".join(m.body for m in out if m.to == "p1@test.org")
    # the due player winks and passes in one mail: the wink at once, the pass as the move
    out = act(judge, "P1", "wink P3\npass")
    assert set(_news(out)) == {"p3@test.org"}
    assert [m for m in out if "results" in m.subject]
    assert host.due(_state(judge)) == ["P2"]
    assert host.phase(_state(judge)) == "M2"  # the winks are not moves
    r = act(judge, "P2", "wink P2")[0].body  # the game's refusal, with the line
    assert "line 2: wink at another player" in r
    r = act(judge, "P3", "pass")[0].body  # not free and not P3's turn: as in any card game
    assert ("Not taken: line 2 (pass): it is P2's move, not P3's. Moves are not kept for "
            "later") in r
    assert [a for _, a in _state(judge)["actions"]] == ["wink P2", "wink P3", "pass"]
