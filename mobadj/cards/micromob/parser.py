"""Parse micro mob command text into actions, with errors a player can act on.

Syntax errors name the column, what was expected and a did-you-mean; unknown cards are
matched only against cards the player may see in the zone the command needs (never
against another player's hand), so an error can not leak a secret.
"""

from __future__ import annotations

import difflib
import functools
from typing import TYPE_CHECKING, Any

from lark import Lark, Token, Transformer, UnexpectedInput, v_args

from mobadj.cards.micromob.actions import Action, Done, Draft, Pass, Payroll, Take, Use
from mobadj.cards.micromob.cards import ABILITY_ZONE, POWER_NAME, SPECIAL_ABILITIES
from mobadj.cards.protocol import CommandError, IllegalAction

if TYPE_CHECKING:
    from mobadj.cards.micromob.engine import MicroMobState

PARSER = Lark.open("commands.lark", rel_to=__file__, parser="lalr", maybe_placeholders=False)
KEYWORDS = ("draft", "hit", "hire", "ally", "payroll", "use", "done", "pass")
COMMAND_WORDS = frozenset(KEYWORDS) | {"pay", "end"}
WORDS = {
    "KIND": "hit, hire or ally",
    "CARD": "a card id (like D3)",
    "_WITH": "'with'",
    "_ON": "'on'",
    "_TAKE": "'take'",
    "_GIVE": "'give'",
    "_SEP": "','",
    "$END": "end of command",
    "<END-OF-FILE>": "end of command",
}


class _ToAction(Transformer):
    """Tree -> (action kind, tokens); cards stay tokens so errors can point at them."""

    @v_args(inline=True)
    def draft(self, card: Token) -> tuple:
        return ("draft", card)

    def take(self, items: list) -> tuple:
        kind, target, *rest = items
        return ("take", kind.lower(), target, rest[0] if rest else [])

    def goons(self, items: list) -> list:
        return list(items)

    def payroll(self, _items: list) -> tuple:
        return ("payroll",)

    def use(self, items: list) -> tuple:
        return ("use", *items)

    def done(self, _items: list) -> tuple:
        return ("done",)

    def pass_(self, _items: list) -> tuple:
        return ("pass",)


_TRANSFORM = _ToAction()


def _expected_words(names: set[str] | frozenset[str]) -> list[str]:
    words = []
    for name in sorted(names):
        if name in WORDS:
            words.append(WORDS[name])
        elif name.isupper():
            words.append(f"'{name.lower()}'")
    return sorted(set(words))


def syntax_error(text: str, err: UnexpectedInput) -> CommandError:
    """A lark error as a CommandError: column, expected words, did-you-mean."""
    col = getattr(err, "column", None)
    token = getattr(err, "token", None)
    if getattr(token, "type", None) == "$END" or not isinstance(col, int) or col < 1:
        col = len(text) + 1  # the command ended where more was needed
    expected = _expected_words(set(getattr(err, "expected", None) or ()) | set(
        getattr(err, "allowed", None) or ()
    ))
    first = text.split()[0].lower()
    if first not in COMMAND_WORDS:  # a misspelt command word, even one lark half-read
        col = len(text) - len(text.lstrip()) + 1
    start = col - 1
    while 0 < start < len(text) and not text[start - 1].isspace():
        start -= 1  # point at the whole word, not where the lexer gave up inside it
    col = start + 1
    word = text[start:].split()[0] if text[start:].split() else ""
    suggestion = None
    if word and not text[:start].strip():
        close = difflib.get_close_matches(word.lower(), KEYWORDS, n=1, cutoff=0.5)
        suggestion = close[0] if close else None
        expected = ["a command: " + ", ".join(KEYWORDS)]
    elif word:
        literals = [w.strip("'") for w in expected if w.startswith("'")]
        close = difflib.get_close_matches(word.lower(), literals, n=1, cutoff=0.5)
        suggestion = close[0] if close else None
    where = f"'{word}' is not understood" if word else "the command stops too early"
    return CommandError(where, text=text, column=col, expected=expected, suggestion=suggestion)


