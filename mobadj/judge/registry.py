"""The judge's commands, each declared once: its keyword and other spellings, the grammar
of what follows the keyword, how its arguments are read, its usage line, its lines in HELP
and what it does for a player, the GM and an address without a sign-on.

The parser (:mod:`.commands`) builds its grammar from the declarations, HELP and the usage
errors are read from them, and the judge does a command by its declaration's handler.  A
new command is one :func:`declare` (the judge's own are in :mod:`mobadj.judge.verbs`)::

    declare(CommandSpec(
        "ping", usage="PING", help=(("PING", "the judge answers PONG"),),
        player=lambda ctx, cmd: "PONG"))
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mobadj.board.model import close_matches

if TYPE_CHECKING:
    from mobadj.judge.commands import Command
    from mobadj.judge.core import Judge
    from mobadj.judge.mailparse import Incoming
    from mobadj.judge.store import Game, Mail


@dataclass
class Context:
    """Who gives a command, in which game, and where its effects go."""

    judge: Judge
    now: float
    out: list[Mail]
    inc: Incoming | None = None  # the mail (None from the command line)
    game: Game | None = None  # None without a sign-on
    power: str | None = None  # None for the GM
    uid: int | None = None  # the mail's IMAP UID
    message_id: str | None = None
    rejected: list[str] = field(default_factory=list)  # the lines of the mail not taken
    stale: bool = False  # the mail's orders were for another phase than the current one

    @property
    def mail(self) -> Incoming:
        """The mail the command came in (the commands any address may give need one)."""
        assert self.inc is not None, "a command that needs its mail"
        return self.inc

    @property
    def in_game(self) -> Game:
        assert self.game is not None, "a command given after a sign-on"
        return self.game

    @property
    def seat(self) -> str:
        assert self.power is not None, "a player's command"
        return self.power


Handler = Callable[[Context, "Command"], "str | None"]
"""Does one command; returns the reply's paragraph for it (None: nothing to say)."""


@dataclass(frozen=True)
class Words:
    """What a command line holds after its keyword, as the grammar read it."""

    at: list[str | None]  # each word in its place (None where an optional one is left out)
    text: str  # the whole line, keyword joined

    @property
    def given(self) -> list[str]:
        """The words written, in order."""
        return [w for w in self.at if w is not None]


def no_args(words: Words) -> dict[str, Any]:
    return {}


def by_the_mail(ctx: Context, cmd: Command) -> str | None:
    """The handler of a command the reading of the mail itself does (a sign-on, PHASE, a
    press block): nothing more to do."""
    return None


@dataclass(frozen=True)
class CommandSpec:
    """One judge command, declared once."""

    keyword: str  # canonical, lower case, one word of letters
    usage: str  # what it expects, for HELP <command> and its usage errors
    grammar: str = ""  # Lark: what follows the keyword (terminals ARG, WHEN, DURATION, ...)
    read: Callable[[Words], dict[str, Any]] = no_args  # the words -> Command.args (ValueError:
    # a usage error with this message)
    aliases: tuple[str, ...] = ()  # other one-word keywords ("login")
    spellings: tuple[str, ...] = ()  # regexes of its spellings in several words ("sign on")
    max_args: int | None = None  # a line with more words that does not parse is a sentence
    sentence_marks: str = ""  # characters that make a line starting with it a sentence
    secret: Callable[[list[str]], list[str]] | None = None  # the line's words, redacted
    help: Sequence[tuple[str, str]] = ()  # its lines in HELP: (how to write it, what it does)
    open_help: str = ""  # how HELP names it among the commands without a sign-on
    gm_help: str = ""  # how HELP names it among the GM's commands
    player: Handler | None = None  # for a signed-on player (None: "a GM command")
    gm: Handler | None = None  # for the GM (None: "a player command")
    unsigned: Handler | None = None  # without a sign-on (None: "please sign on first")
    anyone: Handler | None = None  # the same for everyone, signed on or not

    def __post_init__(self) -> None:
        if not (self.keyword.isascii() and self.keyword.isalpha() and self.keyword.islower()):
            raise ValueError(f"a command's keyword is one lower-case word: {self.keyword!r}")
        if self.anyone is not None:
            for role in ("player", "gm", "unsigned"):
                object.__setattr__(self, role, getattr(self, role) or self.anyone)

    @property
    def is_open(self) -> bool:
        """Any address may give it, signed on or not (its proof is the address)."""
        return self.anyone is not None

    def handler(self, game: Game | None, power: str | None) -> Handler:
        """What the command does for a player (``power``), the GM (no power) or an address
        without a sign-on (no game)."""
        if game is None:
            return self.unsigned or _sign_on_first
        if power is None:
            return self.gm or _players_only
        return self.player or _gms_only


