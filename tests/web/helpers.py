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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PageServer:
    """``with PageServer(site) as srv: srv.url``."""

    def __init__(self, site: Site) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(site), host="127.0.0.1",
                                                    port=self.port, log_level="warning"))
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
