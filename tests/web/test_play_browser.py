"""A standard game year and a Mobtown II week cycle with its weekend, played entirely
through the seats' own pages in Chromium (the card games: tests/cards/test_play_pages.py).
Each seat signs in through the form and keeps its own session (the browser holds one seat's
cookies at a time: they are swapped as the player at the keyboard changes).  After every
action every seat's page is read with that seat's own session, and nothing of another seat
may show: orders given for the phase, press sent to others, a grey sender.  Screenshots of
the seat's page go to the folder ``make screenshots`` fills."""

from __future__ import annotations

import random
import re
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from mobadj.judge import host_for

from .helpers import PageServer
from .playing import (
    World,
    _stale,
    make_room,
    no_leak_on_map,
    page_loaded,
    play_map_phases,
    wait,
)
from .test_browser import browser, shots  # noqa: F401 (fixtures: one Chromium, the folder)

#: the SVG of the orders typed, as the page's script drew it into the seat's map ("": none)
TYPED_MAP = """
function typed_map() {
  var i = document.querySelector('.seat-map img');
  return i && i.src.indexOf('data:') === 0 ? decodeURIComponent(i.src.split(',')[1]) : '';
}
"""


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    w = World(tmp_path_factory.mktemp("play-browser"))
    yield w
    w.close()


@pytest.fixture(scope="module")
def srv(world):
    with PageServer(world.site, play=world.play) as s:
        yield s


@pytest.fixture(scope="module")
def room(browser, srv):  # noqa: F811 - the fixture imported above
    return make_room(browser, srv)


def test_a_standard_year_on_the_pages(world, room, shots):  # noqa: F811
    t = world.table("std", "standard", press="grey")
    for seat in t.seats:
        room.sign_in("std", seat, t.passwords[seat])
    d = room.d
    # England types a line wrong: the page answers as it is typed, nothing stored
    room.at("std", "ENGLAND")
    d.find_element(By.NAME, "orders").send_keys("F Lon - Nth\nF Edi - Nwgg")
    wait(d, lambda d: "did you mean" in d.find_element(By.ID, "checked").text)
    assert "NWG" in d.find_element(By.ID, "checked").text
    # and the map is redrawn with what the box holds: the one good move, England's own
    moves = ("return (typed_map().match(/class=\"move-ok\"/g) || []).length;")
    wait(d, lambda d: d.execute_script(TYPED_MAP + moves) == 1)
    # drawn into the same picture, so that its zoom stays
    assert d.find_element(By.CSS_SELECTOR, ".seat-map img").get_attribute("alt") == (
        "Map with the orders in the box as the judge previews them")
    assert "ENGLAND" not in world.store.orders("std", "S1901M")
    said = room.click("button[name=do]", "check")  # the same without script
    assert "Checked, nothing stored" in said and "did you mean" in said
    assert d.execute_script(
        "return document.querySelectorAll('.seat-map .checked-map svg .move-ok').length;") == 1
    assert "ENGLAND" not in world.store.orders("std", "S1901M")
    # press: private to France, grey to everyone; a draw vote
    room.fill("text", "ENGLAND-TO-FRANCE-7713 shall we?")
    d.find_element(By.NAME, "to_FRANCE").click()
    assert "Press delivered to FRANCE" in room.click("form.press-form button")
    room.at("std", "TURKEY")
    room.fill("text", "GREY-RUMOUR-5120 from nobody")
    d.find_element(By.NAME, "all").click()
    d.find_element(By.NAME, "grey").click()
    assert "anonymously" in room.click("form.press-form button")
    assert "DRAW" in room.click("button[name=do]", "draw").upper()
    no_leak_on_map(world, room, "std")
    pages = room.pages("std")
    assert "ENGLAND-TO-FRANCE-7713" in pages["FRANCE"]
    assert "ENGLAND-TO-FRANCE-7713" not in pages["GERMANY"]
    assert "GREY-RUMOUR-5120" in pages["ENGLAND"] and "From Anonymous" in pages["ENGLAND"]

    rng = random.Random(1901)
    shot = []

    def snap(seat: str) -> None:
        if not shot and t.game.phase == "S1901M" and seat == "FRANCE":
            shot.append(seat)
            room.at("std", "FRANCE")
            wait(d, lambda d: d.execute_script(
                "var i = document.querySelector('.seat-map img');"
                "return !!i && i.complete && i.naturalWidth > 0;"))
            d.set_window_size(1360, 1500)
            try:
                d.save_screenshot(str(shots / "web-play-orders.png"))
            finally:
                d.set_window_size(1360, 1000)

    started, picked = time.perf_counter(), room.picked
    phases = play_map_phases(world, room, t, lambda p: p.startswith(("W1901", "S1902")), rng,
                             snap)
    assert t.game.phase == "W1901A"
    room.at("std", t.due()[0])  # the winter: what is legal offered as picks
    [first, *_] = d.find_elements(By.CSS_SELECTOR, "form.picks-form select")
    Select(first).select_by_index(2)  # a build picked (sent below with the others)
    d.save_screenshot(str(shots / "web-play-picks.png"))
    phases += play_map_phases(world, room, t, lambda p: p.startswith("S1902"), rng, snap)
    assert room.picked > picked  # the winter's builds (or removals) sent with the picks
    assert phases >= 3 and t.game.phase.startswith("S1902")
    results = [r["phase"] for r in world.store.results("std")]
    assert results[0] == "S1901M" and any(p.endswith("A") for p in results)
    # every order came from the pages, recorded so
    orders = [c for c in world.store.commands("std") if c["kind"] == "orders"]
    assert orders and all(c["message_id"].startswith("<web-") for c in orders)
    # the others were mailed the results as always
    assert any("S1901M" in m.subject or "Spring 1901" in m.body for m in world.store.all_mail()
               if m.to == t.emails["GERMANY"])
    assert time.perf_counter() - started < 120


