"""Play a card game at the terminal: hot-seat for humans, bots for the other seats.

Each human seat sees only its own view.  The screen belongs to one seat at a time (its
*holder*); with two or more human seats the screen is cleared and the keyboard handed over
("Pass to P3 and press Enter") before another seat's private screen.  Every event a seat may
see is shown to it exactly once, in order, "since your last turn": one feed, one cursor per
seat.  A move the other seats may not see (a sealed bet, a face-down offer) is narrated
without its content ("P2 has sealed a bet.").

Meta commands (any case): ``help``/``?``, ``board``, ``history``, ``undo``, ``quit``.  After
an error only the error and the prompt are printed.  Another human seat may give a public
table command at anyone's prompt with its seat as prefix: ``P3: say I can do it cheap``,
``P3: reveal``, ``P3: history`` (the public history); nothing else goes through a prefix.
Quit, end of input and Ctrl-C save the game to a file that ``--resume`` continues (by
default in the user's data folder, :func:`default_save_path`).  At the end: the last events,
each score as the rulebook counts it, the winner, seed and salt.

Every typed line is read as the judge reads a line of mail and every printed text is made
harmless for the screen (:mod:`mobadj.cards.screen`): no seat's table talk, no hand-edited
save can steer another seat's terminal.
"""

from __future__ import annotations

import json
import os
import random
import re
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mobadj.cards import report
from mobadj.cards.protocol import Event, GameError, GameState, IllegalAction
from mobadj.cards.record import (
    RECORD_FORMAT,
    GameRecord,
    new_salt,
    new_seed,
)
from mobadj.cards.registry import DEFAULT_BOT_LEVEL, bot_of_level, canonical_name, game_class
from mobadj.cards.screen import MAX_LINE, clean_command, printable

_SEAT_PREFIX = re.compile(r"[Pp](\d+)\s*:\s*(.*)", re.S)
FEED_MARK = "  - "  # starts every event line of a seat's feed (boards never start so)
QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?", "h"})
META_HELP = """\
At the terminal (commands in any case):
  help, ?    this help and the commands you can give now
  board      show the table again
  history    every event you have seen so far
  undo       take back your last move, if nobody has moved since and it revealed nothing
  quit       save the game and stop (Ctrl-C and end of input do the same)"""
PREFIX_HELP = ("  P<n>: ...  another human seat's table command at this prompt: say, reveal, "
               "history")


def saves_folder() -> Path:
    """Where games are saved when no file is named: ``$MOBADJ_SAVE_DIR``, else the user's
    data folder, ``$XDG_DATA_HOME/mobadj/saves`` (``~/.local/share/mobadj/saves``)."""
    own = os.environ.get("MOBADJ_SAVE_DIR")
    if own:
        return Path(own).expanduser()
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and Path(data).is_absolute() else Path.home() / ".local/share"
    return base / "mobadj" / "saves"


def default_save_path(game: str) -> Path:
    """A new file for a game started now, ``GAME-<date>-<time>.json`` in
    :func:`saves_folder` (``-2``, ``-3``... when taken): never the current directory, which
    a game should not litter; the session says where it saved."""
    folder = saves_folder()
    stem = f"{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


def _saved_seats(data: dict[str, Any], players: int
                 ) -> tuple[set[int], dict[int, str], dict[str, int]]:
    """A save file's bot seats, bot levels and how far each seat has read its feed; an
    IllegalAction names the field that is malformed (the file is the player's to edit)."""

    def seat(text: object) -> int:
        number = int(str(text).lstrip("Pp")) - 1
        if not 0 <= number < players:
            raise ValueError(text)
        return number

    def mapping(field: str, default: Any) -> dict[Any, Any]:
        raw = data.get(field) or default
        if not isinstance(raw, dict):
            raise TypeError(field)
        return raw

    field = "bots"
    try:
        raw = data.get("bots") or []
        if not isinstance(raw, list):
            raise TypeError(field)
        bots = {seat(b) for b in raw}
        field = "bot_levels"
        levels = {seat(s): str(level) for s, level in mapping(field, {}).items()}
        field = "seen"
        seen = {str(s): int(count) for s, count in mapping(field, {}).items()}
    except (TypeError, ValueError, OverflowError):
        raise IllegalAction(f"the saved game's {field} are malformed") from None
    return bots, levels, seen


