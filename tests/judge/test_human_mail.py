"""Mail as people write it, in memory: greetings, sign-offs and names around the orders,
errors that name the mail's own lines, and READY only from a mail taken whole."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail


@pytest.fixture
def dip(judge):
    return Table(judge, "standard")


def send(judge, t, seat, body, sender=None):
    return judge.handle_mail(mail(sender or t.emails[seat], body))[0].body


def test_greetings_sign_offs_and_names_are_not_orders(judge, dip):
    body = ("Hi GM,\n" + dip.signon("ENGLAND") + "Here are my orders for spring:\n"
            "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n\nthanks\nDave\n")
    r = send(judge, dip, "ENGLAND", body)
    assert "Error" not in r and "  A LVP - YOR" in r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == (
        "F LON - NTH\nF EDI - NWG\nA LVP - YOR")


def test_an_error_names_the_line_of_the_mail_and_the_rest_is_taken(judge, dip):
    body = dip.signon("ENGLAND") + "\nF LON - NTH\nF EDI - NWG\nA LVP - YOK\n\nCheers,\nCarla"
    r = send(judge, dip, "ENGLAND", body)
    assert "line 5, column 9: unknown province 'YOK'; did you mean Yorkshire (YOR)" in r
    assert "send the whole set again" not in r
    assert "The orders above are taken" in r


def test_ready_is_not_set_when_a_line_was_not_taken(judge, dip):
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nA MAR - SPAA\nREADY")
    assert "READY was not set" in r and "line 3 (A MAR - SPAA)" in r
    assert not judge.store.player("g1", "FRANCE").ready
    # READY alone does not make the partly read orders "ready" either
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "READY")
    assert "READY was not set" in r and "line 3 (A MAR - SPAA)" in r
    # orders sent again whole: READY is taken
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nA MAR - SPA\nREADY")
    assert "Marked READY" in r and judge.store.player("g1", "FRANCE").ready


def test_orders_with_an_error_take_back_an_earlier_ready(judge, dip):
    send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nREADY")
    assert judge.store.player("g1", "FRANCE").ready
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nA MAR - Spian")
    assert "you are not any more" in r and not judge.store.player("g1", "FRANCE").ready


def test_a_misspelt_build_gets_a_did_you_mean(judge, dip):
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "Biuld F BRE\nA PAR - BUR\nREADY")
    assert "line 2, column 1: unknown word 'Biuld'; did you mean Build?" in r
    assert "READY was not set" in r
