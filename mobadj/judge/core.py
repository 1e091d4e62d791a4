"""The judge itself, working on messages in memory: ``handle_mail(raw) -> mails to send`` and
``tick()`` for deadlines.  Mail in and out (IMAP, SMTP) is :mod:`mobadj.judge.service`'s job.

Every mail is handled in one store transaction that also records its Message-ID (and IMAP
UID) and queues its replies in the outbox, so a mail's effect happens exactly once.
Resolving a phase is one transaction too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from mobadj.judge import reports
from mobadj.judge.commands import USAGE, Command, ParsedMail, parse_body
from mobadj.judge.config import JudgeConfig
from mobadj.judge.deadlines import DEFAULTS, HOUR, Action, decide, option
from mobadj.judge.hosts import Host, HostError, host_for
from mobadj.judge.mailparse import Incoming, parse_mail
from mobadj.judge.store import Game, Mail, Store, hash_password, verify_password

log = logging.getLogger("mobadj.judge")
REFUSED = (
    "Sign-on refused: the game, power or password is not right.\n"
    "(For your safety the judge does not say which.)"
)
# Failed sign-ons: after FREE_FAILURES in the window, each further attempt must wait
# 2**k minutes since the last one (k = failures beyond the free ones), up to a day.
FREE_FAILURES = 3
FAIL_WINDOW = 24 * HOUR
PRESS_OPTIONS = ("none", "white", "grey")
_DUMMY_HASH = hash_password("not a password", n=2**14)


class JudgeError(Exception):
    """A GM or player request that cannot be done; the message is the reply."""


@dataclass
class Session:
    """Who a mail speaks for after sign-on."""

    game: Game
    power: str | None  # None for the GM
    email: str


class Judge:
    """One judge: a store, a configuration, a clock."""

    def __init__(
        self,
        store: Store,
        config: JudgeConfig,
        clock: Callable[[], float] = time.time,
        kdf_n: int = 2**14,
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.kdf_n = kdf_n
        self.tz = ZoneInfo(config.timezone)

    # ================================================================ mail in
    def handle_mail(self, raw: bytes, uid: int | None = None) -> list[Mail]:
        """Handle one raw mail; returns the mails queued because of it (empty when the mail
        was seen before or is automatic)."""
        inc = parse_mail(raw, max_body=self.config.max_body_bytes)
        now = self.clock()
        with self.store.transaction():
            seen = uid is not None and self.store.uid_seen(uid)
            if seen or self.store.mail_seen(inc.message_id):
                return []
            if inc.auto or not inc.reply_to:
                log.info("ignored %s from %r: %s", inc.message_id, inc.sender,
                         inc.auto or "no sender")
                self.store.record_mail(
                    inc.message_id, uid, inc.sender, inc.subject, now, f"ignored: {inc.auto}"
                )
                return []
            if inc.reply_to.lower() == self.config.address.lower():
                self.store.record_mail(inc.message_id, uid, inc.sender, inc.subject, now,
                                       "ignored: from the judge itself")
                return []
            out: list[Mail] = []
            try:
                reply = self._handle(inc, uid, now, out)
            except JudgeError as exc:
                reply = str(exc)
            subject = "Re: " + (inc.subject or "your mail to the judge")
            if not subject.lower().startswith("re: re:"):
                subject = subject[:120]
            out.insert(0, Mail(inc.reply_to, subject, reply + "\n" + self._sig(),
                               headers={"In-Reply-To": inc.message_id}))
            self.store.record_mail(inc.message_id, uid, inc.sender, inc.subject, now, "handled")
            log.info("handled %s (uid %s) from %s: %d mail(s) queued", inc.message_id, uid,
                     inc.sender, len(out))
            for m in out:
                m.headers.setdefault("Auto-Submitted", "auto-replied")
                m.id = self.store.queue(m, now)
            return out

    def _sig(self) -> str:
        return reports.signature(self.config.name, self.config.address)

    def _handle(self, inc: Incoming, uid: int | None, now: float, out: list[Mail]) -> str:
        parsed = parse_body(inc.body)
        lines: list[str] = []
        if inc.truncated:
            lines.append("Your mail was very long; only its beginning was read.")
        for err in parsed.errors:
            lines.append(f"Error: {err}")
        session: Session | None = None
        signon = parsed.first("signon") or parsed.first("gm")
        create = parsed.first("create")
        if create is not None:
            lines.append(self._mail_create(inc, create, now, out))
            return "\n".join(lines)
        if signon is not None:
            session, message = self._sign_on(inc, signon, now)
            if session is None:
                lines.append(message)
                return "\n".join(lines)
            lines.append(message)
            self.store.record_command(session.game.name, session.power or "GM", inc.message_id,
                                      uid, "signon", signon.text, now)
        if session is None:
            return "\n".join(lines + [self._anonymous(parsed)])
        if session.power is None:
            lines.append(self._gm_mail(session, parsed, inc, uid, now, out))
        else:
            lines.append(self._player_mail(session, parsed, inc, uid, now, out))
        return "\n".join(x for x in lines if x)

    def _anonymous(self, parsed: ParsedMail) -> str:
        """A mail without sign-on: HELP and LIST of games work; the rest asks to sign on."""
        out = []
        for cmd in parsed.commands:
            if cmd.name == "help":
                out.append(help_text(cmd.args.get("value")))
            elif cmd.name == "list":
                out.append(self._list_games())
            else:
                out.append(f"{cmd.name.upper()}: please sign on first: {USAGE['signon']}")
        if parsed.order_lines:
            out.append("Orders need a sign-on first: " + USAGE["signon"])
            for number, word in parsed.near_commands.items():
                out.append(f"line {number}: unknown command (did you mean '{word.upper()}'?)")
        if not out:
            out.append("The judge found no command in your mail.\n\n" + help_text(None))
        return "\n\n".join(out)

    def _list_games(self) -> str:
        rows = [f"{g.name:<16} {g.kind:<12} {g.status:<8} {g.phase}" for g in self.store.games()]
        return "Games on this judge:\n" + ("\n".join(rows) if rows else "(none)")

    # ================================================================ authentication
    def _throttled(self, keys: list[str], now: float) -> bool:
        for key in keys:
            fails = self.store.auth_failures(key, now - FAIL_WINDOW)
            if fails >= FREE_FAILURES:
                row = self.store.db.execute(
                    "SELECT MAX(at) FROM auth_failures WHERE key=?", (key,)
                ).fetchone()
                wait = min(2 ** (fails - FREE_FAILURES) * 60, 24 * HOUR)
                if row[0] is not None and now < row[0] + wait:
                    return True
        return False

    def _sign_on(self, inc: Incoming, cmd: Command, now: float) -> tuple[Session | None, str]:
        args = cmd.args
        game_name = args["game"].lower()
        game = self.store.game(game_name)
        target = args["power"].strip().lower() if cmd.name == "signon" else "gm"
        if game is not None and cmd.name == "signon":
            # one key per seat whatever its spelling (ENG, England, E)
            with contextlib.suppress(HostError):
                target = host_for(game.kind).seat(game.options, args["power"]).lower()
        # failures count per sender address and per seat attacked (existing or not)
        keys = [f"from:{inc.sender}", f"seat:{game_name}:{target}"]
        if self._throttled(keys, now):
            for k in keys:
                self.store.add_auth_failure(k, now)
            return None, REFUSED + "\nToo many failed sign-ons: wait a while before trying again."
        power: str | None = None
        stored = _DUMMY_HASH
        if game is not None:
            if cmd.name == "gm":
                # the GM acts from their own address and with the GM password
                if inc.sender == game.gm_email or inc.sender in self.config.gm_addresses:
                    stored = game.gm_hash
            else:
                try:
                    power = host_for(game.kind).seat(game.options, args["power"])
                except HostError:
                    power = None
                player = self.store.player(game.name, power) if power else None
                if player is not None:
                    stored = player.pw_hash
        ok = verify_password(args["password"], stored) and stored is not _DUMMY_HASH
        if not ok or game is None:
            for k in keys:
                self.store.add_auth_failure(k, now)
            return None, REFUSED
        if cmd.name == "gm":
            return Session(game, None, inc.sender), f"Signed on as GM of {game.name}."
        assert power is not None
        label = power.title() if power.isupper() else power
        return Session(game, power, inc.sender), f"Signed on as {label} in {game.name}."

    # ================================================================ players
    def _player_mail(
        self, s: Session, parsed: ParsedMail, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        game, power = s.game, s.power
        assert power is not None
        host = host_for(game.kind)
        reply: list[str] = []
        phase_cmd = parsed.first("phase")
        stale = phase_cmd is not None and game.state is not None and (
            phase_cmd.args["value"].strip().upper() != host.phase(game.state).upper()
        )
        if parsed.order_lines:
            if stale:
                assert phase_cmd is not None
                reply.append(
                    f"Orders refused: they were meant for {phase_cmd.args['value']}, but the "
                    f"game is now in {host.phase(game.state)}. Send orders for the current phase."
                )
            else:
                reply.append(self._orders(game, power, parsed, inc, uid, now))
        for cmd in parsed.commands:
            if cmd.name in ("signon", "gm", "phase", "orders", "press", "broadcast"):
                continue
            try:
                reply.append(self._player_command(game, power, cmd, inc, uid, now, out))
            except JudgeError as exc:
                reply.append(str(exc))
            game = self.store.game(game.name) or game
        for press in parsed.press:
            try:
                reply.append(self._press(game, power, press.targets, press.grey, press.text, now,
                                         out))
            except JudgeError as exc:
                reply.append(str(exc))
        game = self.store.game(game.name) or game
        if game.status == "active" and game.state is not None:
            reply.append(f"Deadline for {host.phase_label(game.state)}: "
                         f"{reports.when(game.deadline, self.tz)}")
        self._maybe_early(game, now, out)
        return "\n\n".join(r for r in reply if r)

    def _orders(
        self, game: Game, power: str, parsed: ParsedMail, inc: Incoming, uid: int | None,
        now: float,
    ) -> str:
        host = host_for(game.kind)
        if game.status not in ("active", "paused") or game.state is None:
            return f"Orders not accepted: game {game.name} is {game.status}."
        phase = host.phase(game.state)
        if power not in host.due(game.state):
            return f"No orders are needed from {power} in {host.phase_label(game.state)}."
        check = host.check(game.state, power, parsed.order_text)
        lines = [f"Orders for {power}, {host.phase_label(game.state)}, as the judge reads them:"]
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
        if not check.accepted:
            lines.append("Nothing was accepted, so your earlier orders for this phase (if any) "
                         "stand.")
            return "\n".join(lines)
        self.store.set_orders(game.name, phase, power, check.text, now, inc.message_id)
        self.store.record_command(game.name, power, inc.message_id, uid, "orders",
                                  check.text, now)
        player = self.store.player(game.name, power)
        if player is not None and player.status == "disorder":  # back from civil disorder
            self.store.update_player(game.name, power, status="active", nmr_streak=0)
            lines.append(f"{power} is no longer in civil disorder. Welcome back.")
        if check.errors:
            lines.append("Your earlier orders for this phase, if any, are replaced by the ones "
                         "above; send the whole set again to correct them.")
        return "\n".join(lines)

    def _player_command(
        self, game: Game, power: str, cmd: Command, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        host = host_for(game.kind)
        name = cmd.name
        if name == "help":
            return help_text(cmd.args.get("value"))
        if name == "list":
            return self._status(game, power)
        if name == "history":
            return self._history(game, cmd.args.get("value"))
        if name in ("ready", "notready"):
            if game.state is None or power not in host.due(game.state):
                return "READY: no orders are due from you now."
            self.store.update_player(game.name, power, ready=int(name == "ready"))
            self.store.record_command(game.name, power, inc.message_id, uid, name, name, now)
            if name == "notready":
                return "READY withdrawn."
            phase = host.phase(game.state)
            extra = ""
            if power not in self.store.orders(game.name, phase):
                # READY without orders is an answer: "nothing to order" (units hold/defaults)
                self.store.set_orders(game.name, phase, power, "", now, inc.message_id)
                extra = " You gave no orders: the rules' defaults apply to your units."
            return ("Marked READY: the phase is resolved early when every power is ready."
                    + extra)
        if name == "preview":
            if game.state is None:
                raise JudgeError("PREVIEW: the game has not started.")
            orders = self.store.orders(game.name, host.phase(game.state)).get(power, "")
            return "Preview (the others all hold):\n" + host.preview(game.state, power, orders)
        if name == "absence":
            return self._absence(game, power, cmd.args["seconds"], inc, uid, now, out)
        if name == "password":
            new = cmd.args["value"]
            if len(new) < 6:
                raise JudgeError("PASSWORD: choose at least 6 characters.")
            self.store.update_player(game.name, power, pw_hash=hash_password(new, self.kdf_n))
            self.store.record_command(game.name, power, inc.message_id, uid, "password", "***",
                                      now)
            return "Password changed."
        return f"{name.upper()} is a GM command; sign on with GM <game> <gm-password>."

    def _absence(
        self, game: Game, power: str, seconds: float, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        player = self.store.player(game.name, power)
        assert player is not None
        quota = option(game.options, "absence_quota_days") * 24
        hours = seconds / HOUR
        if player.absence_used + hours > quota + 1e-9:
            left = max(0.0, quota - player.absence_used)
            raise JudgeError(f"ABSENCE refused: only {left:g} hours of your absence quota left.")
        if game.status != "active" or game.deadline is None:
            raise JudgeError("ABSENCE: there is no running deadline to move.")
        self.store.update_player(game.name, power, absence_used=player.absence_used + hours)
        new = max(game.deadline, now) + seconds
        self.store.update_game(game.name, deadline=new, reminded=0)
        self.store.record_command(game.name, power, inc.message_id, uid, "absence",
                                  f"{hours:g}h", now)
        self._announce(game, f"{game.name}: deadline moved",
                       f"A player has taken an absence. The deadline is now "
                       f"{reports.when(new, self.tz)}.", out, skip=power)
        return (f"Absence granted. The deadline is now {reports.when(new, self.tz)}; "
                f"{quota - player.absence_used - hours:g} hours of your quota left.")

    def _press(
        self, game: Game, power: str, targets: list[str], grey: bool, text: str, now: float,
        out: list[Mail],
    ) -> str:
        host = host_for(game.kind)
        mode = str(game.options.get("press", DEFAULTS["press"])).lower()
        if mode == "none":
            raise JudgeError("Press refused: this game is played without press.")
        if grey and mode != "grey":
            raise JudgeError("Press refused: this game allows only white press (signed).")
        if not text.strip():
            raise JudgeError("Press refused: the message is empty.")
        players = {p.power: p for p in self.store.players(game.name) if p.status != "out"}
        to_all = any(t.upper() in ("ALL", "EVERYONE", "BROADCAST") for t in targets)
        if to_all:
            recipients = [p for p in players if p != power]
        else:
            recipients = []
            for t in targets:
                try:
                    seat = host.seat(game.options, t)
                except HostError as exc:
                    raise JudgeError(f"Press refused: {exc}") from None
                if seat not in players:
                    raise JudgeError(f"Press refused: {seat} has no player.")
                if seat != power and seat not in recipients:
                    recipients.append(seat)
        if not recipients:
            raise JudgeError("Press refused: nobody to send it to.")
        phase = host.phase(game.state) if game.state is not None else "-"
        self.store.add_press(game.name, phase, power, recipients, grey, text, now)
        sender = "Anonymous (grey press)" if grey else power
        heading = f"Press in {game.name} from {sender} to " + (
            "everyone" if to_all else ", ".join(recipients)
        )
        deadline = (f"Deadline for {host.phase_label(game.state)}: "
                    f"{reports.when(game.deadline, self.tz)}\n\n"
                    if game.state is not None and game.status == "active" else "")
        for seat in recipients:
            out.append(Mail(players[seat].email, f"{game.name}: press from {sender}",
                            f"{heading}:\n\n{reports.wrap(text)}\n\n{deadline}{self._sig()}",
                            game=game.name))
        return f"Press delivered to {', '.join(recipients)}" + (" (anonymously)." if grey else ".")

    def _status(self, game: Game, power: str | None) -> str:
        host = host_for(game.kind)
        lines = [f"Game {game.name} ({host.title}), status: {game.status}"]
        if game.state is not None:
            lines.append(f"Phase: {host.phase_label(game.state)}")
            lines.append(f"Deadline: {reports.when(game.deadline, self.tz)}")
            submitted = self.store.orders(game.name, host.phase(game.state))
            due = host.due(game.state)
            players = {p.power: p for p in self.store.players(game.name)}
            for seat in host.seats(game.options):
                if seat not in players:
                    tag = "no player (civil disorder)"
                else:
                    pl = players[seat]
                    tag = "submitted" if seat in submitted else (
                        "waiting" if seat in due else "nothing due")
                    if pl.status == "disorder":
                        tag += ", civil disorder"
                    if pl.ready and seat in due:
                        tag += ", ready"
                lines.append(f"  {seat:<12} {tag}")
            view = host.status(game.state, power)
            if view:
                lines.append("")
                lines.append(view)
        return "\n".join(lines)

    def _history(self, game: Game, which: str | None) -> str:
        results = self.store.results(game.name)
        if not results:
            return "History: no phase has been resolved yet."
        if which and which.isdigit():
            results = results[-int(which):]
        elif which:
            results = [r for r in results if r["phase"].lower() == which.lower()] or results[-1:]
        else:
            results = results[-3:]
        return "\n\n".join(f"{r['phase']}\n{r['report']['text']}" for r in results)

    # ================================================================ GM
    def _gm_mail(
        self, s: Session, parsed: ParsedMail, inc: Incoming, uid: int | None, now: float,
        out: list[Mail],
    ) -> str:
        reply = []
        for cmd in parsed.commands:
            if cmd.name in ("gm", "signon"):
                continue
            try:
                reply.append(self.gm_command(s.game.name, cmd, now, out, inc.message_id, uid))
            except (JudgeError, HostError) as exc:
                reply.append(f"{cmd.name.upper()}: {exc}")
        for press in parsed.press:  # GM press goes to the players named (or everyone)
            game = self.store.game(s.game.name) or s.game
            players = self.store.players(game.name)
            host = host_for(game.kind)
            want = {t.upper() for t in press.targets}
            to = [p for p in players if "ALL" in want or p.power.upper() in want
                  or any(host.seat(game.options, t) == p.power for t in press.targets
                         if t.upper() != "ALL" and _is_seat(host, game, t))]
            for p in to:
                out.append(Mail(p.email, f"{game.name}: message from the GM",
                                f"{press.text}\n\n{self._sig()}", game=game.name))
            reply.append(f"GM message sent to {len(to)} player(s).")
        if parsed.order_lines:
            reply.append("The GM does not give orders; lines not understood:\n" +
                         "\n".join(f"  line {n}: {t}" for n, t in parsed.order_lines))
        return "\n\n".join(reply)

    def gm_command(
        self, game_name: str, cmd: Command, now: float, out: list[Mail],
        message_id: str | None = None, uid: int | None = None,
    ) -> str:
        """Do one GM command (from mail or from the command line) inside a transaction."""
        game = self.store.game(game_name)
        if game is None:
            raise JudgeError(f"no game {game_name!r}")
        a = cmd.args
        name = cmd.name
        self.store.record_command(game.name, "GM", message_id, uid, name, cmd.text, now)
        if name == "help":
            return help_text(a.get("value"))
        if name == "list":
            return self._status(game, None)
        if name == "history":
            return self._history(game, a.get("value"))
        if name == "addplayer":
            return self.add_player(game, a["email"], a["power"], a.get("password"), now, out)
        if name == "start":
            return self.start(game, now, out)
        if name == "deadline":
            ts = parse_when(a["when"], self.tz)
            self._require_running(game)
            self.store.update_game(game.name, deadline=ts, reminded=0)
            self._announce(game, f"{game.name}: new deadline",
                           f"The GM set the deadline to {reports.when(ts, self.tz)}.", out)
            return f"Deadline set: {reports.when(ts, self.tz)}"
        if name == "extend":
            self._require_running(game)
            assert game.deadline is not None
            ts = max(game.deadline, now) + a["seconds"]
            self.store.update_game(game.name, deadline=ts, reminded=0)
            self._announce(game, f"{game.name}: deadline extended",
                           f"The GM extended the deadline to {reports.when(ts, self.tz)}.", out)
            return f"Deadline extended to {reports.when(ts, self.tz)}"
        if name == "pause":
            return self.pause(game, a.get("seconds"), now, out)
        if name == "resume":
            return self.resume(game, now, out, by="the GM")
        if name == "replace":
            return self.replace(game, a["power"], a["email"], now, out)
        if name == "process":
            self._require_running(game)
            return self.resolve(game, now, out, forced=True)
        if name == "rollback":
            return self.rollback(game, now, out)
        if name == "endgame":
            self.store.update_game(game.name, status="ended", deadline=None)
            self._announce(game, f"{game.name}: game over", "The GM has ended the game.", out)
            return "Game ended."
        if name == "export":
            data = self.export(game.name)
            out.append(Mail(game.gm_email, f"{game.name}: export",
                            f"The whole history of {game.name} is attached (JSON).\n",
                            [(f"{game.name}.json", "application/json",
                              json.dumps(data, indent=1).encode())], game=game.name))
            return "Export mailed to the GM."
        if name == "set":
            return self.set_option(game, a["option"], a["value"])
        if name == "password":
            self.store.update_game(game.name, gm_hash=hash_password(a["value"], self.kdf_n))
            return "GM password changed."
        return f"{name.upper()} is a player command."

    def _require_running(self, game: Game) -> None:
        if game.status != "active":
            raise JudgeError(f"game {game.name} is {game.status}, not running")

    def create_game(
        self, name: str, kind: str, gm_email: str, gm_password: str | None,
        options: dict[str, Any] | None = None, seed: int | None = None,
    ) -> tuple[Game, str]:
        """Create a game; returns it and the GM password (generated when not given)."""
        name = name.lower()
        if not name.replace("-", "").replace("_", "").isalnum() or len(name) > 30:
            raise JudgeError("game names are letters, digits, - and _ (at most 30)")
        host = host_for(kind)
        if self.store.game(name) is not None:
            raise JudgeError(f"a game called {name} already exists")
        opts = dict(DEFAULTS) | dict(self.config.game_defaults) | dict(options or {})
        if str(opts.get("press")).lower() not in PRESS_OPTIONS:
            raise JudgeError(f"press must be one of {', '.join(PRESS_OPTIONS)}")
        password = gm_password or secrets.token_urlsafe(9)
        seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
        with self.store.transaction():
            self.store.create_game(name, host.kind, opts, seed, gm_email,
                                   hash_password(password, self.kdf_n), self.clock())
            self.store.log(name, "created", {"kind": host.kind, "options": opts}, self.clock())
        game = self.store.game(name)
        assert game is not None
        return game, password

    def _mail_create(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]) -> str:
        if inc.sender not in self.config.gm_addresses:
            return "CREATE refused: only the judge's GMs may create games."
        a = cmd.args
        try:
            game, _ = self.create_game(a["game"], a["kind"], inc.sender, a["password"],
                                       a["options"])
        except (JudgeError, HostError) as exc:
            return f"CREATE refused: {exc}"
        return (f"Game {game.name} ({game.kind}) created; you are its GM.\n"
                f"Add players with: GM {game.name} <password> / ADDPLAYER <email> <power>")

    def add_player(
        self, game: Game, email: str, power: str, password: str | None, now: float,
        out: list[Mail],
    ) -> str:
        host = host_for(game.kind)
        seat = host.seat(game.options, power)
        if "@" not in email:
            raise JudgeError(f"{email!r} is not an email address")
        if self.store.player(game.name, seat) is not None:
            raise JudgeError(f"{seat} already has a player (use REPLACE)")
        password = password or secrets.token_urlsafe(8)
        self.store.add_player(game.name, seat, email, hash_password(password, self.kdf_n))
        self.store.log(game.name, "player added", {"power": seat}, now)
        out.append(Mail(email, f"{game.name}: you play {seat}", (
            f"Welcome to {game.name} ({host.title}). You play {seat}.\n\n"
            f"Your password: {password}\n\n"
            f"Start each mail to the judge with:\n  SIGNON {game.name} {seat} {password}\n"
            f"then your orders or commands. Send HELP for the list of commands.\n\n"
            + self._sig()), game=game.name))
        return f"{seat} added: {email} (password mailed to them)."

    def start(self, game: Game, now: float, out: list[Mail]) -> str:
        if game.status != "forming":
            raise JudgeError(f"game {game.name} is already {game.status}")
        host = host_for(game.kind)
        players = self.store.players(game.name)
        if not players:
            raise JudgeError("add players first")
        state = host.new_state([p.power for p in players], game.seed, game.options)
        deadline = now + host.phase_hours(state, game.options) * HOUR
        self.store.update_game(game.name, status="active", state=state,
                               phase=host.phase(state), deadline=deadline, reminded=0,
                               extended=0)
        self.store.log(game.name, "started", {"phase": host.phase(state)}, now)
        game = self.store.game(game.name) or game
        for p in players:
            view = host.status(state, p.power)
            out.append(Mail(p.email, f"{game.name}: the game has started", (
                f"{game.name} has started. You play {p.power}.\n\n"
                f"Phase: {host.phase_label(state)}\n"
                f"Deadline: {reports.when(deadline, self.tz)}\n\n{view}\n\n{self._sig()}"),
                game=game.name))
        label = host.phase_label(state)
        return f"Game started: {label}, deadline {reports.when(deadline, self.tz)}"

    def pause(self, game: Game, seconds: float | None, now: float, out: list[Mail]) -> str:
        self._require_running(game)
        limit = option(game.options, "pause_max_days") * 86400
        seconds = min(seconds or limit, limit)
        left = (game.deadline - now) if game.deadline is not None else None
        self.store.update_game(game.name, status="paused", paused_until=now + seconds,
                               pause_left=left)
        self._announce(game, f"{game.name}: paused",
                       f"The GM paused the game. It resumes by itself on "
                       f"{reports.when(now + seconds, self.tz)} unless resumed earlier.", out)
        return f"Paused until {reports.when(now + seconds, self.tz)}."

    def resume(self, game: Game, now: float, out: list[Mail], by: str) -> str:
        if game.status != "paused":
            raise JudgeError(f"game {game.name} is not paused")
        host = host_for(game.kind)
        left = game.pause_left if game.pause_left is not None else (
            host.phase_hours(game.state, game.options) * HOUR)
        deadline = now + max(left, HOUR)
        self.store.update_game(game.name, status="active", paused_until=None, pause_left=None,
                               deadline=deadline, reminded=0)
        self._announce(game, f"{game.name}: resumed",
                       f"The game was resumed by {by}. Deadline: "
                       f"{reports.when(deadline, self.tz)}.", out)
        return f"Resumed; deadline {reports.when(deadline, self.tz)}."

    def replace(self, game: Game, power: str, email: str, now: float, out: list[Mail]) -> str:
        host = host_for(game.kind)
        seat = host.seat(game.options, power)
        old = self.store.player(game.name, seat)
        password = secrets.token_urlsafe(8)
        if old is None:
            self.store.add_player(game.name, seat, email, hash_password(password, self.kdf_n))
        else:
            self.store.update_player(game.name, seat, email=email.lower(),
                                     pw_hash=hash_password(password, self.kdf_n),
                                     status="active", nmr_streak=0, ready=0)
            out.append(Mail(old.email, f"{game.name}: you have been replaced",
                            f"The GM has given {seat} in {game.name} to another player. "
                            f"Thank you for playing.\n\n{self._sig()}", game=game.name))
        self.store.log(game.name, "replaced", {"power": seat}, now)
        out.append(Mail(email, f"{game.name}: you now play {seat}", (
            f"You take over {seat} in {game.name}.\n\nYour password: {password}\n\n"
            f"Sign on with:\n  SIGNON {game.name} {seat} {password}\n\n{self._sig()}"),
            game=game.name))
        return f"{seat} is now played by {email}."

    def set_option(self, game: Game, key: str, value: str) -> str:
        if key not in DEFAULTS:
            raise JudgeError(f"unknown option {key!r}; options: {', '.join(sorted(DEFAULTS))}")
        if key == "press" and value.lower() not in PRESS_OPTIONS:
            raise JudgeError(f"press must be one of {', '.join(PRESS_OPTIONS)}")
        self.store.update_game(game.name, options=game.options | {key: value})
        return f"Option {key} = {value}."

    # ================================================================ resolution
    def _announce(self, game: Game, subject: str, text: str, out: list[Mail],
                  skip: str | None = None) -> None:
        for p in self.store.players(game.name):
            if p.power != skip and p.status != "out":
                out.append(Mail(p.email, subject, f"{text}\n\n{self._sig()}", game=game.name))

    def _missing(self, game: Game) -> tuple[list[str], bool]:
        host = host_for(game.kind)
        submitted = self.store.orders(game.name, host.phase(game.state))
        players = {p.power: p for p in self.store.players(game.name)}
        missing = [s for s in host.due(game.state)
                   if s in players and players[s].status == "active" and s not in submitted]
        first = any(players[s].nmr_total == 0 for s in missing)
        return missing, first

    def _maybe_early(self, game: Game, now: float, out: list[Mail]) -> None:
        """Resolve at once when every due player is in (and READY, for Diplomacy)."""
        if game.status != "active" or game.state is None:
            return
        host = host_for(game.kind)
        players = {p.power: p for p in self.store.players(game.name)}
        due = [s for s in host.due(game.state) if s in players
               and players[s].status == "active"]
        if not due:
            return
        submitted = self.store.orders(game.name, host.phase(game.state))
        if any(s not in submitted for s in due):
            return
        if host.resolve_when_all_in:
            self.resolve(game, now, out)
            return
        if str(game.options.get("early", "ready")) == "ready" and all(players[s].ready
                                                                      for s in due):
            self.resolve(game, now, out)

    def resolve(self, game: Game, now: float, out: list[Mail], forced: bool = False) -> str:
        """Resolve the current phase (the caller holds the transaction)."""
        host = host_for(game.kind)
        state = game.state
        phase = host.phase(state)
        orders = self.store.orders(game.name, phase)
        players = {p.power: p for p in self.store.players(game.name)}
        missing, _ = self._missing(game)
        due = host.due(state)
        result = host.resolve(state, {k: v for k, v in orders.items() if k in due}, missing)
        snapshot = {p: {"nmr_total": pl.nmr_total, "nmr_streak": pl.nmr_streak,
                        "status": pl.status} for p, pl in players.items()}
        disorder_after = int(option(game.options, "disorder_after_nmr"))
        notes = []
        for seat, pl in players.items():
            if seat in missing:
                streak = pl.nmr_streak + 1
                status = pl.status
                if disorder_after and streak >= disorder_after and status == "active":
                    status = "disorder"
                    notes.append(f"{seat} has missed {streak} deadlines in a row and is now in "
                                 f"civil disorder.")
                self.store.update_player(game.name, seat, nmr_total=pl.nmr_total + 1,
                                         nmr_streak=streak, status=status, ready=0)
            else:
                self.store.update_player(game.name, seat, ready=0, nmr_streak=(
                    0 if seat in orders else pl.nmr_streak))
        if missing:
            notes.insert(0, "No orders received from: " + ", ".join(missing) +
                         " (the rules' defaults were used).")
        new = result.state
        over = result.over or host.is_over(new)
        deadline = None if over else now + host.phase_hours(new, game.options) * HOUR
        report_text = result.report + ("\n\n" + "\n".join(notes) if notes else "")
        self.store.add_result(game.name, phase, state, new, orders,
                              {"text": report_text, "data": result.data,
                               "players": snapshot, "deadline": game.deadline}, now)
        self.store.update_game(game.name, state=new, phase=host.phase(new), deadline=deadline,
                               reminded=0, extended=0, status="ended" if over else "active")
        self.store.log(game.name, "resolved", {"phase": phase, "missing": missing,
                                               "forced": forced}, now)
        log.info("%s: %s resolved (missing: %s)", game.name, phase, ", ".join(missing) or "none")
        next_line = ("The game is over." if over else
                     f"Next phase: {host.phase_label(new)}\n"
                     f"Deadline: {reports.when(deadline, self.tz)}")
        head = reports.header_lines(self.config.name, game.name, game.kind, phase,
                                    reports.when(deadline, self.tz))
        data = {"game": game.name, "phase": phase, "next_phase": host.phase(new),
                "deadline": deadline, "missing": missing, "result": result.data}
        recipients = list(players.values())
        for pl in recipients:
            if pl.status == "out":
                continue
            private = result.private.get(pl.power, "")
            body = (f"{head}\nResults of {game.name}, {phase}\n\n{report_text}\n\n"
                    + (f"For you only:\n{private}\n\n" if private else "")
                    + f"{next_line}\n\n{self._sig()}")
            out.append(Mail(pl.email, f"{game.name}: {phase} results", body,
                            [("result.json", "application/json",
                              json.dumps(data, indent=1).encode())] + result.attachments,
                            headers={"Auto-Submitted": "auto-generated"}, game=game.name))
        out.append(Mail(game.gm_email, f"{game.name}: {phase} results (GM copy)",
                        f"{head}\n{report_text}\n\n{next_line}\n\n{self._sig()}",
                        [("result.json", "application/json", json.dumps(data).encode())]
                        + result.attachments,
                        headers={"Auto-Submitted": "auto-generated"}, game=game.name))
        return f"{phase} resolved. {next_line}"

    def rollback(self, game: Game, now: float, out: list[Mail]) -> str:
        """Undo the last resolved phase: state, NMR counters; its orders stand again."""
        results = self.store.results(game.name)
        if not results:
            raise JudgeError("nothing to roll back")
        last = results[-1]
        host = host_for(game.kind)
        self.store.mark_rolled_back(last["id"])
        for seat, snap in last["report"].get("players", {}).items():
            self.store.update_player(game.name, seat, **snap, ready=0)
        state = last["state_before"]
        deadline = now + host.phase_hours(state, game.options) * HOUR
        self.store.update_game(game.name, state=state, phase=host.phase(state), status="active",
                               deadline=deadline, reminded=0, extended=0)
        self.store.log(game.name, "rollback", {"phase": last["phase"]}, now)
        self._announce(game, f"{game.name}: {last['phase']} rolled back", (
            f"The GM has rolled back the results of {last['phase']}; the game is again in "
            f"{host.phase_label(state)}. Orders already given for it stand; you may change "
            f"them.\nDeadline: {reports.when(deadline, self.tz)}"), out)
        return f"{last['phase']} rolled back; deadline {reports.when(deadline, self.tz)}."

    # ================================================================ time
    def tick(self) -> list[Mail]:
        """Do whatever deadlines require now; returns the mails queued."""
        now = self.clock()
        out_all: list[Mail] = []
        for game in self.store.games():
            if game.status not in ("active", "paused") or game.state is None:
                continue
            with self.store.transaction():
                game = self.store.game(game.name)
                if game is None or game.state is None:
                    continue
                out: list[Mail] = []
                self._tick_game(game, now, out)
                for m in out:
                    m.headers.setdefault("Auto-Submitted", "auto-generated")
                    m.id = self.store.queue(m, now)
                out_all += out
        return out_all

    def _tick_game(self, game: Game, now: float, out: list[Mail]) -> None:
        host = host_for(game.kind)
        missing, first = self._missing(game) if game.status == "active" else ([], False)
        d = decide(now=now, status=game.status, deadline=game.deadline,
                   paused_until=game.paused_until, options=game.options, missing=missing,
                   first_nmr=first, extended=game.extended, reminded=game.reminded)
        players = {p.power: p for p in self.store.players(game.name)}
        if d.action is Action.RESUME:
            self.resume(game, now, out, by="the end of the pause")
        elif d.action is Action.REMIND:
            for seat in d.missing:
                out.append(Mail(players[seat].email, f"{game.name}: reminder", (
                    f"The judge has no orders from {seat} for {host.phase_label(game.state)}.\n"
                    f"Deadline: {reports.when(game.deadline, self.tz)}\n\n{self._sig()}"),
                    game=game.name))
            self.store.update_game(game.name, reminded=1)
        elif d.action is Action.EXTEND:
            assert game.deadline is not None
            new = max(game.deadline, now) + d.seconds
            self.store.update_game(game.name, deadline=new, extended=1, reminded=0)
            self.store.log(game.name, "auto-extend", {"missing": list(d.missing)}, now)
            self._announce(game, f"{game.name}: deadline extended", (
                f"Orders are missing for {host.phase_label(game.state)}; as this is a first "
                f"missed deadline the judge extends it once.\n"
                f"New deadline: {reports.when(new, self.tz)}"), out)
        elif d.action is Action.RESOLVE:
            self.resolve(game, now, out)

    # ================================================================ export
    def export(self, name: str) -> dict[str, Any]:
        """Everything about a game except password hashes: enough to replay it."""
        game = self.store.game(name)
        if game is None:
            raise JudgeError(f"no game {name!r}")
        return {
            "game": game.name, "kind": game.kind, "status": game.status,
            "options": game.options, "seed": game.seed, "phase": game.phase,
            "state": game.state, "deadline": game.deadline,
            "players": [{"power": p.power, "email": p.email, "status": p.status,
                         "nmr_total": p.nmr_total} for p in self.store.players(name)],
            "results": self.store.results(name, include_rolled_back=True),
            "commands": self.store.commands(name),
            "press": self.store.press(name),
            "events": self.store.events(name),
        }


def _is_seat(host: Host, game: Game, text: str) -> bool:
    try:
        host.seat(game.options, text)
    except HostError:
        return False
    return True


def parse_when(text: str, tz: ZoneInfo) -> float:
    """``2026-12-01 18:00 [zone]`` or ``+36h`` -> epoch seconds."""
    text = text.strip()
    parts = text.split()
    zone = tz
    if len(parts) >= 2 and not parts[-1][0].isdigit():
        try:
            zone = ZoneInfo(parts[-1])
        except Exception:
            raise JudgeError(f"unknown time zone {parts[-1]!r}") from None
        parts = parts[:-1]
    try:
        dt = datetime.fromisoformat(" ".join(parts))
    except ValueError:
        raise JudgeError(f"cannot read {text!r}: expected YYYY-MM-DD HH:MM [zone]") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=zone)
    return dt.timestamp()


HELP = {
    None: """Commands (one per line; upper or lower case):
  SIGNON <game> <power> <password>   first line of every mail
  <orders>                           one per line, e.g. A PAR - BUR; they replace earlier ones
  PHASE <phase>                      orders below are for this phase only
  PRESS TO <power>[, <power>] | ALL [GREY]   then your message, then ENDPRESS
  BROADCAST [GREY]                   press to everyone, ended by ENDPRESS
  LIST                               game status, who has submitted, the deadline
  HISTORY [n | phase]                past results
  READY / NOT READY                  resolve early when every power is ready
  PREVIEW                            what your orders would do if everyone else held
  ABSENCE <duration>                 move the deadline (from your vacation quota)
  PASSWORD <new>                     change your password
  HELP [command]                     this text
  SIGNOFF                            ignore the rest of the mail (e.g. a signature)
GM commands (after GM <game> <gm-password>): ADDPLAYER, START, DEADLINE, EXTEND, PAUSE,
RESUME, REPLACE, PROCESS, ROLLBACK, ENDGAME, EXPORT, SET.""",
}


def help_text(topic: str | None) -> str:
    if topic:
        key = topic.lower()
        if key in USAGE:
            return f"Usage: {USAGE[key]}"
    return HELP[None]
