"""Play a card game at the terminal: hot-seat for humans, bots for the other seats.

Each human seat sees only its own view.  The screen belongs to one seat at a time (its
*holder*); with two or more human seats the screen is cleared and the keyboard handed over
("Pass to P3 and press Enter") before another seat's private screen.  Every event a seat may
see is shown to it exactly once, in order, "since your last turn": one feed, one cursor per
seat.  A move the other seats may not see (a sealed bet, a face-down offer) is narrated
without its content ("P2 has sealed a bet.").

A screen fits the terminal: after a move, what changed, then what one acts on (the game's
:meth:`GameState.screen`), then the prompt; the whole table on ``board``.  Long lines are
wrapped and a screen that would overflow pauses (:class:`mobadj.cards.screen.Pager`).

Humans move before bots: in a sealed phase the bots seal their choices only when every
human has sealed theirs, so a saved game never holds a bot's choice that is still to be
revealed, and no bot ever sees a human's (bots read only what their seat may see).  Before
a bot moves, a human whose last move may still be taken back gets a prompt to take it back
(Enter lets the bots play on), and so does a human who may talk or show a card out of turn
(Iron Triangle's ``say`` and ``reveal``) before the bot's move closes that window.

Meta commands (any case): ``help``/``?`` (``help CARD`` explains a card), ``board``,
``history``, ``undo``, ``quit``.  After an error only the error and the prompt are printed.
Another human seat may give a public table command at anyone's prompt with its seat as
prefix: ``P3: say I can do it cheap``, ``P3: reveal``, ``P3: history`` (the public history);
nothing else goes through a prefix.  Quit, end of input and Ctrl-C save the game to a file
that ``--resume`` continues (by default in the user's data folder,
:func:`default_save_path`); the game is saved at every prompt and after each human move,
sealed (:mod:`mobadj.cards.saves`).  At the end: the last events, each score as the rulebook counts
it, the winner, seed and salt.  A window whose game was saved in another window since (the
same save resumed twice) says so once and stops, saving nothing and showing no end
(:attr:`Session.played_elsewhere`).

Every typed line is read as the judge reads a line of mail and every printed text is made
harmless for the screen (:mod:`mobadj.cards.screen`): no seat's table talk, no hand-edited
save can steer another seat's terminal.
"""

from __future__ import annotations

import bisect
import difflib
import json
import os
import random
import re
import textwrap
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext, suppress
from pathlib import Path
from typing import Any

from mobadj.cards import report
from mobadj.cards.protocol import Event, GameError, GameState, IllegalAction, undo_refusal
from mobadj.cards.record import (
    RECORD_FORMAT,
    GameRecord,
    fork,
    new_salt,
    new_seed,
)
from mobadj.cards.registry import DEFAULT_BOT_LEVEL, bot_of_level, canonical_name, game_class
from mobadj.cards.saves import (
    GameKey,
    PlayedElsewhere,
    data_folder,
    remember_finished,
    still_latest,
    write_sealed,
)
from mobadj.cards.screen import MAX_LINE, Pager, clean_command, rows_of
from mobadj.cards.words import command_words
from mobadj.privatefile import write_privately

_SEAT_PREFIX = re.compile(r"[Pp](\d+)\s*:\s*(.*)", re.S)
FEED_MARK = "  - "  # starts every event line of a seat's feed (boards never start so)
QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?", "h"})
GO_WORDS = frozenset({"", "done", "go", "ok"})  # let the bots play on
TERMINAL_WORDS = ("help", "board", "history", "undo", "quit", "exit")
META_HELP = """\
At the terminal (commands in any case):
  help, ?, h this help and the commands you can give now
  help CARD  what a card does (any card you can see{examples})
  board      show the whole table
  history    every event you have seen so far
  undo       take back your last move, if nobody has moved since and it revealed nothing
  quit, q    save the game and stop (also exit; Ctrl-C and end of input do the same)"""


def meta_help(state: GameState) -> str:
    """The terminal's own commands, ``help CARD`` with examples from ``state``'s game."""
    examples = ", ".join(f"help {e}" for e in state.help_examples)
    return META_HELP.format(examples=f": {examples}" if examples else "")
