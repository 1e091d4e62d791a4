"""The judge's command language by mail: njudge-like, forgiving, with clear errors.

A mail body is read line by line.  A line whose first word is a command keyword is parsed
with the grammar the declared commands make (:mod:`.registry`); the lines of a press block
are its text; every other line is an order line, left to the game's own order parser.
Keywords are case-insensitive and the usual two-word spellings are accepted (``SIGN ON``,
``ADD PLAYER``, ``NOT READY``, ``END PRESS``, ``END GAME``).

A game's own commands come first: :func:`parse_body` takes the words the signed-on game's
commands start with (a card game's ``start a3``, ``end``), and a line starting with one of
them is an order line even where the judge has a command of that name.  Only the press
words (PRESS, BROADCAST, ENDPRESS) stay the judge's whatever the game: a message meant for
one player must never be read as table talk.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from mobadj.judge import registry
from mobadj.judge.registry import help_text
from mobadj.typed import as_meant

__all__ = ["BadCommandLine", "Command", "ParsedMail", "Press", "help_text", "parse_body",
           "parse_duration", "parse_line"]
# always the judge's, even where a game uses the word (Iron Triangle's "press" = say)
PRESS_WORDS = frozenset({"press", "broadcast", "endpress"})
PRESS_KINDS = {"grey": "grey", "gray": "grey", "anon": "grey", "anonymous": "grey",
               "white": "white"}
"""How a press line may say the press is signed or not, before TO (njudge's ``PRESS GREY TO
EG``) or after the powers (``PRESS TO England GREY``)."""
ALL_BUT = ("but", "except")  # PRESS TO ALL BUT England: everyone but those named
EVERYONE = ("ALL", "EVERYONE", "EVERYBODY", "BROADCAST")  # PRESS TO ALL
#: what a SIGNON line with the judge's placeholder for the password (``<password>``, as the
#: judge's forms write it) is told: such a line is the judge's form, not a sign-on
UNFILLED_FORM = "write your password in place of"
MAX_LINE = 500
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)", re.I)


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
    """A press block: recipients (power names as written, or ``ALL``), grey or not, text;
    with ``but``, the powers ``ALL`` leaves out (``PRESS TO ALL BUT England``)."""

    targets: list[str]
    grey: bool
    text: str
    line: int
    #: False when no ENDPRESS closed the block and it ran to the end of the mail; then its
    #: lines (number, text) are kept, for the judge to look for orders and commands in them
    #: before it sends anything (:meth:`mobadj.judge.players.PlayerCommands.unended_press`)
    ended: bool = True
    lines: tuple[tuple[int, str], ...] = ()
    but: tuple[str, ...] = ()

    @property
    def to(self) -> str:
        """The recipients as a PRESS TO line names them (``ALL BUT England, Italy``)."""
        named = ", ".join(self.targets)
        return f"{named} BUT {', '.join(self.but)}" if self.but else named


@dataclass
class ParsedMail:
    """Everything read from one mail body, in order."""

    commands: list[Command] = field(default_factory=list)
    order_lines: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)
    press: list[Press] = field(default_factory=list)
    errors: list[BadCommandLine] = field(default_factory=list)
    near_commands: dict[int, str] = field(default_factory=dict)  # line -> did-you-mean keyword
    password_below: bool = False  # a SIGNON without its password, which is on the next line
    signoff: int = 0  # the line of the SIGNOFF that ended the reading (0: none)

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


@dataclass(frozen=True)
class _Language:
    """The declared commands made ready for reading lines: the parser and the spellings."""

    parser: Lark
    keywords: frozenset[str]
    aliases: dict[str, str]
    spellings: tuple[tuple[re.Pattern[str], str], ...]
    vocabulary: tuple[str, ...]  # every keyword and alias, for a did-you-mean


@lru_cache(maxsize=4)
def _language(version: int) -> _Language:
    specs = registry.declarations()
    aliases = registry.aliases()
    return _Language(
        parser=Lark(registry.grammar(), parser="lalr", maybe_placeholders=True, cache=True),
        keywords=frozenset(specs),
        aliases=aliases,
        spellings=tuple((re.compile(rf"^\s*{pattern}\b", re.I), s.keyword)
                        for s in specs.values() for pattern in s.spellings),
        vocabulary=(*specs, *aliases),
    )


def _current() -> _Language:
    registry.declarations()  # the judge's own first
    return _language(registry.version())


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
    """Join keywords of several words and map aliases; returns (line, keyword or None)."""
    lang = _current()
    for pattern, word in lang.spellings:
        if pattern.match(line):
            line = pattern.sub(word, line, count=1)
            break
    stripped = line.strip()
    first = stripped.split(None, 1)[0].lower().rstrip(":") if stripped else ""
    if first in lang.keywords:
        return stripped, first
    if first in lang.aliases:
        rest = stripped[len(first):] if len(stripped) > len(first) else ""
        return lang.aliases[first] + rest, lang.aliases[first]
    return stripped, None


def _redact(spec: registry.CommandSpec, text: str) -> str:
    """The line as it may be echoed or stored: passwords replaced by ``***``."""
    words = text.split()
    return " ".join(spec.secret(words) if spec.secret is not None else words)


def _redact_unread(spec: registry.CommandSpec, text: str) -> str:
    """A line of a command that carries a secret, which could not be read, as it may be
    echoed: where its secret is cannot be told (``GM g1 pw thanks``), so it is cut at the
    first word its secret would hide, or after the keyword's first word at the latest, and
    ``***`` stands for the rest (``GM g1 ***``)."""
    words = text.split()
    hidden = spec.secret(words) if spec.secret is not None else words
    first = next((i for i, word in enumerate(words)
                  if i >= len(hidden) or hidden[i] != word), None)
    return text if first is None else " ".join([*words[:min(first, 2)], "***"])


#: a line that, right under a SIGNON or GM line without its password, is that password
_LONE_PASSWORD = re.compile(r"(?:(?:password|passwd|pwd|pw)\s*[:=]?\s*)?\S+", re.I)


def parse_line(line: str, number: int = 1) -> Command | BadCommandLine | None:
    """One line: a :class:`Command`, a :class:`BadCommandLine`, or None when it is not a
    command (an order line)."""
    text, keyword = _normalise(line)
    if keyword is None:
        return None
    spec = registry.spec(keyword)
    try:
        tree = _current().parser.parse(text)
    except UnexpectedInput as exc:
        if spec.max_args is not None and len(text.split()) - 1 > spec.max_args:
            return None  # a sentence that begins with a command's word ("Orders below.")
        col = getattr(exc, "column", 0) or 0
        token = getattr(exc, "token", None)
        if isinstance(token, Token) and token.type == "$END":
            col = len(text) + 1  # what is missing is wanted at the end of the line
        return BadCommandLine(
            line=number, column=col, text=_redact_unread(spec, text),
            message=f"cannot read the {keyword.upper()} command", expected=spec.usage,
        )
    if any(c in text for c in spec.sentence_marks):
        return None  # "Draw anyone? Just kidding.": names of powers have no ? nor !
    cmd_tree = tree.children[0]
    assert isinstance(cmd_tree, Tree)  # start is one command's rule
    words = [str(t) if isinstance(t, Token) else None for t in cmd_tree.children]
    try:
        args = spec.read(registry.Words(words, text))
    except ValueError as exc:
        return BadCommandLine(number, 1, _redact_unread(spec, text), str(exc), spec.usage)
    return Command(keyword, args, number, _redact(spec, text))


def near_keyword(word: str) -> str | None:
    """A command keyword close to a misspelt first word (``SINGON`` -> ``signon``)."""
    lang = _current()
    close = _near(word.lower(), lang.vocabulary)
    return lang.aliases.get(close, close) if close else None


@lru_cache(maxsize=4096)  # bounded: the first words of hostile mails are endless
def _near(word: str, vocabulary: tuple[str, ...]) -> str | None:
    if len(word) < 4:
        return None
    close = difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.75)
    return close[0] if close else None


_DIARY_END = re.compile(r"^\s*end[\s_-]*(diary|press)\s*$", re.I)


def _diary_end(lines: list[str], number: int) -> int:
    """The line (1-based) that ends the ``DIARY RECORD`` block begun at line ``number``: an
    ENDDIARY (or ENDPRESS); 0 when none follows, and then nothing below is set aside."""
    return next((at for at in range(number + 1, len(lines) + 1)
                 if _DIARY_END.match(lines[at - 1])), 0)


def is_game_line(line: str, game_words: frozenset[str]) -> bool:
    """Does ``line`` start with one of the game's command words (not a press word)?"""
    words = line.split(maxsplit=1)
    first = words[0].lower() if words else ""
    return first in game_words and first not in PRESS_WORDS