def do(ctx: Context, cmd: Command) -> str | None:
    """Do one command as its declaration says, for whoever gives it."""
    return spec(cmd.name).handler(ctx.game, ctx.power)(ctx, cmd)


def _sign_on_first(ctx: Context, cmd: Command) -> str:
    return f"{cmd.name.upper()}: please sign on first: {usage('signon')}"


def _players_only(ctx: Context, cmd: Command) -> str:
    return f"{cmd.name.upper()} is a player command."


def _gms_only(ctx: Context, cmd: Command) -> str:
    return f"{cmd.name.upper()} is a GM command; sign on with GM <game> <gm-password>."


_DECLARED: dict[str, CommandSpec] = {}
_LOADED = False
_VERSION = [0]  # counts the changes to the declared commands (the parser is built anew)


def version() -> int:
    return _VERSION[0]


def declare(spec: CommandSpec) -> CommandSpec:
    """Add a command to the judge's language (its keyword and spellings must be new)."""
    taken = {w for s in _DECLARED.values() for w in (s.keyword, *s.aliases)}
    clash = {spec.keyword, *spec.aliases} & taken
    if clash:
        raise ValueError(f"the judge already has a command {sorted(clash)[0]!r}")
    _DECLARED[spec.keyword] = spec
    _VERSION[0] += 1
    return spec


def forget(keyword: str) -> None:
    """Take a declared command out again (a test's, or a site's that it no longer wants)."""
    if _DECLARED.pop(keyword, None) is not None:
        _VERSION[0] += 1


@contextmanager
def declared(*specs: CommandSpec) -> Iterator[None]:
    """The judge's language with ``specs`` added, while the block runs."""
    declarations()
    for spec in specs:
        declare(spec)
    try:
        yield
    finally:
        for spec in specs:
            forget(spec.keyword)


def declarations() -> dict[str, CommandSpec]:
    """Every declared command by keyword, the judge's own loaded on first use (they need
    the judge's parts, which need the parser)."""
    global _LOADED
    if not _LOADED:  # (while verbs is being imported, a call sees its part done so far)
        import mobadj.judge.habits  # noqa: F401  (other judges' words: after the judge's own)
        import mobadj.judge.verbs  # noqa: F401  (declares the judge's own commands)
        _LOADED = True
    return _DECLARED


def spec(keyword: str) -> CommandSpec:
    return declarations()[keyword]


def keywords() -> tuple[str, ...]:
    return tuple(declarations())


def aliases() -> dict[str, str]:
    """Every other one-word keyword -> the command's keyword."""
    return {a: s.keyword for s in declarations().values() for a in s.aliases}


def is_command(word: str) -> bool:
    """Is ``word`` a command's keyword or one of its other spellings?"""
    key = word.strip().lower()
    return key in declarations() or key in aliases()


def usage(keyword: str) -> str:
    return spec(keyword).usage


def unsigned_commands() -> frozenset[str]:
    """The commands that do something without a sign-on."""
    return frozenset(k for k, s in declarations().items() if s.unsigned is not None)


