"""The pages served over HTTP: a Starlette application on a read-only store.

Routes (all relative, so the site may live under any path behind a proxy)::

    /  /index.html                 the games index
    /g/<game>/  /g/<game>/index.html   the game's latest phase
    /g/<game>/<phase>.html         one phase
    /g/<game>/map/<phase>.svg      its map
    /static/...                    style sheet and script

A private game's pages need its key: the GM's link carries it once as ``?key=``, the server
answers with a cookie for that game's folder and sends the browser to the same address
without the key, so it stays out of the address bar, the history and every link.  The
handlers are ``async`` and run one at a time on the event loop: the store's single read-only
connection is never shared between threads.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mobadj.web.pages import STATIC, Site

_GAME = re.compile(r"^[a-z0-9_-]{1,30}$")
_STEP = re.compile(r"^[A-Za-z0-9._-]{1,60}$")
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
}


def cookie_name(game: str) -> str:
    return f"mobadj_key_{game}"


def create_app(site: Site) -> Starlette:
    """The ASGI application serving ``site``."""

    def page(html: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(html, status, headers=HEADERS | {"Cache-Control": "no-cache"})

    def missing(message: str, root: str) -> HTMLResponse:
        return page(site._render("missing.html", root=root, message=message), 404)

    def folder(request: Request, game: str) -> str:
        """The game's folder as the browser sees it (the cookie's path)."""
        path = request.url.path
        return path[: path.index(f"/g/{game}") + len(f"/g/{game}") + 1]

    def refused(request: Request, game: str, message: str) -> HTMLResponse:
        return page(site._render("private.html", root="../../", message=message,
                                 action=folder(request, game) + "key"), 403)

    def gate(request: Request, game: str) -> Response | None:
        """None when the page may be shown; else the refusal or the key-dropping redirect."""
        if not site.is_private(game):
            return None
        given = request.query_params.get("key")
        if given is not None:
            if not site.may_see(game, given):
                return refused(request, game, "That key is not right for this game.")
            return with_cookie(request, game, given, request.url.path)
        if site.may_see(game, request.cookies.get(cookie_name(game))):
            return None
        return refused(request, game, "This game is private.")

    def with_cookie(request: Request, game: str, key: str, to: str) -> Response:
        response = RedirectResponse(to, 303, headers=HEADERS)
        response.set_cookie(cookie_name(game), key, max_age=400 * 86400,
                            path=folder(request, game), httponly=True, samesite="lax",
                            secure=request.url.scheme == "https")
        return response

    async def index(request: Request) -> Response:
        return page(site.index_html())

    async def game_page(request: Request) -> Response:
        game = request.path_params["game"]
        step = request.path_params.get("step")
        if not _GAME.match(game) or (step is not None and not _STEP.match(step)):
            return missing("No such page.", "../../")
        if site.store.game(game) is None:
            return missing(f"There is no game called {game} here.", "../../")
        if (stop := gate(request, game)) is not None:
            return stop
        html = site.game_html(game, None if step in (None, "index") else step)
        if html is None:
            return missing(f"Game {game} has no phase {step}.", "../../")
        return page(html)

    async def game_folder(request: Request) -> Response:
        return RedirectResponse(str(request.url.replace(path=request.url.path + "/")), 301)

    async def map_svg(request: Request) -> Response:
        game, step = request.path_params["game"], request.path_params["step"]
        if not _GAME.match(game) or not _STEP.match(step):
            return Response("no such map", 404)
        if site.store.game(game) is None:
            return Response("no such map", 404)
        if site.is_private(game) and not site.may_see(game, request.cookies.get(
                cookie_name(game))):
            return Response("private game", 403)
        svg = site.map_svg(game, step)
        if svg is None:
            return Response("no such map", 404)
        etag = '"' + hashlib.sha256(svg.encode()).hexdigest()[:32] + '"'
        headers = HEADERS | {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def key_form(request: Request) -> Response:
        game = request.path_params["game"]
        if not _GAME.match(game) or site.store.game(game) is None:
            return missing("No such game.", "../../")
        body = (await request.body())[:2000].decode("utf-8", "replace")
        given = (parse_qs(body).get("key") or [""])[0].strip()
        if not site.may_see(game, given):
            return refused(request, game, "That key is not right for this game.")
        return with_cookie(request, game, given, folder(request, game))

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
    return Starlette(routes=routes, middleware=[Middleware(GZipMiddleware, minimum_size=800)])
