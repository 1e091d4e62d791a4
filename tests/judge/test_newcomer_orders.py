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


def test_help_build_says_how_to_write_a_build(judge, dip):
    """"build" is the word a newcomer tries; so are the other orders' words."""
    r = send(judge, dip, "GERMANY", dip.signon("GERMANY") + "HELP build")
    assert "There is no command" not in r
    assert "  Build A VIE                an army in Vienna\n" in r and "Waive" in r, r
    for word, example in (("move", "A VIE - GAL"), ("support", "A BUD S A VIE - GAL"),
                          ("convoy", "F NTH C A LON - NWY"), ("retreat", "A VIE R BOH"),
                          ("remove", "Remove A VIE"), ("waive", "Waive"), ("hold", "A VIE H"),
                          ("builds", "Build A VIE")):
        r = send(judge, dip, "GERMANY", dip.signon("GERMANY") + f"help {word}")
        assert example in r and "There is no command" not in r, (word, r)
    r = send(judge, dip, "GERMANY", dip.signon("GERMANY") + "HELP")
    assert "Orders (one per line" in r and "  build      Build A VIE" in r


def test_a_question_about_an_order_is_answered(judge, dip):
    """"how do I build?" among orders was set aside as a remark without a word."""
    r = send(judge, dip, "RUSSIA", dip.signon("RUSSIA") + "how do I build?\nA MOS H")
    assert "Line 2 asks how to build. A build, in a winter" in r, r
    assert "  A MOS H" in r
    r = send(judge, dip, "RUSSIA", dip.signon("RUSSIA") + "How do I move and support?")
    assert "Line 2 asks how to move." in r and "Line 2 asks how to support." in r, r
    r = send(judge, dip, "RUSSIA", dip.signon("RUSSIA") + "A MOS H\nCan you move the deadline?")
    assert "asks how" not in r


WINTER_AHEAD = {
    "phase": "F1901M",
    "units": {"AUSTRIA": ["A BOH", "F ADR"], "ENGLAND": ["F LON", "F EDI", "A LVP", "F NTH"],
              "GERMANY": ["A MUN", "A BER", "F KIE", "A RUH", "A HOL"]},
    "centers": {"AUSTRIA": ["VIE", "BUD", "TRI", "SER"], "ENGLAND": ["LON", "EDI", "LVP"],
                "GERMANY": ["MUN", "BER", "KIE"]},
}


def test_the_winter_mail_shows_how_to_write_a_build(judge):
    t = Table(judge, "standard", picture="none")
    with judge.store.transaction():
        state = judge.store.game("g1").state
        judge.store.update_game("g1", state=state | {"position": WINTER_AHEAD}, phase="F1901M")
    send(judge, t, "AUSTRIA", t.signon("AUSTRIA") + "A BOH H\nF ADR H\nREADY")
    send(judge, t, "ENGLAND", t.signon("ENGLAND") + "F LON H\nREADY")
    out = judge.handle_mail(mail(t.emails["GERMANY"], t.signon("GERMANY") + "A MUN H\nREADY"))
    body = next(m for m in out if m.to == t.emails["AUSTRIA"] and "results" in m.subject).body
    assert ("  Austria: 4 centres, 2 units: may build 2 (vacant home centres: BUD, TRI, VIE), "
            "or waive\n    orders, e.g.: Build A BUD, or Waive\n") in body, body
    assert "  Germany: 4 centres, 5 units: must remove 1 unit (else the rules choose)\n" \
           "    orders, e.g.: Remove A BER\n" in body


def _position(judge, position):
    with judge.store.transaction():
        state = judge.store.game("g1").state
        judge.store.update_game("g1", state=state | {"position": position},
                                phase=position["phase"])


def _results_for(out, t, seat):
    return next(m for m in out if m.to == t.emails[seat] and "results" in m.subject).body


def test_a_player_who_sent_nothing_is_told_their_units_held(judge, dip):
    """Not only "the rules' defaults were used": a newcomer does not know what they are."""
    send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR")
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    body = _results_for(out, dip, "ENGLAND")
    assert ("so this is not a missed deadline (without orders, their units held).") in body
    assert "rules' defaults" not in body


def test_in_a_retreat_their_dislodged_units_were_disbanded(judge, dip):
    _position(judge, {"phase": "F1901R", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
                      "dislodged": {"GERMANY": [{"unit": "A MUN", "from": "BUR"}]}})
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert ("No orders from GERMANY: the GM adjudicated before the deadline") in \
        _results_for(out, dip, "GERMANY")
    assert "(without orders, its dislodged units were disbanded)." in \
        _results_for(out, dip, "GERMANY")


def test_in_a_winter_the_answer_says_what_the_rules_did(judge, dip):
    _position(judge, {"phase": "W1901A",
                      "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A BER", "A RUH"]},
                      "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN", "BER"]}})
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert ("(without orders, their builds not ordered were waived, and their removals due "
            "were chosen by the rules).") in _results_for(out, dip, "FRANCE")


def test_on_another_map_help_says_its_examples_are_the_standard_maps(judge):
    mob = Table(judge, "mobtown2", picture="none")
    seat = next(iter(mob.emails))
    r = send(judge, mob, seat, mob.signon(seat) + "HELP build")
    assert "Build A VIE" in r
    assert "The orders above are written as on the standard map; Mobtown II" in r, r
    assert "written as on the standard map" not in send(judge, mob, seat,
                                                         mob.signon(seat) + "HELP list")


def test_a_remark_after_a_correction_does_not_replace_it(judge, dip):
    """The player corrects an order and says why: the sentence, read without its everyday
    words, would be 'A PAR - PIC'; it is a remark, and A PAR - BUR stands."""
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A Par-Bur\n\nMy army from Paris "
             "to Picardy, in my last mail, was a typo.\n\nThanks, Ann")
    assert "replaced by the later order" not in r, r
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR"


def test_a_mail_with_orders_for_two_phases_takes_none_of_them(judge, dip):
    """PHASE F1901M and an order, then PHASE S1901M and the spring orders: the spring
    orders used to go to the fall, and France's units held in spring.  Nothing is taken,
    the answer says why, and READY waits."""
    send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - PIC\nA MAR H\nF BRE H")
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "PHASE F1901M\nA BUR - MUN\n\n"
             "PHASE S1901M\nA PAR - BUR\nA MAR - SPA\nF BRE - MAO\nREADY\n\nAnn")
    assert ("Orders not taken: this mail names more than one phase (F1901M (line 2), S1901M "
            "(line 5))") in r, r
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - PIC\nA MAR H\nF BRE H"
    assert "FRANCE" not in judge.store.orders("g1", "F1901M")  # nor kept for the fall
    assert not judge.store.player("g1", "FRANCE").ready, r
