"""GM commands (by mail after ``GM game password``, or from ``mobadj game``): create,
replace, options, the GM's orders by mail.  Each command's handler is declared in
:mod:`.verbs`; starting a game is :mod:`.forming`'s, pausing it :mod:`.turns`'s."""

from __future__ import annotations

import dataclasses
import difflib
import random
import secrets
from collections.abc import Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo

from mobadj.judge.accounts import CONFIRM_DAYS, GM_SEAT, code_digest, password_refusal
from mobadj.judge.base import PRESS_OPTIONS, JudgeBase, JudgeError
from mobadj.judge.cardhost import CardHost
from mobadj.judge.commands import Command, ParsedMail
from mobadj.judge.deadlines import (
    BOT_MOVES,
    DEFAULTS,
    NUMBERS,
    ORDER_MAILS,
    number_refusal,
    time_of_day,
    weekdays,
)
from mobadj.judge.endings import DRAW_MODES
from mobadj.judge.forming import YES, flag
from mobadj.judge.hosts import DiplomacyHost, Host, HostError, host_for
from mobadj.judge.mailparse import Incoming, is_address
from mobadj.judge.names import Names
from mobadj.judge.seats import TAKEOVER_CHOICES, takeover_mode
from mobadj.judge.store import Game, Mail, hash_password
from mobadj.orders.prose import is_remark

#: The judge's own game options (deadlines, press, sign-up, ...; docs/gm-guide.md); the
#: game's own (a map's rule options, a card game's ``game_*``) are its host's.
JUDGE_OPTIONS = (*DEFAULTS, "start_year")
PRESS_TO = ("any", "public")  # public: press to everyone only (no private press)


def unknown_options(host: Host, names: Iterable[str]) -> str:
    """"" when every name is an option of the judge or of the game, else the error: the
    first unknown name, the nearest known one, and both kinds of options."""
    unknown = [n for n in names if n not in JUDGE_OPTIONS and not host.is_option(n)]
    if not unknown:
        return ""
    theirs = list(host.rule_options())
    near = difflib.get_close_matches(unknown[0], [*JUDGE_OPTIONS, *theirs], n=1)
    hint = f"; did you mean {near[0]}?" if near else ""
    more = f" (and {', '.join(unknown[1:])})" if len(unknown) > 1 else ""
    return (f"unknown option {unknown[0]!r}{more}{hint}\n"
            f"  the judge's options: {', '.join(JUDGE_OPTIONS)}\n"
            f"  {'rule options' if theirs else 'options'} of {host.title}: "
            f"{', '.join(theirs) or 'game_<name>=<value>'}")


#: the judge's options that hold one of a few words, and those words
CHOICES: dict[str, tuple[str, ...]] = {
    "press": PRESS_OPTIONS, "press_to": PRESS_TO, "draw": DRAW_MODES, "bot_moves": BOT_MOVES,
    "early": ("ready", "never"), "picture": ("both", "svg", "none"),
    "order_mails": ORDER_MAILS}
#: the judge's yes/no options
FLAGS = ("open", "approve", "autostart", "watch", "gm_press_copy")
FLAG_WORDS = (*YES, "no", "n", "false", "off", "0")


def check_options(options: Mapping[str, Any], tz: ZoneInfo) -> None:
    """Refuse a value of one of the judge's options that it could not use later (a game
    that never reaches its deadline for ``deadline_hours 36h``): a :class:`JudgeError`
    naming the option, the value and what is expected.  Other names are left alone."""
    for key, value in options.items():
        problem = None
        if key in NUMBERS:
            problem = number_refusal(key, value)
        elif key in CHOICES and str(value).strip().lower() not in CHOICES[key]:
            problem = f"{key} must be one of {', '.join(CHOICES[key])}, not {value!r}"
        elif key == "takeover" and takeover_mode({key: value}) not in TAKEOVER_CHOICES:
            problem = f"takeover must be one of {', '.join(TAKEOVER_CHOICES)}, not {value!r}"
        elif key in FLAGS and not isinstance(value, bool) and value is not None \
                and str(value).strip().lower() not in ("", *FLAG_WORDS):
            problem = f"{key} is yes or no, not {value!r}"
        if problem:
            raise JudgeError(problem)
    try:
        weekdays(options.get("deadline_days"))
        if options.get("deadline_time") not in (None, ""):
            time_of_day(options["deadline_time"], tz)
    except ValueError as exc:
        raise JudgeError(str(exc)) from None


