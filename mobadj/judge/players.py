"""A signed-on player's work: orders, press, LIST, HISTORY, ABSENCE, and why READY is
refused.  Each command's handler is declared in :mod:`.verbs`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mobadj.judge import reports
from mobadj.judge.base import JudgeBase, JudgeError
from mobadj.judge.commands import EVERYONE, PRESS_KINDS, Command, ParsedMail, Press, parse_line
from mobadj.judge.deadlines import DEFAULTS, HOUR, option
from mobadj.judge.hosts import Free, HostError, host_for, merged_orders
from mobadj.judge.mailparse import Incoming
from mobadj.judge.names import Names, written
from mobadj.judge.store import Game, Mail
from mobadj.typed import as_meant

MAX_PRESS_PER_MAIL = 10
"""Press messages one mail may send (a message to each other power of a 7-player game, and
to everyone, fit): a mail of a thousand press blocks must not make thousands of mails."""


class PlayerCommands:
    """Commands a signed-on player may give."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def ready_refused(self, game: Game, power: str, rejected: list[str], stale: bool,
                      inc: Incoming | None = None) -> str:
        """Why READY is not set: a line of this mail (or of what the page sent) was not
        taken, or the orders standing came from a mail with such a line ("" when READY may
        be set).  A power whose orders are only partly understood is never adjudicated as
        ready."""
        if stale:
            return (f"READY was not set: the orders {_of(inc)} were for another phase than "
                    "the current one (see PHASE above).")
        if rejected:
            where = "what you sent" if inc is not None and inc.from_pages else "this mail"
            return ("READY was not set, because the judge could not take everything in "
                    f"{where}: {'; '.join(rejected)}. Correct it and send READY again.")
        if game.state is not None:
            partial = self._partial_orders(game, power)
            if partial:
                return ("READY was not set: your orders standing for this phase came from a "
                        f"mail whose {partial} could not be read. Send your orders again, "
                        "every line readable, with READY.")
        return ""

    def nothing_done(self, game: Game, power: str, parsed: ParsedMail, attached: bool) -> str:
        """The answer to a signed-on mail in which the judge found neither orders nor
        commands (a request to the GM in words, orders only in an attached file): that
        nothing was done, where the power's orders stand, and what the player may have
        meant (a word close to a command; RESIGN; PRESS TO GM)."""
        where = "the text of your mail" if attached else "your mail"
        lines = [f"The judge found no orders and no commands in {where}, so nothing was "
                 "done: it passes on no words outside a press block, not to the GM either."]
        lines += [f"line {number}: unknown command (did you mean '{word.upper()}'?)"
                  for number, word in parsed.near_commands.items()]
        if parsed.signoff:
            lines.append(f"Line {parsed.signoff} (SIGNOFF) ended the reading of your mail; "
                         "every mail signs on by itself, so there is no session to end.")
        standing = self._standing(game, power)
        if standing:
            lines.append(standing)
        if not attached:  # (the answer about attachments says what to do)
            lines.append("To leave the game, send RESIGN under your SIGNON line. To write to "
                         "the GM, send PRESS TO GM, your message, then ENDPRESS.")
        return "\n".join(lines)

    def _standing(self, game: Game, power: str) -> str:
        """Where ``power``'s orders for the phase being played stand ("" when none is due
        from it: that is said only to a power that sends orders)."""
        if game.status not in ("active", "paused") or game.state is None:
            return ""
        host = host_for(game.kind)
        label = host.phase_label(game.state)
        if power not in host.due(game.state):
            return ""
        (name,) = written(host, game.options, [power])
        if power in self.desk.store.orders(game.name, host.phase(game.state)):
            return f"The orders in for {name} for {label} still stand."
        return f"No orders are in for {name} for {label} yet."

    def _partial_key(self, game: Game, power: str) -> str:
        return f"partial-orders:{game.name}:{power}"

    def _partial_orders(self, game: Game, power: str) -> str:
        """The lines not taken from the mail that gave ``power``'s orders standing for the
        current phase ("" when it was taken whole)."""
        kept = self.desk.store.meta(self._partial_key(game, power)) or ""
        phase, _, lines = kept.partition("\n")
        host = host_for(game.kind)
        return lines if game.state is not None and phase == host.phase(game.state) else ""

    def orders(
        self, game: Game, power: str, parsed: ParsedMail, inc: Incoming, uid: int | None,
        now: float, out: list[Mail], rejected: list[str],
    ) -> str:
        host = host_for(game.kind)
        if game.status not in ("active", "paused") or game.state is None:
            return f"Orders not accepted: game {game.name} is {game.status}."
        text = parsed.order_text
        done = ""
        free = host.free(game.state, power, text) if game.status == "active" else None
        if free is not None:  # commands given out of turn are applied at once
            done = self._free(game, power, free, inc, uid, now, out)
            rejected += [e.split("\n")[0] for e in free.errors]
            game = self.desk.store.game(game.name) or game
            text = free.rest
            if not text.strip():
                return done
        if power not in host.due(game.started_state):
            check = host.check(game.started_state, power, text)
            if not (check.accepted or check.errors or check.notes):
                return ""  # nothing but remarks ("thanks"): no word about orders
            idle = host.idle_reason(game.started_state, power)
            if idle:  # the rules' own reason (civil disorder), not lateness
                unused = "".join(f"\n  {o}" for o in check.accepted)
                return idle + (f"\nThese orders are not used:{unused}" if unused else "")
            late = self._late(game, power, text, inc, now)
            aside = host.out_of_turn(game.started_state, power, text)
            return (f"{late}\n\n" if late else "") + (
                f"No orders are needed from {written(host, game.options, [power])[0]} in "
                f"{host.phase_label(game.started_state)}."
            ) + (f"\n{aside}" if aside else "")
        orders = self._check_orders(game, power, parsed, text, inc, uid, now, rejected)
        return f"{done}\n\n{orders}" if done else orders

    def resigned_with(self, game: Game, power: str, parsed: ParsedMail) -> str:
        """Orders in the mail that also RESIGNs: not taken, as the seat's orders for the
        phase go with the seat (RESIGN drops them, and the votes); the answer says so, so
        that nobody believes them standing for the phase."""
        host = host_for(game.kind)
        if game.status not in ("active", "paused") or game.state is None:
            return f"Orders not accepted: game {game.name} is {game.status}."
        try:
            read = host.check(game.started_state, power, parsed.order_text).accepted
        except HostError:
            read = []
        shown = read or [t.strip() for _, t in parsed.order_lines]
        (name,) = written(host, game.options, [power])
        return ("Orders not kept (this mail also resigns: a resigning player's orders go with "
                "the seat):\n" + "\n".join(f"  {o}" for o in shown)
                + f"\n{name} has no orders for {host.phase_label(game.started_state)} now "
                f"({host.without_player_in(game.options)}) unless the player who takes it "
                "over sends some.")

    def _late(self, game: Game, power: str, text: str, inc: Incoming, now: float,
              taken_now: bool = False) -> str:
        """A mail that came after the deadline of the phase adjudicated last (or after it
        was adjudicated early), said plainly with the times, as the player missed it,
        perhaps by a minute: when its orders are no orders for the phase now played (asked
        only then, ``taken_now`` False) but are for that phase; or, when they are taken for
        the phase now played, when the power owed orders for that phase and none had come
        in time (said once).  "" otherwise."""
        results = self.desk.store.results(game.name)
        if not results:
            return ""
        last = results[-1]
        came = inc.arrived if inc.arrived is not None else now
        deadline = last["report"].get("deadline")
        if came < last["at"] and (deadline is None or came < deadline):
            return ""  # it came while that phase was still played: not late for it
        host = host_for(game.kind)
        before, state = last["state_before"], game.started_state
        try:
            if power not in host.due(before):
                return ""
            then = host.check(before, power, text)
        except HostError:
            return ""
        (name,) = written(host, game.options, [power])
        label = host.phase_label(before)
        if taken_now:
            told = self.desk.store.meta(f"late-told:{game.name}:{power}")
            if power in (last["orders"] or {}) or told == str(last["id"]) or (
                    power in self.desk.store.orders(game.name, host.phase(state))):
                return ""  # its orders were in, or it has been told (once is enough)
            plain = host.missed_orders_done(before, 1)
            done = (f"{label} was already adjudicated without orders from {name} ("
                    + (f"without orders, {plain}" if plain else "the rules' defaults applied")
                    + ")")
        elif not then.accepted or then.all_impossible:
            return ""  # no orders for that phase either
        else:
            done = f"{label} was already adjudicated"
        why = (f"after the deadline of {label} ({reports.stamp(deadline)})"
               if deadline is not None and came >= deadline else
               f"after {label} was adjudicated ({reports.stamp(last['at'])}), before its "
               "deadline")
        self.desk.store.set_meta(f"late-told:{game.name}:{power}", str(last["id"]))
        return (f"Your mail reached the judge at {reports.stamp(came)}, {why}: {done}, so "
                f"these orders were not used for it. The judge read them as orders for "
                f"{host.phase_label(state)}, the phase now played.")

    def _free(
        self, game: Game, power: str, free: Free, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        """Store the state after free commands, and send each other player the new events
        they may see (table talk, a card shown); the reply lists what was done."""
        lines = []
        if free.applied:
            self.desk.store.update_game(game.name, state=free.state)
            for text in free.applied:
                self.desk.store.record_command(game.name, power, inc.message_id, uid, "free", text,
                                               now)
            for pl in self.desk.store.players(game.name):
                news = free.events.get(pl.power, [])
                if pl.power == power or pl.status == "out" or not news:
                    continue
                out.append(Mail(pl.email, f"{game.name}: news from {power}",
                                "\n".join(news) + f"\n\n{self.desk._sig()}", game=game.name))
            if free.public:
                out.append(Mail(game.gm_email, f"{game.name}: news from {power} (GM copy)",
                                "\n".join(free.public) + f"\n\n{self.desk._sig()}", game=game.name))
            lines.append(f"Done at once by {power} (out of turn):")
            lines += [f"  {a}" for a in free.applied]
            mine = [e for e in free.events.get(power, []) if e not in free.public]
            lines += [f"  {e}" for e in mine]
        if free.errors:
            lines.append("Errors (these lines were not accepted):")
            lines += [f"  {e}" for e in free.errors]
        return "\n".join(lines)

    def _check_orders(
        self, game: Game, power: str, parsed: ParsedMail, text: str, inc: Incoming,
        uid: int | None, now: float, rejected: list[str],
    ) -> str:
        """Read the orders of a due seat and keep the accepted ones for this phase (each
        line not taken is added to ``rejected``)."""
        host = host_for(game.kind)
        state = game.started_state
        phase = host.phase(state)
        check = host.check(state, power, text)
        if not (check.accepted or check.errors or check.notes):
            return ""  # nothing but remarks ("thanks", a name): no orders in this mail
        rejected += [_where(e) for e in check.errors]
        late = self._late(game, power, text, inc, now,
                          taken_now=bool(check.accepted) and not check.all_impossible)
        lines = [late, ""] if late else []
        (name,) = written(host, game.options, [power])
        lines.append(f"Orders for {name}, {host.phase_label(state)}, as the judge reads them:")
        lines += [f"  {o}" for o in check.accepted] or ["  (none)"]
        if check.notes:
            lines.append("Warnings:")
            lines += [f"  {n}" for n in check.notes]
        if check.errors:
            lines.append("Errors (these lines were not accepted):")
            for err in check.errors:
                lines.append(f"  {err}")
            for number, word in parsed.near_commands.items():
                lines.append(f"  line {number}: or did you mean the command '{word.upper()}'?")
        if check.all_impossible:  # e.g. movement orders read in the winter: no orders in
            rejected.append("none of its orders is possible in this phase")
            lines.append(f"None of these orders is possible in {host.phase_label(state)}, so "
                         f"they were not taken: they do not count as orders from {name}, "
                         "whose earlier orders for this phase (if any) stand. Send orders for "
                         "this phase.")
            return "\n".join(lines)
        if not check.accepted and host.resolve_when_all_in:  # a card game: no standing orders
            lines.append(self._nothing_played(game, power))
            return "\n".join(lines)
        if not check.accepted:
            lines.append("Nothing was accepted, so your earlier orders for this phase (if any) "
                         "stand.")
            return "\n".join(lines)
        earlier = self.desk.store.orders(game.name, phase).get(power)
        by_gm = power in self.desk.store.orders_by_gm(game.name, phase)
        standing = merged_orders(host, state, power, game.options, earlier, check)
        self.desk.store.set_orders(game.name, phase, power, standing.text, now, inc.message_id)
        self.desk.store.record_command(game.name, power, inc.message_id, uid, "orders",
                                       check.text, now)
        whose = "The GM's" if by_gm else "Your"
        lines += standing.said(whose)
        left = host.unordered(state, power, earlier, standing.text) if earlier else None
        if left is not None:  # a mail's orders replace the last set whole: say what that did
            lines.append(left.said(whose, "what you sent" if inc.from_pages else "this mail"))
        player = self.desk.store.player(game.name, power)
        if player is not None and player.status == "disorder":  # back from civil disorder
            self.desk.store.update_player(game.name, power, status="active", nmr_streak=0)
            lines.append(f"{written(host, game.options, [power])[0]} is no longer "
                         f"{host.unplayed_in(game.options)}. Welcome back.")
        self.desk.store.set_meta(self._partial_key(game, power),
                                 f"{phase}\n{', '.join(_where(e) for e in check.errors)}"
                                 if check.errors else "")
        sealed = self._sealed_move_in(game, power) if host.resolve_when_all_in else ""
        if sealed:
            lines.append(sealed)
        if check.errors:
            player = self.desk.store.player(game.name, power)
            if player is not None and player.ready:  # never adjudicated as "ready" like this
                self.desk.store.update_player(game.name, power, ready=0)
                lines.append(f"You were READY; you are not any more, as a line {_of(inc)} "
                             "could not be read.")
            again = "again" if inc.from_pages else "in a new mail"
            if self.desk.turns.plays_at_once(self.desk.store.game(game.name) or game):
                lines.append("The moves above were played at once and are final. The line(s) "
                             "under Errors were not played, nor any move after them. Send the "
                             f"moves still to make, corrected, {again} (the results mail "
                             "lists what you may send then).")
            else:
                lines.append(
                    "The orders above are taken and replace your earlier ones for the units "
                    "they order; the line(s) under Errors are not. To add or correct one, "
                    "send it again." if standing.kept else
                    "The orders above are taken and replace your earlier ones for "
                    "this phase; the line(s) under Errors are not. To add or correct "
                    "one, send your orders again with it (the orders sent last, from "
                    "the page or by mail, replace the ones before)."
                    if inc.from_pages else
                    "The orders above are taken and replace your earlier ones for "
                    "this phase; the line(s) under Errors are not. To add or correct "
                    "one, send your orders again with it (each mail's orders replace "
                    "the last).")
        return "\n".join(lines)

    def _nothing_played(self, game: Game, power: str) -> str:
        """A card game's answer to a move of which nothing could be played: moves are final
        and none is kept, but a sealed choice sent before stands; the legal commands."""
        host, state = host_for(game.kind), game.started_state
        before = self.desk.store.orders(game.name, host.phase(state)).get(power)
        if before:
            return f"Nothing was taken, so the move you sent before stands: {before}."
        return ("Nothing was played: send your move again, corrected.\n"
                + host.preview(state, power, ""))

    def _sealed_move_in(self, game: Game, power: str) -> str:
        """After a sealed choice (a bet) while others are still to choose: that it is in
        (the phase's label still names every seat the move waits for)."""
        host, state = host_for(game.kind), game.started_state
        sent = self.desk.store.orders(game.name, host.phase(state))
        active = {p.power for p in self.desk.store.players(game.name) if p.status == "active"}
        waiting = [s for s in host.due(state) if s not in sent and s in active]  # (a seat
        # without a player is not waited for: Turns.plays_at_once)
        if power not in sent or not waiting:
            return ""
        return (f"Your move is in: {sent[power]} (sealed: nobody sees it before every move is "
                f"in). Still waiting for {', '.join(waiting)}.")

    def absence(
        self, game: Game, power: str, seconds: float, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        player = self.desk.store.player(game.name, power)
        assert player is not None
        quota = option(game.options, "absence_quota_days") * 24
        hours = seconds / HOUR
        if player.absence_used + hours > quota + 1e-9:
            left = max(0.0, quota - player.absence_used)
            raise JudgeError(f"ABSENCE refused: only {left:g} hours of your absence quota left.")
        if game.status != "active" or game.deadline is None:
            raise JudgeError("ABSENCE: there is no running deadline to move.")
        self.desk.store.update_player(game.name, power, absence_used=player.absence_used + hours)
        new = max(game.deadline, now) + seconds
        self.desk.store.update_game(game.name, deadline=new, reminded=0)
        self.desk.store.record_command(game.name, power, inc.message_id, uid, "absence",
                                       f"{hours:g}h", now)
        self.desk._announce(game, f"{game.name}: deadline moved",
                            f"A player has taken an absence. The deadline is now "
                            f"{reports.stamp(new)}.", out, skip=power)
        (name,) = written(host_for(game.kind), game.options, [power])
        self.desk.notices.tell_gm(game, f"{name} takes an absence", (
            f"{name} has taken an absence of {hours:g} hours in {game.name} "
            f"({player.absence_used + hours:g} of {quota:g} hours of the quota used). The "
            f"deadline is now {reports.stamp(new)}."), out)
        return (f"Absence granted. The deadline is now {reports.stamp(new)}; "
                f"{quota - player.absence_used - hours:g} hours of your quota left.")

    def unended_press(self, game: Game, power: str | None, press: Press) -> str | None:
        """Why a press block without ENDPRESS is not sent, or None to send it.  Such a block
        runs to the end of the mail; when a line of it reads as an order of this game or as
        a judge command, the player meant the press to end before it (a forgotten
        ENDPRESS): sent, it would show their orders to others before the deadline, and
        their orders would not be taken.  ``power`` None: the GM's press (commands only)."""
        if press.ended:
            return None
        host = host_for(game.kind)
        state = game.state if game.status == "active" else None
        found: list[str] = []
        for number, line in press.lines[:MAX_PRESS_LINES_CHECKED]:
            text = as_meant(line).strip()
            if not text:
                continue
            if isinstance(parse_line(text, number), Command) or (
                    power is not None and state is not None
                    and _reads_as_order(host, state, power, text)):
                found.append(f"line {number} ({text[:60]})")
                if len(found) == 3:
                    break
        if not found:
            return None
        return ("Press not sent: it has no ENDPRESS, so it ran to the end of your mail, and "
                f"{', '.join(found)} read{'s' if len(found) == 1 else ''} as an order or a "
                f"command. Nothing after line {press.line}, where the press begins, was "
                "taken as an order or a command. End the message with a line ENDPRESS, and "
                "send the mail again.")

    def press(
        self, game: Game, power: str, targets: list[str], grey: bool, text: str, now: float,
        out: list[Mail], but: Sequence[str] = (),
    ) -> str:
        """PRESS TO powers | ALL | ALL BUT powers | GM: the message to those named.  The GM
        (njudge's PRESS TO M) may be written to in every game, with or without press, and is
        always told who wrote: it is how a player asks the GM for anything.  Powers are
        named to people as the game names them (``Al Capone``, ``ENGLAND``)."""
        if not text.strip():
            raise JudgeError("Press refused: the message is empty.")
        host = host_for(game.kind)
        names = Names(host, game.options)
        to_gm, targets = gm_named(targets, names)
        recipients: list[str] = []
        to_all = False
        if targets:
            recipients, to_all = self._recipients(game, power, targets, grey, names, but)
        phase = host.phase(game.state) if game.state is not None else "-"
        who, listed = names.written(power), ", ".join(names.written(r) for r in recipients)
        grey_to = (_grey_heading(power, targets, but, names)
                   if grey and recipients and not to_all else None)
        self.desk.store.add_press(game.name, phase, power, recipients + (["GM"] if to_gm else []),
                                  grey and bool(recipients), text, now, broadcast=to_all,
                                  shown=grey_to)
        if to_gm:
            self._to_gm(game, who, listed, to_all, text, out)
        if not recipients:
            return "Press delivered to the GM" + (" (press to the GM is always signed)."
                                                  if grey else ".")
        sender = "Anonymous (grey press)" if grey else who
        shown = grey_to or ("everyone" if to_all else listed)
        heading = f"Press in {game.name} from {sender} to {shown}" + (
            " and the GM" if to_gm else "")
        deadline = (f"Deadline for {host.phase_label(game.state)}: "
                    f"{reports.stamp(game.deadline)}\n\n"
                    if game.state is not None and game.status == "active" else "")
        body = f"{heading}:\n\n{reports.wrap(text)}\n\n{deadline}{self.desk._sig()}"
        watchers = self.desk.store.watchers(game.name) if to_all else []  # public press only
        players = {p.power: p for p in self.desk.store.players(game.name)}
        for to in [players[seat].email for seat in recipients] + watchers:
            out.append(Mail(to, f"{game.name}: press from {sender}", body, game=game.name))
        if not to_gm:  # (the GM who was written to has the message already)
            self.desk.notices.gm_press_copy(game, who, listed, grey, to_all, text, out)
        return (f"Press delivered to {listed}"
                + (" and the GM" if to_gm else "")
                + (" (anonymously" + ("; the GM knows it is you)." if to_gm else ").")
                   if grey else ".") + _master_named(targets, names))

    def _recipients(self, game: Game, power: str, targets: list[str], grey: bool,
                    names: Names, but: Sequence[str] = ()) -> tuple[list[str], bool]:
        """The seats press to ``targets`` goes to (everyone but the seats ``but`` names,
        with ``but``), and whether it goes to everyone; a :class:`JudgeError` when the
        game's press rules refuse it."""
        mode = str(game.options.get("press", DEFAULTS["press"])).lower()
        if mode == "none":
            raise JudgeError("Press refused: this game is played without press (PRESS TO GM "
                             "still reaches the GM).")
        if grey and mode != "grey":
            raise JudgeError("Press refused: this game allows only white press (signed).")
        players = {p.power: p for p in self.desk.store.players(game.name) if p.status != "out"}
        to_all = not but and any(t.upper() in EVERYONE for t in targets)
        if not to_all and str(game.options.get("press_to", "any")).lower() == "public":
            raise JudgeError("Press refused: in this game press goes to everyone only (no "
                             "private press): PRESS TO ALL, or BROADCAST.")
        if to_all:
            return [p for p in players if p != power], True
        if but:
            left_out = {seat for t in but for seat in _named(names, t)}
            recipients = [p for p in players if p != power and p not in left_out]
            if not recipients:
                raise JudgeError("Press refused: nobody to send it to.")
            return recipients, False
        recipients = []
        for t in targets:
            for seat in _named(names, t):
                if seat not in players:
                    raise JudgeError(f"Press refused: {names.written(seat)} has no player.")
                if seat != power and seat not in recipients:
                    recipients.append(seat)
        if not recipients:
            raise JudgeError("Press refused: nobody to send it to.")
        return recipients, False

    def _to_gm(self, game: Game, who: str, others: str, to_all: bool, text: str,
               out: list[Mail]) -> None:
        """PRESS TO GM: the message to the game's GM, signed, with how to answer."""
        also = (" (and to everyone)" if to_all else f" (and to {others})" if others else "")
        self.desk.notices.tell_gm(game, f"press from {who} to the GM", (
            f"Press in {game.name} from {who} to the GM{also}:\n\n{reports.wrap(text)}\n\n"
            f"To answer: GM {game.name} <your GM password>, then PRESS TO {who}, your "
            f"message, ENDPRESS."), out)

    def orders_early(self, game: Game, power: str, phase_cmd: Command, parsed: ParsedMail,
                     inc: Incoming, uid: int | None, now: float, out: list[Mail],
                     rejected: list[str]) -> str:
        """PHASE <a phase to come> (njudge's PHASE): the order lines after it are kept for
        that phase and read when it begins (the player then gets them as the judge reads
        them); lines before it are orders for the current phase.  A PHASE naming a phase
        gone by refuses the mail's orders: they were meant for another position."""
        host = host_for(game.kind)
        state = game.started_state
        named = str(phase_cmd.args["value"])
        later = host.later_phase(state, named) if game.status in ("active", "paused") else None
        if later is None:
            return (f"Orders refused: they were meant for {named}, but the game is now in "
                    f"{host.phase(state)}. Send orders for the current phase, or for a phase "
                    f"to come (PHASE <phase>, e.g. the next one).")
        now_lines = [(n, t) for n, t in parsed.order_lines if n < phase_cmd.line]
        early = [(n, t) for n, t in parsed.order_lines if n > phase_cmd.line]
        reply = []
        if now_lines:
            reply.append(self.orders(game, power, dataclasses.replace(
                parsed, order_lines=now_lines), inc, uid, now, out, rejected))
        if early:
            text = "\n".join(t for _, t in early)
            self.desk.store.set_orders(game.name, later, power, text, now, inc.message_id)
            self.desk.store.record_command(game.name, power, inc.message_id, uid, "orders early",
                                           f"{later}\n{text}", now)
            reply.append(f"Orders for {later} kept ({len(early)} line(s)), sent early: the "
                         f"judge reads them when {later} begins and mails them back to you as "
                         f"it reads them then (they replace any you sent before for {later}).")
        return "\n\n".join(reply)

    def status(self, game: Game, power: str | None) -> str:
        host = host_for(game.kind)
        lines = [f"Game {game.name} ({host.title}), status: {game.status}"]
        rules = self.desk.rules_line(game)
        if rules:
            lines.append(rules)
        ending = self.desk.store.ending(game.name)
        if ending is not None:
            lines.append("Result: " + self.desk.endings.result_text(game, ending["result"],
                                                        ending["powers"], ending["how"]))
        if game.status == "forming":
            lines.append(self.desk.forming.seats_line(game))
            held = {p.power: p.email for p in self.desk.store.players(game.name)}
            lines += _columns(host, game, [
                (seat, held.get(seat, "free") if power is None  # the GM's
                 else "taken" if seat in held else "free") for seat in host.seats(game.options)])
            for j in self.desk.store.joins(game.name) if power is None else []:  # the GM's view
                wishes = ", ".join(written(host, game.options, j["wishes"])) or "any"
                lines.append(f"  joined: {j['email']} ({j['status']}; wishes: {wishes})")
        if game.state is not None:
            lines += [self.ended_in(game)] if game.status == "ended" else self._seats(game)
            view = host.status(game.state, power)
            if view:
                lines.append("")
                lines.append(view)
        return "\n".join(lines)

    def _seats(self, game: Game) -> list[str]:
        """LIST of a game being played: its phase, deadline, and who is still awaited."""
        host, state = host_for(game.kind), game.started_state
        lines = [f"Phase: {host.phase_label(state)}", f"Deadline: {reports.stamp(game.deadline)}"]
        submitted = self.desk.store.orders(game.name, host.phase(state))
        due = host.due(state)
        players = {p.power: p for p in self.desk.store.players(game.name)}
        tags = []
        unplayed = host.unplayed_label(game.options)
        for seat in host.seats_in(game.options, state):
            if seat not in players:
                tag = f"no player ({unplayed})"
            else:
                pl = players[seat]
                tag = "submitted" if seat in submitted else (
                    "nothing due" if seat not in due else "not waited for"
                    if pl.status == "disorder" and not host.resolve_when_all_in else "waiting")
                if pl.status == "disorder":
                    tag += f", {unplayed}"
                if pl.ready and seat in due:
                    tag += ", ready"
            tags.append((seat, tag))
        return lines + _columns(host, game, tags)

    def ended_in(self, game: Game) -> str:
        """LIST (and the GM's status) of an ended game: the phase it ended in (the last one
        played, as SUMMARY and the export say it), instead of a deadline and seats awaited
        (nobody is, any more)."""
        if game.state is None:
            return "Ended before it started."
        ending = self.desk.store.ending(game.name)
        host = host_for(game.kind)
        phase = (ending["phase"] if ending else "") or host.phase(game.state)
        return host.ended_line(game.state, phase)

    def history(self, game: Game, which: str | None) -> str:
        """HISTORY: the results of the last ``which`` phases (3 when not given), or of the
        phase named ``which``.  Asked for no phase, or for one not resolved, it says so and
        names the phases there are, rather than guess."""
        results = self.desk.store.results(game.name)
        if not results:
            return "History: no phase has been resolved yet."
        if which and which.isdecimal():  # digits of any script int() reads (NFKC'd before)
            count = int(which) if len(which) <= 6 else len(results)
            if count == 0:
                return (f"History: ask for 1 phase or more, or name a phase "
                        f"({_phases_named(results)}).")
            results = results[-count:]
        elif which:
            found = [r for r in results if r["phase"].lower() == which.lower()]
            if not found:
                return (f"History: no phase {which} has been resolved "
                        f"({_phases_named(results)}).")
            results = found
        else:
            results = results[-3:]
        return "\n\n".join(f"{r['phase']}\n{r['report']['text']}" for r in results)


def gm_named(targets: list[str], names: Names) -> tuple[bool, list[str]]:
    """Whether PRESS TO names the GM (``PRESS TO GM``, ``PRESS TO France, GM``; njudge's
    ``M`` or ``MASTER``), and the other names written; a power of the game called GM, M or
    MASTER keeps its name."""
    to_gm, rest = False, []
    for target in targets:
        words = target.split()
        kept = [w for w in words if w.lower() not in GM_WORDS or names.find(w) is not None]
        to_gm = to_gm or len(kept) < len(words)
        if kept:
            rest.append(" ".join(kept))
    return to_gm, rest


GM_WORDS = ("gm", "m", "master")
"""The GM in PRESS TO: ``GM``, and njudge's master, ``M`` (or ``MASTER``)."""


def _master_named(targets: list[str], names: Names) -> str:
    """A word for a player who wrote njudge's ``PRESS TO M`` in a game where M is a
    power's name: the press went to that power, not to the GM ("" otherwise)."""
    seats = [names.find(w) for t in targets for w in t.split() if w.lower() in ("m", "master")]
    return "".join(f" (M is {names.written(s)} in this game; to write to the GM: PRESS TO GM.)"
                   for s in dict.fromkeys(seats) if s is not None)


def _grey_heading(power: str, targets: list[str], but: Sequence[str], names: Names) -> str:
    """Whom the copies of grey press say it went to: never the recipients, which leave out
    the sender and so name them by the gap, but the powers the sender wrote (themselves
    too, when they named themselves), or everyone but those left out (themselves never)."""
    if but:
        out = dict.fromkeys(s for t in but for s in _named(names, t) if s != power)
        return ("everyone but " + ", ".join(names.written(s) for s in out)) if out else "everyone"
    named = dict.fromkeys(s for t in targets for s in _named(names, t))
    return ", ".join(names.written(s) for s in named)


def _named(names: Names, text: str) -> list[str]:
    """The seats ``text`` names, or why it names none, for a player who wrote it as njudge
    would: GREY or WHITE alone says how press goes, not to whom; ALL stands alone."""
    try:
        return names.groups(text)
    except HostError as exc:
        words = [w.lower().strip(",") for w in text.split()]
        example = ", ".join(list(names.labels.values())[:2])
        if words and all(w in PRESS_KINDS or w == "to" for w in words):
            raise JudgeError(
                f"Press refused: {text.split()[0].upper()} says how the press goes, not to "
                f"whom: name who it is for, e.g. PRESS TO {example} GREY, or PRESS TO ALL "
                "GREY (WHITE, or neither word: signed press).") from None
        if any(w.upper() in EVERYONE for w in words):
            raise JudgeError(
                "Press refused: ALL (everyone) stands alone, as in PRESS TO ALL or PRESS TO "
                f"ALL BUT {example.split(', ')[0]}; else name the powers: PRESS TO "
                f"{example}.") from None
        raise JudgeError(f"Press refused: {exc}") from None


def _columns(host: Any, game: Game, rows: list[tuple[str, str]]) -> list[str]:
    """LIST's lines of seats: each power as the game names it (``Al Capone``, ``ENGLAND``),
    in a column wide enough for the longest name, then what is said of it."""
    names = written(host, game.options, [seat for seat, _ in rows])
    width = max([12, *(len(name) for name in names)])
    return [f"  {name:<{width}} {tag}" for name, (_, tag) in zip(names, rows, strict=True)]


def _where(error: str) -> str:
    """``line 3 (Biuld G Que)`` from a check's error (its first line, and the text the
    player wrote when the error quotes it)."""
    head, _, text = error.partition("\n")
    place = head.split(",", 1)[0] if head.startswith("line ") else head
    return f"{place} ({text.strip()})" if text.strip() else place


def _phases_named(results: list[dict[str, Any]]) -> str:
    """The resolved phases for a message: all of a few, else the first and the last ones."""
    names = [str(r["phase"]) for r in results]
    if len(names) <= 8:
        return "resolved: " + ", ".join(names)
    return (f"{len(names)} resolved: " + ", ".join(names[:2]) + ", ..., "
            + ", ".join(names[-3:]))


MAX_PRESS_LINES_CHECKED = 200
"""An unended press block's lines looked at for orders (a long letter is read this far)."""


def _reads_as_order(host: Any, state: Any, power: str, line: str) -> bool:
    """Does the game read ``line`` as an order (or move) of ``power``'s?"""
    try:
        return bool(host.check(state, power, line).accepted)
    except HostError:
        return False


def _of(inc: Incoming | None) -> str:
    """The words for what was sent, in an answer: a mail's, or a page's form's (shown on
    the page: nothing was mailed)."""
    return "of what you sent" if inc is not None and inc.from_pages else "of this mail"
