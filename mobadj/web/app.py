"""The pages served over HTTP: a Starlette application on a read-only store.

Routes (all relative, so the site may live under any path behind a proxy)::

    /  /index.html                 the games index
    /g/<game>/  /g/<game>/index.html   the game's latest phase
    /g/<game>/<phase>.html         one phase
    /g/<game>/map/<phase>.svg      its map
    /static/...                    style sheet and script

A game has one name, as the judge stored it (lower case): every lookup (the game, its key,
its cookie) goes by that name, and an address that spells it otherwise is sent to the one
that spells it so, once the visitor may see the game at all.  The rest of an address may be
typed in any case (``/G/``, ``s1901m.html``, ``INDEX.HTML``): :class:`CaseBlindPaths` routes
the site's own words in lower case, and a game finds its phases in any case.

A private game's pages need its key: the GM's link carries it once as ``?key=``, the server
answers with a cookie for that game's folder and sends the browser to the same address
without the key, so it stays out of the address bar, the history and every link.  No
redirect carries a key, and none is kept by a cache.  Every redirect is relative and the
cookie has no ``Path`` (the browser scopes it to the game's folder as it sees it), so a
proxy may serve the site under any path; a key given at another address of the game (its
name spelt otherwise, its folder without the slash) is handed on to the game's own key box
in a form, as a cookie set there would not reach the game's folder.  A seat's personal
sign-in link (``play?link=``) is spent only by the button of the page it opens (a form to
the game's own play page): a mail scanner's or a link preview's request leaves it unspent.

A private game without its key is answered exactly as a game that does not exist, in
status, body, headers and time: both are looked up by the same single query, which reads no
state (:meth:`Store.game_key`), and both are refused by the same code before anything of the
game is read.  The handlers are ``async`` and run one at a time on the event loop: the
store's single read-only connection is never shared between threads.
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mobadj.judge import WebPlay, WebSeat
from mobadj.web.pages import STATIC, Site, UnreadableGame, static_version
from mobadj.web.play import SeatPages, compose, kept_press, nothing_sent, ready_alone
from mobadj.web.wire import Bodies, Body, answer

log = logging.getLogger("mobadj.web")
_STEP_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
KEY_FORM_LIMIT = 2000  # bytes of a key form's body read at most
PLAY_FORM_LIMIT = 64_000  # bytes of a seat's form (orders, press) read at least


def form_limit(max_text: int) -> int:
    """Bytes of a seat's form read at most: room for the characters the judge reads of a
    mail (``max_text``) as a browser sends them (a sign or a space takes up to 3 bytes), so
    that the judge, not the form's size, says what is too long."""
    return max(PLAY_FORM_LIMIT, 3 * max_text + 16_000)
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'",
}
#: what answers about a private game (or one that may be) carry: kept by nobody on the way,
#: indexed by no search engine
PRIVATE = {"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow"}
#: the static files' types, by their ending
TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
#: what a missing game's key is compared with, so that refusing one costs what refusing a
#: private game does
_NO_KEY = "k" * 24


#: the sign-in page's words to a seat's form sent after its session ended
NOT_SIGNED_IN = ("You are no longer signed in on this page (you signed out, the session ran "
                 "out, or the password changed): what you sent was not done. Sign in and "
                 "send it again.")


#: the seat's map (``mine.svg``) asked for by a page whose session has ended (a page opened
#: again from the browser's history): an image that says so, not a broken one
SIGNED_OUT_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="72" viewBox="0 0 640 72"'
    b' role="img" aria-label="You are signed out">'
    b'<rect width="640" height="72" fill="#f4f1ea" stroke="#8a7f6a"/>'
    b'<text x="320" y="32" text-anchor="middle" font-family="sans-serif" font-size="18">'
    b'You are signed out: no map of your orders.</text>'
    b'<text x="320" y="56" text-anchor="middle" font-family="sans-serif" font-size="14">'
    b'Sign in again to see them on the map.</text></svg>')


