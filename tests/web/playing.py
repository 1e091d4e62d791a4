"""What the browser tests of playing on the pages share: a judge with games made to be
played from the seats' pages, one Chromium whose cookies are swapped as the seat at the
keyboard changes (each seat signed in through the form, with its own session), and the
checks that no seat's page shows anything of another seat."""

from __future__ import annotations

import html
import random

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mobadj.judge import Judge, Store, WebPlay, host_for
from mobadj.judge.config import config_from_data
from mobadj.web.cardview import replay
from mobadj.web.demo import Table, board_orders
from mobadj.web.pages import Site

from .helpers import Visitor

START = 1_800_000_000.0


class World:
    def __init__(self, path) -> None:
        self.now = START
        config = config_from_data({"judge": {
            "name": "Browser Judge", "address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(config.db_path)
        self.judge = Judge(self.store, config, clock=lambda: self.now, kdf_n=2**10)
        self.tables: dict[str, Table] = {}
        self.play = WebPlay(self.judge)
        self.readonly = Store(config.db_path, readonly=True)
        self.site = Site(self.readonly, "Browser Judge", clock=lambda: self.now)

    def close(self) -> None:
        self.readonly.close()
        self.store.close()

    def table(self, name: str, kind: str, **kw) -> Table:
        self.tables[name] = Table(self.judge, name, kind, **kw)
        return self.tables[name]


def wait(driver, condition, timeout: float = 30):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d))


class Room:
    """The browser, and the cookies of every seat signed in: ``at(game, seat)`` puts that
    seat at the keyboard (its own session cookie, nobody else's)."""

    def __init__(self, driver, base: str) -> None:
        self.d, self.base = driver, base
        self.jars: dict[tuple[str, str], list[dict]] = {}
        self.visitors: dict[tuple[str, str], Visitor] = {}
        self.actions = 0
        self.picked = 0  # retreats, adjustments and Don placements sent with the picks
        self.here: tuple[str, str] | None = None  # the seat whose page is open

    def _cookies(self, jar: list[dict]) -> None:
        self.d.execute_cdp_cmd("Network.clearBrowserCookies", {})
        if jar:
            keep = ("name", "value", "domain", "path", "httpOnly", "secure", "sameSite",
                    "expires")
            self.d.execute_cdp_cmd("Network.setCookies", {"cookies": [
                {k: c[k] for k in keep if k in c} for c in jar]})

    def sign_in(self, game: str, seat: str, password: str) -> None:
        d = self.d
        self._cookies([])
        self.here = None
        d.get(f"{self.base}/g/{game}/")
        # each step waits for its page: on a busy machine a load may end after get returns
        wait(d, lambda d: d.find_elements(By.LINK_TEXT, "Play: sign in as your power"))[0].click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "form.signin"))
        Select(d.find_element(By.NAME, "power")).select_by_value(seat)
        d.find_element(By.NAME, "password").send_keys(password)
        d.find_element(By.CSS_SELECTOR, "form.signin button").click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "strong.me"))
        jar = d.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
        self.jars[(game, seat)] = jar
        visitor = Visitor(self.base)
        visitor.jar = {c["name"]: c["value"] for c in jar}
        self.visitors[(game, seat)] = visitor

    def at(self, game: str, seat: str) -> None:
        if self.here == (game, seat):
            return  # its page is open, as the last action left it
        self._cookies(self.jars[(game, seat)])
        self.d.get(f"{self.base}/g/{game}/play")
        wait(self.d, page_loaded)  # (on a busy machine a load may end after get returns)
        self.here = (game, seat)

    def shot(self, path) -> None:
        """A picture of the page as it stands, once it has loaded whole (a screenshot
        started while the page still navigates is aborted: it is taken again)."""
        for attempt in range(3):
            wait(self.d, page_loaded)
            try:
                self.d.save_screenshot(str(path))
                return
            except WebDriverException:
                if attempt == 2:
                    raise

    def said(self) -> str:
        found = self.d.find_elements(By.CSS_SELECTOR, "pre.said")
        return found[0].text if found else ""

    def click(self, css: str, value: str | None = None) -> str:
        """Press a button (by its value), wait for the next page; the judge's answer."""
        d = self.d
        old = d.find_element(By.TAG_NAME, "main")
        button = d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]))"
            ".find(b => arguments[1] === null || b.value === arguments[1]) || null;",
            css, value)
        assert button is not None, f"no button {css} {value!r} on the page"
        button.click()
        wait(d, lambda d: _stale(old))
        wait(d, page_loaded)  # (the old page is gone as soon as the new one starts to load)
        self.actions += 1
        return self.said()

    def fill(self, name: str, text: str) -> None:
        """A text box filled as by a paste (then an input event, as typing gives)."""
        self.d.execute_script(
            "var e = document.querySelector('textarea[name=' + arguments[0] + ']');"
            "e.value = arguments[1];"
            "e.dispatchEvent(new Event('input'));", name, text)

    def pages(self, game: str) -> dict[str, str]:
        """Every signed-in seat's page of ``game``, read with its own session."""
        out = {}
        for (g, seat), v in self.visitors.items():
            if g == game:
                page = v.get(f"/g/{game}/play")
                assert page.status == 200 and "Signed in as" in page.text, (seat, page.text)
                assert page.headers["Cache-Control"] == "private, no-store"
                out[seat] = html.unescape(page.text)
        return out


