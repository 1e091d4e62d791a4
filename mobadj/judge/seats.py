"""Players who come and go: a seat handed to a new player (the GM's REPLACE, a player's
TAKEOVER), a player who RESIGNs, seats the GM OFFERs, and the GM's own orders for a power
(``ORDERS FOR power`` / ``BECOME power``).

Each player's hold on a seat is a *tenure* (store table ``tenures``): when it began and
ended, how, and its record (missed deadlines, absence taken).  A new player starts with a
clean record (no missed deadlines, the whole absence quota) and a first mail with everything
a player needs: the phase and deadline, the position and its map, the orders standing for
the phase, the power's history in brief, and how to send orders.  The other players and the
observers are told that the seat changed hands (never an address); the GM too, when the GM
did not do it.

TAKEOVER is open to any address for a seat whose player left, a power in civil disorder, or
a seat the GM offers (a seat that never had a player only then), once the address has proved
itself with a code (as JOIN does); with the game option ``takeover approve`` the GM approves
each one, ``takeover no`` turns it off.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from mobadj.board.model import fold
from mobadj.judge import reports
from mobadj.judge.base import JudgeBase, JudgeError
from mobadj.judge.commands import Command
from mobadj.judge.endings import survivors
from mobadj.judge.hosts import HostError, host_for, merged_orders
from mobadj.judge.mailparse import Incoming, is_address
from mobadj.judge.names import written
from mobadj.judge.overview import centre_table, tenure_line
from mobadj.judge.store import Game, Mail, hash_password

TAKEOVER_CHOICES = ("yes", "approve", "no")


def takeover_mode(options: dict[str, Any]) -> str:
    value = str(options.get("takeover", "yes")).strip().lower()
    return {"true": "yes", "on": "yes", "false": "no", "off": "no"}.get(value, value)


class Seats:
    """ADDPLAYER, REPLACE, RESIGN, TAKEOVER, OFFER, ORDERS FOR."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    # -- a seat changes hands -----------------------------------------------------------------
    def change_player(self, game: Game, power: str, email: str, now: float, out: list[Mail],
                      how: str, by: str) -> str:
        """Give ``power`` to ``email`` with a new password: the old tenure ends with its
        record, a new one starts clean.  ``how``: replaced | took over; ``by``: who asked
        (the GM, or the address that took over)."""
        power, email = _address_last(power, email)
        host = host_for(game.kind)
        seat = host.seat(game.options, power)
        name = written(host, game.options, [seat])[0]  # as the game names it
        email = email.strip().lower()
        if not is_address(email):
            raise JudgeError(f"{email!r} is not an email address")
        old = self.desk.store.player(game.name, seat)
        if old is not None and old.email == email:
            if how == "replaced" and old.status != "out":  # the GM: a forgotten password
                return self.new_password(game, seat, email, now, out)
            raise JudgeError(f"{email} already plays {name} in {game.name}")
        phase = host.phase(game.state) if game.state is not None else ""
        password = secrets.token_urlsafe(8)
        pw_hash = hash_password(password, self.desk.kdf_n)
        if old is None:
            self.desk.store.add_player(game.name, seat, email, pw_hash, now, phase, how)
        else:
            why = "taken over" if how == "took over" else "replaced"
            self.desk.store.end_tenure(game.name, seat, now, phase, why, old.nmr_total,
                                       old.absence_used)
            self.desk.store.update_player(game.name, seat, email=email, pw_hash=pw_hash,
                                          status="active", nmr_total=0, nmr_streak=0,
                                          absence_used=0, ready=0, offered=0)
            self.desk.store.start_tenure(game.name, seat, email, now, phase, how)
            self.desk.store.delete_vote(game.name, seat, "draw")  # votes are a player's own
            self.desk.store.delete_vote(game.name, seat, "concede")
            farewell = (f"{name} in {game.name} was {host.unplayed_in(game.options)} and has "
                        f"been taken over "
                        f"by another player." if why == "taken over" else
                        f"The GM has given {name} in {game.name} to another player.")
            out.append(Mail(old.email, f"{game.name}: you have been replaced",
                            f"{farewell} Thank you for playing.\n\n{self.desk._sig()}",
                            game=game.name))
        self.desk.store.log(game.name, "replaced", {"power": seat, "how": how}, now)
        out.append(self._welcome(game, seat, email, password, how))
        if game.status != "forming":
            self.desk.notices.tell_table(game, f"{game.name}: {name} has a new player", (
                f"{name} in {game.name} has a new player from {reports.stamp(now)} on"
                + (" (taken over)." if how == "took over" else " (given by the GM).")), out,
                skip=seat)
        if by != "the GM":
            self.desk.notices.tell_gm(game, f"{name} taken over by {email}", (
                f"{email} took over {name} in {game.name}"
                + (f" from {old.email}" if old is not None else " (a seat without player)")
                + f". The password went to {email}."), out)
        return f"{name} is now played by {email}."

    def new_password(self, game: Game, seat: str, email: str, now: float, out: list[Mail]
                     ) -> str:
        """The GM's REPLACE of a seat to the address that plays it: a player who forgot the
        password gets a new one, mailed to the seat's registered address only (the GM
        never sees it); the seat, its record and its orders stay as they are."""
        name = written(host_for(game.kind), game.options, [seat])[0]
        password = secrets.token_urlsafe(8)
        self.desk.store.update_player(game.name, seat,
                                      pw_hash=hash_password(password, self.desk.kdf_n))
        self.desk.store.log(game.name, "new password", {"power": seat}, now)
        out.append(Mail(email, f"{game.name}: a new password for {name}", (
            f"The GM has given you a new password for {name} in {game.name}; the old one no "
            f"longer works.\n\nYour password: {password}\n\nStart each mail to the judge "
            f"with:\n  SIGNON {game.name} {name} {password}\nTo choose your own, send "
            f"SET PASSWORD <new password> under it. Your orders and your place in the game "
            f"are as they were.\n\n{self.desk._sig()}"), game=game.name))
        return (f"{email} already plays {name} in {game.name}: a new password went to that "
                f"address (the old one no longer works).")

    def _welcome(self, game: Game, seat: str, email: str, password: str, how: str) -> Mail:
        """A new player's first mail: how to sign on and send orders, the phase, deadline,
        position and map, the orders standing, the power's history in brief."""
        host = host_for(game.kind)
        name = written(host, game.options, [seat])[0]  # as the game names it
        title = host.title
        head = (f"You take over {name} in {game.name} ({title})." if how == "replaced" else
                f"You now play {name} in {game.name} ({title}).")
        lines = [head, "", f"Your password: {password}", "",
                 "Start each mail to the judge with:",
                 f"  SIGNON {game.name} {name} {password}",
                 "then your orders, one per line, written as in the results (they replace "
                 "any you sent before for the phase), or commands. LIST shows the game now, "
                 "HISTORY the last results, SUMMARY the whole game, HELP every command."]
        rules = self.desk.rules_line(game)
        if rules:
            lines += ["", rules]
        attachments: list[tuple[str, str, bytes]] = []
        state = game.state
        if state is not None and game.status in ("active", "paused"):
            phase = host.phase(state)
            due = seat in host.due(state)
            lines += ["", f"Phase: {host.phase_label(state)}",
                      f"Deadline: {reports.stamp(game.deadline)}"
                      + (" (the game is paused)" if game.status == "paused" else "")]
            standing = self.desk.store.orders(game.name, phase).get(seat)
            if not due:
                lines.append(f"No orders are needed from {name} in this phase.")
            elif standing:
                lines += [f"Orders standing for {name} (given before you came; send yours to "
                          "replace them):"] + [f"  {o}" for o in standing.splitlines()]
            else:
                lines.append(f"No orders are in for {name} yet: send yours before the "
                             f"deadline.")
            view = host.status(state, seat)
            if view:
                lines += ["", "The position:", view]
            try:
                host.picture = str(game.options.get("picture", "both")).lower()
                attachments = host.picture_of(state, f"{title}: {host.phase_label(state)}")
            except HostError:
                attachments = []
            if attachments:
                lines += ["", "The map of the position is attached."]
        history = self._seat_history(game, seat)
        if history:
            lines += ["", f"{name} so far:"] + [f"  {h}" for h in history]
        return Mail(email, f"{game.name}: you now play {name}",
                    "\n".join(lines) + f"\n\n{self.desk._sig()}", attachments, game=game.name)

    def _seat_history(self, game: Game, seat: str) -> list[str]:
        """The seat's earlier players (no addresses) and its supply centres over time."""
        host = host_for(game.kind)
        lines = [tenure_line(t, gm_view=False, host=host)
                 for t in self.desk.store.tenures(game.name)
                 if t["power"] == seat and t["end"] is not None]
        table = centre_table(self.desk.store, game, only=seat)
        if table:
            lines.append("supply centres: " + table[0])
        return lines

    # -- RESIGN --------------------------------------------------------------------------------
    def resign(self, game: Game, power: str, now: float, out: list[Mail]) -> str:
        """The player leaves: the seat has no player (civil disorder: units hold) until
        someone takes it over; the GM and the table are told."""
        player = self.desk.store.player(game.name, power)
        if player is None:
            raise JudgeError(f"RESIGN: {power} has no player.")
        if game.status == "ended":
            raise JudgeError(f"RESIGN: {game.name} is over.")
        host = host_for(game.kind)
        name = written(host, game.options, [power])[0]  # as the game names it
        phase = host.phase(game.state) if game.state is not None else ""
        self.desk.store.end_tenure(game.name, power, now, phase, "resigned", player.nmr_total,
                                   player.absence_used)
        self.desk.store.remove_player(game.name, power)
        if phase:
            self.desk.store.delete_orders(game.name, phase, power)
        self.desk.store.delete_vote(game.name, power, "draw")
        self.desk.store.delete_vote(game.name, power, "concede")
        self.desk.store.log(game.name, "resigned", {"power": power}, now)
        if game.status == "forming":
            self.desk.notices.tell_gm(game, f"{name} resigned", (
                f"The player of {name} ({player.email}) left {game.name} before the start; "
                f"the seat is free again."), out)
            return f"You have left {game.name}; {name} is free again."
        open_to = takeover_mode(game.options) != "no"
        self.desk.notices.tell_table(game, f"{game.name}: the player of {name} has resigned", (
            f"The player of {name} has resigned from {game.name}. {name} is "
            f"{host.unplayed_in(game.options)} ({host.without_player_in(game.options)}) "
            f"until a new player takes "
            f"it over" + (f": TAKEOVER {game.name} {name}." if open_to else ".")), out,
            skip=power)
        self.desk.notices.tell_gm(game, f"{name} resigned", (
            f"{player.email}, the player of {name} in {game.name}, has resigned (missed "
            f"deadlines: {player.nmr_total}). {name} is {host.unplayed_in(game.options)}"
            + (f"; anyone may ask to take it over (TAKEOVER {game.name} {name})"
               if open_to else "")
            + f", or give it to someone: REPLACE {name} <email>."), out)
        return (f"You have resigned from {game.name}: {name} is {host.unplayed_in(game.options)}"
                " until a new player takes it over. Your password no longer works. Thank you "
                "for playing.")

    # -- TAKEOVER ------------------------------------------------------------------------------
    def open_seats(self, game: Game) -> list[str]:
        """The seats anyone may ask to take over now (powers still in the game only): those
        whose player left, those in civil disorder, and those the GM offers.  A seat that
        never had a player is open only when the GM offers it: the GM may have meant the
        game to be played without it."""
        if game.status not in ("active", "paused") or takeover_mode(game.options) == "no":
            return []
        players = {p.power: p for p in self.desk.store.players(game.name)}
        held_before = {t["power"] for t in self.desk.store.tenures(game.name)}
        offered: dict[str, bool] = {}
        for event in self.desk.store.recent_events(game.name, "offered", float("-inf")):
            offered[event["power"]] = bool(event["open"])
        alive = survivors(game, host_for(game.kind).seats(game.options))
        return [s for s in alive
                if (s not in players and (s in held_before or offered.get(s)))
                or (s in players and (players[s].status == "disorder" or players[s].offered))]

    def _takeover_refusal(self, game: Game, seat: str, email: str) -> str | None:
        if takeover_mode(game.options) == "no":
            return f"{game.name} takes no TAKEOVER; write to its GM."
        if game.status not in ("active", "paused"):
            return (f"{game.name} is {game.status}" + (": JOIN it instead." if game.status ==
                                                        "forming" else "."))
        held = [p.power for p in self.desk.store.players(game.name) if p.email == email]
        if held:
            return (f"you already play {written(host_for(game.kind), game.options, held)[0]} "
                    f"in {game.name}.")
        if seat not in self.open_seats(game):
            host = host_for(game.kind)
            seats = written(host, game.options, self.open_seats(game))  # as the game names them
            return (f"{written(host, game.options, [seat])[0]} is not open for takeover (it "
                    f"has an active player, or is out of the game); "
                    + (f"open now: {', '.join(seats)}." if seats else
                       "no seat of the game is open now."))
        return None

    def takeover(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]) -> str:
        """TAKEOVER game power: counts once the code mailed to the sender comes back."""
        words = cmd.args["words"]
        if len(words) < 2:
            raise JudgeError("TAKEOVER: name the game and the power: TAKEOVER <game> <power>")
        game = self.visible_game(inc, words[0])
        if game is None:
            raise JudgeError(f"TAKEOVER: no game {words[0]!r}; send LIST for the games on "
                             f"this judge")
        try:
            host = host_for(game.kind)
            seat = host.seat(game.options, " ".join(words[1:]))
        except HostError as exc:
            raise JudgeError(f"TAKEOVER: {exc}") from None
        refusal = self._takeover_refusal(game, seat, inc.sender)
        if refusal:
            raise JudgeError(f"TAKEOVER: {refusal}")
        return self.desk.accounts.ask_code(inc, game, "takeover", [seat], f"to take over "
                                           f"{written(host, game.options, [seat])[0]} in "
                                           f"{game.name}", now, out)

    def knows_private(self, inc: Incoming, game: Game) -> bool:
        """A private game is named to those already in it (the GM, a player)."""
        return inc.sender == game.gm_email or any(
            p.email == inc.sender for p in self.desk.store.players(game.name))

    def visible_game(self, inc: Incoming, name: str) -> Game | None:
        """The game called ``name`` as the sender of ``inc`` may name it by mail: None for
        a game not there and for a private game they have no part in (not its GM, a
        player, an observer or on its list of those who joined), so that every command
        answers a private game exactly as a game that does not exist."""
        game = self.desk.store.game(name.lower())
        if game is None or self.desk.store.web_key(game.name) is None:
            return game
        if (self.knows_private(inc, game) or inc.sender in self.desk.store.watchers(game.name)
                or self.desk.store.join(game.name, inc.sender) is not None):
            return game
        return None

    def takeover_confirmed(self, game: Game, email: str, seat: str, now: float,
                           out: list[Mail]) -> str:
        """The address proved itself: take the seat over, or wait for the GM."""
        refusal = self._takeover_refusal(game, seat, email)
        if refusal:
            raise JudgeError(f"TAKEOVER: {refusal}")
        name = written(host_for(game.kind), game.options, [seat])[0]
        if takeover_mode(game.options) == "approve":
            self.desk.store.set_takeover(game.name, email, seat, now)
            self.desk.notices.tell_gm(game, f"{email} asks to take over {name}", (
                f"{email} asks to take over {name} in {game.name}.\n\nTo accept or refuse, "
                f"send:\n  GM {game.name} <gm-password>\n  APPROVE {email}\n(or REJECT "
                f"{email}), or run mobadj game approve {game.name} {email}."), out)
            return (f"TAKEOVER: your request to take over {name} in {game.name} went to its "
                    f"GM; you will hear when it is accepted.")
        self.change_player(game, seat, email, now, out, how="took over", by=email)
        return (f"TAKEOVER: you now play {name} in {game.name}. Your password and everything "
                f"about the game come in a separate mail.")

    def approve_takeover(self, game: Game, email: str, accept: bool, now: float,
                         out: list[Mail]) -> str:
        email = email.strip().lower()
        waiting = self.desk.store.takeover(game.name, email)
        if waiting is None:
            raise JudgeError(f"{email} has not asked to take over a power in {game.name}")
        self.desk.store.delete_takeover(game.name, email)
        seat = str(waiting["power"])
        name = written(host_for(game.kind), game.options, [seat])[0]  # as the game names it
        if not accept:
            out.append(Mail(email, f"{game.name}: not this time", (
                f"The GM of {game.name} did not accept your request to take over {name}."
                f"\n\n{self.desk._sig()}"), game=game.name))
            return f"{email} does not take over {name}."
        refusal = self._takeover_refusal(game, seat, email)
        if refusal:
            raise JudgeError(f"{email} cannot take over {name}: {refusal}")
        return self.change_player(game, seat, email, now, out, how="took over", by="the GM")

    # -- OFFER ---------------------------------------------------------------------------------
    def offer(self, game: Game, words: list[str], now: float, out: list[Mail]) -> str:
        """OFFER power [NO]: open (or close) a seat for TAKEOVER; its player, if any, keeps
        it until someone takes it."""
        withdraw = len(words) > 1 and words[-1].lower() in ("no", "off", "withdraw", "not")
        names = words[:-1] if withdraw else words
        if not names:
            raise JudgeError("name the power: OFFER <power> [NO]")
        seat = host_for(game.kind).seat(game.options, " ".join(names))
        name = written(host_for(game.kind), game.options, [seat])[0]  # as the game names it
        if game.status not in ("active", "paused"):
            raise JudgeError(f"game {game.name} is {game.status}, not running")
        player = self.desk.store.player(game.name, seat)
        if player is not None:
            self.desk.store.update_player(game.name, seat, offered=0 if withdraw else 1)
        self.desk.store.log(game.name, "offered", {"power": seat, "open": not withdraw}, now)
        if player is not None and player.status != "out":  # its player hears it first
            out.append(Mail(player.email, f"{game.name}: {name} "
                            + ("is no longer offered for takeover" if withdraw
                               else "is offered for takeover"),
                            (f"The GM no longer offers {name} in {game.name} for takeover: "
                             "it stays yours." if withdraw else
                             f"The GM has offered {name} in {game.name} for takeover: "
                             "another player may ask to take it over. Until someone does, "
                             "it is yours: send your orders as usual. Write to the GM "
                             "(PRESS TO GM) if you want to keep it.")
                            + f"\n\n{self.desk._sig()}", game=game.name))
        if withdraw:
            return f"{name} is no longer offered for takeover."
        mode = takeover_mode(game.options)
        return (f"{name} is offered: anyone may ask to take it over (TAKEOVER {game.name} "
                f"{name})" + ("; you approve each request." if mode == "approve" else ".")
                + (" Note: the game option takeover is 'no': set it to yes or approve."
                   if mode == "no" else "")
                + (f" {player.email} plays it until then." if player is not None else ""))

    # -- the GM's orders for a power -------------------------------------------------------------
    def gm_orders(self, game: Game, power: str, text: str, now: float, out: list[Mail],
                  message_id: str | None = None, uid: int | None = None,
                  early: bool = True) -> str:
        """ORDERS FOR power (BECOME power) then orders: the GM orders for a power; they are
        kept as the GM's (the results say so) and its player is told.  ``early``: resolve
        the phase now if that was all it waited for."""
        host = host_for(game.kind)
        seat = host.seat(game.options, power)
        name = written(host, game.options, [seat])[0]  # as the game names it
        if game.status not in ("active", "paused") or game.state is None:
            raise JudgeError(f"ORDERS FOR {name}: game {game.name} is {game.status}.")
        state = game.state
        if seat not in host.due(state):
            return f"ORDERS FOR {name}: no orders are needed from {name} in " \
                   f"{host.phase_label(state)}."
        check = host.check(state, seat, text)
        lines = [f"Orders for {name}, {host.phase_label(state)}, entered by the GM, as the "
                 f"judge reads them:"] + ([f"  {o}" for o in check.accepted] or ["  (none)"])
        if check.notes:
            lines += ["Warnings:"] + [f"  {n}" for n in check.notes]
        if check.errors:
            lines += ["Errors (these lines were not accepted):"] + [
                f"  {_of_seat(str(e), seat)}" for e in check.errors]
        if not check.accepted and text.strip():
            lines.append("Nothing was accepted; the orders standing for the power stand.")
            return "\n".join(lines)
        phase = host.phase(state)
        earlier = self.desk.store.orders(game.name, phase).get(seat)
        standing = merged_orders(host, state, seat, game.options, earlier, check)
        self.desk.store.set_orders(game.name, phase, seat, standing.text, now, message_id,
                                   by_gm=True)
        lines += standing.said(f"{name}'s")
        left = host.unordered(state, seat, earlier, standing.text) if earlier else None
        if left is not None:  # they replace the power's orders whole: say what that did
            lines.append(left.said(f"{name}'s", "these"))
        told = left.said("Your", "the GM's") if left is not None else ""  # (to the player)
        self.desk.store.record_command(game.name, seat, message_id, uid, "orders by the GM",
                                       check.text, now)
        player = self.desk.store.player(game.name, seat)
        if player is not None:
            out.append(Mail(player.email, f"{game.name}: the GM entered orders for {name}", (
                f"The GM has entered orders for {name} for {host.phase_label(state)}; they "
                f"replace yours{' for the units they order' if standing.kept else ''} (send "
                "new ones to replace them in turn):\n"
                + ("\n".join(f"  {o}" for o in check.accepted)
                   or f"  (none: {host.without_orders})")
                + "".join(f"\n{line}" for line in standing.said("Your"))
                + (f"\n{told}" if told else "")
                + f"\nDeadline: {reports.stamp(game.deadline)}\n\n{self.desk._sig()}"),
                game=game.name))
        if early:
            self.desk.turns.maybe_early(self.desk.store.game(game.name) or game, now, out)
        return "\n".join(lines)

    def add_player(
        self, game: Game, email: str, power: str, password: str | None, now: float,
        out: list[Mail],
    ) -> str:
        power, email = _address_last(power, email)
        host = host_for(game.kind)
        seat = host.seat(game.options, power)
        if not is_address(email.strip().lower()):
            raise JudgeError(f"{email!r} is not an email address")
        (name,) = written(host, game.options, [seat])  # as the game names it
        if self.desk.store.player(game.name, seat) is not None:
            raise JudgeError(f"{name} already has a player (use REPLACE)")
        password = password or secrets.token_urlsafe(8)
        self.desk.store.add_player(game.name, seat, email,
                                   hash_password(password, self.desk.kdf_n), now,
                                   host.phase(game.state) if game.state is not None else "")
        self.desk.store.log(game.name, "player added", {"power": seat}, now)
        you = name if fold(name) == fold(seat) else f"{name} ({seat})"
        out.append(Mail(email, f"{game.name}: you play {name}", (
            f"Welcome to {game.name} ({host.title}). You play {you}.\n\n"
            f"Your password: {password}\n\n"
            f"Start each mail to the judge with:\n  SIGNON {game.name} {seat} {password}\n"
            f"then your orders or commands. Send HELP for the list of commands.\n\n"
            + self.desk._sig()), game=game.name))
        return f"{name} added: {email} (password mailed to them)."


def _address_last(power: str, email: str) -> tuple[str, str]:
    """(power, email) as meant when they come the other way round: ``mobadj game
    add-player`` takes the address first and ``replace`` the power first, and a GM mixes
    them up (the one with an ``@`` is the address)."""
    if "@" in power and "@" not in email:
        return email, power
    return power, email


_YOU = re.compile(r"\byou are\b|\byour\b|\byou\b", re.I)


def _of_seat(error: str, seat: str) -> str:
    """A game's error for the player ("among your covered skills", "you are selecting an
    obstacle") as the GM reads it under ORDERS FOR: the seat named ("among P4's covered
    skills", "P4 is selecting an obstacle"); the line quoted below it stays as written."""
    head, sep, rest = error.partition("\n")

    def named(word: re.Match[str]) -> str:
        said = word.group(0).lower()
        return f"{seat} is" if said == "you are" else f"{seat}'s" if said == "your" else seat

    return _YOU.sub(named, head) + sep + rest
