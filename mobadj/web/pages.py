"""The pages as HTML strings, from a read-only store: the same for the server
(:mod:`mobadj.web.app`) and the static export (:mod:`mobadj.web.export`).

Every page is built in one read snapshot of the store.  What is slow to build and never
changes is cached: a game's story until a phase is resolved or rolled back, each adjudicated
phase's map for good, the current phase's map until the position changes.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import jinja2
from markupsafe import Markup

from mobadj.errors import WebError
from mobadj.judge import reports
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.links import step_id
from mobadj.judge.store import Game, Store
from mobadj.web import pictures
from mobadj.web.cardtable import card_table
from mobadj.web.chart import center_chart, center_table
from mobadj.web.story import Step, Story, build, card_step_table, moves_played
from mobadj.web.wire import Body

log = logging.getLogger("mobadj.web")
#: what reading a stored state this installation no longer understands may raise (its map,
#: deck or rules changed, or the record is damaged)
READ_ERRORS = (ValueError, LookupError, TypeError, AttributeError, OSError)
TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")


@functools.cache
def static_version(name: str) -> str:
    """A static file's version: the start of its digest.  The pages link to
    ``static/web.css?v=<version>``, which a browser may keep for good (a changed file is
    another address); read once per process."""
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


class UnreadableGame(WebError):
    """A game whose pages cannot be built here: its record does not read under this
    installation.  The log says why; a visitor is told only that (the reason may quote the
    record, which is not all public)."""

    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.game = game


@dataclass
class Seat:
    """A seat on the games index and game page: who it is and whether their orders are in
    (never what they are)."""

    seat: str
    name: str
    player: bool
    status: str  # active | disorder | out
    due: bool
    orders_in: bool
    ready: bool
    final: str = ""  # a finished game: the seat's final centres or score
    winner: bool = False  # a finished game: the seat won, or shares a draw
    unplayed: str = "civil disorder"  # the game's word for a seat in status disorder
    waits: bool = False  # the game waits for such a seat to move (card games: its bot)

    @property
    def state(self) -> str:
        if self.final:
            return self.final
        if not self.player:
            return "free seat"
        if self.status == "out":
            return "out"
        if not self.due:
            return "nothing due"
        word = "orders in" if self.orders_in else (
            "not waited for" if self.status == "disorder" and not self.waits else "waiting")
        if self.ready and self.orders_in:
            word += ", ready"
        return word + (f" ({self.unplayed})" if self.status == "disorder" else "")


K = TypeVar("K")
V = TypeVar("V")


class LRU(OrderedDict[K, V]):
    """The ``size`` values used last."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: K, value: V) -> V:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value

    def get_(self, key: K) -> V | None:
        if key in self:
            self.move_to_end(key)
            return self[key]
        return None


