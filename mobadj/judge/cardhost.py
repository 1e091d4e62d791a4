"""Card games on the judge, through the card-game protocol (:mod:`mobadj.cards.protocol`).

The judge's state is the game's record (players, seed, options, actions as canonical
command text); the game is rebuilt by replay whenever it is needed, so nothing but the
record is stored.  Seats are ``P1``..``Pn``.  The seats the game waits for (``to_act``) are
due; when all have sent their command the phase resolves at once: sealed simultaneous
choices (bids) are applied together, and each player is sent only the events they may see
and their own view.  A seat that misses the deadline gets the game's bot move as default.

Free commands (:meth:`GameState.free_commands`, e.g. table talk) may come from any seated
player at any time: they are applied at once (:meth:`CardHost.free`), not kept as orders, and
do not count as moves, so orders already given for the move stand.

Seeds: each game draws a secret 128-bit seed and a 256-bit salt from :mod:`secrets`; the
commitment (HMAC-SHA256, :mod:`mobadj.cards.record`) is in every status, and the final mail
reveals seed and salt with the game's record attached (``mobadj play verify record.json``).
Games stored before salts existed (no ``salt`` in the state) keep the old unsalted
commitment and are named as the old scheme.

Rules: the state names the rules version the game started under (``rules_version``) and the
game is always replayed under it; a state stored before versions were recorded gets the
game's oldest readings (Iron Triangle's ``refill=before_discard``, Micro City's
``stage_markers=fixed``, ``seaport_upgrade=keep``, ``goals=architect`` and
``unused_options=ignore``), so it replays as it was played.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import textwrap
from collections import Counter, deque
from collections.abc import Mapping
from typing import Any

from mobadj.cards import report as card_report
from mobadj.cards.protocol import GameError, GameState, stopped
from mobadj.cards.record import (
    GameRecord,
    ReplayCache,
    new_salt,
    new_seed,
    seed_commitment,
)
from mobadj.cards.registry import bot_class, game_class
from mobadj.cards.words import command_words
from mobadj.judge.card_remarks import is_prose, remark_lines
from mobadj.judge.commands import PRESS_WORDS
from mobadj.judge.deadlines import bots_at_once, option
from mobadj.judge.hosts import Check, Ending, Free, Host, HostError, Resolution, State

log = logging.getLogger("mobadj.judge")

REPLAYS = ReplayCache()  # a game rebuilt for a mail replays only its new actions
_RECORDS: deque[tuple[dict[str, Any], GameRecord]] = deque(maxlen=8)  # see CardHost._record
JUDGE_HELP = {  # HELP's judge commands for a card game's player: no orders, phases, READY
    "orders": (), "phase": (), "ready": (),
    "preview": (("PREVIEW", "your legal commands now"),),
    "summary": (("SUMMARY", "who played which seat when"),),
    "help": (("HELP [command or card]", "this text, or one of the game's commands or cards"),),
}
HELP_WIDTH = 90  # HELP's paragraphs, wrapped as the judge's command list is wide
PREVIEW_LIMIT = 40  # legal commands listed by PREVIEW; the rest are counted by command word
WITHHELD = "withheld until the game is over"  # seed and salt in the GM's export before then
NOT_PLAYED = "not played"  # a move after a line that could not be read (CardHost.check)


def seat_name(player: int) -> str:
    return f"P{player + 1}"


def seat_index(seat: str) -> int:
    return int(seat[1:]) - 1


class CardHost(Host):
    """Any game of the card registry."""

    resolve_when_all_in = True
    without_orders = "the judge plays a default move"
    without_player = ("the judge plays its moves: the GM's moves for it (ORDERS FOR) as they "
                      "come, else the game's bot's move at each deadline; it plays to win and "
                      "may win the game")
    fills_in_order = True
    judge_help = JUDGE_HELP

    def without_player_in(self, options: Mapping[str, Any]) -> str:
        """With ``bot_moves at_once`` the bot moves as soon as the seat is due."""
        if bots_at_once(dict(options)):
            return ("the judge plays its moves: the game's bot's move as soon as it is due "
                    "(bot_moves at_once); it plays to win and may win the game")
        return self.without_player

    def __init__(self, name: str) -> None:
        self.kind = name
        try:
            self.cls = game_class(name)
        except (ImportError, AttributeError) as exc:
            raise HostError(f"the {name} engine is not available here: {exc}") from None
        self.title = self.cls.info.title

    # -- record and replay -------------------------------------------------------------------
    def _record(self, state: State) -> GameRecord:
        """The game's record; a state stored before rules versions were recorded (no
        ``rules_version``) is replayed under the game's oldest readings.  The judge asks a
        dozen questions of one state per mail: the record of a state it asked about lately
        is made once (states are values: nothing changes one in place)."""
        actions = state["actions"]
        for held, record in _RECORDS:
            if held is state and len(record.actions) == len(actions):
                return record
        record = GameRecord(self.kind, state["players"], state["seed"], dict(state["options"]),
                            [(int(p), str(a)) for p, a in actions],
                            str(state.get("rules_version") or ""), self.cls.info.deck_version,
                            state.get("salt"))
        _RECORDS.appendleft((state, record))  # held here, so its id() is not reused
        return record

    def _game(self, state: State, fresh: bool = True) -> GameState:
        """The game rebuilt from its record: a copy to change, or (``fresh=False``) a
        shared one only to read."""
        try:
            return REPLAYS.state(self._record(state), fresh)
        except GameError as exc:  # a stored record that no longer replays: say so plainly
            raise HostError(f"the game record cannot be replayed: {exc}") from None

    @staticmethod
    def _game_options(options: dict[str, Any]) -> dict[str, Any]:
        """Game options are the judge options prefixed ``game_`` (``game_modules=3``); a
        value of plain digits is a number, anything else (``²``, thousands of digits) stays
        the text, for the game to accept or refuse by name."""
        out: dict[str, Any] = {}
        for key, value in options.items():
            if key.startswith("game_"):
                out[key[5:]] = value
                text = str(value)
                if text.lstrip("-").isascii() and text.lstrip("-").isdigit():
                    with contextlib.suppress(ValueError):  # more digits than Python reads
                        out[key[5:]] = int(text)
        return out

    # -- the Host interface ------------------------------------------------------------------
    def read_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The game's options (``game_*``) checked when the game is created, not first when
        it starts: a misspelt value (``game_mode=competetive``) would leave a game that can
        never start.  They are good when the game takes them at some number of players it
        is for (an option may ask for more players than the fewest).  Stored as given."""
        opts = self._game_options(dict(options))
        if not opts:
            return {}
        info = self.cls.info
        try:
            self.cls.check_new_options(opts)
        except GameError as exc:
            raise HostError(f"{info.title} does not take these options: {exc}") from None
        refusal = ""
        for players in range(info.min_players, info.max_players + 1):
            try:
                self.cls.check_hosted_options(opts)
                self.cls.new(players, 0, opts)
            except GameError as exc:
                refusal = refusal or str(exc)
                continue
            return {}
        raise HostError(f"{info.title} does not take these options: {refusal}")

    def seats(self, options: dict[str, Any]) -> list[str]:
        return [seat_name(i) for i in range(self.cls.info.max_players)]

    def seats_always_dealt(self, options: dict[str, Any]) -> list[str]:
        """P1.. up to the fewest players the game takes: a seat beyond is dealt only when
        that many play."""
        return self.seats(options)[:self.cls.info.min_players]

    def seats_in(self, options: dict[str, Any], state: State | None) -> list[str]:
        dealt = state.get("players") if isinstance(state, dict) else None
        if type(dealt) is int and 0 < dealt <= self.cls.info.max_players:
            return [seat_name(i) for i in range(dealt)]
        return self.seats(options)

    def seat(self, options: dict[str, Any], text: str) -> str:
        t = text.strip().upper()
        if t.isdigit():
            t = f"P{t}"
        if t in self.seats(options):
            return t
        raise HostError(f"no seat {text!r}; seats are P1..P{self.cls.info.max_players}")

    def new_state(self, seats: list[str], seed: int, options: dict[str, Any]) -> State:
        n = len(seats)
        if sorted(seats, key=seat_index) != [seat_name(i) for i in range(n)]:
            raise HostError("card games need seats P1..Pn filled without gaps")
        opts = self._game_options(options)
        card_seed, salt = new_seed(), new_salt()  # the judge's ``seed`` is not secret enough
        try:
            self.cls.check_hosted_options(opts)  # no file of this machine (Mice Heist's deck)
            self.cls.check_new_options(opts)
            self.cls.new(n, card_seed, opts)
        except GameError as exc:
            raise HostError(str(exc)) from None
        return {"players": n, "seed": card_seed, "salt": salt, "options": opts, "actions": [],
                "commitment": seed_commitment(self.kind, card_seed, salt),
                "rules_version": self.cls.info.rules_version}

    def command_words(self, state: State | None) -> frozenset[str]:
        """The first words of the game's commands: after SIGNON as a player, a line that
        starts with one of them is the game's, even where the judge has a command of that
        name (Micro City's ``start a3``, micro mob's ``end``); see :mod:`mobadj.cards.words`."""
        return command_words(self.kind)

    def phase(self, state: State) -> str:
        """Moves are counted without the free commands, which may come in between."""
        return f"M{len(state['actions']) - state.get('free', 0) + 1}"

    @staticmethod
    def moves_played(state: State) -> int:
        """How many moves were played: a move is one seat's command, so a sealed round is
        a move of each seat that sealed a choice (the phase after Mice Heist's job and two
        bets is move 4), as the phases are named and the final report counts a seat's
        moves; the free commands (table talk) are no moves."""
        return len(state["actions"]) - state.get("free", 0)

    def _last(self, state: State) -> str:
        played = self.moves_played(state)
        return f"move {played}, the last" if played else "before the first move"

    def phase_label(self, state: State) -> str:
        """``move 7 (waiting for P2)``; once the game is over, by its rules or the players',
        the last move played, as the index and the game's page count them."""
        game = self._game(state, fresh=False)
        if state.get("ended") or game.is_over():
            return f"{self._last(state)} (the game has ended: nobody is waiting)"
        waiting = ", ".join(seat_name(p) for p in game.to_act()) or "nobody"
        return f"move {self.phase(state)[1:]} (waiting for {waiting})"

    def ended_phase(self, state: State, phase: str) -> str:
        """The move played last (``M3`` after a job and two sealed bets), not the phase that
        was resolved (``M2``, which held two moves) nor the one the game stood at when its
        GM ended it (``M4``, never played); "" when no move was played."""
        played = self.moves_played(state)
        return f"M{played}" if played else ""

    def ended_line(self, state: State, phase: str) -> str:
        """As the pages say it: ``Ended in: M3 (move 3, the last)``."""
        played = self.moves_played(state)
        return (f"Ended in: M{played} ({self._last(state)})" if played
                else "Ended before the first move.")

    def due(self, state: State) -> list[str]:
        game = self._game(state, fresh=False)
        if state.get("ended") or game.is_over():
            return []
        return [seat_name(p) for p in game.to_act()]

    def is_remark(self, state: State | None, line: str, seat: str | None = None) -> bool:
        """Is ``line`` clearly no command of this game ("Gil", "Thanks!"), read for ``seat``
        (the first when none: a GM's mail)?  A sign-off after the judge's commands is set
        aside by it as after the game's own (:mod:`.card_remarks`)."""
        game = self._game(state, fresh=False) if state is not None else None
        player = seat_index(seat) if seat is not None else 0
        return is_prose(game, player, line, self.command_words(state))

    def check(self, state: State, seat: str, text: str) -> Check:
        """Each line a command; a player to act alone may send several in a row.  Read on
        the shared game, applied on a copy made when there is something to apply.  After a
        line that cannot be read or played, no line is taken: the moves after it were
        meant to follow it (a skill, then the test it was for), and a move taken is played
        at once, past correcting; each is listed as not played (:data:`NOT_PLAYED`)."""
        game = self._game(state, fresh=False)
        player = seat_index(seat)
        out = Check()
        simultaneous = len(game.to_act()) > 1
        copied = False
        lines = text.splitlines()
        aside = remark_lines(game, player, lines, self.command_words(state))
        played: tuple[int, str, Any] | None = None  # the last line played: number, text, action
        for number, line in enumerate(lines, start=1):
            if not line.strip() or number - 1 in aside:
                continue
            if out.errors and (player in game.to_act() or played is not None):
                out.errors.append(f"line {number}: {NOT_PLAYED} ({line.strip()})")
                continue
            if player not in game.to_act():
                out.errors.append(self._after_turn(game, seat, number, line, played)
                                  if played is not None else
                                  f"line {number}: {line.strip()!r}: it is not your turn then")
                continue
            if simultaneous and out.accepted:
                out.errors.append(f"line {number}: one sealed choice per move; already have "
                                  f"{out.accepted[0]!r}")
                continue
            try:
                action = game.read(player, line.strip())
                if simultaneous:  # others' sealed choices come later: check on a copy only
                    trial = self._game(state)
                    trial.apply(player, action)
                else:
                    if not copied:
                        game, copied = self._game(state), True
                    game.apply(player, action)
            except GameError as exc:
                out.errors.append(f"line {number}: {exc}")
                continue
            out.accepted.append(str(action))
            played = (number, line.strip(), action)
        return out

    @staticmethod
    def _after_turn(game: GameState, seat: str, number: int, line: str,
                    played: tuple[int, str, Any]) -> str:
        """A line after the move that ended this seat's part of the mail: not played, with
        whose move it is then and why (the others' sealed bets after a Mice Heist select),
        and that the seat is mailed when it is to move again (the lines after it are listed
        as not played)."""
        at, text, action = played
        waiting = [seat_name(p) for p in game.to_act()]
        whose = (f"it is {' and '.join(waiting)}'s move, not {seat}'s" if waiting
                 else "the game is over")
        why = game.not_due_note(seat_index(seat), action)
        return (f"line {number}: {NOT_PLAYED} ({line.strip()}): after line {at} ({text}) "
                f"{whose}" + (f" ({why})" if why else "")
                + (f"; you will be mailed when {seat} is to move: send it then"
                   if waiting else ""))

    def out_of_turn(self, state: State, seat: str, text: str) -> str:
        """The lines of a seat not due, named as not taken, with whose move it is and that
        the seat is mailed when it is to move (moves are not kept for later)."""
        game = self._game(state, fresh=False)
        player = seat_index(seat)
        lines = text.splitlines()
        aside = remark_lines(game, player, lines, self.command_words(state))
        sent = [f"line {n} ({line.strip()}{self._turn_refusal(game, player, line)})"
                for n, line in enumerate(lines, start=1)
                if line.strip() and n - 1 not in aside]
        if not sent or game.is_over() or state.get("ended"):
            return ""
        waiting = self.due(state)
        whose = (f"it is {' and '.join(waiting)}'s move, not {seat}'s" if waiting
                 else "no move is due now")
        return (f"Not taken: {', '.join(sent)}: {whose}. Moves are not kept for later: you "
                f"will be mailed when {seat} is to move; send your move then.")

    @staticmethod
    def _turn_refusal(game: GameState, player: int, line: str) -> str:
        """The rules' reason a move sent out of turn could not be made then either (the
        Mob Boss makes no offer), as ": <reason>"; "" when the game gives none."""
        try:
            why = game.turn_refusal(player, game.read(player, line.strip()))
        except GameError:
            return ""
        return f": {why}" if why else ""

    def free(self, state: State, seat: str, text: str) -> Free | None:
        """Apply at once each line that is a free command of ``seat``'s; a seat not due has
        every line read this way (so a refusal gives the game's reason).  None when the game
        has no free commands at all.  Read on the shared game, applied on a copy made at
        the first free command."""
        game = self._game(state, fresh=False)
        if type(game).free_commands is GameState.free_commands or game.is_over():
            return None
        player = seat_index(seat)
        if not 0 <= player < game.players:
            return None
        due = player in game.to_act()
        out = Free(state)
        rest: list[str] = []
        n_events = len(game.events)
        copied = False
        for number, line in enumerate(text.splitlines(), start=1):
            command = line.strip()
            rest.append("")
            if not command:
                continue
            try:
                action = game.read(player, command)
            except GameError as exc:
                if due:
                    rest[-1] = line  # an order with an error: the order check reports it
                else:
                    out.errors.append(f"line {number}: {exc}")
                continue
            if not game.is_free(player, action):  # a move: the order check, or out of turn
                rest[-1] = line
                continue
            if not copied:
                game, copied = self._game(state), True
            try:
                game.apply(player, action)
            except GameError as exc:
                out.errors.append(f"line {number}: {exc}")
                continue
            out.applied.append(str(action))
        out.rest = "\n".join(rest)
        if out.applied:
            new_events = game.events[n_events:]
            out.public = [e.text for e in new_events if e.visible_to is None]
            out.events = {seat_name(p): [e.text for e in new_events if e.visible(p)]
                          for p in range(game.players)}
            out.state = dict(state, actions=[[p, a] for p, a in game.actions],
                             free=state.get("free", 0) + len(out.applied))
            REPLAYS.keep(self._record(out.state), game)
        return out

    def free_commands(self, state: State, seat: str) -> list[str]:
        game = self._game(state, fresh=False)
        player = seat_index(seat)
        if game.is_over() or not 0 <= player < game.players:
            return []
        return game.free_commands(player)

    def _default(self, game: GameState, player: int, seed: int) -> Any:
        try:
            bot = bot_class(self.kind)()
            return bot.choose(game, player, random.Random(seed))
        except Exception:  # a bug in a bot must not stop the game: the first legal action
            log.exception("%s: the bot failed for P%d; it plays the first legal action",
                          self.kind, player + 1)
            return game.legal_actions(player)[0]

    def resolve(self, state: State, orders: dict[str, str], missing: list[str]) -> Resolution:
        game = self._game(state)
        n_events = len(game.events)
        notes: dict[str, list[str]] = {}
        acted: list[str] = []
        by_judge = dict(state.get("by_judge") or {})  # seat -> default moves the judge played
        for player in sorted(game.to_act()):
            seat = seat_name(player)
            text = orders.get(seat)
            lines = [ln for ln in (text or "").splitlines() if ln.strip()]
            if not lines:
                action = self._default(game, player, state["seed"] + len(game.actions))
                game.apply(player, action)
                by_judge[seat] = by_judge.get(seat, 0) + 1
                acted.append(f"{seat}: no command; the judge played a default move"
                             if seat in missing else
                             f"{seat}: no player; the judge played the game's bot move")
                continue
            for line in lines:
                if player not in game.to_act():
                    break
                try:
                    game.command(player, line)
                except GameError as exc:
                    notes.setdefault(seat, []).append(f"{line}: {exc}")
            acted.append(f"{seat}: moved")
        new_events = game.events[n_events:]
        public = [e.text for e in new_events if e.visible_to is None]
        shown = [e.text for e in new_events if e.visible_to is None
                 and not card_report.superseded(game, e)]
        report = "\n".join(shown) or "(nothing public happened)"
        if acted:
            report = "\n".join(acted) + "\n\n" + report
        over = game.is_over()
        attachments = []
        if over:
            report += "\n\n" + "\n".join(self.end_lines(state, game)
                                          + self._judges_winners(game, by_judge))
            attachments.append(("record.json", "application/json",
                                json.dumps(self.final_record(state, game), indent=1).encode()))
        private: dict[str, str] = {}
        for player in range(game.players):
            seat = seat_name(player)
            mine = [e.text for e in new_events if e.visible_to is not None and e.visible(player)]
            parts = []
            if mine:
                parts.append("\n".join(mine))
            if notes.get(seat):
                parts.append("Not applied:\n" + "\n".join(notes[seat]))
            if not over:  # at the end the report above says it all (the winner once)
                parts.append(game.render(player))
                if player in game.to_act():  # what the seat may send now, as PREVIEW says
                    parts.append(self._commands(game, player))
            private[seat] = "\n\n".join(parts)
        new = dict(state, actions=[[p, a] for p, a in game.actions])
        if by_judge:
            new["by_judge"] = by_judge
        REPLAYS.keep(self._record(new), game)  # asked for next: no fork, no replay
        data = {"public_events": public, "over": over,
                "scores": game.scores() if over else None}
        winners = game.winners() if over else []
        if over and by_judge:
            data["moves_by_judge"] = by_judge
        if len(winners) == 1:  # the game's result names it, as the index does
            data["winner"] = seat_name(winners[0])
        elif len(winners) > 1:  # a tie for first: a draw between them, or a shared win
            data["winners"] = [seat_name(w) for w in winners]
            if game.won_together():  # a cooperative game the players won as one side
                data["together"] = True
        elif over and game.lost():  # a cooperative game everyone lost to the game
            data["lost"] = game.lost()
        return Resolution(new, report, data, private=private, over=over,
                          attachments=attachments)

    @staticmethod
    def _judges_winners(game: GameState, by_judge: Mapping[str, int]) -> list[str]:
        """A winner whose moves the judge played (its player resigned, or sent none), said
        with the result: the rules count it as any seat, the players should know."""
        lines = []
        for winner in game.winners():
            seat = seat_name(winner)
            if by_judge.get(seat):
                commands = sum(1 for p, _ in game.actions if p == winner)
                lines.append(f"Note: {by_judge[seat]} of the {commands} moves of {seat}, a "
                             "winner, were played by the judge's bot (the seat had no "
                             "player, or no move came by the deadline).")
        return [""] + lines if lines else []

    def end_lines(self, state: State, game: GameState) -> list[str]:
        """The end of the final report: scores as the rulebook counts them, the winner,
        seed and salt, and how to check them against the commitment sent at the start."""
        record = self._record(dict(state, actions=game.actions))
        lines = card_report.end_report(game) + [""] + card_report.seed_lines(record)
        lines.append("The game's record is attached (record.json): anyone can check it with "
                     "'mobadj play verify record.json' (every shuffle and die follows from "
                     "the seed).")
        return lines

    def final_record(self, state: State, game: GameState) -> dict[str, Any]:
        """The finished game's record with seed and salt, for ``mobadj play verify``."""
        data = self._record(dict(state, actions=game.actions)).to_json(reveal_seed=True)
        data.update(over=True, scores=game.scores(),
                    winners=[p + 1 for p in game.winners()])
        return data

    def end_early(self, state: State, how: str) -> Ending:
        """A game ended by a draw or the GM's word (``how``: the sentence that says so):
        nothing more is dealt or rolled, so its seed and salt are revealed now, with the
        record so far (``ended`` in the state marks it: nobody is waiting any more)."""
        new = dict(state, ended=how)
        record = self._record(new)
        lines = card_report.seed_lines(record) + [
            "The game's record so far is attached (record.json): 'mobadj play verify "
            "record.json' checks the seed and salt against the commitment and that every move "
            "was legal."]
        data = record.to_json(reveal_seed=True)
        data.update(over=False, ended=how)
        return Ending(new, lines, [("record.json", "application/json",
                                    json.dumps(data, indent=1).encode())])

    def help(self, state: State, seat: str, topic: str | None) -> str:
        """HELP by mail: the game's commands, the rules in brief and what ``seat`` may send
        now; ``HELP <command>`` the forms of that command ``seat`` may send now, anything
        else the game's own ``help CARD`` of the terminal (only what the seat may see)."""
        game = self._game(state, fresh=False)
        player = seat_index(seat)
        if topic:
            word = topic.split()[0].lower()
            if word in self.command_words(state) - PRESS_WORDS:
                return self._command_help(state, game, player, word)
            return game.explain(player, topic)
        words = ", ".join(sorted(self.command_words(state) - PRESS_WORDS))
        paragraphs = [
            f"{self.title} by mail: after your SIGNON line, each line is one command of the "
            "game (upper or lower case).", card_report.summary(game),
            f"The game's commands start with: {words}. HELP <command> shows the ones you may "
            "send now; HELP <card> explains a card you can see."]
        return "\n\n".join([*(textwrap.fill(p, HELP_WIDTH) for p in paragraphs),
                             self._now(state, game, player)])

    def _command_help(self, state: State, game: GameState, player: int, word: str) -> str:
        """``HELP <command word>``: the commands of the game starting with it that the seat
        may send now."""
        words = {word}
        with contextlib.suppress(GameError):  # another word for a command: micro mob's end
            words.add(str(game.read(player, word)).split(maxsplit=1)[0].lower())
        legal = [a for a in self._sendable(state, game, player)
                 if a.split(maxsplit=1)[0].lower() in words]
        head = f"'{word}' is a command of {self.title}"
        if legal:
            shown = legal[:PREVIEW_LIMIT]
            more = f"\n  ... and {len(legal) - len(shown)} more" if len(legal) > len(shown) else ""
            return f"{head}; you may send now:\n" + "\n".join(f"  {a}" for a in shown) + more
        return f"{head}, not one you may send now.\n\n{self._now(state, game, player)}"

    def _sendable(self, state: State, game: GameState, player: int) -> list[str]:
        """Every command ``player`` may send now: moves when due, and out of turn."""
        due = seat_name(player) in self.due(state)
        moves = [str(a) for a in game.legal_actions(player)] if due else []
        return moves + (self.free_commands(state, seat_name(player)) if not state.get("ended")
                        else [])

    def _now(self, state: State, game: GameState, player: int) -> str:
        """What the seat may send now (what it may send out of turn ends every reply)."""
        if seat_name(player) in self.due(state):
            return self._commands(game, player, free=False)
        waiting = ", ".join(self.due(state))
        return "Nothing is due from you now" + (f" (waiting for {waiting})." if waiting else ".")

    def preview(self, state: State, seat: str, text: str) -> str:
        """The seat's legal commands now: the first :data:`PREVIEW_LIMIT`, then how many
        more there are of each command word."""
        return self._commands(self._game(state, fresh=False), seat_index(seat))

    @staticmethod
    def _commands(game: GameState, player: int, free: bool = True) -> str:
        """The list PREVIEW gives, also in the mail of each seat that is due."""
        legal = [str(a) for a in game.legal_actions(player)] if 0 <= player < game.players \
            else []
        lines = [f"Your legal commands now ({len(legal)}):"]
        lines += [f"  {a}" for a in legal[:PREVIEW_LIMIT]] or ["  (none)"]
        rest = legal[PREVIEW_LIMIT:]
        if rest:
            words = Counter(a.split(maxsplit=1)[0] for a in rest)
            lines.append(f"  ... and {len(rest)} more not listed: " + ", ".join(
                f"{n} more '{w} ...'" for w, n in words.items())
                + " (the same forms as above, with other cards or targets)")
        others = game.free_commands(player) if free and 0 <= player < game.players else []
        if others:
            lines.append("Out of turn, at any time now:")
            lines += [f"  {f}" for f in others]
        return "\n".join(lines)

    def status(self, state: State, seat: str | None) -> str:
        """The seat's view, and the seed commitment the end will be checked against (a
        game ended early: the table as it stood, and the seed and salt it revealed)."""
        player = seat_index(seat) if seat else None
        if state.get("ended"):
            return self._ended_status(state, player)
        game = self._game(state, fresh=False)
        if game.is_over():
            return self._over_status(state, game, player)
        view = game.render(player)
        if player is not None and player in game.to_act():
            view += "\n\n" + self._commands(game, player)
        record = self._record(state)
        if record.salt is None:
            line = (f"Seed commitment (the old scheme: sha256 of '<game>:<seed>', without a "
                    f"salt): {record.commitment}")
        else:
            line = (f"Seed commitment: {record.commitment} (HMAC-SHA256 of the secret seed, "
                    "keyed by a secret salt; both are revealed when the game ends)")
        return f"{view}\n\n{line}"

    def _ended_status(self, state: State, player: int | None) -> str:
        """STATUS of a game ended early: nobody is to act in the view any more."""
        game = stopped(self._game(state))  # a copy: its seats to act are taken away
        lines = [f"{state['ended']} Nobody is waiting; the table when it ended:", "",
                 game.render(player), ""]
        return "\n".join(lines + card_report.seed_lines(self._record(state)))

    def _over_status(self, state: State, game: GameState, player: int | None) -> str:
        """STATUS of a game its rules ended: the table, the end report as the final mail
        gave it (the winner once, with the tie-break that decided) and the seed and salt it
        revealed, so that a player who lost that mail can still check the game."""
        table = [line for line in game.render(player).splitlines()
                 if not card_report.superseded_line(game, line)]
        lines = ["\n".join(table).rstrip(), "", *card_report.end_report(game), ""]
        return "\n".join(lines + card_report.seed_lines(self._record(state)))

    def is_over(self, state: State) -> bool:
        return bool(state.get("ended")) or self._game(state, fresh=False).is_over()

    def reopen_refusal(self, state: State | None) -> str | None:
        """A finished card game revealed its seed and salt, so every card and roll to come
        is known: it cannot go on."""
        return ("the game is over and its seed and salt were revealed, so every card to come "
                "is known; it cannot be played on")

    def exported_state(self, state: State, over: bool) -> State:
        """Seed and salt stay out of the GM's export until the game is over: a GM who also
        plays must not learn every card to come (the store keeps them)."""
        if over or not isinstance(state, dict) or "seed" not in state:
            return state
        return {**state, **{k: WITHHELD for k in ("seed", "salt") if k in state}}

    def exported(self, data: dict[str, Any], state: State | None, over: bool
                 ) -> dict[str, Any]:
        """Until the game is over the GM's export keeps out, like the seed, what a seat sent
        that the others may not read: in every stored state a move the game keeps face down
        (an offer, a sealed bet: ``report.hidden_move``) is told as the table heard of it,
        and the orders of such a phase and the text of every order mail are withheld.  A GM
        who also plays would otherwise read the cards offered face down."""
        if over:
            return data

        def masked(stored: Any) -> Any:
            if not isinstance(stored, dict) or not isinstance(stored.get("actions"), list):
                return stored
            actions = []
            for player, text in stored["actions"]:
                told = card_report.hidden_move(self.kind, int(player), str(text))
                actions.append([player, text if told is None else f"{WITHHELD}: {told}"])
            return {**stored, "actions": actions}

        def result(r: dict[str, Any]) -> dict[str, Any]:
            after = masked(r.get("state_after"))
            new = dict(r, state_before=masked(r.get("state_before")), state_after=after)
            if after != r.get("state_after"):
                new["orders"] = dict.fromkeys(r.get("orders") or {}, WITHHELD)
            return new

        return dict(data, state=masked(data.get("state")),
                    results=[result(r) for r in data.get("results", [])],
                    commands=[dict(c, text=WITHHELD) if c.get("kind") == "orders" else c
                              for c in data.get("commands", [])])

    def phase_hours(self, state: State, options: dict[str, Any]) -> float:
        return option(options, "deadline_hours")
