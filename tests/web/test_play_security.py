"""Signing in as a seat on the pages, as an attacker would try it over real HTTP: forms
from elsewhere (CSRF), a session id planted before sign-in (fixation), guessed passwords,
another seat's or game's addresses with one's own cookie, the GM's view; sessions that end
(sign out, expiry, a new password); and what the answers carry (headers, cookies)."""

from __future__ import annotations

import html
import http.cookiejar
import json
import random
import re
import urllib.request
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import pytest
from selenium.webdriver.common.by import By

from mobadj.judge import Judge, Store, WebPlay, reports
from mobadj.judge.config import config_from_data
from mobadj.judge.mailer import build_message
from mobadj.web.demo import Table, mail, play_board
from mobadj.web.pages import Site

from .helpers import Answer, PageServer, Visitor
from .playing import wait
from .test_browser import browser  # noqa: F401 (the fixture: one Chromium)

START = 1_800_000_000.0
SECRET = "ENGLAND-SECRET-PLAN-5531"


class Game:
    """A standard game and a private one, on a judge with a clock the tests move."""

    def __init__(self, path) -> None:
        self.now = START
        self.config = config_from_data({"judge": {
            "name": "Play Judge", "address": "judge@test.org", "data_dir": str(path)},
            "web": {"base_url": "https://pages.test/judge"}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, clock=lambda: self.now, kdf_n=2**10)
        self.dip = Table(self.judge, "dip", "standard")
        self.other = Table(self.judge, "other", "standard")
        self.hidden = Table(self.judge, "hidden", "standard")
        with self.store.transaction():
            self.store.set_web_key("hidden", "hidden-key-0042", self.now)
        self.dip.say("ENGLAND", f"PRESS TO GERMANY\n{SECRET}\nENDPRESS\nF Lon - Nth")
        self.play = WebPlay(self.judge)
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Play Judge", clock=lambda: self.now)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Game(tmp_path_factory.mktemp("play-security"))
    yield g
    g.readonly.close()
    g.store.close()


@pytest.fixture(scope="module")
def srv(game):
    with PageServer(game.site, play=game.play) as s:
        yield s


def signed_in(srv, game: str = "dip", power: str = "FRANCE", password: str = "pw-france",
              client: str = "10.0.0.1") -> Visitor:
    v = Visitor(srv.url, client)
    answer = v.sign_in(game, power, password)
    assert answer.status == 303 and answer.headers["Location"] == "play", answer.text
    return v


def test_sign_in_gives_the_seat_its_page_with_private_headers(srv):
    v = Visitor(srv.url, "10.0.0.1")
    form = v.get("/g/dip/play")
    assert form.status == 200 and "Sign in" in form.text and "password" in form.text
    assert form.headers["Cache-Control"] == "private, no-store"
    answer = v.sign_in("dip", "France", "pw-france")
    cookie = answer.headers["Set-Cookie"]
    assert "mobadj_seat_dip=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Path" not in cookie and "Secure" not in cookie  # plain http here
    page = v.get("/g/dip/play")
    assert page.status == 200 and "Signed in as <strong class=\"me\">France</strong>" in page.text
    assert page.headers["Cache-Control"] == "private, no-store"
    assert "script-src" not in page.headers["Content-Security-Policy"]  # 'self' only
    assert "<script>" not in page.text and " on" + "click=" not in page.text
    assert SECRET not in page.text and "F EDI - NTH" not in page.text.upper()


def test_the_cookie_is_secure_behind_https(srv):
    v = Visitor(srv.url, "10.0.0.2")
    form = v.get("/g/dip/play", {"X-Forwarded-Proto": "https"})
    assert "Secure" in form.headers["Set-Cookie"]
    answer = v.post("/g/dip/signin", {"csrf": v.csrf(form.text), "power": "ITALY",
                                      "password": "pw-italy"}, {"X-Forwarded-Proto": "https"})
    assert answer.status == 303 and "; Secure" in answer.headers["Set-Cookie"]


def test_a_sign_in_form_from_elsewhere_is_refused(srv, game):
    v = Visitor(srv.url, "10.0.0.3")
    form = v.get("/g/dip/play")
    token = v.csrf(form.text)
    fields = {"power": "FRANCE", "password": "pw-france"}
    # no token, a wrong one, the right one from another site's page, no form cookie at all
    for sent, headers in [({}, {}), ({"csrf": "x" * 32}, {}),
                          ({"csrf": token}, {"Sec-Fetch-Site": "cross-site"})]:
        answer = v.post("/g/dip/signin", fields | sent, headers)
        assert answer.status == 403 and "mobadj_seat" not in answer.headers["Set-Cookie"]
        assert "please sign in again" in answer.text
    stranger = Visitor(srv.url, "10.0.0.3")
    answer = stranger.post("/g/dip/signin", fields | {"csrf": token})
    assert answer.status == 403 and "mobadj_seat_dip" not in stranger.jar


def test_a_planted_session_id_is_never_taken(srv):
    v = Visitor(srv.url, "10.0.0.4")
    v.jar["mobadj_seat_dip"] = "attacker-chose-this-value-1234567890"
    assert "Sign in" in v.get("/g/dip/play").text  # a value the server never gave: nothing
    v.sign_in("dip", "FRANCE", "pw-france")
    assert v.jar["mobadj_seat_dip"] != "attacker-chose-this-value-1234567890"
    attacker = Visitor(srv.url, "10.0.0.5")
    attacker.jar["mobadj_seat_dip"] = "attacker-chose-this-value-1234567890"
    assert "Signed in as" not in attacker.get("/g/dip/play").text


def test_actions_need_the_sessions_own_token(srv, game):
    france = signed_in(srv)
    italy = signed_in(srv, power="ITALY", password="pw-italy", client="10.0.0.6")
    italy_token = italy.csrf(italy.get("/g/dip/play").text)
    before = game.store.orders("dip", "S1901M").get("FRANCE")
    for fields, headers in [
            ({}, {}),  # no token
            ({"csrf": italy_token}, {}),  # another seat's
            ({"csrf": france.csrf(france.get("/g/dip/play").text)},
             {"Sec-Fetch-Site": "cross-site"})]:  # right, but sent from another site
        answer = france.post("/g/dip/act", fields | {"do": "orders", "orders": "A Par - Pic"},
                             headers)
        assert answer.status == 403 and "nothing was done" in answer.text
    assert game.store.orders("dip", "S1901M").get("FRANCE") == before
    # and without a session at all: the sign-in form, saying nothing was done
    anon = Visitor(srv.url, "10.0.0.7")
    answer = anon.post("/g/dip/act", {"csrf": italy_token, "do": "orders",
                                      "orders": "A Par - Pic"})
    assert answer.status == 403 and "what you sent was not done" in answer.text
    assert game.store.orders("dip", "S1901M").get("FRANCE") == before


def test_one_seats_cookie_opens_nothing_of_another_seat_or_game(srv, game):
    france = signed_in(srv)
    # the seat is the session's: a power named in the form or the text changes nothing
    france.act("dip", do="orders", orders="A Par - Bur", power="ENGLAND")
    france.act("dip", do="command",
               command="SIGNON dip ENGLAND pw-england\nF Lon - Eng\nPRESS TO ALL\nhi\nENDPRESS")
    assert "This page plays FRANCE in dip" in france.get("/g/dip/play").text
    assert game.store.orders("dip", "S1901M")["ENGLAND"] == "F LON - NTH"
    assert game.store.orders("dip", "S1901M")["FRANCE"] == "A PAR - BUR"
    assert not [p for p in game.store.press("dip") if p["sender"] == "ENGLAND"
                and p["text"] == "hi"]
    # another game's pages with this game's cookie: its sign-in form, its map refused
    france.jar["mobadj_seat_other"] = france.jar["mobadj_seat_dip"]
    assert "Signed in as" not in france.get("/g/other/play").text
    refused = france.get("/g/other/mine.svg")  # not this cookie's game: a signed-out image
    assert refused.status == 403 and "You are signed out" in refused.text
    assert france.post("/g/other/act", {"csrf": france.csrf(
        france.get("/g/dip/play").text), "do": "command", "command": "RESIGN"}).status == 403
    assert game.store.player("other", "FRANCE").status == "active"
    # the seat's own map is its own: others and visitors get nothing
    assert france.get("/g/dip/mine.svg").status == 200
    assert Visitor(srv.url).get("/g/dip/mine.svg").status == 404
    gm = signed_in(srv, power="GM", password="gm-secret", client="10.0.0.8")
    assert gm.get("/g/dip/mine.svg").status == 404
    assert SECRET not in france.get("/g/dip/play").text


def test_guessing_is_slowed_and_never_locks_out_the_right_password(srv, game):
    guesser = Visitor(srv.url, "10.9.9.9")
    answers = [guesser.sign_in("dip", "GERMANY", f"guess{i}") for i in range(5)]
    assert all(a.status == 403 for a in answers)
    assert all("password is not right" in a.text for a in answers[:3])
    # during the wait nothing is checked, so nothing is said of the password
    assert "Too many wrong sign-ins" in answers[-1].text and "(in " in answers[-1].text
    assert "not right" not in answers[-1].text
    # until when, written as a date as every page writes one (never the judge's raw stamp)
    assert re.search(r"again from \w{3} \d+ \w{3} \d{4} \d\d:\d\d UTC \(in \d+ minutes?\)",
                     answers[-1].text), answers[-1].text
    assert "\ue000" not in answers[-1].text and "\ue001" not in answers[-1].text
    # the guesser waits even with the right password; the player from elsewhere does not
    assert "Too many" in guesser.sign_in("dip", "GERMANY", "pw-germany").text
    assert signed_in(srv, power="GERMANY", password="pw-germany", client="10.1.1.1")
    # the seat's player is told at the registered address, as by mail
    told = [m for m in game.store.all_mail() if m.to == game.dip.emails["GERMANY"]
            and "wrong passwords" in m.subject]
    assert told and "the game pages (from 10.9.9.9)" in told[0].body
    # a power that does not exist, a game that does not exist: the same refusal
    assert "password is not right" in Visitor(srv.url, "10.2.2.2").sign_in(
        "dip", "NARNIA", "x").text
    assert Visitor(srv.url, "10.2.2.3").get("/g/nogame/play").status == 404


def test_a_wrong_password_keeps_the_power_picked_and_says_so_at_the_password(srv, game):
    """France picked, a wrong password: the form comes back with France still picked (not
    the first power), the password box empty, marked wrong and tied to the refusal; the
    password typed is nowhere on the page."""
    v = Visitor(srv.url, "10.3.3.3")
    answer = v.sign_in("dip", "FRANCE", "wrong-Pw-8814")
    assert answer.status == 403 and "password is not right" in answer.text
    picked = re.findall(r'<option value="(\w+)" selected>', answer.text)
    assert picked == ["FRANCE"], picked
    assert re.search(r'<pre id="signin-problem"[^>]*role="alert">Sign-on refused',
                     answer.text)
    box = re.search(r'<input name="password"[^>]*>', answer.text).group(0)
    assert 'aria-invalid="true"' in box and 'aria-describedby="signin-problem"' in box
    assert "autofocus" in box and "value=" not in box
    assert "wrong-Pw-8814" not in answer.text
    again = v.post("/g/dip/signin", {"csrf": v.csrf(answer.text), "power": "GM",
                                     "password": "wrong-gm-2"})
    assert re.findall(r'<option value="(\w+)" selected>', again.text) == ["GM"]
    # the form as first shown picks nothing and marks nothing
    fresh = Visitor(srv.url, "10.3.3.4").get("/g/dip/play").text
    assert " selected" not in fresh and "aria-invalid" not in fresh


def test_the_gm_signs_in_with_the_gm_password_only(srv, game):
    assert Visitor(srv.url, "10.3.3.3").sign_in("dip", "GM", "pw-france").status == 403
    gm = signed_in(srv, power="GM", password="gm-secret", client="10.3.3.4")
    page = gm.get("/g/dip/play").text
    assert "The GM's view" in page and "GM commands" in page
    assert "dip-england@test.org" in page  # the GM sees the players' addresses
    gm.act("dip", do="command", command="SET PRESS GREY")
    assert game.store.game("dip").options["press"].lower() == "grey"
    assert "anonymously (grey)" in signed_in(srv).get("/g/dip/play").text
    # a player's page has none of it, and a player's GM command is refused
    france = signed_in(srv)
    page = france.get("/g/dip/play").text
    assert "dip-england@test.org" not in page and "GM commands" not in page
    france.act("dip", do="command", command="PROCESS")
    assert "is a GM command" in france.get("/g/dip/play").text
    assert game.store.game("dip").phase == "S1901M"


def test_sessions_end(srv, game):
    # signed out: the old cookie value is worth nothing
    v = signed_in(srv, power="AUSTRIA", password="pw-austria", client="10.4.4.4")
    kept = v.jar["mobadj_seat_dip"]
    page = v.get("/g/dip/play")
    assert v.post("/g/dip/signout", {"csrf": v.csrf(page.text)}).status == 303
    assert "mobadj_seat_dip" not in v.jar
    v.jar["mobadj_seat_dip"] = kept
    assert "Signed in as" not in v.get("/g/dip/play").text
    # the map of a page opened again from the browser's history: an image saying so (the
    # page shows no broken image), with nothing of the seat's orders or the board
    ended = v.get("/g/dip/mine.svg")
    assert ended.status == 403 and ended.headers["Content-Type"].startswith("image/svg+xml")
    assert "You are signed out" in ended.text and "<path" not in ended.text
    assert "private" in ended.headers["Cache-Control"]
    # a new password (by mail) ends the sessions signed in with the old one
    russia = signed_in(srv, power="RUSSIA", password="pw-russia", client="10.4.4.5")
    game.judge.handle_mail(mail(game.dip.emails["RUSSIA"],
                                "SIGNON dip RUSSIA pw-russia\nSET PASSWORD pw-russia-2"))
    assert "Signed in as" not in russia.get("/g/dip/play").text
    # and every session after its days
    turkey = signed_in(srv, power="TURKEY", password="pw-turkey", client="10.4.4.6")
    game.now += game.play.session_seconds + 1
    try:
        assert "Signed in as" not in turkey.get("/g/dip/play").text
    finally:
        game.now -= game.play.session_seconds + 1


def test_a_private_games_play_pages_answer_as_a_missing_games(srv, game):
    v = Visitor(srv.url, "10.5.5.5")
    hidden, missing = v.get("/g/hidden/play"), v.get("/g/hiddex/play")
    assert hidden.status == missing.status == 404
    assert hidden.text.replace("hidden", "hiddex") == missing.text
    assert v.post("/g/hidden/signin", {"power": "FRANCE", "password": "pw-france"}
                  ).status == 404
    v.get("/g/hidden/?key=hidden-key-0042")  # the key's cookie: then the form is there
    assert "Sign in" in v.get("/g/hidden/play").text
    assert v.sign_in("hidden", "FRANCE", "pw-france").status == 303


def test_the_history_shows_what_came_from_the_pages(srv, game):
    france = signed_in(srv, client="10.6.6.6")
    france.act("dip", do="orders", orders="A Par - Gas\nA Mar S A Par - Gas\nF Bre - Mao")
    commands = [c for c in game.store.commands("dip") if c["power"] == "FRANCE"]
    assert commands[-1]["kind"] == "orders" and commands[-1]["message_id"].startswith("<web-")
    by_mail = [c for c in game.store.commands("dip") if c["power"] == "ENGLAND"]
    assert not by_mail[-1]["message_id"].startswith("<web-")
    page = france.get("/g/dip/play").text
    assert re.search(r"Orders for FRANCE, Spring 1901 Movement", page)
    assert "A PAR - GAS" in page


def test_the_gms_page_writes_the_summarys_moments_as_dates(srv, game):
    """The GM's summary on the page says when the game was created as a date, in the
    pages' zone, as `mobadj game summary` prints it: no raw time markers."""
    gm = signed_in(srv, power="GM", password="gm-secret", client="10.3.3.9")
    page = html.unescape(gm.get("/g/dip/play").text)
    assert "\ue000" not in page and "\ue001" not in page
    created = reports.when(game.store.game("dip").created, game.site.tz)
    assert f"Created {created};" in page


CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def test_press_from_the_page_drops_control_characters_as_a_mail_does(srv, game):
    """A NUL, an escape sequence and a BEL typed or pasted into the press box never reach
    the store, nor the reader's mail (a raw NUL in a mail's body is refused by MTAs): the
    reader gets what the same press sent by mail would have given."""
    turkey = signed_in(srv, power="TURKEY", password="pw-turkey", client="10.4.4.1")
    said = "hi \x00 \x1b[31mred\x1b[0m \x07bell"
    turkey.act("dip", do="press", to_RUSSIA="on", text=f"WEB-CTRL-5120 {said}")
    game.judge.handle_mail(mail(game.dip.emails["TURKEY"], "SIGNON dip TURKEY pw-turkey\n"
                                f"PRESS TO RUSSIA\nMAIL-CTRL-5120 {said}\nENDPRESS"))
    stored = {p["text"].split()[0]: p["text"] for p in game.store.press("dip")
              if "-CTRL-5120" in p["text"]}
    mailed = {kind: m for m in game.store.all_mail() for kind in ("WEB", "MAIL")
              if f"{kind}-CTRL-5120" in m.body}
    assert set(stored) == {"WEB-CTRL-5120", "MAIL-CTRL-5120"} and set(mailed) == {"WEB", "MAIL"}
    assert not CONTROLS.search(stored["WEB-CTRL-5120"]) and "red" in stored["WEB-CTRL-5120"]
    web, by_mail = mailed["WEB"], mailed["MAIL"]
    assert web.to == game.dip.emails["RUSSIA"] and not CONTROLS.search(web.body)
    assert web.body.replace("WEB-", "MAIL-") == by_mail.body
    sent = build_message(web, "judge@test.org", "Play Judge", "t", START).as_bytes()
    assert b"\x00" not in sent and b"\x1b" not in sent and b"\x07" not in sent
    # the orders box, read as the player types, is read as a mail's text too
    token = turkey.csrf(turkey.get("/g/dip/play").text)
    checked = turkey.post("/g/dip/check", {"csrf": token, "orders": "A Co\x00n\x1e - B\x1bul"})
    read = json.loads(checked.text)
    assert read["problems"] == [] and read["accepted"] == ["A CON - BUL"], read


def test_the_public_page_leads_to_the_sign_in(srv, game):
    rng = random.Random(1)
    play_board(game.other, 1, rng)
    page = Visitor(srv.url).get("/g/other/").text
    assert 'href="play"' in page


def mailed_link(game: Game, table: Table, power: str) -> str:
    """The path of the personal link the judge mails a seat that sends LINK."""
    out = game.judge.handle_mail(mail(table.emails[power], f"SIGNON {table.name} {power} "
                                      f"{table.passwords[power]}\nLINK"))
    mailed = [m for m in out if "your link" in m.subject]
    assert [m.to for m in mailed] == [table.emails[power]]
    assert "open it and press its Sign in button" in mailed[0].body
    reply = next(m for m in out if m not in mailed)
    assert "was mailed to your registered address" in reply.body
    assert "link=" not in reply.body  # only in the mail to the seat's own address
    return re.search(r"https://pages.test/judge(/g/\w+/play\?link=\S+)",
                     mailed[0].body).group(1)


def link_form(html_text: str) -> tuple[str, dict[str, str]]:
    """The action and hidden fields of the button a personal link's page shows."""
    form = re.search(r'<form class="link-signin" method="post" action="([^"]*)">(.*?)</form>',
                     html_text, re.S)
    assert form, "no sign-in button on the page"
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2))
    return html.unescape(form.group(1)), {k: html.unescape(v) for k, v in fields}


