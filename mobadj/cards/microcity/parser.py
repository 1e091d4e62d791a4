"""Parse Micro City commands (grammar in ``commands.lark``) into actions.

Errors are :class:`CommandError` with the column, what was expected in words, and a
did-you-mean for a misspelt command word.
"""

from __future__ import annotations

import difflib
import functools
from functools import cache

from lark import Lark, Token, Transformer, UnexpectedInput, v_args

from mobadj.cards.microcity.actions import (
    Action,
    Assign,
    ChangeDie,
    Claim,
    Do,
    Done,
    Pass,
    Play,
    RemoveMarker,
    Retrieve,
    Sell,
    Start,
    Take,
)
from mobadj.cards.protocol import CommandError

WORDS = (
    "start", "assign", "change", "remove", "sell", "done", "play", "retrieve", "basic",
    "advanced", "bonus", "pass", "claim", "take",
)
EXPECTED_WORDS = {
    "QUARTER": "a Quarter (a1..d4, s1, s2)",
    "RESOURCE": "coal, steel, wood or money",
    "MATERIAL": "coal, steel or wood",
    "CARD": "a Project card (1-6 or X)",
    "DIGIT": "a number 1-6",
    "NUMBER": "a number",
    "DIRECTION": "up or down",
    "DIE": "a die (die1..die4)",
    "ARG": "a word",
    "LEVEL": "basic, advanced or bonus",
    "$END": "the end of the command",
    "<END-OF-FILE>": "the end of the command",
}


@cache
def _parser() -> Lark:
    return Lark.open("commands.lark", rel_to=__file__, start="command", parser="lalr")


@v_args(inline=True)
class _Build(Transformer):
    def start(self, q: Token) -> Action:
        return Start(q.lower())

    def assign(self, a: Token, b: Token) -> Action:
        x, y = sorted((int(a), int(b)))
        return Assign((x, y))

    def die(self, token: Token) -> int:
        return int(str(token)[-1])

    def change(self, die: int, direction: Token, pay: Token) -> Action:
        return ChangeDie(die, direction.lower() == "up", pay.lower())

    def remove(self, q: Token, pay: Token) -> Action:
        return RemoveMarker(q.lower(), pay.lower())

    def sell(self, m: Token) -> Action:
        return Sell(m.lower())

    def done(self) -> Action:
        return Done()

    def play(self, card: Token, q: Token) -> Action:
        return Play(card.upper(), q.lower())

    def retrieve(self, q: Token) -> Action:
        return Retrieve(q.lower())

    def do(self, level: Token, *args: Token) -> Action:
        return Do(level.lower(), tuple(a.lower() for a in args))

    def pass_(self) -> Action:
        return Pass()

    def claim(self, n: Token) -> Action:
        return Claim(int(n))

    def take(self, area: Token) -> Action:
        return Take(area.lower())


setattr(_Build, "pass", _Build.pass_)  # noqa: B010 - "pass" is a Python keyword


def parse_command(text: str) -> Action:
    """One command line -> an action; raises :class:`CommandError` with a friendly message."""
    return _parse_line(text.strip())


@functools.lru_cache(maxsize=4096)
def _parse_line(line: str) -> Action:
    """A stripped line as an action (actions are frozen values: kept, as a game is replayed
    from its texts for every resumed save and every mail)."""
    if not line:
        raise CommandError("empty command", text=line, expected=("a command",))
    try:
        tree = _parser().parse(line)
    except UnexpectedInput as err:
        raise _friendly(line, err) from None
    return _Build().transform(tree)


def _friendly(line: str, err: UnexpectedInput) -> CommandError:
    column = getattr(err, "column", None)
    first = line.split()[0].lower()
    if first not in WORDS:
        close = difflib.get_close_matches(first, WORDS, n=1)
        return CommandError(
            f"unknown command '{first}'",
            text=line,
            column=1,
            expected=("a command: " + ", ".join(WORDS),),
            suggestion=close[0] if close else None,
        )
    expected_names = getattr(err, "expected", None) or getattr(err, "allowed", None) or set()
    expected = sorted({_expected_word(n) for n in expected_names})
    if first == "assign":  # its numbers are dice of the four, not die values
        expected = ["a die 1-4" if e == EXPECTED_WORDS["DIGIT"] else e for e in expected]
    token = getattr(err, "token", None)
    if column is None or column < 0 or (token is not None and token.type == "$END"):
        column = len(line) + 1
    got = line[column - 1:].split()[0] if column <= len(line) else ""
    what = f"unexpected '{got}'" if got else "the command is incomplete"
    suggestion = None
    if got:
        options = [w for n in expected_names for w in _sample_words(n)]
        close = difflib.get_close_matches(got.lower(), options, n=1)
        suggestion = close[0] if close else None
    return CommandError(what, text=line, column=column, expected=expected, suggestion=suggestion)


def _expected_word(terminal: str) -> str:
    """A terminal in words; a keyword quoted, so "expected 'to'" reads as the word to type."""
    word = terminal.strip('"').lower()
    return EXPECTED_WORDS.get(terminal) or f"'{word}'"


def _sample_words(terminal: str) -> list[str]:
    """Words a terminal accepts, for did-you-mean on a misspelt word."""
    samples = {
        "RESOURCE": ["coal", "steel", "wood", "money"],
        "MATERIAL": ["coal", "steel", "wood"],
        "DIRECTION": ["up", "down"],
        "QUARTER": [f"{c}{r}" for c in "abcd" for r in "1234"] + ["s1", "s2"],
        "DIE": ["die1", "die2", "die3", "die4"],
        "PAY": ["pay"],
        "TO": ["to"],
    }
    return samples.get(terminal, [terminal.strip('"').lower()])
