"""The pages in a real headless browser (Debian's Chromium through Selenium and
chromedriver): the index, a game stepped through with the buttons, the arrow keys and the
slider, a private game's refusal, a phone-sized screen.  One browser for the module.

Screenshots go to a temporary folder, or to ``$MOBADJ_SCREENSHOTS`` (``make screenshots``
writes the ones docs/ uses into docs/img)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait

from .helpers import PageServer
from .playing import page_loaded

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--hide-scrollbars", "--disable-dev-shm-usage")


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists() and Path(DRIVER).exists(), (
        "Chromium and chromedriver are needed (apt-get install chromium chromium-driver; "
        ".ci/run installs them)")
    profile = tempfile.mkdtemp(prefix="mobadj-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(1360, 1000)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def srv(world):
    with PageServer(world.site) as s:
        yield s


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ.get("MOBADJ_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def source(driver) -> str:
    """The page's HTML, once the page has been read to its end.  ``get`` can return while
    Chromium is still parsing a long page (the DOM then ends where the parser is, every open
    element closed), and chromedriver at times answers an empty page, a head and a bare body,
    for a moment after a page has loaded: it is asked again until both are past."""
    def filled(d) -> str | bool:
        if not page_loaded(d):
            return False
        try:
            html = d.page_source
        except WebDriverException:  # asked while the page navigates: not yet
            return False
        return html if re.search(r"<body[^>]*>\s*<", html) else False

    return WebDriverWait(driver, 15).until(filled)


def wait(driver, condition, timeout: float = 15):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


# Read in one script each: the page swaps its <main> while stepping, so a found element may
# be gone a moment later.
def title(driver) -> str:
    return driver.execute_script(
        "var h = document.querySelector('h2.step-title'); return h ? h.textContent : '';")


def map_src(driver) -> str:
    return driver.execute_script(
        "var i = document.querySelector('figure.map img'); return i ? i.src : '';")


def map_loaded(driver) -> bool:
    return driver.execute_script(
        "var i = document.querySelector('figure.map img');"
        "return !!i && i.complete && i.naturalWidth > 0;")


def orders(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('span.order'), e => e.textContent);")


def test_index_to_game_and_step_through_phases(browser, srv, world, shots):
    d = browser
    d.get(srv.url + "/")
    assert "Games on Test Judge" in d.find_element(By.TAG_NAME, "h1").text
    wait(d, lambda d: "left)" in d.find_element(By.CSS_SELECTOR, "time.countdown").text)
    d.save_screenshot(str(shots / "web-index.png"))
    # a finished game: its result and each seat's final score, the winner marked
    ended = d.find_element(By.CSS_SELECTOR, "#game-cards").text
    assert re.search(r"Winners?: P\d", ended) and "points, winner" in ended  # (a tie: Winners)
    assert "nothing due" not in ended
    # the favicon the page names is there (no 404 on a first visit)
    icon = d.execute_async_script(
        "var done = arguments[0], link = document.querySelector('link[rel=icon]');"
        "fetch(link.href).then(r => done([r.status, r.headers.get('content-type')]));")
    assert icon == [200, "image/svg+xml"]
    d.find_element(By.LINK_TEXT, "dip").click()
    wait(d, title)
    steps = world.site.steps("dip")
    n = len(steps)
    assert f"{n} / {n}" in title(d) and orders(d) == []  # the current phase: orders secret
    wait(d, map_loaded)
    now_map = map_src(d)
    assert not d.find_element(By.CSS_SELECTOR, "label.slider").get_attribute("hidden")

    d.find_element(By.CSS_SELECTOR, "a.prev").click()  # the button
    wait(d, lambda d: f"{n - 1} / {n}" in title(d))
    assert d.current_url.endswith(f"/g/dip/{steps[-2]}.html")
    wait(d, map_loaded)
    assert map_src(d) != now_map and orders(d)
    before = (map_src(d), orders(d))

    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)  # the keyboard
    wait(d, lambda d: f"{n - 2} / {n}" in title(d))
    wait(d, map_loaded)
    assert (map_src(d), orders(d)) != before and orders(d)

    d.execute_script("var s = document.querySelector('input[type=range]'); s.value = 0;"
                     "s.dispatchEvent(new Event('change'));")  # the slider
    wait(d, lambda d: f"1 / {n}" in title(d))
    assert d.current_url.endswith(f"/g/dip/{steps[0]}.html")
    wait(d, map_loaded)
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(d, lambda d: f"2 / {n}" in title(d))
    d.back()
    wait(d, lambda d: f"1 / {n}" in title(d))
    wait(d, map_loaded)
    d.save_screenshot(str(shots / "web-game.png"))


def test_the_neighbours_maps_are_fetched_after_the_pages_own(browser, srv, world):
    """Stepping is quick because the next and previous maps are in the cache, and they are
    asked for only once the page has its own map (they must not slow it down)."""
    d = browser
    steps = world.site.steps("dip")
    middle = steps[len(steps) // 2]
    d.get(f"{srv.url}/g/dip/{middle}.html")
    wait(d, map_loaded)
    entries = lambda d: d.execute_script(  # noqa: E731
        "var t = performance.getEntriesByType('navigation')[0].loadEventStart;"
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.name.indexOf('/map/') >= 0)"
        ".map(e => [e.name.split('/map/')[1], e.startTime, e.responseEnd, t]);")
    wait(d, lambda d: len(entries(d)) == 3)
    own, *ahead = entries(d)
    assert own[0] == f"{middle}.svg"
    assert {a[0] for a in ahead} == {f"{s}.svg" for s in steps[len(steps) // 2 - 1:
                                                                len(steps) // 2 + 2:2]}
    assert all(a[1] >= own[2] and a[1] >= a[3] for a in ahead)  # after its map, at the load event
    # the map comes gzipped (compressed once on the server, unpacked by the browser): asked
    # for past the browser's cache
    sizes = d.execute_async_script(
        "var done = arguments[1], url = new URL('map/' + arguments[0] + '.svg?again', "
        "location.href).href;"
        "function look(n) { var e = performance.getEntriesByName(url)[0];"
        " if (e) done([e.encodedBodySize, e.decodedBodySize]);"
        " else if (n) setTimeout(look, 50, n - 1); else done(null); }"
        "fetch(url, {cache: 'no-store'}).then(r => r.text()).then(() => look(40),"
        " e => done(String(e)));", middle)
    assert 0 < sizes[0] < sizes[1] / 4, sizes


def test_the_adjustment_map_shows_the_builds_where_they_are_made(browser, srv, world):
    d = browser
    story = world.site.story(world.store.game("dip"))
    step = next(s for s in story.steps if s.adjustment and s.orders)
    built = sorted(o.order.split()[-1] for o in step.orders
                   if o.order.startswith("Build ") and o.result == "succeeds")
    d.get(f"{srv.url}/g/dip/{step.id}.html")
    assert "a unit built is ringed in green with a plus" in source(d)
    d.get(f"{srv.url}/g/dip/map/{step.id}.svg")  # the picture itself, as Chromium draws it
    marks = d.execute_script("""
        return Array.from(document.querySelectorAll('g.build'), g => {
          var b = g.getBBox(), space = document.getElementById('space-' + g.dataset.space);
          var s = space.getBBox();
          var x = b.x + b.width / 2, y = b.y + b.height / 2;
          return [g.dataset.space, s.x <= x && x <= s.x + s.width && s.y <= y &&
                  y <= s.y + s.height];
        });""")
    assert sorted(m[0] for m in marks) == built and all(m[1] for m in marks), marks


def test_mobtown_and_card_pages(browser, srv, shots):
    d = browser
    d.get(srv.url + "/g/mob/")
    wait(d, map_loaded)
    assert "Dons and the gaol" in source(d)
    d.save_screenshot(str(shots / "web-mobtown.png"))
    d.get(srv.url + "/g/cards/")
    assert "Final scores" in source(d) and "The seed matches" in source(d)
    d.save_screenshot(str(shots / "web-cards.png"))


def test_private_game_refuses_a_missing_or_wrong_key(browser, srv):
    d = browser
    d.get(srv.url + "/g/secret/")
    assert "There is no public game called secret" in source(d) and not orders(d)
    d.get(srv.url + "/g/secret/?key=wrong-key")
    assert "That key opens no game called secret" in source(d)
    form = d.find_element(By.NAME, "key")
    form.send_keys("also-wrong" + Keys.ENTER)
    # the page before said so too: wait for the answer to the form, which replaces it (else
    # that answer may land after the next page was asked for)
    WebDriverWait(d, 15).until(staleness_of(form))
    wait(d, lambda d: "That key opens no game" in source(d))
    d.get(srv.url + "/g/secret/?key=the-right-key-123")
    wait(d, title)
    assert "key=" not in d.current_url and "the-right-key" not in source(d)
    d.get(srv.url + "/g/secret/S1901M.html")  # the cookie opens the other pages
    wait(d, map_loaded)
    assert orders(d)


def test_a_private_game_under_another_spelling_opens_only_at_its_own_address(browser, srv):
    d = browser
    d.delete_all_cookies()
    d.get(srv.url + "/g/SECRET/S1901M.html")
    assert "There is no public game called SECRET" in source(d) and not orders(d)
    # the key given at another spelling: the page takes it on to the game's own key box
    d.get(srv.url + "/g/Secret/S1901M.html?key=the-right-key-123")
    wait(d, lambda d: d.current_url.endswith("/g/secret/S1901M.html") and orders(d))
    assert "key=" not in d.current_url
    assert [c["name"] for c in d.get_cookies()] == ["mobadj_key_secret"]
    # the browser sends the cookie only to the game's own folder: at another spelling the
    # key box is offered, and the key typed there leads to the game's own address
    d.get(srv.url + "/g/SeCrEt/")
    assert "There is no public game called SeCrEt" in source(d)
    d.find_element(By.NAME, "key").send_keys("the-right-key-123" + Keys.ENTER)
    wait(d, lambda d: d.current_url.endswith("/g/secret/") and title(d))


def test_every_power_shows_on_the_chart_where_all_have_the_same_count(browser, srv, world,
                                                                       shots):
    """Spring 1901: six powers at 3 centres.  Along each power's line some of it is on top
    (its own stroke is what a pointer there touches), and its name ends it."""
    d = browser
    d.get(srv.url + "/g/dip/S1901M.html")
    seen = d.execute_script("""
        var out = {};
        document.querySelectorAll('svg.chart g.power').forEach(function (g) {
          var line = g.querySelector('polyline'), total = line.getTotalLength(), m =
              line.getScreenCTM(), hits = 0;
          g.scrollIntoView({block: 'center'});
          m = line.getScreenCTM();
          for (var f = 0.01; f < 1; f += 0.0137) {  // not in step with any dash
            var p = line.getPointAtLength(total * f).matrixTransform(m);
            var el = document.elementFromPoint(p.x, p.y);
            if (el && el.closest('g.power') === g) hits++;
          }
          out[g.dataset.power] = hits;
        });
        return out;""")
    powers = [p.id for p in world.site.story(world.store.game("dip")).powers]
    assert sorted(seen) == sorted(powers) and all(n >= 5 for n in seen.values()), seen
    ends = d.execute_script(
        "return Array.from(document.querySelectorAll('svg.chart text.end'), t => "
        "[t.textContent, getComputedStyle(t).fill, t.getBoundingClientRect().right]);")
    chart_right = d.execute_script(
        "return document.querySelector('svg.chart').getBoundingClientRect().right;")
    assert all(right <= chart_right + 0.5 for _, _, right in ends)  # no name cut off
    assert len({fill for _, fill, _ in ends}) == len(powers)
    d.find_element(By.CSS_SELECTOR, "section.chart").screenshot(str(shots / "web-chart.png"))


def zoom(driver) -> float:
    return float(driver.execute_script(
        "return document.querySelector('figure.map').dataset.zoom || 0;"))


def frame_state(driver) -> dict:
    return driver.execute_script(
        "var f = document.querySelector('.map-view'), i = f.querySelector('img');"
        "return {left: f.scrollLeft, top: f.scrollTop, width: f.clientWidth,"
        " img: i.getBoundingClientRect().width, focused: document.activeElement === f,"
        " step: document.querySelector('h2.step-title').textContent};")


def test_the_map_zooms_and_pans_by_buttons_keys_wheel_and_mouse(browser, srv, world):
    d = browser
    steps = world.site.steps("dip")
    d.get(f"{srv.url}/g/dip/{steps[1]}.html")
    wait(d, map_loaded)
    assert zoom(d) == 1
    frame = d.find_element(By.CSS_SELECTOR, ".map-view")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'});", frame)
    # the buttons
    d.find_element(By.CSS_SELECTOR, "button[data-zoom=in]").click()
    assert zoom(d) == pytest.approx(1.5, abs=0.01)
    state = frame_state(d)
    assert state["img"] == pytest.approx(1.5 * state["width"], rel=0.02)
    d.find_element(By.CSS_SELECTOR, "button[data-zoom=fit]").click()
    assert zoom(d) == 1
    # the keyboard, on the focused map: + and -, arrows move the zoomed map, not the phase
    frame.send_keys("+")
    frame.send_keys("+")
    assert zoom(d) == pytest.approx(2.25, abs=0.01) and frame_state(d)["focused"]
    before = frame_state(d)
    frame.send_keys(Keys.ARROW_RIGHT)
    after = frame_state(d)
    assert after["left"] > before["left"] and after["step"] == before["step"]
    frame.send_keys("-")
    assert zoom(d) == pytest.approx(1.5, abs=0.01)
    frame.send_keys("0")
    assert zoom(d) == 1
    # Ctrl + wheel (and a trackpad's pinch), a real wheel event at the map's middle
    box = d.execute_script("var r = arguments[0].getBoundingClientRect();"
                           "return [r.left + r.width / 2, r.top + r.height / 2];", frame)
    d.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": "mouseWheel", "x": box[0], "y": box[1], "deltaX": 0, "deltaY": -100,
        "modifiers": 2})
    wait(d, lambda d: zoom(d) > 1.5)
    # the mouse: drag a zoomed map to move it; double click zooms in where it is
    before = frame_state(d)
    ActionChains(d).move_to_element(frame).click_and_hold().move_by_offset(-120, -60) \
        .release().perform()
    after = frame_state(d)
    assert after["left"] - before["left"] == pytest.approx(120, abs=3)
    assert after["top"] - before["top"] == pytest.approx(60, abs=3)
    z = zoom(d)
    ActionChains(d).double_click(frame).perform()
    assert zoom(d) == pytest.approx(min(2 * z, 1824 * 1.5 / after["width"]), rel=0.01)


def test_stepping_keeps_the_maps_zoom_focus_and_says_the_new_phase(browser, srv, world):
    d = browser
    steps = world.site.steps("dip")
    d.get(f"{srv.url}/g/dip/{steps[1]}.html")
    wait(d, map_loaded)
    d.find_element(By.CSS_SELECTOR, "button[data-zoom=in]").click()
    d.find_element(By.CSS_SELECTOR, "button[data-zoom=in]").click()
    d.find_element(By.CSS_SELECTOR, "a.next").click()
    n = len(steps)
    wait(d, lambda d: f"3 / {n}" in title(d))
    assert zoom(d) == pytest.approx(2.25, abs=0.01)  # the next map as this one was seen
    said = d.execute_script("return document.getElementById('announce').textContent;")
    label = world.site.story(world.store.game("dip")).steps[2].label
    assert said == f"{label}, phase 3 of {n}"
    assert d.execute_script("return document.activeElement.matches('nav.steps a.next');")
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)  # not on a control
    wait(d, lambda d: f"2 / {n}" in title(d))
    assert d.execute_script("return document.activeElement.matches('h2.step-title');")
    # on the map at its whole size, the arrows step through phases and leave focus there
    d.find_element(By.CSS_SELECTOR, "button[data-zoom=fit]").click()
    d.find_element(By.CSS_SELECTOR, ".map-view").send_keys(Keys.ARROW_RIGHT)
    wait(d, lambda d: f"3 / {n}" in title(d))
    assert d.execute_script("return document.activeElement.matches('.map-view');")


def test_pinch_zooms_the_map_on_a_phone_until_its_names_read(browser, srv, world, shots):
    d = browser
    d.set_window_size(390, 844)
    try:
        d.get(f"{srv.url}/g/dip/{world.site.steps('dip')[1]}.html")
        wait(d, map_loaded)
        frame = d.find_element(By.CSS_SELECTOR, ".map-view")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'});", frame)
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                          {"enabled": True, "maxTouchPoints": 5})
        x, y = d.execute_script("var r = arguments[0].getBoundingClientRect();"
                                "return [r.left + r.width / 2, r.top + r.height / 2];", frame)

        def touch(kind: str, spread: float) -> None:
            points = [] if kind == "touchEnd" else [
                {"x": x - spread, "y": y, "id": 0}, {"x": x + spread, "y": y, "id": 1}]
            d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind,
                                                           "touchPoints": points})

        touch("touchStart", 30)
        for spread in (45, 60, 75, 90):
            touch("touchMove", spread)
        touch("touchEnd", 0)
        assert zoom(d) == pytest.approx(3, rel=0.05)  # the fingers three times as far apart
        assert d.execute_script("return window.visualViewport.scale;") == 1  # not the page
        d.save_screenshot(str(shots / "web-phone-map.png"))
        while d.execute_script("return !document.querySelector('[data-zoom=in]').disabled;"):
            d.find_element(By.CSS_SELECTOR, "button[data-zoom=in]").click()
        scale = frame_state(d)["img"] / 1824  # the picture's own width
        # the smallest writing on the map (8 px) reads at 12 px, province names (11 px) at 16
        assert 8 * scale >= 11.9
        assert d.execute_script("return document.documentElement.scrollWidth") <= 391
    finally:
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        d.set_window_size(1360, 1000)


def test_a_card_game_on_a_phone_is_one_column_with_its_seed_check_wrapped(browser, srv, world,
                                                                          shots):
    d = browser
    d.set_window_size(390, 844)
    try:
        d.get(srv.url + "/g/cards/")
        source(d)
        width = d.execute_script("return window.innerWidth;")
        assert d.execute_script("return document.documentElement.scrollWidth;") <= width
        table, log = d.execute_script(
            "return ['section.public-table', 'section.side'].map(s => {"
            " var r = document.querySelector(s).getBoundingClientRect();"
            " return [r.left, r.top, r.bottom, r.width]; });")
        assert log[1] >= table[2] - 1 and table[3] > 0.8 * width  # one above the other
        assert d.execute_script("return document.querySelectorAll('.card-table table').length;")
        d.save_screenshot(str(shots / "web-phone-cards.png"))
        codes = d.execute_script(
            "return Array.from(document.querySelectorAll('section.seed code.copy'), c => "
            "[c.textContent, c.getBoundingClientRect().right]);")
        seed = str(world.store.game("cards").state["seed"])
        assert seed in [c[0] for c in codes] and len(codes) >= 3
        assert all(right <= width for _, right in codes)  # wrapped, not off the screen
        d.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": srv.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        d.find_element(By.CSS_SELECTOR, "section.seed button.copy").click()
        wait(d, lambda d: d.execute_script(
            "return document.querySelector('section.seed button.copy').textContent;") != "Copy")
        copied = d.execute_async_script(
            "var done = arguments[0]; navigator.clipboard.readText().then(done, "
            "function () { done(String(window.getSelection())); });")
        assert copied == seed
    finally:
        d.set_window_size(1360, 1000)


def test_phone_screen(browser, srv, shots):
    d = browser
    d.set_window_size(390, 844)
    try:
        d.get(srv.url + "/g/dip/")
        wait(d, map_loaded)
        width = d.execute_script("return [document.documentElement.scrollWidth, "
                                 "window.innerWidth];")
        assert width[0] <= width[1] + 1  # nothing wider than the screen
        img = d.find_element(By.CSS_SELECTOR, "figure.map img").size["width"]
        assert 300 < img <= width[1]
        d.save_screenshot(str(shots / "web-phone.png"))
        d.get(srv.url + "/")
        assert d.execute_script("return document.documentElement.scrollWidth") <= width[1] + 1
    finally:
        d.set_window_size(1360, 1000)
