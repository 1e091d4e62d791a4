"""A seat's own page: what the seat may see, and the forms that act for it.

Everything the seat does goes to the judge as the lines a mail signed on as the seat would
carry (:meth:`mobadj.judge.WebPlay.act`): this module only reads and lays out.  What it shows
is the seat's own: its standing orders, the press it sent or was sent, its card hand and
the events it may see, the legal commands; the board and the public record come from the
same views as the public pages.  The GM's page shows the GM's summary.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from typing import Any

from markupsafe import Markup

from mobadj.judge import (
    Check,
    Game,
    Host,
    HostError,
    WebPlay,
    WebSeat,
    host_for,
    legal_choices,
    reports,
    summary_text,
)
from mobadj.web import pictures
from mobadj.web.pages import LRU, Site
from mobadj.web.story import OrderLine

MAX_BUTTONS = 40  # legal card commands offered as buttons (the rest: the command line)
MAX_PICKS = 40  # picks of legal orders read from a form at most
_LINE = re.compile(r"^line (\d+)\b")
#: a line of the judge's PREVIEW: the order, its fate, the reason
_PREVIEWED = re.compile(r"^\s+(?P<order>.+?)\s+(?P<result>succeeds|fails|invalid)"
                        r"(?: \((?P<reason>[^)]*)\))?(?:\s+<- VOID)?\s*$")
_END_PRESS = re.compile(r"^\s*end[\s_-]*press\b", re.I)
#: the form's buttons that are commands of their own, as a mail writes them
COMMANDS = {"ready": "READY", "notready": "NOT READY", "draw": "DRAW", "nodraw": "NODRAW",
            "noconcede": "NOCONCEDE", "preview": "PREVIEW", "list": "LIST"}


#: a line of a card game's view laid out in columns (a card and its values): indented, its
#: columns set apart by two spaces or more, short enough to read across a phone
_ROW = re.compile(r"^\s+\S.*\S {2,}\S")
ROW_CHARS = 60


def view_lines(text: str) -> list[tuple[str, bool]]:
    """A card game's view, line by line, each with whether it is a row of columns (kept on
    one line on a narrow screen, where a wrapped value would read as the next card's)."""
    return [(line, bool(_ROW.match(line)) and len(line) <= ROW_CHARS)
            for line in text.split("\n")]


def move_name(action: str, view: str) -> str:
    """What a screen reader hears for a card move's button: the move, and the line of the
    seat's own view that its card (or job) begins (``draft U4, Fat Mike, hit 3 money 3 ally
    1``); the move alone when it names none.  Only the seat's view is read: nothing that
    its page does not show already."""
    firsts: dict[str, str] = {}
    for line in view.split("\n"):
        head, _, rest = line.strip().partition(" ")
        if head and rest.strip():
            firsts.setdefault(head, rest.strip())
    for word in action.split()[1:]:
        if any(c.isalpha() for c in word) and word in firsts:
            return ", ".join([action, *re.split(r"\s{2,}", firsts[word])])
    return action


def press_text(targets: list[str], grey: bool, text: str) -> str:
    """A PRESS block for ``targets`` (seats, or ``ALL``); a line of the text that would end
    the block early is kept as text, not read as ENDPRESS."""
    body = "\n".join(f"({line.strip()})" if _END_PRESS.match(line) else line
                     for line in text.replace("\r\n", "\n").split("\n"))
    head = "PRESS TO " + ", ".join(targets) + (" GREY" if grey else "")
    return f"{head}\n{body}\nENDPRESS"


#: what the page says when a form had nothing to send, by the form
NOTHING = {
    "orders": "Nothing sent: the orders box was empty. Your orders standing, if any, still "
              "stand (an empty box does not take them back: send new orders to replace "
              "them).",
    "picks": "Nothing sent: every pick was left at (choose).",
    "press": "Nothing sent: press needs a text and at least one reader.",
    # no power is picked for the player: a concession is a deliberate choice
    "concede": "Nothing conceded: choose the power to concede to under Concede to, then "
               "press CONCEDE.",
}


#: what the page says above the judge's answer when a form of orders with *and READY* ticked
#: had no orders: READY went alone, as a mail with READY and no orders sends it
READY_ALONE = {
    "orders": "The orders box was empty, so no orders were sent: your orders standing, if "
              "any, still stand (an empty box does not take them back). READY was sent "
              "alone, as in a mail with READY and no orders. The judge's answer:",
    "picks": "Every pick was left at (choose), so no orders were sent: your orders "
             "standing, if any, still stand. READY was sent alone, as in a mail with READY "
             "and no orders. The judge's answer:",
}