def _write_privately(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a new file beside it, readable
    by its owner only (it holds the seed: whoever reads it knows every card to come), then
    moved over ``path``.  A save that fails half-way (a full disk) leaves the game saved
    before as it was."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


class Session:
    """One game at the terminal; :meth:`run` plays it until it ends or a player quits."""

    def __init__(
        self,
        name: str,
        state: GameState,
        salt: str,
        bots: set[int],
        *,
        bot_levels: dict[int, str] | None = None,
        secret: bool = True,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        clear: Callable[[], None] | None = None,
        save_to: str | Path | None = None,
    ) -> None:
        """``bots``: the seats the bot plays, each at its level in ``bot_levels`` (seat ->
        "basic" or "standard", the default); raises :class:`IllegalAction` for a level the
        game does not have."""
        self.name = name
        self.state = state
        self.salt = salt
        self.secret = secret
        self.bots = set(bots)
        levels = bot_levels or {}
        self.bot_levels = {p: levels.get(p, DEFAULT_BOT_LEVEL).lower() for p in sorted(bots)}
        try:
            self.bot_players = {p: bot_of_level(name, level)()
                                for p, level in self.bot_levels.items()}
        except KeyError as exc:
            raise IllegalAction(str(exc.args[0])) from None
        self.humans = [p for p in range(state.players) if p not in self.bots]
        self.hot_seat = len(self.humans) > 1
        self.read = read
        self.write: Callable[[str], None] = lambda text: write(printable(text))
        self.clear = clear or (lambda: None)
        self.save_to = Path(save_to) if save_to is not None else None
        self.holder: int | None = None  # whose private screen is up (None: the table)
        self.feed: list[Event] = list(state.events)
        self.marks: list[int] = [len(self.feed)]  # feed length after 0, 1, ... actions
        self.seen: dict[int, int] = dict.fromkeys(self.humans, 0)
        self.saved: Path | None = None

    # -- building a session ----------------------------------------------------------------
    @classmethod
    def new(cls, game: str, players: int, seed: int | None, bots: set[int],
            options: dict[str, Any] | None = None, **kw: Any) -> Session:
        """A new game; ``seed`` None draws a secret one (128 bits) from :mod:`secrets`."""
        name = canonical_name(game)
        state = game_class(name).new(players, new_seed() if seed is None else seed, options)
        return cls(name, state, new_salt(), bots, secret=seed is None, **kw)

    @classmethod
    def resume(cls, data: dict[str, Any], **kw: Any) -> Session:
        """A saved game (see :meth:`to_json`) replayed to where it stopped."""
        record = GameRecord.from_json(data)
        if record.salt is None:
            raise IllegalAction("the saved game has no salt")
        bots, levels, seen = _saved_seats(data, record.players)
        state = record.start()  # under the rules it started with
        session = cls(record.game, state, record.salt, bots, bot_levels=levels,
                      secret=bool(data.get("secret", True)), **kw)
        for player, text in record.actions:
            session._act(player, state.parse(player, text))
        for p in session.humans:
            session.seen[p] = max(0, min(seen.get(f"P{p + 1}", 0), len(session.feed)))
        return session

    @property
    def record(self) -> GameRecord:
        return GameRecord.of(self.name, self.state, self.salt)

    def to_json(self) -> dict[str, Any]:
        """The saved game: the record with seed and salt (it is for resuming, not for
        reading), the bot seats and how far each seat has read its feed."""
        data = self.record.to_json(reveal_seed=True)
        data.update({
            "format": RECORD_FORMAT,
            "secret": self.secret,
            "bots": sorted(b + 1 for b in self.bots),
            "bot_levels": {f"P{p + 1}": level for p, level in self.bot_levels.items()},
            "seen": {f"P{p + 1}": n for p, n in self.seen.items()},
            "over": self.state.is_over(),
        })
        if self.state.is_over():
            data["scores"] = self.state.scores()
            data["winners"] = [p + 1 for p in self.state.winners()]
        return data

    def save(self) -> Path | None:
        """Write the game to its file (its folder made if need be); None when there is no
        file, or when it cannot be written (then said on the screen)."""
        if self.save_to is None:
            return None
        try:
            self.save_to.parent.mkdir(parents=True, exist_ok=True)
            _write_privately(self.save_to, json.dumps(self.to_json(), indent=1) + "\n")
        except OSError as exc:
            self.write(f"! cannot save the game to {self.save_to}: {exc.strerror or exc}")
            return None
        self.saved = self.save_to
        return self.save_to

    # -- the feed ---------------------------------------------------------------------------
    def _act(self, player: int, action: Any) -> None:
        """Apply ``action`` and add what it logged to the feed (plus a narration for the
        seats that could see none of it)."""
        before = len(self.state.events)
        self.state.apply(player, action)
        new = self.state.events[before:]
        self.feed.extend(new)
        told = report.narration(self.state, player, str(action), new)
        if told is not None:
            self.feed.append(told)
        self.marks.append(len(self.feed))

    def unseen(self, seat: int) -> list[Event]:
        return [e for e in self.feed[self.seen[seat]:] if e.visible(seat)]

    def _show_feed(self, seat: int, heading: str = "Since your last turn:") -> None:
        events = [e for e in self.unseen(seat) if not report.superseded(self.state, e)]
        self.seen[seat] = len(self.feed)
        if events and heading:
            self.write(heading)
        for e in events:
            self.write(FEED_MARK + e.text)

    # -- the screen -------------------------------------------------------------------------
    def _hand_over(self, seat: int | None, prompt: str) -> bool:
        """Before ``seat``'s private screen (``None``: the table's): the seat whose screen is
        up presses Enter when done reading, the screen is cleared, and the keyboard waits
        for ``prompt``.  False if the players quit instead."""
        try:
            if self.holder is not None:
                if self._ask(f"P{self.holder + 1}: press Enter to hide your screen "
                             ).strip().lower() in QUIT_WORDS:
                    return False
                self.clear()
                self.holder = None
            if self._ask(prompt).strip().lower() in QUIT_WORDS:
                return False
        except (EOFError, KeyboardInterrupt):
            return False
        self.holder = seat
        return True

    def _ask(self, prompt: str) -> str:
        """A line typed at ``prompt``, cleaned (:func:`clean_command`); a line the terminal
        could not decode (not UTF-8) is one replacement character, a mistake like any."""
        try:
            return clean_command(self.read(prompt))
        except UnicodeDecodeError:
            return "\ufffd"

    def _board(self, seat: int) -> None:
        self.write(self.state.render(seat))
        hint = self._free_hint(seat)
        if hint:
            self.write(hint)

    def _free_hint(self, seat: int) -> str:
        """What the other human seats may do out of turn now, and how ('' if nothing)."""
        parts = []
        for p in self.humans:
            if p != seat:
                free = self.state.free_commands(p)
                if free:
                    parts.append(f"P{p + 1} {', '.join(free)}")
        if not parts:
            return ""
        return "Out of turn (type 'P<n>: <command>'): " + "; ".join(parts)

    def _help(self, seat: int) -> None:
        self.write(META_HELP + ("\n" + PREFIX_HELP if self.hot_seat else ""))
        self.write(textwrap.fill(report.summary(self.state), 92))
        self.write("You can: " + "; ".join(str(a) for a in self.state.legal_actions(seat)))
        free = self.state.free_commands(seat)
        if free:
            self.write("Also, out of turn: " + "; ".join(free))
        hint = self._free_hint(seat)
        if hint:
            self.write(hint)

    def _history(self, seat: int | None) -> None:
        """Everything ``seat`` has been shown so far (``None``: the public events)."""
        upto = len(self.feed) if seat is None else self.seen[seat]
        events = [e.text for e in self.feed[:upto] if e.visible(seat)]
        self.write("\n".join(events) if events else "(nothing yet)")

    # -- playing ----------------------------------------------------------------------------
    def run(self) -> GameState:
        """Play until the game is over (then the end screen) or the players quit (then the
        game is saved)."""
        self._opening()
        try:
            while not self.state.is_over():
                actors = self.state.to_act()
                if not actors:
                    self.write("! the game cannot go on: nobody is to act")
                    break
                bot = next((p for p in actors if p in self.bots), None)
                if bot is not None:  # bots first: they never see a human's sealed choice
                    rng = random.Random(self.state.seed + len(self.state.actions))
                    self._act(bot, self.bot_players[bot].choose(self.state, bot, rng))
                    continue
                if not self._turn(actors[0]):
                    self._stop()
                    return self.state
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks: saved all the same
            self._stop()
            return self.state
        if self.state.is_over():
            self._end()
        return self.state

    def _opening(self) -> None:
        state = self.state
        who = ", ".join(f"P{p + 1}" + (self._bot_label(p) if p in self.bots else "")
                        for p in range(state.players))
        self.write(f"{state.info.title}: {state.players} players: {who}")
        if self.secret:
            self.write(f"Seed commitment: {self.record.commitment} (HMAC-SHA256 of a secret "
                       "seed and salt, both shown at the end; check them with 'mobadj play "
                       "verify FILE')")
        else:
            self.write(f"Seed {state.seed} was given by hand: this game is NOT secret. "
                       "Whoever knows the seed knows every card and die to come.")
        if self.hot_seat:
            self.write("Hot-seat: the screen is cleared between players; look away when it "
                       "is not your turn.")
        self.write("Type 'help' for the commands and the rules in brief.")

    def _bot_label(self, seat: int) -> str:
        level = self.bot_levels[seat]
        return " (bot)" if level == DEFAULT_BOT_LEVEL else f" (bot, {level})"

    def _turn(self, seat: int) -> bool:
        """One prompt of ``seat`` until it makes a move; False if the players quit."""
        if (self.hot_seat and self.holder != seat
                and not self._hand_over(seat, f"Pass to P{seat + 1} and press Enter ")):
            return False
        self.holder = seat
        self._show_feed(seat)
        self._board(seat)
        while True:
            try:
                text = self._ask(f"P{seat + 1}> ").strip()
            except (EOFError, KeyboardInterrupt):
                return False
            word = text.lower()
            if not text:
                continue
            if len(text) > MAX_LINE:
                self.write(f"! that line is longer than {MAX_LINE} characters: not read")
                continue
            if word in QUIT_WORDS:
                return False
            if word in HELP_WORDS:
                self._help(seat)
                continue
            if word == "board":
                self._board(seat)
                continue
            if word == "history":
                self._history(seat)
                continue
            try:
                if word == "undo":
                    self._undo(seat)
                    return True
                other = _SEAT_PREFIX.fullmatch(text)
                if other is not None and int(other.group(1)) - 1 != seat:
                    self._table_command(seat, int(other.group(1)) - 1, other.group(2).strip())
                    continue
                command = other.group(2).strip() if other is not None else text
                self._act(seat, self.state.parse(seat, command))
            except GameError as err:
                self.write(f"! {err}")
                continue
            self._show_feed(seat, "")
            return True

    def _table_command(self, seat: int, other: int, text: str) -> None:
        """``P3: say ...`` at ``seat``'s prompt: only public table commands of a human seat;
        the screen shows only what ``seat`` may see of the result."""
        if not 0 <= other < self.state.players:
            raise IllegalAction(f"there is no player P{other + 1}")
        if other in self.bots:
            raise IllegalAction(f"P{other + 1} is played by a bot")
        word = text.split(maxsplit=1)[0].lower() if text else ""
        if word == "history":
            self._history(None)
            return
        free = [f.split(maxsplit=1)[0].lower() for f in self.state.free_commands(other)]
        if word not in free:
            now = ", ".join(free + ["history"])
            raise IllegalAction(f"P{other + 1} may give only table commands here ({now}); "
                                "other moves at their own prompt")
        self._act(other, self.state.parse(other, text))
        self._show_feed(seat, "")

    def _undo(self, seat: int) -> None:
        self.state = self.state.undo(seat)
        del self.marks[-1]
        del self.feed[self.marks[-1]:]
        for p in self.seen:
            self.seen[p] = min(self.seen[p], len(self.feed))
        self.write("Undone.")

    def _stop(self) -> None:
        path = self.save()
        self.holder = None
        if path is not None:
            self.write(f"Game saved to {path}. Continue it with: mobadj play {self.name} "
                       f"--resume {path}")

    def _end(self) -> None:
        """The last events of each human seat (handed over in hot-seat), then the end screen
        for everyone: the score breakdown, the winner once, seed and salt."""
        state = self.state
        pending = [p for p in self.humans if any(
            not report.superseded(state, e) for e in self.unseen(p))]
        for seat in pending:
            if self.hot_seat and self.holder != seat and not self._hand_over(
                    seat, f"The game is over. Pass to P{seat + 1} for your last events and "
                    "press Enter "):
                break
            self.holder = seat
            self._show_feed(seat, "The game is over. Since your last turn:")
        if self.hot_seat:
            self._hand_over(None, "Press Enter to show the final scores to everyone ")
        self.holder = None
        if not self.humans:
            public = [e.text for e in self.feed if e.visible_to is None
                      and not report.superseded(state, e)]
            self.write("Last events:")
            self.write("\n".join(FEED_MARK + t for t in public[-12:]))
        self.write(f"=== {state.info.title}: the end ===")
        for line in report.end_report(state):
            self.write(line)
        for line in report.seed_lines(self.record, self.secret):
            self.write(line)
        path = self.save()
        if path is not None:
            self.write(f"The game's record is saved in {path}; check it with: "
                       f"mobadj play verify {path}")


def play_terminal(
    game: str,
    players: int,
    seed: int | None,
    bots: set[int],
    options: dict[str, Any] | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    *,
    clear: Callable[[], None] | None = None,
    save_to: str | Path | None = None,
    bot_levels: dict[int, str] | None = None,
) -> GameState:
    """Run one game to its end (or ``quit``); returns the final state.  ``seed`` None: a
    secret seed; a given seed makes the game reproducible and says it is not secret."""
    session = Session.new(game, players, seed, bots, options, read=read, write=write,
                          clear=clear, save_to=save_to, bot_levels=bot_levels)
    return session.run()
