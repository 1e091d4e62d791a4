"""Power names as the map gives them, in every command that names powers: every name and
alias, of several words, quoted or not, in any case, with a did-you-mean (Mobtown II's mobs:
``"Baby Face" Nelson``, ``Murder Incorporated`` alias ``Murder Inc.``)."""

from __future__ import annotations

import re

import pytest

from .conftest import Table
from .helpers import mail


def handle(judge, sender, body):
    return judge.handle_mail(mail(sender, body))


@pytest.fixture
def mob(judge):
    return Table(judge, "mobtown2", picture="none")


@pytest.mark.parametrize("name", ["Baby Face Nelson", '"Baby Face" Nelson', "baby face",
                                  "BABYFACE", "Nelson"])
def test_signon_with_any_name_of_a_mob(judge, mob, name):
    r = handle(judge, mob.emails["babyface"], f"SIGNON g1 {name} pw-babyface\nLIST")[0].body
    assert 'Signed on as "Baby Face" Nelson in g1.' in r


def test_signon_murder_inc_and_a_did_you_mean(judge, mob):
    r = handle(judge, "m@test.org", "SIGNON g1 Murder Inc. pw-murderinc")[0].body
    assert "Signed on as Murder Incorporated in g1." in r
    r = handle(judge, "m@test.org", "SIGNON g1 Murder Ink pw-murderinc")[0].body
    assert "Sign-on refused" in r and "did you mean Murder Incorporated?" in r
    assert "pw-murderinc" not in r


def test_press_to_names_of_several_words(judge, mob):
    body = (mob.signon("capone") + "PRESS TO Baby Face Nelson, Murder Inc.\nA word.\n"
            "ENDPRESS\nPRESS TO lepke legs diamond\nAnother.\nENDPRESS")
    out = handle(judge, mob.emails["capone"], body)
    assert 'Press delivered to "Baby Face" Nelson, Murder Incorporated.' in out[0].body
    assert "Press delivered to Lepke, Legs Diamond." in out[0].body
    got = {m.to for m in out[1:]}
    assert got == {mob.emails[s] for s in ("babyface", "murderinc", "lepke", "diamond")}
    r = handle(judge, mob.emails["capone"], mob.signon("capone") + "PRESS TO Lucky Lucianno\n"
               "x\nENDPRESS")[0].body
    assert "Press refused: no power 'Lucianno'; did you mean Lucky Luciano?" in r


def test_draw_and_concede_name_mobs_of_several_words(judge):
    t = Table(judge, "mobtown2", picture="none", draw="named")
    r = handle(judge, t.emails["capone"], t.signon("capone") + "DRAW Al Capone, Baby Face "
               "Nelson and Murder Inc.")[0].body
    assert ('Your vote for a draw between "Baby Face" Nelson, Al Capone, Murder Incorporated '
            'is recorded') in r
    r = handle(judge, t.emails["lepke"], t.signon("lepke") + "CONCEDE TO Murder Inc.")[0].body
    assert "Your concession to Murder Incorporated is recorded" in r
    r = handle(judge, t.emails["lepke"], t.signon("lepke") + "CONCEDE TO Muder Inc")[0].body
    assert "did you mean Murder Incorporated?" in r