def page_loaded(driver) -> bool:
    """The page has loaded whole: anything done to a page still loading (a screenshot, a
    search) is aborted by its navigation."""
    try:
        return driver.execute_script("return document.readyState") == "complete"
    except Exception:  # noqa: BLE001 - a script run while the page navigates: not yet
        return False


def _stale(element) -> bool:
    try:
        element.is_enabled()
        return False
    except Exception:  # noqa: BLE001 - StaleElementReferenceException: the page is new
        return True


def make_room(browser, srv) -> Room:
    return Room(browser, srv.url)


# -- what no seat may see of another --------------------------------------------------------
def no_leak_on_map(world: World, room: Room, name: str) -> None:
    g = world.store.game(name)
    host = host_for(g.kind)
    secret = world.store.orders(name, host.phase(g.state)) if g.state else {}
    pages = room.pages(name) | {None: html.unescape(Visitor(room.base).get(f"/g/{name}/").text)}
    labels = {s: n[0] for s, n in host.seat_names(g.options).items() if n}
    for seat, page in pages.items():
        upper = page.upper()
        for other, text in secret.items():
            if other == seat:
                continue
            for line in text.splitlines():
                if len(line.split()) >= 3:
                    assert line.upper() not in upper, (seat, other, line)
        for p in world.store.press(name):
            mine = seat in (p["sender"], *p["recipients"]) or p["broadcast"]
            if not mine:
                assert p["text"] not in page, (seat, p)
            elif p["grey"] and p["sender"] != seat:
                assert f"From {labels.get(p['sender'], p['sender'])} to" not in page


def no_leak_in_cards(world: World, room: Room, name: str) -> None:
    g = world.store.game(name)
    game = replay(g.kind, g.state)
    for seat, page in room.pages(name).items():
        player = int(seat[1:]) - 1
        seen = {e.text for e in game.events if e.visible(player)}
        hidden = {e.text for e in game.events if not e.visible(player)} - seen
        for text in hidden:
            assert text not in page, (seat, text)




def pick_orders(room: Room, rng: random.Random) -> str:
    """A retreat, adjustment or Don placement sent with the page's picks: each pick set to
    a random line offered that no other pick took (a unit, a centre once), with READY."""
    def where(line: str) -> str:  # a build's centre; a retreat's or removal's unit
        return line.split()[-1].split("/")[0] if line.startswith("Build") else line

    taken: set[str] = set()
    for element in room.d.find_elements(By.CSS_SELECTOR, "form.picks-form select"):
        pick = Select(element)
        lines = [str(o.get_attribute("value")) for o in pick.options]
        free = [v for v in lines if v and (v == "WAIVE" or where(v) not in taken)]
        assert free, lines
        chosen = rng.choice(free)
        taken.add(where(chosen))
        pick.select_by_value(chosen)
    room.d.find_element(By.CSS_SELECTOR, "form.picks-form input[name=ready]").click()
    room.picked += 1
    return room.click("button[name=do]", "picks")


def play_map_phases(world: World, room: Room, t: Table, until, rng: random.Random,
                    extra=None) -> int:
    """Every due seat sends its orders with READY from its page until ``until(phase)``;
    returns the phases played."""
    played = 0
    while not until(t.game.phase):
        phase = t.game.phase
        for seat in t.due():
            room.at(t.name, seat)
            if room.d.find_elements(By.CSS_SELECTOR, "form.picks-form"):
                said = pick_orders(room, rng)  # what is legal, offered: picked
            else:
                orders = board_orders(t.kind, t.game.started_state, seat, rng)
                room.fill("orders", orders)
                room.d.find_element(By.CSS_SELECTOR, "form.orders-form input[name=ready]"
                                    ).click()
                said = room.click("button[name=do]", "orders")
            assert "Orders for" in said or t.game.phase != phase, said
            if extra:
                extra(seat)
            no_leak_on_map(world, room, t.name)
        assert t.game.phase != phase, "every seat READY ends the phase at once"
        played += 1
    return played