def test_a_mobtown_week_cycle_with_its_weekend_on_the_pages(world, room, shots):  # noqa: F811
    t = world.table("mob", "mobtown2")
    for seat in t.seats:
        room.sign_in("mob", seat, t.passwords[seat])
    room.at("mob", t.seats[0])
    # what to send first: the Don's placement (read from the page once it is in)
    wait(room.d, lambda d: "Don starts in" in d.execute_script(
        "return document.querySelector('main').textContent;"))
    rng = random.Random(1919)
    picked = room.picked
    phases = play_map_phases(world, room, t, lambda p: "-W3-" in p, rng)
    assert room.picked - picked >= 6  # every mob's Don placed with the picks, and more
    played = [r["phase"] for r in world.store.results("mob")]
    assert played[0].endswith("START") and any(p.endswith("-A") for p in played), played
    assert phases >= 4
    room.at("mob", t.seats[1])
    room.d.set_window_size(390, 844)  # a phone
    try:
        room.shot(shots / "web-play-phone.png")
        width = room.d.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400  # nothing runs off a phone's screen
    finally:
        room.d.set_window_size(1360, 1000)


def test_typing_after_the_session_ended_says_so_and_keeps_what_was_typed(world, room):
    """Signed out in another tab while the orders box is being typed in: the reading as
    you type says so in its place, with a link to sign in again; the box keeps what was
    typed, and after signing in again from that link it is back in the box, unsent."""
    t = world.table("lapse", "standard")
    room.sign_in("lapse", "FRANCE", t.passwords["FRANCE"])
    room.at("lapse", "FRANCE")
    d = room.d
    box = d.find_element(By.NAME, "orders")
    box.send_keys("A Par - Bur")
    wait(d, lambda d: "1 order(s) read" in d.find_element(By.ID, "checked").text)
    other_tab = room.visitors[("lapse", "FRANCE")]
    signed_out = other_tab.post("/g/lapse/signout", {"csrf": other_tab.csrf(
        other_tab.get("/g/lapse/play").text)})
    assert signed_out.status == 303
    # the map as the browser loads it again (a page from its history): an image that
    # says the session ended, not a broken one
    d.execute_script("var i = new Image(); i.id = 'again'; i.src = 'mine.svg?again';"
                     "document.body.appendChild(i);")
    wait(d, lambda d: d.execute_script(
        "var i = document.getElementById('again'); return i.complete && i.naturalWidth > 0;"))
    d.execute_script("document.getElementById('again').remove();")
    box.send_keys("\nA Mar - Spa")
    wait(d, lambda d: "You are signed out" in d.find_element(By.ID, "checked").text)
    shown = d.find_element(By.ID, "checked").text
    assert "sign in again to send orders" in shown
    assert "What you typed is still in the box; nothing was sent." in shown
    typed = "A Par - Bur\nA Mar - Spa"
    assert box.get_attribute("value") == typed
    d.find_element(By.LINK_TEXT, "Sign in again").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "form.signin"))
    Select(d.find_element(By.NAME, "power")).select_by_value("FRANCE")
    d.find_element(By.NAME, "password").send_keys(t.passwords["FRANCE"])
    d.find_element(By.CSS_SELECTOR, "form.signin button").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "strong.me"))
    assert d.find_element(By.NAME, "orders").get_attribute("value") == typed
    assert "back in the box: not sent yet" in d.find_element(By.CSS_SELECTOR,
                                                             ".restored").text
    wait(d, lambda d: "2 order(s) read" in d.find_element(By.ID, "checked").text)
    assert "FRANCE" not in world.store.orders("lapse", "S1901M")
    # opened once more, the page shows the orders standing again (none): nothing is kept
    d.get(f"{room.base}/g/lapse/play")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "strong.me"))
    assert d.find_element(By.NAME, "orders").get_attribute("value") == ""
    assert not d.find_elements(By.CSS_SELECTOR, ".restored")
    room.here = None


