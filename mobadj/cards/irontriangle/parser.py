"""Reading Iron Triangle commands: the Lark grammar in ``commands.lark`` plus friendly errors.

A syntax error names the column, what was expected there and, when a word looks like a
misspelt keyword, feature or card, a did-you-mean.  Card names are matched forgivingly (case,
spacing, punctuation, a unique start of the name, or the slot 1-3 in the player's hand).
Suggestions come only from the public card list and the player's own hand, never from what
another player holds.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Sequence
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedInput, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from mobadj.cards.irontriangle.actions import REVEAL, Action, Offer, Pick, PlayJob, Say
from mobadj.cards.irontriangle.cards import FEATURES, Deck, JobCard, normalize
from mobadj.cards.protocol import CommandError

COMMAND_WORDS = ("job", "offer", "say", "pick", "reveal")
# what each grammar terminal means to a player
FRIENDLY = {
    "JOB": "'job'", "OFFER": "'offer'", "SAY": "'say'", "PICK": "'pick'",
    "REVEAL": "'reveal'", "FEATURE": "a feature (fast, cheap or good)",
    "_WANT": "'want'", "_PLAYER": "'player'", "PLAYERREF": "a player such as P2",
    "SLOT": "a hand slot 1-3", "WORD": "a card name",
    "TEXT": "your message", "$END": "the end of the command",
    "<END-OF-FILE>": "the end of the command",
}


@cache
def grammar() -> Lark:
    """The command parser, built once per process."""
    return Lark.open("commands.lark", rel_to=__file__, parser="lalr", lexer="contextual")


@v_args(inline=True)
class _Tree(Transformer):
    """Tree -> (kind, args) tuples; card references are resolved afterwards."""

    def start(self, cmd):
        return cmd

    def cardref(self, *tokens: Token):
        return " ".join(str(t) for t in tokens), tokens[0].column

    def job(self, _kw, card, feature):
        return ("job", card, str(feature).lower())

    def offer(self, _kw, card):
        return ("offer", card)

    def say(self, _kw, text=None):
        return ("say", str(text or "").strip())

    def pick(self, _kw, ref):
        return ("pick", int(str(ref).lstrip("pP")), ref.column)

    def reveal(self, _kw):
        return ("reveal",)


_TRANSFORMER = _Tree()


def _expected(names: Sequence[str] | set[str]) -> list[str]:
    return sorted({FRIENDLY.get(n, n) for n in names if not n.startswith("__")})


def _word_at(text: str, column: int) -> str:
    """The word starting at 1-based ``column`` (empty at the end of the text)."""
    rest = text[column - 1:] if column >= 1 else ""
    return rest.split()[0] if rest.split() else ""


def _syntax_error(text: str, err: UnexpectedInput) -> CommandError:
    """A friendly :class:`CommandError` for a Lark error."""
    if isinstance(err, UnexpectedEOF):
        column = len(text.rstrip()) + 1
        expected = _expected(err.expected)
    elif isinstance(err, UnexpectedToken):
        column = err.column if isinstance(err.column, int) else len(text) + 1
        expected = _expected(err.expected)
        if err.token.type == "$END":
            column = len(text.rstrip()) + 1
    else:
        assert isinstance(err, UnexpectedCharacters)
        column = err.column
        expected = _expected(err.allowed or ())
    word = _word_at(text, column).lower()
    suggestion = None
    if column == 1 or not text[: column - 1].strip():
        close = difflib.get_close_matches(word, COMMAND_WORDS, n=1, cutoff=0.5)
        suggestion = close[0] if close else None
        message = f"unknown command '{word}'" if word else "empty command"
        expected = ["a command: " + ", ".join(COMMAND_WORDS)]
    elif any("feature" in e for e in expected):
        words = text.split()
        last = words[-1].lower() if words else ""
        if len(words) == 2 and last in FEATURES:
            return CommandError("name the card for the job before the feature", text=text,
                                column=len(words[0]) + 2,
                                expected=["a card name or hand slot 1-3"])
        close = difflib.get_close_matches(last, FEATURES, n=1, cutoff=0.5)
        if close and close[0] != last:
            suggestion = text[: text.lower().rfind(last)] + close[0]
            column = text.lower().rfind(last) + 1
        message = "the job needs the one feature you want"
    else:
        message = f"unexpected '{word}'" if word else "the command is incomplete"
    return CommandError(message, text=text, column=column, expected=expected,
                        suggestion=suggestion)


@functools.lru_cache(maxsize=4096)
def _read(text: str) -> Any:
    """The words of a command, before any card is looked up (the same for any state: kept,
    as a game is replayed from its texts for every resumed save and every mail)."""
    return _TRANSFORMER.transform(grammar().parse(text))


def parse_command(text: str, deck: Deck, hand: Sequence[int]) -> Action:
    """Read one command of a player holding ``hand`` (card indexes, in hand order)."""
    text = text.rstrip()  # leading spaces stay, so columns match the line as sent
    try:
        cmd = _read(text)
    except UnexpectedInput as err:
        raise _syntax_error(text, err) from None
    kind = cmd[0]
    if kind == "job":
        return PlayJob(resolve_card(cmd[1], deck, hand, text).name, cmd[2])
    if kind == "offer":
        return Offer(resolve_card(cmd[1], deck, hand, text).name)
    if kind == "say":
        return Say(cmd[1])
    if kind == "pick":
        if cmd[1] < 1:
            raise CommandError("players are numbered from P1", text=text, column=cmd[2],
                               expected=["a player such as P2"])
        return Pick(cmd[1] - 1)
    return REVEAL


def resolve_card(ref: tuple[str, int], deck: Deck, hand: Sequence[int], text: str) -> JobCard:
    """A card by hand slot, exact name, or unique start of a name (own hand first)."""
    word, column = ref
    if word.isdigit():
        slot = int(word)
        if not 1 <= slot <= len(hand):
            raise CommandError(f"you have no card in slot {slot}", text=text, column=column,
                               expected=[f"a slot 1-{len(hand)} or a card name"])
        return deck.cards[hand[slot - 1]]
    key = normalize(word)
    card = deck.card_named(word)
    if card is not None:
        return card  # whether it is in hand is checked when the action is applied
    own = [deck.cards[i] for i in hand]
    starts = [c for c in own if normalize(c.name).startswith(key)] if key else []
    if len(starts) == 1:
        return starts[0]
    names = [c.name for c in own] or [c.name for c in deck.cards]
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.5)
    if not close:
        close = difflib.get_close_matches(word, [c.name for c in deck.cards], n=1, cutoff=0.6)
    if len(starts) > 1:
        msg = f"'{word}' could be " + " or ".join(c.name for c in starts)
    else:
        msg = f"no card named '{word}'"
    raise CommandError(msg, text=text, column=column, expected=["a card name or hand slot 1-3"],
                       suggestion=close[0] if close else None)
