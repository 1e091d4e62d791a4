"""A private game under any spelling of its name, over real HTTP: two servers, one on a
judge's store with a private game and one on a copy of that store without it, must answer
every spelling, address and key byte for byte alike (status, headers, body) and in the same
time.  The one name (as the judge stored it) is the only way in with the key; redirects
carry no key and are kept by no cache; a request sent too slowly is cut off."""

from __future__ import annotations

import random
import socket
import sqlite3
import statistics
import time

import pytest

from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.store import Store
from mobadj.web.app import create_app
from mobadj.web.demo import Table, play_board
from mobadj.web.pages import Site

from .helpers import InProcess, PageServer, fetch, raw_answer

NAME = "whisky26"
KEY = "key-of-whisky-0815"
NOW = 1_800_000_000.0

#: the private game's name as an address may spell it: case, percent-encoding, Unicode
#: look-alikes (the Kelvin sign even lower-cases to a k), and parts around it
SPELLINGS = [
    "whisky26", "Whisky26", "WHISKY26", "wHiSkY26", "%77hisky26", "%57%48ISKY26",
    "whis%E2%84%AAy26",  # KELVIN SIGN
    "whi%C5%BFky26",  # LATIN SMALL LETTER LONG S
    "whi%D1%95ky26",  # CYRILLIC SMALL LETTER DZE
    "wh%C4%B1sky26",  # LATIN SMALL LETTER DOTLESS I
    "WH%C4%B0SKY26",  # LATIN CAPITAL LETTER I WITH DOT ABOVE
    "%EF%BD%97%EF%BD%88%EF%BD%89%EF%BD%93%EF%BD%8B%EF%BD%9926",  # fullwidth letters
    "whisky%EF%BC%926",  # FULLWIDTH DIGIT TWO
    "whisky26%E2%80%8B",  # ZERO WIDTH SPACE
    "whisky26.", "whisky26%20", "whisky26%2F", "whisky26%00", "whisky26;x=1",
    "%2577hisky26", "whisky26%2e",
]
#: where the name stands in an address, and what comes with it
ASKS = [
    ("GET", "/g/{}/", "", b""), ("GET", "/g/{}", "", b""), ("GET", "/g/{}/index.html", "", b""),
    ("GET", "/g/{}/S1901M.html", "", b""), ("GET", "/g/{}/S1901M.html?key=wrong", "", b""),
    ("GET", "/g/{}?key=wrong", "", b""), ("GET", "/g/{}/map/S1901M.svg", "", b""),
    ("GET", "/g/{}/S1901M.html/", "", b""), ("GET", "/g/{}/NOPE.html", "", b""),
    ("GET", "/g/{}/", f"Cookie: mobadj_key_{NAME}=wrong\r\n", b""),
    ("GET", "/g/{}/map/S1901M.svg", f"Cookie: mobadj_key_{NAME}=wrong\r\n", b""),
    ("POST", "/g/{}/key", "Content-Type: application/x-www-form-urlencoded\r\n",
     b"key=wrong&to=S1901M"),
    ("HEAD", "/g/{}/", "", b""),
    # the site's own words and the phase in another case
    ("GET", "/G/{}/", "", b""), ("GET", "/g/{}/INDEX.HTML", "", b""),
    ("GET", "/g/{}/s1901m.html", "", b""), ("GET", "/G/{}/Map/s1901m.SVG", "", b""),
]