def test_typing_on_a_page_left_open_over_a_deadline_says_the_game_moved_on(world, room):
    """Austria's page of Spring 1901 stays open over the deadline: what is typed then is
    not read against Fall 1901 (nor drawn on its map); the reading says the page was drawn
    for S1901M and the game has moved on, and the page opened again shows the text to
    copy."""
    t = world.table("overdue", "standard")
    room.sign_in("overdue", "AUSTRIA", t.passwords["AUSTRIA"])
    room.at("overdue", "AUSTRIA")
    d = room.d
    box = d.find_element(By.NAME, "orders")
    box.send_keys("A Vie - Gal")
    wait(d, lambda d: "1 order(s) read" in d.find_element(By.ID, "checked").text)
    t.process()
    box.send_keys("\nA Bud - Ser")
    wait(d, lambda d: "moved on" in d.find_element(By.ID, "checked").text)
    shown = d.find_element(By.ID, "checked").text
    assert ("This page was drawn for S1901M, and the game has moved on since to Fall 1901"
            in shown), shown
    assert "order(s) read" not in shown and "nothing was sent" in shown
    assert "Fall 1901" not in d.execute_script(TYPED_MAP + "return typed_map();")
    d.find_element(By.LINK_TEXT, "Open the page again").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".restored"))
    note = d.find_element(By.CSS_SELECTOR, ".restored").text
    assert "What you typed for an earlier phase (not sent, not put back" in note
    assert "A Vie - Gal\nA Bud - Ser" in note and "signed in again" not in note
    assert d.find_element(By.NAME, "orders").get_attribute("value") == ""
    assert "AUSTRIA" not in world.store.orders("overdue", "F1901M")
    room.here = None


