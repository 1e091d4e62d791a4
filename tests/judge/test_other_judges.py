"""Mail as njudge and DPjudge veterans write it: their sign-on line, their command words
that this judge does not have, and what each is answered (what to send here instead)."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail


@pytest.fixture
def dip(judge):
    return Table(judge, "standard")


def send(judge, sender, body):
    out = judge.handle_mail(mail(sender, body))
    return out[0].body if out else None


def test_njudges_signon_with_the_initial_glued_to_the_game_is_read(judge, dip):
    r = send(judge, "france@test.org", "SIGNON Fg1 pw-france\nA Par-Bur\nA Mar-Spa\nF Bre-Mao\n")
    assert "njudge's SIGNON Fg1 is read as SIGNON g1 France <password>." in r
    assert "Signed on as France in g1." in r
    assert "has no SIGNON line" not in r and "pw-france" not in r
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR\nA MAR - SPA\nF BRE - MAO"
    out = judge.handle_mail(mail("france@test.org", dip.signon("FRANCE") + "PRESS TO England\n"
                                 "sign on Fg1 today\nENDPRESS\n"))  # press goes as written
    assert "sign on Fg1 today" in next(m.body for m in out if m.to == "england@test.org")


def test_njudges_master_signs_on_as_m_and_is_read_as_the_gm(judge, dip):
    before = judge.store.game("g1").deadline
    r = send(judge, "gm@test.org", "SIGNON Mg1 gm-secret\nEXTEND 24 hours\n")
    assert "njudge's SIGNON Mg1 is read as GM g1 <gm-password>." in r
    assert "Signed on as GM of g1." in r and "gm-secret" not in r
    assert judge.store.game("g1").deadline == before + 86400
    r = send(judge, "italy@test.org", "SIGNON Mg1 gm-secret\n")  # not the GM's address
    assert "Sign-on refused" in r and judge.store.game("g1").deadline == before + 86400


def test_a_replacement_signing_on_to_an_open_power_is_sent_to_takeover(judge, dip):
    send(judge, "italy@test.org", dip.signon("ITALY") + "RESIGN\n")
    r = send(judge, "new@test.org", "SIGNON Ig1 newpass1\n")
    assert "Italy is open for a new player: to take it over, send TAKEOVER g1 Italy." in r
    assert "found no command" not in r and "newpass1" not in r
    r = send(judge, "new@test.org", "SIGNON g1 Italy newpass1\n")  # the judge's own form too
    assert "send TAKEOVER g1 Italy." in r
    r = send(judge, "new@test.org", "SIGNON g1 France newpass1\n")  # a power with a player
    assert "TAKEOVER" not in r and "Sign-on refused" in r


def test_an_unreadable_signon_line_is_not_called_missing(judge, dip):
    r = send(judge, "france@test.org", "SIGNON Xg1 pw-france\nA Par-Bur\n")
    assert "njudge's SIGNON Xg1: X names no power of g1; write SIGNON g1 <power> <password>." in r
    assert "its SIGNON line could not be read (the error above says why)" in r
    assert "has no SIGNON line" not in r and "pw-france" not in r
    r = send(judge, "france@test.org", "SIGNON Og1 pw-france\n")  # njudge's observer
    assert "njudge's SIGNON Og1: to follow g1, send WATCH g1 (no password)." in r


def test_a_signon_with_the_power_before_the_game_is_told_the_order(judge, dip):
    r = send(judge, "france@test.org", "SIGNON France g1 pw-france\nA Par-Bur\n")
    assert ("Sign-on refused" in r and "The game comes first on the SIGNON line: SIGNON g1 "
            "France <password>.") in r and "pw-france" not in r
    with judge.store.transaction():
        judge.store.set_web_key("g1", "k" * 20, judge.clock())
    r = send(judge, "stranger@test.org", "SIGNON France g1 guess1\n")  # a private game
    assert "comes first" not in r and "g1" not in r.split("\n-")[0]


def test_a_game_called_like_the_initial_and_game_is_signed_on_as_written(judge, dip):
    judge.create_game("fg1", "standard", "gm@test.org", "other-secret")
    r = send(judge, "france@test.org", "SIGNON Fg1 pw-france\nA Par-Bur\n")
    assert "njudge's" not in r and "Signed on" not in r


def test_other_judges_words_above_the_orders_are_answered(judge, dip):
    r = send(judge, "france@test.org", dip.signon("FRANCE") + "WHOGAME\nDIARY RECORD\n"
             "stab E in 1903\nENDDIARY\nA Par-Bur\n")
    assert "No command WHOGAME here; SUMMARY g1 shows who plays which power." in r
    assert ("No command DIARY here; this judge keeps no diary, so nothing was stored; "
            "lines 4-5 were set aside.") in r
    assert "  A PAR - BUR" in r and "STAB" not in r.upper().replace("STAB E IN", "")
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR"


def test_signoff_alone_says_what_it_does_here(judge, dip):
    r = send(judge, "france@test.org", dip.signon("FRANCE") + "SIGNOFF\n")
    assert "Line 2 (SIGNOFF) ended the reading of your mail" in r
    r = send(judge, "z@test.org", "SIGNOFF\n")
    assert "SIGNOFF only ends what the judge reads of a mail" in r


def test_unsigned_other_judges_words_are_each_answered_with_what_to_send(judge, dip):
    r = send(judge, "x@test.org", "WHOGAME g1\n")
    assert r.startswith("No command WHOGAME here; SUMMARY g1 shows who plays which power.")
    assert "sign-on" not in r
    r = send(judge, "x@test.org", "GET info\n")  # the same address, within the hour
    assert r is not None and "No command GET here; HELP lists the commands" in r
    r = send(judge, "x@test.org", "WHOIS bob@test.org\n")
    assert r is not None and "No command WHOIS here; the judge gives out no one's address" in r
    r = send(judge, "x@test.org", "REGISTER\n")
    assert r is not None and "JOIN <game>" in r
    # the loop guard stands: the same text with nothing the judge knows is answered once in
    # a while
    assert send(judge, "y@test.org", "hello there\n") is not None
    assert send(judge, "y@test.org", "hello there\n") is None


def test_set_wait_and_nowait_point_to_ready_and_to_the_gms_early_option(judge, dip):
    r = send(judge, "france@test.org", dip.signon("FRANCE") + "SET NOWAIT\nA Par-Bur\n")
    assert ("SET NOWAIT: no such option here; send READY (the phase is processed as soon as "
            "every power is READY); NOT READY takes it back.") in r
    assert "cannot read the SET command" not in r and "  A PAR - BUR" in r
    r = send(judge, "france@test.org", dip.signon("FRANCE") + "SET WAIT\n")
    assert "SET WAIT: no such option here; a phase waits for its deadline" in r
    r = send(judge, "gm@test.org", "GM g1 gm-secret\nSET NOWAIT\nSET WAIT\n")
    assert "SET early ready" in r and "SET early never" in r
    assert "cannot read" not in r


def test_gms_set_deadline_points_to_deadline_not_to_a_rule(judge, dip):
    before = judge.store.game("g1").deadline
    r = send(judge, "gm@test.org", "GM g1 gm-secret\nSET DEADLINE Mon Jan 18 2027 23:00\n")
    assert ("SET: unknown option 'deadline'; the deadline itself is set with DEADLINE "
            "<YYYY-MM-DD HH:MM> [time zone], e.g. DEADLINE 2027-01-18 23:00") in r
    assert "deadline_time" not in r
    r = send(judge, "gm@test.org", "SIGNON Mg1 gm-secret\nSET DEADLINE +2d\n")
    assert "DEADLINE <YYYY-MM-DD HH:MM> [time zone], e.g. DEADLINE +2d, and EXTEND" in r
    assert judge.store.game("g1").deadline == before


def test_set_absence_points_to_absence(judge, dip):
    r = send(judge, "france@test.org",
             dip.signon("FRANCE") + "SET ABSENCE 2026-12-01 TO 2026-12-03\n")
    assert ("SET ABSENCE: absences are asked with ABSENCE <duration>, e.g. ABSENCE 3 days") in r


def test_history_of_a_public_game_for_anyone_and_of_a_private_one_for_no_stranger(judge, dip):
    send(judge, "france@test.org", dip.signon("FRANCE") + "A Par-Bur\n")
    send(judge, "gm@test.org", "GM g1 gm-secret\nPROCESS\n")
    r = send(judge, "kibitz@test.org", "HISTORY g1\n")
    assert r.startswith("S1901M") and "A PAR - BUR" in r.upper()
    assert "sign on" not in r
    r = send(judge, "kibitz@test.org", "HISTORY\n")
    assert "HISTORY: name the game" in r and "WATCH <game>" in r
    signed = send(judge, "italy@test.org", dip.signon("ITALY") + "HISTORY g1 1\n")
    assert "S1901M" in signed and "no phase" not in signed
    with judge.store.transaction():
        judge.store.set_web_key("g1", "k" * 20, judge.clock())
    r = send(judge, "other@test.org", "HISTORY g1\n")
    assert r.startswith("HISTORY: no game 'g1'") and "PAR" not in r
    assert "S1901M" in send(judge, "italy@test.org", "HISTORY g1\n")  # a player's own


def test_njudges_glued_signon_tells_nobody_that_a_private_game_of_that_name_exists(judge, dip):
    """``SIGNON Fg1`` from a stranger is answered alike whether or not a private game
    ``fg1`` exists; that game's own GM still has ``SIGNON Fg1`` read as fg1's."""
    before = send(judge, "probe1@evil.org", "SIGNON Fg1 wrongpass1\n")
    judge.create_game("fg1", "standard", "gm2@test.org", "gm2-secret", {}, seed=1)
    with judge.store.transaction():
        judge.store.set_web_key("fg1", "k" * 20, judge.clock())
    after = send(judge, "probe2@evil.org", "SIGNON Fg1 wrongpass1\n")
    assert after == before
    assert "njudge's SIGNON Fg1 is read as SIGNON g1 France <password>." in after
    r = send(judge, "gm2@test.org", "SIGNON Fg1 wrongpass1\n")
    assert "read as SIGNON g1" not in r and "cannot read the SIGNON command" in r
