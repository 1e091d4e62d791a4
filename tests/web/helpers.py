"""A real HTTP server for the pages (uvicorn in a thread, on 127.0.0.1) and a small client
that never follows redirects, so a test sees each answer as the browser would."""

from __future__ import annotations

import re
import socket
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

import uvicorn

from mobadj.web.app import create_app
from mobadj.web.pages import Site
from mobadj.web.serving import server_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PageServer:
    """``with PageServer(site) as srv: srv.url``."""

    def __init__(self, site: Site, **config: float) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(server_config(create_app(site), "127.0.0.1", self.port,
                                                   **config))
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
