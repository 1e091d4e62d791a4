"""The judge itself, working on messages in memory: ``handle_mail(raw) -> mails to send`` and
``tick()`` for deadlines.  Mail in and out (IMAP, SMTP) is :mod:`mobadj.judge.service`'s job.

Every mail is handled in one store transaction that also records its Message-ID (and IMAP
UID) and queues its replies in the outbox, so a mail's effect happens exactly once.
Resolving a phase is one transaction too.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from mobadj.board.model import fold
from mobadj.judge import registry, reports
from mobadj.judge.accounts import Accounts
from mobadj.judge.base import PRESS_OPTIONS, JudgeBase, JudgeError, Session
from mobadj.judge.commands import EVERYONE, PRESS_WORDS, Command, ParsedMail, help_text, parse_body
from mobadj.judge.config import JudgeConfig
from mobadj.judge.deadlines import parse_when
from mobadj.judge.endings import Endings
from mobadj.judge.forming import Forming
from mobadj.judge.gm import GMCommands, is_remark_in, seats_named, signed_off
from mobadj.judge.habits import Habits
from mobadj.judge.hosts import DiplomacyHost, Host, HostError, host_for
from mobadj.judge.loops import ReplyLimits, copies_judge_inline, reply_kind, text_digest
from mobadj.judge.mailparse import AWAY_SUBJECT, Incoming, parse_mail
from mobadj.judge.names import Names, written
from mobadj.judge.notices import Notices
from mobadj.judge.overview import summary_text
from mobadj.judge.players import MAX_PRESS_PER_MAIL, PlayerCommands
from mobadj.judge.registry import Context, by_the_mail
from mobadj.judge.seats import Seats
from mobadj.judge.store import Game, Mail, Store, hash_password, verify_password
from mobadj.judge.throttle import PasswordThrottle
from mobadj.judge.turns import Turns
from mobadj.judge.unsigned import UnsignedMail

__all__ = ["PRESS_OPTIONS", "REFUSED", "Judge", "JudgeBase", "JudgeError", "help_text",
           "parse_when"]

log = logging.getLogger("mobadj.judge")
FORGOT_LINE = ("Forgot your password? Ask your GM for a new one: the GM's REPLACE of your power "
               "to your own address mails a new password to the power's registered address.")
REFUSED = (
    "Sign-on refused: the game, power or password is not right.\n"
    "(For your safety the judge does not say which.)\n" + FORGOT_LINE
)
UNKNOWN_POWER = (
    "Sign-on refused: {}\n"
    "(A public game's powers are no secret, so the judge names them; the password is checked "
    "once the power is right.)"
)
"""The refusal of a power a public game does not have (``{}``: which, with a did-you-mean,
as a sentence):
unlike :data:`REFUSED`, it says what is wrong, and nothing of the password."""
SIGNOFF_ALONE = ("SIGNOFF only ends what the judge reads of a mail: there is no session to "
                 "end, as every mail signs on by itself with its SIGNON line.")
_DUMMY_HASH = hash_password("not a password", n=2**14)


class Judge(JudgeBase):
    """One judge: ``handle_mail`` for every mail, ``tick`` for the clock (see :mod:`.turns`)."""

    def __init__(self, store: Store, config: JudgeConfig, clock: Callable[[], float] = time.time,
                 kdf_n: int = 2**14) -> None:
        super().__init__(store, config, clock, kdf_n)
        self.notices = Notices(self)
        self.endings = Endings(self)
        self.accounts = Accounts(self)
        self.turns = Turns(self)
        self.seats = Seats(self)
        self.forming = Forming(self)
        self.players = PlayerCommands(self)
        self.gm = GMCommands(self)
        self.limits = ReplyLimits(self)
        self.unsigned = UnsignedMail(self)
        self.habits = Habits(self)

    # -- what the front ends call on the parts -----------------------------------------------
    def tick(self, due_at: float | None = None) -> list[Mail]:
        """Apply the deadlines due now, or only those due by ``due_at`` (:meth:`.Turns.tick`)."""
        return self.turns.tick(due_at)

    def resolve(self, game: Game, now: float, out: list[Mail], forced: bool = False) -> str:
        return self.turns.resolve(game, now, out, forced)

    def end_game(self, game: Game, result: str, powers: list[str], how: str, now: float,
                 out: list[Mail]) -> str:
        return self.endings.end_game(game, result, powers, how, now, out)

    def notify_refused(self, now: float) -> list[Mail]:
        return self.notices.notify_refused(now)

    def create_game(
        self, name: str, kind: str, gm_email: str, gm_password: str | None,
        options: dict[str, Any] | None = None, seed: int | None = None,
    ) -> tuple[Game, str]:
        return self.gm.create_game(name, kind, gm_email, gm_password, options, seed)

    def set_option(self, game: Game, key: str, value: str) -> str:
        return self.gm.set_option(game, key, value)

    def add_player(self, game: Game, email: str, power: str, password: str | None,
                   now: float, out: list[Mail]) -> str:
        return self.seats.add_player(game, email, power, password, now, out)

    def start(self, game: Game, now: float, out: list[Mail]) -> str:
        return self.forming.start(game, now, out)

    def open_seats(self, game: Game) -> list[str]:
        return self.seats.open_seats(game)

    def gm_orders(self, game: Game, power: str, text: str, now: float, out: list[Mail],
                  message_id: str | None = None, uid: int | None = None,
                  early: bool = True) -> str:
        return self.seats.gm_orders(game, power, text, now, out, message_id, uid, early)

    def handle_mail(self, raw: bytes, uid: int | None = None,
                    arrived: float | None = None) -> list[Mail]:
        """Handle one raw mail (``arrived``: when the mailbox received it); returns the mails
        queued because of it (empty when the mail was seen before, is automatic, or must
        not be answered: see :mod:`.loops`)."""
        inc = parse_mail(raw, max_body=self.config.max_body_bytes, own_text=self._own_line)
        inc = dataclasses.replace(inc, arrived=arrived)
        if inc.reply_to == self.config.address.lower():  # answering the judge loops: answer
            inc = dataclasses.replace(inc, reply_to=inc.sender)  # the one who wrote instead
        now = self.clock()
        with self.store.transaction():
            if uid is not None and self.store.uid_seen(uid):
                return []
            if self.store.mail_seen(inc.message_id):
                if uid is not None:
                    self.store.set_mail_uid(inc.message_id, uid)
                return []
            read = self.habits.read_signons(inc)  # njudge's SIGNON Fvet: SIGNON vet F
            inc = dataclasses.replace(inc, body=read.body)
            parsed = self._game_first(parse_body(inc.body), inc.body)
            if not any(parsed.first(word) for word in ("signon", "gm", "create")):
                inc = _at_from(inc)  # (a sign-on that fails is, too: below)
            ignored = self._ignored(inc, parsed)
            if ignored:
                self.store.after_commit(functools.partial(
                    log.info, "ignored %s from %r: %s", inc.message_id, inc.sender, ignored))
                self.store.record_mail(inc.message_id, uid, inc.sender, inc.subject, now,
                                       f"ignored: {ignored}")
                told: list[Mail] = []
                if inc.auto:  # a bounce of the judge's mail to a player: the GM is told
                    self.notices.bounce_notice(raw, now, told)
                self.queue(told, now)
                return []
            out: list[Mail] = []
            outcome = "handled"
            signed_on = False
            try:
                with self.store.savepoint():
                    try:
                        reply, signed_on = self._handle(inc, parsed, uid, now, out,
                                                        read.notes)
                    except JudgeError as exc:
                        reply = str(exc)
            except Exception:  # a bug: its effects are undone; apologise, log it, carry on
                log.exception("mail %s from %s could not be handled", inc.message_id,
                              inc.sender)
                out.clear()
                outcome = "failed"
                reply = ("The judge could not handle your mail because of an internal error; "
                         "nothing in it was done. The GM can look into it; please try again "
                         "later or write to your GM.")
            if outcome == "failed" or inc.unreadable:
                self.notices.unreadable_notice(inc, outcome == "failed", now, out)
            own = not copies_judge_inline(inc, self._own_line)
            kind = reply_kind(parsed, signed_on, inc.quotes_judge, own,
                              orders=not signed_on and self.unsigned.gives_orders(inc, parsed))
            if not signed_on:
                inc = _at_from(inc)
            withheld = self.limits.answer(inc, reply, kind, now, out,
                                          text_digest(inc.body) if own else "")
            if withheld:
                outcome = f"{outcome}, not answered: {withheld}"
            self.store.record_mail(inc.message_id, uid, inc.sender, inc.subject, now, outcome)
            self.store.after_commit(functools.partial(  # said once it is stored, not before
                log.info, "%s %s (uid %s) from %s: %d mail(s) queued", outcome, inc.message_id,
                uid, inc.sender, len(out)))
            self.queue(out, now, auto="auto-replied")
            return out

    def player_mail(
        self, s: Session, parsed: ParsedMail, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        """A signed-on player's mail: its orders, its commands, its press."""
        game, power = s.game, s.power
        assert power is not None
        host = host_for(game.kind)
        reply: list[str | None] = []
        parsed = signed_off(game, parsed, power)  # "RESIGN", "Dmitri": no orders
        # the lines of this mail the judge could not take: READY waits for a mail without any
        rejected = [f"line {e.line} ({e.text})" for e in parsed.errors]
        phase_cmd = parsed.first("phase")
        stale = phase_cmd is not None and game.state is not None and (
            phase_cmd.args["value"].strip().upper() != host.phase(game.state).upper()
        )
        orders = ""
        phases = [c for c in parsed.commands if c.name == "phase"]
        if parsed.order_lines and len({c.args["value"].strip().upper() for c in phases}) > 1:
            # one mail, one phase: orders under a second PHASE line went with the first
            named = ", ".join(f"{c.args['value'].strip().upper()} (line {c.line})"
                              for c in phases)
            rejected.append(f"line {phases[1].line} ({phases[1].text})")
            orders = (f"Orders not taken: this mail names more than one phase ({named}), and "
                      "the orders of a mail are for one phase. Send the orders of each phase "
                      "in a mail of its own; the orders you had stand.")
        elif parsed.order_lines and parsed.first("resign") is not None:
            orders = self.players.resigned_with(game, power, parsed)
        elif parsed.order_lines:
            if stale:
                assert phase_cmd is not None
                orders = self.players.orders_early(game, power, phase_cmd, parsed, inc, uid, now,
                                                   out, rejected)
            else:
                orders = self.players.orders(game, power, parsed, inc, uid, now, out, rejected)
        reply.append(orders or _stray_lines(parsed))
        if isinstance(host, DiplomacyHost):  # "how do I build?": answered, not set aside
            reply += registry.asked_how(parsed.order_lines)
        ctx = Context(self, now, out, inc, game, power, uid, inc.message_id, rejected, stale)
        for cmd in parsed.commands:
            try:
                reply.append(registry.do(ctx, cmd))
            except JudgeError as exc:
                reply.append(str(exc))
            ctx.game = self.store.game(game.name) or ctx.game
        game = ctx.in_game
        for number, press in enumerate(parsed.press, 1):
            if number > MAX_PRESS_PER_MAIL:
                reply.append(f"Press refused: at most {MAX_PRESS_PER_MAIL} press messages in "
                             f"one mail; the {len(parsed.press) - MAX_PRESS_PER_MAIL} after "
                             "them were not sent.")
                break
            held = self.players.unended_press(game, power, press)
            if held is not None:
                reply.append(held)
                continue
            try:
                reply.append(self.players.press(game, power, press.targets, press.grey,
                                                press.text, now, out, press.but))
            except JudgeError as exc:
                reply.append(str(exc))
        game = self.store.game(game.name) or game
        if not (orders or parsed.press or parsed.errors or _acts(parsed)):
            reply.append(self.players.nothing_done(game, power, parsed, bool(inc.attachments)))
        self.turns.maybe_early(game, now, out)
        # what is due now and by when: after the moves played at once (a card game's move,
        # the last READY), the move or phase now due, not the one just played
        game = self.store.game(game.name) or game
        player = self.store.player(game.name, power)
        gone = player is None or player.status == "out"  # resigned: a goodbye, no more
        if game.status == "active" and game.state is not None and not gone:
            free = host.free_commands(game.state, power)
            if free:
                reply.append("Out of turn, at any time now, you may also send: "
                             + "; ".join(free))
            reply.append(f"Deadline for {host.phase_label(game.state)}: "
                         f"{reports.stamp(game.deadline)}")
        return "\n\n".join(r for r in reply if r)

    def gm_mail(
        self, s: Session, parsed: ParsedMail, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        """A GM's mail: the commands, messages to the players, orders for a power."""
        reply: list[str | None] = []
        for cmd in parsed.commands:
            if registry.spec(cmd.name).is_open:  # the address's, not the GM's: not recorded
                reply.append(registry.do(Context(self, now, out, inc, s.game, None, uid,
                                                 inc.message_id), cmd))
                continue
            try:
                reply.append(self.gm_command(s.game.name, cmd, now, out, inc.message_id, uid,
                                             inc))
            except (JudgeError, HostError) as exc:
                reply.append(f"{cmd.name.upper()}: {exc}")
        for press in parsed.press:  # GM press goes to the players named (or everyone)
            game = self.store.game(s.game.name) or s.game
            held = self.players.unended_press(game, None, press)
            if held is not None:
                reply.append(held)
                continue
            players = self.store.players(game.name)
            host = host_for(game.kind)
            everyone = not press.but and any(t.upper() in EVERYONE for t in press.targets)
            named = {s for t in (press.but or press.targets) if t.upper() not in EVERYONE
                     for s in seats_named(host, game, t)}
            to = [p for p in players if everyone or (p.power in named) != bool(press.but)]
            watchers = self.store.watchers(game.name) if everyone else []
            for email in [p.email for p in to] + watchers:
                out.append(Mail(email, f"{game.name}: message from the GM",
                                f"{press.text}\n\n{self._sig()}", game=game.name))
            reply.append(f"GM message sent to {len(to)} player(s)"
                         + (f" and {len(watchers)} observer(s)." if watchers else "."))
        stray = [(n, t) for n, t in parsed.order_lines if not is_remark_in(s.game, t)]
        becomes = [c for c in parsed.commands if c.name == "become"]
        if becomes:
            reply.append(self.gm.gm_orders_by_mail(s.game, becomes, parsed, inc, uid, now, out))
        elif stray:
            reply.append("The GM does not give orders; lines not understood:\n" +
                         "\n".join(f"  line {n}: {t}" for n, t in stray))
        return "\n\n".join(r for r in reply if r)

    def gm_command(
        self, game_name: str, cmd: Command, now: float, out: list[Mail],
        message_id: str | None = None, uid: int | None = None, inc: Incoming | None = None,
    ) -> str:
        """Do one GM command (from mail: ``inc``, or from the command line) inside a
        transaction."""
        game = self.store.game(game_name)
        if game is None:
            raise JudgeError(f"no game {game_name!r}")
        handler = registry.spec(cmd.name).handler(game, None)
        if handler is by_the_mail:
            return ""
        self.store.record_command(game.name, "GM", message_id, uid, cmd.name, cmd.text, now)
        return handler(Context(self, now, out, inc, game, None, uid, message_id), cmd) or ""

    @property
    def _own_line(self) -> str:
        """The line every mail of the judge ends with: a mail quoting it answers the judge."""
        return self._sig().splitlines()[1]

    def _ignored(self, inc: Incoming, parsed: ParsedMail) -> str | None:
        """Why a mail gets no reply at all (and is only recorded), or None."""
        if inc.auto == AWAY_SUBJECT and parsed.commands:
            pass  # "Away next week" with SIGNON and ABSENCE: a person's mail, answered
        elif inc.auto or not inc.reply_to:
            return inc.auto or "no sender"
        if self.config.address.lower() in (inc.sender, inc.reply_to):
            return "from the judge itself"
        if self.limits.ignore_quote(inc, parsed):
            return "quotes the judge's mail and gives no command"
        return None

    def _handle(self, inc: Incoming, parsed: ParsedMail, uid: int | None, now: float,
                out: list[Mail], notes: tuple[str, ...] = ()) -> tuple[str, bool]:
        """The reply to a mail, and whether it signed on with a right password (or created
        a game): such mail comes from a person, not an auto-responder.  ``notes``: how
        another judge's sign-on line was read (:class:`~mobadj.judge.habits.Habits`)."""
        lines: list[str] = list(notes)
        if inc.truncated:
            lines.append(inc.truncated)
        if inc.unreadable:
            lines.append(f"The judge could not read the text of your mail: {inc.unreadable}. "
                         "Nothing in it was done; please send your commands as plain text "
                         "in the mail itself.")
        elif inc.attachments:
            lines.append(set_aside(inc.attachments, bool(parsed.press)))
        for err in parsed.errors:
            lines.append(f"Error: {err}")
        session: Session | None = None
        signon = parsed.first("signon") or parsed.first("gm")
        create = parsed.first("create")
        if create is not None:
            message, game = self.gm.mail_create(inc, create, now, out)
            lines.append(message)
            if game is None:
                return "\n".join(lines), False
            # the creator goes on as the new game's GM (ADDPLAYER, START in the same mail)
            session = Session(game, None, inc.sender)
            signon = None
        if signon is not None:
            session, message = self._sign_on(inc, signon, now, out)
            if session is None:
                lines.append(message)
                return "\n".join(lines), False
            lines.append(message)
            self.store.record_command(session.game.name, session.power or "GM", inc.message_id,
                                      uid, "signon", signon.text, now)
            if session.power is not None:
                self.accounts.foreign_sender_notice(session, inc, now, out)
        if session is None:
            return "\n".join(lines + [self._anonymous(inc, parsed, now, out)]), False
        if session.power is None:
            lines.append(self.gm_mail(session, parsed, inc, uid, now, out))
        else:
            lines.append(self.player_mail(session, parsed, inc, uid, now, out))
        return "\n".join(x for x in lines if x), True

    def _game_first(self, parsed: ParsedMail, body: str) -> ParsedMail:
        """After SIGNON to a game whose commands share words with the judge's (Micro City's
        ``start a3``, Iron Triangle's ``offer 2``), read the mail again giving the game's
        words precedence; after a GM's sign-on, under each ``ORDERS FOR <seat>`` only."""
        signon = parsed.first("signon")
        gm = parsed.first("gm") if signon is None and parsed.first("become") else None
        sign = signon or gm
        game = self.store.game(sign.args["game"].lower()) if sign is not None else None
        if game is None:
            return parsed
        try:
            words = host_for(game.kind).command_words(game.state)
        except HostError:
            return parsed
        return parse_body(body, words, in_sections=gm is not None) if words else parsed

    def _anonymous(self, inc: Incoming, parsed: ParsedMail, now: float, mails: list[Mail]
                   ) -> str:
        """A mail without sign-on: HELP, LIST and the open commands (CONFIRM, JOIN, WATCH
        ...) work; the rest asks to sign on."""
        out = []
        form = self.unsigned.what_to_send(inc, parsed) if parsed.order_lines or parsed.press else ""
        ctx = Context(self, now, mails, inc, message_id=inc.message_id)
        for cmd in parsed.commands:
            if cmd.name in PRESS_WORDS and form:
                continue  # the form below has it, ready to send
            said = registry.do(ctx, cmd)
            if said is not None:
                out.append(said)
        if form:
            out.append(form)
        elif (parsed.order_lines and not out and not parsed.press
              and not self.store.players_by_email(inc.sender)
              and not self.unsigned.gives_orders(inc, parsed)):
            out.append(self.unsigned.newcomer(inc, parsed))  # "I'd like to join fall26!"
        elif parsed.order_lines and (not out or self.unsigned.orders_attempted(inc, parsed)):
            out.append("Orders need a sign-on first: " + registry.usage("signon"))
        if parsed.order_lines:
            for number, word in parsed.near_commands.items():
                out.append(f"line {number}: unknown command (did you mean '{word.upper()}'?)")
        if not out:
            out.append("The judge found no command in your mail."
                       + (f" {SIGNOFF_ALONE}" if parsed.signoff else "")
                       + "\n\n" + help_text(None))
        return "\n\n".join(out)

    def list_games(self, name: str | None = None) -> str:
        """LIST: the public games, those taking players and the seats waiting for one;
        ``LIST <game>``: only what of that game (a public one) the list shows."""
        games = [g for g in self.store.games() if self.store.web_key(g.name) is None]
        if name:  # private games are not listed: one is "no game" here as on the pages
            one = [g for g in games if g.name == name.strip().lower()]
            if not one:
                return (f"LIST: no public game {name!r} on this judge.\n\n"
                        + self.list_games())
            games = one
        rows = [f"{g.name:<16} {g.kind:<12} {g.status:<8} {g.phase}" + (
                    f"  result: {self.endings.result_line(self.store.ending(g.name), g)}"
                    if g.status == "ended" else "") + self._listed_rules(g)
                for g in games]
        text = ("Games on this judge:\n" if not name else "") + (
            "\n".join(rows) if rows else "(none)")
        forming = self.forming.forming_list([g.name for g in games])
        if forming:
            text += "\n\nGames taking players:\n" + "\n".join(forming)
        takeovers = [f"{g.name}: {', '.join(written(host_for(g.kind), g.options, seats))}   "
                     f"(TAKEOVER {g.name} <power>)"
                     for g in games for seats in [self.seats.open_seats(g)] if seats]
        if takeovers:
            text += "\n\nPowers waiting for a new player:\n" + "\n".join(takeovers)
        return text

    def _listed_rules(self, game: Game) -> str:
        """A game's ``Rules:`` line under its row of LIST, so whoever may join, watch or
        take over sees them first; a game taking players shows them in that list instead."""
        rules = self.rules_line(game)
        return f"\n  {rules}" if rules and not self.forming.takes_players(game) else ""

    def public_summary(self, inc: Incoming, name: str | None) -> str:
        """SUMMARY <game> without a sign-on: any public game (a private one to its GM and
        players), without addresses."""
        game = self.store.game(name.lower()) if name else None
        if game is None or (self.store.web_key(game.name) is not None
                            and not self.seats.knows_private(inc, game)):
            return (f"SUMMARY: no game {name!r}; send LIST for the games on this judge."
                    if name else f"SUMMARY: name the game: {registry.usage('summary')}")
        return summary_text(self.store, game, gm_view=False)

    def _sign_on(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]
                 ) -> tuple[Session | None, str]:
        """SIGNON (or GM): the session, or the refusal.  Wrong passwords are slowed down by
        :class:`~mobadj.judge.throttle.PasswordThrottle` (per address and per seat; a right
        one always passes), and the seat's player is told of them."""
        args = cmd.args
        game_name = args["game"].lower()
        game = self.store.game(game_name)
        names: Names | None = None
        power: str | None = None
        owner: str | None = game.gm_email if game is not None else None
        if game is not None and cmd.name == "signon":
            with contextlib.suppress(HostError):  # every name and alias, of several words
                names = Names(host_for(game.kind), game.options)
                power = names.find(args["power"])
            player = self.store.player(game.name, power) if power else None
            owner = player.email if player is not None else None
        target = "GM" if cmd.name == "gm" else power or fold(args["power"])
        seat = f"{game_name}:{target}"
        own = inc.sender == owner
        throttle = PasswordThrottle(self.store)
        wait = throttle.wait(inc.sender, seat, own, now)
        if wait:  # the password is not checked: nothing is said of it, right or wrong
            return None, (f"Too many wrong sign-ons from your address: the judge checks a "
                          f"password from it again from {reports.stamp(now + wait)} (in "
                          f"{reports.duration(max(wait, 60))}); the one just sent was not "
                          "checked.")
        stored = _DUMMY_HASH
        if game is not None:
            if cmd.name == "gm":
                # the GM acts from their own address and with the GM password
                if own or inc.sender in self.config.gm_addresses:
                    stored = game.gm_hash
            else:
                player = self.store.player(game.name, power) if power else None
                if player is not None:
                    stored = player.pw_hash
        ok = verify_password(args["password"], stored) and stored is not _DUMMY_HASH
        if not ok or game is None:
            throttle.failed(inc.sender, seat, own, now)
            if owner and not own and power:
                self._wrong_password_notice(game_name, power, owner, inc, throttle, now, out)
            if (names is not None and power is None and game is not None
                    and self.store.web_key(game.name) is None):  # a public game's powers
                shown = names.masked(args["power"])  # never the password written in it
                which = names.unknown(shown)
                return None, UNKNOWN_POWER.format(which if which.endswith("?") else which + ".") + (
                    "\nYour password goes last on the SIGNON line, with nothing after it."
                    if "***" in shown.split() else "") + "\n" + FORGOT_LINE
            if game is not None and names is not None and power and not own:
                return None, REFUSED + self._open_seat(inc, game, power, names)
            swapped = (self.seats.visible_game(inc, args["power"])
                       if game is None and cmd.name == "signon" else None)
            if swapped is not None:  # SIGNON France vet <password>: the game comes first
                return None, (f"{REFUSED}\nThe game comes first on the SIGNON line: "
                              f"SIGNON {swapped.name} {args['game']} <password>.")
            return None, REFUSED
        assert game is not None
        if cmd.name == "gm":
            return Session(game, None, inc.sender), f"Signed on as GM of {game.name}."
        assert power is not None and names is not None
        label = names.label(power)
        if label == power and power.isupper():
            label = power.title()
        return Session(game, power, inc.sender), f"Signed on as {label} in {game.name}."

    def _open_seat(self, inc: Incoming, game: Game, power: str, names: Names) -> str:
        """For a sign-on refused on a power waiting for a new player (njudge's replacement
        signs on to it): the TAKEOVER line to send, as LIST shows it to anyone; "" when the
        power has a player or the sender may not name the game."""
        if self.seats.visible_game(inc, game.name) is None or \
                power not in self.seats.open_seats(game):
            return ""
        label = names.label(power)
        return (f"\n{label} is open for a new player: to take it over, send "
                f"TAKEOVER {game.name} {label}.")

    def _wrong_password_notice(self, game: str, power: str, owner: str, inc: Incoming | None,
                               throttle: PasswordThrottle, now: float, out: list[Mail]) -> None:
        """Tell a seat's player (at most once an hour) that wrong passwords were tried;
        ``inc``: the latest of them (None: told later, :meth:`tell_wrong_passwords`)."""
        told = throttle.notice(f"{game}:{power}", now)
        if told is None:
            return
        count, since = told
        if inc is not None:
            latest = f"the latest from {inc.sender}"
        else:
            at = self.store.last_auth_failure(f"seat:{game}:{power}")
            latest = f"the latest at {reports.stamp(at if at is not None else now)}"
        played = self.store.game(game)
        name = power  # as the game names it (Al Capone, not capone)
        if played is not None:
            with contextlib.suppress(HostError):  # a kind this installation cannot play
                (name,) = written(host_for(played.kind), played.options, [power])
        out.append(Mail(owner, f"{game}: wrong passwords for {name}", (
            f"Someone tried to sign on as {name} in {game} with a wrong password: "
            f"{count} time{'s' if count != 1 else ''} since {reports.stamp(since)}, "
            f"{latest}.\n\n"
            f"Your password still works: the judge refuses the wrong ones and makes the "
            f"address that sends them wait. If it was not you and you think your password "
            f"may be known, change it:\n  SIGNON {game} {name} <password>\n"
            f"  SET PASSWORD <new password>\n\n{self._sig()}"), game=game))

    def tell_wrong_passwords(self, now: float) -> list[Mail]:
        """Tell each seat's player of the wrong passwords tried since the last notice, once
        it is an hour old (:meth:`PasswordThrottle.untold`); returns the mails queued."""
        out: list[Mail] = []
        with self.store.reading():  # most rounds: nothing to tell, nothing written
            if not PasswordThrottle(self.store).untold(now):
                return out
        with self.store.transaction():
            throttle = PasswordThrottle(self.store)
            for seat in throttle.untold(now):
                game, _, power = seat.partition(":")
                player = self.store.player(game, power)
                if player is not None and player.status != "out":
                    self._wrong_password_notice(game, power, player.email, None, throttle,
                                                now, out)
            self.queue(out, now)
        return out

    def export(self, name: str) -> dict[str, Any]:
        """Everything about a game except password hashes: enough to replay it once it is
        over (until then the host keeps out what decides the game to come: a card game's
        seed and salt, :meth:`Host.exported_state`)."""
        game = self.store.game(name)
        if game is None:
            raise JudgeError(f"no game {name!r}")
        host: Host | None
        try:
            host = host_for(game.kind)
            over = game.status == "ended" or (game.state is not None
                                              and host.is_over(game.state))
        except HostError:  # a kind this installation cannot play: its states as stored
            host, over = None, False

        def shown(state: Any) -> Any:
            return state if state is None or host is None else host.exported_state(state, over)

        results = [dict(r, state_before=shown(r["state_before"]),
                        state_after=shown(r["state_after"]))
                   for r in self.store.results(name, include_rolled_back=True)]
        data = {
            "game": game.name, "kind": game.kind, "status": game.status,
            "options": game.options, "seed": game.seed, "phase": game.phase,
            "state": shown(game.state), "deadline": game.deadline,
            "players": [{"power": p.power, "email": p.email, "status": p.status,
                         "nmr_total": p.nmr_total} for p in self.store.players(name)],
            "results": results,
            "commands": self.store.commands(name),
            "press": self.store.press(name),
            "events": self.store.events(name),
            "watchers": self.store.watchers(name),
            "tenures": self.store.tenures(name),
            "ending": self.store.ending(name),
        }
        return data if host is None else host.exported(data, game.state, over)