def ready_alone(fields: dict[str, str]) -> str:
    """The page's words before the judge's answer when ``fields`` send READY without
    orders ("" otherwise)."""
    if fields.get("ready") and compose(fields, []) == "READY":
        return READY_ALONE.get(fields.get("do", ""), "")
    return ""


def nothing_sent(fields: dict[str, str]) -> str:
    """Why a form sent nothing, in the words of the form that was used."""
    return NOTHING.get(fields.get("do", ""), "Nothing sent: the form was empty.")


@dataclasses.dataclass(frozen=True)
class KeptPress:
    """A press form that sent nothing, as the player left it: drawn again with the text and
    the boxes ticked, and what was missing said beside the part that lacks it."""

    text: str
    ticked: frozenset[str]  # the names of the boxes ticked (all, to_FRANCE, to_gm, grey)
    problem: str  # "readers" or "text": what it lacked
    why: str  # the page's words on it, beside that part of the form


def kept_press(fields: dict[str, str], seats: list[str]) -> KeptPress:
    """The press form just sent, refused for no reader or no text (``seats``: the powers
    press may go to, as for :func:`compose`)."""
    names = ["all", "to_gm", *(f"to_{s}" for s in seats)]
    ticked = frozenset(k for k in [*names, "grey"] if fields.get(k))
    if not ticked & set(names):
        return KeptPress(fields.get("text", ""), ticked, "readers",
                         "Nothing sent: tick at least one reader under To (your message is "
                         "still in the box).")
    return KeptPress(fields.get("text", ""), ticked, "text",
                     "Nothing sent: the message is empty (the readers you ticked are kept).")


def compose(fields: dict[str, str], seats: list[str]) -> str | None:
    """The lines a form's fields stand for (None: nothing to do).  ``seats``: the powers
    press may go to."""
    do = fields.get("do", "")
    # an empty box (or no pick) takes nothing back: with *and READY*, READY alone is sent,
    # as by a mail with READY and no orders (:func:`ready_alone` says so); else nothing
    if do == "orders":
        text = fields.get("orders", "")
        if not text.strip():
            return "READY" if fields.get("ready") else None
        return text + ("\nREADY" if fields.get("ready") else "")
    if do == "picks":  # the legal orders picked, one line each, as the orders box's
        picked = [fields.get(f"pick_{i}", "").strip() for i in range(MAX_PICKS)]
        lines = [p.splitlines()[0] for p in picked if p]
        if not lines:
            return "READY" if fields.get("ready") else None
        return "\n".join(lines) + ("\nREADY" if fields.get("ready") else "")
    if do in COMMANDS:
        return COMMANDS[do]
    if do == "concede":
        to = fields.get("to", "")
        return f"CONCEDE TO {to}" if to in seats else None
    if do == "press":
        targets = ["ALL"] if fields.get("all") else [s for s in seats if fields.get(f"to_{s}")]
        if fields.get("to_gm"):  # PRESS TO GM: in every game, press or none
            targets.append("GM")
        text = fields.get("text", "")
        if not targets or not text.strip():
            return None
        return press_text(targets, bool(fields.get("grey")), text)
    if do == "command":
        text = fields.get("command", "")
        return text if text.strip() else None
    return None