def _game_help(line: str, number: int) -> Command | None:
    """In a game with commands of its own (a card game), HELP takes the whole rest of the
    line as its topic: the game's names have several words (``help Jewel Heist``)."""
    text, keyword = _normalise(line)
    if keyword != "help":
        return None
    words = text.split(maxsplit=1)
    return Command("help", {"value": words[1] if len(words) > 1 else None}, number, text)


def parse_body(body: str, game_words: frozenset[str] = frozenset(),
               in_sections: bool = False) -> ParsedMail:
    """Read a whole (already cleaned) mail body.  Lines starting with one of
    ``game_words`` (the signed-on game's command words) are order lines; with
    ``in_sections`` (a GM's mail), only under an ``ORDERS FOR <seat>`` line: above it
    ``OFFER P2`` is the GM's, under it ``offer 2`` the seat's move."""
    out = ParsedMail()
    words_now = frozenset[str]() if in_sections else game_words
    press: Press | None = None
    press_lines: list[tuple[int, str]] = []
    unsigned: BadCommandLine | None = None  # a SIGNON or GM line just above, its password
    # missing: a lone word under it is that password, never echoed (not an order line)
    lines = body.splitlines()
    set_aside = 0  # the last line of a DIARY block, which is no order (the judge keeps none)
    for number, raw in enumerate(lines, start=1):
        if number <= set_aside:
            continue
        line = raw.rstrip()
        if press is not None:  # its text stays as written; only ENDPRESS is looked for
            norm, keyword = _normalise(as_meant(line))
            if keyword == "endpress":
                press.text = "\n".join(t for _, t in press_lines).strip("\n")
                out.press.append(press)
                press, press_lines = None, []
            else:
                press_lines.append((number, line))
            continue
        line = as_meant(line).rstrip()
        if not line.strip():
            continue
        above, unsigned = unsigned, None
        if above is not None and _LONE_PASSWORD.fullmatch(line.strip()) and (
                parse_line(line, number) is None):
            out.errors[out.errors.index(above)] = dataclasses.replace(above, message=(
                f"{above.message} (line {number}, left out here, reads as its password: "
                f"write it at the end of the {above.text.split()[0].upper()} line)"))
            out.password_below = True
            continue
        if len(line) > MAX_LINE:  # no order or command is this long: do not feed it to parsers
            out.errors.append(BadCommandLine(number, MAX_LINE, line[:40] + "...",
                                           f"line longer than {MAX_LINE} characters, skipped"))
            continue
        if words_now and is_game_line(line, words_now):
            out.order_lines.append((number, line.strip()))
            continue
        if game_words and (asked := _game_help(line, number)) is not None:
            out.commands.append(asked)
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
            if _normalise(line)[1] in ("signon", "gm") and len(line.split()) <= 3:
                unsigned = result  # SIGNON <game> <power>: the password may come next
            continue
        if result.name == "signoff":
            out.signoff = number
            break
        if result.name == "diary" and [w.lower() for w in result.args["words"]] in ([], ["record"]):
            set_aside = _diary_end(lines, number)
            if set_aside:
                result = dataclasses.replace(result, args={**result.args,
                                                           "entry": (number + 1, set_aside)})
        if result.name in ("press", "broadcast"):
            press = Press(result.args["targets"], result.args["grey"], "", number,
                          but=tuple(result.args.get("but", ())))
            out.commands.append(result)
            continue
        if result.name == "become":  # the GM's orders for a seat follow: the game's words
            words_now = game_words
        if result.name == "endpress":
            out.errors.append(BadCommandLine(number, 1, line.strip(), "ENDPRESS without PRESS",
                                             registry.usage("press")))
            continue
        out.commands.append(result)
    if press is not None:  # a press block runs to the end of the mail when ENDPRESS is missing
        press.text = "\n".join(t for _, t in press_lines).strip("\n")
        press.ended, press.lines = False, tuple(press_lines)
        out.press.append(press)
    return out
