"""The judge's own commands, each declared once (:mod:`.registry`): how it is written, how
its words are read, its usage and HELP lines, and what it does for a player, the GM and an
address without a sign-on.

The handlers stay short: they read the command and hand it to the part of the judge that
does the work (seats, votes, turns, accounts ...).  A command the reading of the mail does
itself (a sign-on, PHASE, a press block) has :func:`~.registry.by_the_mail` as handler.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mobadj.judge import reports
from mobadj.judge.accounts import CONFIRM_DAYS, code_digest, password_refusal
from mobadj.judge.base import JudgeError
from mobadj.judge.commands import (
    ALL_BUT,
    EVERYONE,
    PRESS_KINDS,
    UNFILLED_FORM,
    Command,
    is_game_line,
    parse_duration,
)
from mobadj.judge.deadlines import parse_when
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.names import Names
from mobadj.judge.overview import summary_text
from mobadj.judge.registry import (
    CommandSpec,
    Context,
    Handler,
    Words,
    by_the_mail,
    declare,
    help_text,
    is_command,
    order_help,
    player_help,
    usage,
)
from mobadj.judge.store import Mail, hash_password

_GAME_NAME = re.compile(r"[\w-]{1,30}")
MAX_NAME_WORDS = 5  # the longest power name a command reads ("Baby Face Nelson": three)
_PRESS_WORDS = re.compile(r"[^\s,]+|,")


# -- how words are read ----------------------------------------------------------------------

def _value(words: Words) -> dict[str, Any]:
    """The one word after the keyword (None when it is left out)."""
    return {"value": words.at[0] if words.at else None}


def _last(words: Words) -> dict[str, Any]:
    return {"value": words.at[-1]}


def _seconds(words: Words) -> dict[str, Any]:
    given = words.given
    return {"seconds": parse_duration(given[0]) if given else None}


def _all_words(words: Words) -> dict[str, Any]:
    return {"words": words.given}


def _hide_last(words: list[str]) -> list[str]:
    """The password, written last."""
    return [*words[:-1], "***"] if len(words) >= 2 else words


def _read_signon(words: Words) -> dict[str, Any]:
    given = words.given  # the power may be several words: "Baby Face Nelson"
    if len(given) > 2 + MAX_NAME_WORDS or not _GAME_NAME.fullmatch(given[0]):
        # a sentence ("Sign-on refused: the game ..."), not a sign-on
        raise ValueError("expected a game, a power and a password")
    if given[-1].startswith("<") and given[-1].endswith(">"):  # the judge's form, as is
        raise ValueError(f"{UNFILLED_FORM} {given[-1]}")
    return {"game": given[0], "power": " ".join(given[1:-1]), "password": given[-1]}


def _read_create(words: Words) -> dict[str, Any]:
    opts = {}
    for v in words.given[3:]:
        key, _, value = v.partition("=")
        opts[key.lower().replace("-", "_")] = value
    at = words.at
    return {"game": at[0], "kind": at[1], "password": at[2], "options": opts}


def _read_press(words: Words) -> dict[str, Any]:
    """The recipients as written between the commas (``Baby Face Nelson, Murder Inc.``):
    each a name of one word or several, or several names written with spaces between them
    (the game reads them, :mod:`mobadj.judge.names`); GREY or WHITE before TO or after the
    names; ``ALL BUT`` (or ``BUT``) and the powers left out.  A line that names nobody but
    GREY or WHITE keeps the word as a name: a game may have a power of that name."""
    tokens = _PRESS_WORDS.findall(words.text)[1:]  # (the keyword)
    kinds: list[str] = []
    while tokens and tokens[0].lower() in PRESS_KINDS:
        kinds.append(tokens.pop(0))
    if tokens and tokens[0].lower() == "to":
        tokens.pop(0)
    while tokens and (tokens[-1] == "," or tokens[-1].lower() in PRESS_KINDS):
        word = tokens.pop()
        if word != ",":
            kinds.insert(0, word)
    if not any(t != "," for t in tokens):  # PRESS TO Grey: a name, or a word to explain
        tokens, kinds = kinds, []
    said = {PRESS_KINDS[k.lower()] for k in kinds}
    if len(said) > 1:
        raise ValueError("GREY and WHITE both: press is either anonymous (GREY) or signed "
                         "(WHITE, as without either)")
    but = next((i for i, t in enumerate(tokens) if t.lower() in ALL_BUT), None)
    left_out: list[str] = []
    if but is not None:
        before = [t for t in tokens[:but] if t != ","]
        if len(before) > 1 or (before and before[0].upper() not in EVERYONE):
            raise ValueError(f"{tokens[but].upper()} goes after ALL (PRESS TO ALL BUT "
                             "<power>, ...), or name the powers it is for")
        left_out = _between_commas(tokens[but + 1:])
        if not left_out:
            raise ValueError(f"name the powers after {tokens[but].upper()} (PRESS TO ALL BUT "
                             "<power>, ...)")
        tokens = ["ALL"]
    return {"targets": _between_commas(tokens), "grey": said == {"grey"}, "but": left_out}


def _between_commas(tokens: list[str]) -> list[str]:
    return [part.strip() for part in " ".join(tokens).split(",") if part.strip()]


def _read_addplayer(words: Words) -> dict[str, Any]:
    given = words.given  # a power of several words, then maybe a password: the game knows
    at = next((i for i, word in enumerate(given) if "@" in word), 0)
    rest = given[:at] + given[at + 1:]  # "ADDPLAYER West carla@x.org": the address, wherever
    return {"email": given[at], "power": " ".join(rest), "words": rest, "password": None}


def _read_set(words: Words) -> dict[str, Any]:
    given = words.given
    return {"option": given[0].lower().replace("-", "_"), "value": " ".join(given[1:])}


# -- what the commands do ---------------------------------------------------------------------

def _record(ctx: Context, kind: str, text: str) -> None:
    """Keep a player's command in the game's record."""
    ctx.judge.store.record_command(ctx.in_game.name, ctx.seat, ctx.message_id, ctx.uid, kind,
                                   text, ctx.now)


def _open(do: Handler) -> Handler:
    """A command any address may give: its refusal is the reply, as it is."""
    def handle(ctx: Context, cmd: Command) -> str | None:
        try:
            return do(ctx, cmd)
        except (JudgeError, HostError) as exc:
            return str(exc)
    return handle


def _help(ctx: Context, cmd: Command) -> str:
    return help_text(cmd.args.get("value"))


def _player_help(ctx: Context, cmd: Command) -> str:
    """HELP in a game that has its own (a card game's): its commands, what the player may
    send now, and the judge commands that apply there; ``HELP <word>`` a command of the
    game (after SIGNON its words are the game's) or of the judge, else the game's
    explanation of the word (a card).  (What may be sent out of turn ends every reply.)"""
    game = ctx.in_game
    topic = cmd.args.get("value")
    host = host_for(game.kind)
    if game.state is None:
        return help_text(topic)
    if topic and is_command(topic) and not is_game_line(topic, host.command_words(game.state)):
        return help_text(topic)
    own = host.help(game.state, ctx.seat, topic)
    if own is None:
        return help_text(topic) + _notation_note(game.kind, host.title, topic)
    return own if topic else f"{own}\n\n{player_help(host.judge_help)}"


def _ready(ctx: Context, cmd: Command) -> str:
    refusal = ctx.judge.players.ready_refused(ctx.in_game, ctx.seat, ctx.rejected, ctx.stale,
                                              ctx.inc)
    return refusal or _mark_ready(ctx, cmd)


def _mark_ready(ctx: Context, cmd: Command) -> str:
    game, power, store = ctx.in_game, ctx.seat, ctx.judge.store
    host = host_for(game.kind)
    if game.state is None or power not in host.due(game.state):
        return "READY: no orders are due from you now."
    store.update_player(game.name, power, ready=int(cmd.name == "ready"))
    _record(ctx, cmd.name, cmd.name)
    if cmd.name == "notready":
        return "READY withdrawn."
    phase = host.phase(game.state)
    extra = ""
    if power not in store.orders(game.name, phase):
        # READY without orders is an answer: "nothing to order" (units hold/defaults)
        store.set_orders(game.name, phase, power, "", ctx.now, ctx.message_id)
        extra = " You gave no orders: the rules' defaults apply to your units."
    return "Marked READY: the phase is resolved early when every power is ready." + extra


def _notation_note(kind: str, title: str, topic: str | None) -> str:
    """HELP's orders are written as on the standard map: on another map (Mobtown II) the
    player is told so, lest ``Build A VIE`` be sent where there is no VIE."""
    if kind == "standard" or (topic and order_help(topic) is None):
        return ""
    return (f"\n\nThe orders above are written as on the standard map; {title} writes them "
            "its own way (see the examples in the mail that started the game, and the "
            "player's guide).")


def _preview(ctx: Context, cmd: Command) -> str:
    game = ctx.in_game
    host = host_for(game.kind)
    if game.state is None:
        raise JudgeError("PREVIEW: the game has not started.")
    orders = ctx.judge.store.orders(game.name, host.phase(game.state)).get(ctx.seat, "")
    return "Preview (the others all hold):\n" + host.preview(game.state, ctx.seat, orders)


def _vote(ctx: Context, cmd: Command) -> str:
    _record(ctx, "vote", cmd.text)
    return ctx.judge.endings.vote(ctx.in_game, ctx.seat, cmd, ctx.now, ctx.out)


def _gm_vote(ctx: Context, cmd: Command) -> str:
    return (f"{cmd.name.upper()} is a player's vote; to end the game yourself send "
            f"ENDGAME [DRAW [power ...] | WIN <power>].")


def _resign(ctx: Context, cmd: Command) -> str:
    _record(ctx, "resign", cmd.text)
    return ctx.judge.seats.resign(ctx.in_game, ctx.seat, ctx.now, ctx.out)


def _gm_resign(ctx: Context, cmd: Command) -> str:
    raise JudgeError("RESIGN is a player's command; to free a seat, REPLACE it or OFFER it "
                     "for TAKEOVER.")


def _player_set(ctx: Context, cmd: Command) -> str:
    judge, game, power = ctx.judge, ctx.in_game, ctx.seat
    option, value = cmd.args["option"], cmd.args["value"]
    if option == "password":
        return judge.accounts.set_password(game, power, value, ctx.mail, ctx.uid, ctx.now)
    if option in ("address", "email"):
        return judge.accounts.set_address(game, power, value, ctx.mail, ctx.uid, ctx.now, ctx.out)
    if option in ("timezone", "tz", "zone"):
        player = judge.store.player(game.name, power)
        return judge.accounts.set_timezone(player.email if player else ctx.mail.sender, value)
    if option in ("absence", "vacation", "holiday"):  # njudge's SET ABSENCE <from> TO <to>
        return (f"SET {option.upper()}: absences are asked with ABSENCE <duration>, "
                "e.g. ABSENCE 3 days (it moves the deadline, from your vacation quota).")
    return (f"SET {option.upper()}: players may set PASSWORD, ADDRESS and TIMEZONE; game "
            f"options are the GM's.")


def _gm_set(ctx: Context, cmd: Command) -> str:
    option, value = cmd.args["option"], cmd.args["value"]
    if option in ("timezone", "tz", "zone"):
        return ctx.judge.accounts.set_timezone(ctx.in_game.gm_email, value)
    if option in ("gm", "gm_address", "gm_email", "address", "email"):  # the GM's address
        inc = ctx.inc  # None: the judge's command line
        by = "by a mail with the GM password" if inc else "on the judge's command line"
        return ctx.judge.gm.set_gm(ctx.in_game, value, by, ctx.now, ctx.out,
                                   sender=inc.sender if inc else None)
    if option == "deadline":  # njudge's SET DEADLINE <date>: this phase's, not a rule
        try:  # a time the DEADLINE command reads as it is: that line, ready to send
            parse_when(value, ctx.judge.tz, ctx.now)
            example = f"DEADLINE {value}"
        except ValueError:
            example = "DEADLINE 2027-01-18 23:00 or DEADLINE +36h"
        raise JudgeError("unknown option 'deadline'; the deadline itself is set with "
                         f"{usage('deadline')}, e.g. {example}, and EXTEND 24 hours moves it "
                         "later. Nothing was changed.")
    if option != "password":
        return ctx.judge.gm.set_option(ctx.in_game, option, value)
    return _gm_password(ctx, cmd)


def _gm_password(ctx: Context, cmd: Command) -> str:
    """SET PASSWORD for the GM: refused as a player's would be (``SET PASSWORD new extra``
    would store a password no ``GM <game> <password>`` line can carry)."""
    refusal = password_refusal(cmd.args["value"])
    if refusal:
        raise JudgeError(f"SET PASSWORD: {refusal}")
    ctx.judge.store.update_game(ctx.in_game.name,
                                gm_hash=hash_password(cmd.args["value"], ctx.judge.kdf_n))
    return "GM password changed."


def _link(ctx: Context, cmd: Command) -> str:
    from mobadj.judge.webplay import mail_link  # the pages' sign-in, kept apart

    return mail_link(ctx.judge, ctx.in_game, ctx.seat, ctx.now, ctx.out)


def _confirm(ctx: Context, cmd: Command) -> str:
    """CONFIRM: the address change, JOIN, WATCH or TAKEOVER that waits for the code."""
    judge, inc = ctx.judge, ctx.mail
    code = code_digest(str(cmd.args.get("value") or ""))
    since = ctx.now - CONFIRM_DAYS * 86400
    answer = (judge.accounts.confirm(inc, cmd, ctx.now, ctx.out)
              or judge.forming.confirm_request(inc, code, since, ctx.now, ctx.out))
    if answer is None:
        raise JudgeError("CONFIRM: no change, JOIN or WATCH waits for this code from this "
                         f"address (codes lapse after {CONFIRM_DAYS} days). "
                         f"Usage: {usage('confirm')}")
    return answer


def _addplayer(ctx: Context, cmd: Command) -> str:
    judge, game, a = ctx.judge, ctx.in_game, cmd.args
    if game.status == "forming" and judge.store.joins(game.name) and \
            not judge.forming.seat_counts(game)[0]:
        raise JudgeError("every seat is taken or promised to those who joined")
    power, password = a["power"], a.get("password")
    if a.get("words"):  # a power of several words ("Murder Inc."), then a password?
        power, rest = Names(host_for(game.kind), game.options).seat_and_rest(a["words"], 1)
        password = rest[0] if rest else None
    refusal = password_refusal(password) if password is not None else None
    if refusal:  # a password no SIGNON line can carry would lock the player out
        raise JudgeError(f"the password given for {power}: {refusal} (or give none: the "
                         f"judge makes one and mails it to the player)")
    added = judge.seats.add_player(game, a["email"], power, password, ctx.now, ctx.out)
    full = judge.forming.fill_if_full(game, ctx.now, ctx.out) if game.status == "forming" else ""
    return f"{added}\n{full}" if full else added


def _approve(ctx: Context, cmd: Command) -> str:
    """APPROVE / REJECT: a JOIN waiting for the GM, or a TAKEOVER once the game runs."""
    game, accept = ctx.in_game, cmd.name == "approve"
    if game.status != "forming":
        return ctx.judge.seats.approve_takeover(game, cmd.args["value"], accept, ctx.now, ctx.out)
    return ctx.judge.forming.approve(game, cmd.args["value"], accept, ctx.now, ctx.out)


def _deadline(ctx: Context, cmd: Command) -> str:
    judge, game = ctx.judge, ctx.in_game
    try:
        ts = parse_when(cmd.args["when"], judge.tz, ctx.now)
    except ValueError as exc:
        raise JudgeError(str(exc)) from None
    if ts <= ctx.now:  # a slip of the year or the day: it would adjudicate at once
        raise JudgeError(f"{reports.stamp(ts)} has passed (it is {reports.stamp(ctx.now)}); "
                         "PROCESS (mobadj game process) adjudicates the phase now")
    _not_too_far(ts, ctx.now, "DEADLINE")
    judge.turns.require_running(game)
    judge.store.update_game(game.name, deadline=ts, reminded=0)
    judge._announce(game, f"{game.name}: new deadline",
                    f"The GM set the deadline to {reports.stamp(ts)}.", ctx.out)
    return f"Deadline set: {reports.stamp(ts)}"


FURTHEST_DEADLINE_DAYS = 366
"""A deadline set further ahead is a slip (EXTEND 2000 hours for 200, the year 2207 for
2027): the game would wait for months."""


def _not_too_far(ts: float, now: float, command: str) -> None:
    if ts - now > FURTHEST_DEADLINE_DAYS * 86400:
        raise JudgeError(f"{command}: {reports.stamp(ts)} is more than a year ahead; nothing "
                         "was changed (PAUSE stops the clock for a while)")


def _extend(ctx: Context, cmd: Command) -> str:
    judge, game = ctx.judge, ctx.in_game
    judge.turns.require_running(game)
    assert game.deadline is not None
    if cmd.args["seconds"] <= 0:
        raise JudgeError("EXTEND by no time changes nothing: say how long (EXTEND 2 days)")
    ts = max(game.deadline, ctx.now) + cmd.args["seconds"]
    _not_too_far(ts, ctx.now, "EXTEND")
    judge.store.update_game(game.name, deadline=ts, reminded=0)
    judge._announce(game, f"{game.name}: deadline extended",
                    f"The GM extended the deadline to {reports.stamp(ts)}.", ctx.out)
    return f"Deadline extended to {reports.stamp(ts)}"


def _process(ctx: Context, cmd: Command) -> str:
    """PROCESS [phase]: adjudicate now; with a phase, only if the game is still at it (a
    PROCESS sent just after every player's READY would otherwise adjudicate the next phase
    with no orders in)."""
    game = ctx.in_game
    ctx.judge.turns.require_running(game)
    wanted = cmd.args.get("value")
    if wanted:
        current = host_for(game.kind).phase(game.started_state)
        if wanted.lower() != current.lower():
            done = [r for r in ctx.judge.store.results(game.name)
                    if r["phase"].lower() == wanted.lower()]
            why = (f"{done[-1]['phase']} was adjudicated at {reports.stamp(done[-1]['at'])}"
                   if done else f"the game is not at {wanted}")
            raise JudgeError(f"PROCESS {wanted}: {why}; the game is at {current} now. "
                             f"Nothing was adjudicated (PROCESS {current} adjudicates it; "
                             "ROLLBACK undoes the last adjudicated phase).")
    return ctx.judge.turns.resolve(game, ctx.now, ctx.out, forced=True)


def _export(ctx: Context, cmd: Command) -> str:
    game = ctx.in_game
    data = ctx.judge.export(game.name)
    ctx.out.append(Mail(game.gm_email, f"{game.name}: export",
                        f"The whole history of {game.name} is attached (JSON).\n",
                        [(f"{game.name}.json", "application/json",
                          json.dumps(data, indent=1).encode())], game=game.name))
    return "Export mailed to the GM."


def _status(ctx: Context, cmd: Command) -> str:
    """LIST: the game as its player (or, without a power, its GM) sees it."""
    return ctx.judge.players.status(ctx.in_game, ctx.power)


def _history(ctx: Context, cmd: Command) -> str:
    which, more = cmd.args.get("value"), cmd.args.get("more")
    if which and more and which.lower() == ctx.in_game.name:  # HISTORY <game> 5: this game
        which = more
    return ctx.judge.players.history(ctx.in_game, which)


def _open_history(ctx: Context, cmd: Command) -> str:
    """HISTORY <game> [n | phase] without a sign-on: the results mailed to its observers
    (any public game's, as WATCH and the game's pages give them; a private one's only to
    those it is known to), never more."""
    name = cmd.args.get("value")
    game = ctx.judge.seats.visible_game(ctx.mail, name) if name else None
    if game is None:
        return (f"HISTORY: no game {name!r}; send LIST for the games on this judge." if name
                else "HISTORY: name the game: HISTORY <game> [number of phases | phase] "
                "(WATCH <game> mails you each result as it comes).")
    return ctx.judge.players.history(game, cmd.args.get("more"))


def _summary(ctx: Context, cmd: Command) -> str:
    return summary_text(ctx.judge.store, ctx.in_game, gm_view=ctx.power is None)


# -- the declarations, in the order HELP lists them ------------------------------------------

declare(CommandSpec(
    "signon", "SIGNON <game> <power> <password>", "ARG ARG ARG+", _read_signon,
    aliases=("login", "logon", "sign", "signin"),
    spellings=(r"sign[\s_-]*(on|in)", r"log[\s_-]*(on|in)"),
    secret=lambda w: _hide_last(w) if len(w) >= 4 else w,
    help=(("SIGNON <game> <power> <password>", "first line of every mail (or SIGN ON, LOGIN)"),),
    player=by_the_mail, gm=by_the_mail))
declare(CommandSpec(
    "gm", "GM <game> <gm-password>", "ARG ARG",
    lambda w: {"game": w.at[0], "password": w.at[1]}, secret=_hide_last,
    player=by_the_mail, gm=by_the_mail))
declare(CommandSpec(
    "create", "CREATE <game> <kind> <gm-password> [option=value ...]   (the judge's options, "
    "e.g. deadline_hours=72, and the map's rule options, e.g. paradox=1982)",
    "ARG ARG ARG OPTION*", _read_create,
    secret=lambda w: [*w[:3], "***", *w[4:]] if len(w) >= 4 else w,
    gm=by_the_mail, unsigned=by_the_mail))
declare(CommandSpec(
    "orders", "ORDERS", max_args=0, aliases=("order",),
    help=(("<orders>", "one per line, e.g. A PAR - BUR; they replace earlier ones"),),
    player=by_the_mail))
declare(CommandSpec(
    "phase", "PHASE <phase, e.g. S1901M>", "ARG", _value, max_args=1,
    help=(("PHASE <phase>", "orders below are for this phase only"),), player=by_the_mail))
declare(CommandSpec(
    "press", "PRESS TO <power>[, <power>...] | ALL | ALL BUT <power>[, <power>...] | GM "
    "[GREY | WHITE]   (then the text, then ENDPRESS; GM: to the game's GM)",
    '["to"i] target ("," target | target)* [GREY]', _read_press,
    help=(("PRESS TO <power>[, <power>] | ALL [GREY]", "then your message, then ENDPRESS"),
          ("PRESS TO ALL BUT <power>[, <power>]", "to everyone but the powers named"),
          ("PRESS TO GM", "a message to the game's GM, also ended by ENDPRESS")),
    player=by_the_mail, gm=by_the_mail))
declare(CommandSpec(
    "broadcast", "BROADCAST [GREY]   (then the text, then ENDPRESS)", "[GREY | WHITE]",
    lambda w: {"targets": ["ALL"], "grey": any(PRESS_KINDS[g.lower()] == "grey"
                                               for g in w.given)},
    help=(("BROADCAST [GREY]", "press to everyone, ended by ENDPRESS"),),
    player=by_the_mail, gm=by_the_mail))
declare(CommandSpec("endpress", "ENDPRESS", max_args=0, spellings=(r"end[\s_-]*press",)))
declare(CommandSpec(
    "list", "LIST [game]", "[ARG]", _value, max_args=1, aliases=("info", "status"),
    help=(("LIST", "game status, who has submitted, the deadline"),),
    open_help="LIST (the games, and those taking players)",
    player=_status, gm=_status, unsigned=lambda ctx, cmd: ctx.judge.list_games(cmd.args["value"])))
declare(CommandSpec(
    "history", "HISTORY [number of phases | phase]   (without a sign-on: HISTORY <game> [...])",
    "[ARG [ARG]]", lambda w: {"value": w.at[0], "more": w.at[1]}, max_args=2,
    help=(("HISTORY [n | phase]", "past results"),), open_help="HISTORY <game>",
    player=_history, gm=_history, unsigned=_open_history))
declare(CommandSpec(
    "ready", "READY", max_args=0,
    help=(("READY / NOT READY", "resolve early when every power is ready"),),
    player=_ready))
declare(CommandSpec(
    "notready", "NOT READY", max_args=0, aliases=("unready", "wait"),
    spellings=(r"not[\s_-]*ready",), player=_mark_ready))
declare(CommandSpec(
    "preview", "PREVIEW", max_args=0, aliases=("whatif", "what-if"),
    spellings=(r"what[\s_-]*if",),
    help=(("PREVIEW", "what your orders would do if everyone else held"),), player=_preview))
declare(CommandSpec(
    "absence", "ABSENCE <duration, e.g. 3 days>", "DURATION", _seconds, max_args=2,
    aliases=("vacation", "holiday"),
    help=(("ABSENCE <duration>", "move the deadline (from your vacation quota)"),),
    player=lambda ctx, cmd: ctx.judge.players.absence(ctx.in_game, ctx.seat, cmd.args["seconds"],
                                                      ctx.mail, ctx.uid, ctx.now, ctx.out)))
declare(CommandSpec(
    "draw", "DRAW [power ...]   (the powers only in games with named draws)", "ARG*",
    lambda w: {"words": w.at}, sentence_marks="?!",
    help=(("DRAW / NO DRAW", "vote for a draw (secret until it passes)"),),
    player=_vote, gm=_gm_vote))
declare(CommandSpec(
    "nodraw", "NO DRAW", max_args=0, spellings=(r"no[\s_-]*draw",), player=_vote, gm=_gm_vote))
declare(CommandSpec(
    "concede", "CONCEDE TO <power>", '["to"i] ARG+', lambda w: {"value": " ".join(w.given)},
    sentence_marks="?!",
    help=(("CONCEDE TO <power> / NO CONCEDE", "concede the game to a power"),),
    player=_vote, gm=_gm_vote))
declare(CommandSpec(
    "noconcede", "NO CONCEDE", max_args=0, spellings=(r"no[\s_-]*concede",),
    player=_vote, gm=_gm_vote))
declare(CommandSpec(
    "set", "SET <option> <value>   (players: SET PASSWORD | ADDRESS | TIMEZONE <value>)",
    "ARG ARG+", _read_set,
    secret=lambda w: [*w[:2], "***"] if len(w) >= 3 and w[1].lower() == "password" else w,
    help=(("SET PASSWORD <new>", "change your password (or PASSWORD <new>)"),
          ("SET ADDRESS <email>", "move your seat to another address (confirmed by mail)"),
          ("SET TIMEZONE <zone>", "times in your mails in your zone, e.g. Europe/Paris")),
    gm_help="SET", player=_player_set, gm=_gm_set))
declare(CommandSpec(
    "password", "PASSWORD <new password>", "ARG", _value, max_args=1, secret=_hide_last,
    player=lambda ctx, cmd: ctx.judge.accounts.set_password(
        ctx.in_game, ctx.seat, cmd.args["value"], ctx.mail, ctx.uid, ctx.now),
    gm=_gm_password))
declare(CommandSpec(
    "summary", "SUMMARY [game]", "[ARG]", _value, max_args=1,
    help=(("SUMMARY", "who played which power when, centres by year"),),
    open_help="SUMMARY <game>", player=_summary, gm=_summary,
    unsigned=lambda ctx, cmd: ctx.judge.public_summary(ctx.mail, cmd.args.get("value"))))
declare(CommandSpec(
    "resign", "RESIGN   (you leave the game; your power is in civil disorder until taken over)",
    max_args=0, help=(("RESIGN", "leave the game (your power waits for a new player)"),),
    player=_resign, gm=_gm_resign))
declare(CommandSpec(
    "link", "LINK   (the judge mails you a link that signs you in on the game's page, once)",
    max_args=0, help=(("LINK", "a link that signs you in on the game's page, mailed"),),
    player=_link))
declare(CommandSpec(
    "join", "JOIN <game> [power ...]   (the powers you would like, best first)", "ARG ARG*",
    lambda w: {"game": w.at[0], "prefs": w.at[1:]}, sentence_marks="?!",
    open_help="JOIN <game> [powers]",
    anyone=_open(lambda ctx, cmd: ctx.judge.forming.join(ctx.mail, cmd, ctx.now, ctx.out))))
declare(CommandSpec(
    "unjoin", "UNJOIN <game>", "ARG", _last, max_args=1, spellings=(r"un[\s_-]*join",),
    open_help="UNJOIN <game>",
    anyone=_open(lambda ctx, cmd: ctx.judge.forming.unjoin(ctx.mail, cmd, ctx.now, ctx.out))))
declare(CommandSpec(
    "watch", "WATCH <game>", "ARG", _last, max_args=1, open_help="WATCH <game> / UNWATCH <game>",
    anyone=_open(lambda ctx, cmd: ctx.judge.forming.watch(ctx.mail, cmd, ctx.now, True, ctx.out))))
declare(CommandSpec(
    "unwatch", "UNWATCH <game>", "ARG", _last, max_args=1, spellings=(r"un[\s_-]*watch",),
    anyone=_open(lambda ctx, cmd: ctx.judge.forming.watch(ctx.mail, cmd, ctx.now, False, ctx.out))))
declare(CommandSpec(
    "takeover", "TAKEOVER <game> <power>   (a power without player, in civil disorder, or "
    "offered by the GM)", "ARG ARG+", _all_words, spellings=(r"take[\s_-]*over",),
    open_help="TAKEOVER <game> <power>",
    anyone=_open(lambda ctx, cmd: ctx.judge.seats.takeover(ctx.mail, cmd, ctx.now, ctx.out))))
declare(CommandSpec(
    "confirm", "CONFIRM <code>", "ARG", _last, max_args=1,
    secret=lambda w: [w[0], "***"] if len(w) >= 2 else w, open_help="CONFIRM <code>",
    anyone=_open(_confirm)))
declare(CommandSpec(
    "help", "HELP [command]", "[ARG]", _value, max_args=1,
    help=(("HELP [command]", "this text, or how to write one command"),), open_help="HELP",
    player=_player_help, gm=_help, unsigned=_help))
declare(CommandSpec(
    "signoff", "SIGNOFF", max_args=0, aliases=("logout", "end", "quit", "bye", "exit"),
    spellings=(r"sign[\s_-]*off",),
    help=(("SIGNOFF", "ignore the rest of the mail (e.g. a signature)"),)))

# the GM's
declare(CommandSpec(
    "addplayer", "ADDPLAYER <email> <power> [password]", "ARG ARG+", _read_addplayer,
    aliases=("add",), spellings=(r"add[\s_-]*player",),
    secret=lambda w: [*w[:3], "***"] if len(w) >= 4 else w, gm_help="ADDPLAYER",
    gm=_addplayer))
declare(CommandSpec("approve", "APPROVE <email>", "ARG", _last, max_args=1,
                    gm_help="APPROVE", gm=_approve))
declare(CommandSpec("reject", "REJECT <email>", "ARG", _last, max_args=1,
                    gm_help="REJECT", gm=_approve))
declare(CommandSpec(
    "start", "START", max_args=0, aliases=("begin",), gm_help="START",
    gm=lambda ctx, cmd: ctx.judge.forming.start(ctx.in_game, ctx.now, ctx.out)))
declare(CommandSpec(
    "deadline", "DEADLINE <YYYY-MM-DD HH:MM> [time zone]", "WHEN+",
    lambda w: {"when": " ".join(w.given)}, gm_help="DEADLINE", gm=_deadline))
declare(CommandSpec(
    "extend", "EXTEND <duration, e.g. 24 hours>", "DURATION", _seconds, max_args=2,
    aliases=("grace",), gm_help="EXTEND", gm=_extend))
declare(CommandSpec(
    "pause", "PAUSE [duration]", "[DURATION]", _seconds, max_args=2, gm_help="PAUSE",
    gm=lambda ctx, cmd: ctx.judge.turns.pause(ctx.in_game, cmd.args.get("seconds"), ctx.now,
                                              ctx.out)))
declare(CommandSpec(
    "resume", "RESUME", max_args=0, gm_help="RESUME",
    gm=lambda ctx, cmd: ctx.judge.turns.resume(ctx.in_game, ctx.now, ctx.out, by="the GM")))
declare(CommandSpec(
    "replace", "REPLACE <power> <email>", "ARG ARG+",
    lambda w: {"power": " ".join(w.given[:-1]), "email": w.given[-1]}, gm_help="REPLACE",
    gm=lambda ctx, cmd: ctx.judge.gm.replace(ctx.in_game, cmd.args["power"], cmd.args["email"],
                                             ctx.now, ctx.out)))
declare(CommandSpec(
    "offer", "OFFER <power> [NO]   (open a power for TAKEOVER; NO withdraws the offer)",
    "ARG+", _all_words, gm_help="OFFER",
    gm=lambda ctx, cmd: ctx.judge.seats.offer(ctx.in_game, cmd.args["words"], ctx.now, ctx.out)))
declare(CommandSpec(
    "become", "ORDERS FOR <power>   (or BECOME <power>; the orders below are the GM's for it)",
    "ARG+", _all_words, spellings=(r"orders[\s_-]+for",), sentence_marks=",;:?!",
    gm_help="ORDERS FOR <power>", gm=by_the_mail))
declare(CommandSpec(
    "process", "PROCESS [phase]   (with a phase: only if the game is still at it)", "[ARG]",
    _value, max_args=1, aliases=("adjudicate",), gm_help="PROCESS [phase]", gm=_process))
declare(CommandSpec(
    "rollback", "ROLLBACK", max_args=0, aliases=("undo",), spellings=(r"roll[\s_-]*back",),
    gm_help="ROLLBACK",
    gm=lambda ctx, cmd: ctx.judge.turns.rollback(ctx.in_game, ctx.now, ctx.out)))
declare(CommandSpec(
    "endgame", "ENDGAME [DRAW [power ...] | WIN <power>]", "ARG*", lambda w: {"words": w.at},
    aliases=("terminate",), spellings=(r"end[\s_-]*game",),
    gm_help="ENDGAME [DRAW ... | WIN ...]",
    gm=lambda ctx, cmd: ctx.judge.endings.gm_end(ctx.in_game, cmd.args.get("words") or [], ctx.now,
                                                 ctx.out)))
declare(CommandSpec("export", "EXPORT", max_args=0, gm_help="EXPORT", gm=_export))