class SeatPages:
    """The signed-in pages of a site: the seat's page, the GM's, and the sign-in form."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.store = site.store
        #: seats' maps with their orders drawn, by game, position, seat and orders
        self._maps: LRU[tuple[str, ...], str] = LRU(64)

    def signin_html(self, name: str, csrf: str, message: str = "", chosen: str = "",
                    refused: bool = False) -> str | None:
        """The sign-in form; ``chosen``: the power picked in the form just refused, picked
        again (never the password); ``refused``: the message is about the password."""
        with self.store.reading():
            game = self.store.game(name)
            if game is None:
                return None
            seats = self._labels(game)
        # a moment in the message (until when wrong sign-ins wait) as every page writes one
        return self.site._render("signin.html", root="../../", name=name, seats=seats,
                                 csrf=csrf, message=reports.localize(message, self.site.tz),
                                 chosen=chosen, refused=refused and bool(message))

    def seat_html(self, seat: WebSeat, said: str, typed: str | None = None,
                  checked_map: str | None = None, press: KeptPress | None = None
                  ) -> str | None:
        """The seat's page; ``said``: the judge's answer to show; ``typed``: the orders box
        as the player left it (else the orders standing); ``checked_map``: the map of the
        orders checked (not stored), drawn into the page in place of the standing ones;
        ``press``: the press form as the player left it when it sent nothing."""
        with self.store.reading():
            game = self.store.game(seat.game)
            if game is None:
                return None
            context = self._context(game, seat)
        if typed is not None:
            context["orders"] = typed
        if checked_map is not None and context["map"]:
            context["checked_map"] = Markup(checked_map)  # drawn here, from our own renderer
        return self.site._render("seat.html", root="../../", csrf=seat.csrf, said=said,
                                 kept=press, **context)

    def labels(self, name: str) -> dict[str, str]:
        """The game's seats and what it calls them."""
        with self.store.reading():
            game = self.store.game(name)
            return {} if game is None else self._labels(game)

    @staticmethod
    def check_json(check: Check, preview: str) -> dict[str, Any]:
        """The orders box read line by line, for the page's script: each error and warning
        with the line it is on (0: the whole text), what was taken, the preview."""
        def placed(texts: list[str], kind: str) -> list[dict[str, Any]]:
            out = []
            for text in texts:
                found = _LINE.match(text)
                out.append({"line": int(found.group(1)) if found else 0, "kind": kind,
                            "text": text})
            return out

        return {"accepted": check.accepted, "problems": placed(check.errors, "error")
                + placed(check.notes, "warning"), "preview": preview}

    @staticmethod
    def check_text(check: Check, preview: str) -> str:
        """The same as the answer a page without script shows."""
        lines = ["Checked, nothing stored. The judge reads:"]
        lines += [f"  {o}" for o in check.accepted] or ["  (no orders)"]
        if check.notes:
            lines += ["Warnings:", *[f"  {n}" for n in check.notes]]
        if check.errors:
            lines += ["Errors (these lines would not be taken):",
                      *[f"  {e}" for e in check.errors]]
        if preview:
            lines += ["", "Preview (the others all hold):", preview]
        return "\n".join(lines)

    def preview_svg(self, play: WebPlay, seat: WebSeat, typed: str | None = None
                    ) -> str | None:
        """The current map with the seat's standing orders (or ``typed``, checked and not
        stored) drawn as the judge's PREVIEW reads them, the others holding (None: no map,
        or nothing due); drawn once for each set of orders.  ``typed`` read as the orders
        standing is titled as they are.  Only the seat's own orders are ever drawn: the
        others are not read."""
        assert seat.power is not None
        with self.store.reading():
            game = self.store.game(seat.game)
            if game is None or game.state is None or not pictures.can_draw(game.kind):
                return None
            story = self.site.story(game)
            if not story.steps:
                return None
            step = story.steps[-1]
            names = {p.id: p.name for p in story.powers}
            _check, preview = (play.standing(seat) if typed is None
                               else play.check(seat, typed))
            # the box as the page drew it holds the orders standing (re-read by the page's
            # script on load): those are drawn as standing, never as "not sent"
            standing = typed is None or preview == play.standing(seat)[1]
        key = (game.name, game.phase, json.dumps(step.position, sort_keys=True), seat.power,
               preview, str(standing))
        cached = self._maps.get_(key)
        if cached is not None:
            return cached
        orders = [OrderLine(seat.power, found["order"].strip(), found["result"], found["reason"])
                  for found in map(_PREVIEWED.match, preview.splitlines()) if found]
        mine = dataclasses.replace(step, orders=orders)
        what = "your orders as previewed" if standing else "the orders checked, not sent"
        return self._maps.put(key, pictures.step_svg(
            game.kind, mine, f"{game.name}: {step.label}, {what}", names))

    # -- what the page holds -----------------------------------------------------------------
    def _labels(self, game: Game) -> dict[str, str]:
        try:
            host = host_for(game.kind)
            names = host.seat_names(game.options)
            seats = [p.power for p in self.store.players(game.name)] or host.seats(
                game.options)
        except HostError:
            return {}
        return {s: (names.get(s) or [s])[0] for s in seats}

    def _context(self, game: Game, seat: WebSeat) -> dict[str, Any]:
        labels = self._labels(game)
        host: Host | None
        try:
            host = host_for(game.kind)
        except HostError:
            host = None
        state = game.started_state if game.state is not None else None
        press = str(game.options.get("press", "white")).lower()  # as the judge reads it
        active = game.status == "active" and state is not None and host is not None
        context: dict[str, Any] = {
            "g": game, "title": host.title if host else game.kind, "power": seat.power,
            "label": labels.get(seat.power or "", "GM"), "labels": labels,
            "phase": host.phase_label(state) if host and state is not None else game.status,
            "deadline": self.site._when(game.deadline if game.status == "active" else None),
            "board": host is not None and hasattr(host, "map_of"), "cards": False,
            "due": False, "orders": "", "status": "", "hint": "", "press": [],
            "grey": press == "grey", "map": None, "map_size": (0, 0), "checked_map": None,
            "named": {}, "ready": False, "legal": [], "free": [], "choices": [], "events": [],
            "gm": "", "active": active, "press_ok": press != "none",
            # the once-only forms' mark, new with each page: that form sent twice is done
            # once, while another message sent from the same page is done too
            "once": secrets.token_urlsafe(12),
            # the phase this page is drawn for: its orders are refused once it has moved on
            "drawn": host.phase(state) if active and host and state is not None else "",
        }
        if seat.power is None:
            # its moments as dates in the site's zone, as the rest of the page writes them
            context["gm"] = reports.localize(summary_text(self.store, game, gm_view=True),
                                             self.site.tz)
            return context
        assert host is not None
        power = seat.power
        player = self.store.player(game.name, power)
        context["ready"] = bool(player and player.ready)
        context["press"] = self._press(game, power, labels)
        if state is None:
            return context
        phase = host.phase(state)
        context["due"] = active and power in host.due(state)
        context["orders"] = self.store.orders(game.name, phase).get(power, "")
        context["status"] = host.status(state, power)
        if context["board"]:
            steps = self.site.story(game).steps
            context["map"] = steps[-1].id if steps else None
            # the picture's own size: its room is kept, and its zoom knows how far to go
            context["map_size"] = (pictures.size(game.kind) if context["map"]
                                   and pictures.can_draw(game.kind) else (0, 0))
            if context["due"]:
                context["choices"] = legal_choices(game, power)[:MAX_PICKS]
            if context["due"]:  # the first mail's words, without "under your SIGNON line"
                lines = host.first_orders(state, power).splitlines()
                context["hint"] = "\n".join(lines[1:] if lines and lines[0].startswith(
                    "What to send first") else lines)
        else:
            context.update(self._cards(game, state, power))
            context["view"] = view_lines(context["status"])
            context["named"] = {a: move_name(a, context["status"]) for a in context["legal"]}
        return context

    def _cards(self, game: Game, state: dict[str, Any], power: str) -> dict[str, Any]:
        """A card seat: its legal commands (buttons), the out-of-turn ones and the events
        it may see, newest last."""
        from mobadj.web.cardview import replay

        played = replay(game.kind, state)
        player = int(power[1:]) - 1
        legal = ([str(a) for a in played.legal_actions(player)]
                 if player in played.to_act() and not played.is_over() else [])
        return {"cards": True, "legal": legal[:MAX_BUTTONS], "more": len(legal) - MAX_BUTTONS,
                "free": [] if played.is_over() else played.free_commands(player),
                "events": played.history(player)[-60:]}

    def _press(self, game: Game, power: str, labels: dict[str, str]) -> list[dict[str, Any]]:
        """The press this seat sent or was sent (grey press keeps its sender hidden), newest
        first."""
        out = []
        for p in reversed(self.store.press(game.name)):
            mine = p["sender"] == power
            if not (mine or power in p["recipients"] or p.get("broadcast")):
                continue
            sender = ("you" + (" (anonymously)" if p["grey"] else "") if mine else
                      "Anonymous (grey press)" if p["grey"] else labels.get(p["sender"],
                                                                          p["sender"]))
            to = ("everyone" if p.get("broadcast") else p["shown"] if p.get("shown") and not mine
                  else ", ".join(labels.get(r, r) for r in p["recipients"]))
            out.append({"from": sender, "to": to, "text": p["text"], "phase": p["phase"],
                        "when": reports.when(p["at"], self.site.tz)})
        return out

