"""Results a player can read without the rules at hand: adjustments in words (due, built,
waived, removed by the rules), LIST in an adjustment phase, one layout for every map, and
the mail that starts a game (the board, its picture, what to send first)."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail

WINTER = {
    "phase": "W1901A",
    "units": {"FRANCE": ["A BUR", "F MAO"], "ENGLAND": ["F LON", "F EDI", "A LVP", "F NTH"],
              "GERMANY": ["A MUN", "A BER", "F KIE", "A RUH", "A HOL"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ENGLAND": ["LON", "EDI", "LVP"],
                "GERMANY": ["MUN", "BER", "KIE"]},
}


@pytest.fixture
def winter(judge):
    t = Table(judge, "standard", picture="none")
    with judge.store.transaction():
        state = judge.store.game("g1").state
        judge.store.update_game("g1", state=state | {"position": WINTER}, phase="W1901A")
    return t


def send(judge, t, seat, body):
    return judge.handle_mail(mail(t.emails[seat], t.signon(seat) + body))


def test_list_says_what_each_power_must_do_in_an_adjustment_phase(judge, winter):
    r = send(judge, winter, "FRANCE", "LIST")[0].body
    assert "Adjustments due in Winter 1901 Adjustments:" in r
    assert ("France: 4 centres, 2 units: may build 2 (vacant home centres: BRE, MAR, PAR), "
            "or waive") in r
    assert "England: 3 centres, 4 units: must remove 1 unit (else the rules choose)" in r
    assert "Germany: 3 centres, 5 units: must remove 2 units" in r


def test_adjustments_are_spelt_out_in_the_results(judge, winter):
    send(judge, winter, "FRANCE", "Build A PAR\nWaive\nREADY")
    send(judge, winter, "GERMANY", "Remove A HOL\nREADY")
    out = send(judge, winter, "ENGLAND", "Remove F NTH\nREADY")
    res = next(m for m in out if m.to == winter.emails["FRANCE"] and "results" in m.subject)
    body = res.body
    assert "Adjustments (what was due, and what was done):" in body
    assert "  France: 2 builds due; built A PAR; 1 waived" in body
    assert "  England: 1 removal due; removed F NTH" in body
    assert ("  Germany: 2 removals due; removed A HOL; A RUH removed by the rules (civil "
            "disorder: no removal ordered)") in body
    # one layout: the orders with their results, then the position, the next phase
    assert body.index("France:\n  Build A PAR") < body.index("Position:") < body.index(
        "Next phase: Spring 1902 Movement")
    assert "France                4 centres  A BUR, A PAR, F MAO" in body


def test_a_build_not_ordered_is_said_to_be_waived(judge, winter):
    send(judge, winter, "ENGLAND", "Remove F NTH\nREADY")
    send(judge, winter, "GERMANY", "Remove A HOL\nRemove A RUH\nREADY")
    out = send(judge, winter, "FRANCE", "Build A PAR\nREADY")
    body = next(m for m in out if "results" in m.subject).body
    assert ("France: 2 builds due; built A PAR; 1 not made: waived (no build order that "
            "could be carried out)") in body


@pytest.mark.parametrize(("kind", "first"), [
    ("standard", "What to send first: your orders for Spring 1901 Movement"),
    ("mobtown2", "What to send first: your orders for Weekend at the end of June 1919: Don "
                 "placement")])
def test_the_first_mail_has_the_board_its_picture_and_what_to_send(judge, kind, first):
    from mobadj.judge.diplomacy import can_draw

    out: list = []
    game, _ = judge.create_game("s1", kind, "gm@test.org", "gm-pw", {"picture": "svg"},
                                seed=5)
    seat = judge_seats(kind)[0]
    with judge.store.transaction():
        judge.add_player(game, "p@test.org", seat, "pw-p", judge.clock(), out)
        judge.start(judge.store.game("s1"), judge.clock(), out)
    start = next(m for m in out if m.subject == "s1: the game has started")
    assert first in start.body and "For example:\n  " in start.body
    assert "Your home centres: " in start.body
    if kind == "mobtown2":
        assert "You play Al Capone (capone)." in start.body
        assert "\n  Don starts in " in start.body
    if can_draw(kind):
        assert [a[0] for a in start.attachments] == ["map.svg"]


def judge_seats(kind):
    from mobadj.judge.hosts import host_for

    return host_for(kind).seats({})


def test_a_power_with_nothing_due_is_told_so_only_when_it_sends_orders(judge, winter):
    r = send(judge, winter, "ITALY", "thanks, nothing from me\nCiao")[0].body
    assert "No orders are needed" not in r and "Signed on as Italy" in r
    assert "found no orders and no commands in your mail, so nothing was done" in r
    r = send(judge, winter, "ITALY", "Build A ROM")[0].body
    assert "No orders are needed from ITALY in Winter 1901 Adjustments." in r
