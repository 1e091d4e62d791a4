"""Other judges' habits: what a player or GM used to njudge or DPjudge writes, and what
to send here instead.

Their well-known command words that this judge does not have (``WHOGAME``, ``WHOIS``,
``GET``, ``DIARY``, ``REGISTER``, ``SET WAIT`` / ``SET NOWAIT``) are declared as commands
(:mod:`.registry`) whose only work is to answer "no command X here" and name what does the
job: a line of them above the orders is answered, not set aside as a remark, and a mail of
them alone is a mail with a command (answered as such, within the reply limits of
:mod:`.loops`).  A ``DIARY RECORD`` block, up to its ``ENDDIARY``, is set aside whole
(:func:`~.commands.parse_body`): no line of it is read as an order.

njudge's sign-on ``SIGNON Fvet <password>`` (the power's initial glued to the game's name,
``M`` for the master) is read as ``SIGNON vet France <password>`` or ``GM vet <password>``
when the game and the initial are plain (:meth:`Habits.read_signons`); the password is
never written anywhere by it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mobadj.judge.base import JudgeBase
from mobadj.judge.commands import Command
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.mailparse import Incoming
from mobadj.judge.names import Names
from mobadj.judge.registry import CommandSpec, Context, Words, declarations, declare

_SIGNON = re.compile(r"^[ \t]*sign[\s_-]*on[ \t]+([a-z])([a-z0-9][\w-]{0,29})[ \t]+(\S+)[ \t]*$",
                     re.I)
_PRESS = re.compile(r"^\s*(press|broadcast)\b", re.I)
MAX_SIGNONS = 3  # lines of a mail looked at: one sign-on is what a mail needs
declarations()  # the judge's own commands first (HELP lists them in their order)


@dataclass(frozen=True)
class ReadSignons:
    """A mail's body with njudge's sign-ons written the judge's way, and what the reply
    says of them (each line read, or what to send instead)."""

    body: str
    notes: tuple[str, ...] = ()


class Habits:
    """njudge's sign-on line, read against the games of this judge."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk

    def read_signons(self, inc: Incoming) -> ReadSignons:
        """``SIGNON Fvet pw`` -> ``SIGNON vet F pw`` (``M``: ``GM vet pw``) when ``vet`` is
        a game the sender may name (:meth:`~mobadj.judge.seats.Seats.visible_game`), no
        game they may name is called ``fvet`` and the initial names one power; ``O``
        (njudge's observer) and an initial that names none get a word on what to send
        instead."""
        lines = inc.body.split("\n")
        notes: list[str] = []
        seen = 0
        for number, line in enumerate(lines):
            if _PRESS.match(line):  # a press block's text is the writer's, as written
                break
            m = _SIGNON.match(line) if line[:12].strip()[:4].lower() == "sign" else None
            if m is None:
                continue
            seen += 1
            if seen > MAX_SIGNONS:
                break
            letter, name, password = m.groups()
            game = self.desk.seats.visible_game(inc, name)
            # a private game called fvet that the sender may not name is, for them, none
            if game is None or self.desk.seats.visible_game(inc, letter + name) is not None:
                continue
            try:
                names = Names(host_for(game.kind), game.options)
            except HostError:
                continue
            power = names.find(letter)
            said = f"njudge's SIGNON {letter}{name}"
            if power is not None:
                lines[number] = f"SIGNON {game.name} {letter} {password}"
                notes.append(f"{said} is read as SIGNON {game.name} {names.label(power)} "
                             "<password>.")
            elif letter.upper() == "M":
                lines[number] = f"GM {game.name} {password}"
                notes.append(f"{said} is read as GM {game.name} <gm-password>.")
            elif letter.upper() == "O":
                notes.append(f"{said}: to follow {game.name}, send WATCH {game.name} (no "
                             "password).")
            else:
                notes.append(f"{said}: {letter} names no power of {game.name}; write "
                             f"SIGNON {game.name} <power> <password>.")
        return ReadSignons("\n".join(lines), tuple(notes))