def test_join_with_wishes_of_several_words(judge):
    judge.create_game("m2", "mobtown2", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    r = handle(judge, "ann@test.org", 'JOIN m2 "Baby Face" Nelson Murder Inc. Lepke')[0].body
    wishes = 'wishes: "Baby Face" Nelson, Murder Incorporated, Lepke'
    assert wishes in r
    code = re.search(r"CONFIRM ([0-9a-f]{16})", r).group(1)
    assert wishes in handle(judge, "ann@test.org", f"CONFIRM {code}")[0].body
    r = handle(judge, "gm@test.org", "GM m2 gm-secret\nLIST")[0].body  # the GM's list
    assert f"joined: ann@test.org (accepted; {wishes})" in r
    r = handle(judge, "bob@test.org", "JOIN m2 Baby Fase")[0].body
    assert "no power 'Fase'" in r or "did you mean" in r


def test_gm_commands_name_mobs_of_several_words(judge):
    judge.create_game("m3", "mobtown2", "gm@test.org", "gm-secret", {"picture": "none"}, seed=3)
    r = handle(judge, "gm@test.org", "GM m3 gm-secret\nADDPLAYER ann@test.org Murder Inc. "
               "ann-pw-1\nADDPLAYER bob@test.org Baby Face Nelson\nSTART")[0].body
    assert "Murder Incorporated added: ann@test.org" in r
    assert '"Baby Face" Nelson added: bob@test.org' in r
    r = handle(judge, "ann@test.org", "SIGNON m3 murder inc ann-pw-1\nLIST")[0].body
    assert "Signed on as Murder Incorporated" in r
    r = handle(judge, "gm@test.org", "GM m3 gm-secret\nREPLACE Baby Face Nelson "
               "carl@test.org")[0].body
    assert '"Baby Face" Nelson is now played by carl@test.org' in r
    r = handle(judge, "gm@test.org", "GM m3 gm-secret\nENDGAME WIN Murder Inc.")[0].body
    assert "Murder Incorporated wins (declared by the GM)" in r


def test_notices_and_summary_name_mobs_as_the_game_does(judge, mob):
    """No raw id (``luciano``, ``murderinc``) in what people read: SUMMARY, ABSENCE's word
    to the GM, RESIGN and TAKEOVER, the end of the game."""
    def mails(sender, body):
        return {m.to: m for m in handle(judge, sender, body)}

    r = mails("gm@test.org", "GM g1 gm-secret\nSUMMARY")["gm@test.org"].body
    assert "  Murder Incorporated the start - now" in r and "  Lucky Luciano " in r
    assert "murderinc " not in r
    got = mails(mob.emails["lepke"], mob.signon("lepke") + "ABSENCE 1 day")
    assert got["gm@test.org"].subject == "g1: Lepke takes an absence"
    got = mails(mob.emails["luciano"], mob.signon("luciano") + "RESIGN")
    assert "You have resigned from g1: Lucky Luciano is left unplayed" in got[
        "luciano@test.org"].body
    told = got["capone@test.org"]
    assert told.subject == "g1: the player of Lucky Luciano has resigned"
    assert "TAKEOVER g1 Lucky Luciano." in told.body
    assert "REPLACE Lucky Luciano <email>" in got["gm@test.org"].body
    r = mails("new@test.org", "LIST")["new@test.org"].body  # the judge's list of games
    assert "Powers waiting for a new player:\ng1: Lucky Luciano   (TAKEOVER g1 <power>)" in r
    r = mails("new@test.org", "TAKEOVER g1 Lucky Luciano")["new@test.org"].body
    assert "you asked to take over Lucky Luciano in g1" in r
    code = re.search(r"CONFIRM ([0-9a-f]{16})", r).group(1)
    welcome = mails("new@test.org", f"CONFIRM {code}")["new@test.org"]
    assert welcome.subject == "g1: you now play Lucky Luciano"
    signon = re.search(r"SIGNON g1 Lucky Luciano \S+", welcome.body).group(0)
    r = handle(judge, "new@test.org", signon + "\nLIST")[0].body  # the line, as it is
    assert "Signed on as Lucky Luciano in g1." in r
    got = mails("gm@test.org", "GM g1 gm-secret\nENDGAME DRAW Al Capone, Murder Inc.")
    r = got["capone@test.org"].body
    assert "ends in a draw between Al Capone, Murder Incorporated" in r
    assert "Supply centres: " in r and "capone 3" not in r


def test_the_gms_offer_and_orders_name_mobs_as_the_game_does(judge, mob):
    out = handle(judge, "gm@test.org", "GM g1 gm-secret\nOFFER Murder Inc.\nBECOME Lepke\n"
                 "G P45 H")
    r = out[0].body
    assert ("Murder Incorporated is offered: anyone may ask to take it over (TAKEOVER g1 "
            "Murder Incorporated)") in r
    assert "Orders for Lepke, " in r and "lepke" not in r
    (told,) = [m for m in out if m.to == "murderinc@test.org"]
    assert told.subject == "g1: Murder Incorporated is offered for takeover"
    r = handle(judge, "lepke@test.org", "TAKEOVER g1 Murder Inc.")[0].body
    assert "you already play Lepke in g1." in r


def test_deadline_notices_name_mobs_as_the_game_does(judge, mob, clock):
    """The reminder, the first missed deadline's extension and a mob left unplayed name the
    mobs as the game does."""
    said = []
    for hours in (20, 5, 24, 24, 48):
        clock.advance(hours)
        said += [f"{m.subject}\n{m.body}" for m in judge.tick()]
    text = "\n".join(said)
    assert "The judge has no orders from Al Capone for Weekend at the end of June 1919" in text
    assert ('are missing from "Baby Face" Nelson, Al Capone, Legs Diamond, Lepke, Lucky '
            "Luciano, Murder Incorporated;") in text
    assert ("Murder Incorporated has missed 2 deadlines in a row and is now left "
            "unplayed.") in text
    assert not re.search(r"\b(capone|babyface|murderinc)\b", re.sub(r"\S+@test\.org", "", text))


def test_the_notice_of_wrong_passwords_names_the_mob_as_the_game_does(judge, mob):
    """Someone tries Al Capone's seat with a wrong password: Capone's player is told in the
    game's words, and the SIGNON line of the notice signs on as it stands."""
    handle(judge, "x@evil.org", "SIGNON g1 Al Capone not-it\nLIST")
    [told] = [m for m in judge.store.all_mail() if m.to == mob.emails["capone"]
              and "wrong passwords" in m.subject]
    assert told.subject == "g1: wrong passwords for Al Capone", told.subject
    assert "sign on as Al Capone in g1" in told.body and "capone" not in told.body
    line = re.search(r"SIGNON g1 .* <password>", told.body).group(0)
    r = handle(judge, mob.emails["capone"], line.replace("<password>", "pw-capone"))[0].body
    assert "Signed on as Al Capone in g1." in r