#: what the page's script shows where the reading of the orders box would be, when the
#: reading (or the map) was refused: the session ended, the page is from an earlier
#: sign-in, the game is no longer to be opened here; each with its link to go on
KEPT = "What you typed is still in the box; nothing was sent."
SCRIPT_REFUSALS = {
    "signed-out": ("You are signed out (signed out elsewhere, the session ran out, or the "
                   f"password changed): sign in again to send orders. {KEPT} It comes back "
                   "into the box when you sign in again from this page.", "Sign in again"),
    "stale": ("This page is from an earlier sign-in (you signed in again elsewhere): open "
              f"it again to send orders. {KEPT} It comes back into the box when you open "
              "the page again from here.", "Open the page again"),
    "missing": (f"This game's page cannot be opened here any more. {KEPT}",
                "Open the page again"),
}
#: what the reading says of a page drawn for a phase the game has left
OPENED_AGAIN = "Opened again from here, the page of the phase now shows it to copy."
#: where each refusal's link goes (else to the seat's page, ``play``): a page of another
#: power's session to the sign-in form (the seat's page would be the other power's)
SCRIPT_LINKS = {"other-seat": "play?signin=1", "left-seat": "./"}


def other_seat(label: str) -> str:
    """What a page of ``label`` is told once another power signed in on this browser (its
    session ended then: one power at a time on a browser)."""
    return (f"You are signed out as {label}: another power was signed in on this browser "
            "since this page was drawn (one power at a time on a browser), and that ended "
            f"your session. Sign in again as {label} to send orders. {KEPT} It comes back "
            f"into the box when you sign in again as {label} from this page.")


def other_seat_form(label: str) -> str:
    """The sign-in page's words to a form of ``label``'s page sent after another power
    signed in on this browser."""
    return (f"You are signed out as {label}: another power was signed in on this browser "
            "since your page was drawn (one power at a time on a browser): what you sent "
            f"was not done. Sign in as {label} and send it again.")


def already_out(label: str) -> str:
    """The sign-in page's words to *Sign out* pressed on ``label``'s page after another power
    signed in on this browser: ``label`` is out already, and the other power stays in."""
    return (f"You are signed out as {label} already: another power was signed in on this "
            "browser since your page was drawn (one power at a time on a browser), and that "
            "ended your session. The power signed in now stays signed in.")


ALREADY_OUT = "You are signed out already (you signed out, the session ran out, or the " \
    "password changed)."


def cookie_name(game: str) -> str:
    return f"mobadj_key_{quote(game, safe='')}"


def seat_cookie(game: str) -> str:
    """The cookie of a seat signed in on a game's pages (one game, one seat at a time)."""
    return f"mobadj_seat_{quote(game, safe='')}"


def signin_cookie(game: str) -> str:
    """The sign-in form's own token (its CSRF check before there is a session)."""
    return f"mobadj_signin_{quote(game, safe='')}"


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


def after_game(request: Request, typed: str) -> str:
    """What follows the game's name in this request's path (``/F1901M.html``, ``/``, or
    nothing for the folder without its slash)."""
    path = str(request.scope["path"])
    root = str(request.scope.get("root_path") or "")
    if root and path.startswith(root):
        path = path[len(root):]
    return path[len("/g/") + len(typed):]


def to_game(request: Request, typed: str, name: str) -> str:
    """The address, relative to this page, of the same page of game ``name`` (its own
    spelling, with the folder's slash)."""
    rest = after_game(request, typed)
    return "../" * rest.count("/") + quote(name, safe="") + (quote(rest) if rest else "/")


def key_matches(wanted: str | None, given: str) -> bool:
    """Is ``given`` the key ``wanted`` (None: a game that has none, or none at all)?  In
    constant time, and in the same time for a game without a key."""
    same = hmac.compare_digest(given.encode(), (wanted or _NO_KEY).encode())
    return same and wanted is not None


def cookies_named(request: Request, name: str) -> list[str]:
    """Every value of cookie ``name`` the browser sent: one from the game's folder and one
    from elsewhere may both come (Starlette keeps only one of them)."""
    values = []
    for part in request.headers.get("cookie", "").split(";"):
        key, eq, value = part.strip().partition("=")
        if eq and key == name:
            values.append(value.strip().strip('"'))
    return values


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


_FIXED = frozenset({"g", "static", "index.html", "favicon.ico"})
_IN_GAME = frozenset({"index.html", "play", "key", "signin", "act", "check", "signout",
                      "mine.svg", "map"})