def _game_of(ctx: Context, cmd: Command) -> str:
    """The game a pointer names: the signed-on one, else the one written, else <game>."""
    if ctx.game is not None:
        return ctx.game.name
    named = cmd.args.get("value")
    if named and ctx.inc is not None:
        game = ctx.judge.seats.visible_game(ctx.inc, str(named))
        if game is not None:
            return game.name
    return "<game>"


def _none_here(word: str, instead: str) -> str:
    return f"No command {word} here; {instead}"


def _whogame(ctx: Context, cmd: Command) -> str:
    game = _game_of(ctx, cmd)
    return _none_here("WHOGAME", f"SUMMARY {game} shows who plays which power.")


def _whois(ctx: Context, cmd: Command) -> str:
    return _none_here("WHOIS", "the judge gives out no one's address.")


def _get(ctx: Context, cmd: Command) -> str:
    return _none_here("GET", "HELP lists the commands, and HELP <command> says how to write "
                      "one.")


def _register(ctx: Context, cmd: Command) -> str:
    return _none_here("REGISTER", "nobody registers: JOIN <game> asks for a seat in a game "
                      "taking players (LIST names them).")


def _diary(ctx: Context, cmd: Command) -> str:
    entry = cmd.args.get("entry")  # the block's lines, up to its ENDDIARY
    aside = f"; lines {entry[0]}-{entry[1]} were set aside" if entry else ""
    return _none_here("DIARY", f"this judge keeps no diary, so nothing was stored{aside}.")


def _nowait(ctx: Context, cmd: Command) -> str:
    if ctx.game is not None and ctx.power is None:
        return ("SET NOWAIT: no such option here; the game's option early says whether a "
                "phase is processed as soon as every power is READY: SET early ready (SET "
                "early never: always at the deadline).")
    return ("SET NOWAIT: no such option here; send READY (the phase is processed as soon "
            "as every power is READY); NOT READY takes it back.")


def _wait(ctx: Context, cmd: Command) -> str:
    if ctx.game is not None and ctx.power is None:
        return ("SET WAIT: no such option here; to keep every phase to its deadline, SET "
                "early never (SET early ready: processed as soon as every power is READY).")
    return ("SET WAIT: no such option here; a phase waits for its deadline unless every "
            "power sends READY, and NOT READY takes yours back.")


def _value(words: Words) -> dict[str, object]:
    return {"value": words.at[0] if words.at else None}


def _words(words: Words) -> dict[str, object]:
    return {"value": None, "words": words.given}


declare(CommandSpec("whogame", "WHOGAME [game]   (njudge's; here: SUMMARY <game>)", "[ARG]",
                    _value, max_args=1, sentence_marks="?!", anyone=_whogame))
declare(CommandSpec("whois", "WHOIS <address>   (njudge's; not kept here)", "ARG", _value,
                    max_args=1, sentence_marks="?!", anyone=_whois))
declare(CommandSpec("get", "GET <file>   (njudge's; here: HELP)", "[ARG]", _value,
                    max_args=1, sentence_marks="?!", anyone=_get))
declare(CommandSpec("register", "REGISTER   (njudge's; here: JOIN <game>)", max_args=0,
                    anyone=_register))
declare(CommandSpec("diary", "DIARY [RECORD | LIST | READ <n> | DELETE <n>]   (njudge's; no "
                    "diary here)", "[ARG [ARG]]", _words, max_args=2, sentence_marks="?!",
                    anyone=_diary))
declare(CommandSpec("nowait", "SET NOWAIT   (njudge's; here: READY)", max_args=0,
                    spellings=(r"set[\s_-]+no[\s_-]*wait",), anyone=_nowait))
declare(CommandSpec("setwait", "SET WAIT   (njudge's; here: NOT READY)", max_args=0,
                    spellings=(r"set[\s_-]+wait",), anyone=_wait))

OTHER_JUDGES = ("whogame", "whois", "get", "register", "diary", "nowait", "setwait")
"""The words declared here: other judges' commands, answered with what to send instead
(HELP does not list them; ``HELP whogame`` gives the usage, which says it)."""