def test_two_players_taking_turns_on_one_browser(world, room):
    """France's page open in one tab; in another tab of the same browser the friend signs
    France out and signs in as Germany.  France's page, typed in, says France was signed
    out and sends France to the sign-in form (not to Germany's page); signed in again as
    France, what was typed is back in the box."""
    t = world.table("couch", "standard")
    room.sign_in("couch", "FRANCE", t.passwords["FRANCE"])
    room.at("couch", "FRANCE")
    d = room.d
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    try:
        d.get(f"{room.base}/g/couch/play")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "form.signout button"))[0].click()
        wait(d, lambda d: d.find_elements(By.LINK_TEXT, "Play: sign in as your power"))
        d.get(f"{room.base}/g/couch/play")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "form.signin"))
        Select(d.find_element(By.NAME, "power")).select_by_value("GERMANY")
        d.find_element(By.NAME, "password").send_keys(t.passwords["GERMANY"])
        d.find_element(By.CSS_SELECTOR, "form.signin button").click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "strong.me"))
        assert d.find_element(By.CSS_SELECTOR, "strong.me").text == "Germany"
    finally:
        d.switch_to.window(first)
    box = d.find_element(By.NAME, "orders")
    box.send_keys("A Par - Bur")
    wait(d, lambda d: "signed out" in d.find_element(By.ID, "checked").text)
    shown = d.find_element(By.ID, "checked").text
    assert shown.startswith("You are signed out as France: another power was signed in on "
                            "this browser"), shown
    assert "earlier sign-in" not in shown
    d.find_element(By.LINK_TEXT, "Sign in again").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "form.signin"))
    assert "A Par - Bur" not in d.page_source and "Signed in as" not in d.page_source
    Select(d.find_element(By.NAME, "power")).select_by_value("FRANCE")
    d.find_element(By.NAME, "password").send_keys(t.passwords["FRANCE"])
    d.find_element(By.CSS_SELECTOR, "form.signin button").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "strong.me"))
    assert d.find_element(By.CSS_SELECTOR, "strong.me").text == "France"
    assert d.find_element(By.NAME, "orders").get_attribute("value") == "A Par - Bur"
    assert "back in the box: not sent yet" in d.find_element(By.CSS_SELECTOR,
                                                             ".restored").text
    assert "FRANCE" not in world.store.orders("couch", "S1901M")
    for handle in d.window_handles:  # the other tab, Germany's, closed
        if handle != first:
            d.switch_to.window(handle)
            d.close()
    d.switch_to.window(first)
    room.here = None


def test_from_the_keyboard_the_page_opens_on_the_judges_answer(world, room):
    """Keyboard only: Enter on *Send press* with no reader ticked, then on *Send orders*:
    each time the page opens with the judge's answer focused (a screen reader reads it at
    once; the keyboard goes on from there), and the letter refused is still in its box."""
    t = world.table("keys", "standard")
    room.sign_in("keys", "GERMANY", t.passwords["GERMANY"])
    room.at("keys", "GERMANY")
    d = room.d

    def enter(css: str) -> None:
        old = d.find_element(By.TAG_NAME, "main")
        d.find_element(By.CSS_SELECTOR, css).send_keys(Keys.ENTER)
        wait(d, lambda d: _stale(old))
        wait(d, page_loaded)

    d.find_element(By.ID, "press-text").send_keys("hello nobody")
    enter("form.press-form button")
    focused = d.switch_to.active_element
    assert focused.tag_name == "pre" and "press needs a text" in focused.text
    assert d.find_element(By.ID, "press-text").get_attribute("value") == "hello nobody"
    d.find_element(By.NAME, "orders").send_keys("A Ber - Kie\nA Mun - Ruh")
    enter("button[name=do][value=orders]")
    assert "Orders for GERMANY" in d.switch_to.active_element.text
    room.here = ("keys", "GERMANY")


SMALL_TARGETS = """
return Array.from(document.querySelectorAll(
    'main button, main select, main input:not([type=hidden]), main textarea'))
  .map(function (e) { var r = e.getBoundingClientRect();
    return [e.name || e.textContent.trim(), Math.round(r.width), Math.round(r.height)]; })
  .filter(function (t) { return t[1] > 0 && (t[1] < 24 || t[2] < 24); });
"""