def set_aside(attachments: tuple[str, ...], press: bool) -> str:
    """The reply's word on a mail's attachments: every one named, and, for a mail with
    press, that none went with it (the judge keeps no attachment: it passes on text only)."""
    names = ", ".join(attachments)
    if press:
        return (f"The judge does not open attachments ({names}): only the text of your mail "
                "was read, and your press went without them: press passes on only its own "
                "text. Put orders, commands and press in the mail itself.")
    return (f"The judge does not open attachments ({names}): only the text of your mail was "
            "read. Put orders and commands in the mail itself.")


def _stray_lines(parsed: ParsedMail) -> str:
    """The lines between two commands that are neither an order nor a command (``WHEN``
    between ``PREVIEW`` and ``LIST``): they did nothing, and the player is told so (lines
    before the first command and after the last are remarks, set aside without a word)."""
    at = [c.line for c in parsed.commands if c.name not in ("signon", "gm")]
    if len(at) < 2:
        return ""
    said = []
    for number, line in parsed.order_lines:
        if min(at) < number < max(at):
            near = parsed.near_commands.get(number)
            why = (f"did you mean the command '{near.upper()}'?" if near else
                   "it is no order, and " + registry.no_such_command(line)
                   if len(line.split()) == 1 else "it is no order nor command")
            said.append(f"Line {number} ({line}) did nothing: {why}")
    return "\n".join(said)


def _acts(parsed: ParsedMail) -> bool:
    """Does a signed-on mail give a command (more than its sign-on, ORDERS or PHASE)?"""
    return any(c.name not in ("signon", "orders", "phase") for c in parsed.commands)


def _at_from(inc: Incoming) -> Incoming:
    """A mail that does not sign on with a password is answered at its From:, never at its
    Reply-To: what the answer tells (a private game, the seats and games of the address)
    is what the From: address may see, and anyone can write any From:."""
    return dataclasses.replace(inc, reply_to=inc.sender)
