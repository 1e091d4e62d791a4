"""The pages served over HTTP: a Starlette application on a read-only store.

Routes (all relative, so the site may live under any path behind a proxy)::

    /  /index.html                 the games index
    /g/<game>/  /g/<game>/index.html   the game's latest phase
    /g/<game>/<phase>.html         one phase
    /g/<game>/map/<phase>.svg      its map
    /static/...                    style sheet and script

A private game's pages need its key: the GM's link carries it once as ``?key=``, the server
answers with a cookie for that game's folder and sends the browser to the same address
without the key, so it stays out of the address bar, the history and every link.  Every
redirect is relative and the cookie has no ``Path`` (the browser scopes it to the game's
folder as it sees it), so a proxy may serve the site under any path.  A private game
without its key is answered exactly as a game that does not exist: its existence is not
given away.  The handlers are ``async`` and run one at a time on the event loop: the store's
single read-only connection is never shared between threads.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mobadj.web.pages import STATIC, Site, Unreadable

log = logging.getLogger("mobadj.web")
_STEP_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
KEY_FORM_LIMIT = 2000  # bytes of a key form's body read at most
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
}
#: what answers about a private game (or one that may be) carry: kept by nobody on the way,
#: indexed by no search engine
PRIVATE = {"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow"}


def cookie_name(game: str) -> str:
    return f"mobadj_key_{quote(game, safe='')}"


def game_name_ok(game: str) -> bool:
    """Could this be a game's name? (The judge's names: at most 30 letters, digits, - and _;
    anything else is looked up nowhere.)"""
    return 0 < len(game) <= 30 and game.replace("-", "").replace("_", "").isalnum()


def step_ok(step: str) -> bool:
    return 0 < len(step) <= 60 and set(step) <= _STEP_CHARS


def here(request: Request) -> str:
    """The address of this page relative to its folder (``F1901M.html``, or ``./``).  (The
    request's path, never its URL: that is built from the Host header.)"""
    return quote(str(request.scope["path"]).rsplit("/", 1)[-1]) or "./"


def root_of(request: Request) -> str:
    """The site's root relative to this page (``../../`` for a game's page)."""
    return "../" * max(str(request.scope["path"]).count("/") - 1, 0)


class SafeHeaders:
    """Every answer, a static file or a routing 404 too, carries :data:`HEADERS` (a handler's
    own value of one of them stands)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                            if k.lower().encode() not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(site: Site) -> Starlette:
    """The ASGI application serving ``site``."""

    def page(html: str, status: int = 200, private: bool = False) -> HTMLResponse:
        extra = PRIVATE if private else {"Cache-Control": "no-cache"}
        return HTMLResponse(html, status, headers=HEADERS | extra)

    def missing(request: Request, message: str, status: int = 404) -> HTMLResponse:
        return page(site._render("missing.html", root=root_of(request), message=message),
                    status)

    def closed(request: Request, game: str, wrong_key: bool) -> HTMLResponse:
        """A private game without its right key, and a game that does not exist: the same
        answer, so nobody learns that a private game exists."""
        called = f"called {game}" if game_name_ok(game) else "of that name"
        message = (f"That key opens no game {called}." if wrong_key else
                   f"There is no public game {called} here.")
        return page(site._render("private.html", root=root_of(request), message=message,
                                 action="key"), 404, private=True)

    def unreadable(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Unreadable)
        return missing(request, f"The pages of game {exc.game} cannot be shown: this "
                       "installation cannot read its record. The GM finds why in the log "
                       "of mobadj web.", 500)

    def public(game: str) -> bool:
        return site.store.game(game) is not None and not site.is_private(game)

    def gate(request: Request, game: str) -> Response | None:
        """None when the page may be shown; else the refusal or the key-dropping redirect."""
        if not game_name_ok(game):
            return missing(request, "No such page.")
        if public(game):
            return None
        given = request.query_params.get("key")
        if given is not None:
            if not may_open(game, given):
                return closed(request, game, wrong_key=True)
            return with_cookie(request, game, given, here(request))
        if may_open(game, request.cookies.get(cookie_name(game))):
            return None
        return closed(request, game, wrong_key=False)

    def may_open(game: str, key: str | None) -> bool:
        """A private game's right key (the comparison is in constant time)."""
        return (key is not None and game_name_ok(game) and site.store.game(game) is not None
                and site.is_private(game) and site.may_see(game, key))

    def with_cookie(request: Request, game: str, key: str, to: str) -> Response:
        response = RedirectResponse(to, 303, headers=HEADERS | PRIVATE)
        # no Path: the browser keeps it for this game's folder as it sees it (behind a proxy
        # that serves the site under /judge/ too)
        response.set_cookie(cookie_name(game), key, max_age=400 * 86400, path=None,
                            httponly=True, samesite="lax",
                            secure=request.scope.get("scheme") == "https")
        return response

    async def index(request: Request) -> Response:
        return page(site.index_html())

    async def game_page(request: Request) -> Response:
        game = request.path_params["game"]
        step = request.path_params.get("step")
        if (stop := gate(request, game)) is not None:
            return stop
        private = site.is_private(game)
        if step is not None and not step_ok(step):
            return missing(request, "No such page.")
        html = site.game_html(game, None if step in (None, "index") else step)
        if html is None:
            return missing(request, f"Game {game} has no phase {step}.")
        return page(html, private=private)

    async def game_folder(request: Request) -> Response:
        game = request.path_params["game"]
        query = bytes(request.scope.get("query_string", b"")).decode("latin-1")
        to = quote(game, safe="") + "/" + (f"?{query}" if query else "")
        return RedirectResponse(to, 301, headers=HEADERS)

    async def map_svg(request: Request) -> Response:
        game, step = request.path_params["game"], request.path_params["step"]
        nothing = PlainTextResponse("no such map", 404, headers=HEADERS | PRIVATE)
        if not game_name_ok(game) or not step_ok(step):
            return nothing
        private = not public(game)
        if private and not may_open(game, request.cookies.get(cookie_name(game))):
            return nothing
        svg = site.map_svg(game, step)
        if svg is None:
            return nothing
        etag = '"' + hashlib.sha256(svg.encode()).hexdigest()[:32] + '"'
        headers = HEADERS | (PRIVATE if private else {"Cache-Control": "no-cache"})
        headers["ETag"] = etag
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def key_form(request: Request) -> Response:
        game = request.path_params["game"]
        given = await form_key(request)
        if given is None:
            return missing(request, f"A key is at most {KEY_FORM_LIMIT} bytes.", 413)
        if not may_open(game, given):
            if game_name_ok(game) and public(game):  # no key needed: to its pages
                return RedirectResponse("./", 303, headers=HEADERS)
            return closed(request, game, wrong_key=True)
        return with_cookie(request, game, given, "./")

    async def form_key(request: Request) -> str | None:
        """The key typed in the form; None when the body is longer than a key form's."""
        length = request.headers.get("content-length", "")
        if length.strip().isdigit() and int(length) > KEY_FORM_LIMIT:
            return None
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > KEY_FORM_LIMIT:
                return None
        return (parse_qs(body.decode("utf-8", "replace")).get("key") or [""])[0].strip()

    async def not_found(request: Request, exc: Exception) -> Response:
        code = exc.status_code if isinstance(exc, HTTPException) else 404
        if code != 404:  # 405 names the methods allowed
            headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
            detail = exc.detail if isinstance(exc, HTTPException) else ""
            return PlainTextResponse(str(detail), code, headers=HEADERS | headers)
        return missing(request, "No such page.")

    async def server_error(request: Request, exc: Exception) -> Response:
        """Whatever went wrong: a plain page, no traceback (the log of mobadj web has it)."""
        return HTMLResponse(
            site._render("missing.html", root=root_of(request), message="Something went "
                         "wrong on the server: the GM finds what in the log of mobadj web."),
            500, headers=HEADERS | {"Cache-Control": "no-store"})

    routes: list[Any] = [
        Route("/", index),
        Route("/index.html", index),
        Route("/g/{game}", game_folder),
        Route("/g/{game}/", game_page),
        Route("/g/{game}/key", key_form, methods=["POST"]),
        Route("/g/{game}/map/{step}.svg", map_svg),
        Route("/g/{game}/{step}.html", game_page),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(SafeHeaders), Middleware(GZipMiddleware, minimum_size=800)],
        exception_handlers={HTTPException: not_found, Unreadable: unreadable,
                            Exception: server_error})
    # Starlette's own redirects for a slash too many or too few are absolute, from the Host
    # header, and lose a proxy's path: such an address is a 404 here
    app.router.redirect_slashes = False
    return app