def open_link(v: Visitor, path: str) -> Answer:
    """A player opens the link and presses the page's button."""
    shown = v.get(path)
    assert shown.status == 200 and shown.headers["Cache-Control"] == "private, no-store"
    assert "mobadj_seat" not in shown.headers["Set-Cookie"]
    action, fields = link_form(shown.text)
    return v.post(urljoin(path, action), fields)


def test_a_personal_link_by_mail_signs_in_once(srv, game):
    def link(table, power: str) -> str:
        return mailed_link(game, table, power)

    path = link(game.dip, "ITALY")
    v = Visitor(srv.url, "10.7.7.7")
    answer = open_link(v, path)
    assert answer.status == 303 and answer.headers["Location"] == "play"
    assert "Signed in as <strong class=\"me\">Italy</strong>" in v.get("/g/dip/play").text
    # once only: a second visit is refused, and signs nobody in
    again = Visitor(srv.url, "10.7.7.8")
    refused = open_link(again, path)
    assert refused.status == 403 and "has been used" in refused.text
    assert "mobadj_seat_dip" not in again.jar
    # too old
    path = link(game.dip, "ITALY")
    game.now += 4 * 86400
    try:
        assert open_link(Visitor(srv.url, "10.7.7.9"), path).status == 403
    finally:
        game.now -= 4 * 86400
    # a private game's link opens its pages too, and nothing without it
    path = link(game.hidden, "FRANCE")
    assert open_link(Visitor(srv.url), path.replace("link=", "link=x")).status == 404
    w = Visitor(srv.url, "10.7.7.10")
    assert open_link(w, path).status == 303
    assert "Signed in as" in w.get("/g/hidden/play").text and w.get("/g/hidden/").status == 200