def _resolve(
    token: Token, zone: list[str], where: str, text: str
) -> str:
    """The card id of ``token`` if it is in ``zone`` (a zone the player may see)."""
    cid = str(token).upper()
    if cid in zone:
        return cid
    if not zone:  # "expected one of: none" is no sentence for a player
        raise CommandError(f"{cid} is not {where}, which is empty", text=text,
                           column=token.column)
    close = difflib.get_close_matches(cid, zone, n=1, cutoff=0.5)
    raise CommandError(
        f"{cid} is not {where}",
        text=text,
        column=token.column,
        expected=[f"one of: {', '.join(zone)}"],
        suggestion=close[0] if close else None,
    )


@functools.lru_cache(maxsize=4096)
def _read(text: str) -> Any:
    """The words of a command, before any card is looked up (the same for any state: kept,
    as a game is replayed from its texts for every resumed save and every mail)."""
    return _TRANSFORM.transform(PARSER.parse(text))


def _draft_examples(state: MicroMobState, player: int) -> str:
    """What the draft asks of ``player``, with two of its moves as examples: an error for a
    move of the wrong phase says what the game is waiting for, not what the command lacks."""
    if player != state.current:
        return f"P{state.current + 1} drafts now"
    moves = [str(a) for a in state.legal_actions(player)[:2]]
    return "draft a goon from the pool: " + ", ".join(moves) + (", ..." if moves else "")


def parse_command(state: MicroMobState, player: int, text: str) -> Action:
    """Command text -> action for ``player``; raises CommandError or IllegalAction."""
    text = text.strip()
    if "\n" in text:
        line = text.count("\n", 0, text.index("\n") + 1) + 1
        raise CommandError(f"one command per line: line {line} starts a second command",
                           text=text, column=1, expected=["a single command"])
    if not text:
        raise CommandError("empty command", text=text, column=1,
                           expected=["a command: " + ", ".join(KEYWORDS)])
    word = text.split()[0].lower()
    if state.phase == "draft" and word in COMMAND_WORDS and word != "draft":
        raise IllegalAction(f"you cannot {word} now: it is the goon draft "
                            f"({_draft_examples(state, player)})")
    if state.phase != "draft" and word == "draft":
        raise IllegalAction("you cannot draft now: the goon draft is over")
    if state.phase == "play" and player != state.current and word in COMMAND_WORDS:
        # the turn first: "cannot pay to hit U1" would answer a move that is not yours now
        raise IllegalAction(f"it is not your turn: P{state.current + 1} is to move")
    try:
        parsed = _read(text)
    except UnexpectedInput as err:
        raise syntax_error(text, err) from None
    kind = parsed[0]
    if kind == "payroll":
        return Payroll()
    if kind == "done":
        return Done()
    if kind == "pass":
        return Pass()
    hand = state.hand[player]
    if kind == "draft":
        return Draft(_resolve(parsed[1], state.pool, "in the draft pool", text))
    if kind == "take":
        _, verb, target_tok, goon_toks = parsed
        target = _resolve(target_tok, state.city, "in the city", text)
        goons = tuple(_resolve(t, hand, "in your hand", text) for t in goon_toks)
        if not goons:
            pay = state.payment(player, verb, target)
            if pay is None:
                raise IllegalAction(state.cannot_pay(player, verb, target))
            goons = pay
        return Take(verb, target, goons)
    # use
    ally_tok, *rest = parsed[1:]
    ally = _resolve(ally_tok, state.allies[player], "in your ally area", text)
    power = state.card(ally).power
    if power not in SPECIAL_ABILITIES:
        raise IllegalAction(f"{ally}'s power ({POWER_NAME[power]}) works by itself; nothing "
                            "to use")
    zone_name = ABILITY_ZONE[power]
    zones = {
        "fatigue": (state.fatigue[player], "in your fatigue area"),
        "allies": (state.allies[player], "in your ally area"),
        "city": (state.city, "in the city"),
    }
    if not rest:
        return Use(ally)
    if zone_name is None:
        raise IllegalAction(f"{ally} ({POWER_NAME[power]}) takes no target: use {ally}")
    zone, where = zones[zone_name]
    target = _resolve(rest[0], zone, where, text)
    if len(rest) == 1:
        if power == "swap":
            raise IllegalAction(f"{ally} (swap with city) is used as: use {ally} take CARD "
                                "give CARD")
        return Use(ally, target)
    if power != "swap":
        raise IllegalAction(f"{ally} ({POWER_NAME[power]}) is used as: use {ally} on CARD")
    return Use(ally, target, _resolve(rest[1], hand, "in your hand", text))
