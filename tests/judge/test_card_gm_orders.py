"""The GM's ORDERS FOR in a card game: under it the seat's moves are the game's commands,
even where the judge has a command of the same word (Iron Triangle's ``offer``, micro mob's
``end``); above it the GM's commands stay the GM's."""

from __future__ import annotations

import pytest

from .helpers import mail
from .test_cards import act, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def gm(judge, text):
    return judge.handle_mail(mail("gm@test.org", f"Hello all,\n\nGM cg gm-pw\n{text}"))


def test_an_offer_under_orders_for_is_the_seats_not_a_takeover(judge) -> None:
    setup_game(judge, "irontriangle", 4)
    act(judge, "P1", "job 1 fast")  # the Mob Boss chooses a job; the others offer, sealed
    act(judge, "P2", "offer 1")
    act(judge, "P3", "offer 1")
    out = gm(judge, "ORDERS FOR P4\noffer 2\n\nThanks,\nThe GM")
    reply = next(m for m in out if m.to == "gm@test.org").body
    (entered,) = reply.split("as the judge reads them:\n")[1].splitlines()[:1]
    assert entered.startswith("  offer ")  # P4's second card, by its name
    assert "is offered" not in reply and "TAKEOVER" not in reply
    assert not any(p.offered for p in judge.store.players("cg"))  # no seat put up for takeover
    offers = [a for a in judge.store.game("cg").state["actions"] if a[0] == 3]
    assert offers == [[3, entered.strip()]]


def test_above_orders_for_the_gms_offer_is_still_the_takeover(judge) -> None:
    setup_game(judge, "irontriangle", 4)
    out = gm(judge, "OFFER P2\nORDERS FOR P1\noffer 1\n")
    reply = next(m for m in out if m.to == "gm@test.org").body
    assert "P2 is offered" in reply
    assert [p.power for p in judge.store.players("cg") if p.offered] == ["P2"]


def test_micro_mobs_end_under_orders_for_is_the_seats_not_a_sign_off(judge) -> None:
    """``end`` is micro mob's (end the turn) under ORDERS FOR, not the judge's SIGNOFF:
    the GM's commands after the block are still read."""
    setup_game(judge, "micromob", 2)
    out = gm(judge, "ORDERS FOR P1\nend\nSTATUS\n")
    reply = next(m for m in out if m.to == "gm@test.org").body
    assert "Orders for P1" in reply and "it is the goon draft" in reply  # read as a move
    assert "Phase: move 1" in reply  # STATUS, after the block, was answered


def test_status_and_summary_list_only_the_seats_dealt(judge) -> None:
    """A micro mob game for three (of six possible seats): STATUS, the GM's status and
    SUMMARY name P1-P3, and no empty seat is called 'civil disorder'."""
    setup_game(judge, "micromob", 3)
    player = act(judge, "P1", "STATUS\nSUMMARY")[0].body
    gm_view = gm(judge, "STATUS")[0].body
    for text in (player, gm_view):
        assert "P3" in text and "P4" not in text and "civil disorder" not in text
