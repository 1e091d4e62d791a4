"""A player's account: password, address and time zone (``SET PASSWORD``, ``SET ADDRESS``,
``SET TIMEZONE``, ``CONFIRM``), the notice to the registered address when a seat is
used from another one, and the one-time codes that prove an address (JOIN, WATCH,
TAKEOVER).

An address change is confirmed from both addresses: each of them that has not written the
request itself is mailed a one-time code, and the change is made when every code has come
back from its own address (``CONFIRM code``, no sign-on needed: the code is the proof).
"""

from __future__ import annotations

import difflib
import hashlib
import secrets
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from mobadj.judge.base import JudgeBase, JudgeError, Session
from mobadj.judge.commands import Command
from mobadj.judge.deadlines import HOUR
from mobadj.judge.mailparse import Incoming, is_address
from mobadj.judge.store import Game, Mail, hash_password

CONFIRM_DAYS = 7  # an address change not confirmed by then lapses
GM_SEAT = ""
"""The seat of a SET GM that waits for the new address's CONFIRM, among the players'
address changes (no power is called "")."""
MIN_PASSWORD = 6


def password_refusal(value: str) -> str | None:
    """Why ``value`` cannot be a new password, a player's or the GM's (None when it can):
    it must be one word that a ``SIGNON`` or ``GM`` line carries (words end at a space or a
    comma), and not one to guess in a few tries."""
    if len(value) < MIN_PASSWORD or any(c.isspace() or c == "," for c in value):
        return (f"choose one word of at least {MIN_PASSWORD} characters (letters, digits, "
                f"signs; no commas).")
    return None


