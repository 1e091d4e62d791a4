"""Games that form by mail, and their observers.

A game created with the option ``open`` takes sign-ups: ``JOIN game [power ...]`` from any
address, the powers listed being the player's wishes, best first.  With ``approve`` the GM
accepts each one (``APPROVE email`` / ``REJECT email``).  When every seat is taken (seats
the GM gave with ADDPLAYER count too) the powers are handed out: in an order drawn with the
game's seeded random generator, each player gets the first of their wishes still free, and
whoever has none left gets a free power at random.  Each player is mailed their power and
password, and the game starts by itself.  With ``autostart no`` a full game deals nothing:
the GM and the joiners are told it waits for the GM's START, which hands the powers out the
same way.  A full game that cannot start (its options refused by the game) seats nobody: its
GM is told why, once.  A GM who starts a game before it is full seats those who joined the
same way; starting a game (``START``, or by itself) is here too.  Where seats are filled in
order (a card game's P1..Pn), a joiner whose wish a smaller table would not deal is told so
at once.

``WATCH game`` makes an address an observer: it gets the results (without anyone's private
part) and the press sent to everyone, nothing else.  ``UNWATCH game`` ends it.

A JOIN or WATCH counts once the one-time code the judge mails to the sender's address comes
back from there (``CONFIRM code``): the sender of a mail can be forged, and forged senders
must not take a game's seats nor subscribe someone else to its mail.
"""

from __future__ import annotations

import random
from typing import Any

from mobadj.board.model import fold
from mobadj.judge import reports
from mobadj.judge.base import JudgeBase, JudgeError
from mobadj.judge.commands import Command
from mobadj.judge.deadlines import DEFAULTS
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.mailparse import Incoming
from mobadj.judge.names import Names, written
from mobadj.judge.store import Game, Mail

YES = ("yes", "y", "true", "on", "1")


def flag(options: dict[str, Any], key: str, default: bool = False) -> bool:
    """A yes/no game option (``open=yes``, ``autostart no``, true from YAML)."""
    value = options.get(key)
    if value is None or value == "":
        return default
    return value is True or str(value).strip().lower() in YES


def assign_seats(free: list[str], joiners: list[tuple[str, list[str]]], seed: int
                 ) -> dict[str, str]:
    """email -> seat: each joiner in a seeded random order takes their first wish still
    free; those left without one get the remaining seats at random."""
    rng = random.Random(f"seats:{seed}")
    order = list(joiners)
    rng.shuffle(order)
    free = list(free)
    given: dict[str, str] = {}
    for email, wishes in order:
        seat = next((w for w in wishes if w in free), None)
        if seat is not None:
            given[email] = seat
            free.remove(seat)
    for email, _ in order:
        if email not in given and free:
            given[email] = free.pop(rng.randrange(len(free)))
    return given