def is_remark_in(game: Game, line: str, seat: str | None = None) -> bool:
    """Is ``line`` a remark ("Thanks, all!", "Gil"), by the game's map or, in a card game,
    its commands (read for ``seat``; a GM's mail: None)?"""
    host = host_for(game.kind)
    try:
        if isinstance(host, CardHost):
            return host.is_remark(game.state, line, seat)
        return isinstance(host, DiplomacyHost) and is_remark(line, host.game_map)
    except HostError:
        return False


def signed_off(game: Game, parsed: ParsedMail, seat: str | None = None) -> ParsedMail:
    """``parsed`` without the remarks after the mail's last command ("RESIGN", blank line,
    "Dmitri"): a sign-off after the judge's commands is set aside as one after orders is,
    instead of being read as orders.  Only when every line after that command is one."""
    acts = [c.line for c in parsed.commands if c.name not in ("signon", "gm", "orders", "phase")]
    if not acts:
        return parsed
    last = max(acts)
    tail = [(n, t) for n, t in parsed.order_lines if n > last]
    if not tail or not all(n not in parsed.near_commands and is_remark_in(game, t, seat)
                           for n, t in tail):  # "Resing" keeps its did-you-mean
        return parsed
    return dataclasses.replace(parsed, order_lines=[
        (n, t) for n, t in parsed.order_lines if n < last])


def seats_named(host: Host, game: Game, text: str) -> list[str]:
    """The seats ``text`` names (several names too), none when it names none."""
    try:
        return Names(host, game.options).groups(text)
    except HostError:
        return []