def test_a_link_looked_at_by_a_scanner_still_signs_the_player_in(srv, game):
    """A mail scanner or a link preview fetches the link (HEAD, or GET without pressing
    anything): the link stays good for the player."""
    for table, power in [(game.dip, "GERMANY"), (game.hidden, "ENGLAND")]:
        path = mailed_link(game, table, power)
        scanner = urllib.request.Request(srv.url + path, method="HEAD")
        with urllib.request.urlopen(scanner, timeout=20) as looked:
            assert looked.status == 200 and "mobadj_seat" not in str(looked.headers)
        Visitor(srv.url, "10.7.9.1").get(path)
        player = Visitor(srv.url, "10.7.9.2")
        assert open_link(player, path).status == 303
        assert f">{power.title()}</strong>" in player.get(f"/g/{table.name}/play").text


def test_a_spent_link_opened_again_while_signed_in_leads_to_the_page(srv, game):
    """The second click on the link in the mail, or the tab returned to: the player's page,
    not a refusal; for a private game, never a word that the game does not exist."""
    for table, power in [(game.dip, "ENGLAND"), (game.hidden, "AUSTRIA")]:
        path = mailed_link(game, table, power)
        v = Visitor(srv.url, "10.7.9.3")
        assert open_link(v, path).status == 303
        again = open_link(v, path)
        assert again.status == 303 and again.headers["Location"] == "play"
        assert f">{power.title()}</strong>" in v.get(f"/g/{table.name}/play").text
        # signed out since, with the key kept: the sign-in form, saying why
        v.post(f"/g/{table.name}/signout", {"csrf": v.csrf(v.get(f"/g/{table.name}/play").text)})
        refused = open_link(v, path)
        assert refused.status == 403 and "has been used" in refused.text
        assert "no public game" not in refused.text.lower()