def test_on_a_phone_every_control_of_the_seats_page_is_big_enough_to_tap(world, room):
    """A phone's screen (375 px wide): every button, list, check box and box of a seat's
    page is at least 24 x 24 CSS pixels (Concede to, the press readers, and READY were
    smaller)."""
    t = world.table("thumbs", "standard", press="grey")
    room.sign_in("thumbs", "ITALY", t.passwords["ITALY"])
    room.at("thumbs", "ITALY")
    d = room.d
    d.set_window_size(375, 812)
    try:
        d.get(f"{room.base}/g/thumbs/play")
        wait(d, page_loaded)
        assert d.execute_script(SMALL_TARGETS) == []
        assert len(d.find_elements(By.CSS_SELECTOR, "main input[type=checkbox]")) >= 8
        # the map zooms as the public page's does: the same buttons, and the picture alone
        zoom_in = d.find_element(By.CSS_SELECTOR, ".seat-map button[data-zoom=in]")
        assert zoom_in.is_displayed() and "pinch" in d.find_element(
            By.CSS_SELECTOR, ".seat-map .map-tools").text
        alone = d.find_element(By.LINK_TEXT, "Open the map of your orders standing alone")
        assert alone.get_attribute("href").endswith("/g/thumbs/mine.svg")
        zoom_in.click()
        zoom_in.click()
        zoomed = "return Number(document.querySelector('figure.seat-map').dataset.zoom);"
        assert d.execute_script(zoomed) > 2
        # the orders typed are drawn into the same map, still zoomed
        room.fill("orders", "A Ven - Tyr\nA Rom - Apu")
        wait(d, lambda d: "Apu" in d.execute_script(TYPED_MAP + "return typed_map();"))
        assert d.execute_script(zoomed) > 2
        # sent, the page opens on them: the map is theirs as standing, not drawn again
        room.click("button[name=do]", "orders")
        wait(d, lambda d: "order(s) read" in d.find_element(By.ID, "checked").text)
        assert d.find_element(By.CSS_SELECTOR, ".seat-map img").get_attribute(
            "src").endswith("/g/thumbs/mine.svg")
    finally:
        d.set_window_size(1360, 1000)
        room.here = None


def test_on_a_phone_a_card_seats_view_keeps_each_card_on_one_line(world, room):
    """Micro Mob on a phone: each card of the draft pool and of the hands stays on its own
    line with its values (the box scrolls sideways if it must; the page does not), while
    the long lines of prose still wrap; the text is the view's, as the mail gives it."""
    t = world.table("mm", "micromob", seats=["P1", "P2"], seed=5)
    room.sign_in("mm", "P1", t.passwords["P1"])
    room.at("mm", "P1")
    d = room.d
    d.set_window_size(375, 812)
    try:
        d.get(f"{room.base}/g/mm/play")
        wait(d, page_loaded)
        rows = d.execute_script(
            "return Array.from(document.querySelectorAll('pre.view .row'),"
            " function (r) { return [r.textContent, r.getClientRects().length]; });")
        assert len(rows) >= 4 and all("hit" in text for text, _ in rows), rows
        assert all(lines == 1 for _, lines in rows), rows
        seed = d.execute_script(
            "var p = document.querySelector('pre.view'); var r = document.createRange();"
            "var n = Array.from(p.childNodes).pop(); r.selectNodeContents(n);"
            "return r.getClientRects().length;")
        assert seed > 1  # the seed's line of prose wraps
        assert d.execute_script("return document.documentElement.scrollWidth") <= 375
        g = t.game
        view = host_for(g.kind).status(g.started_state, "P1")
        assert d.find_element(By.CSS_SELECTOR, "pre.view").get_attribute("textContent") == view
        # each move's button is heard with its card, as the view above shows it
        buttons = d.find_elements(By.CSS_SELECTOR, "form.legal button")
        assert len(buttons) == len(rows)
        for button, (row, _) in zip(buttons, rows, strict=True):
            code, name, values = re.split(r"\s{2,}|(?<=\d) ", row.strip(), maxsplit=2)
            assert button.text == f"draft {code}"
            assert button.accessible_name == f"draft {code}, {name}, {values}", (
                button.accessible_name, row)
    finally:
        d.set_window_size(1360, 1000)
        room.here = None
