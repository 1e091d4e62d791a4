"""A real HTTP server for the pages (uvicorn in a thread, on 127.0.0.1) and a small client
that never follows redirects, so a test sees each answer as the browser would."""

from __future__ import annotations

import html
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from mobadj.judge import WebPlay
from mobadj.web.app import create_app
from mobadj.web.pages import Site
from mobadj.web.serving import server_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PageServer:
    """``with PageServer(site) as srv: srv.url``."""

    def __init__(self, site: Site, play: WebPlay | None = None, secure: bool = False,
                 **config: float) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(site, secure_cookies=secure, play=play)
        self.server = uvicorn.Server(server_config(app, "127.0.0.1", self.port, **config))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> PageServer:
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("the page server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None


_opener = urllib.request.build_opener(_NoRedirect)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str


def fetch(url: str, cookie: str | None = None, data: bytes | None = None) -> Answer:
    req = urllib.request.Request(url, data=data)
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with _opener.open(req, timeout=20) as r:
            return Answer(r.status, dict(r.headers), r.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        return Answer(e.code, dict(e.headers), e.read().decode("utf-8", "replace"))


class Visitor:
    """One browser's cookies and its forms, over real HTTP (no redirect followed):
    ``v.get(path)``, ``v.post(path, fields)``; ``client`` is the address it comes from (as a
    proxy on this machine says it in ``X-Forwarded-For``)."""

    def __init__(self, base: str, client: str = "127.0.0.1") -> None:
        self.base = base
        self.client = client
        self.jar: dict[str, str] = {}

    def _send(self, path: str, data: bytes | None, headers: dict[str, str]) -> Answer:
        req = urllib.request.Request(self.base + path, data=data)
        if self.jar:
            req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.jar.items()))
        req.add_header("X-Forwarded-For", self.client)
        for k, v in headers.items():
            req.add_header(k, v)
        try:
            with _opener.open(req, timeout=20) as r:
                answer = Answer(r.status, {k.title(): v for k, v in r.headers.items()},
                                r.read().decode("utf-8"))
                cookies = r.headers.get_all("Set-Cookie") or []
        except urllib.error.HTTPError as e:
            answer = Answer(e.code, {k.title(): v for k, v in e.headers.items()},
                            e.read().decode("utf-8", "replace"))
            cookies = e.headers.get_all("Set-Cookie") or []
        answer.headers["Set-Cookie"] = "\n".join(cookies)
        for c in cookies:
            name, _, rest = c.partition("=")
            value = rest.split(";", 1)[0].strip('"')
            if "Max-Age=0" in c or not value:
                self.jar.pop(name, None)
            else:
                self.jar[name] = value
        return answer

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._send(path, None, headers or {})

    def post(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None
             ) -> Answer:
        from urllib.parse import urlencode

        return self._send(path, urlencode(fields).encode(), headers or {})

    def csrf(self, html: str) -> str:
        found = re.search(r'name="csrf" value="([^"]+)"', html)
        assert found, "no form with a CSRF token on the page"
        return found.group(1)

    def sign_in(self, game: str, power: str, password: str) -> Answer:
        form = self.get(f"/g/{game}/play")
        return self.post(f"/g/{game}/signin", {"csrf": self.csrf(form.text), "power": power,
                                               "password": password})

    def act(self, game: str, **fields: str) -> Answer:
        page = self.get(f"/g/{game}/play")
        return self.post(f"/g/{game}/act", {"csrf": self.csrf(page.text), **fields})


def signed_in(srv: PageServer, game: str, power: str, password: str, client: str) -> Visitor:
    """A visitor signed in as ``power`` of ``game`` (``client``: the address it comes from)."""
    v = Visitor(srv.url, client)
    assert v.sign_in(game, power, password).status == 303
    return v


def seat_page(v: Visitor, game: str) -> str:
    """The text of a signed-in visitor's own page of ``game``."""
    return html.unescape(v.get(f"/g/{game}/play").text)