class GMCommands:
    """Commands of a game's GM."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def create_game(
        self, name: str, kind: str, gm_email: str, gm_password: str | None,
        options: dict[str, Any] | None = None, seed: int | None = None,
    ) -> tuple[Game, str]:
        """Create a game; returns it and the GM password (generated when not given)."""
        name = name.lower()
        if not name.replace("-", "").replace("_", "").isalnum() or len(name) > 30:
            raise JudgeError("game names are letters, digits, - and _ (at most 30)")
        host = host_for(kind)
        if self.desk.store.game(name) is not None:
            raise JudgeError(f"a game called {name} already exists")
        given = dict(options or {})
        error = unknown_options(host, given)
        if error:
            raise JudgeError(error)
        opts = dict(DEFAULTS) | dict(self.desk.config.game_defaults) | given
        check_options(opts, self.desk.tz)
        opts |= host.read_options(opts)  # rule options checked now, not when it starts
        password = gm_password or secrets.token_urlsafe(9)
        seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
        store, now = self.desk.store, self.desk.clock()
        with store.transaction():
            store.create_game(name, host.kind, opts, seed, gm_email,
                              hash_password(password, self.desk.kdf_n), now)
            store.log(name, "created", {"kind": host.kind, "options": opts}, now)
        game = self.desk.store.game(name)
        assert game is not None
        return game, password

    def mail_create(
        self, inc: Incoming, cmd: Command, now: float, out: list[Mail]
    ) -> tuple[str, Game | None]:
        """CREATE by mail from one of the judge's GM addresses: the reply and the new game."""
        if inc.sender not in self.desk.config.gm_addresses:
            return "CREATE refused: only the judge's GMs may create games.", None
        a = cmd.args
        refusal = password_refusal(a["password"])
        if refusal:
            return f"CREATE refused: the GM password: {refusal}", None
        try:
            game, _ = self.create_game(a["game"], a["kind"], inc.sender, a["password"],
                                       a["options"])
        except (JudgeError, HostError) as exc:
            return f"CREATE refused: {exc}", None
        rules = self.desk.rules_line(game)
        later = f"in this mail, or in a later one after GM {game.name} <password>"
        if flag(game.options, "open"):
            how = (f"Players join by mail: JOIN {game.name} [powers, best first]"
                   + (f"; approve each with APPROVE <email> (or refuse with REJECT <email>), "
                      f"{later}." if flag(game.options, "approve") else ".")
                   + " You may also seat players yourself with ADDPLAYER <email> <power>.")
        else:
            how = f"Add players with ADDPLAYER <email> <power> ({later})."
        return (f"Game {game.name} ({game.kind}) created; you are its GM.\n"
                + (f"{rules}\n" if rules else "") + how), game

    def replace(self, game: Game, power: str, email: str, now: float, out: list[Mail]) -> str:
        """The GM's REPLACE: the seat goes to ``email`` (:meth:`Seats.change_player`)."""
        return self.desk.seats.change_player(game, power, email, now, out, how="replaced",
                                             by="the GM")

    def gm_orders_by_mail(self, game: Game, becomes: list[Command], parsed: ParsedMail,
                          inc: Incoming, uid: int | None, now: float, out: list[Mail]) -> str:
        """The order lines after each ORDERS FOR (BECOME) are the GM's orders for it."""
        replies = []
        game = self.desk.store.game(game.name) or game
        for n, cmd in enumerate(becomes):
            end = becomes[n + 1].line if n + 1 < len(becomes) else float("inf")
            block = dataclasses.replace(parsed, order_lines=[
                (line, t) for line, t in parsed.order_lines if cmd.line < line < end])
            text = block.order_text  # each line at its line of the mail: errors name it
            try:
                replies.append(self.desk.seats.gm_orders(
                    game, " ".join(cmd.args["words"]), text, now, out, inc.message_id, uid,
                    early=False))
            except (JudgeError, HostError) as exc:
                replies.append(f"ORDERS FOR: {exc}")
        before = [f"  line {n}: {t}" for n, t in parsed.order_lines if n < becomes[0].line]
        if before:
            replies.append("Lines before ORDERS FOR <power> were not read (the GM gives no "
                           "orders of their own):\n" + "\n".join(before))
        self.desk.turns.maybe_early(self.desk.store.game(game.name) or game, now, out)
        return "\n\n".join(replies)

    def set_gm(self, game: Game, value: str, by: str, now: float, out: list[Mail],
               sender: str | None = None) -> str:
        """SET GM <email>: the game gets a new GM address (a club hands its games to a new
        GM): every notice for the GM goes there from now on.  By mail (``sender``: the
        address it came from) the new address must first send back a code, as a player's
        SET ADDRESS does: a typo must not hand the game to nobody.  From the judge's command
        line (``sender`` None) the change is made at once."""
        new, old = value.strip().lower(), game.gm_email
        if not is_address(new):
            raise JudgeError(f"SET GM: {value!r} is not an email address.")
        if new == old:
            return f"SET GM: {new} is already the GM address of {game.name}."
        if sender is None or sender == new:  # the keeper, or the new address itself asks
            return self.gm_changed(game, new, by, now, out)
        code = secrets.token_hex(8)  # 64 bits: not to be guessed
        self.desk.store.start_address_change(game.name, GM_SEAT, old, new,
                                             {"new": code_digest(code)}, now)
        self.desk.store.log(game.name, "gm address asked", {"old": old, "new": new}, now)
        out.append(Mail(new, f"{game.name}: you are asked to be its GM", (
            f"The GM of {game.name} asked to hand the game over to this address ({new}); "
            f"its GM address is now {old}.\n\n"
            f"To agree, send from {new} a mail with this one line:\n"
            f"  CONFIRM {code}\n\n"
            f"If this is not for you, do nothing: without it the GM address stays as it is, "
            f"and the request lapses after {CONFIRM_DAYS} days.\n\n{self.desk._sig()}"),
            game=game.name))
        return (f"GM address of {game.name}: {old} -> {new} once {new} confirms it. A "
                f"confirmation code went there; the change is made when it is sent back from "
                f"there (CONFIRM <code>). Until then {old} stays the GM address (a new SET "
                f"GM replaces the request).")

    def gm_confirmed(self, change: dict[str, Any], now: float, out: list[Mail]) -> str:
        """CONFIRM from the new address of a SET GM sent by mail: the change is made."""
        game = self.desk.store.game(change["game"])
        if game is None or game.gm_email != change["old"]:
            raise JudgeError(f"CONFIRM: the GM address of {change['game']} has changed since "
                             f"this was asked; nothing was done.")
        return self.gm_changed(game, change["new"], "by a mail with the GM password, "
                               "confirmed from the new address", now, out, confirmed=True)

    def gm_changed(self, game: Game, new: str, by: str, now: float, out: list[Mail],
                   confirmed: bool = False) -> str:
        """Make ``new`` the GM address of ``game``; both addresses are told.  The GM
        password stays as it is, for the new GM to change.  (``confirmed``: the new
        address sent the code back; it is answered as the sender, not mailed apart.)"""
        old = game.gm_email
        self.desk.store.update_game(game.name, gm_email=new)
        self.desk.store.log(game.name, "gm address", {"old": old, "new": new}, now)
        sig = self.desk._sig()
        out.append(Mail(old, f"{game.name}: the GM address is now {new}", (
            f"The GM address of {game.name} was changed {by}, from\n  {old}\nto\n  {new}.\n"
            f"The judge's notices for the GM, GM copies of results and press to the GM go "
            f"there from now on. The GM password was not changed: the new GM may change it "
            f"(SET PASSWORD).\n"
            f"{self._old_gm_may(game, old)} If {new} is a mistake, "
            f"whoever keeps the judge can set the address back with\n"
            f"  mobadj game set {game.name} gm {old}\n\n{sig}"), game=game.name))
        welcome = (
            f"The GM address of {game.name} is now yours (it was {old}; changed {by}).\n"
            f"The judge's notices for the GM, GM copies of results and press to the GM come "
            f"here from now on.\n\n"
            f"GM commands by mail start with the line\n  GM {game.name} <GM password>\n"
            f"The GM password stays as it was: the GM who handed you the game tells you it; "
            f"then choose your own with SET PASSWORD <new password>.")
        if confirmed:
            return f"Confirmed. {welcome}"
        out.append(Mail(new, f"{game.name}: you are now its GM", f"{welcome}\n\n{sig}",
                        game=game.name))
        return f"GM address of {game.name}: {old} -> {new}. Both addresses were told."

    def _old_gm_may(self, game: Game, old: str) -> str:
        """What the old GM address may still do after a handover: one of the judge's
        ``gm_addresses`` still signs on as GM with the password, any other address no longer."""
        if old in self.desk.config.gm_addresses:
            return (f"As one of the judge's GM addresses, {old} may still sign on as GM of "
                    f"{game.name} with the GM password, until the new GM changes it.")
        return f"Mail from {old} no longer counts as the GM's."

    def set_option(self, game: Game, key: str, value: str) -> str:
        host = host_for(game.kind)
        if key in host.rule_options():
            return self._set_rule_option(game, host, key, value)
        if key not in DEFAULTS:
            raise JudgeError(unknown_options(host, [key])
                             or f"{key} is set when the game is created")
        check_options({key: value}, self.desk.tz)
        self.desk.store.update_game(game.name, options=game.options | {key: value})
        return f"Option {key} = {value}."

    def _set_rule_option(self, game: Game, host: Host, key: str, value: str) -> str:
        """A rule option: only while the game is forming (the players must know the rules
        they play by, and the judge keeps them from the start)."""
        if game.status != "forming":
            now = self.desk.rules_line(game) or "the default rules"
            raise JudgeError(f"{key} is a rule option: rule options can be changed only while "
                             f"the game is forming, and {game.name} is {game.status} "
                             f"({now})")
        opts = game.options | host.read_options({key: value})
        self.desk.store.update_game(game.name, options=opts)
        if key == "names":  # the GM's own names, as written (Mobtown II rule 1)
            return f"Names: {opts[key] or 'those of the map'}."
        return f"Option {key} = {str(opts[key]).lower()}. Rules: {host.rules_text(opts)}"