def test_a_link_sent_from_another_sites_page_signs_nobody_in(srv, game):
    path = mailed_link(game, game.dip, "TURKEY")
    v = Visitor(srv.url, "10.7.9.4")
    action, fields = link_form(v.get(path).text)
    answer = v.post(urljoin(path, action), fields, {"Sec-Fetch-Site": "cross-site"})
    assert answer.status == 403 and "mobadj_seat_dip" not in v.jar
    assert open_link(v, path).status == 303  # still good for the player's own click


def test_a_personal_link_with_the_games_name_in_capitals_signs_in(srv, game):
    """A link whose game name a player or a mail program wrote in capitals signs the player
    in all the same, on the game's own address, with a browser's cookie jar (cookies kept
    for the folder they were set in): the link is spent only there."""
    for table, typed, power in [(game.dip, "Dip", "AUSTRIA"), (game.hidden, "HIDDEN",
                                                                 "GERMANY")]:
        path = mailed_link(game, table, power).replace(f"/g/{table.name}/", f"/g/{typed}/")
        jar = http.cookiejar.CookieJar()
        client = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with client.open(srv.url + path) as first:
            # not a redirect, no cookie: a button that takes the link on, in no address
            assert first.url == srv.url + path and not list(jar)
            assert first.headers["Cache-Control"] == "private, no-store"
            action, fields = link_form(first.read().decode())
        assert action == f"../{table.name}/play" and fields == {
            "link": parse_qs(urlsplit(path).query)["link"][0]}
        with client.open(urljoin(srv.url + path, action), urlencode(fields).encode()) as page:
            assert page.url == f"{srv.url}/g/{table.name}/play"
            assert f'Signed in as <strong class="me">{power.title()}</strong>' in \
                page.read().decode()
        assert {c.path for c in jar} == {f"/g/{table.name}"}
        with client.open(f"{srv.url}/g/{table.name}/") as public:
            assert public.status == 200
        # spent: opened again, in either spelling, it signs nobody in
        for again in (path, path.replace(f"/g/{typed}/", f"/g/{table.name}/")):
            refused = open_link(Visitor(srv.url, "10.7.8.1"), again)
            assert refused.status in (403, 404) and "Signed in as" not in refused.text
    # for a game that does not exist, the same button: nothing says a private game is there
    missing = Visitor(srv.url).get("/g/NOGAME/play?link=x" + "y" * 30)
    assert missing.status == 200 and link_form(missing.text)[0] == "../nogame/play"


