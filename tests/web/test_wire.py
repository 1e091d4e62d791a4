"""What goes on the wire, as a browser asks for it: pages and maps gzipped once and served
from that, 304 for what the browser has, the favicon."""

from __future__ import annotations

import gzip
import urllib.request

import pytest

from mobadj.web import wire

from .helpers import PageServer

#: what Chromium sends with a page's request
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
                     "image/webp,image/apng,*/*;q=0.8",
           "Accept-Encoding": "gzip, deflate, br, zstd", "Accept-Language": "en-GB,en;q=0.9",
           "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
                         "Gecko) Chrome/131.0.0.0 Safari/537.36"}


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


@pytest.fixture(scope="module")
def srv(world):
    with PageServer(world.site) as s:
        yield s


@pytest.fixture
def compressions(monkeypatch):
    """Every gzip the pages make (the library's own function, counted)."""
    made: list[int] = []
    real = gzip.compress

    def counted(data: bytes, *args, **kwargs) -> bytes:  # noqa: ANN002, ANN003
        made.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(wire.gzip, "compress", counted)
    return made


def test_a_map_is_gzipped_once_and_served_from_that(world, srv, compressions):
    sid = world.site.steps("mob")[1]
    url = f"{srv.url}/g/mob/map/{sid}.svg"
    first = get(url, **BROWSER)
    made = len(compressions)  # 1, or 0 if another test had it gzipped before
    assert made <= 1 and first[0] == 200 and first[1]["content-encoding"] == "gzip"
    assert first[1]["vary"] == "Accept-Encoding"
    plain = get(url)  # no Accept-Encoding: as it is
    assert "content-encoding" not in plain[1] and gzip.decompress(first[2]) == plain[2]
    assert len(first[2]) < len(plain[2]) / 3
    for _ in range(5):
        assert get(url, **BROWSER)[2] == first[2]
    assert len(compressions) == made  # not again, for five more gzipped answers
    # the browser's copy is still good: 304 without a body, per representation
    again = get(url, **BROWSER, **{"If-None-Match": first[1]["etag"]})
    assert again[0] == 304 and again[2] == b""
    assert first[1]["etag"] != plain[1]["etag"]
    assert get(url, **{"If-None-Match": plain[1]["etag"]})[0] == 304


def test_a_page_that_has_not_changed_is_not_gzipped_again(world, srv, compressions):
    sid = world.site.steps("dip")[2]
    url = f"{srv.url}/g/dip/{sid}.html"
    answers = [get(url, **BROWSER)]
    made = len(compressions)
    answers += [get(url, **BROWSER) for _ in range(3)]
    assert {a[2] for a in answers} == {answers[0][2]}
    assert answers[0][1]["content-encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(answers[0][2])
    assert made <= 1 and len(compressions) == made


def test_accept_encoding_is_read_as_a_browser_and_a_proxy_write_it():
    assert wire.accepts_gzip("gzip, deflate, br, zstd")
    assert wire.accepts_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1")
    assert wire.accepts_gzip("*")
    assert not wire.accepts_gzip("gzip;q=0, br")
    assert not wire.accepts_gzip("identity")
    assert not wire.accepts_gzip("")
    assert not wire.accepts_gzip("gzip;q=\xff")


def test_static_files_are_kept_by_the_browser_for_as_long_as_they_are_the_same(srv):
    """The pages link to each style sheet and script by its version: that address never
    changes its content, so the browser keeps it without asking again."""
    import re

    page = gzip.decompress(get(srv.url + "/g/dip/", **BROWSER)[2]).decode()
    links = re.findall(r'(?:href|src)="\.\./\.\./(static/[\w.]+\?v=[0-9a-f]{12})"', page)
    assert sorted(link.split("?")[0] for link in links) == [
        "static/favicon.svg", "static/web.css", "static/web.js", "static/zoom.js"]
    for link in links:
        status, headers, _ = get(f"{srv.url}/{link}", **BROWSER)
        assert status == 200 and headers["cache-control"] == "public, max-age=31536000, immutable"
        name = link.split("?")[0]
        assert get(f"{srv.url}/{name}")[1]["cache-control"] == "no-cache"
        assert get(f"{srv.url}/{name}?v=000000000000")[1]["cache-control"] == "no-cache"


def test_the_favicon_is_there_for_every_first_visit(srv):
    page = get(srv.url + "/", **BROWSER)
    assert b'rel="icon" href="static/favicon.svg?v=' in gzip.decompress(page[2])
    for path in ("/static/favicon.svg", "/favicon.ico"):
        status, headers, body = get(srv.url + path)
        assert status == 200 and headers["content-type"] == "image/svg+xml", path
        assert body.startswith(b"<svg")
    assert get(srv.url + "/static/nothing.css")[0] == 404
