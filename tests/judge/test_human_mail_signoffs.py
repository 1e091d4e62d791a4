"""A name under a judge command ("RESIGN", blank line, "Dmitri"; the GM's "START" then
"Gil") is a sign-off, set aside silently as after orders, in Diplomacy and card games, for
players and the GM; a mail that only resigns says goodbye without words about orders."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail
from .test_cards import act, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build

NOISE = ("Error", "unknown command", "not understood", "earlier orders", "Orders for",
         "Out of turn", "Deadline for", "does not give orders")


def quiet(reply: str) -> str:
    for word in NOISE:
        assert word not in reply, (word, reply)
    return reply


def test_a_card_player_resigns_with_a_name_under_resign(judge) -> None:
    setup_game(judge, "miceheist", 4)
    out = act(judge, "P3", "PRESS TO ALL\nSorry friends, I have to leave - new job. Good luck!"
                           "\nENDPRESS\nRESIGN\n\nDmitri\n")
    reply = quiet(next(m for m in out if m.to == "p3@test.org").body)
    assert "You have resigned from cg" in reply and "Press delivered" in reply
    assert judge.store.player("cg", "P3") is None  # the seat has no player now


def test_a_name_after_a_card_players_command_is_set_aside_but_a_move_is_read(judge) -> None:
    setup_game(judge, "miceheist", 4)
    reply = act(judge, "P1", "STATUS\n\nAnn\n")[0].body
    assert "Phase: move 1" in reply and "unknown command" not in reply
    assert "Error" not in reply
    reply = act(judge, "P1", "STATUS\n\nselcet A\n")[0].body  # a slip is no sign-off
    assert "line 4" in reply and "select" in reply
    out = act(judge, "P1", "STATUS\n\nselect A\n\nAnn")  # a move after it is played
    assert judge.store.game("cg").phase == "M2", out[0].body


def test_the_gms_name_under_a_command_in_a_card_game(judge) -> None:
    setup_game(judge, "micromob", 2)
    out = judge.handle_mail(mail("gm@test.org", "Hi all,\n\nGM cg gm-pw\nEXTEND 1 hours\n\nGil"))
    reply = next(m for m in out if m.to == "gm@test.org").body
    assert "Deadline extended" in quiet(reply)


def test_the_gms_start_mail_signed_with_a_name(judge) -> None:
    judge.create_game("cg", "miceheist", "gm@test.org", "gm-pw", {}, seed=11)
    out: list = []
    with judge.store.transaction():
        for i in range(2):
            judge.add_player(judge.store.game("cg"), f"p{i + 1}@test.org", f"P{i + 1}",
                             f"pw-p{i + 1}", 0, out)
    out = judge.handle_mail(mail("gm@test.org", "Hi all,\n\nGM cg gm-pw\nSTART\n\nGil"))
    reply = next(m for m in out if m.to == "gm@test.org" and "Signed on" in m.body).body
    assert "not understood" not in reply and "Gil" not in reply
    assert judge.store.game("cg").status == "active"


def test_a_diplomacy_player_and_gm_sign_commands_with_a_name(judge) -> None:
    t = Table(judge, "standard")
    out = judge.handle_mail(mail(t.emails["TURKEY"], t.signon("TURKEY") + "RESIGN\n\nDmitri"))
    reply = quiet(next(m for m in out if m.to == t.emails["TURKEY"]).body)
    assert "You have resigned from g1" in reply
    out = judge.handle_mail(mail("gm@test.org", f"Hi all,\n\nGM g1 {t.gm_password}\n"
                                 "EXTEND 1 hours\n\nGil"))
    assert "Deadline extended" in quiet(out[0].body)



def test_a_misspelt_command_under_a_command_keeps_its_did_you_mean(judge) -> None:
    setup_game(judge, "miceheist", 4)
    reply = act(judge, "P1", "STATUS\n\nResing")[0].body
    assert "did you mean the command 'RESIGN'?" in reply
    assert judge.store.player("cg", "P1").status == "active"
