"""The judge's command language by mail: njudge-like, forgiving, with clear errors.

A mail body is read line by line.  A line whose first word is a command keyword is parsed
with ``commands.lark``; the lines of a press block are its text; every other line is an
order line, left to the game's own order parser.  Keywords are case-insensitive and the
usual two-word spellings are accepted (``SIGN ON``, ``ADD PLAYER``, ``NOT READY``,
``END PRESS``, ``END GAME``).

A game's own commands come first: :func:`parse_body` takes the words the signed-on game's
commands start with (a card game's ``start a3``, ``end``), and a line starting with one of
them is an order line even where the judge has a command of that name.  Only the press
words (PRESS, BROADCAST, ENDPRESS) stay the judge's whatever the game: a message meant for
one player must never be read as table talk.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from mobadj.typed import as_meant

KEYWORDS = (
    "signon", "gm", "create", "phase", "press", "broadcast", "endpress", "list", "history",
    "ready", "notready", "help", "preview", "absence", "signoff", "password", "orders",
    "addplayer", "start", "deadline", "extend", "pause", "resume", "replace", "process",
    "rollback", "endgame", "export", "set", "confirm", "draw", "nodraw", "concede",
    "noconcede", "join", "unjoin", "watch", "unwatch", "approve", "reject",
    "resign", "takeover", "offer", "become", "summary",
)
# What each command expects after its keyword (for error messages and HELP).
USAGE = {
    "signon": "SIGNON <game> <power> <password>",
    "gm": "GM <game> <gm-password>",
    "create": "CREATE <game> <kind> <gm-password> [option=value ...]   (the judge's options, "
              "e.g. deadline_hours=72, and the map's rule options, e.g. paradox=1982)",
    "phase": "PHASE <phase, e.g. S1901M>",
    "press": "PRESS TO <power>[, <power>...] | ALL [GREY]   (then the text, then ENDPRESS)",
    "broadcast": "BROADCAST [GREY]   (then the text, then ENDPRESS)",
    "endpress": "ENDPRESS",
    "list": "LIST [game]",
    "history": "HISTORY [number of phases | phase]",
    "ready": "READY",
    "notready": "NOT READY",
    "help": "HELP [command]",
    "preview": "PREVIEW",
    "absence": "ABSENCE <duration, e.g. 3 days>",
    "signoff": "SIGNOFF",
    "password": "PASSWORD <new password>",
    "orders": "ORDERS",
    "addplayer": "ADDPLAYER <email> <power> [password]",
    "start": "START",
    "deadline": "DEADLINE <YYYY-MM-DD HH:MM> [time zone]",
    "extend": "EXTEND <duration, e.g. 24 hours>",
    "pause": "PAUSE [duration]",
    "resume": "RESUME",
    "replace": "REPLACE <power> <email>",
    "process": "PROCESS",
    "rollback": "ROLLBACK",
    "endgame": "ENDGAME [DRAW [power ...] | WIN <power>]",
    "export": "EXPORT",
    "set": "SET <option> <value>   (players: SET PASSWORD | ADDRESS | TIMEZONE <value>)",
    "confirm": "CONFIRM <code>",
    "draw": "DRAW [power ...]   (the powers only in games with named draws)",
    "nodraw": "NO DRAW",
    "concede": "CONCEDE TO <power>",
    "noconcede": "NO CONCEDE",
    "join": "JOIN <game> [power ...]   (the powers you would like, best first)",
    "unjoin": "UNJOIN <game>",
    "watch": "WATCH <game>",
    "unwatch": "UNWATCH <game>",
    "approve": "APPROVE <email>",
    "reject": "REJECT <email>",
    "resign": "RESIGN   (you leave the game; your power is in civil disorder until taken over)",
    "takeover": "TAKEOVER <game> <power>   (a power without player, in civil disorder, or "
                "offered by the GM)",
    "offer": "OFFER <power> [NO]   (open a power for TAKEOVER; NO withdraws the offer)",
    "become": "ORDERS FOR <power>   (or BECOME <power>; the orders below are the GM's for it)",
    "summary": "SUMMARY [game]",
}
ALIASES = {
    "login": "signon", "logon": "signon", "sign": "signon", "signin": "signon",
    "logout": "signoff", "end": "signoff", "quit": "signoff", "bye": "signoff", "exit": "signoff",
    "unready": "notready", "wait": "notready", "vacation": "absence", "holiday": "absence",
    "info": "list", "status": "list", "whatif": "preview", "what-if": "preview",
    "order": "orders", "add": "addplayer", "begin": "start", "terminate": "endgame",
    "grace": "extend", "undo": "rollback", "adjudicate": "process",
}
_JOIN = [
    (re.compile(r"^\s*sign[\s_-]*(on|in)\b", re.I), "signon"),
    (re.compile(r"^\s*sign[\s_-]*off\b", re.I), "signoff"),
    (re.compile(r"^\s*log[\s_-]*(on|in)\b", re.I), "signon"),
    (re.compile(r"^\s*add[\s_-]*player\b", re.I), "addplayer"),
    (re.compile(r"^\s*not[\s_-]*ready\b", re.I), "notready"),
    (re.compile(r"^\s*end[\s_-]*press\b", re.I), "endpress"),
    (re.compile(r"^\s*end[\s_-]*game\b", re.I), "endgame"),
    (re.compile(r"^\s*what[\s_-]*if\b", re.I), "preview"),
    (re.compile(r"^\s*roll[\s_-]*back\b", re.I), "rollback"),
    (re.compile(r"^\s*no[\s_-]*draw\b", re.I), "nodraw"),
    (re.compile(r"^\s*no[\s_-]*concede\b", re.I), "noconcede"),
    (re.compile(r"^\s*un[\s_-]*watch\b", re.I), "unwatch"),
    (re.compile(r"^\s*un[\s_-]*join\b", re.I), "unjoin"),
    (re.compile(r"^\s*take[\s_-]*over\b", re.I), "takeover"),
    (re.compile(r"^\s*orders[\s_-]+for\b", re.I), "become"),
]
# The most words the commands with few arguments take: a line that begins with one of their
# words but has more words than this, and is no such command, is a sentence ("Orders
# below.", "Ready when you are!", "List of my moves:"), read as the other lines are.
MAX_ARGS = {
    "orders": 0, "ready": 0, "notready": 0, "start": 0, "preview": 0, "signoff": 0,
    "endpress": 0, "resume": 0, "process": 0, "rollback": 0, "export": 0, "nodraw": 0,
    "noconcede": 0, "list": 1, "history": 1, "help": 1, "phase": 1, "password": 1,
    "confirm": 1, "unjoin": 1, "watch": 1, "unwatch": 1, "approve": 1, "reject": 1,
    "absence": 2, "extend": 2, "pause": 2, "resign": 0, "summary": 1,
}
# always the judge's, even where a game uses the word (Iron Triangle's "press" = say)
PRESS_WORDS = frozenset({"press", "broadcast", "endpress"})
MAX_LINE = 500
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)", re.I)
_GAME_NAME = re.compile(r"[\w-]{1,30}")
MAX_NAME_WORDS = 5  # the longest power name a command reads ("Baby Face Nelson": three)
_PRESS_HEAD = re.compile(r"^\s*press\s*(to\b)?\s*", re.I)
_GREY_TAIL = re.compile(r"[\s,]*\b(grey|gray|anon|anonymous)\s*$", re.I)


@dataclass(frozen=True)
class Command:
    """One parsed command: its keyword (canonical), arguments, and the line it came from."""

    name: str
    args: dict[str, Any]
    line: int
    text: str


@dataclass(frozen=True)
class BadCommandLine:
    """A command line that could not be read, explained for a reply mail."""

    line: int
    column: int
    text: str
    message: str
    expected: str = ""
    suggestion: str | None = None

    def __str__(self) -> str:
        out = f"line {self.line}, column {self.column}: {self.message}"
        if self.expected:
            out += f"; expected: {self.expected}"
        if self.suggestion:
            out += f" (did you mean '{self.suggestion}'?)"
        return out


@dataclass
class Press:
    """A press block: recipients (power names as written, or ``ALL``), grey or not, text."""

    targets: list[str]
    grey: bool
    text: str
    line: int


@dataclass
class ParsedMail:
    """Everything read from one mail body, in order."""

    commands: list[Command] = field(default_factory=list)
    order_lines: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)
    press: list[Press] = field(default_factory=list)
    errors: list[BadCommandLine] = field(default_factory=list)
    near_commands: dict[int, str] = field(default_factory=dict)  # line -> did-you-mean keyword

    def first(self, name: str) -> Command | None:
        return next((c for c in self.commands if c.name == name), None)

    @property
    def order_text(self) -> str:
        """The order lines, each at its line of the mail (the others left empty): errors
        then name the line the player wrote."""
        if not self.order_lines:
            return ""
        lines = [""] * self.order_lines[-1][0]
        for number, text in self.order_lines:
            lines[number - 1] = text
        return "\n".join(lines)


@cache
def _parser() -> Lark:
    return Lark.open("commands.lark", rel_to=__file__, parser="lalr", maybe_placeholders=True,
                     cache=True)


def parse_duration(text: str) -> float:
    """``"24 hours"``, ``"2d"``, ``"90 min"``, ``"36"`` (hours) -> seconds."""
    m = _DURATION.fullmatch(text.strip())
    if not m:
        raise ValueError(f"cannot read duration {text!r}: expected e.g. '24 hours' or '2 days'")
    amount, unit = float(m.group(1)), m.group(2).lower()
    if unit in ("", "h", "hr", "hrs", "hour", "hours"):
        return amount * 3600
    if unit in ("d", "day", "days"):
        return amount * 86400
    if unit in ("m", "min", "mins", "minutes"):
        return amount * 60
    raise ValueError(f"unknown time unit {unit!r}: expected hours, days or minutes")


def _normalise(line: str) -> tuple[str, str | None]:
    """Join two-word keywords and map aliases; returns (line, keyword or None)."""
    for pattern, word in _JOIN:
        if pattern.match(line):
            line = pattern.sub(word, line, count=1)
            break
    stripped = line.strip()
    first = stripped.split(None, 1)[0].lower().rstrip(":") if stripped else ""
    if first in KEYWORDS:
        return stripped, first
    if first in ALIASES:
        rest = stripped[len(first):] if len(stripped) > len(first) else ""
        return ALIASES[first] + rest, ALIASES[first]
    return stripped, None


def _args(name: str, tree: Tree[Token]) -> dict[str, Any]:
    toks = tree.children
    # the words in their places (None for an optional word left out), and the words given
    vals = [str(t) if isinstance(t, Token) else None for t in toks]
    words = [v for v in vals if v is not None]
    if name == "signon":  # the power may be several words: "Baby Face Nelson"
        if len(words) > 2 + MAX_NAME_WORDS or not _GAME_NAME.fullmatch(words[0]):
            # a sentence ("Sign-on refused: the game ..."), not a sign-on
            raise ValueError("expected a game, a power and a password")
        if words[-1].startswith("<") and words[-1].endswith(">"):  # the judge's form, as is
            raise ValueError(f"write your password in place of {words[-1]}")
        return {"game": words[0], "power": " ".join(words[1:-1]), "password": words[-1]}
    if name == "gm":
        return {"game": vals[0], "password": vals[1]}
    if name == "create":
        opts = {}
        for v in words[3:]:
            key, _, value = v.partition("=")
            opts[key.lower().replace("-", "_")] = value
        return {"game": vals[0], "kind": vals[1], "password": vals[2], "options": opts}
    if name == "press":  # the names as written: parse_line splits them at the commas
        targets = [str(c.children[0]) for c in toks if isinstance(c, Tree)]
        return {"targets": targets, "grey": toks[-1] is not None and isinstance(toks[-1], Token)}
    if name == "broadcast":
        return {"targets": ["ALL"], "grey": vals[0] is not None}
    if name in ("phase", "password"):
        return {"value": vals[0]}
    if name in ("list", "history", "help"):
        return {"value": vals[0]}
    if name in ("absence", "extend", "pause"):
        return {"seconds": parse_duration(words[0]) if words else None}
    if name == "addplayer":  # a power of several words, then maybe a password: the game
        return {"email": words[0], "power": " ".join(words[1:]), "words": words[1:],  # knows
                "password": None}
    if name == "deadline":
        return {"when": " ".join(words)}
    if name == "replace":
        return {"power": " ".join(words[:-1]), "email": words[-1]}
    if name == "set":
        return {"option": words[0].lower().replace("-", "_"), "value": " ".join(words[1:])}
    if name == "concede":
        return {"value": " ".join(words)}
    if name in ("confirm", "unjoin", "watch", "unwatch", "approve", "reject"):
        return {"value": vals[-1]}
    if name == "join":
        return {"game": vals[0], "prefs": vals[1:]}
    if name in ("draw", "endgame"):
        return {"words": vals}
    if name in ("takeover", "offer", "become"):
        return {"words": words}
    if name == "summary":
        return {"value": vals[0]}
    return {}


def _redact(name: str, text: str) -> str:
    """The line as it may be echoed or stored: passwords replaced by ``***``."""
    words = text.split()
    if (name == "signon" and len(words) >= 4) or (name in ("gm", "password")
                                                   and len(words) >= 2):
        words[-1] = "***"
    elif name == "set" and len(words) >= 3 and words[1].lower() == "password":
        words[2:] = ["***"]
    elif name == "confirm" and len(words) >= 2:
        words[1:] = ["***"]
    elif name == "create" and len(words) >= 4:
        words[3] = "***"
    elif name == "addplayer" and len(words) >= 4:  # the password, if any, is after the power
        words[3:] = ["***"]
    return " ".join(words)


def parse_line(line: str, number: int = 1) -> Command | BadCommandLine | None:
    """One line: a :class:`Command`, a :class:`BadCommandLine`, or None when it is not a
    command (an order line)."""
    text, keyword = _normalise(line)
    if keyword is None:
        return None
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        if len(text.split()) - 1 > MAX_ARGS.get(keyword, 99):
            return None  # a sentence that begins with a command's word ("Orders below.")
        col = getattr(exc, "column", 0) or 0
        return BadCommandLine(
            line=number, column=col, text=_redact(keyword, text),
            message=f"cannot read the {keyword.upper()} command", expected=USAGE[keyword],
        )
    if keyword in ("draw", "concede", "join") and any(c in text for c in "?!"):
        return None  # "Draw anyone? Just kidding.": names of powers have no ? nor !
    if keyword == "become" and any(c in text for c in ",;:?!"):
        return None  # "Orders for spring, as promised.": nor have they , ; or :
    cmd_tree = tree.children[0]
    assert isinstance(cmd_tree, Tree)  # start is one command's rule
    try:
        args = _args(keyword, cmd_tree)
    except ValueError as exc:
        return BadCommandLine(number, 1, _redact(keyword, text), str(exc), USAGE[keyword])
    if keyword == "press":
        args["targets"] = _press_targets(text, args["grey"])
    return Command(keyword, args, number, _redact(keyword, text))


def _press_targets(text: str, grey: bool) -> list[str]:
    """The recipients of ``PRESS TO ...`` as written between the commas (``Baby Face
    Nelson, Murder Inc.``): each a name of one word or several, or several names written
    with spaces between them (the game reads them, :mod:`mobadj.judge.names`)."""
    rest = _PRESS_HEAD.sub("", text, count=1)
    if grey:
        rest = _GREY_TAIL.sub("", rest)
    return [part.strip() for part in rest.split(",") if part.strip()]


@lru_cache(maxsize=4096)  # bounded: the first words of hostile mails are endless
def near_keyword(word: str) -> str | None:
    """A command keyword close to a misspelt first word (``SINGON`` -> ``signon``)."""
    word = word.lower()
    if len(word) < 4:
        return None
    close = difflib.get_close_matches(word, KEYWORDS + tuple(ALIASES), n=1, cutoff=0.75)
    if not close:
        return None
    return ALIASES.get(close[0], close[0])


def is_game_line(line: str, game_words: frozenset[str]) -> bool:
    """Does ``line`` start with one of the game's command words (not a press word)?"""
    words = line.split(maxsplit=1)
    first = words[0].lower() if words else ""
    return first in game_words and first not in PRESS_WORDS