class Twins:
    """A store with a public game and the private one, and a copy without the private one,
    each with its pages' server."""

    def __init__(self, path) -> None:
        cfg = config_from_data({"judge": {"address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(cfg.db_path)
        judge = Judge(self.store, cfg, clock=lambda: NOW, kdf_n=2**10)
        rng = random.Random(11)
        play_board(Table(judge, "pub", "standard"), 1, rng)
        play_board(Table(judge, NAME, "standard"), 3, rng)
        with self.store.transaction():
            self.store.set_web_key(NAME, KEY, NOW)
        self.copy = path / "without.sqlite"
        with sqlite3.connect(self.copy) as db:
            self.store.db.backup(db)
            db.execute("DELETE FROM web_keys WHERE game=?", (NAME,))
            db.execute("DELETE FROM games WHERE name=?", (NAME,))
        self.stores = [Store(cfg.db_path, readonly=True), Store(self.copy, readonly=True)]
        self.sites = [Site(s, "Twin Judge", clock=lambda: NOW) for s in self.stores]

    def close(self) -> None:
        for s in [*self.stores, self.store]:
            s.close()


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    t = Twins(tmp_path_factory.mktemp("twins"))
    yield t
    t.close()


@pytest.fixture(scope="module")
def servers(twins):
    with PageServer(twins.sites[0]) as with_it, PageServer(twins.sites[1]) as without:
        yield with_it, without


def test_twenty_spellings_of_a_private_game_answer_exactly_as_a_missing_game(servers):
    with_it, without = servers
    assert len(SPELLINGS) >= 20
    refused = set()
    for spelling in SPELLINGS:
        for method, path, headers, body in ASKS:
            address = path.format(spelling)
            there = raw_answer(with_it.port, address, method, headers, body)
            absent = raw_answer(without.port, address, method, headers, body)
            assert there == absent, (method, address)
            assert there.status in (400, 404), (method, address, there.status)
            assert KEY.encode() not in there.body
            refused.add(there.status)
    assert refused == {404} or refused == {400, 404}
    # the game is there all the same, with its key, at its own address
    opened = fetch(f"{with_it.url}/g/{NAME}/S1901M.html?key={KEY}")
    assert opened.status == 303 and opened.headers["location"] == "S1901M.html"


def test_refusing_a_private_game_reads_nothing_of_it(twins):
    """The same queries for a private game as for a missing one: its name is looked up,
    nothing of the game is read (no state parsed) before its key is checked."""
    site, store = twins.sites[0], twins.stores[0]
    app = InProcess(create_app(site))
    said: list[str] = []
    store.db.set_trace_callback(said.append)
    try:
        runs = {}
        for name in (NAME, "WhIsKy26", "nosuch26", "whis%E2%84%AAy26"):
            said.clear()
            status, _ = app.get(f"/g/{name}/S1901M.html", cookie=f"mobadj_key_{NAME}=wrong")
            assert status == 404
            runs[name] = [q.replace(NAME, "?").replace("nosuch26", "?").replace(
                "whisky26", "?") for q in said]
    finally:
        store.db.set_trace_callback(None)
        app.close()
    assert len(set(map(tuple, runs.values()))) == 1, runs
    assert all("FROM games g LEFT JOIN web_keys" in q for q in runs[NAME]), runs[NAME]


def test_a_private_game_is_refused_in_the_time_a_missing_one_is(twins):
    """Interleaved, in process (no network noise): the medians and quartiles of refusing a
    private game and a missing one differ by less than reading the game would take."""
    site = twins.sites[0]
    app = InProcess(create_app(site))
    state = site.store.game(NAME).state
    import json

    text = json.dumps(state)
    t0 = time.perf_counter()
    for _ in range(20):
        json.loads(text)
    parse = (time.perf_counter() - t0) / 20  # what reading the game's state alone costs
    times: dict[str, list[float]] = {"private": [], "missing": []}
    try:
        for name in (NAME, "nosuch26") * 20:  # warm up
            app.get(f"/g/{name}/")
        for _ in range(300):
            for kind, name in (("private", "WHISKY26"), ("missing", "NOSUCH26")):
                t = time.perf_counter()
                app.get(f"/g/{name}/")
                times[kind].append(time.perf_counter() - t)
    finally:
        app.close()
    for q in (0.25, 0.5):
        at = {k: statistics.quantiles(v, n=100)[int(q * 100) - 1] for k, v in times.items()}
        gap = abs(at["private"] - at["missing"])
        assert gap < max(parse / 2, 15e-6), (q, at, parse)


def test_the_key_opens_the_game_at_its_own_address_and_no_redirect_carries_it(servers):
    with_it, _ = servers
    url = with_it.url
    for path in ("/g/Whisky26/S1901M.html?key=" + KEY, "/g/whisky26?key=" + KEY,
                 "/g/whis%E2%84%AAy26/S1901M.html?key=" + KEY):
        handed = fetch(url + path)
        # not a redirect: a form that takes the key to the game's own key box
        assert handed.status == 200 and handed.headers["cache-control"] == "private, no-store"
        assert "location" not in handed.headers and "set-cookie" not in handed.headers
        assert 'class="opening"' in handed.text and f'value="{KEY}"' in handed.text
    assert 'action="../whisky26/key"' in fetch(url + "/g/Whisky26/S1901M.html?key=" + KEY).text
    assert 'action="whisky26/key"' in fetch(url + "/g/whisky26?key=" + KEY).text
    # the key box of another spelling sends the form on, as it was, to the game's own
    moved = fetch(url + "/g/WHISKY26/key", data=f"key={KEY}&to=S1901M".encode())
    assert moved.status == 307 and moved.headers["location"] == "../whisky26/key"
    opened = fetch(url + "/g/whisky26/key", data=f"key={KEY}&to=S1901M".encode())
    assert opened.status == 303 and opened.headers["location"] == "S1901M.html"
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"mobadj_key_{NAME}={KEY};") and "Path=" not in cookie
    value = cookie.split(";")[0]
    # with its cookie, any other spelling is sent to the game's own address
    other = fetch(url + "/g/WHISKY26/S1901M.html", cookie=value)
    assert other.status == 303 and other.headers["location"] == "../whisky26/S1901M.html"
    assert fetch(url + "/g/whisky26/S1901M.html", cookie=value).status == 200
    drawn = fetch(url + "/g/Whisky26/map/S1901M.svg", cookie=value)
    assert drawn.headers["location"] == "../../whisky26/map/S1901M.svg"
    # two cookies of that name (one from the folder, one from elsewhere): either opens it
    assert fetch(url + "/g/whisky26/", cookie=f"mobadj_key_{NAME}=old; {value}").status == 200
    every = [handed, moved, opened, other, drawn]
    for answer in every:
        assert KEY not in answer.headers.get("location", "")
        assert "no-store" in answer.headers["cache-control"]


def test_a_public_game_under_another_spelling_is_sent_to_its_own_name(servers):
    url = servers[0].url
    for path, to in (("/g/PUB/", "../pub/"), ("/g/Pub/S1901M.html", "../pub/S1901M.html"),
                     ("/g/pub", "pub/"), ("/g/PUB", "pub/"), ("/g/pub?key=x", "pub/"),
                     ("/g/pUb/map/S1901M.svg", "../../pub/map/S1901M.svg")):
        r = fetch(url + path)
        assert (r.status, r.headers.get("location")) == (303, to), path
        assert r.headers["cache-control"] == "private, no-store", path
    assert fetch(url + "/g/pub/").status == 200
    for path in ("/g/pub/key", "/g/PUB/key"):  # a public game's key box: to its pages
        r = fetch(url + path, data=b"key=x")
        assert (r.status, r.headers.get("location")) == (303, "../pub/"), path
    index = fetch(url + "/").text
    assert 'href="g/pub/index.html"' in index and NAME not in index


def test_every_answer_keeps_its_base_and_forms_at_home(servers):
    url = servers[0].url
    for path in ("/", "/g/pub/", "/g/nosuch/", "/static/web.css", "/g/pub/map/S1901M.svg"):
        csp = fetch(url + path).headers["content-security-policy"]
        assert "base-uri 'none'" in csp and "form-action 'self'" in csp, path


def test_the_cookie_is_secure_when_the_pages_public_address_is_https(twins):
    app = create_app(twins.sites[0], secure_cookies=True)
    answers: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": f"key={KEY}".encode(), "more_body": False}

    async def send(message: dict) -> None:
        answers.append(message)

    import asyncio

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": f"/g/{NAME}/key",
             "raw_path": f"/g/{NAME}/key".encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"x"), (b"content-length", str(len(KEY) + 4).encode())],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))
    headers = dict(answers[0]["headers"])
    assert answers[0]["status"] == 303 and b"Secure" in headers[b"set-cookie"]


def test_a_request_sent_too_slowly_is_cut_off_and_the_rest_are_served(twins):
    """Half-open connections (a request's head begun and never finished, or trickled a
    byte at a time) are closed after the request timeout; other visitors are served."""
    with PageServer(twins.sites[0], request_timeout=1.0) as srv:
        start = time.monotonic()
        idle = []
        for _ in range(30):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
            s.sendall(b"GET /g/pub/ HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            idle.append(s)
        trickle = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        trickle.settimeout(0.25)
        closed_at = None
        for ch in b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 40:
            try:
                trickle.sendall(bytes([ch]))
                if trickle.recv(1) == b"":
                    closed_at = time.monotonic() - start
                    break
            except TimeoutError:
                continue
            except OSError:
                closed_at = time.monotonic() - start
                break
        assert closed_at is not None and 0.8 < closed_at < 3, closed_at
        assert fetch(srv.url + "/g/pub/").status == 200  # served meanwhile
        for s in idle:
            s.settimeout(3)
            assert s.recv(100) == b""  # closed by the server, without an answer
            s.close()
        assert time.monotonic() - start < 5
        trickle.close()

