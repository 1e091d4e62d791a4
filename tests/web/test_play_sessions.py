"""What a seat's page says when it is no longer the page of the game or of the session, over
real HTTP as a browser sends it: the reading as you type on a page left open over a
deadline, two players taking turns on one browser, a seat the GM gave to another player,
the same press form sent twice, a right password during the wait after wrong ones."""

from __future__ import annotations

import html
import json
import re

from mobadj.judge import Judge, Store, WebPlay
from mobadj.judge.config import config_from_data
from mobadj.web.demo import Table
from mobadj.web.pages import Site

from .helpers import Visitor, world_and_server

START = 1_800_000_000.0


class World:
    """Standard games on a judge with a clock the tests move."""

    def __init__(self, path) -> None:
        self.now = START
        config = config_from_data({"judge": {
            "name": "Session Judge", "address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(config.db_path)
        self.judge = Judge(self.store, config, clock=lambda: self.now, kdf_n=2**10)
        self.play = WebPlay(self.judge)
        self.readonly = Store(config.db_path, readonly=True)
        self.site = Site(self.readonly, "Session Judge", clock=lambda: self.now)


world, srv = world_and_server(World, "play-sessions")


def signed_in(srv, game: str, power: str, client: str, v: Visitor | None = None,
              password: str | None = None) -> Visitor:
    v = v or Visitor(srv.url, client)
    answer = v.sign_in(game, power, password or f"pw-{power.lower()}")
    assert answer.status == 303, answer.text
    return v


def field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, f"no field {name} on the page"
    return found.group(1)


def said(v: Visitor, game: str) -> str:
    page = html.unescape(v.get(f"/g/{game}/play").text)
    start = page.find('<pre class="said"')
    return page[start:page.find("</pre>", start)] if start >= 0 else ""


def test_the_reading_of_a_page_left_open_over_a_deadline_says_the_game_moved_on(srv, world):
    """Austria's page drawn for Spring 1901, the deadline passes, Austria types on: the box
    is not read against Fall 1901; the page is told the game has moved on, in the words of
    the form's answer, with the link to the page of the phase now."""
    t = Table(world.judge, "late", "standard")
    austria = signed_in(srv, "late", "AUSTRIA", "10.4.0.1")
    spring = austria.get("/g/late/play").text
    token, drawn = field(spring, "csrf"), field(spring, "drawn")
    assert drawn == "S1901M"
    typed = {"csrf": token, "drawn": drawn, "seat": "AUSTRIA",
             "orders": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb"}
    script = {"X-CSRF-Token": token}
    before = json.loads(austria.post("/g/late/check", typed, script).text)
    assert len(before["accepted"]) == 3
    t.process()  # the deadline: the game is at Fall 1901 now
    for path in ("/g/late/check", "/g/late/mine.svg"):
        answer = austria.post(path, typed, script)
        assert answer.status == 409 and answer.headers["Content-Type"].startswith(
            "application/json"), (path, answer.text)
        late = json.loads(answer.text)
        assert late["problem"] == "moved-on" and "accepted" not in late
        assert late["message"].startswith("This page was drawn for S1901M, and the game has "
                                          "moved on since to Fall 1901")
        assert "nothing was sent" in late["message"] and "still in the box" in late["message"]
        assert late["link"] == {"href": "play", "text": "Open the page again"}
        assert "void" not in late["message"].lower() and "succeeds" not in answer.text
    # a page's script of before (no "drawn"): read as before, against the phase now
    old = {k: v for k, v in typed.items() if k != "drawn"}
    assert "accepted" in json.loads(austria.post("/g/late/check", old, script).text)
    # without script, Check only says the same, and shows what was typed
    checked = html.unescape(austria.post("/g/late/act", {**typed, "do": "check"}).text)
    assert "This page was drawn for S1901M, and the game has moved on since to Fall 1901" \
        in checked and "A Bud - Ser" in checked and "Checked, nothing stored" not in checked
    assert world.store.orders("late", "F1901M").get("AUSTRIA") is None


def test_two_players_on_one_browser_each_told_they_were_signed_out(srv, world):
    """France signs in; on the same browser (another tab) the friend signs France out and
    signs in as Germany.  France's page left open is told that France was signed out by
    another power's sign-in, and sent to the sign-in form, never to Germany's page; its
    form is not done, and the sign-in page says so."""
    Table(world.judge, "shared", "standard")
    browser = signed_in(srv, "shared", "FRANCE", "10.4.0.2")
    france_page = browser.get("/g/shared/play").text
    token = field(france_page, "csrf")
    assert field(france_page, "seat") == "FRANCE"
    # the other tab: Sign out, then sign in as Germany (the browser's one cookie changes)
    assert browser.post("/g/shared/signout", {"csrf": token}).status == 303
    signed_in(srv, "shared", "GERMANY", "10.4.0.2", v=browser)
    assert "Signed in as <strong class=\"me\">Germany" in browser.get("/g/shared/play").text
    typed = {"csrf": token, "drawn": "S1901M", "seat": "FRANCE", "orders": "A Par - Bur"}
    read = browser.post("/g/shared/check", typed, {"X-CSRF-Token": token})
    assert read.status == 403
    told = json.loads(read.text)
    assert told["problem"] == "other-seat"
    assert told["message"].startswith("You are signed out as France: another power was "
                                      "signed in on this browser")
    assert "earlier sign-in" not in told["message"]
    assert "It comes back into the box when you sign in again as France" in told["message"]
    assert told["link"] == {"href": "play?signin=1", "text": "Sign in again"}
    # the link: the sign-in form, though Germany is signed in here
    form = html.unescape(browser.get("/g/shared/play?signin=1").text)
    assert 'name="password"' in form and "Signed in as" not in form
    assert "Another power is signed in on this browser now" in form
    # France's form sent: not done, and the sign-in page says why and what to do
    sent = browser.post("/g/shared/act", {**typed, "do": "orders"})
    assert sent.status == 403 and 'name="password"' in sent.text
    shown = html.unescape(sent.text)
    assert "You are signed out as France" in shown and "Sign in as France and send it " \
        "again" in shown and "Not here" not in shown
    assert world.store.orders("shared", "S1901M") == {}
    # Sign out pressed on France's page: France is out already, Germany stays in
    out = browser.post("/g/shared/signout", {"csrf": token, "seat": "FRANCE"})
    shown = html.unescape(out.text)
    assert out.status == 403 and 'name="password"' in out.text and "Not here" not in shown
    assert "You are signed out as France already" in shown
    assert "The power signed in now stays signed in." in shown
    assert "Signed in as <strong class=\"me\">Germany" in browser.get("/g/shared/play").text
    # France signs in again there: France's page; Germany's session has ended
    again = browser.post("/g/shared/signin", {"csrf": field(out.text, "csrf"),
                                              "power": "FRANCE", "password": "pw-france"})
    assert again.status == 303
    assert "Signed in as <strong class=\"me\">France" in browser.get("/g/shared/play").text
    # a page of the same power from an earlier sign-in is still told to open it again
    stale = browser.post("/g/shared/check", typed, {"X-CSRF-Token": token})
    assert json.loads(stale.text)["problem"] == "stale"


def test_a_seat_given_to_another_player_is_told_so_not_to_sign_in_again(srv, world):
    Table(world.judge, "handed", "standard")
    cara = signed_in(srv, "handed", "GERMANY", "10.4.0.3")
    page = cara.get("/g/handed/play").text
    token = field(page, "csrf")
    world.now += 60
    gm = signed_in(srv, "handed", "GM", "10.4.0.4", password="gm-secret")
    gm.act("handed", do="command", command="REPLACE GERMANY carl@test.org")
    assert "GERMANY is now played by carl@test.org" in said(gm, "handed")
    typed = {"csrf": token, "drawn": "S1901M", "seat": "GERMANY", "orders": "A Ber - Kie"}
    read = cara.post("/g/handed/check", typed, {"X-CSRF-Token": token})
    assert read.status == 403
    told = json.loads(read.text)
    assert told["problem"] == "left-seat" and told["keep"] is False
    assert "GERMANY in handed has passed to another player since you signed in" in \
        told["message"]
    assert "sign in again" not in told["message"].lower()
    assert "comes back" not in told["message"]
    assert told["link"] == {"href": "./", "text": "The game's page"}
    sent = cara.post("/g/handed/act", {**typed, "do": "orders"})
    shown = html.unescape(sent.text)
    assert sent.status == 403 and "has passed to another player" in shown
    assert "What you sent was not done" in shown
    assert world.store.orders("handed", "S1901M") == {}
    # a new password for the same player (REPLACE to the seat's own address): sign in again
    italy = signed_in(srv, "handed", "ITALY", "10.4.0.5")
    italy_token = field(italy.get("/g/handed/play").text, "csrf")
    world.now += 60
    gm.act("handed", do="command", command="REPLACE ITALY handed-italy@test.org")
    again = json.loads(italy.post("/g/handed/check", {**typed, "csrf": italy_token,
                                                      "seat": "ITALY"}).text)
    assert again["problem"] == "signed-out" and "sign in again" in again["message"]


def test_the_same_press_form_sent_twice_goes_out_once(srv, world):
    t = Table(world.judge, "twice", "standard")
    england = signed_in(srv, "twice", "ENGLAND", "10.4.0.6")
    page = england.get("/g/twice/play").text
    form = {"csrf": field(page, "csrf"), "seat": "ENGLAND", "once": field(page, "once"),
            "do": "press", "to_FRANCE": "1", "text": "TWICE-7401 Shall we split Belgium?"}
    assert england.post("/g/twice/act", form).status == 303
    assert england.post("/g/twice/act", form).status == 303  # a double click's second
    shown = said(england, "twice")
    assert "Press delivered to FRANCE" in shown and "sent twice" in shown

    def mailed(marker: str) -> int:
        return len([m for m in world.store.all_mail() if marker in m.body
                    and m.to == t.emails["FRANCE"]])

    assert mailed("TWICE-7401") == 1
    # another message from the same page is sent; so is the same text from a new page
    assert england.post("/g/twice/act", {**form, "text": "TWICE-7402 Or Holland?"}).status \
        == 303
    assert mailed("TWICE-7402") == 1 and "sent twice" not in said(england, "twice")
    england.act("twice", do="press", to_FRANCE="1", text="TWICE-7401 Shall we split Belgium?",
                seat="ENGLAND", once=field(england.get("/g/twice/play").text, "once"))
    assert mailed("TWICE-7401") == 2
    # the command box: the same
    page = england.get("/g/twice/play").text
    command = {"csrf": field(page, "csrf"), "seat": "ENGLAND", "once": field(page, "once"),
               "do": "command", "command": "PRESS TO FRANCE\nTWICE-7403 hello\nENDPRESS"}
    england.post("/g/twice/act", command)
    england.post("/g/twice/act", command)
    assert mailed("TWICE-7403") == 1


def test_a_right_password_during_the_wait_is_not_called_wrong(srv, world):
    Table(world.judge, "guess", "standard")
    v = Visitor(srv.url, "10.4.0.7")
    for i in range(4):
        v.sign_in("guess", "TURKEY", f"wrongpw{i}")
    right = v.sign_in("guess", "TURKEY", "pw-turkey")
    text = html.unescape(right.text)
    assert right.status == 403 and "Too many wrong sign-ins from your address" in text
    assert "not right" not in text and "does not say which" not in text
    assert "the one just sent was not checked" in text
