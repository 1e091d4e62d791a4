"""What a seat's forms do with what a player pastes or leaves open, over real HTTP as a
browser sends it: a whole mail pasted with its SIGNON line, text longer than the pages used
to read, a page drawn for a phase that has moved on, a form sent after the session ended."""

from __future__ import annotations

import html
import json
import random
import re

from mobadj.judge import Judge, Store, WebPlay, host_for
from mobadj.judge.config import config_from_data
from mobadj.web.cardview import replay
from mobadj.web.demo import Table, play_cards
from mobadj.web.pages import Site

from .helpers import Visitor, world_and_server

START = 1_800_000_000.0


class World:
    """A standard game and a private one, on a judge with a clock the tests move."""

    def __init__(self, path) -> None:
        self.now = START
        self.config = config_from_data({"judge": {
            "name": "Form Judge", "address": "judge@test.org", "data_dir": str(path),
            "max_body_bytes": 50_000}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, clock=lambda: self.now, kdf_n=2**10)
        self.dip = Table(self.judge, "dip", "standard")
        self.cards = Table(self.judge, "cards", "micromob", seats=["P1", "P2", "P3"], seed=11)
        play_cards(self.cards, random.Random(3))
        self.play = WebPlay(self.judge)
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Form Judge", clock=lambda: self.now)

    def orders(self, power: str) -> str:
        """The seat's orders standing for the current phase, as stored."""
        game = self.dip.game
        return self.store.orders("dip", host_for(game.kind).phase(game.started_state)).get(
            power, "")


world, srv = world_and_server(World, "play-forms")


def signed_in(srv, power: str, client: str) -> Visitor:
    v = Visitor(srv.url, client)
    answer = v.sign_in("dip", power, f"pw-{power.lower()}")
    assert answer.status == 303, answer.text
    return v


def said(v: Visitor) -> str:
    """The judge's answer shown on the seat's page after a form."""
    page = v.get("/g/dip/play").text
    start = page.find('<pre class="said"')
    return page[start:page.find("</pre>", start)] if start >= 0 else ""


def test_a_pasted_mail_for_another_game_or_seat_stores_nothing(srv, world):
    france = signed_in(srv, "FRANCE", "10.1.0.1")
    france.act("dip", do="orders", orders="A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    before = world.orders("FRANCE")
    assert "A PAR - BUR" in before.upper()
    for box, pasted, named in [
            ("orders", "SIGNON otherdip Germany s3cretPw-1\nA Mun - Ruh\nA Ber - Kie",
             "Germany in otherdip"),
            ("orders", "signon dip england s3cretPw-2\nF Lon - Eng", "england in dip"),
            ("command", "SIGNON otherdip France s3cretPw-3\nSET NOPRESS", "France in otherdip"),
            ("command", "GM dip s3cretPw-4\nPROCESS", "GM in dip")]:
        answer = france.act("dip", do=box, **{box: pasted})
        assert answer.status == 303
        shown = said(france)
        assert "This page plays FRANCE in dip" in shown and named in shown, shown
        assert "nothing of what you sent was done" in shown and "s3cretPw" not in shown
        assert world.orders("FRANCE") == before
    commands = [c["text"] for c in world.store.commands("dip")]
    assert not any("s3cretPw" in (t or "") for t in commands)
    # an unreadable sign-on line: whose mail it is nobody knows, so nothing is done either
    france.act("dip", do="orders", orders="SIGNON dip\nA Par - Pic")
    assert "cannot read the sign-on line" in said(france)
    assert world.orders("FRANCE") == before


def test_a_pasted_mail_for_this_seat_is_taken_without_its_sign_on(srv, world):
    italy = signed_in(srv, "ITALY", "10.1.0.2")
    italy.act("dip", do="orders", orders="SIGNON Dip Italy whatever-Pw-77\nA Ven - Tyr\n"
              "A Rom - Ven\nF Nap - Ion")
    shown = said(italy)
    assert "whatever-Pw-77" not in shown and "A VEN - TYR" in shown.upper(), shown
    assert "A VEN - TYR" in world.orders("ITALY").upper()


def letter(marker: str, lines: int) -> str:
    return "\n".join(f"{marker} line {i:05d} of my long letter about the Channel."
                     for i in range(lines))


def test_long_press_from_the_page_arrives_whole(srv, world):
    """600 lines, 34,000 characters and more: what a mail of that length delivers."""
    england = signed_in(srv, "ENGLAND", "10.1.0.3")
    text = letter("LONG-7301", 600)
    assert len(text) > 30_000
    assert england.act("dip", do="press", to_FRANCE="on", text=text).status == 303
    assert "Press delivered to FRANCE" in said(england)
    mailed = [m for m in world.store.all_mail() if "LONG-7301" in m.body]
    assert len(mailed) == 1 and mailed[0].to == world.dip.emails["FRANCE"]
    assert text in mailed[0].body


def test_text_longer_than_a_mail_is_refused_whole(srv, world):
    """More than the judge reads of a mail (here 50,000 characters, or 2,000 lines): the
    page says so and nothing goes out, never a letter cut short."""
    germany = signed_in(srv, "GERMANY", "10.1.0.4")
    for marker, text in [("WIDE-7302", letter("WIDE-7302", 900)),
                         ("TALL-7303", "\n".join(["TALL-7303"] + ["x"] * 2100))]:
        assert germany.act("dip", do="press", to_FRANCE="on", text=text).status == 303
        shown = said(germany)
        assert "nothing of it was done" in shown and "Send it in parts" in shown, shown
        assert not [m for m in world.store.all_mail() if marker in m.body]
        assert not [p for p in world.store.press("dip") if marker in p["text"]]
    orders = germany.act("dip", do="orders", orders="A Ber - Kie\n" + "\n" * 2100)
    assert orders.status == 303 and "nothing of it was done" in said(germany)
    assert world.orders("GERMANY") == ""
    # read as the player types: the same refusal, for the whole box
    token = germany.csrf(germany.get("/g/dip/play").text)
    read = json.loads(germany.post("/g/dip/check", {"csrf": token, "orders": "A Ber - Kie"
                                                    + "\n" * 2100}).text)
    assert read["accepted"] == [] and read["problems"][0]["line"] == 0
    assert "nothing of it was done" in read["problems"][0]["text"]
    # a form larger than any text the judge reads: refused before it is read, saying why
    huge = germany.act("dip", do="press", to_FRANCE="on", text="\u00e9" * 60_000)
    assert huge.status == 413 and "nothing of it was done" in huge.text


def test_checking_a_line_too_long_says_what_sending_it_says(srv, world):
    """A line of more than 500 characters is not read when the box is sent; "Check only"
    and the reading as the player types say so too, in the same words (it vanished)."""
    germany = signed_in(srv, "GERMANY", "10.1.0.14")
    box = "\nA Ber - Kie " + "please " * 85  # 607 characters on line 2
    refused = "line 2, column 500: line longer than 500 characters, skipped"
    checked = html.unescape(germany.act("dip", do="check", orders=box).text)
    assert "Errors (these lines would not be taken):\n  " + refused in checked, checked
    token = germany.csrf(germany.get("/g/dip/play").text)
    read = json.loads(germany.post("/g/dip/check", {"csrf": token, "orders": box}).text)
    assert read["problems"] == [{"line": 2, "kind": "error", "text": refused}]
    assert read["accepted"] == [] and read["preview"] == ""
    germany.act("dip", do="orders", orders=box)
    assert "Error: " + refused in html.unescape(said(germany))
    assert world.orders("GERMANY") == ""


def test_a_form_sent_after_signing_out_says_it_was_not_done(srv, world):
    russia = signed_in(srv, "RUSSIA", "10.1.0.6")
    kept = russia.get("/g/dip/play").text  # the page left open in one tab
    token = russia.csrf(kept)
    cookie = russia.jar["mobadj_seat_dip"]
    assert russia.post("/g/dip/signout", {"csrf": token}).status == 303  # another tab
    russia.jar["mobadj_seat_dip"] = cookie  # the old tab still sends the ended session
    answer = russia.post("/g/dip/act", {"csrf": token, "drawn": "S1901M", "do": "orders",
                                        "orders": "A Mos - Ukr"})
    assert answer.status == 403 and 'name="password"' in answer.text
    assert "what you sent was not done. Sign in and send it again" in answer.text
    assert world.orders("RUSSIA") == ""


def test_the_reading_as_you_type_after_the_session_ended_says_so_in_words(srv, world):
    """The page's script reads the box (``check``) and draws its map (``mine.svg``) as the
    player types: once the session has ended, or the page is from an earlier sign-in,
    both answer in words the page shows where the reading would be, with the link that
    goes on, never with a redirect the script would follow to a page it cannot show."""
    russia = signed_in(srv, "RUSSIA", "10.1.0.13")
    token = russia.csrf(russia.get("/g/dip/play").text)
    cookie = russia.jar["mobadj_seat_dip"]
    typed = {"csrf": token, "orders": "A Mos - Ukr\nF Sev - Bla"}
    script = {"X-CSRF-Token": token}
    assert json.loads(russia.post("/g/dip/check", typed, script).text)["accepted"]
    assert russia.post("/g/dip/signout", {"csrf": token}).status == 303  # another tab
    russia.jar["mobadj_seat_dip"] = cookie  # the page left open still sends the old session
    for path in ("/g/dip/check", "/g/dip/mine.svg"):
        answer = russia.post(path, typed, script)
        assert answer.status == 403 and "Location" not in answer.headers, path
        assert answer.headers["Content-Type"].startswith("application/json")
        assert answer.headers["Cache-Control"] == "private, no-store"
        said_ = json.loads(answer.text)
        assert said_["problem"] == "signed-out"
        assert said_["message"].startswith("You are signed out")
        assert "sign in again to send orders" in said_["message"]
        assert "What you typed is still in the box; nothing was sent." in said_["message"]
        assert said_["link"] == {"href": "play", "text": "Sign in again"}
    # signed in again elsewhere: the old page's token is stale, and it is told so
    again = signed_in(srv, "RUSSIA", "10.1.0.13")
    stale = json.loads(again.post("/g/dip/check", typed, script).text)
    assert stale["problem"] == "stale" and "earlier sign-in" in stale["message"]
    assert stale["link"]["text"] == "Open the page again"
    # a box more than a form may carry: the same refusal as the form's, in words
    huge = json.loads(again.post("/g/dip/check", {"csrf": again.csrf(again.get(
        "/g/dip/play").text), "orders": "\u00e9" * 30_000}, script).text)
    assert huge["problem"] == "too-long" and "nothing of it was done" in huge["message"]
    assert world.orders("RUSSIA") == ""


def test_set_password_from_the_page_says_to_sign_in_with_the_new_one(srv, world):
    turkey = signed_in(srv, "TURKEY", "10.1.0.7")
    answer = turkey.act("dip", do="command", command="SET PASSWORD pw-turkey-new-5")
    assert answer.status == 200 and 'name="password"' in answer.text
    assert "Password changed." in answer.text and "pw-turkey-new-5" not in answer.text
    assert "Sign in with the new password" in answer.text
    again = turkey.post("/g/dip/signin", {"csrf": turkey.csrf(answer.text), "power": "TURKEY",
                                          "password": "pw-turkey-new-5"})
    assert again.status == 303 and "Signed in as" in turkey.get("/g/dip/play").text


def test_the_page_says_what_became_of_orders_sent_or_not(srv, world):
    england = signed_in(srv, "ENGLAND", "10.1.0.8")
    page = england.get("/g/dip/play").text
    assert "You have orders due." in page and "read only" not in page
    assert "players sign in to play" in page
    england.act("dip", do="orders", orders="F Lon - Eng\nF Edi - Nth\nA Lvp - Yor")
    assert "Your orders are in (you may change them until the deadline)." in \
        england.get("/g/dip/play").text
    # an emptied box takes nothing back, and says so
    emptied = england.act("dip", do="orders", orders="  \n")
    assert emptied.status == 200 and "the orders box was empty" in emptied.text
    assert "still stand" in emptied.text and "F LON - ENG" in world.orders("ENGLAND").upper()
    empty_press = england.act("dip", do="press", text="")
    assert "press needs a text and at least one reader" in empty_press.text


def test_press_sent_without_a_reader_comes_back_as_it_was_left(srv, world):
    """A letter typed and sent with no reader ticked: nothing is sent, the letter is still
    in the box, and the page says so beside the To boxes (tied to them for a screen
    reader); sent with readers and no text, the readers stay ticked and the box is marked."""
    austria = signed_in(srv, "AUSTRIA", "10.1.0.21")
    letter = "\nDear all,\nLONG-LETTER-4471 <b>about</b> the Balkans & more."
    page = austria.act("dip", do="press", text=letter)
    assert page.status == 200
    assert "press needs a text and at least one reader" in said_in(page.text)
    form = page.text[page.text.index('class="press-form"'):]
    form = form[:form.index("</form>")]
    box = re.search(r'<textarea id="press-text"[^>]*>(.*?)</textarea>', form, re.S).group(1)
    assert html.unescape(box) == "\n" + letter  # (a browser drops the one leading newline)
    assert '<fieldset aria-describedby="press-problem">' in form
    problem = re.search(r'<p id="press-problem"[^>]*>(.*?)</p>', form).group(1)
    assert "tick at least one reader under To" in problem
    assert " checked" not in form
    assert not [p for p in world.store.press("dip") if "LONG-LETTER-4471" in p["text"]]
    empty = austria.act("dip", do="press", to_ITALY="1", to_gm="1", text=" ")
    form = empty.text[empty.text.index('class="press-form"'):]
    assert re.search(r'name="to_ITALY" value="1" checked', form)
    assert re.search(r'name="to_gm" value="1" checked', form)
    assert re.search(r'<textarea id="press-text"[^>]*aria-invalid="true" '
                     r'aria-describedby="press-problem"', form)
    assert "the message is empty" in form and "<fieldset>" in form
    # the page drawn afresh has an empty form again
    fresh = austria.get("/g/dip/play").text
    assert "press-problem" not in fresh and "LONG-LETTER-4471" not in fresh


def test_concede_needs_a_power_chosen(srv, world):
    """CONCEDE pressed without choosing a power concedes nothing and says to choose one
    (no power is picked beforehand); with one chosen, the concession is recorded."""
    russia = signed_in(srv, "RUSSIA", "10.1.0.22")
    page = russia.get("/g/dip/play").text
    select = page[page.index('<select name="to">'):]
    assert select.startswith('<select name="to"><option value="">(choose)</option>')
    assert " selected" not in select[:select.index("</select>")]
    answer = russia.act("dip", do="concede", to="")
    assert answer.status == 200 and "Nothing conceded: choose the power" in said_in(answer.text)
    assert "concession" not in said_in(answer.text)
    assert russia.act("dip", do="concede", to="TURKEY").status == 303
    assert "Your concession to TURKEY is recorded" in said(russia)
    assert russia.act("dip", do="noconcede").status == 303


def said_in(page: str) -> str:
    start = page.find('<pre class="said"')
    return html.unescape(page[start:page.find("</pre>", start)]) if start >= 0 else ""


def test_an_empty_orders_box_with_ready_sends_ready_alone_and_says_so(srv, world):
    """As a mail with READY and no orders: the orders standing stand, READY is set, and the
    page says that no orders were sent and READY went alone, above the judge's answer."""
    for power, client, standing in [("GERMANY", "10.1.0.11", "A Mun - Ruh\nA Ber - Kie"),
                                    ("ITALY", "10.1.0.12", "")]:
        v = signed_in(srv, power, client)
        if standing:
            v.act("dip", do="orders", orders=standing)
        before = world.orders(power)
        assert v.act("dip", do="orders", orders=" \r\n\t \r\n", ready="1").status == 303
        shown = html.unescape(said(v))
        assert shown.index("The orders box was empty, so no orders were sent") < shown.index(
            "Marked READY"), shown
        assert "your orders standing, if any, still stand" in shown
        assert "READY was sent alone" in shown
        assert world.orders(power) == before and world.store.player("dip", power).ready
        page = html.unescape(v.get("/g/dip/play").text)
        assert "and you are READY" in page
        v.act("dip", do="notready")


def test_a_finished_card_game_counts_its_moves_alike_on_every_page(srv, world):
    index = Visitor(srv.url).get("/").text
    after = re.search(r"after move (\d+)", index)
    assert after, index
    played = after.group(1)
    public = Visitor(srv.url).get("/g/cards/").text
    assert f"Final table, after move {played}" in public
    p1 = Visitor(srv.url, "10.1.0.9")
    assert p1.sign_in("cards", "P1", "pw-p1").status == 303
    seat = p1.get("/g/cards/play").text
    assert f"move {played}, the last (the game has ended: nobody is waiting)" in seat
    assert "waiting for nobody" not in seat
    # the GM's page names the winner the index names
    winner = re.search(r"Winner: (P\d)", index)
    assert winner, "the game played here has one winner"
    gm = Visitor(srv.url, "10.1.0.10")
    assert gm.sign_in("cards", "GM", "gm-secret").status == 303
    assert f"Result: win ({winner.group(1)}), by the rules" in gm.get("/g/cards/play").text


def test_a_card_seat_page_names_only_the_commands_its_game_takes(srv, world):
    """The command box's label names the out-of-turn commands of the game being played
    (Iron Triangle's say while the offers are made), not say and reveal for every game."""
    seen = {}
    for name, kind in (("it-box", "irontriangle"), ("mm-box", "micromob")):
        t = Table(world.judge, name, kind, seats=["P1", "P2", "P3"], seed=5)
        played = replay(kind, t.game.state)
        seat = 1
        for _ in range(4):  # Iron Triangle: the job and the offers are made, then the talk
            if kind != "irontriangle" or played.phase == "negotiate":
                break
            for who in played.to_act():
                t.say(f"P{who + 1}", str(played.legal_actions(who)[0]))
            played = replay(kind, t.game.state)
        if kind == "irontriangle":
            assert "say <anything>" in played.free_commands(seat)
        v = Visitor(srv.url, "10.1.0.11")
        assert v.sign_in(name, f"P{seat + 1}", f"pw-p{seat + 1}").status == 303
        page = html.unescape(v.get(f"/g/{name}/play").text)
        label = re.search(r'<label for="command">(.*?)</label>', page, re.S)
        assert label, page
        seen[kind] = label.group(1)
    assert "(a card command, say, DRAW, CONCEDE TO" in seen["irontriangle"]
    assert "(a card command, DRAW, CONCEDE TO" in seen["micromob"]
    assert "reveal" not in seen["irontriangle"] + seen["micromob"]


def test_a_page_left_open_over_a_deadline_sends_nothing_to_the_next_phase(srv, world):
    """Run last: it ends Spring 1901.  The page's forms carry the phase they were drawn
    for; sent after the phase moved on, neither the orders nor READY are taken."""
    austria = signed_in(srv, "AUSTRIA", "10.1.0.5")
    spring = austria.get("/g/dip/play").text
    assert 'name="drawn" value="S1901M"' in spring
    token = austria.csrf(spring)
    world.dip.process()
    answer = austria.post("/g/dip/act", {"csrf": token, "drawn": "S1901M", "do": "orders",
                                         "orders": "A Vie - Gal\nA Bud - Ser", "ready": "1"})
    assert answer.status == 303
    shown = said(austria)
    assert "moved on since to Fall 1901" in shown and "nothing of what you sent" in shown
    assert world.orders("AUSTRIA") == ""
    assert not world.store.player("dip", "AUSTRIA").ready
    austria.post("/g/dip/act", {"csrf": token, "drawn": "S1901M", "do": "ready"})
    assert "moved on since" in said(austria) and not world.store.player("dip", "AUSTRIA").ready
    # the page of the new phase sends them
    fall = austria.get("/g/dip/play").text
    assert 'name="drawn" value="F1901M"' in fall
    austria.act("dip", do="orders", orders="A Vie - Gal", drawn="F1901M")
    assert "A VIE - GAL" in world.orders("AUSTRIA").upper()


def test_a_player_writes_to_the_gm_from_the_page(srv, world):
    """PRESS TO GM from the press form's "the GM" box, beside powers; in a game without
    press the page keeps a form for the GM alone, ticked."""
    italy = signed_in(srv, "ITALY", "10.1.0.9")
    page = italy.get("/g/dip/play").text
    assert 'name="to_gm"' in page and "the GM</label>" in page
    assert italy.act("dip", do="press", to_FRANCE="on", to_gm="on",
                     text="GM-7310: may I take a week off?").status == 303
    assert "Press delivered to FRANCE and the GM" in said(italy)
    mailed = {m.to for m in world.store.all_mail() if "GM-7310" in m.body}
    assert mailed == {"gm@test.org", world.dip.emails["FRANCE"]}
    quiet = Table(world.judge, "quiet", "standard", press="none")
    v = Visitor(srv.url, "10.1.0.10")
    assert v.sign_in("quiet", "ITALY", "pw-italy").status == 303
    page = v.get("/g/quiet/play").text
    assert "A message to the GM" in page and 'name="to_FRANCE"' not in page
    assert re.search(r'name="to_gm" value="1" checked', page)
    assert v.act("quiet", do="press", to_gm="on", text="GM-7311: hello").status == 303
    assert [m.to for m in world.store.all_mail() if "GM-7311" in m.body] == ["gm@test.org"]
    assert quiet.emails["ITALY"] not in {m.to for m in world.store.all_mail()
                                         if "GM-7311" in m.body}
