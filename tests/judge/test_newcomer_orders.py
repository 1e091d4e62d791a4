"""Mail from newcomers to the game, as they write it: orders in everyday words, questions
about how to write an order, and what became of their units when they sent none."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail


@pytest.fixture
def dip(judge):
    return Table(judge, "standard")


def send(judge, t, seat, body):
    return judge.handle_mail(mail(t.emails[seat], body))[0].body


def test_orders_in_everyday_words_are_read(judge, dip):
    """The words around an order ("in", "the", "to") are no part of a province's name."""
    r = send(judge, dip, "ENGLAND", dip.signon("ENGLAND") + "Fleet London to the North Sea\n"
             "Fleet in Edinburgh moves to Norwegian Sea\narmy in Liverpool moves to Yorkshire")
    assert "unknown province" not in r and "Error" not in r, r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == (
        "F LON - NTH\nF EDI - NWG\nA LVP - YOR")


def test_a_move_in_words_is_no_remove(judge, dip):
    r = send(judge, dip, "AUSTRIA", dip.signon("AUSTRIA")
             + "move my army from Vienna to Galicia please\nfleet trieste stands")
    assert "Remove" not in r and "  A VIE - GAL" in r, r
    r = send(judge, dip, "AUSTRIA", dip.signon("AUSTRIA") + "A BUD H\nMove to Galicia")
    assert "Remove" not in r
    assert ("line 3, column 1: unknown word 'Move': a move names its unit first, then '-' "
            "and where it goes: A PAR - BUR") in r, r