class Forming:
    """JOIN, UNJOIN, APPROVE, REJECT, WATCH, UNWATCH, seating those who joined, and START."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def _forming_game(self, inc: Incoming, name: str) -> Game:
        """The game a JOIN, UNJOIN, WATCH or UNWATCH names (a private one only for those in
        it: :meth:`~mobadj.judge.seats.Seats.visible_game`)."""
        game = self.desk.seats.visible_game(inc, name)
        if game is None:
            raise JudgeError(f"no game {name!r}; send LIST for the games on this judge")
        return game

    def join(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]) -> str:
        """JOIN counts once the code mailed to the sender comes back (CONFIRM): forged
        senders must not take a game's seats.  An address already on the list changes its
        wishes at once."""
        game = self._forming_game(inc, cmd.args["game"])
        self._check_join(game, inc.sender)
        host = host_for(game.kind)
        names = Names(host, game.options)
        try:
            wishes = names.seats(cmd.args["prefs"])
        except HostError as exc:
            raise JudgeError(f"JOIN: {exc}\n{self._join_instead(game, names, cmd)}") from None
        wishes = list(dict.fromkeys(wishes))
        if self.desk.store.join(game.name, inc.sender) is not None:
            return self._join_confirmed(game, inc.sender, wishes, now, out)
        wish_text = ", ".join(written(host, game.options, wishes)) or "any power"
        return self.desk.accounts.ask_code(inc, game, "join", wishes,
                                           f"to join {game.name} (wishes: {wish_text})", now, out)

    @staticmethod
    def _join_instead(game: Game, names: Names, cmd: Command) -> str:
        """After a JOIN with a word that is no power: that nothing was asked for, and the
        line to send (a newcomer must not wait for a code that never comes)."""
        meant = [names.label(s) for s in names.meant(cmd.args["prefs"])]
        if meant:
            return (f"Nothing was asked for, and no code was mailed. To join {game.name} "
                    f"wishing for {', '.join(meant)}, send: JOIN {game.name} {' '.join(meant)}")
        return (f"Nothing was asked for, and no code was mailed. To join {game.name}, send "
                f"JOIN {game.name} followed by the powers you wish for, best first, or "
                f"JOIN {game.name} alone for any power.")

    def _check_join(self, game: Game, email: str) -> None:
        """Why ``email`` may not join ``game`` now, raised (at JOIN and at its CONFIRM)."""
        if game.status != "forming" or not flag(game.options, "open"):
            raise JudgeError(f"JOIN: {game.name} does not take sign-ups"
                             + (f" (it is {game.status})." if game.status != "forming"
                                else "; its GM adds the players."))
        held = [p.power for p in self.desk.store.players(game.name) if p.email == email]
        if held:
            raise JudgeError(f"JOIN: you already play {held[0]} in {game.name}.")
        if self.desk.store.join(game.name, email) is None and not self.seat_counts(game)[0]:
            raise JudgeError(f"JOIN: every seat of {game.name} is taken.")

    def _join_confirmed(self, game: Game, email: str, wishes: list[str], now: float,
                        out: list[Mail]) -> str:
        """``email`` (a proven address) on the list of ``game`` with these wishes."""
        earlier = self.desk.store.join(game.name, email)
        waiting = flag(game.options, "approve") and (earlier is None
                                                     or earlier["status"] == "waiting")
        self.desk.store.set_join(game.name, email, wishes, "waiting" if waiting else "accepted",
                                 now)
        self.desk.store.log(game.name, "joined", {"email": email, "wishes": wishes}, now)
        wish_text = ", ".join(written(host_for(game.kind), game.options, wishes)) or "any power"
        if earlier is not None:
            reply = f"JOIN: your wishes for {game.name} are now: {wish_text}."
        elif waiting:
            out.append(Mail(game.gm_email, f"{game.name}: {email} asks to join", (
                f"{email} asks to join {game.name} (wishes: {wish_text}).\n\n"
                f"To accept or refuse, send:\n  GM {game.name} <gm-password>\n"
                f"  APPROVE {email}\n(or REJECT {email}), or run mobadj game approve "
                f"{game.name} {email}.\n\n{self.desk._sig()}"), game=game.name))
            reply = (f"JOIN: your request to join {game.name} went to its GM (wishes: "
                     f"{wish_text}); you will hear when it is accepted.")
        else:
            reply = (f"JOIN: you are on the list for {game.name} (wishes: {wish_text}). "
                     f"{self._when_dealt(game)} the powers are handed out and you get yours, "
                     f"with your password, by mail.")
        note = self._wish_note(game, wishes)
        if note:
            reply += "\n" + note
        if not waiting:
            reply += "\n" + self.seats_line(game)
            full = self.fill_if_full(game, now, out, joiner=email)
            if full:
                reply += "\n" + full
        return reply

    @staticmethod
    def _when_dealt(game: Game) -> str:
        """When a joiner gets their power: once the game is full, or (``autostart no``)
        at the GM's START."""
        if flag(game.options, "autostart", default=True):
            return "When every seat is taken"
        return "When the GM starts the game"

    def _wish_note(self, game: Game, wishes: list[str]) -> str:
        """In a game whose seats are filled in order, the wishes a start with fewer players
        would not deal: the joiner hears now that they may get another seat, not only
        when the game starts ('' when every wish is a seat every start deals)."""
        host = host_for(game.kind)
        if not host.fills_in_order:
            return ""
        dealt = set(host.seats_always_dealt(game.options))
        passed = [w for w in wishes if w not in dealt]
        if not passed:
            return ""
        asked = passed[0] if len(passed) == 1 else (
            ", ".join(passed[:-1]) + " and " + passed[-1])
        first = host.seats(game.options)[0]
        return (f"You asked for {asked}: the seats of {game.name} are given in order when the "
                f"game starts, from {first} on with no gap, one for each player, so with fewer "
                f"players you may get another seat. The mail that starts the game names "
                f"yours.")

    def unjoin(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]) -> str:
        game = self._forming_game(inc, cmd.args["value"])
        if game.status != "forming" or self.desk.store.join(game.name, inc.sender) is None:
            raise JudgeError(f"UNJOIN: {inc.sender} is not on the list of {game.name}.")
        self.desk.store.delete_join(game.name, inc.sender)
        self.desk.store.log(game.name, "left the list", {"email": inc.sender}, now)
        self._tell_sender(inc, game, f"{inc.sender} is off the list of {game.name}",
                          f"JOIN {game.name}", out)
        return f"UNJOIN: you are off the list of {game.name}."

    def _tell_sender(self, inc: Incoming, game: Game, what: str, undo: str,
                     out: list[Mail]) -> None:
        """UNJOIN and UNWATCH need no code, but when the reply goes elsewhere (Reply-To) the
        address itself is told, so that a forged sender does not go unnoticed."""
        if inc.reply_to == inc.sender:
            return
        out.append(Mail(inc.sender, f"{game.name}: {what}", (
            f"A mail in your name asked that {what}, and so it is. If you did not ask for "
            f"this, send {undo} to undo it.\n\n{self.desk._sig()}"), game=game.name))

    def seats_line(self, game: Game) -> str:
        free, taken = self.seat_counts(game)
        return f"{game.name}: {taken} of {taken + free} seats taken, {free} free."

    def seat_counts(self, game: Game) -> tuple[int, int]:
        """(free, taken) seats of a forming game: ADDPLAYER'd players and accepted JOINs."""
        seats = host_for(game.kind).seats(game.options)
        taken = len(self.desk.store.players(game.name)) + sum(
            1 for j in self.desk.store.joins(game.name) if j["status"] == "accepted")
        return max(0, len(seats) - taken), taken

    def fill_if_full(self, game: Game, now: float, out: list[Mail],
                     joiner: str | None = None) -> str:
        """When every seat is taken: hand out the powers and start (or, with ``autostart
        no``, deal nothing and tell the GM and those who joined that the game waits for
        the GM's START).  ``joiner``: the one whose mail filled it, who hears it in the
        reply returned."""
        game = self.desk.store.game(game.name) or game
        if game.status != "forming":
            return ""
        free, _ = self.seat_counts(game)
        if free or not self.desk.store.joins(game.name):
            return ""
        if not flag(game.options, "autostart", default=True):
            return self._wait_for_start(game, now, out, joiner)
        refusal = self.start_refusal(game)
        if refusal is not None:
            return self._cannot_start(game, refusal, now, out)
        self._seat_joiners(game, now, out)
        started = self.start(self.desk.store.game(game.name) or game, now, out)
        players = self.desk.store.players(game.name)
        named = written(host_for(game.kind), game.options, [p.power for p in players])
        seated = "\n".join(f"  {name:<12} {p.email}" for name, p in zip(named, players,
                                                                        strict=True))
        self.desk.notices.tell_gm(game, "every seat is taken: the game has started", (
            f"Every seat of {game.name} is taken, the powers are handed out and the "
            f"game has started by itself.\n{started}\n\n{seated}"), out)
        return started

    def _wait_for_start(self, game: Game, now: float, out: list[Mail],
                        joiner: str | None) -> str:
        """A full game with ``autostart no``: nobody is seated or mailed a password before
        the GM's START (which hands the seats out as a start by itself would have).  The
        GM and the joiners are told once for the same list of joiners (a joiner who only
        changes wishes finds it full again and is not mailed again)."""
        joined = sorted(j["email"] for j in self.desk.store.joins(game.name)
                        if j["status"] == "accepted")
        told = {"joined": joined}
        line = f"Every seat of {game.name} is taken; waiting for the GM's START."
        yours = (f"{line} Nothing is dealt before: the seats are handed out then, and you "
                 f"get yours, with your password, by mail.")
        reply = yours if joiner else line
        if told in self.desk.store.recent_events(game.name, "full", 0):
            return reply
        self.desk.store.log(game.name, "full", told, now)
        self.desk.notices.tell_gm(game, "every seat is taken", (
            f"Every seat of {game.name} is taken. Nobody is seated or mailed a password "
            f"before you start the game: START (after GM {game.name} <gm-password>) or "
            f"mobadj game start {game.name}. The seats are handed out then.\n\n"
            f"Joined: {', '.join(joined)}"), out)
        for email in joined:
            if email != joiner:
                out.append(Mail(email, f"{game.name}: every seat is taken",
                                f"{yours}\n\n{self.desk._sig()}", game=game.name))
        return reply

    def start_refusal(self, game: Game) -> str | None:
        """Why ``game`` cannot start with the seats it would have now (its players, and the
        seats planned for those who joined), or None.  Asked before anyone is seated or
        mailed, so that a start the game refuses changes nothing."""
        seats = [p.power for p in self.desk.store.players(game.name)]
        try:
            host_for(game.kind).new_state(seats + list(self._seat_plan(game)[1].values()),
                                          game.seed, game.options)
        except HostError as exc:
            return str(exc)
        return None

    def _cannot_start(self, game: Game, reason: str, now: float, out: list[Mail]) -> str:
        """A full game that cannot start by itself stays as it is; its GM is told why once
        (a later JOIN or APPROVE that finds it full again does not mail the GM again for
        the same reason).  The line for the reply of the mail that found it full."""
        told = {"reason": reason}
        if told not in self.desk.store.recent_events(game.name, "cannot start", 0):
            self.desk.store.log(game.name, "cannot start", told, now)
            self.desk.notices.tell_gm(game, "every seat is taken, but the game cannot start", (
                f"Every seat of {game.name} is taken, but the game cannot start by itself: "
                f"{reason}\n\nNothing was changed: nobody was seated or mailed a password, "
                f"and those who joined are still on its list. START (after GM {game.name} "
                f"<gm-password>) or mobadj game start {game.name} starts it once it can, and "
                f"says why while it cannot. You are not told again for the same reason."), out)
        return (f"Every seat of {game.name} is taken, but the game cannot start by itself "
                f"({reason}); its GM has been told.")

    def _seat_plan(self, game: Game) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The accepted joiners and the seat each is to get (email -> seat).  A game whose
        seats are filled in order (a card game: P1..Pn, no gap) offers them the first free
        seats only; their wishes choose among those."""
        joins = [j for j in self.desk.store.joins(game.name) if j["status"] == "accepted"]
        host = host_for(game.kind)
        held = {p.power for p in self.desk.store.players(game.name)}
        free = [s for s in host.seats(game.options) if s not in held]
        if host.fills_in_order:
            free = free[:len(joins)]
        return joins, assign_seats(free, [(j["email"], j["wishes"]) for j in joins], game.seed)

    def _seat_joiners(self, game: Game, now: float, out: list[Mail]) -> None:
        """Give the accepted joiners their powers (and passwords, by mail)."""
        joins, given = self._seat_plan(game)
        if not joins:
            return
        for j in joins:
            seat = given.get(j["email"])
            if seat is not None:
                self.desk.seats.add_player(game, j["email"], seat, None, now, out)
            else:  # the GM gave the last seats away meanwhile
                out.append(Mail(j["email"], f"{game.name}: no seat left", (
                    f"Every seat of {game.name} was taken before a power could be given to "
                    f"you; sorry.\n\n{self.desk._sig()}"), game=game.name))
            self.desk.store.delete_join(game.name, j["email"])
        self.desk.store.log(game.name, "seats given", {"seats": given}, now)

    def approve(self, game: Game, email: str, accept: bool, now: float, out: list[Mail]
                 ) -> str:
        email = email.lower()
        entry = self.desk.store.join(game.name, email)
        if game.status != "forming" or entry is None:
            raise JudgeError(f"{email} has not asked to join {game.name}")
        if not accept:
            self.desk.store.delete_join(game.name, email)
            out.append(Mail(email, f"{game.name}: not this time", (
                f"The GM of {game.name} did not accept your request to join.\n\n"
                f"{self.desk._sig()}"), game=game.name))
            return (f"{email} refused: told that the GM did not accept the request to join "
                    f"{game.name}. {self.seats_line(game)}")
        if entry["status"] == "accepted":
            return f"{email} was already accepted."
        if not self.seat_counts(game)[0]:
            raise JudgeError(f"every seat of {game.name} is taken: REJECT {email}, or REPLACE "
                             f"a player after the start")
        self.desk.store.set_join(game.name, email, entry["wishes"], "accepted", entry["at"])
        out.append(Mail(email, f"{game.name}: you are in", (
            f"The GM of {game.name} accepted you. {self._when_dealt(game)} the powers are "
            f"handed out and you get yours, with your password, by mail.\n"
            f"{self.seats_line(game)}\n\n{self.desk._sig()}"), game=game.name))
        started = self.fill_if_full(game, now, out)
        return f"{email} accepted. {self.seats_line(game)}" + (f"\n{started}" if started else "")

    def takes_players(self, game: Game) -> bool:
        """Whether LIST shows ``game`` among the games taking players: an open game still
        forming, not a private one (those are by invitation)."""
        return (game.status == "forming" and flag(game.options, "open")
                and self.desk.store.web_key(game.name) is None)

    def forming_list(self, only: list[str] | None = None) -> list[str]:
        """What LIST shows of the games that take sign-ups (of those named ``only``): free
        seats and how to join."""
        lines = []
        for game in self.desk.store.games():
            if (only is not None and game.name not in only) or not self.takes_players(game):
                continue
            held = {p.power for p in self.desk.store.players(game.name)}
            seats = host_for(game.kind).seats(game.options)
            free, taken = self.seat_counts(game)
            lines.append(f"{game.name}: {host_for(game.kind).title}, {free} of {len(seats)} "
                         f"seats free ({taken} taken"
                         + ("; the GM approves each player" if flag(game.options, "approve")
                            else "") + ")")
            lines.append("  powers not yet given: "
                         + ", ".join(s for s in seats if s not in held))
            rules = self.desk.rules_line(game)
            if rules:
                lines.append(f"  {rules}")
            lines.append(f"  to join: JOIN {game.name} [the powers you would like, best first]")
        return lines

    def watch(self, inc: Incoming, cmd: Command, now: float, watch: bool,
              out: list[Mail]) -> str:
        """WATCH takes effect once the code mailed to the sender comes back (CONFIRM): a
        forged From: must not subscribe someone else to a game's mail."""
        game = self._forming_game(inc, cmd.args["value"])
        email = inc.sender
        if not watch:
            if not self.desk.store.delete_watcher(game.name, email):
                raise JudgeError(f"UNWATCH: {email} does not watch {game.name}.")
            self._tell_sender(inc, game, f"{email} no longer receives the results of "
                              f"{game.name}", f"WATCH {game.name}", out)
            return f"UNWATCH: you no longer receive the results of {game.name}."
        if email in self.desk.store.watchers(game.name):
            return f"WATCH: you already receive the results of {game.name}."
        refusal = self._watch_refusal(game, email)
        if refusal:
            raise JudgeError(f"WATCH: {refusal}")
        return self.desk.accounts.ask_code(inc, game, "watch", [], "to receive the results and the "
                                           f"public press of {game.name}", now, out)

    def confirm_request(self, inc: Incoming, digest: str, since: float, now: float,
                        out: list[Mail]) -> str | None:
        """Carry out the JOIN or WATCH that the code ``digest`` confirms (the checks of the
        command are made again); None when no request waits for it from this address."""
        found = self.desk.store.confirm_request(inc.sender, digest, since)
        game = None if found is None else self.desk.store.game(found[0])
        if found is None or game is None:
            return None
        _, kind, args = found
        if kind == "takeover":
            return self.desk.seats.takeover_confirmed(game, inc.sender, args[0], now, out)
        if kind == "join":
            self._check_join(game, inc.sender)
            return self._join_confirmed(game, inc.sender, args, now, out)
        refusal = self._watch_refusal(game, inc.sender)
        if refusal:
            raise JudgeError(f"CONFIRM: {refusal}")
        self.desk.store.add_watcher(game.name, inc.sender, now)
        return (f"Confirmed: you now receive the results and the public press of {game.name}. "
                f"UNWATCH {game.name} to stop.")

    def _watch_refusal(self, game: Game, email: str) -> str | None:
        """Why ``email`` may not watch ``game`` (asked at WATCH and again at its CONFIRM)."""
        if any(p.email == email for p in self.desk.store.players(game.name)):
            return f"you play in {game.name}; you get its results already."
        if not flag(game.options, "watch", default=True):
            return f"{game.name} has no observers."
        if self.desk.store.web_key(game.name) is not None:
            return f"{game.name} is private: it has no observers."
        return None

    def start(self, game: Game, now: float, out: list[Mail]) -> str:
        if game.status != "forming":
            raise JudgeError(f"game {game.name} is already {game.status}")
        host = host_for(game.kind)
        joins = self.desk.store.joins(game.name)
        if not self.desk.store.players(game.name) and not any(j["status"] == "accepted"
                                                              for j in joins):
            raise JudgeError("add players first")
        refusal = self.start_refusal(game)  # a refused START changes nothing
        if refusal is not None:
            raise HostError(refusal)
        self._seat_joiners(game, now, out)
        for left in self.desk.store.joins(game.name):  # still waiting for the GM's approval
            self.desk.store.delete_join(game.name, left["email"])
            out.append(Mail(left["email"], f"{game.name}: the game has started", (
                f"{game.name} has started without you: the GM did not accept your request "
                f"in time.\n\n{self.desk._sig()}"), game=game.name))
        players = self.desk.store.players(game.name)
        state = host.new_state([p.power for p in players], game.seed, game.options)
        deadline = self.desk._deadline(game, state, now)
        self.desk.store.update_game(game.name, status="active", state=state,
                                    phase=host.phase(state), deadline=deadline, reminded=0,
                                    extended=0)
        self.desk.store.log(game.name, "started", {"phase": host.phase(state)}, now)
        game = self.desk.store.game(game.name) or game
        rules = self.desk.rules_line(game)
        host.picture = str(game.options.get("picture", DEFAULTS["picture"])).lower()
        pictures = host.pictures(state)  # the board, as the results will draw it
        names = Names(host, game.options)
        for p in players:
            view = host.status(state, p.power)
            first = host.first_orders(state, p.power)
            label = names.label(p.power)
            you = label if fold(label) == fold(p.power) else f"{label} ({p.power})"
            out.append(Mail(p.email, f"{game.name}: the game has started", (
                f"{game.name} has started. You play {you}.\n\n"
                + (f"{rules}\n" if rules else "") +
                f"Phase: {host.phase_label(state)}\n"
                f"Deadline: {reports.stamp(deadline)}\n\n{view}\n\n"
                + (f"{first}\n\n" if first else "") + self.desk._sig()),
                list(pictures), game=game.name))
        label = host.phase_label(state)
        return f"Game started: {label}, deadline {reports.stamp(deadline)}"
