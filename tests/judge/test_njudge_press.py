"""Press lines as njudge and DPjudge players write them: GREY or WHITE before TO (``PRESS
GREY TO EG``), press to all but some (``PRESS TO ALL BUT E``, ``PRESS BUT E``) and to the
master (``PRESS TO M``); and the powers named in press and LIST as the game names them
(Mobtown II's ``Al Capone``, not ``capone``)."""

from __future__ import annotations

from typing import Any

import pytest

from mobadj.judge.hosts import register

from .conftest import Table
from .helpers import mail
from .toyhost import ToyHost

STANDARD = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


@pytest.fixture
def vet(judge):
    return Table(judge, "standard", press="grey", picture="none")


@pytest.fixture
def mob(judge):
    return Table(judge, "mobtown2", press="grey", picture="none", gm_press_copy="yes")


def press(judge, t, seat, head, text="hi"):
    """The player's mail with one press block: the reply, and who got the press."""
    out = judge.handle_mail(mail(t.emails[seat], f"{t.signon(seat)}{head}\n{text}\nENDPRESS"))
    return out[0].body, {m.to: m.body for m in out[1:]}


def test_grey_or_white_before_to(judge, vet):
    r, got = press(judge, vet, "FRANCE", "PRESS GREY TO England, Germany", "DMZ Channel?")
    assert "Press delivered to ENGLAND, GERMANY (anonymously)." in r
    assert set(got) == {"england@test.org", "germany@test.org"}
    assert "Press in g1 from Anonymous (grey press) to ENGLAND, GERMANY:" in got[
        "england@test.org"]
    assert "FRANCE" not in got["england@test.org"]
    r, got = press(judge, vet, "FRANCE", "PRESS WHITE TO England")
    assert "Press delivered to ENGLAND." in r
    assert "Press in g1 from FRANCE to ENGLAND:" in got["england@test.org"]
    r, got = press(judge, vet, "FRANCE", "Press to England white")
    assert "Press delivered to ENGLAND." in r and "from FRANCE" in got["england@test.org"]
    r, got = press(judge, vet, "FRANCE", "BROADCAST WHITE")
    assert "Press delivered to" in r and len(got) == 6


def test_grey_is_never_taken_for_a_power(judge, vet):
    r, got = press(judge, vet, "FRANCE", "PRESS GREY TO EG")
    assert "no power 'EG'; did you mean England or Germany?" in r
    assert "'GREY'" not in r and not got
    r, got = press(judge, vet, "FRANCE", "PRESS GREY")
    assert ("Press refused: GREY says how the press goes, not to whom: name who it is for, "
            "e.g. PRESS TO England, France GREY, or PRESS TO ALL GREY") in r
    assert "did you mean" not in r and not got
    r, _ = press(judge, vet, "FRANCE", "PRESS GREY WHITE TO England")
    assert "GREY and WHITE both" in r


def test_press_to_all_but_some(judge, vet):
    r, got = press(judge, vet, "FRANCE", "PRESS TO ALL BUT E", "Let us deal with England.")
    assert "Press delivered to" in r and "no power" not in r
    assert set(got) == {f"{s.lower()}@test.org" for s in STANDARD} - {
        "england@test.org", "france@test.org"}
    assert "Let us deal with England." in got["germany@test.org"]
    assert set(judge.store.press("g1")[-1]["recipients"]) == set(STANDARD) - {"ENGLAND",
                                                                               "FRANCE"}
    r, got = press(judge, vet, "FRANCE", "PRESS BUT England, Germany GREY")
    assert "(anonymously)" in r
    assert set(got) == {"italy@test.org", "austria@test.org", "russia@test.org",
                        "turkey@test.org"}
    assert "Anonymous (grey press)" in got["italy@test.org"]
    r, got = press(judge, vet, "FRANCE", "PRESS TO ALL EXCEPT Englnd")
    assert "Press refused: no power 'Englnd'; did you mean England?" in r and not got
    r, got = press(judge, vet, "FRANCE", "PRESS TO England BUT Germany")
    assert "BUT goes after ALL (PRESS TO ALL BUT <power>, ...), or name the powers" in r
    assert not got
    r, got = press(judge, vet, "FRANCE", "PRESS TO Germany ALL")
    assert "ALL (everyone) stands alone" in r and "no power 'ALL'" not in r and not got


def test_all_but_is_private_press(judge):
    t = Table(judge, "standard", press_to="public", picture="none")
    r, got = press(judge, t, "FRANCE", "PRESS TO ALL BUT England")
    assert "in this game press goes to everyone only" in r and not got