@cache
def _zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def check_zone(name: str) -> str:
    """A time zone name as the zone database spells it; a clear error with a did-you-mean."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        zones = _zones()
        exact = {z.lower(): z for z in zones}.get(name.lower())
        if exact:
            return exact
        near = difflib.get_close_matches(name, zones, n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(near)}?)" if near else " (e.g. Europe/Paris)"
        raise JudgeError(f"unknown time zone {name!r}{hint}") from None
    return name


def code_digest(code: str) -> str:
    """What the store keeps of a one-time code mailed to an address (never the code)."""
    return hashlib.sha256(code.strip().encode()).hexdigest()


class Accounts:
    """Settings a player (or the GM) changes by mail."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def set_timezone(self, address: str, value: str) -> str:
        if value.lower() in ("default", "judge", "none", "-"):
            self.desk.store.set_timezone(address, None)
            return f"Time zone: the judge's ({self.desk.config.timezone})."
        zone = check_zone(value)
        self.desk.store.set_timezone(address, zone)
        return (f"Time zone set: {zone}. Mails to {address} show times in it, and in UTC "
                f"(e.g. the deadlines).")

    def set_password(self, game: Game, power: str, value: str, inc: Incoming,
                     uid: int | None, now: float) -> str:
        refusal = password_refusal(value)
        if refusal:
            raise JudgeError(f"SET PASSWORD: {refusal}")
        store = self.desk.store
        store.update_player(game.name, power, pw_hash=hash_password(value, self.desk.kdf_n))
        store.record_command(game.name, power, inc.message_id, uid, "password", "***", now)
        return "Password changed."

    def set_address(self, game: Game, power: str, value: str, inc: Incoming,
                    uid: int | None, now: float, out: list[Mail]) -> str:
        """Start an address change: a code to each address that must still confirm it."""
        new = value.strip().lower()
        if not is_address(new):
            raise JudgeError(f"SET ADDRESS: {value!r} is not an email address.")
        player = self.desk.store.player(game.name, power)
        assert player is not None
        old = player.email
        if new == old:
            return f"SET ADDRESS: {new} is already the address of {power} in {game.name}."
        codes = {}
        for side, address in (("old", old), ("new", new)):
            if inc.sender != address:  # the request itself proves the address it came from
                codes[side] = secrets.token_hex(8)  # 64 bits: not to be guessed
        self.desk.store.start_address_change(
            game.name, power, old, new,
            {side: code_digest(code) for side, code in codes.items()}, now)
        self.desk.store.record_command(game.name, power, inc.message_id, uid, "set address", new,
                                       now)
        for side, code in codes.items():
            to = old if side == "old" else new
            out.append(Mail(to, f"{game.name}: confirm the new address of {power}", (
                f"The player of {power} in {game.name} asked to move the seat from\n"
                f"  {old}\nto\n  {new}.\n\n"
                f"To agree, send from {to} a mail with this one line:\n"
                f"  CONFIRM {code}\n\n"
                f"If you did not ask for this, do nothing: without it the address stays as "
                f"it is, and the request lapses after {CONFIRM_DAYS} days.\n\n{self.desk._sig()}"),
                game=game.name))
        waiting = " and ".join(old if side == "old" else new for side in codes)
        return (f"Address change for {power}: {old} -> {new}. A confirmation code went to "
                f"{waiting}; the change is made when it is sent back from there "
                f"(CONFIRM <code>).")

    def confirm(self, inc: Incoming, cmd: Command, now: float, out: list[Mail]
                ) -> str | None:
        """CONFIRM code of an address change, from an address the code went to; None when
        no change waits for the code."""
        code = str(cmd.args.get("value") or "")
        found = self.desk.store.confirm_address_change(inc.sender, code_digest(code),
                                                       now - CONFIRM_DAYS * 86400)
        if found is None:
            return None  # no address change waits for it (maybe a JOIN or a WATCH does)
        change, done = found
        if change["power"] == GM_SEAT:
            return self.desk.gm.gm_confirmed(change, now, out)
        game, power, old, new = change["game"], change["power"], change["old"], change["new"]
        if not done:
            return f"Confirmed from {inc.sender}; the change of {power} in {game} now waits " \
                   f"for the other address."
        self.desk.store.update_player(game, power, email=new)
        tz = self.desk.store.timezone(old)
        if tz and not self.desk.store.timezone(new):
            self.desk.store.set_timezone(new, tz)
        self.desk.store.log(game, "address changed", {"power": power}, now)
        for to in (old, new):
            if to != inc.sender:
                out.append(Mail(to, f"{game}: {power} has a new address", (
                    f"The address of {power} in {game} is now {new} (was {old}), confirmed "
                    f"from both.\n\n{self.desk._sig()}"), game=game))
        return f"Confirmed. {power} in {game} now plays from {new} (was {old})."

    def foreign_sender_notice(self, s: Session, inc: Incoming, now: float, out: list[Mail]
                               ) -> None:
        """A seat used from an address that is not its own: tell the registered address
        (once an hour per other address)."""
        assert s.power is not None
        player = self.desk.store.player(s.game.name, s.power)
        if player is None or inc.sender == player.email:
            return
        name = s.game.name
        seen = {"power": s.power, "from": inc.sender}
        told = seen in self.desk.store.recent_events(name, "used from another address", now - HOUR)
        self.desk.store.log(name, "used from another address", seen, now)
        if told:
            return
        out.append(Mail(player.email, f"{name}: a mail for {s.power} came from {inc.sender}", (
            f"A mail signed on as {s.power} in {name} came from {inc.sender}, not from this "
            f"address; the judge did what it asked (the password was right).\n\n"
            f"If that was not you, change your password at once from here:\n"
            f"  SIGNON {name} {s.power} <your password>\n  SET PASSWORD <a new password>\n"
            f"If you now play from {inc.sender}, move the seat there with SET ADDRESS (then "
            f"these notices stop).\n\n{self.desk._sig()}"), game=name))

    def ask_code(self, inc: Incoming, game: Game, kind: str, args: list[str], what: str,
                 now: float, out: list[Mail]) -> str:
        """Mail the sender a one-time code for a JOIN, WATCH or TAKEOVER (in the reply when
        it goes to the sender): the proof that the address asks; the request waits for it
        (CONFIRM)."""
        email = inc.sender
        word = kind.upper()
        made = self.desk.store.request_made(game.name, email, kind)
        if made is not None and now - made < HOUR:  # forged mails must not flood an address
            self.desk.store.set_request_args(game.name, email, kind, args)
            return (f"{word}: a confirmation code went to {email} less than an hour ago ("
                    f"{what}); send it back from there (CONFIRM <code>), or ask again in an "
                    "hour for a new one.")
        code = secrets.token_hex(8)  # 64 bits: not to be guessed
        self.desk.store.start_request(game.name, email, kind, args, code_digest(code), now)
        how = (f"To confirm, send from {email} a mail with this one line:\n  CONFIRM {code}\n"
               f"If you did not ask for this, do nothing: the request lapses after "
               f"{CONFIRM_DAYS} days.")
        if inc.reply_to == email:  # this reply goes to the address to prove
            return f"{word}: you asked {what}.\n{how}"
        out.append(Mail(email, f"{game.name}: confirm your {word}", (
            f"Someone asked for {email} {what}.\n{how}\n\n{self.desk._sig()}"), game=game.name))
        return f"{word}: a confirmation code went to {email}; the {word} counts once it is " \
               "sent back from there (CONFIRM <code>)."