COMMON_GRAMMAR = r"""
target: ARG
GREY.2: /(grey|gray|anon|anonymous)(?=\s|$)/i
WHITE.2: /white(?=\s|$)/i
DURATION: /\d+(\.\d+)?\s*(hours|hour|hrs|hr|h|days|day|d|minutes|mins|min|m)?(?![A-Za-z])/i
OPTION.2: /[A-Za-z_][\w-]*=\S*/
WHEN: /[^\s]+/
ARG: /[^\s,]+/

%ignore /[ \t]+/
%ignore ","
"""
RULE_PREFIX = "c_"


def grammar() -> str:
    """The Lark grammar of one command line: one rule per declared command."""
    rules = [f'{RULE_PREFIX}{k}: "{k}"i {s.grammar}'.rstrip() for k, s in declarations().items()]
    start = "start: " + " | ".join(f"{RULE_PREFIX}{k}" for k in declarations())
    return "\n".join([start, *rules, COMMON_GRAMMAR])


HELP_HEAD = "Commands (one per line; upper or lower case):"
HELP_WIDTH = 90


ORDER_HELP: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "move": ("A move: the unit, '-' and where it goes.",
             (("A VIE - GAL", "the army in Vienna moves to Galicia"),
              ("Army Vienna moves to Galicia", "the same in words"),
              ("A LON - NWY via convoy", "across the sea, by fleets that convoy it"))),
    "hold": ("A hold: the unit and H. A unit without an order holds.",
             (("A VIE H", "the army in Vienna holds"),)),
    "support": ("A support: the unit, S, and the unit it supports, with where that one goes.",
                (("A BUD S A VIE - GAL", "support of the move to Galicia"),
                 ("A BUD S A VIE", "support of the army in Vienna where it stands"))),
    "convoy": ("A convoy: the fleet, C, and the army with where it goes; the army orders its "
               "move via convoy.",
               (("F NTH C A LON - NWY", "the fleet carries the army to Norway"),
                ("A LON - NWY via convoy", "the army's order"))),
    "retreat": ("A retreat, in a retreat phase: the dislodged unit, R (or '-') and where it "
                "goes. A dislodged unit without an order is disbanded.",
                (("A VIE R BOH", "the army retreats to Bohemia"),
                 ("A VIE Disband", "it leaves the board instead"))),
    "disband": ("A disband, in a retreat phase: the dislodged unit leaves the board. In a "
                "winter phase, units are removed (HELP remove).",
                (("A VIE Disband", "the dislodged army in Vienna is disbanded"),)),
    "build": ("A build, in a winter (adjustment) phase, for a power with more supply centres "
              "than units: Build, the unit type (A army, F fleet) and a vacant home centre it "
              "owns. A build not ordered is waived.",
              (("Build A VIE", "an army in Vienna"), ("Build F TRI", "a fleet in Trieste"),
               ("Build F STP/NC", "a fleet on a coast"), ("Waive", "one build given up"))),
    "remove": ("A removal, in a winter (adjustment) phase, for a power with more units than "
               "supply centres. A removal due and not ordered is chosen by the rules.",
               (("Remove A VIE", "the army in Vienna leaves the board"),)),
    "waive": ("A waive, in a winter (adjustment) phase: one build you may make, given up. A "
              "build not ordered is waived too.",
              (("Waive", "one build given up"), ("Build A VIE", "the build made instead"))),
}
"""How to write each kind of order (``HELP build``), with an example in the standard
notation (orders go one per line, under the SIGNON line)."""
ORDER_WORDS = {**{w: w for w in ORDER_HELP}, **{w + "s": w for w in ORDER_HELP},
               "stand": "hold", "stands": "hold", "builds": "build", "moving": "move",
               "building": "build", "supporting": "support", "convoying": "convoy",
               "retreating": "retreat", "removing": "remove", "waiving": "waive",
               "disbanding": "disband"}
"""The words a player may ask HELP about for each order (``HELP builds``)."""
ORDER_EXAMPLES = (("move", "A VIE - GAL"), ("hold", "A VIE H"), ("support", "A BUD S A VIE - GAL"),
                  ("convoy", "F NTH C A LON - NWY"), ("retreat", "A VIE R BOH"),
                  ("build", "Build A VIE"), ("remove", "Remove A VIE"), ("waive", "Waive"))
