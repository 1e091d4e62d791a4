"""The pages under attack, over real HTTP: a private game answered exactly as a missing one,
private pages behind a proxy that serves the site under a path, headers no client can
misuse, hostile requests of every kind (the server answers each with a page, never a
traceback, and goes on serving), a game whose record cannot be read here, results recorded
by votes and by the GM, and the export keeping nothing stale."""

from __future__ import annotations

import http.cookiejar
import logging
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from mobadj.judge import WebPlay
from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.logs import setup_logging
from mobadj.judge.store import Store
from mobadj.web.demo import Table, play_board, play_cards
from mobadj.web.export import export_site
from mobadj.web.pages import Site, UnreadableGame

from .helpers import PageServer, PrefixProxy, fetch, order_spans, raw_request

KEY = "hidden-key-0042"
NOW = 1_800_000_000.0


class Judged:
    """A judge's store with the games this module attacks."""

    def __init__(self, path) -> None:
        cfg = config_from_data({"judge": {"address": "judge@test.org", "data_dir": str(path)}})
        self.config = cfg
        self.store = Store(cfg.db_path)
        self.judge = Judge(self.store, cfg, clock=lambda: NOW, kdf_n=2**10)
        rng = random.Random(3)
        self.pub = Table(self.judge, "pub", "standard")
        play_board(self.pub, 1, rng)
        self.hidden = Table(self.judge, "hidden", "standard")
        play_board(self.hidden, 1, rng)
        with self.store.transaction():
            self.store.set_web_key("hidden", KEY, NOW)
        self.drawn = Table(self.judge, "drawn", "standard")
        for seat in self.drawn.seats:
            self.drawn.say(seat, "DRAW")
        self.conceded = Table(self.judge, "conceded", "standard")
        for seat in self.conceded.seats:
            if seat != "FRANCE":
                self.conceded.say(seat, "CONCEDE TO FRANCE")
        self.cards = Table(self.judge, "cardsend", "micromob", seats=["P1", "P2", "P3"],
                           seed=99)
        play_cards(self.cards, rng, limit=4)
        with self.store.transaction():
            self.judge.end_game(self.cards.game, "ended", [], "ended by the GM", NOW, [])
        self.won = Table(self.judge, "cardswon", "micromob", seats=["P1", "P2", "P3"], seed=98)
        play_cards(self.won, rng, limit=2)
        with self.store.transaction():
            self.judge.end_game(self.won.game, "win", ["P2"], "declared by the GM", NOW, [])
        self.judge.create_game("révolution", "standard", "gm@test.org", "gm-pw", {}, seed=1)
        with self.store.transaction():
            self.store.create_game("broken", "standard", {}, 1, "gm@test.org", "h", 0)
            self.store.update_game("broken", status="active", phase="S1901M",
                                   state={"position": {"phase": "no such phase"}})
            self.store.create_game("mangled", "standard", {}, 1, "gm@test.org", "h", 0)
            self.store.update_game("mangled", status="active", phase="S1901M", state=[1, 2])
        self.readonly = Store(cfg.db_path, readonly=True)
        self.site = Site(self.readonly, "Hostile Judge", clock=lambda: NOW)

    def close(self) -> None:
        self.readonly.close()
        self.store.close()


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    j = Judged(tmp_path_factory.mktemp("hostile"))
    yield j
    j.close()


@pytest.fixture(scope="module")
def srv(judged):
    with PageServer(judged.site) as s:
        yield s


def same_answer(a: str, b: str) -> str:
    """A page with the game's name taken out (the only thing that may differ)."""
    return a.replace("hidden", "NAME").replace("nosuch", "NAME")


# -- secrets ----------------------------------------------------------------------------------


def test_a_private_game_is_answered_as_a_game_that_does_not_exist(srv):
    for path, data in (("/g/{}/", None), ("/g/{}/S1901M.html", None),
                       ("/g/{}/?key=wrong", None), ("/g/{}/S1901M.html?key=" + KEY + "x", None),
                       ("/g/{}/map/S1901M.svg", None), ("/g/{}/key", b"key=wrong")):
        private = fetch(srv.url + path.format("hidden"), data=data)
        missing = fetch(srv.url + path.format("nosuch"), data=data)
        assert private.status == missing.status == 404, path
        assert same_answer(private.text, missing.text) == same_answer(missing.text, private.text)
        assert same_answer(private.text, "") == same_answer(missing.text, ""), path
        for h in ("content-type", "cache-control", "x-robots-tag"):
            assert private.headers.get(h) == missing.headers.get(h), (path, h)
    # a key of another game, or the cookie of another game, opens nothing
    assert fetch(srv.url + "/g/hidden/", cookie=f"mobadj_key_pub={KEY}").status == 404
    assert fetch(srv.url + "/g/pub/", cookie="mobadj_key_hidden=x").status == 200