def canonical_path(path: str) -> str:
    """``path`` with the site's own words in lower case (``/G/g1/S1901M.HTML`` ->
    ``/g/g1/S1901M.html``): an address typed by hand may spell them in any case.  The game's
    name and the phase are left as typed: their pages find them in any case."""
    parts = path.split("/")
    if len(parts) < 2 or parts[1].lower() not in _FIXED:
        return path
    parts[1] = parts[1].lower()
    if parts[1] == "static" and len(parts) == 3:
        parts[2] = parts[2].lower()
    elif parts[1] == "g" and len(parts) >= 4:
        rest = parts[3].lower()
        if rest in _IN_GAME:
            parts[3] = rest
        elif rest.endswith(".html"):
            parts[3] = parts[3][:-5] + ".html"
        if parts[3] == "map" and len(parts) == 5 and parts[4].lower().endswith(".svg"):
            parts[4] = parts[4][:-4] + ".svg"
    return "/".join(parts)


class CaseBlindPaths:
    """Routes an address that spells the site's own words in another case (``/G/``,
    ``INDEX.HTML``) as its lower-case spelling, in place: no redirect (one would have to
    drop a private link's key), and the pages' links are relative, so a visitor stays at
    the spelling typed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path, root = str(scope["path"]), str(scope.get("root_path") or "")
            inner = path[len(root):] if root and path.startswith(root) else path
            fixed = canonical_path(inner)
            if fixed != inner:
                scope = {**scope, "path": path[:len(path) - len(inner)] + fixed}
        await self.app(scope, receive, send)


def create_app(site: Site, secure_cookies: bool = False, play: WebPlay | None = None
               ) -> Starlette:
    """The ASGI application serving ``site``.  ``secure_cookies``: a key's cookie is always
    ``Secure`` (the pages' public address is HTTPS); else only when the request came by
    HTTPS (``X-Forwarded-Proto: https`` from a proxy on this machine counts).  ``play``:
    the judge's operations for seats, when players may sign in and play on the pages
    (:mod:`mobadj.web.play`); without it the pages are read only."""

    bodies = Bodies()
    statics = {path.name: (Body(path.read_bytes()), TYPES[path.suffix])
               for path in sorted(STATIC.iterdir()) if path.suffix in TYPES}

    def page(request: Request, html: str, status: int = 200, private: bool = False
             ) -> Response:
        extra = PRIVATE if private else {"Cache-Control": "no-cache"}
        return answer(request, bodies.of(html), "text/html", HEADERS | extra, status)

    def missing(request: Request, message: str, status: int = 404) -> Response:
        return page(request, site._render("missing.html", root=root_of(request),
                                          message=message), status)

    def moved(to: str) -> Response:
        """A redirect: kept by no cache (a game may turn private, its key may change)."""
        return RedirectResponse(to, 303, headers=HEADERS | PRIVATE)

    def closed(request: Request, typed: str, wrong_key: bool, to: str | None) -> Response:
        """A private game without its right key, and a game that does not exist: the same
        answer, built from the address alone, so nobody learns that a private game
        exists.  Its key box leads to the phase asked for (``to``; None: the latest)."""
        message = (f"That key opens no game called {typed}." if wrong_key else
                   f"There is no public game called {typed} here.")
        action = quote(typed, safe="") + "/key" if not after_game(request, typed) else "key"
        return page(request, site._render("private.html", root=root_of(request),
                                          message=message, action=action, to=to or ""),
                    404, private=True)

    def unreadable(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, UnreadableGame)
        return missing(request, f"The pages of game {exc.game} cannot be shown: this "
                       "installation cannot read its record. The GM finds why in the log "
                       "of mobadj web.", 500)

    def find(typed: str) -> tuple[str | None, str | None]:
        """The stored name of the game an address names (None: no such game) and its key
        (None: public, or no such game)."""
        found = site.store.game_key(typed)
        return (None, None) if found is None else found

    def key_in_cookie(request: Request, typed: str, name: str | None, wanted: str | None
                      ) -> bool:
        """Does the browser hold the game's key?  Every cookie of its name is compared, for
        a game that does not exist too (in the time a private game's take)."""
        cookies = cookies_named(request, cookie_name(name or typed.lower()))
        return any([key_matches(wanted, c) for c in cookies]) and name is not None

    def with_cookie(request: Request, name: str, key: str, to: str) -> Response:
        response = moved(to)
        # no Path: the browser keeps it for this game's folder as it sees it (behind a proxy
        # that serves the site under /judge/ too)
        response.set_cookie(cookie_name(name), key, max_age=400 * 86400, path=None,
                            httponly=True, samesite="lax",
                            secure=secure_cookies or request.scope.get("scheme") == "https")
        return response

    def hand_on(request: Request, typed: str, name: str, key: str, step: str | None
                ) -> Response:
        """A right key given at another address of the game: a form that takes it to the
        game's own key box (sent at once by the pages' script; a button without it)."""
        rest = after_game(request, typed)
        action = "../" * rest.count("/") + quote(name, safe="") + "/key"
        fields = [("key", key)] + ([("to", step)] if step else [])
        html = site._render("opening.html", root=root_of(request), name=name, action=action,
                            what="key", fields=fields)
        return page(request, html, private=True)

    def gate(request: Request, typed: str, step: str | None = None
             ) -> tuple[str, bool] | Response:
        """(the game's stored name, whether it is private) when its page may be shown;
        else the answer: a refusal, or the way to the game's own address."""
        if not game_name_ok(typed):
            return missing(request, "No such page.")
        name, wanted = find(typed)
        if name is None or wanted is not None:  # missing or private: the same steps
            given = request.query_params.get("key")
            if given is not None:
                if not key_matches(wanted, given) or name is None:
                    return closed(request, typed, True, step)
                if typed != name or not after_game(request, typed):
                    return hand_on(request, typed, name, given, step)
                return with_cookie(request, name, given, here(request))
            if not key_in_cookie(request, typed, name, wanted) or name is None:
                return closed(request, typed, False, step)
        if typed != name or not after_game(request, typed):
            return moved(to_game(request, typed, name))
        return name, wanted is not None

    async def index(request: Request) -> Response:
        return page(request, site.index_html())

    async def game_page(request: Request) -> Response:
        typed = request.path_params["game"]
        step = request.path_params.get("step")
        opened = gate(request, typed, step if step and step_ok(step) else None)
        if isinstance(opened, Response):
            return opened
        name, private = opened
        if step is not None and not step_ok(step):
            return missing(request, "No such page.")
        html = site.game_html(name, None if step in (None, "index") else step)
        if html is None:
            return missing(request, f"Game {name} has no phase {step}.")
        return page(request, html, private=private)

    async def map_svg(request: Request) -> Response:
        typed, step = request.path_params["game"], request.path_params["step"]
        nothing = PlainTextResponse("no such map", 404, headers=HEADERS | PRIVATE)
        if not game_name_ok(typed) or not step_ok(step):
            return nothing
        name, wanted = find(typed)
        private = name is None or wanted is not None  # a missing game is refused alike
        if (private and not key_in_cookie(request, typed, name, wanted)) or name is None:
            return nothing
        if typed != name:
            return moved(to_game(request, typed, name))
        body = site.map_body(name, step)
        if body is None:
            return nothing
        headers = HEADERS | (PRIVATE if wanted is not None else {"Cache-Control": "no-cache"})
        return answer(request, body, "image/svg+xml", headers)

    async def static(request: Request) -> Response:
        """A style sheet, script or icon: kept for good by the browser when asked for by
        its version (the pages' links), else checked again each time."""
        name = request.path_params.get("name", "favicon.svg")
        found = statics.get(name)
        if found is None:
            return missing(request, "No such page.")
        kept = request.query_params.get("v") == static_version(name)
        return answer(request, found[0], found[1], HEADERS | (
            {"Cache-Control": "public, max-age=31536000, immutable"} if kept
            else {"Cache-Control": "no-cache"}))

    async def key_form(request: Request) -> Response:
        typed = request.path_params["game"]
        form = await form_fields(request)
        if form is None:
            return missing(request, f"A key is at most {KEY_FORM_LIMIT} bytes.", 413)
        if not game_name_ok(typed):
            return missing(request, "No such page.")
        given, to = form
        name, wanted = find(typed)
        if name is not None and wanted is None:  # public: no key needed, to its pages
            return moved("../" + quote(name, safe="") + "/")
        if not key_matches(wanted, given) or name is None:
            return closed(request, typed, True, to if step_ok(to) else None)
        if typed != name:  # the browser sends the form again to the game's own key box
            return RedirectResponse("../" + quote(name, safe="") + "/key", 307,
                                    headers=HEADERS | PRIVATE)
        return with_cookie(request, name, given, f"{to}.html" if step_ok(to) else "./")

    async def form_fields(request: Request) -> tuple[str, str] | None:
        """The key typed in the form and the phase to show then ("" for the latest); None
        when the body is longer than a key form's."""
        fields = await read_form(request, KEY_FORM_LIMIT)
        if fields is None:
            return None
        return fields.get("key", "").strip(), fields.get("to", "")

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

    seat_pages = SeatPages(site)
    site.env.globals["playing"] = play is not None

    def secure(request: Request) -> bool:
        return secure_cookies or request.scope.get("scheme") == "https"

    def cross_site(request: Request) -> bool:
        """A form sent from another site's page (the browser says so): never taken."""
        return request.headers.get("sec-fetch-site", "same-origin") not in (
            "same-origin", "none")

    def open_game(request: Request, typed: str) -> str | None:
        """The game a form of its own pages is sent to: its stored name, when its pages
        may be seen (a private game's key in the cookie) and the address spells it so."""
        if not game_name_ok(typed):
            return None
        name, wanted = find(typed)
        if name is None or typed != name:
            return None
        if wanted is not None and not key_in_cookie(request, typed, name, wanted):
            return None
        return name

    def seat_of(request: Request, name: str) -> WebSeat | None:
        assert play is not None
        for value in cookies_named(request, seat_cookie(name)):
            seat = play.seat(value, name)
            if seat is not None:
                return seat
        return None

    async def read_form(request: Request, limit: int = PLAY_FORM_LIMIT
                        ) -> dict[str, str] | None:
        """A form's fields (the first value of each); None when it is too long.  A client
        that hangs up before its whole body is in gets a plain 400 (which nobody reads) and
        one line in the log: anyone may do it, it is no fault of the server's."""
        length = request.headers.get("content-length", "")
        if length.strip().isdigit() and int(length) > limit:
            return None
        body = bytearray()
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    return None
        except ClientDisconnect:
            log.info("%s hung up before sending all of a form", client_of(request))
            raise HTTPException(400, "The form did not all arrive.") from None
        return {k: v[0] for k, v in parse_qs(bytes(body).decode("utf-8", "replace"),
                                              keep_blank_values=True).items()}

    def forget(response: Response, cookie: str) -> None:
        """Drop a cookie set without a Path (it has the game's folder's as its own)."""
        response.set_cookie(cookie, "", max_age=0, path=None, httponly=True, samesite="lax")

    def signin_page(request: Request, name: str, message: str = "", status: int = 200,
                    chosen: str = "", refused: bool = False) -> Response:
        """The sign-in form (``chosen``, ``refused``: as :meth:`SeatPages.signin_html`)."""
        token = secrets.token_urlsafe(24)
        html = seat_pages.signin_html(name, token, message, chosen, refused)
        if html is None:
            return missing(request, "No such page.")
        response = page(request, html, status, private=True)
        response.set_cookie(signin_cookie(name), token, max_age=3600, path=None,
                            httponly=True, samesite="strict", secure=secure(request))
        return response

    def link_page(request: Request, typed: str, link: str) -> Response:
        """A personal link opened (GET, or a HEAD that a mail scanner or a link preview
        sends): a button that takes it, unspent, to the game's own play page, where it is
        spent only when the player presses it.  The cookies set there reach the game's
        folder even when the link spells the game's name otherwise (``/g/Dip/play``).
        Nothing is looked up: every game's name is its lower-case spelling, and the answer
        is the same for a private game as for one that does not exist."""
        name = typed.lower()
        action = "play" if typed == name else "../" + quote(name, safe="") + "/play"
        html = site._render("link.html", root=root_of(request), name=name, action=action,
                            fields=[("link", link)])
        return page(request, html, private=True)

    def by_link(request: Request, typed: str, link: str) -> Response:
        """A personal link (LINK by mail), its button pressed: signed in once, and sent to
        the page without the link in its address; a private game's key comes with it.  A
        link that is no good takes a browser signed in on the game to its page, and one
        that may see the game to its sign-in form; anyone else is answered as the game's
        page would be without it."""
        assert play is not None
        if not game_name_ok(typed) or typed != typed.lower():
            return missing(request, "No such page.")
        name, wanted = find(typed)
        # looked up for a missing game too: a private game's link costs what a missing one's
        cookie = play.redeem(link, name or typed.lower(), client_of(request))
        if name is None or cookie is None:
            return spent_link(request, typed, name, wanted)
        response = moved("play")
        response.set_cookie(seat_cookie(name), cookie, max_age=int(play.session_seconds),
                            path=None, httponly=True, samesite="lax", secure=secure(request))
        if wanted is not None:
            response.set_cookie(cookie_name(name), wanted, max_age=400 * 86400, path=None,
                                httponly=True, samesite="lax", secure=secure(request))
        return response

    def spent_link(request: Request, typed: str, name: str | None, wanted: str | None
                   ) -> Response:
        """A link that is no good (used, too old, the password changed): the page it
        promised to a browser signed in on the game already (its second click on the
        link); the sign-in form to one that may see the game; else the game's refusal."""
        if name is not None and (wanted is None or key_in_cookie(request, typed, name,
                                                                 wanted)):
            if seat_of(request, name) is not None:
                return moved("play")
            return signin_page(request, name, "That link has been used, is too old, or the "
                               "password changed since: sign in with your password, or send "
                               "LINK by mail for a new link.", 403)
        return closed(request, typed, False, None)

    def client_of(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    async def play_page(request: Request) -> Response:
        """The seat's own page, or the form to sign in as one."""
        typed = request.path_params["game"]
        link = request.query_params.get("link")
        if link is not None and play is not None:
            if not game_name_ok(typed):
                return missing(request, "No such page.")
            return link_page(request, typed, link)
        opened = gate(request, typed)
        if isinstance(opened, Response):
            return opened
        if play is None:
            return missing(request, "Playing on the pages is not switched on here.")
        name = opened[0]
        seat = seat_of(request, name)
        if seat is None:
            return signin_page(request, name)
        if "signin" in request.query_params:  # a page of another power: sign in again
            return signin_page(request, name, "Another power is signed in on this browser "
                               "now: signing in here signs it out (one power at a time on "
                               "a browser).")
        html = seat_pages.seat_html(seat, seat.said)
        if html is None:
            return missing(request, "No such page.")
        play.shown(seat)
        return page(request, html, private=True)

    async def play_by_link(request: Request) -> Response:
        """A personal link's button pressed (:func:`link_page`): spent here, once."""
        if play is None:
            return missing(request, "Playing on the pages is not switched on here.")
        fields = await read_form(request, KEY_FORM_LIMIT)
        if fields is None:
            return missing(request, "That form is too long.", 413)
        if cross_site(request):  # another site's form: it would sign this browser in as it
            return missing(request, "That form did not come from this site.", 403)
        return by_link(request, request.path_params["game"], fields.get("link", ""))

    async def sign_in(request: Request) -> Response:
        name = open_game(request, request.path_params["game"])
        if name is None or play is None:
            return missing(request, "No such page.")
        fields = await read_form(request, KEY_FORM_LIMIT)
        if fields is None:
            return missing(request, "That form is too long.", 413)
        token = fields.get("csrf", "")
        if cross_site(request) or not any(hmac.compare_digest(token.encode(), c.encode())
                                          for c in cookies_named(request, signin_cookie(name))
                                          if token):
            return signin_page(request, name, "The form was too old or did not come from "
                               "this page: please sign in again.", 403,
                               fields.get("power", ""))
        cookie, why = play.sign_in(name, fields.get("power", ""), fields.get("password", ""),
                                   client_of(request))
        if cookie is None:  # the power stays picked: only the password is typed again
            return signin_page(request, name, why, 403, fields.get("power", ""), True)
        for old in cookies_named(request, seat_cookie(name)):  # one session at a time
            seat = play.seat(old, name)
            if seat is not None:
                play.sign_out(seat)
        response = moved("play")
        response.set_cookie(seat_cookie(name), cookie, max_age=int(play.session_seconds),
                            path=None, httponly=True, samesite="lax", secure=secure(request))
        forget(response, signin_cookie(name))
        return response

    def to_script(problem: str, status: int, message: str = "") -> Response:
        """A refusal for the page's script, in words it shows where the reading of the
        orders box would be (``message``, else :data:`SCRIPT_REFUSALS`'), with the link
        that goes on (to the seat's page: the sign-in form when signed out)."""
        words, link = SCRIPT_REFUSALS.get(problem, (message, ""))
        body: dict[str, Any] = {"problem": problem, "message": message or words}
        if problem == "other-seat":
            link = "Sign in again"
        elif problem == "moved-on":
            link = "Open the page again"
        elif problem == "left-seat":
            link, body["keep"] = "The game's page", False  # nobody signs in to get it back
        if link:
            body["link"] = {"href": SCRIPT_LINKS.get(problem, "play"), "text": link}
        return Response(json.dumps(body).encode(), status, media_type="application/json",
                        headers=HEADERS | PRIVATE)

    async def seat_form(request: Request, gone: str = "", script: bool = False,
                        other: Callable[[str], str] = other_seat_form
                        ) -> tuple[str, WebSeat, dict[str, str]] | Response:
        """A signed-in seat's form, checked: (game, seat, fields), or the answer.  ``gone``:
        what the sign-in page says to a form sent after its session ended (a page's own
        form: else it is only sent there).  ``script``: a request of the page's script,
        refused in words it shows (:func:`to_script`), never with a redirect it would
        follow to a page it cannot show.  ``other``: the sign-in page's words to a form of
        a power signed out by another power's sign-in on this browser."""
        name = open_game(request, request.path_params["game"])
        if name is None or play is None:
            return (to_script("missing", 404) if script
                    else missing(request, "No such page."))
        limit = form_limit(play.max_text)
        fields = await read_form(request, limit)
        if fields is None:
            too_long = (f"That form is more than {limit} bytes as the browser sends it (the "
                        f"judge reads at most {play.max_text} characters at once): nothing "
                        "of it was done. Send it in parts.")
            return (to_script("too-long", 413, too_long) if script
                    else missing(request, too_long, 413))
        seat = seat_of(request, name)
        if seat is None:
            left = left_seat(request, name)
            if script:
                return (to_script("left-seat", 403, f"{left} {KEPT}") if left
                        else to_script("signed-out", 403))
            if left and gone:
                return signin_page(request, name, f"{left} What you sent was not done.", 403)
            return signin_page(request, name, gone, 403) if gone else moved("play")
        token = fields.get("csrf", "") or request.headers.get("x-csrf-token", "")
        if cross_site(request) or not hmac.compare_digest(token.encode(), seat.csrf.encode()):
            # a page of another power's session: this browser's one session is now another
            # power's, signed in since (the page names its power; an older page does not)
            page_seat = fields.get("seat", "")
            if page_seat and page_seat != seat.who and not cross_site(request):
                label = ("GM" if page_seat == "GM"
                         else seat_pages.labels(name).get(page_seat, page_seat[:40]))
                if script:
                    return to_script("other-seat", 403, other_seat(label))
                if gone:
                    return signin_page(request, name, other(label), 403)
            if script:
                return to_script("stale", 403)
            return missing(request, "That form did not come from your page (or is too "
                           "old): nothing was done. Open the page again.", 403)
        return name, seat, fields

    def left_seat(request: Request, name: str) -> str:
        """Why the session this browser held for game ``name`` ended, when its seat is no
        longer its player's ("" otherwise: signing in again helps)."""
        assert play is not None
        for value in cookies_named(request, seat_cookie(name)):
            why = play.left_seat(value, name)
            if why:
                return why
        return ""

    async def act(request: Request) -> Response:
        """A seat's orders, commands, press: to the judge, then back to the page; to the
        sign-in page, saying why, when it ended the session (SET PASSWORD, RESIGN)."""
        checked = await seat_form(request, NOT_SIGNED_IN)
        if isinstance(checked, Response):
            return checked
        name, seat, fields = checked
        assert play is not None
        if fields.get("do") == "check":  # read, nothing stored
            typed = fields.get("orders", "")
            late = play.moved_on(seat, fields.get("drawn"))
            if late:  # the page of the phase now, and what was typed, to copy
                html = seat_pages.seat_html(seat, f"{late}\n\nWhat you typed (not sent, "
                                            f"not put back into the box):\n{typed}")
                return page(request, html or "", private=True)
            check, preview = play.check(seat, typed)
            drawn = seat_pages.preview_svg(play, seat, typed) if seat.power else None
            html = seat_pages.seat_html(seat, seat_pages.check_text(check, preview),
                                        typed=typed, checked_map=drawn)
            return page(request, html or "", private=True)
        text = compose(fields, list(seat_pages.labels(name)))
        if text is None:  # a press form that sent nothing comes back as it was left
            kept = (kept_press(fields, list(seat_pages.labels(name)))
                    if fields.get("do") == "press" else None)
            html = seat_pages.seat_html(seat, nothing_sent(fields), press=kept)
            return page(request, html or "", private=True)
        once = fields.get("once", "") if fields.get("do") in ("press", "command") else ""
        reply = play.act(seat, text, fields.get("drawn") or None, ready_alone(fields),
                         once=once[:100])
        if seat_of(request, name) is None:
            return signin_page(request, name, f"{reply}\n\n{play.why_ended(seat)}")
        return moved("play")

    async def check(request: Request) -> Response:
        """The orders box read as the player types (the page's script): line by line."""
        checked = await seat_form(request, script=True)
        if isinstance(checked, Response):
            return checked
        _name, seat, fields = checked
        assert play is not None
        late = play.moved_on(seat, fields.get("drawn"))
        if late:  # a page left open over a deadline: not read against the phase now
            return to_script("moved-on", 409, f"{late} {KEPT} {OPENED_AGAIN}")
        result, preview = play.check(seat, fields.get("orders", ""))
        body = json.dumps(seat_pages.check_json(result, preview)).encode()
        return Response(body, 200, media_type="application/json",
                        headers=HEADERS | PRIVATE)

    async def sign_out(request: Request) -> Response:
        checked = await seat_form(request, ALREADY_OUT, other=already_out)
        if isinstance(checked, Response):
            return checked
        assert play is not None
        play.sign_out(checked[1])
        response = moved("./")
        forget(response, seat_cookie(checked[0]))
        return response

    async def seat_map(request: Request) -> Response:
        """The map of the current phase with the seat's own standing orders drawn as the
        judge's PREVIEW reads them (the others holding): for the seat's eyes only.  POSTed
        with the form's CSRF token and an orders box (the page's script, as the player
        types): those orders, checked and not stored, drawn instead."""
        nothing = PlainTextResponse("no such map", 404, headers=HEADERS | PRIVATE)
        typed: str | None = None
        if request.method == "POST":
            checked = await seat_form(request, script=True)
            if isinstance(checked, Response):
                return checked
            _name, seat, fields = checked
            assert play is not None
            late = play.moved_on(seat, fields.get("drawn"))
            if late:
                return to_script("moved-on", 409, f"{late} {KEPT} {OPENED_AGAIN}")
            typed = fields.get("orders", "")
        else:
            name = open_game(request, request.path_params["game"])
            if name is None or play is None:
                return nothing
            maybe = seat_of(request, name)
            if maybe is None:
                if cookies_named(request, seat_cookie(name)):  # a session that ended
                    return answer(request, Body(SIGNED_OUT_SVG), "image/svg+xml",
                                  HEADERS | PRIVATE, status=403)
                return nothing
            seat = maybe
        if seat.power is None or play is None:
            return nothing
        svg = seat_pages.preview_svg(play, seat, typed)
        if svg is None:
            return nothing
        return answer(request, Body(svg.encode()), "image/svg+xml", HEADERS | PRIVATE)

    routes: list[Any] = [
        Route("/", index),
        Route("/index.html", index),
        Route("/g/{game}", game_page),
        Route("/g/{game}/", game_page),
        Route("/g/{game}/key", key_form, methods=["POST"]),
        Route("/g/{game}/play", play_page),
        Route("/g/{game}/play", play_by_link, methods=["POST"]),
        Route("/g/{game}/signin", sign_in, methods=["POST"]),
        Route("/g/{game}/act", act, methods=["POST"]),
        Route("/g/{game}/check", check, methods=["POST"]),
        Route("/g/{game}/signout", sign_out, methods=["POST"]),
        Route("/g/{game}/mine.svg", seat_map, methods=["GET", "HEAD", "POST"]),
        Route("/g/{game}/map/{step}.svg", map_svg),
        Route("/g/{game}/{step}.html", game_page),
        Route("/static/{name}", static),
        Route("/favicon.ico", static),  # for a client that does not read the page's link
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(SafeHeaders), Middleware(CaseBlindPaths)],
        exception_handlers={HTTPException: not_found, UnreadableGame: unreadable,
                            Exception: server_error})
    # Starlette's own redirects for a slash too many or too few are absolute, from the Host
    # header, and lose a proxy's path: such an address is a 404 here
    app.router.redirect_slashes = False
    return app