"""The orders as HELP lists them, each with an example."""


def order_help(word: str, lead: str = "") -> str | None:
    """How to write the order ``word`` names (``build``, ``moves``), with examples, one a
    line; ``lead`` begins its first line.  None if ``word`` names no order."""
    topic = ORDER_WORDS.get(word.lower())
    if topic is None:
        return None
    said, examples = ORDER_HELP[topic]
    lines = textwrap.wrap(lead + said, HELP_WIDTH, break_on_hyphens=False)
    lines += [f"  {order:<26} {meaning}" for order, meaning in examples]
    return "\n".join(lines)


def asked_how(lines: Iterable[tuple[int, str]]) -> list[str]:
    """The answers to questions about writing orders among a mail's lines that are no
    command (``how do I build?``: a line with "how", an order's word and a question mark):
    a remark would be set aside without a word, and the newcomer who asks is left with no
    way to learn the order."""
    answers = []
    for number, line in lines:
        words = re.findall(r"[a-z]+", line.lower()) if "?" in line else []
        if "how" not in words:  # "Can you move the deadline?" asks no order's form
            continue
        topics = dict.fromkeys(ORDER_WORDS[w] for w in words if w in ORDER_WORDS)
        answers += [order_help(t, f"Line {number} asks how to {t}. ") or "" for t in topics]
    return answers


def help_text(topic: str | None) -> str:
    """HELP: every command, or how to write the one named ``topic`` (an order's word too:
    ``HELP build``)."""
    every = declarations()
    if topic:
        key = topic.lower()
        found = every.get(key) or every.get(aliases().get(key, ""))
        if found is not None:
            return f"Usage: {found.usage}"
        order = order_help(key)
        if order is not None:
            return order
    lines = ["T" + no_such_command(topic)[1:], ""] if topic else []
    lines += [HELP_HEAD, *_help_lines({})]
    for head, names in (("Without a sign-on:", [s.open_help for s in every.values()]),
                        ("GM commands (after GM <game> <gm-password>):",
                         [s.gm_help for s in every.values()])):
        lines += _fill(head, [n for n in names if n])
    lines += ["", "Orders (one per line, under SIGNON; HELP build, HELP move ... "
              "says how to write one):"]
    lines += [f"  {word:<10} {example}" for word, example in ORDER_EXAMPLES]
    return "\n".join(lines)


def no_such_command(word: str) -> str:
    """The answer to a word taken for a command that is none (``HELP when``, a lone
    ``WHEN`` among commands), with its did-you-mean."""
    near = close_matches(word.lower(), [*declarations(), *aliases()], n=2)
    return (f"there is no command {word.upper()!r}"
            + (f"; did you mean {' or '.join(n.upper() for n in near)}?" if near else "."))


def player_help(own: Mapping[str, Sequence[tuple[str, str]]]) -> str:
    """The judge's commands for a player of a game that reads some otherwise: ``own`` gives
    a keyword its lines in this game (none: the command means nothing there)."""
    return "\n".join(["Judge commands (one per line; upper or lower case):", *_help_lines(own)])


def _help_lines(own: Mapping[str, Sequence[tuple[str, str]]]) -> list[str]:
    """Each command's lines in HELP, form and meaning in two columns."""
    lines = []
    for s in declarations().values():
        for form, meaning in own.get(s.keyword, s.help):
            lines.append(f"  {form:<34} {meaning}" if len(form) < 34 else
                         f"  {form}   {meaning}")
    return lines


def _fill(head: str, names: list[str]) -> list[str]:
    """``head`` and the names, a comma between them, in lines no name is broken across."""
    lines = [head]
    for n, name in enumerate(names):
        item = name + ("," if n < len(names) - 1 else ".")
        if len(lines[-1]) + 1 + len(item) > HELP_WIDTH:
            lines.append(item)
        else:
            lines[-1] += " " + item
    return lines
