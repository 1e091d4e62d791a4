"""A card game's moves by mail as the player sends and reads them: a line the judge cannot
read stops the moves after it (they are not played, and the reply says so and never offers
to correct a move already played); a move sent out of turn is named as not taken, with whose
move it is; a seat without a player is played as the GM's orders come and the notices say
what the judge does with it."""

from __future__ import annotations

import random

import pytest

from mobadj.judge.overview import status_text

from .helpers import mail
from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def to_a_turn_of_several_moves(judge, host):
    """Play Mice Heist until one seat alone is due with a move (``use``) after which it
    still acts; returns the seat, that move and a move it may make after it."""
    rng = random.Random(5)
    for _ in range(200):
        state = judge.store.game("cg").state
        due = host.due(state)
        if len(due) == 1:
            seat = due[0]
            game = host._game(state)
            player = int(seat[1:]) - 1
            for first in game.legal_actions(player):
                if not str(first).startswith("use "):
                    continue
                after = host._game(state)
                after.apply(player, first)
                if player in after.to_act():
                    then = next(str(a) for a in after.legal_actions(player)
                                if str(a).startswith("test"))
                    return seat, str(first), then
        seat = rng.choice(due)
        act(judge, seat, rng.choice(legal(judge, host, seat)))
    pytest.fail("no turn with a skill to use before the test")


def test_an_unreadable_line_stops_the_moves_after_it(judge) -> None:
    host = setup_game(judge, "miceheist", 3)
    seat, first, then = to_a_turn_of_several_moves(judge, host)
    before = list(judge.store.game("cg").state["actions"])
    out = act(judge, seat, f"{first}\nuse shadow stpe\n{then}\n\nBob")
    reply = next(m for m in out if m.to == f"p{seat[1:]}@test.org"
                 and "results" not in m.subject).body
    actions = judge.store.game("cg").state["actions"]
    player = int(seat[1:]) - 1
    assert actions[len(before):] == [[player, first]]  # the move before the typo only
    assert seat in host.due(judge.store.game("cg").state)  # still this seat's move
    assert "line 3: no skill 'shadow stpe'" in reply
    assert f"line 4: not played ({then})" in reply
    assert "send your orders again" not in reply
    assert "played at once" in reply and "final" in reply
    assert "Send the moves still to make" in reply
    assert "Bob" not in reply  # the signature stays a remark


def test_moves_after_a_select_wait_for_the_sealed_bets_and_the_reply_says_so(judge) -> None:
    # the guide: a reply names the line that failed and each line after it as not played
    host = setup_game(judge, "miceheist", 3)
    state = judge.store.game("cg").state
    (seat,) = host.due(state)
    player = int(seat[1:]) - 1
    skill = host._game(state).skills[player][0]
    others = " and ".join(s for s in ("P1", "P2", "P3") if s != seat)
    out = act(judge, seat, f"select A\nuse {skill}\ntest\n\nAnn")
    reply = next(m for m in out if m.to == f"p{seat[1:]}@test.org"
                 and "results" not in m.subject).body
    assert f"line 3: not played (use {skill}): after line 2 (select A) it is {others}'s move, " \
           f"not {seat}'s (after your select the other players bet first: the sealed bets " \
           f"of {others}; your skills and test come when the bets are revealed); you will " \
           f"be mailed when {seat} is to move: send it then" in reply
    assert "line 4: not played (test)\n" in reply
    assert "not your turn then" not in reply
    assert [a for _, a in judge.store.game("cg").state["actions"]] == ["select A"]


def test_a_hit_that_ends_the_turn_says_why_the_next_line_is_not_played(judge) -> None:
    host = setup_game(judge, "micromob", 2)
    rng = random.Random(3)
    for _ in range(200):
        state = judge.store.game("cg").state
        (seat,) = host.due(state)
        player = int(seat[1:]) - 1
        game = host._game(state)
        hits = [str(a) for a in game.legal_actions(player) if str(a).startswith("hit ")]
        if game.phase == "play" and hits:
            after = host._game(state)
            after.command(player, hits[0])
            if player not in after.to_act() and not after.is_over():
                break
        act(judge, seat, rng.choice(legal(judge, host, seat)))
    else:
        pytest.fail("no hit that ends a turn")
    other = "P2" if seat == "P1" else "P1"
    reply = act(judge, seat, f"{hits[0]}\n{hits[0]}\npayroll")[0].body
    assert f"line 3: not played ({hits[0]}): after line 2 ({hits[0]}) it is {other}'s move, " \
           f"not {seat}'s (your turn ended with it: no ally's action bonus lets you act " \
           f"again); you will be mailed when {seat} is to move: send it then" in reply
    assert "line 4: not played (payroll)" in reply


def sealed_round(judge):
    """A Mice Heist game for three played by mail up to a round of sealed choices: its host
    and the seats that choose."""
    host = setup_game(judge, "miceheist", 3)
    rng = random.Random(5)
    for _ in range(80):
        due = host.due(judge.store.game("cg").state)
        if len(due) >= 2:
            return host, due
        act(judge, due[0], rng.choice(legal(judge, host, due[0])))
    pytest.fail("Mice Heist never asked for simultaneous choices")


def test_a_sealed_choice_with_an_unreadable_line_after_it_can_still_be_replaced(judge) -> None:
    host, due = sealed_round(judge)
    first = due[0]
    out = act(judge, first, f"{legal(judge, host, first)[0]}\nbett 9")
    reply = out[0].body
    assert "Errors" in reply and "send your orders again" in reply  # not played yet: true