def parse_body(body: str, game_words: frozenset[str] = frozenset()) -> ParsedMail:
    """Read a whole (already cleaned) mail body.  Lines starting with one of
    ``game_words`` (the signed-on game's command words) are order lines."""
    out = ParsedMail()
    press: Press | None = None
    press_lines: list[str] = []
    for number, raw in enumerate(body.splitlines(), start=1):
        line = raw.rstrip()
        if press is not None:  # its text stays as written; only ENDPRESS is looked for
            norm, keyword = _normalise(as_meant(line))
            if keyword == "endpress":
                press.text = "\n".join(press_lines).strip("\n")
                out.press.append(press)
                press, press_lines = None, []
            else:
                press_lines.append(line)
            continue
        line = as_meant(line).rstrip()
        if not line.strip():
            continue
        if len(line) > MAX_LINE:  # no order or command is this long: do not feed it to parsers
            out.errors.append(BadCommandLine(number, MAX_LINE, line[:40] + "...",
                                           f"line longer than {MAX_LINE} characters, skipped"))
            continue
        if game_words and is_game_line(line, game_words):
            out.order_lines.append((number, line.strip()))
            continue
        result = parse_line(line, number)
        if result is None:
            first = line.split()[0]
            near = near_keyword(first)
            if near and _normalise(first)[1] is None:  # a command's word itself: a sentence
                out.near_commands[number] = near
            out.order_lines.append((number, line.strip()))
            continue
        if isinstance(result, BadCommandLine):
            out.errors.append(result)
            continue
        if result.name == "signoff":
            break
        if result.name in ("press", "broadcast"):
            press = Press(result.args["targets"], result.args["grey"], "", number)
            out.commands.append(result)
            continue
        if result.name == "endpress":
            out.errors.append(
                BadCommandLine(number, 1, line.strip(), "ENDPRESS without PRESS", USAGE["press"])
            )
            continue
        out.commands.append(result)
    if press is not None:  # a press block runs to the end of the mail when ENDPRESS is missing
        press.text = "\n".join(press_lines).strip("\n")
        out.press.append(press)
    return out


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
  DRAW / NO DRAW                     vote for a draw (secret until it passes)
  CONCEDE TO <power> / NO CONCEDE    concede the game to a power
  SET PASSWORD <new>                 change your password
  SET ADDRESS <email>                move your seat to another address (confirmed by mail)
  SET TIMEZONE <zone>                times in your mails in your zone, e.g. Europe/Paris
  SUMMARY                            who played which power when, centres by year
  RESIGN                             leave the game (your power waits for a new player)
  HELP [command]                     this text, or how to write one command
  SIGNOFF                            ignore the rest of the mail (e.g. a signature)
Without a sign-on: LIST (the games, and those taking players), JOIN <game> [powers],
UNJOIN <game>, WATCH <game> / UNWATCH <game>, TAKEOVER <game> <power>, SUMMARY <game>,
CONFIRM <code>, HELP.
GM commands (after GM <game> <gm-password>): ADDPLAYER, APPROVE, REJECT, START, DEADLINE,
EXTEND, PAUSE, RESUME, REPLACE, OFFER, ORDERS FOR <power>, PROCESS, ROLLBACK,
ENDGAME [DRAW ... | WIN ...], EXPORT, SET.""",
}


def help_text(topic: str | None) -> str:
    if topic:
        key = topic.lower()
        if key in USAGE:
            return f"Usage: {USAGE[key]}"
    return HELP[None]