class Site:
    """The pages of one judge's store."""

    def __init__(self, store: Store, name: str = "mobadj judge", timezone: str = "UTC",
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.name = name
        self.tz = ZoneInfo(timezone)
        self.clock = clock
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=jinja2.select_autoescape(["html"]), trim_blocks=True,
            lstrip_blocks=True, undefined=jinja2.StrictUndefined)
        self.env.globals["version"] = static_version
        self._stories: dict[str, tuple[Any, Story]] = {}
        self._pictures: LRU[tuple[object, ...], Body] = LRU(256)
        self._tables: LRU[int, tuple[str, list[str], dict[str, Any] | None]] = LRU(256)
        self._logged: set[tuple[str, str]] = set()  # (game, why) already in the log

    # -- access ----------------------------------------------------------------------------
    def is_private(self, game: str) -> bool:
        return self.store.web_key(game) is not None

    def may_see(self, game: str, key: str | None) -> bool:
        """A public game, or a private one with its right key (compared in constant time)."""
        wanted = self.store.web_key(game)
        if wanted is None:
            return True
        return key is not None and hmac.compare_digest(key.encode(), wanted.encode())

    def public_games(self) -> list[Game]:
        """Games whose pages anyone may read (private ones are not even listed)."""
        return [g for g in self.store.games() if self.store.web_key(g.name) is None]

    # -- the story, cached -----------------------------------------------------------------
    def story(self, game: Game) -> Story:
        state_digest = hashlib.sha256(json.dumps(game.state, sort_keys=True).encode()).digest()
        ending = self.store.ending(game.name)
        version = (self.store.results_version(game.name), game.status, state_digest,
                   json.dumps(ending, sort_keys=True))
        cached = self._stories.get(game.name)
        if cached is not None and cached[0] == version:
            return cached[1]
        story = build(game, self.store.results(game.name), host_for(game.kind), ending)
        self._stories[game.name] = (version, story)
        return story

    @contextmanager
    def _reading(self, name: str) -> Iterator[None]:
        """One read snapshot of the store, in which a record that does not read here becomes
        :class:`UnreadableGame` (logged with its reason)."""
        with self.store.reading():
            try:
                yield
            except READ_ERRORS as exc:
                self._log_once(name, "its pages cannot be built here", exc, True)
                raise UnreadableGame(name) from exc

    def _log_once(self, name: str, what: str, exc: BaseException, trace: bool = False
                  ) -> None:
        """Log that game ``name``'s record does not read here (``what``, and why): once for
        each reason, not on every request and every index."""
        said = f"{what}: {type(exc).__name__}: {exc}"
        if (name, said) not in self._logged:
            self._logged.add((name, said))
            log.warning("game %s: %s", name, said, exc_info=trace)

    def warm(self) -> int:
        """Build every game's story and its latest map ahead of the first visitor (the map
        data and the drawing code are loaded then too); returns the number of games."""
        games = self.store.games()
        for game in games:
            try:
                with self._reading(game.name):
                    if game.state is None:
                        continue
                    steps = self.story(game).steps
                if steps and (body := self.map_body(game.name, steps[-1].id)):
                    body.gzipped  # noqa: B018 - compressed now, not for the first visitor
                    self.game_html(game.name)  # compiles the templates too
            except UnreadableGame:  # logged; its pages say so, the others are served
                continue
        self.index_html()
        return len(games)

    def steps(self, name: str) -> list[str]:
        """Every step id of a game (for the export)."""
        with self._reading(name):
            game = self.store.game(name)
            return [s.id for s in self.story(game).steps] if game else []

    # -- pages -----------------------------------------------------------------------------
    def index_html(self) -> str:
        with self.store.reading():
            rows = [self._game_row(g) for g in self.public_games()]
        groups: dict[str, list[dict[str, Any]]] = {"active": [], "forming": [], "ended": []}
        for row in rows:
            key = {"paused": "active"}.get(row["status"], row["status"])
            groups.setdefault(key, []).append(row)
        return self._render("index.html", root="", groups=groups, now=self.clock())

    def game_html(self, name: str, sid: str | None = None) -> str | None:
        """The page of step ``sid`` (the latest when None); None when there is no such game
        or step; raises :class:`UnreadableGame`)."""
        with self._reading(name):
            game = self.store.game(name)
            if game is None:
                return None
            if game.state is None:  # forming: no story yet, no phase
                if sid is not None:
                    return None
                return self._render("forming.html", root="../../", g=self._game_row(game))
            story = self.story(game)
            i = len(story.steps) - 1 if sid is None else story.index_of(sid)
            if i is None:
                return None
            step = story.steps[i]
            self._fill(game, story, step)
            press = self._press(game, story)
            row = self._game_row(game)
            return self._render(
                "game.html", root="../../", g=row, story=story, step=step, i=i,
                n=len(story.steps), prev=story.steps[i - 1].id if i else None,
                next=story.steps[i + 1].id if i + 1 < len(story.steps) else None,
                ids=json.dumps([s.id for s in story.steps]),
                has_map=story.board and pictures.can_draw(story.kind),
                map_size=pictures.size(story.kind) if story.board and pictures.can_draw(
                    story.kind) else (0, 0),
                orders=self._orders_by_power(story, step), press=press.get(step.id, []),
                chart=Markup(center_chart(story, i)), chart_table=center_table(story, i),
                calendar=self._calendar(story),
                position=self._position(story, step),
                card_table=card_table(story.kind, step.view) if step.view else "",
                names={p.id: p.name for p in story.powers})

    def map_svg(self, name: str, sid: str) -> str | None:
        """The map of a step (cached); None when there is no such step or map (raises
        :class:`UnreadableGame`)."""
        body = self.map_body(name, sid)
        return None if body is None else body.text

    def map_body(self, name: str, sid: str) -> Body | None:
        """The map of a step as it goes out, compressed once (cached with the map)."""
        with self._reading(name):
            game = self.store.game(name)
            if game is None or game.state is None:
                return None
            story = self.story(game)
            i = story.index_of(sid)
            if i is None or not story.board or not pictures.can_draw(story.kind):
                return None
            step = story.steps[i]
            key = (("result", step.result_id) if step.result_id is not None
                   else ("now", game.name, self._stories[game.name][0]))
            body = self._pictures.get_(key)
            if body is None:
                title = f"{game.name}: {step.label}"
                names = {p.id: p.name for p in story.powers}
                svg = pictures.step_svg(story.kind, step, title, names)
                body = self._pictures.put(key, Body(svg.encode("utf-8")))
            return body

    # -- parts -----------------------------------------------------------------------------
    def _fill(self, game: Game, story: Story, step: Step) -> None:
        """A card game's past move: its public table and log (one replay, cached)."""
        if not story.cards or step.table or step.result_id is None:
            return
        cached = self._tables.get_(step.result_id)
        if cached is None:
            after = next(r["state_after"] for r in self.store.results(game.name)
                         if r["id"] == step.result_id)
            card_step_table(story.kind, step, after)
            self._tables.put(step.result_id, (step.table, step.log, step.view))
        else:
            step.table, step.log, step.view = cached

    def _press(self, game: Game, story: Story) -> dict[str, list[dict[str, Any]]]:
        """Press sent to everyone, by the step of the phase it was sent in."""
        ids = {s.id for s in story.steps}
        out: dict[str, list[dict[str, Any]]] = {}
        last = story.steps[-1].id if story.steps else ""
        for p in self.store.broadcast_press(game.name):
            sid = step_id(p["phase"])
            sid = sid if sid in ids else (story.steps[0].id if p["phase"] == "-" and
                                          story.steps else last)
            out.setdefault(sid, []).append(p | {"when": reports.when(p["at"], self.tz)})
        return out

    def _game_row(self, game: Game) -> dict[str, Any]:
        """What the index says of a game, and the head of its page."""
        try:
            host = host_for(game.kind)
            title = host.title
        except HostError:
            host, title = None, game.kind
        label, due, submitted = "", [], set()
        finals: dict[str, tuple[str, bool]] = {}
        outcome = ""
        if host is not None and game.state is not None:
            try:
                if game.status == "ended":
                    label, outcome, finals = self._ended(game)
                else:
                    label = host.phase_label(game.state)
                due = [] if game.status != "active" else host.due(game.state)
            except READ_ERRORS as exc:  # a state this installation
                self._log_once(game.name, "its state cannot be read here", exc)
                label = game.phase  # cannot read (its map or deck has changed): the rest
            submitted = self.store.submitted(game.name, game.phase)
        players = {p.power: p for p in self.store.players(game.name)}
        seats = []
        try:
            all_seats = (host.seats_in(game.options, game.state) if host is not None
                         else list(players))
        except READ_ERRORS as exc:  # options this installation cannot read
            self._log_once(game.name, "its seats cannot be read here", exc)
            all_seats = list(players)
        if game.status != "forming":  # a card game's seats are the players it started with
            all_seats = [s for s in all_seats if s in players]
        names = {}
        if host is not None and hasattr(host, "map_of"):
            names = {pid: p.name for pid, p in host.map_of(game.options).powers.items()}
        unplayed, waits = "civil disorder", False
        if host is not None:
            unplayed, waits = host.unplayed_label(game.options), host.resolve_when_all_in
        for seat in all_seats:
            pl = players.get(seat)
            final, won = finals.get(seat, ("", False))
            seats.append(Seat(seat, names.get(seat, seat), pl is not None,
                              pl.status if pl else "", seat in due, seat in submitted,
                              bool(pl and pl.ready), final, won, unplayed, waits))
        deadline = game.deadline if game.status == "active" else None
        return {
            "name": game.name, "kind": game.kind, "title": title, "status": game.status,
            "rules": host.rules_text(game.options) if host is not None else "",
            "phase": game.phase, "label": label, "seats": seats, "outcome": outcome,
            "free": [s for s in seats if not s.player],
            "deadline": self._when(deadline),
            "paused_until": self._when(game.paused_until if game.status == "paused" else None),
        }

    def _ended(self, game: Game) -> tuple[str, str, dict[str, tuple[str, bool]]]:
        """A finished game for the index: when it ended, its result in words, and each
        seat's final centres or score and whether it won (or shares the draw)."""
        story = self.story(game)
        played = [s for s in story.steps if s.adjudicated]
        label = f"after {played[-1].label}" if played else "before its first phase"
        if story.cards:  # the moves played, as the final table and the seats' pages say
            moves = moves_played(story.steps[-1].phase) if story.steps else 0
            label = f"after move {moves}" if moves else "before its first move"
            return label, story.outcome, {
                r.seat: (f"{r.total:g} points" + (", winner" if r.winner else ""), r.winner)
                for r in story.scores}
        ending = self.store.ending(game.name) or {}
        result = ending.get("result")
        shared = set(ending.get("powers") or []) if result in ("win", "draw") else set()
        word = ", in the draw" if result == "draw" else ", winner"
        counts = story.steps[-1].centers if story.steps else {}
        return label, story.outcome, {
            p.id: (f"{counts.get(p.id, 0)} centres" + (word if p.id in shared else ""),
                   p.id in shared) for p in story.powers}

    def _when(self, ts: float | None) -> dict[str, Any] | None:
        if ts is None:
            return None
        left = ts - self.clock()
        return {"iso": datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "text": reports.when(ts, self.tz),
                "left": ("in " + reports.duration(left)) if left > 0 else "passed"}

    def _orders_by_power(self, story: Story, step: Step) -> list[dict[str, Any]]:
        by: dict[str, list[Any]] = {}
        for o in step.orders:
            by.setdefault(o.power, []).append(o)
        colours = {p.id: p.colour for p in story.powers}
        names = {p.id: p.name for p in story.powers}
        return [{"power": names.get(p, p), "colour": colours.get(p, ""), "orders": lst}
                for p, lst in sorted(by.items(), key=lambda x: names.get(x[0], x[0]))]

    @staticmethod
    def _calendar(story: Story) -> list[dict[str, Any]]:
        groups: list[dict[str, Any]] = []
        for s in story.steps:
            if not groups or groups[-1]["group"] != s.group:
                groups.append({"group": s.group, "steps": []})
            groups[-1]["steps"].append(s)
        return groups

    @staticmethod
    def _position(story: Story, step: Step) -> list[dict[str, Any]]:
        if not story.board or step.position is None:
            return []
        units = step.position.get("units") or {}
        centers = step.centers
        return [{"name": p.name, "colour": p.colour, "centers": centers.get(p.id, 0),
                 "units": units.get(p.id, [])} for p in story.powers
                if units.get(p.id) or centers.get(p.id)]

    def _render(self, template: str, **context: Any) -> str:
        return self.env.get_template(template).render(site=self.name, **context)