def test_a_move_out_of_turn_is_named_with_whose_move_it_is(judge) -> None:
    host = setup_game(judge, "micromob", 3)
    (seat,) = host.due(judge.store.game("cg").state)
    other = next(s for s in ("P1", "P2", "P3") if s != seat)
    move = legal(judge, host, seat)[0]
    before = list(judge.store.game("cg").state["actions"])
    reply = act(judge, other, f"{move}\n\nD.")[0].body
    assert judge.store.game("cg").state["actions"] == before
    assert f"Not taken: line 2 ({move})" in reply
    assert f"it is {seat}'s move, not {other}'s" in reply
    assert f"you will be mailed when {other} is to move" in reply
    assert "D." not in reply


def gm(judge, text):
    return judge.handle_mail(mail("gm@test.org", f"GM cg gm-pw\n{text}"))


def test_the_gms_moves_for_a_seat_whose_player_resigned_are_played_at_once(judge) -> None:
    host = setup_game(judge, "micromob", 3)
    (seat,) = host.due(judge.store.game("cg").state)
    move = legal(judge, host, seat)[0]
    notice = next(m for m in act(judge, seat, "RESIGN") if m.to == "p2@test.org").body
    assert "units hold" not in notice
    assert "the judge plays its moves" in notice
    status = status_text(judge, judge.store.game("cg"), judge.clock())  # mobadj game status
    assert f"Waiting for: {seat} (no player, or in civil disorder:" in status
    assert "Owe orders: nobody" not in status
    before = len(judge.store.game("cg").state["actions"])
    out = gm(judge, f"ORDERS FOR {seat}\n{move}")
    assert len(judge.store.game("cg").state["actions"]) == before + 1  # played, not held
    assert {m.to for m in out if "results" in m.subject} >= {"p2@test.org", "gm@test.org"}
    assert seat not in host.due(judge.store.game("cg").state)


def test_a_seat_whose_player_resigned_is_played_by_the_bot_and_its_win_is_said(
        judge, clock) -> None:
    host = setup_game(judge, "micromob", 2, extend_first_nmr_hours=0)
    act(judge, "P2", "RESIGN")
    rng = random.Random(1)
    mails = []
    for _ in range(500):
        state = judge.store.game("cg").state
        if host.is_over(state):
            break
        if "P1" in host.due(state):
            mails += act(judge, "P1", rng.choice(legal(judge, host, "P1")))
        else:
            clock.advance(hours=49)
            mails += judge.tick()
    assert host.is_over(judge.store.game("cg").state)
    results = [m.body for m in mails if m.to == "p1@test.org" and "results" in m.subject]
    assert any("P2: no player; the judge played the game's bot move" in b for b in results)
    final = results[-1]
    assert "Winner: P2" in final
    assert "moves of P2, a winner, were played by the judge's bot" in final
    status = status_text(judge, judge.store.game("cg"), judge.clock())  # mobadj game status
    assert "Result: P2 wins (by the rules; 21 of P2's moves by the judge's bot)" in status


def test_bot_moves_at_once_set_while_the_game_waits_plays_the_seat_at_the_next_poll(
        judge) -> None:
    """The game stands waiting for a resigned seat (by default its bot moves at the
    deadline); the GM sets ``bot_moves at_once``: the judge's next look at its games plays
    the seat's move, long before the deadline, and the table gets the results."""
    host = setup_game(judge, "micromob", 3)
    (seat,) = host.due(judge.store.game("cg").state)
    act(judge, seat, "RESIGN")
    before = len(judge.store.game("cg").state["actions"])
    assert len(judge.tick()) == 0  # waits: the deadline is days away
    reply = gm(judge, "SET bot_moves at_once")[0].body
    assert "Option bot_moves = at_once." in reply
    out = judge.tick()
    assert len(judge.store.game("cg").state["actions"]) > before
    assert seat not in host.due(judge.store.game("cg").state)
    other = next(f"p{n}@test.org" for n in (1, 2, 3) if f"P{n}" != seat)
    results = [m.body for m in out if m.to == other and "results" in m.subject]
    assert any(f"{seat}: no player; the judge played the game's bot move" in b for b in results)
    assert "bot_moves must be one of deadline, at_once" in gm(judge, "SET bot_moves soon")[0].body


def test_a_misspelt_move_gets_the_legal_commands_and_no_word_of_standing_orders(judge) -> None:
    """A card game keeps no orders: the reply to a move of which nothing was played lists
    the seat's legal commands, and its "expected" names only the commands possible now."""
    host = setup_game(judge, "miceheist", 3)
    (seat,) = host.due(judge.store.game("cg").state)
    move = legal(judge, host, seat)[0]  # "select A"
    word, rest = move.split(maxsplit=1)
    typo = word[:2] + word[3] + word[2] + word[4:]  # "selcet"
    reply = act(judge, seat, f"Hi all,\n\n{typo} {rest}\nThanks!\nCarla")[0].body
    assert f"unknown command '{typo}', at column 1, expected {word} (did you mean '{word}'?)" \
        in reply, reply
    assert "earlier orders" not in reply and "stand" not in reply
    assert "Nothing was played: send your move again, corrected." in reply
    assert "Your legal commands now" in reply and f"  {move}\n" in reply


def test_a_sealed_bet_is_said_to_be_in_while_the_others_still_choose(judge) -> None:
    host, due = sealed_round(judge)
    first, others = due[0], due[1:]
    bet = legal(judge, host, first)[0]
    reply = act(judge, first, f"{bet}\n-- \nAnn Lee | ann@club.org")[0].body
    assert (f"Your move is in: {bet} (sealed: nobody sees it before every move is in). "
            f"Still waiting for {', '.join(others)}.") in reply, reply
    # a typo after it: the bet sent before stands, and the reply says so
    reply = act(judge, first, "bett 9")[0].body
    assert f"Nothing was taken, so the move you sent before stands: {bet}." in reply, reply