def test_the_gm_writes_to_all_but_some(judge, vet):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPRESS TO ALL BUT England, "
                                 "France\nA word for the continent.\nENDPRESS"))
    assert "GM message sent to 5 player(s)." in out[0].body
    assert {m.to for m in out[1:]} == {f"{s.lower()}@test.org" for s in STANDARD} - {
        "england@test.org", "france@test.org"}


def test_all_but_without_a_sign_on_gets_the_mail_to_send(judge, vet):
    r = judge.handle_mail(mail(vet.emails["ITALY"], "PRESS TO ALL BUT Austria\nhi\nENDPRESS"))
    assert "SIGNON g1 Italy <password>\nPRESS TO ALL BUT Austria\nhi\nENDPRESS" in r[0].body


@pytest.mark.parametrize("kind", ["standard", "mobtown2"])
def test_press_to_m_is_the_master(judge, kind):
    t = Table(judge, kind, picture="none")
    seat = list(t.emails)[1]
    r, got = press(judge, t, seat, "PRESS TO M", "Please extend, I am travelling.")
    assert "Press delivered to the GM." in r and "no power" not in r
    assert list(got) == ["gm@test.org"]
    assert "Please extend, I am travelling." in got["gm@test.org"]


class MoonHost(ToyHost):
    """The toy game with a power whose abbreviation is M."""

    kind = "toymoon"

    def seat_names(self, options: dict[str, Any]) -> dict[str, list[str]]:
        names = {s: [s.title(), s[0]] for s in self.seats(options)}
        names["NORTH"] = ["Moon", "M"]
        return names


def test_press_to_m_where_m_is_a_power(judge):
    register(MoonHost())
    t = Table(judge, "toymoon")
    r, got = press(judge, t, "EAST", "PRESS TO M", "Hello Moon.")
    assert "Press delivered to Moon." in r
    assert "(M is Moon in this game; to write to the GM: PRESS TO GM.)" in r
    assert list(got) == ["north@test.org"]


def test_mobtown_names_mobs_as_the_game_does(judge, mob):
    out = judge.handle_mail(mail(mob.emails["capone"], mob.signon("capone") + "LIST"))
    r = out[0].body
    assert "  Al Capone           waiting" in r
    assert '  "Baby Face" Nelson  waiting' in r
    assert "  Murder Incorporated waiting" in r
    assert "capone " not in r and "murderinc" not in r
    r, got = press(judge, mob, "capone", "PRESS TO Lepke, Luciano GREY")
    assert "Press delivered to Lepke, Lucky Luciano (anonymously)." in r
    assert "Press in g1 from Anonymous (grey press) to Lepke, Lucky Luciano:" in got[
        "lepke@test.org"]
    gm = got["gm@test.org"]  # the GM's copy names the sender
    assert "Press in g1 from Al Capone (grey: the others do not know) to Lepke, Lucky " \
           "Luciano:" in gm
    r, got = press(judge, mob, "capone", "PRESS TO GM, Murder Inc.")
    assert "Press delivered to Murder Incorporated and the GM." in r
    assert "Press in g1 from Al Capone to Murder Incorporated and the GM:" in got[
        "murderinc@test.org"]
    assert "To answer: GM g1 <your GM password>, then PRESS TO Al Capone" in got[
        "gm@test.org"]


def test_grey_press_to_all_but_does_not_name_its_sender_by_the_gap(judge, vet):
    """Recipients of anonymous press to all but France, who compare their headers, must not
    find England missing from a list of recipients: the copies say whom it was not for."""
    r, got = press(judge, vet, "ENGLAND", "PRESS GREY TO ALL BUT France", "Watch out for Paris.")
    assert "(anonymously)" in r
    assert set(got) == {f"{s.lower()}@test.org" for s in STANDARD} - {
        "england@test.org", "france@test.org"}
    for body in got.values():
        assert "Press in g1 from Anonymous (grey press) to everyone but FRANCE:" in body
        assert "ENGLAND" not in body and "AUSTRIA" not in body
    # naming oneself among those left out says nothing of oneself either
    r, got = press(judge, vet, "ENGLAND", "PRESS GREY TO ALL BUT England, France")
    assert all("to everyone but FRANCE:" in b and "ENGLAND" not in b for b in got.values())
    # a list the sender wrote is shown as written, the sender in it when they named themselves
    r, got = press(judge, vet, "ENGLAND", "PRESS GREY TO England, Germany, Italy")
    assert set(got) == {"germany@test.org", "italy@test.org"}
    assert all("to ENGLAND, GERMANY, ITALY:" in b for b in got.values())
    # signed press keeps naming its recipients
    r, got = press(judge, vet, "ENGLAND", "PRESS TO ALL BUT France")
    assert "Press in g1 from ENGLAND to AUSTRIA, GERMANY, ITALY, RUSSIA, TURKEY:" in got[
        "italy@test.org"]