PREFIX_HELP = "  P<n>: ...  another human seat's table command at this prompt: {words}"
UNDO_PAUSE = "Your move is made: Enter lets the bots play on, 'undo' takes it back."


def window_message(free: list[str] | tuple[str, ...]) -> str:
    """What a human is told when the bots wait for its out-of-turn commands ``free``."""
    words = " or ".join(f"'{f}'" for f in free)
    return f"Before the bots play on you may {words}; Enter lets them play."


def joined(texts: list[str]) -> str:
    """The events of one move as one line of sentences."""
    if len(texts) == 1:
        return texts[0]
    return " ".join(t if t.endswith((".", "!", "?", ")")) else t + "." for t in texts)


def saves_folder() -> Path:
    """Where games are saved when no file is named: ``$MOBADJ_SAVE_DIR``, else the user's
    data folder, ``$XDG_DATA_HOME/mobadj/saves`` (``~/.local/share/mobadj/saves``)."""
    own = os.environ.get("MOBADJ_SAVE_DIR")
    if own:
        return Path(own).expanduser()
    return data_folder() / "saves"


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
    IllegalAction names the field that is malformed (an old, unsealed save is the player's
    to edit)."""

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
        size: tuple[int, int] | None = None,
        key: GameKey | None = None,
        saves: int = 0,
    ) -> None:
        """``bots``: the seats the bot plays, each at its level in ``bot_levels`` (seat ->
        "basic" or "standard", the default); raises :class:`IllegalAction` for a level the
        game does not have.  ``size``: the screen's columns and rows (None: print lines as
        they are, never pause).  ``key`` and ``saves``: a resumed game's key and how many
        times it was saved."""
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
        width, height = size or (None, None)
        self.pager = Pager(write, self._read_raw, width, height, keep=self._typed_at_pause)
        self.write: Callable[[str], None] = self.pager.write
        self.clear = clear or (lambda: None)
        self.save_to = Path(save_to) if save_to is not None else None
        self.holder: int | None = None  # whose private screen is up (None: the table)
        # a command typed at a hand-over's "press Enter", the first the new seat gives
        self.typed_ahead = ""
        self._ahead_from_pause = False  # typed_ahead was typed at a -- more -- pause
        self._ending = False  # the end screen is being shown: no command follows
        self.feed: list[Event] = list(state.events)
        self.marks: list[int] = [len(self.feed)]  # feed length after 0, 1, ... actions
        self.seen: dict[int, int] = dict.fromkeys(self.humans, 0)
        self.saved: Path | None = None
        self.key = key
        self.saves = saves
        self._saved_moves = -1  # how many actions the file on disk holds
        self._played_on = -1  # the actions when a human last let the bots play on
        self._windows: dict[int, tuple[str, ...]] = {}  # out-of-turn windows offered
        self._before: GameState | None = None  # the game before a human's last move
        self._replaying = False
        self._resumed = False  # no prompt yet in this window of a resumed game
        #: why this window stopped for a game saved in another window (None: it did not)
        self.played_elsewhere: str | None = None

    # -- building a session ----------------------------------------------------------------
    @classmethod
    def new(cls, game: str, players: int, seed: int | None, bots: set[int],
            options: dict[str, Any] | None = None, **kw: Any) -> Session:
        """A new game; ``seed`` None draws a secret one (128 bits) from :mod:`secrets`."""
        name = canonical_name(game)
        game_class(name).check_new_options(dict(options or {}))
        state = game_class(name).new(players, new_seed() if seed is None else seed, options)
        return cls(name, state, new_salt(), bots, secret=seed is None, **kw)

    @classmethod
    def resume(cls, data: dict[str, Any], **kw: Any) -> Session:
        """A saved game (see :meth:`to_json`; a sealed file is opened by
        :func:`mobadj.cards.saves.read_save`) replayed to where it stopped."""
        record = GameRecord.from_json(data)
        if record.salt is None:
            raise IllegalAction("the saved game has no salt")
        bots, levels, seen = _saved_seats(data, record.players)
        state = record.start()  # under the rules it started with
        session = cls(record.game, state, record.salt, bots, bot_levels=levels,
                      secret=bool(data.get("secret", True)), **kw)
        session._replaying = True
        for player, text in record.actions:
            session._act(player, state.parse(player, text))
        session._replaying = False
        session._resumed = True
        for p in session.humans:
            session.seen[p] = max(0, min(seen.get(f"P{p + 1}", 0), len(session.feed)))
        session._saved_moves = len(record.actions) if session.key is not None else -1
        return session

    @property
    def record(self) -> GameRecord:
        return GameRecord.of(self.name, self.state, self.salt)

    def to_json(self) -> dict[str, Any]:
        """The whole game: the record with seed and salt, the bot seats and how far each
        seat has read its feed.  In progress it is saved sealed (:meth:`save`); once the game
        is over it is the record anyone may check."""
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
        """Write the game to its file (its folder made if need be): sealed while it is in
        progress, the plain record once it is over (its key is then forgotten).  None when
        there is no file, or when it cannot be written (then said on the screen)."""
        if self.save_to is None:
            return None
        try:
            self.save_to.parent.mkdir(parents=True, exist_ok=True)
            if self.state.is_over():
                with self._locked():
                    self._still_ours()
                    write_privately(self.save_to, json.dumps(self.to_json(), indent=1) + "\n")
                    with suppress(OSError):  # (the record stands all the same)
                        remember_finished(self.record.commitment)
                    if self.key is not None:
                        self.key.forget()
            else:
                if self.key is None:
                    self.key = GameKey.new()
                self.saves += 1
                write_sealed(self.save_to, self.to_json(), self.key, self.saves)
        except OSError as exc:
            self.write(f"! cannot save the game to {self.save_to}: {exc.strerror or exc}")
            return None
        self._saved_moves = len(self.state.actions)
        self.saved = self.save_to
        return self.save_to

    def _keep_saved(self) -> None:
        """Save at every prompt once the game has moved: a copy of an earlier save never
        resumes (:mod:`mobadj.cards.saves`), and neither does a game killed after a draw
        take it back.  A prompt with nothing new to save checks that no other window has
        saved the game since, so a stale window stops before its player types a move."""
        if self.save_to is not None and self._saved_moves != len(self.state.actions):
            self.save()
        else:
            self._still_ours()

    def _locked(self) -> AbstractContextManager[None]:
        """The game's lock (:meth:`GameKey.locked`) while this window has a save that
        another window may have resumed; else nothing to hold."""
        if self.save_to is not None and self.key is not None:
            return self.key.locked()
        return nullcontext()

    def _still_ours(self) -> None:
        """PlayedElsewhere when another window has saved (or ended) this game since this
        window opened or last saved it: nothing of it may be played, saved or shown here."""
        if self.save_to is not None and self.key is not None:
            still_latest(self.key)

    # -- the feed ---------------------------------------------------------------------------
    def _act(self, player: int, action: Any) -> None:
        """Apply ``action`` and add what it logged to the feed (plus a narration for the
        seats that could see none of it).  A human's move keeps the game as it was before,
        to tell cheaply whether the move may still be taken back.  A human's move is
        saved at once, checked and written under the game's lock: a window whose game was
        saved elsewhere meanwhile plays nothing and shows nothing of it (PlayedElsewhere),
        and none is shown what a move drew before that move is saved."""
        if self._replaying:
            self._apply(player, action)
            return
        with self._locked():
            self._still_ours()
            self._apply(player, action)
            if player in self.humans:
                self.save()

    def _apply(self, player: int, action: Any) -> None:
        before = len(self.state.events)
        self._before = (fork(self.state) if player in self.humans and not self._replaying
                        else None)
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
        """The events ``seat`` has not seen: what one player's moves in a row caused, in
        sentences, one line; hidden moves of one kind one after another in one line; what
        no move caused (the deal) one line an event."""
        groups: list[tuple[int, list[str]]] = []
        for k in range(self.seen[seat], len(self.feed)):
            event = self.feed[k]
            if not event.visible(seat) or report.superseded(self.state, event):
                continue
            move = bisect.bisect_right(self.marks, k)
            actor = self.state.actions[move - 1][0] if move else -1 - k
            if groups and groups[-1][0] == actor:
                groups[-1][1].append(event.text)
            else:
                groups.append((actor, [event.text]))
        self.seen[seat] = len(self.feed)
        if groups and heading:
            self.write(heading)
        for line in report.told_together(self.state, [joined(t) for _, t in groups]):
            self.write(FEED_MARK + line)

    # -- the screen -------------------------------------------------------------------------
    def _read_raw(self, prompt: str) -> str:
        """A line typed at ``prompt`` (a pause of the pager too); a new screen begins."""
        try:
            return self.read(prompt)
        finally:
            self.pager.prompted()

    def _ask(self, prompt: str) -> str:
        """A line typed at ``prompt``, cleaned (:func:`clean_command`); a line the terminal
        could not decode (not UTF-8) is one replacement character, a mistake like any."""
        try:
            return clean_command(self._read_raw(prompt))
        except UnicodeDecodeError:
            return "\ufffd"

    def _typed_at_pause(self, line: str) -> None:
        """A line typed at ``-- more --`` instead of Enter: the command of the prompt that
        follows (shown after it, as if typed there), as at a hand-over's "press Enter".  On
        the end screen no prompt follows: the line is answered at once (:meth:`_not_read`),
        and ``quit`` there ends the end screen as Ctrl-D does (EOFError)."""
        self.typed_ahead = clean_command(line).strip()
        self._ahead_from_pause = True
        if self._ending:
            if self.typed_ahead.lower() in QUIT_WORDS:
                self.typed_ahead = ""
                raise EOFError
            self._not_read()

    def _not_read(self) -> None:
        """Once the game is over: say that a line typed ahead (at a pause or a hand-over's
        "press Enter") was not read, rather than let it vanish."""
        typed, self.typed_ahead, self._ahead_from_pause = self.typed_ahead, "", False
        if typed:
            self.write(f"! {typed[:40]!r} was not read: the game is over")

    def _hand_over(self, seat: int | None, prompt: str) -> str:
        """Before ``seat``'s private screen (``None``: the table's): the seat whose screen is
        up presses Enter when done reading (or takes its move back: ``undo``), the screen
        is cleared, and the keyboard waits for ``prompt``.  "ok", "undone", or "quit" if
        the players quit instead.  A command typed instead of Enter is the seat's first
        (:meth:`_prompt`): over a pipe, the first line is not lost to the hand-over.  At
        "press Enter to hide your screen" any other line is answered (the seat has no move
        to make now) and the prompt asked again; a line typed at a pause just before it is
        its answer."""
        kept = self.typed_ahead if self._ahead_from_pause else ""
        self.typed_ahead, self._ahead_from_pause = "", False
        try:
            if self.holder is not None:
                holder = self.holder
                undo = self._may_take_back(holder)
                hide = (f"P{holder + 1}: press Enter to hide your screen"
                        + (" (or 'undo' to take your move back) " if undo else " "))
                while True:
                    self.typed_ahead, kept = kept, ""
                    text = self._prompt(hide).strip()
                    if text.lower() in QUIT_WORDS:
                        return "quit"
                    if undo and text.lower() == "undo":
                        self._undo(holder)
                        return "undone"
                    if not text:
                        break
                    self.write(f"! {text[:40]!r} was not read: P{holder + 1} has no move to "
                               "make now (press Enter to hide your screen"
                               + (", or 'undo' to take your move back)" if undo else ")"))
                self.clear()
                self.holder = None
            typed = self._ask(prompt).strip()
            if typed.lower() in QUIT_WORDS:
                return "quit"
        except (EOFError, KeyboardInterrupt):
            return "quit"
        self.holder = seat
        self.typed_ahead = typed  # (the end screen's hand-over, seat None: answered there)
        return "ok"

    def _prompt(self, prompt: str) -> str:
        """The line typed at ``prompt``, or the one typed ahead at the hand-over (shown after
        the prompt, as if typed there)."""
        typed, self.typed_ahead, self._ahead_from_pause = self.typed_ahead, "", False
        if typed:
            self.write(prompt + typed)
            return typed
        return self._ask(prompt)

    def pager_rows(self, line: str) -> list[str]:
        """The rows ``line`` takes on this session's screen."""
        return rows_of(line, self.pager.width)

    def _take_screen(self, seat: int) -> str:
        """Make the screen ``seat``'s (a hand-over in hot-seat); as :meth:`_hand_over`."""
        if self.hot_seat and self.holder != seat:
            outcome = self._hand_over(seat, f"Pass to P{seat + 1} and press Enter ")
            if outcome != "ok":
                return outcome
        self.holder = seat
        return "ok"

    def _screen(self, seat: int, then: str = "") -> None:
        """What ``seat`` acts on: the game's short screen, what others may do now, and
        ``then``, kept on one screen with the prompt."""
        text = "\n".join(t for t in (self.state.screen(seat), self._free_hint(seat), then) if t)
        self.pager.keep_whole(text)
        self.write(text)

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

    def _prefix_help(self, seat: int) -> str:
        """The help's ``P<n>:`` line: only the table commands the game takes from another
        human seat now (Iron Triangle's say/reveal; most games none) and ``history``."""
        words: list[str] = []
        for p in self.humans:
            if p != seat:
                for free in self.state.free_commands(p):
                    word = free.split(maxsplit=1)[0]
                    if word not in words:
                        words.append(word)
        return PREFIX_HELP.format(words=", ".join([*words, "history"]))

    def _help(self, seat: int, topic: str = "") -> None:
        if topic:
            self.write(self.state.explain(seat, topic))
            return
        self.write(meta_help(self.state) + ("\n" + self._prefix_help(seat) if self.hot_seat
                                            else ""))
        # wrapped to this screen's width (without one, to 92 columns for a file or a pipe)
        self.write(textwrap.fill(report.summary(self.state), self.pager.width or 92))
        self.write("You can: " + ("; ".join(str(a) for a in self.state.legal_actions(seat))
                                  or "nothing now"))
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

    def _meta(self, seat: int, text: str) -> bool:
        """A terminal command that changes nothing (help, board, history): done if True."""
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in HELP_WORDS:
            self._help(seat, rest.strip())
            return True
        if word == "board":  # ("board please": the board all the same)
            self._board(seat)
            return True
        if word == "history":
            self._history(seat)
            return True
        near = self._near_terminal_word(word)
        if near is not None:
            self.write(f"! {word!r} is not understood; did you mean {near!r}? ('help' lists "
                       "the commands)")
            return True
        return False

    def _near_terminal_word(self, word: str) -> str | None:
        """The terminal's own word a typo is close to ("quitt", "histroy", "borad"), unless
        the game reads the word itself (then the game's own did-you-mean says it)."""
        if len(word) < 4 or word in TERMINAL_WORDS or word in command_words(self.name):
            return None
        close = difflib.get_close_matches(word, TERMINAL_WORDS, n=1, cutoff=0.75)
        return close[0] if close else None

    # -- playing ----------------------------------------------------------------------------
    def run(self) -> GameState:
        """Play until the game is over (then the end screen) or the players quit (then the
        game is saved); a window whose game was played on elsewhere stops at once (said
        once, nothing saved)."""
        try:
            if not self._play():
                return self.state
            # the record first: no move is taken back once the end, the seed and the salt
            # have been seen (even by quitting at the end screen's pause)
            path = self.save()
        except PlayedElsewhere as gone:
            self._give_way(gone)
            return self.state
        try:
            self._end(path)
        except (KeyboardInterrupt, EOFError):
            self._recorded(path)
        return self.state

    def _play(self) -> bool:
        """The game's moves until it is over (True) or the players stop (False, saved)."""
        try:
            self._opening()
            while not self.state.is_over():
                actors = self.state.to_act()
                if not actors:
                    self.write("! the game cannot go on: nobody is to act")
                    return False
                human = next((p for p in actors if p not in self.bots), None)
                if human is not None:  # humans first: no bot choice waits sealed in a save
                    if not self._turn(human):
                        self._stop()
                        return False
                    continue
                moves = len(self.state.actions)
                if not self._before_bots():
                    self._stop()
                    return False
                if len(self.state.actions) != moves:  # taken back, or talk: look again
                    continue
                bot = actors[0]
                rng = random.Random(self.state.seed + len(self.state.actions))
                self._act(bot, self.bot_players[bot].choose(self.state, bot, rng))
        except (KeyboardInterrupt, EOFError):  # Ctrl-C while a bot thinks, Ctrl-D at a
            self._stop()  # pause: saved all the same
            return False
        return True

    def _give_way(self, gone: PlayedElsewhere) -> None:
        """Say once, as the last line, why this window stops; the game's save is left as
        the other window wrote it."""
        self.played_elsewhere = str(gone)
        if self.hot_seat:  # the screen up may be a seat's own: hidden as at a hand-over
            self.clear()
        self.holder = None
        self.pager.height = None  # (the last line: never held up by a pause)
        self.write(f"! {gone}")

    def _opening(self) -> None:
        state = self.state
        who = ", ".join(f"P{p + 1}" + (self._bot_label(p) if p in self.bots else "")
                        for p in range(state.players))
        players = f"{state.players} player" + ("" if state.players == 1 else "s")
        self.write(f"{state.info.title}: {players}: {who}")
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
        outcome = self._take_screen(seat)
        if outcome != "ok":
            return outcome == "undone"
        self._windows.pop(seat, None)
        self._keep_saved()
        self._show_feed(seat)
        self._screen(seat)
        self._resumed = False
        while True:
            try:
                text = self._prompt(f"P{seat + 1}> ").strip()
            except (EOFError, KeyboardInterrupt):
                return False
            if not text:
                continue
            if text.lower() in QUIT_WORDS:
                return False
            if self._command(seat, text):
                return True

    def _before_bots(self) -> bool:
        """Before a bot moves: the human who moved last may take that move back (the bots
        wait for Enter), and a human who may talk or show a card out of turn gets a prompt
        before the bot's move closes that window.  False if the players quit."""
        moves = len(self.state.actions)
        last = self.state.actions[-1][0] if self.state.actions else None
        if last in self.humans and self._played_on != moves and self._may_take_back(last):
            self._played_on = moves
            if not self._aside(last, UNDO_PAUSE):
                return False
            if len(self.state.actions) != moves:
                return True
        for seat in self.humans:
            free = tuple(self.state.free_commands(seat))
            if not free:
                self._windows.pop(seat, None)
                continue
            if self._windows.get(seat) == free:
                continue
            self._windows[seat] = free
            if not self._aside(seat, window_message(free)):
                return False
        return True

    def _aside(self, seat: int, message: str) -> bool:
        """A prompt for ``seat`` while the bots wait: its new events and what it acts on,
        ``message``, then commands until Enter (or ``done``).  Takes the seat's move back on
        ``undo``; gives its out-of-turn commands.  False if the players quit."""
        outcome = self._take_screen(seat)
        if outcome != "ok":
            return outcome == "undone"
        self._keep_saved()
        last = self.state.actions[-1] if self.state.actions else None
        if self.unseen(seat):
            self._show_feed(seat)
            self._screen(seat, message)
        elif self._resumed:  # a game resumed here: the table, and the move it waits on
            mine = f"Your last move: {last[1]}\n" if last and last[0] == seat else ""
            self._screen(seat, mine + message)
        else:
            self.write(message)
        self._resumed = False
        while True:
            try:
                text = self._prompt(f"P{seat + 1} (Enter: play on)> ").strip()
            except (EOFError, KeyboardInterrupt):
                return False
            word = text.lower()
            if word in GO_WORDS:
                return True
            if word in QUIT_WORDS:
                return False
            if self._command(seat, text) == "undone":
                return True

    def _command(self, seat: int, text: str) -> str | None:
        """A line typed at ``seat``'s prompt: a terminal command (help, board...), ``undo``,
        another seat's table command, or a move.  "undone" or "moved", or None when nothing
        changed (a mistake, said on the screen) and the prompt is asked again."""
        if len(text) > MAX_LINE:
            self.write(f"! that line is longer than {MAX_LINE} characters: not read")
            return None
        self._still_ours()  # (a window whose game was saved elsewhere shows nothing more)
        if self._meta(seat, text):
            return None
        try:
            if text.lower() == "undo":
                self._undo(seat)
                return "undone"
            other = _SEAT_PREFIX.fullmatch(text)
            if other is not None and int(other.group(1)) - 1 != seat:
                self._table_command(seat, int(other.group(1)) - 1, other.group(2).strip())
                return None
            command = other.group(2).strip() if other is not None else text
            self._act(seat, self.state.read(seat, command))
        except GameError as err:
            self.write(f"! {err}")
            return None
        self._show_feed(seat, "")
        return "moved"

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
        self._act(other, self.state.read(other, text))
        self._show_feed(seat, "")

    def _may_take_back(self, seat: int) -> bool:
        """Was the last move ``seat``'s, and may it be taken back?  The check every game
        shares (:func:`undo_refusal`), against the game kept from before the move (a replay
        would give the same game, at a cost)."""
        actions = self.state.actions
        if not actions or actions[-1][0] != seat:
            return False
        before = self._before
        if before is None or len(before.actions) != len(actions) - 1:
            return self.state.can_undo(seat)
        return undo_refusal(before, self.state, seat, before.parse(seat, actions[-1][1])) is None

    def _undo(self, seat: int) -> None:
        self._still_ours()
        actions = self.state.actions
        if not actions or actions[-1][0] != seat:
            mine = [i for i, (p, _) in enumerate(actions) if p == seat]
            if not mine:
                raise IllegalAction("nothing to undo: you have made no move yet")
            since = sorted({f"P{p + 1}" for p, _ in actions[mine[-1] + 1:]})
            raise IllegalAction(f"nothing to undo: {' and '.join(since)} "
                                f"{'has' if len(since) == 1 else 'have'} moved since your "
                                "last move")
        self.state = self.state.undo(seat)
        del self.marks[-1]
        del self.feed[self.marks[-1]:]
        for p in self.seen:
            self.seen[p] = min(self.seen[p], len(self.feed))
        self._played_on = -1
        self.write("Undone.")

    def _stop(self) -> None:
        """Quit, end of input or Ctrl-C: save and say how to go on.  In hot-seat the screen
        (and its scrollback) is cleared first, as at a hand-over: the hand of the seat at the
        keyboard is not left for whoever comes to the machine next."""
        if self.hot_seat:
            self.clear()
            self.pager.height = None  # (a new screen: its last lines never held up)
        self.holder = None
        path = self.save()
        if path is not None:
            self.write(f"Game saved to {path}. Continue it with: mobadj play {self.name} "
                       f"--resume {path}")
            if self.key is not None:
                self.write(f"Its key is {self.key.path}: to go on on another machine, copy "
                           "the key file there too.")

    def _end(self, path: Path | None) -> None:
        """The last events of each human seat (handed over in hot-seat), then the end screen
        for everyone: the score breakdown, the winner once, seed and salt; the game's
        record, already saved at ``path``."""
        state = self.state
        self._ending = True
        self._not_read()  # (typed at a pause as the last move was shown)
        pending = [p for p in self.humans if any(
            not report.superseded(state, e) for e in self.unseen(p))]
        for seat in pending:
            if self.hot_seat and self.holder != seat and self._hand_over(
                    seat, f"The game is over. Pass to P{seat + 1} for your last events and "
                    "press Enter ") != "ok":
                break
            self.holder = seat
            self._show_feed(seat, "The game is over. Since your last turn:")
            self._not_read()
        if self.hot_seat:
            self._hand_over(None, "Press Enter to show the final scores to everyone ")
        self.holder = None
        self._not_read()
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
        self._recorded(path)

    def _recorded(self, path: Path | None) -> None:
        if path is not None:
            self.pager.height = None  # (the last line: never held up by a pause)
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
    size: tuple[int, int] | None = None,
) -> GameState:
    """Run one game to its end (or ``quit``); returns the final state.  ``seed`` None: a
    secret seed; a given seed makes the game reproducible and says it is not secret."""
    session = Session.new(game, players, seed, bots, options, read=read, write=write,
                          clear=clear, save_to=save_to, bot_levels=bot_levels, size=size)
    return session.run()
