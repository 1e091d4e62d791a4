"""The words a card game's commands start with, read from its grammar (``commands.lark``).

The judge gives these words precedence over its own command words in a player's mail (see
docs/cards/playing.md): after SIGNON to a card game, a line whose first word starts one of
the game's commands is the game's.  Reading them from the grammar means a word added to a
game can never be shadowed by the judge without the tests noticing.
"""

from __future__ import annotations

import inspect
import re
from functools import cache
from pathlib import Path

from lark import Lark

from mobadj.cards.registry import canonical_name, game_class

_PLAIN = re.compile(r"\(\?[a-z]*:|\(|\)|\\b")


def _grammar(name: str) -> Lark | None:
    """The game's command grammar (``commands.lark`` beside its engine), None if it has
    none (a game that parses its commands by hand)."""
    path = Path(inspect.getfile(game_class(name))).parent / "commands.lark"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    # the rule listing the commands: ``command`` where there is one, else ``start``
    start = "command" if re.search(r"^\??command\s*:", text, re.M) else "start"
    return Lark(text, parser="lalr", start=start)


@cache
def first_patterns(game: str) -> tuple[re.Pattern[str], ...]:
    """Regexes of the terminals a command of ``game`` may start with."""
    parser = _grammar(canonical_name(game))
    if parser is None:
        return ()
    names = sorted(parser.parse_interactive("").accepts())
    return tuple(re.compile(parser.get_terminal(n).pattern.to_regexp(), re.I) for n in names
                 if n != "$END")


@cache
def command_words(game: str) -> frozenset[str]:
    """Every word a command of ``game`` may start with, lower case (``start``, ``hire``).
    Terminals are alternations of words in the grammars; a pattern that is not is refused,
    so the list is always complete."""
    words: set[str] = set()
    for pattern in first_patterns(game):
        plain = _PLAIN.sub("", pattern.pattern)
        alternatives = plain.split("|")
        if not all(w.isalpha() for w in alternatives):
            raise ValueError(f"{game}: cannot list the words of the command pattern "
                             f"{pattern.pattern!r}")
        words.update(w.lower() for w in alternatives)
    return frozenset(words)