def said(text: str) -> str:
    """The judge's answer shown on a seat's page."""
    found = re.search(r'<pre class="said"[^>]*>(.*?)</pre>', text, re.S)
    return found.group(1) if found else ""


def order_spans(html: str) -> list[str]:
    """The orders a page lists (the text of each ``<span class="order">``)."""
    import html as h

    return [h.unescape(x) for x in re.findall(r'<span class="order">([^<]*)</span>', html)]


class PrefixProxy:
    """A reverse proxy on 127.0.0.1 that serves the pages under ``/judge/`` and hands them
    on with the prefix cut off, as an nginx ``location /judge/ { proxy_pass ...; }`` does:
    ``with PrefixProxy(srv.url) as proxy: proxy.url`` (ends in ``/judge``)."""

    def __init__(self, target: str, prefix: str = "/judge") -> None:
        import http.client
        import http.server
        from urllib.parse import urlsplit

        upstream = urlsplit(target)
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _pass(self) -> None:
                if not self.path.startswith(prefix + "/"):
                    self.send_error(404)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=20)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                conn.request(self.command, self.path[len(prefix):], body=body,
                             headers=headers | {"Host": outer.host})
                answer = conn.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for k, v in answer.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                conn.close()

            do_GET = do_POST = _pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.url = f"http://{self.host}{prefix}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PrefixProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


def raw_request(port: int, data: bytes, timeout: float = 10) -> bytes:
    """Send ``data`` as it is (any bytes) and read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return out


@dataclass
class Raw:
    """An answer as it came over the wire: status, headers (names in lower case, the
    ``date`` left out: it is the only part that may differ between two answers) and body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


def raw_answer(port: int, path: str, method: str = "GET", headers: str = "",
               body: bytes = b"") -> Raw:
    """``method path`` sent as these bytes exactly (no client tidies the path up)."""
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}"
            + (f"Content-Length: {len(body)}\r\n" if body or method == "POST" else "")
            + "\r\n")
    answer = raw_request(port, head.encode("latin-1") + body)
    top, _, data = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    fields = [(k.strip().lower(), v.strip()) for k, _, v in
              (ln.partition(":") for ln in lines[1:]) if k.strip().lower() != "date"]
    return Raw(status, sorted(fields), data)


class InProcess:
    """The application called directly (no socket, no server): what a request costs the
    pages alone, for timing."""

    def __init__(self, app) -> None:  # noqa: ANN001 - an ASGI application
        import asyncio

        self.app = app
        self.loop = asyncio.new_event_loop()

    def get(self, path: str, cookie: str = "") -> tuple[int, bytes]:
        from urllib.parse import unquote

        raw, _, query = path.partition("?")
        headers = [(b"host", b"127.0.0.1")] + ([(b"cookie", cookie.encode())] if cookie else [])
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "GET", "scheme": "http", "path": unquote(raw),
                 "raw_path": raw.encode(), "query_string": query.encode(), "root_path": "",
                 "headers": headers, "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
        out: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            out.append(message)

        self.loop.run_until_complete(self.app(scope, receive, send))
        return out[0]["status"], b"".join(m.get("body", b"") for m in out[1:])

    def close(self) -> None:
        self.loop.close()


def world_and_server(make: Callable[[Path], Any], folder: str) -> tuple[Any, Any]:
    """A test module's ``world`` (``make(folder)``: a judge's store with its games, the
    site reading it through its own read-only store, and the seats' play) and ``srv`` (the
    pages served over HTTP), module-wide fixtures: ``world, srv = world_and_server(World,
    "play-forms")``."""

    @pytest.fixture(scope="module")
    def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
        w = make(tmp_path_factory.mktemp(folder))
        yield w
        w.readonly.close()
        w.store.close()

    @pytest.fixture(scope="module")
    def srv(world: Any) -> Iterator[PageServer]:
        with PageServer(world.site, play=world.play) as s:
            yield s

    return world, srv
