"""The judge for a seat playing on the game pages: one entry point, :meth:`WebPlay.act`, that
hands what the player typed or clicked to the very handlers a mail's commands go through
(:meth:`Judge.player_mail`, the GM's :meth:`Judge.gm_mail`), in one store
transaction, with the same mails queued for the others.  A web action is recorded like a
mail whose Message-ID begins ``<web-`` and whose sender is ``web:<seat>``, so the history
shows where every command came from; the last set of orders wins, from mail or web.

Signing in checks the password the judge mailed (or the GM's) with the judge's own
:class:`~mobadj.judge.throttle.PasswordThrottle`, counted against the visitor's network
address and the seat, so a stranger's guesses never lock out the right password and the
seat's player is told of them as by mail.  A session is a random cookie value of which the
store keeps only a digest, with its own CSRF token; it ends when signed out, after
:data:`SESSION_DAYS`, or at once when the seat's password (or its player) changes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass

from mobadj.engine import OrderChoice
from mobadj.judge import registry, reports
from mobadj.judge.base import JudgeBase, JudgeError, Session
from mobadj.judge.commands import ParsedMail, parse_body
from mobadj.judge.core import _DUMMY_HASH, REFUSED, Judge
from mobadj.judge.hosts import Check, HostError, host_for
from mobadj.judge.links import game_url
from mobadj.judge.mailparse import MAX_LINES, Incoming, strip_controls
from mobadj.judge.names import Names
from mobadj.judge.store import Game, Mail, Store, verify_password
from mobadj.judge.throttle import PasswordThrottle

log = logging.getLogger("mobadj.judge")
SESSION_DAYS = 14.0
LINK_DAYS = 3.0  # a personal link (LINK by mail) signs in once, within this time
GM = "GM"
#: the answer to a once-only form (press, a command) that came a second time
SENT_TWICE = ("The same form came a second time (sent twice: a double click, or the browser "
              "sending it again): it was done once, and not again.")


def digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _cleaned(text: str) -> str:
    """What the page sent, as the judge reads a mail's text: lines ended by ``\\n``, no
    control characters (a mail's are dropped too)."""
    return strip_controls(text.replace("\r\n", "\n").replace("\r", "\n"))


def too_long(text: str, max_chars: int) -> str:
    """Why ``text`` is more than the judge reads of a mail (``max_chars`` characters,
    :data:`MAX_LINES` lines); "" when it is not.  A mail that long is read in part and says
    so; from the page nothing is done, so that no letter goes out cut short."""
    lines = text.count("\n") + 1
    if len(text) <= max_chars and lines <= MAX_LINES:
        return ""
    size = (f"{len(text)} characters" if len(text) > max_chars else f"{lines} lines")
    return (f"What you sent is {size} long; the judge reads at most {max_chars} characters "
            f"and {MAX_LINES} lines at once, as from a mail: nothing of it was done. "
            "Send it in parts.")


@dataclass(frozen=True)
class WebSeat:
    """A signed-in session: the game, the seat (None for the GM) and its CSRF token."""

    game: str
    power: str | None
    token: str  # the digest of the cookie's value, as the store keeps it
    csrf: str
    said: str  # the judge's answer to the last action, not yet shown

    @property
    def who(self) -> str:
        return self.power or GM


class WebPlay:
    """The judge's operations for the pages: sign in and out, and act as a seat."""

    def __init__(self, judge: Judge, session_days: float = SESSION_DAYS) -> None:
        self.judge = judge
        self.store = judge.store
        self.session_seconds = session_days * 86400

    @property
    def max_text(self) -> int:
        """Characters of one action read at most: what is read of a mail's body."""
        return self.judge.config.max_body_bytes

    # -- signing in --------------------------------------------------------------------------
    def sign_in(self, game_name: str, power_text: str, password: str, client: str
                ) -> tuple[str | None, str]:
        """(the new session's cookie value, "") or (None, why not).  ``power_text`` is any
        name of the seat, or ``GM``; ``client`` the visitor's network address."""
        judge, store = self.judge, self.store
        now = judge.clock()
        address = f"web:{client}"
        out: list[Mail] = []
        with store.transaction():
            game = store.game(game_name.lower())
            power: str | None = None
            names: Names | None = None
            stored: str | None = None
            owner: str | None = None
            if game is not None and power_text.strip().upper() == GM:
                stored, owner = game.gm_hash, game.gm_email
            elif game is not None:
                try:
                    names = Names(host_for(game.kind), game.options)
                    power = names.find(power_text)
                except HostError:
                    power = None
                player = store.player(game.name, power) if power else None
                if player is not None and player.status != "out":
                    stored, owner = player.pw_hash, player.email
            target = GM if power_text.strip().upper() == GM else power or power_text[:40]
            seat = f"{game_name.lower()}:{target}"
            throttle = PasswordThrottle(store)
            wait = throttle.wait(address, seat, False, now)
            if wait:  # the password is not checked: nothing is said of it, right or wrong
                return None, (f"Too many wrong sign-ins from your address: the judge checks "
                              f"a password from it again from {reports.stamp(now + wait)} "
                              f"(in {reports.duration(max(wait, 60))}); the one just sent "
                              "was not checked.")
            ok = verify_password(password, stored or _DUMMY_HASH)
            if not ok or stored is None or game is None:
                throttle.failed(address, seat, False, now)
                if owner and power and game is not None:
                    inc = _incoming("<web-signin>", f"the game pages (from {client})",
                                    "sign-in", "")
                    judge._wrong_password_notice(game.name, power, owner, inc, throttle, now,
                                                 out)
                    judge.queue(out, now)
                return None, REFUSED
            cookie = secrets.token_urlsafe(32)
            store.add_web_session(digest(cookie), game.name, power, digest(stored),
                                  secrets.token_urlsafe(24), now, now + self.session_seconds)
            store.record_command(game.name, power or GM, _message_id(store), None, "signon",
                                 "signed in on the game pages", now)
            log.info("%s signed in on the pages of %s from %s", power or GM, game.name,
                     client)
        return cookie, ""

    def redeem(self, link: str, game: str, client: str) -> str | None:
        """A personal link's token (LINK by mail) for ``game``: the new session's cookie
        value, once; None when it is unknown, used, too old, or the seat's password has
        changed since it was mailed."""
        if not link or len(link) > 100:
            return None
        store, now = self.store, self.judge.clock()
        key = f"{_LINK}{digest(link)}"
        with store.transaction():
            raw = store.meta(key)
            if not raw:
                return None
            data = json.loads(raw)
            store.set_meta(key, "")  # once only, whatever follows
            player = store.player(game, str(data["power"]))
            if (data["game"] != game or data["expires"] <= now or player is None
                    or player.status == "out" or digest(player.pw_hash) != data["proof"]):
                return None
            cookie = secrets.token_urlsafe(32)
            store.add_web_session(digest(cookie), game, player.power, data["proof"],
                                  secrets.token_urlsafe(24), now, now + self.session_seconds)
            store.record_command(game, player.power, _message_id(store), None, "signon",
                                 "signed in on the game pages by a personal link", now)
            log.info("%s signed in on the pages of %s by a personal link from %s",
                     player.power, game, client)
        return cookie

    def seat(self, cookie: str | None, game: str) -> WebSeat | None:
        """The session a cookie holds for ``game``, if it is still good: not expired, and
        signed in with the password the seat (or the GM) has now."""
        if not cookie or len(cookie) > 100:
            return None
        row = self.store.web_session(digest(cookie))
        if row is None or row["game"] != game or row["expires"] <= self.judge.clock():
            return None
        found = self.store.game(game)
        if found is None:
            return None
        if row["power"] is None:
            stored = found.gm_hash
        else:
            player = self.store.player(game, row["power"])
            stored = player.pw_hash if player is not None and player.status != "out" else ""
        if not stored or digest(stored) != row["proof"]:
            return None
        return WebSeat(game, row["power"], row["token"], row["csrf"], row["said"])

    def left_seat(self, cookie: str | None, game: str) -> str:
        """Why the session a cookie held for ``game`` is over when its seat is no longer its
        player's: the seat passed to another player (the GM's REPLACE, a TAKEOVER) or the
        player left it (RESIGN); "" for any other end (signed out, the time over, a new
        password), where signing in again helps."""
        if not cookie or len(cookie) > 100:
            return ""
        with self.store.reading():
            row = self.store.web_session(digest(cookie))
            if row is None or row["game"] != game or row["power"] is None:
                return ""
            power = str(row["power"])
            player = self.store.player(game, power)
            if player is None or player.status == "out":
                return f"You no longer play {power} in {game}: you are signed out."
            then = [t for t in self.store.tenures(game) if t["power"] == power
                    and t["start"] <= row["created"]
                    and (t["end"] is None or t["end"] > row["created"])]
        if then and then[-1]["email"] != player.email:
            return (f"{power} in {game} has passed to another player since you signed in "
                    "(given by the GM, or taken over): you no longer play it, and you are "
                    "signed out.")
        return ""

    def why_ended(self, seat: WebSeat) -> str:
        """Why ``seat``'s session ended with what it just did, for the sign-in page: the
        player left the seat, or the password changed (every session with the old one ends)."""
        with self.store.reading():
            if seat.power is not None:
                player = self.store.player(seat.game, seat.power)
                if player is None or player.status == "out":
                    return f"You no longer play {seat.power} in {seat.game}: you are signed out."
        return ("The password changed: every session signed in with the old one has ended, "
                "this one too. Sign in with the new password.")

    def sign_out(self, seat: WebSeat) -> None:
        with self.store.transaction():
            self.store.delete_web_session(seat.token)

    def shown(self, seat: WebSeat) -> None:
        """The last answer was shown: it is not shown again."""
        if seat.said:
            with self.store.transaction():
                self.store.set_web_said(seat.token, "")

    # -- acting ------------------------------------------------------------------------------
    def act(self, seat: WebSeat, text: str, drawn: str | None = None, note: str = "",
            once: str = "") -> str:
        """Do what ``text`` says, as a mail signed on as the seat with these lines would;
        returns the judge's answer (kept to be shown on the seat's next page).  ``drawn``:
        the phase the page was drawn for, when its form is for that phase alone (orders,
        READY, a card move): nothing is done once the game has moved on.  ``note``: the
        page's words on what its form sent, put above the answer when it was done.
        ``once``: the one-time mark of the page's form (press, the command box), done once
        with this text: the same form sent twice (a double click, a browser's retry) is not
        done twice, another text from the same page is."""
        judge, store = self.judge, self.store
        now = judge.clock()
        text = _cleaned(text)
        with store.transaction():
            game = store.game(seat.game)
            if game is None:
                return "There is no such game any more."
            refused = too_long(text, self.max_text) or _moved_on(game, drawn)
            if refused:
                store.set_web_said(seat.token, refused)
                return refused
            form = digest(f"{once}\n{text}") if once else ""
            if form and form in store.web_done(seat.token):
                twice = (f"{seat.said}\n\n" if seat.said else "") + SENT_TWICE
                store.set_web_said(seat.token, twice)
                return twice
            email = game.gm_email
            if seat.power is not None:
                player = store.player(game.name, seat.power)
                email = player.email if player is not None else email
            parsed = self._parse(game, text)
            foreign = _foreign_signon(game, seat, parsed)
            if foreign:
                store.set_web_said(seat.token, foreign)
                return foreign
            mid = _message_id(store)
            inc = _incoming(mid, email, "the game pages", text)
            out: list[Mail] = []
            outcome = "handled on the game pages"
            try:
                with store.savepoint():
                    lines = [f"Error: {e}" for e in parsed.errors]
                    session = Session(game, seat.power, email)
                    try:
                        if seat.power is None:
                            lines.append(judge.gm_mail(session, parsed, inc, None, now, out))
                        else:
                            lines.append(judge.player_mail(session, parsed, inc, None, now,
                                                            out))
                    except JudgeError as exc:
                        lines.append(str(exc))
                    reply = "\n".join(x for x in lines if x)
            except Exception:  # a bug: its effects are undone; say so, log it, carry on
                log.exception("an action of %s in %s on the pages could not be handled",
                              seat.who, seat.game)
                out.clear()
                outcome = "failed on the game pages"
                reply = ("The judge could not do this because of an internal error; nothing "
                         "of it was done. The GM can look into it; please try again later.")
            if form and outcome == "handled on the game pages":
                store.add_web_done(seat.token, form)
            store.record_mail(mid, None, f"web:{seat.who}", "the game pages", now, outcome)
            judge.queue(out, now)
            reply = judge.localize(reply or "Nothing to do: the judge found no order or "
                                   "command in it.", email)
            if note:
                reply = f"{note}\n\n{reply}"
            store.set_web_said(seat.token, reply)
        return reply

    def moved_on(self, seat: WebSeat, drawn: str | None) -> str:
        """What the reading of the orders box answers on a page drawn for phase ``drawn``
        once the game has moved on ("" while it has not, or without ``drawn``, as an older
        page's script sends it): the box is not read against a phase the page does not
        show."""
        with self.store.reading():
            game = self.store.game(seat.game)
            label = _moved_to(game, drawn) if game is not None else ""
        if not label:
            return ""
        assert drawn is not None
        return (f"This page was drawn for {drawn[:20]}, and the game has moved on since to "
                f"{label}: the orders box was not read against it, and nothing was sent.")

    def check(self, seat: WebSeat, text: str) -> tuple[Check, str]:
        """What the judge would take of ``text`` as the seat's orders now, and its PREVIEW
        (the others holding), storing nothing: the same reader and checks as :meth:`act`."""
        with self.store.reading():
            game = self.store.game(seat.game)
            if game is None or game.state is None or seat.power is None:
                return Check(), ""
            text = _cleaned(text)
            refused = too_long(text, self.max_text)
            if refused:  # as sending it would be: not read at all
                return Check(errors=[refused]), ""
            return self._check(game, seat.power, text)

    def standing(self, seat: WebSeat) -> tuple[Check, str]:
        """The seat's orders standing for this phase, checked and previewed as above."""
        with self.store.reading():
            game = self.store.game(seat.game)
            if game is None or game.state is None or seat.power is None:
                return Check(), ""
            host = host_for(game.kind)
            text = self.store.orders(game.name, host.phase(game.started_state)).get(
                seat.power, "")
            return self._check(game, seat.power, text)

    def _check(self, game: Game, power: str, text: str) -> tuple[Check, str]:
        host = host_for(game.kind)
        state = game.started_state
        if game.status != "active" or power not in host.due(state):
            return Check(), ""
        parsed = self._parse(game, text)
        check = host.check(state, power, parsed.order_text)
        # the lines the judge does not even give the game (a line of more than 500
        # characters, a command it cannot read): sending says so first, and so does the check
        check.errors[:0] = [str(e) for e in parsed.errors]
        return check, host.preview(state, power, check.text) if check.accepted else ""

    @staticmethod
    def _parse(game: Game, text: str) -> ParsedMail:
        """The lines read as a mail's after SIGNON to this game (a card game's own words
        come first, as :meth:`Judge._game_first` gives them)."""
        try:
            words = host_for(game.kind).command_words(game.state)
        except HostError:
            words = frozenset()
        return parse_body(text, words) if words else parse_body(text)


def _moved_to(game: Game, drawn: str | None) -> str:
    """The phase the game is at now (its label) when a page drawn for phase ``drawn`` is
    out of date; "" when it is not, or names none."""
    if not drawn or game.state is None:
        return ""
    try:
        host = host_for(game.kind)
        now, label = host.phase(game.started_state), host.phase_label(game.started_state)
    except HostError:
        return ""
    return "" if now.upper() == drawn.strip().upper() else label


def _moved_on(game: Game, drawn: str | None) -> str:
    """Why a page's form for phase ``drawn`` is no good now ("" when it is, or names none):
    a page left open over a deadline would send its orders, or READY, to the next phase."""
    label = _moved_to(game, drawn)
    if not label:
        return ""
    assert drawn is not None
    return (f"This page was drawn for {drawn[:20]}, and the game has moved on since to "
            f"{label}: nothing of what you sent was done. The page now shows {label}: send "
            "again what is still meant for it.")


def _foreign_signon(game: Game, seat: WebSeat, parsed: ParsedMail) -> str:
    """Why a pasted mail may not be taken for this seat: a SIGNON (or GM) line in it for
    another game or seat, or one the judge cannot read (whose mail is it?); "" when there is
    none, or each names this very game and seat, whatever its password (never repeated).
    Without this, a mail meant for another game would replace this seat's orders."""
    me = f"This page plays {seat.who} in {game.name}"
    nothing = ": nothing of what you sent was done. Send only the lines for this game and seat"
    for cmd in parsed.commands:
        if cmd.name not in ("signon", "gm"):
            continue
        named = str(cmd.args["game"]).lower()
        power = str(cmd.args.get("power", GM))
        if named != game.name or _seat_named(game, power) != seat.who:
            return (f"{me}; the {cmd.name.upper()} line of what you sent is for "
                    f"{power[:40]} in {named[:30]}{nothing}.")
    for err in parsed.errors:
        if err.expected in (registry.usage("signon"), registry.usage("gm")):
            return (f"{me}; the judge cannot read the sign-on line of what you sent (line "
                    f"{err.line}){nothing} (the SIGNON line may stay out).")
    return ""


def _seat_named(game: Game, text: str) -> str | None:
    """The seat (or ``GM``) a sign-on line names in ``game``, None when none."""
    if text.strip().upper() == GM:
        return GM
    try:
        return Names(host_for(game.kind), game.options).find(text)
    except HostError:
        return None


def legal_choices(game: Game, power: str) -> list[OrderChoice]:
    """What ``power`` may order now as picks, when the phase has few legal orders: the
    game's rules say (a dislodged unit's retreats, builds, removals, a variant's own orders),
    and every line offered is one the judge reads as it reads a mail's; none in a movement
    phase, when nothing is due, and in games without them."""
    if game.status != "active" or game.state is None:
        return []
    try:
        return host_for(game.kind).choices(game.started_state, power)
    except HostError:
        return []


def _message_id(store: Store) -> str:
    return f"<web-{secrets.token_hex(8)}@{store.token()}.pages>"


def _incoming(message_id: str, sender: str, subject: str, body: str) -> Incoming:
    return Incoming(message_id=message_id, sender=sender, reply_to=sender, subject=subject,
                    body=body, auto=None)



_LINK = "web-link:"


def mail_link(judge: JudgeBase, game: Game, power: str, now: float, out: list[Mail]) -> str:
    """LINK: mail the seat's player, at the registered address, a link that signs them in
    on the game's page once within :data:`LINK_DAYS` (for a private game it opens its
    pages too); the answer to the mail says where it went."""
    base = judge.config.web.base_url
    if base is None:
        return ("LINK: this judge's pages have no public address (the GM sets web.base_url "
                "in judge.yaml); sign in on the game's page with your password instead.")
    player = judge.store.player(game.name, power)
    if player is None:
        raise JudgeError(f"LINK: {power} has no player in {game.name}.")
    token = secrets.token_urlsafe(32)
    judge.store.set_meta(f"{_LINK}{digest(token)}", json.dumps({
        "game": game.name, "power": power, "proof": digest(player.pw_hash),
        "expires": now + LINK_DAYS * 86400}))
    url = f"{game_url(base, game.name)}play?link={token}"  # a private game's key follows
    out.append(Mail(player.email, f"{game.name}: your link to play {power} on the game's page", (
        f"This link signs you in as {power} in {game.name} on the game's page, once, until "
        f"{reports.stamp(now + LINK_DAYS * 86400)}: open it and press its Sign in "
        f"button.\n\n  {url}\n\n"
        f"Keep it to yourself: whoever signs in with it first plays your power there. It stops "
        f"working when it has been used, and when your password changes. Send LINK again "
        f"for a new one.\n\n{judge._sig()}"), game=game.name))
    return (f"LINK: a link that signs you in on the game's page was mailed to your registered "
            f"address ({player.email}); it works once, for {LINK_DAYS:g} days.")