def test_chromium_opening_a_link_in_capitals_lands_signed_in_on_the_game(srv, game,
                                                                        browser):  # noqa: F811
    """The same in a real browser: the player presses the page's button and lands on the
    private game's own play page, signed in, and its pages open."""
    path = mailed_link(game, game.hidden, "ITALY").replace("/g/hidden/", "/g/Hidden/")
    browser.get(srv.url + path)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "form.link-signin button"))[0].click()
    wait(browser, lambda d: "Signed in as" in d.page_source)
    assert browser.current_url == f"{srv.url}/g/hidden/play"
    assert 'Signed in as <strong class="me">Italy</strong>' in browser.page_source
    browser.get(f"{srv.url}/g/hidden/")
    assert "No public game" not in browser.page_source and "hidden" in browser.title


def moves_drawn(svg: str) -> int:
    return len(re.findall(r'class="move-(?:ok|fail)"', svg))


def test_checked_orders_are_drawn_on_the_seats_map_only(srv, game):
    france = signed_in(srv, client="10.0.0.11")
    before = game.store.orders("dip", "S1901M").get("FRANCE")
    # without script: "Check only" answers with the map of the orders checked, in the page
    page = france.act("dip", do="check", orders="A Par - Pic\nF Bre - Mid")
    assert page.status == 200 and page.headers["Cache-Control"] == "private, no-store"
    assert "Checked, nothing stored" in page.text
    svg = page.text[page.text.index("<svg"):page.text.index("</svg>")]
    assert "the orders checked, not sent" in svg
    assert moves_drawn(svg) == 2  # France's two moves; England's standing order is not drawn
    assert 'src="mine.svg"' not in page.text
    # the page's script: the same map, POSTed with the session's token
    token = france.csrf(france.get("/g/dip/play").text)
    drawn = france.post("/g/dip/mine.svg", {"csrf": token, "orders": "A Par - Bur"})
    assert drawn.status == 200 and drawn.headers["Cache-Control"] == "private, no-store"
    assert drawn.headers["Content-Type"].startswith("image/svg+xml")
    assert moves_drawn(drawn.text) == 1 and "the orders checked" in drawn.text
    # the standing map is unchanged, and nothing was stored
    standing = france.get("/g/dip/mine.svg").text
    assert "your orders as previewed" in standing and "checked" not in standing
    assert game.store.orders("dip", "S1901M").get("FRANCE") == before
    # refused: no token, another seat's token, from another site, no session, the GM
    italy = signed_in(srv, power="ITALY", password="pw-italy", client="10.0.0.12")
    for who, fields, headers in [
            (france, {"orders": "A Par - Bur"}, {}),
            (france, {"csrf": italy.csrf(italy.get("/g/dip/play").text),
                      "orders": "A Par - Bur"}, {}),
            (france, {"csrf": token, "orders": "A Par - Bur"}, {"Sec-Fetch-Site": "cross-site"})]:
        assert who.post("/g/dip/mine.svg", fields, headers).status == 403
    anon = Visitor(srv.url, "10.0.0.13")
    assert "<svg" not in anon.post("/g/dip/mine.svg", {"csrf": token, "orders": "x"}).text
    gm = signed_in(srv, power="GM", password="gm-secret", client="10.0.0.14")
    gm_token = gm.csrf(gm.get("/g/dip/play").text)
    assert gm.post("/g/dip/mine.svg", {"csrf": gm_token, "orders": "F Lon - Nth"}).status == 404
    # England's own check draws England's order only, never France's
    england = signed_in(srv, power="ENGLAND", password="pw-england", client="10.0.0.15")
    mine = england.post("/g/dip/mine.svg", {"csrf": england.csrf(
        england.get("/g/dip/play").text), "orders": "F Lon - Nth\nA Lvp - Yor"})
    assert moves_drawn(mine.text) == 2


