"""What a player is told when a mail's orders replace the set sent before (njudge keeps
orders per unit, and its veterans send one-line corrections), when the GM's ORDERS FOR does,
when orders come in the mail that resigns, and when a winter's build is doubled."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail
from .test_results_words import WINTER


@pytest.fixture
def dip(judge):
    return Table(judge, "standard", picture="none")


def send(judge, t, seat, body):
    return judge.handle_mail(mail(t.emails[seat], t.signon(seat).replace("FRANCE", "F") + body))


def test_a_one_line_correction_says_which_units_now_have_no_orders(judge, dip):
    send(judge, dip, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
    r = send(judge, dip, "FRANCE", "F Bre-Eng")[0].body
    assert "Orders for FRANCE, Spring 1901 Movement, as the judge reads them:\n  F BRE - ENG" in r
    assert ("Your earlier orders for A PAR and A MAR are replaced by this mail: those units "
            "have no orders now and will hold.") in r
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "F BRE - ENG"
    # the whole set again, one order changed: nothing is left without orders, nothing said
    r = send(judge, dip, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")[0].body
    assert "earlier orders" not in r
    r = send(judge, dip, "FRANCE", "A Par-Pic\nA Mar-Spa")[0].body
    assert ("Your earlier orders for F BRE are replaced by this mail: that unit has no order "
            "now and will hold.") in r


def test_the_gms_orders_for_a_power_say_which_units_they_leave_without(judge, dip):
    send(judge, dip, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nBECOME France\nF Bre-Eng"))
    gm = next(m for m in out if m.to == "gm@test.org").body
    assert ("FRANCE's earlier orders for A PAR and A MAR are replaced by these: those units "
            "have no orders now and will hold.") in gm
    told = next(m for m in out if m.to == dip.emails["FRANCE"]).body
    assert "  F BRE - ENG" in told
    assert ("Your earlier orders for A PAR and A MAR are replaced by the GM's: those units "
            "have no orders now and will hold.") in told


def test_a_winter_mail_says_which_earlier_builds_no_longer_stand(judge, dip):
    with judge.store.transaction():
        state = judge.store.game("g1").state
        judge.store.update_game("g1", state=state | {"position": WINTER}, phase="W1901A")
    send(judge, dip, "FRANCE", "Build A PAR\nBuild F BRE")
    r = send(judge, dip, "FRANCE", "Build A PAR")[0].body
    assert ("Your earlier order Build F BRE is replaced by this mail: it no longer stands; a "
            "build not ordered is waived.") in r


def test_a_second_build_in_one_centre_is_said_to_be_one(judge, dip):
    """France may build two, PAR empty: the second build in PAR is named for what it is,
    not "province occupied" (the batch output keeps the adjudicator's reason)."""
    with judge.store.transaction():
        state = judge.store.game("g1").state
        judge.store.update_game("g1", state=state | {"position": WINTER}, phase="W1901A")
    r = send(judge, dip, "FRANCE", "B A Par\nBuild army Paris\nF Bre B")[0].body
    assert ("Build A PAR: impossible (a second build in PAR: one unit per centre, the first "
            "build there counts)") in r
    assert "province occupied" not in r
    r = send(judge, dip, "FRANCE", "PREVIEW")[0].body
    assert "a second build in PAR" in r and "province occupied" not in r


def test_orders_in_the_mail_that_resigns_are_said_not_kept(judge, dip):
    r = judge.handle_mail(mail(dip.emails["ITALY"], "SIGNON g1 It pw-italy\nA Ven-Tyr\nRESIGN\n"
                               "\nCiao, Marco"))
    body = next(m for m in r if m.to == dip.emails["ITALY"]).body
    assert "as the judge reads them" not in body
    assert ("Orders not kept (this mail also resigns: a resigning player's orders go with the "
            "seat):\n  A VEN - TYR\nITALY has no orders for Spring 1901 Movement now") in body
    assert "You have resigned from g1" in body
    assert "ITALY" not in judge.store.orders("g1", "S1901M")


def test_with_order_mails_merge_a_correction_changes_only_the_units_it_orders(judge, dip):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET order_mails maybe"))
    assert "order_mails must be one of replace, merge, not 'maybe'" in out[0].body
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET order_mails merge"))
    send(judge, dip, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
    r = send(judge, dip, "FRANCE", "F Bre-Eng")[0].body
    assert ("Orders for FRANCE, Spring 1901 Movement, as the judge reads them:\n  F BRE - ENG\n"
            "Your earlier orders for the other units stand (in this game a mail changes only "
            "the orders of the units it orders):\n  A PAR - BUR\n  A MAR - SPA") in r
    assert "replaced by this mail" not in r
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR\nA MAR - SPA\nF BRE - ENG"
    # the GM's orders for France merge the same way
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nBECOME France\nA Mar H"))
    gm = next(m for m in out if m.to == "gm@test.org").body
    assert "FRANCE's earlier orders for the other units stand" in gm
    told = next(m for m in out if m.to == dip.emails["FRANCE"]).body
    assert ("they replace yours for the units they order (send new ones to replace them in "
            "turn):\n  A MAR H\nYour earlier orders for the other units stand") in told
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR\nF BRE - ENG\nA MAR H"
    # a winter's builds are no units' orders: the mail's set replaces the earlier one
    with judge.store.transaction():
        state = judge.store.game("g1").state
        judge.store.update_game("g1", state=state | {"position": WINTER}, phase="W1901A")
    send(judge, dip, "FRANCE", "Build A PAR\nBuild F BRE")
    r = send(judge, dip, "FRANCE", "Build A PAR")[0].body
    assert "Your earlier order Build F BRE is replaced by this mail" in r
    assert judge.store.orders("g1", "W1901A")["FRANCE"] == "Build A PAR"