def test_private_pages_are_kept_by_no_cache_and_indexed_by_no_robot(srv):
    opened = fetch(f"{srv.url}/g/hidden/?key={KEY}")
    assert opened.status == 303
    assert opened.headers["cache-control"] == "private, no-store"
    cookie = opened.headers["set-cookie"].split(";")[0]
    for path in ("/g/hidden/", "/g/hidden/S1901M.html", "/g/hidden/map/S1901M.svg"):
        r = fetch(srv.url + path, cookie=cookie)
        assert r.status == 200, path
        assert r.headers["cache-control"] == "private, no-store", path
        assert r.headers["x-robots-tag"] == "noindex, nofollow", path
    public = fetch(srv.url + "/g/pub/")
    assert public.headers["cache-control"] == "no-cache" and "x-robots-tag" not in public.headers


def test_a_private_game_opens_behind_a_proxy_serving_the_site_under_a_path(srv):
    """nginx's ``location /judge/ { proxy_pass http://127.0.0.1:8080/; }``: the key's
    redirect and its cookie must work at /judge/g/hidden/, as a browser follows them."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with PrefixProxy(srv.url) as proxy:
        with browser.open(f"{proxy.url}/g/hidden/S1901M.html?key={KEY}", timeout=20) as r:
            assert r.status == 200 and r.url == f"{proxy.url}/g/hidden/S1901M.html"
            assert order_spans(r.read().decode())  # the adjudicated phase's orders
        with browser.open(f"{proxy.url}/g/hidden/map/S1901M.svg", timeout=20) as r:
            assert r.status == 200 and r.headers["content-type"] == "image/svg+xml"
        with browser.open(f"{proxy.url}/g/pub", timeout=20) as r:  # the folder's redirect
            assert r.url == f"{proxy.url}/g/pub/"
        form = urllib.request.Request(f"{proxy.url}/g/hidden/key", data=f"key={KEY}".encode())
        with browser.open(form, timeout=20) as r:
            assert r.url == f"{proxy.url}/g/hidden/" and r.status == 200


def test_redirects_do_not_trust_the_host_header(srv):
    answer = raw_request(srv.port, b"GET /g/pub?x=1 HTTP/1.1\r\nHost: evil.example\r\n"
                                   b"Connection: close\r\n\r\n")
    head = answer.split(b"\r\n\r\n")[0].decode("latin-1").lower()
    assert " 303 " in head.splitlines()[0]
    assert "location: pub/\r\n" in head + "\r\n" and "evil" not in head
    for path in (b"/static", b"/index.html/", b"/g/pub/S1901M.html/", b"/g/pub/map/S1901M.svg/",
                 b"/g/hidden/key/"):
        answer = raw_request(srv.port, b"GET " + path + b" HTTP/1.1\r\nHost: evil.example\r\n"
                                       b"Connection: close\r\n\r\n")
        head = answer.split(b"\r\n\r\n")[0].decode("latin-1").lower()
        assert " 404 " in head.splitlines()[0] and "evil" not in head, path


# -- headers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/static/web.css", "/static/nothing.css",
                                  "/no/such/page", "/g/pub/map/X1999M.svg", "/g/hidden/",
                                  "/g/pub/NOPE.html"])
def test_every_answer_says_what_it_is_and_may_not_be_sniffed_or_framed(srv, path):
    r = fetch(srv.url + path)
    assert r.headers.get("x-content-type-options") == "nosniff", path
    assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), path
    assert r.headers.get("content-type"), path


def test_a_page_not_found_anywhere_is_a_page_with_a_way_back(srv):
    r = fetch(srv.url + "/no/such/page")
    assert r.status == 404 and "text/html" in r.headers["content-type"]
    assert "No such page." in r.text and 'href="../../index.html"' in r.text
    posted = fetch(srv.url + "/g/pub/", data=b"x=1")
    assert posted.status == 405 and set(posted.headers["allow"].split(", ")) == {"GET", "HEAD"}
    got = fetch(srv.url + "/g/pub/key")
    assert got.status == 405 and got.headers["allow"] == "POST"


# -- hostile requests -------------------------------------------------------------------------

HOSTILE = [
    b"GET /g/%00/ HTTP/1.1", b"GET /g/pub/%00.html HTTP/1.1", b"GET /static/%00 HTTP/1.1",
    b"GET /g/pub/..%5c..%5cetc%5cpasswd.html HTTP/1.1", b"GET /static/..%2f..%2fapp.py HTTP/1.1",
    b"GET /static/%2e%2e/app.py HTTP/1.1", b"GET /g/%2e%2e/%2e%2e/ HTTP/1.1",
    b"GET /g/pub/map/%2e%2e%2fx.svg HTTP/1.1", b"GET /g/%ff%fe/ HTTP/1.1",
    b"GET /g/pub/%ff.html HTTP/1.1", b"GET /g/" + b"a" * 5000 + b"/ HTTP/1.1",
    b"GET /g/pub/" + b"S" * 5000 + b".html HTTP/1.1", b"GET /" + b"x/" * 3000 + b" HTTP/1.1",
    b"GET /g/hidden/?key=" + b"%ff" * 3000 + b" HTTP/1.1", b"GET /g/hidden/?key=%00 HTTP/1.1",
    b"GET /g/pub/?a=%zz&&&==;; HTTP/1.1", b"GET /g/%3Cscript%3E/ HTTP/1.1",
    b"GET /g/pub/map/S1901M.svg HTTP/1.1\r\nIf-None-Match: " + b'"' * 3000,
    b"GET /g/hidden/ HTTP/1.1\r\nCookie: mobadj_key_hidden=\"\\\x7f\\\"; ;;=;",
    b"GET /g/hidden/ HTTP/1.1\r\nCookie: " + b"a=b; " * 2000,
    b"DELETE /g/pub/ HTTP/1.1", b"POST /g/pub/S1901M.html HTTP/1.1\r\nContent-Length: 0",
    b"POST /g/hidden/key HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 9"
    b"\r\n\r\nkey=%ff%0",
    b"OPTIONS * HTTP/1.1",
    b"GET /index.html HTTP/1.0", b"GET http://evil.example/g/pub/ HTTP/1.1",
    b"GET /g/pub/ HTTP/1.1\r\nAccept-Encoding: gzip;q=\xff, \x00",
    b"GET /g/pub/ HTTP/1.1\r\nHost: \xff\xfe<script>",
    b"GET /g/pub HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n",
    b"GET /g/hidden/?key=x HTTP/1.1\r\nHost: ]::\r\nConnection: close\r\n\r\n",
    b"GET /g/hidden/?key=" + KEY.encode() + b" HTTP/1.1\r\nHost: x:99999999999\r\n"
    b"Connection: close\r\n\r\n",
]


def test_hostile_requests_get_a_clear_answer_and_the_server_goes_on(srv):
    for line in HOSTILE:
        request = line if b"\r\n\r\n" in line else (
            line + b"\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = raw_request(srv.port, request)
        status = answer.split(b"\r\n", 1)[0]
        assert re.match(rb"HTTP/1\.[01] [1-4]\d\d ", status), (line[:60], status)
        assert b"Traceback" not in answer and b'File "' not in answer, line[:60]
        if b"?key=" + KEY.encode() not in line:
            assert KEY.encode() not in answer, line[:60]
    assert fetch(srv.url + "/g/pub/").status == 200


def status_of(answer: bytes) -> int:
    return int(answer.split(b"\r\n", 1)[0].split()[1])


def test_a_request_too_long_to_read_is_refused_and_the_others_are_answered(srv):
    """A 100 KB address, header fields of 100 KB, whether sent at once or unfinished (the
    end of the line never comes): 414 and 431, with words, and the connection closed; a
    visitor whose request was half sent meanwhile gets the page, as does the next one."""
    waiting = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    waiting.sendall(b"GET /g/pub/ HTTP/1.1\r\nHost: x\r\n")
    tail = b"Host: x\r\nConnection: close\r\n\r\n"
    for request, status, words in [
            (b"GET /g/pub/?q=" + b"a" * 100_000 + b" HTTP/1.1\r\n" + tail, 414,
             b"longer than 8192 bytes"),
            (b"GET /g/pub/" + b"a" * 100_000, 414, b"no page here has an address so long"),
            (b"GET /g/pub/ HTTP/1.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n" + tail, 431,
             b"longer than 32768 bytes together"),
            (b"GET /g/pub/ HTTP/1.1\r\n" + b"X-Many: 12345678901234567890\r\n" * 5000 + tail,
             431, b"too long to be read"),
            (b"GET /g/pub/ HTTP/1.1\r\nCookie: " + b"a=b; " * 20_000, 431, b"32768 bytes")]:
        answer = raw_request(srv.port, request)
        assert status_of(answer) == status, (request[:40], answer[:200])
        assert words in answer and b"connection: close" in answer.lower()
        assert b"Traceback" not in answer
    # just within the limits: served
    near = raw_request(srv.port, b"GET /g/pub/?q=" + b"a" * 8000 + b" HTTP/1.1\r\n"
                       b"Cookie: " + b"c" * 7000 + b"\r\nX-A: " + b"a" * 20_000 + b"\r\n" + tail)
    assert status_of(near) == 200, near[:200]
    waiting.sendall(b"Connection: close\r\n\r\n")
    finished = b""
    while chunk := waiting.recv(65536):
        finished += chunk
    waiting.close()
    assert status_of(finished) == 200 and b"pub" in finished
    assert fetch(srv.url + "/g/pub/").status == 200


def test_an_absolute_address_as_request_target_is_served_as_its_path(srv):
    """RFC 9112 section 3.2.2: ``GET http://host/path`` is the page at the path; its host
    takes the Host header's place.  A target that is neither a path nor such an address is
    refused with 400."""
    plain = raw_request(srv.port, b"GET /g/pub/S1901M.html HTTP/1.1\r\nHost: x\r\n"
                                  b"Connection: close\r\n\r\n")
    page = plain.partition(b"\r\n\r\n")[2]
    for target in [b"http://127.0.0.1/g/pub/S1901M.html", b"HTTPS://judge.example:8443/g/pub/"
                   b"S1901M.html", b"http://user@evil.example/g/pub/S1901M.html"]:
        answer = raw_request(srv.port, b"GET " + target + b" HTTP/1.1\r\nHost: other\r\n"
                                       b"Connection: close\r\n\r\n")
        assert status_of(answer) == 200 and answer.partition(b"\r\n\r\n")[2] == page, target
    index = raw_request(srv.port, b"GET http://127.0.0.1?x=1 HTTP/1.1\r\nHost: x\r\n"
                                  b"Connection: close\r\n\r\n")
    assert status_of(index) == 200 and b'href="g/pub/index.html"' in index
    # a key in an absolute address: its cookie and a relative redirect, never to the host
    keyed = raw_request(srv.port, f"GET http://evil.example/g/hidden/?key={KEY} HTTP/1.1\r\n"
                                  "Host: x\r\nConnection: close\r\n\r\n".encode())
    assert status_of(keyed) == 303 and b"evil.example" not in keyed
    for target in [b"ftp://x/g/pub/", b"http:///g/pub/", b"g/pub/", b"127.0.0.1:443"]:
        answer = raw_request(srv.port, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n"
                                       b"Connection: close\r\n\r\n")
        assert status_of(answer) == 400, (target, answer[:200])
        assert b"these pages serve paths only" in answer
    assert fetch(srv.url + "/g/pub/").status == 200


def test_a_key_form_too_long_is_refused_before_it_is_read(srv):
    """A body of 50 MB announced: refused at once, the rest never waited for (it is never
    sent: the answer comes all the same)."""
    answer = raw_request(srv.port, b"POST /g/hidden/key HTTP/1.1\r\nHost: x\r\n"
                                   b"Connection: close\r\n"
                                   b"Content-Type: application/x-www-form-urlencoded\r\n"
                                   b"Content-Length: 50000000\r\n\r\nkey=" + b"a" * 1000,
                         timeout=5)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:100]
    chunked = raw_request(srv.port, b"POST /g/hidden/key HTTP/1.1\r\nHost: x\r\n"
                                    b"Connection: close\r\n"
                                    b"Transfer-Encoding: chunked\r\n\r\n"
                                    + b"1000\r\n" + b"a" * 4096 + b"\r\n", timeout=5)
    assert chunked.startswith(b"HTTP/1.1 413 "), chunked[:100]
    assert fetch(srv.url + "/g/pub/").status == 200


def test_stored_text_is_escaped_in_every_page_and_map(judged, srv):
    """Press with markup, sent to everyone, is shown as text."""
    hostile = '<script>alert(1)</script>"\'><img src=x onerror=alert(2)>'
    judged.pub.say("ENGLAND", f"PRESS TO ALL\n{hostile}\nENDPRESS")
    page = fetch(srv.url + "/g/pub/").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert" not in page and "<img src=x" not in page


# -- records this installation cannot read ----------------------------------------------------


@pytest.mark.parametrize("game", ["broken", "mangled"])
def test_a_game_whose_record_cannot_be_read_gets_a_clear_page_and_the_rest_is_served(
        srv, game):
    r = fetch(f"{srv.url}/g/{game}/")
    assert r.status == 500 and "text/html" in r.headers["content-type"]
    assert "cannot read its record" in r.text and "Traceback" not in r.text
    assert "no such phase" not in r.text  # the reason is for the GM's log only
    assert fetch(f"{srv.url}/g/{game}/map/S1901M.svg").status == 500
    index = fetch(srv.url + "/")
    assert index.status == 200 and f'id="game-{game}"' in index.text
    assert fetch(srv.url + "/g/pub/").status == 200


def test_warm_and_export_go_past_a_game_they_cannot_read(judged, tmp_path, caplog):
    caplog.set_level(logging.WARNING, "mobadj.web")
    site = Site(judged.readonly, "Hostile Judge", clock=lambda: NOW)
    assert site.warm() >= 5
    assert any("broken" in r.getMessage() for r in caplog.records)
    caplog.clear()
    for _ in range(3):  # said once in the log, not on every request
        with pytest.raises(UnreadableGame):
            site.game_html("broken")
    assert not [r for r in caplog.records if "pages cannot be built" in r.getMessage()]
    report = export_site(site, tmp_path)
    assert sorted(report.unreadable) == ["broken", "mangled"] and "pub" in report.games
    assert (tmp_path / "g" / "pub" / "index.html").is_file()


# -- what the pages say -----------------------------------------------------------------------


def test_a_voted_draw_and_a_concession_are_named_as_such(srv):
    drawn = fetch(srv.url + "/g/drawn/").text
    assert "Game over." in drawn and "A draw between Austria, England, France" in drawn
    assert "voted by every surviving player" in drawn and "ended by the GM" not in drawn
    conceded = fetch(srv.url + "/g/conceded/").text
    assert "France wins (by concession)" in conceded and "ended by the GM" not in conceded
    # the index says so too, with each seat's final centres
    index = fetch(srv.url + "/").text
    row = re.search(r'<tr class="game" id="game-drawn">.*?</tr>', index, re.S).group(0)
    assert "A draw between Austria, England, France" in row and "nothing due" not in row
    assert row.count("3 centres, in the draw") + row.count("4 centres, in the draw") == 7
    row = re.search(r'<tr class="game" id="game-conceded">.*?</tr>', index, re.S).group(0)
    assert "France wins (by concession)" in row and "5 centres, winner" not in row
    assert re.search(r"★ </span>France</span> <span class=\"what\">\d+ centres, winner", row)


def test_a_card_game_the_gm_ended_early_reveals_its_seed(judged, srv):
    state = judged.store.game("cardsend").state
    page = fetch(srv.url + "/g/cardsend/").text
    assert "ended by the GM before its end" in page
    assert str(state["seed"]) in page and "The seed matches" in page


def test_a_card_game_the_gm_declared_won_names_its_winner(srv):
    page = fetch(srv.url + "/g/cardswon/").text
    assert "P2 wins (declared by the GM) before the game&#39;s end." in page


def test_a_game_with_any_name_the_judge_accepts_has_pages(srv):
    index = fetch(srv.url + "/").text
    assert 'href="g/r%C3%A9volution/index.html"' in index
    page = fetch(srv.url + "/g/r%C3%A9volution/index.html")
    assert page.status == 200 and "révolution" in page.text
    assert fetch(srv.url + "/g/r%C3%A9volution").headers["location"] == "r%C3%A9volution/"
    assert fetch(srv.url + "/g/r%C3%A9volution/S1901M.html").status == 404  # no phase yet


# -- the export -------------------------------------------------------------------------------


def test_the_export_removes_a_game_made_private_and_pages_no_longer_there(judged, tmp_path):
    site = judged.site
    export_site(site, tmp_path)
    stale = tmp_path / "g" / "pub" / "F1999M.html"
    stale.write_text("a phase since rolled back")
    (tmp_path / "g" / "pub" / "map" / "F1999M.svg").write_text("<svg/>")
    (tmp_path / "g" / "hidden").mkdir(parents=True)
    (tmp_path / "g" / "hidden" / "S1901M.html").write_text("exported while it was public")
    report = export_site(site, tmp_path)
    assert "hidden" in report.private and not (tmp_path / "g" / "hidden").exists()
    assert not stale.exists() and not (tmp_path / "g" / "pub" / "map" / "F1999M.svg").exists()
    assert (tmp_path / "g" / "pub" / "S1901M.html").is_file()


def test_mobadj_web_refuses_a_port_out_of_range_without_a_traceback(judged, tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(f"judge:\n  address: judge@test.org\n  data_dir: {judged.config.data_dir}\n")
    mobadj = str(Path(sys.executable).with_name("mobadj"))
    out = subprocess.run([mobadj, "web", "-c", str(cfg), "--port", "99999"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Invalid value for '--port'" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_key_cookie_is_secure_behind_a_tls_proxy(srv):
    answer = raw_request(srv.port, f"GET /g/hidden/?key={KEY} HTTP/1.1\r\nHost: x\r\n"
                                   "X-Forwarded-Proto: https\r\nConnection: close\r\n\r\n"
                         .encode())
    cookie = next(ln for ln in answer.decode("latin-1").split("\r\n")
                  if ln.lower().startswith("set-cookie:"))
    assert "Secure" in cookie and "HttpOnly" in cookie and "Path=" not in cookie
    plain = fetch(f"{srv.url}/g/hidden/?key={KEY}").headers["set-cookie"]
    assert "Secure" not in plain


def test_an_export_folder_that_cannot_be_written_is_an_error_not_a_traceback(judged, tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(f"judge:\n  address: judge@test.org\n  data_dir: {judged.config.data_dir}\n")
    (tmp_path / "afile").write_text("not a folder")
    mobadj = str(Path(sys.executable).with_name("mobadj"))
    out = subprocess.run([mobadj, "web", "-c", str(cfg), "--export",
                          str(tmp_path / "afile" / "site")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "cannot write the pages into" in out.stderr
    assert "Traceback" not in out.stderr


# -- what reaches the log of mobadj web -------------------------------------------------------


@pytest.fixture
def web_log(tmp_path, kept_logging):
    """judge-web.log, as ``mobadj web`` sets its logging up from judge.yaml (the test's
    own logging put back after)."""
    cfg = config_from_data({"judge": {"address": "judge@test.org"},
                            "log": {"file": "judge.log"}}, base=tmp_path)
    setup_logging(cfg.log, program="web")
    return tmp_path / "judge-web.log"


def wait_for_log(path: Path, text: str, times: int = 1) -> str:
    end = time.monotonic() + 10
    while (found := path.read_text()).count(text) < times:
        assert time.monotonic() < end, f"{text!r} not in the log {times} time(s):\n{found}"
        time.sleep(0.05)
    return found


def test_a_client_hanging_up_mid_form_costs_one_line_and_a_failure_its_traceback(
        judged, web_log, monkeypatch, capsys):
    """Forms whose sender hangs up half-way (a body of 500 bytes announced, 7 sent) leave
    one short line each in judge-web.log, no traceback anywhere; a page that fails leaves
    its traceback in judge-web.log, the log the 500 page sends the GM to."""
    site = Site(judged.readonly, "Hostile Judge", clock=lambda: NOW)

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("BROKEN-PAGE-7731")

    monkeypatch.setattr(site, "game_html", broken)
    with PageServer(site, play=WebPlay(judged.judge)) as srv:
        for path in ("/g/hidden/key", "/g/pub/signin", "/g/pub/act"):
            with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
                s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/"
                          "x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nkey=abc".encode())
                time.sleep(0.2)
        logged = wait_for_log(web_log, "hung up before sending all of a form", 3)
        assert "Traceback" not in logged and "ClientDisconnect" not in logged
        assert "Traceback" not in capsys.readouterr().err
        failed = fetch(srv.url + "/g/pub/")
        assert failed.status == 500 and "log of mobadj web" in failed.text
        assert "BROKEN-PAGE-7731" not in failed.text
        logged = wait_for_log(web_log, "BROKEN-PAGE-7731")
    assert "Traceback" in logged and 'raise RuntimeError("BROKEN-PAGE-7731")' in logged