def test_the_orders_sent_are_drawn_as_standing_when_the_page_reads_its_box(srv, game):
    """After Send orders, the page's box holds the orders standing and its script reads it
    and draws the map from it: the map's title says they are the orders as previewed, never
    that they were checked and not sent.  Typed otherwise, the map says so."""
    turkey = signed_in(srv, power="TURKEY", password="pw-turkey", client="10.0.0.16")
    assert turkey.act("dip", do="orders", orders="A Con - Bul\nF Ank - Bla").status == 303
    page = turkey.get("/g/dip/play").text
    box = html.unescape(re.search(r'<textarea id="orders"[^>]*>(.*?)</textarea>', page,
                                  re.S).group(1))
    assert "A CON - BUL" in box
    drawn = turkey.post("/g/dip/mine.svg", {"csrf": turkey.csrf(page), "orders": box})
    assert drawn.status == 200 and moves_drawn(drawn.text) == 2
    assert "your orders as previewed" in drawn.text and "not sent" not in drawn.text
    typed = turkey.post("/g/dip/mine.svg", {"csrf": turkey.csrf(page), "orders": "A Con - Bul"})
    assert moves_drawn(typed.text) == 1 and "the orders checked, not sent" in typed.text


def test_grey_press_to_all_but_one_does_not_show_its_sender_on_a_readers_page(srv, game):
    """England's anonymous press to all but France: Germany's play page says whom it was not
    for, never a list of recipients with England's gap in it; England's own page lists them."""
    t = Table(game.judge, "greyall", "standard", press="grey")
    t.say("ENGLAND", "PRESS GREY TO ALL BUT France\nGREY-BUT-4410 mind Paris\nENDPRESS")
    def heading(power: str, client: str) -> str:
        page = html.unescape(signed_in(srv, "greyall", power, f"pw-{power.lower()}",
                                       client).get("/g/greyall/play").text)
        return re.search(r"From ([^<]*)</p><pre>GREY-BUT-4410", page).group(1)

    assert heading("GERMANY", "10.9.1.1").startswith(
        "Anonymous (grey press) to everyone but FRANCE, ")
    assert heading("ENGLAND", "10.9.1.2").startswith(
        "you (anonymously) to Austria, Germany, Italy, Russia, Turkey, ")
