"""A fast path for the everyday order shapes; the Lark grammar stays the authority.

Most order lines are short and regular: "A PAR - BUR", "F NTH C A LON - NWY",
"A PAR R BUR", "F ADR D", "F STP/NC B", "Build A PAR", "Remove F KIE", "Waive".  Compiled
regular expressions recognise those shapes; the names are resolved through the map's
cached lookup and the order is built directly, about ten times faster than running the
LALR parser (and a batch of such orders never loads the parser, nor Lark:
:func:`fast_path_for` builds a map's fast path alone).  Anything else (hyphenated
names, Mobtown's forms, errors, unknown names) returns None and goes to the grammar, which
also writes every error message.  The test suite checks on a large random corpus that both
paths agree wherever the fast path answers, and the fast path switches itself off for a
map where a keyword is also a province name.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import Any, Final

from mobadj.board.model import GameMap, UnknownNameError, fold
from mobadj.orders.model import (
    UNKNOWN_KIND,
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)

MAX_LINE: Final = 1000
"""The longest line (and order) read, in characters: no real order comes near it, and the
cap keeps the time any one line can take to a few milliseconds."""

KEYWORDS: Final = (
    "h", "hold", "holds", "s", "sup", "supp", "support", "supports", "c", "convoy", "convoys",
    "to", "into", "via", "by", "u", "r", "retreat", "retreats", "move", "moves", "build",
    "builds", "remove", "removes", "disband", "disbands", "waive", "waives", "waived", "stand",
    "stands", "d", "b", "m", "w")
"""Words that never stand inside a name here, as in the grammar (``d``/``b``: "F ADR D";
njudge's ``m`` for move and ``w`` for waive)."""

# The patterns are compiled with IGNORECASE, at every start.  A character set holding a
# character beyond Latin-1, or a letter range under IGNORECASE (which folds in the Kelvin
# sign and the long s), takes the re module 0.2 ms to compile: names are matched
# case-sensitively here (their sets hold both cases), and the guard names U+2011 apart.
# A name written with a typographic apostrophe (U+2019) is left to the grammar.
_SIMPLE_NAME = r"(?-i:[A-Za-z][\w.']*(?:/[A-Za-z]+)?)"
_GUARD = r"(?![\w.'/]|\u2011)"
_WORD = (r"(?!(?:" + "|".join(sorted(KEYWORDS, key=len, reverse=True)) + ")" + _GUARD + ")"
         + _SIMPLE_NAME)
_NAME = rf"{_WORD}(?:\s+{_WORD})*(?:\s*\(\s*(?-i:[A-Za-z][A-Za-z ]*)\))?"
_ARROW = r"(?:\s*(?:-->|->|=>|--|-)\s*|\s+to\s+)"

# The same words for the word-by-word reading (FastPath._words), in lower case.
_ARROWS: Final = frozenset({"-->", "->", "=>", "--", "-", "to"})
_VIA: Final = frozenset({"via", "via convoy", "by convoy"})
_HOLD: Final = frozenset({"holds", "hold", "h"})
_SUPPORT: Final = frozenset({"supports", "support", "supp", "sup", "s"})
_CONVOY: Final = frozenset({"convoys", "convoy", "c"})
_DISBAND: Final = frozenset({"disbands", "disband", "d"})
_BUILD: Final = frozenset({"builds", "build", "b"})
_RETREAT: Final = frozenset({"retreats", "retreat", "r"})
_INTO: Final = frozenset({"to", "into"})
_RETREAT_FIRST: Final = frozenset({"retreats", "retreat", "r"})
_BUILD_FIRST: Final = frozenset({"builds", "build"})
_WAIVE: Final = frozenset({"waives", "waived", "waive"})
_ADJUSTMENT_WORDS: Final = _BUILD_FIRST | {"removes", "remove"} | _WAIVE


class FastPath:
    """Recognise the common order shapes of one map; ``parse`` returns None to decline."""

    def __init__(self, game_map: GameMap, infer_kind: Callable[[str], str],
                 hyphen_heads: re.Pattern[str] | None = None, max_length: int = 1000) -> None:
        self.game_map = game_map
        self.infer_kind = infer_kind
        #: found in a text whose hyphens the parser mends ("Mid-Atlantic") before it comes here
        self.hyphen_heads = hyphen_heads
        #: the parser's longest order: a longer text is its to refuse
        self.max_length = max_length
        kinds: dict[str, str] = {}
        for letter, name in game_map.unit_kinds.items():
            kinds[letter.lower()] = letter
            kinds[fold(name)] = letter
        self.kinds = kinds
        kind = ("(?:" + "|".join(re.escape(k) for k in sorted(kinds, key=len, reverse=True))
                + ")" + _GUARD)
        name = _NAME.replace("(?:" + "|".join(sorted(KEYWORDS, key=len, reverse=True)),
                             "(?:" + "|".join(sorted((*KEYWORDS, *kinds), key=len, reverse=True)))
        # The patterns are compiled when first needed: most texts are read word by word
        # (:meth:`_words`), and compiling them is a noticeable part of a short batch's start.
        self._kind, self._name = kind, name
        self._simple_pattern: re.Pattern[str] | None = None
        self._adjustment_pattern: re.Pattern[str] | None = None
        self._pattern: re.Pattern[str] | None = None
        self.enabled = not self._keyword_is_a_name()
        self._units: dict[tuple[str | None, str], Unit] = {}
        self._orders: dict[object, Order] = {}  # equal orders are shared: building is slow
        self._names: dict[str, str] = {}  # each name as written -> its location
        #: words never read as a name by :meth:`_words` (a name may not be a keyword there)
        self._reserved = frozenset(k.lower() for k in (*KEYWORDS, *kinds))

    @property
    def simple(self) -> re.Pattern[str]:
        """The shapes with one-word names."""
        if self._simple_pattern is None:
            self._simple_pattern = self._compile(self._kind, _SIMPLE_NAME)
        return self._simple_pattern

    @property
    def adjustment(self) -> re.Pattern[str]:
        """The adjustment orders written first-word-first, with one-word names."""
        if self._adjustment_pattern is None:
            self._adjustment_pattern = re.compile(
                rf"""^\s*(?:(?:(?P<b>builds|build)|(?P<r>removes|remove))\s+(?P<k>{self._kind})
                     \s+(?P<a>{_SIMPLE_NAME})|(?P<w>waives|waived|waive))\s*$""",
                re.IGNORECASE | re.VERBOSE)
        return self._adjustment_pattern

    @property
    def pattern(self) -> re.Pattern[str]:
        """The shapes with names of several words."""
        if self._pattern is None:
            self._pattern = self._compile(self._kind, self._name)
        return self._pattern

    @staticmethod
    def _compile(kind: str, name: str) -> re.Pattern[str]:
        return re.compile(
            rf"""^\s*(?P<k>{kind})\s+(?P<a>{name})(?:
                 {_ARROW}(?P<d>{name})(?P<vc>\s+via(?:\s+convoy)?|\s+by\s+convoy)?
               | \s+(?P<h>holds|hold|h)
               | \s+(?P<s>supports|support|supp|sup|s)\s+(?:(?P<sk>{kind})\s+)?(?P<sa>{name})
                     (?:{_ARROW}(?P<sd>{name})|(?:\s+(?:holds|hold|h))?)
               | \s+(?P<c>convoys|convoy|c)\s+(?:(?P<ck>{kind})\s+)?(?P<ca>{name})
                     {_ARROW}(?P<cd>{name})
               | \s+(?P<x>disbands|disband|d)
               | \s+(?P<b>builds|build|b)
               | \s+(?P<r>retreats|retreat|r)(?:\s+(?:to|into))?\s+(?P<rd>{name})
               )\s*$""",
            re.IGNORECASE | re.VERBOSE,
        )

    def _keyword_is_a_name(self) -> bool:
        for word in (*KEYWORDS, *self.kinds):
            try:
                self.game_map.lookup(word)
            except UnknownNameError:
                continue
            return True
        return False

    def parse(self, text: str) -> list[AnyOrder] | None:
        """The orders of ``text``, or None when the grammar must decide."""
        shape = None
        if text.isascii():  # words other than ASCII: the patterns' case rules decide
            words = text.split()
            shape = self._words(words)
            if shape is None and len(words) >= 4 and words[0].lower() in _RETREAT_FIRST:
                shape = self._retreat_first(words)
            if shape is None and 0 < len(words) <= 3 and words[0].lower() in _ADJUSTMENT_WORDS:
                adjustment = self._adjustment_words(words)
                if adjustment is not None:
                    return adjustment
        if shape is None:
            match = self.simple.match(text)
            if match is None:
                adjustment_match = self.adjustment.match(text)
                if adjustment_match is not None:
                    return self._adjustment(*adjustment_match.groups())
                match = self.pattern.match(text)
                if match is None:
                    return None
            shape = match.groups()
        return self._build(shape)

    def _build(self, shape: tuple[Any, ...]) -> list[AnyOrder] | None:
        """The order of one shape's parts (the groups of :meth:`_compile`'s pattern)."""
        k, a, d, vc, h, s, sk, sa, sd, c, ck, ca, cd, x, b, _r, rd = shape
        orders = self._orders
        try:
            unit = self._unit(k, self._lookup(a))
            key: object
            if d is not None:
                dest, via = self._lookup(d), vc is not None
                key = (unit, dest, via)
                order = orders.get(key)
                if order is None:
                    order = orders[key] = Move(unit, dest, via)
            elif h is not None:
                order = orders.get(unit)
                if order is None:
                    order = orders[unit] = Hold(unit)
            elif s is not None:
                supported = self._unit(sk, self._lookup(sa))
                target = None if sd is None else self._lookup(sd)
                key = (unit, supported, target)
                order = orders.get(key)
                if order is None:
                    order = orders[key] = (SupportHold(unit, supported) if target is None
                                           else SupportMove(unit, supported, target))
            elif c is not None:
                convoyed = self._unit(ck, self._lookup(ca))
                if convoyed.kind == UNKNOWN_KIND and "A" in self.game_map.unit_kinds:
                    convoyed = self._unit("A", convoyed.location)
                dest = self._lookup(cd)
                key = (unit, convoyed, dest, "C")
                order = orders.get(key)
                if order is None:
                    order = orders[key] = Convoy(unit, convoyed, dest)
            elif rd is not None:
                dest = self._lookup(rd)
                key = (unit, dest, "R")
                order = orders.get(key)
                if order is None:
                    order = orders[key] = Retreat(unit, dest)
            else:  # "A PAR D" / "A PAR disband", "F STP/NC B" / "F STP build"
                key = (unit, "D" if x is not None else "B")
                order = orders.get(key)
                if order is None:
                    order = orders[key] = Disband(unit) if x is not None else Build(unit)
        except UnknownNameError:
            return None
        if len(orders) > 200_000:
            orders.clear()
        return [order]

    def _lookup(self, name: str) -> str:
        """The map's lookup of ``name`` (UnknownNameError), remembered here: a call into the
        map costs as much as reading the rest of the order."""
        names = self._names
        got = names.get(name)
        if got is None:
            got = self.game_map.lookup(name)
            if len(names) > 100_000:
                names.clear()
            names[name] = got
        return got

    def parse_written(self, text: str) -> AnyOrder | None:
        """The one order ``text`` is, when the parser would hand it here unchanged and
        this path reads it; else None (the parser decides).

        The parser's normalising (mobadj.orders.spelling.normalise) changes only non-ASCII
        characters, brackets and trailing full stops, and its hyphen mending only the
        hyphens of names (``hyphen_heads``): a text free of all these reaches the fast path
        as written.  ``mobadj batch`` asks here first for each new text, which skips the
        parser's own checks."""
        if not text.isascii() or "(" in text or "." in text or len(text) > self.max_length:
            return None
        shape = self._words(text.split())
        if shape is not None:  # no hyphen but in an arrow: nothing the parser mends
            orders = self._build(shape)
        else:
            heads = self.hyphen_heads
            if heads is not None and "-" in text and heads.search(text) is not None:
                return None
            orders = self.parse(text)
        return orders[0] if orders is not None else None

    # -- the shapes read word by word: as the patterns read them, without the re module --

    def _is_name(self, word: str) -> bool:
        """Is ``word`` (ASCII) a one-word name that :data:`_SIMPLE_NAME` reads alone (letters
        and digits, a coast after a slash) and no keyword or kind?"""
        if word in self._names:  # a name read before (a map with a keyword as name has no
            return True  # fast path; a pattern reads a name that has no space alone too)
        head, slash, coast = word.partition("/")
        return (head.isalnum() and head[0].isalpha() and (not slash or coast.isalpha())
                and word.lower() not in self._reserved)

    def _words(self, words: list[str]) -> tuple[str | None, ...] | None:
        """The parts of an everyday unit order's words (ASCII), each name one word ("A PAR -
        BUR", "F NTH C A LON - NWY", "A PAR S A MAR H", "A PAR R to BUR"), as :attr:`simple`
        matches them; None for anything else (the patterns then read it).  Most order texts
        are such, and splitting them is several times faster than matching the pattern."""
        n = len(words)
        if n < 3 or n > 7:
            return None
        k = words[0]
        a = words[1]
        if k.lower() not in self.kinds or not self._is_name(a):
            return None
        verb = words[2].lower()
        if verb in _ARROWS:  # A PAR - BUR [via [convoy] | by convoy]
            d = words[3] if n > 3 else ""
            if not self._is_name(d):
                return None
            vc: str | None = None
            if n > 4:
                tail = " ".join(words[4:]).lower()
                if tail not in _VIA:
                    return None
                vc = tail
            return (k, a, d, vc, None, None, None, None, None, None, None, None, None, None,
                    None, None, None)
        if n == 3:
            if verb in _HOLD:
                return (k, a, None, None, verb, None, None, None, None, None, None, None, None,
                        None, None, None, None)
            if verb in _DISBAND:
                return (k, a, None, None, None, None, None, None, None, None, None, None, None,
                        verb, None, None, None)
            if verb in _BUILD:
                return (k, a, None, None, None, None, None, None, None, None, None, None, None,
                        None, verb, None, None)
            return None
        if verb in _RETREAT:  # A PAR R [to | into] BUR
            if n == 5 and words[3].lower() in _INTO:
                rd = words[4]
            elif n == 4:
                rd = words[3]
            else:
                return None
            if not self._is_name(rd):
                return None
            return (k, a, None, None, None, None, None, None, None, None, None, None, None,
                    None, None, verb, rd)
        support = verb in _SUPPORT
        if not support and verb not in _CONVOY:
            return None
        # S/C [kind] unit [- destination] [H]
        i = 3
        ok: str | None = None
        if words[i].lower() in self.kinds:
            ok = words[i]
            i += 1
        if i >= n or not self._is_name(words[i]):
            return None
        oa = words[i]
        rest = n - i - 1
        if rest == 2 and words[i + 1].lower() in _ARROWS and self._is_name(words[i + 2]):
            od: str | None = words[i + 2]
        elif support and (rest == 0 or (rest == 1 and words[i + 1].lower() in _HOLD)):
            od = None
        else:
            return None
        if support:
            return (k, a, None, None, None, verb, ok, oa, od, None, None, None, None, None,
                    None, None, None)
        return (k, a, None, None, None, None, None, None, None, verb, ok, oa, od, None,
                None, None, None)

    def _retreat_first(self, words: list[str]) -> tuple[str | None, ...] | None:
        """"Retreat A BUR - PIC" / "R A BUR - PIC" (the word first, then a move's words) as
        the shape of "A BUR R PIC"; None for anything else, or where "R" is a unit type."""
        if words[0].lower() in self.kinds:
            return None
        shape = self._words(words[1:])
        if shape is None or shape[2] is None or shape[3] is not None:  # a move, not by convoy
            return None
        k, a, d = shape[:3]
        return (k, a, None, None, None, None, None, None, None, None, None, None, None, None,
                None, words[0], d)

    def _adjustment_words(self, words: list[str]) -> list[AnyOrder] | None:
        """"Build A PAR", "Remove F KIE" or "Waive" word by word, as :attr:`adjustment`
        reads them; None for anything else."""
        verb = words[0].lower()
        if verb in self.kinds:  # a map whose kind is called "Build": the patterns decide
            return None
        if len(words) == 1:
            return [Waive()] if verb in _WAIVE else None
        if len(words) != 3 or verb in _WAIVE or words[1].lower() not in self.kinds \
                or not self._is_name(words[2]):
            return None
        build = verb if verb in _BUILD_FIRST else None
        remove = None if build is not None else verb
        return self._adjustment(build, remove, words[1], words[2], None)

    def _adjustment(self, build: str | None, remove: str | None, kind: str | None,
                    loc: str | None, waive: str | None) -> list[AnyOrder] | None:
        """"Build A PAR", "Remove F KIE" or "Waive" (None: an unknown name)."""
        if waive is not None:
            return [Waive()]
        assert kind is not None and loc is not None
        try:
            unit = self._unit(kind, self._lookup(loc))
        except UnknownNameError:
            return None
        key = (unit, "Build" if build is not None else "Remove")
        order = self._orders.get(key)
        if order is None:
            order = self._orders[key] = Build(unit) if build is not None else Remove(unit)
        return [order]

    def _unit(self, kind: str | None, loc: str) -> Unit:
        """Units are immutable values, so equal ones are shared (saves building them)."""
        key = (kind, loc)
        unit = self._units.get(key)
        if unit is None:
            real = self.infer_kind(loc) if kind is None else self.kinds[kind.lower()]
            unit = self._units[key] = Unit(real, loc)
        return unit


def hyphenated_words(game_map: GameMap) -> set[str]:
    """The words of the map's names that hold a hyphen ("Mid-Atlantic")."""
    parts = set()
    for prov in game_map.provinces.values():
        for name in (prov.name, *prov.aliases):
            for word in name.split():
                if "-" in word.strip("-"):
                    parts.add(word.strip("-"))
    return parts


def hyphen_heads(parts: set[str]) -> re.Pattern[str] | None:
    """What a text holds when the parser's hyphen mending may change it ("Mid-"), or None:
    the map has no hyphenated names (``parts``, its hyphenated words)."""
    if not parts:
        return None
    return re.compile("|".join(sorted({re.escape(p.split("-", 1)[0]) + "-" for p in parts})),
                      re.IGNORECASE)


def kind_guesser(game_map: GameMap) -> Callable[[str], str]:
    """The kind of the unit an order names without one ("Remove pic"): the only kind that
    may stand at the location, else :data:`UNKNOWN_KIND` (remembered for each location)."""
    known: dict[str, str] = {}

    def guess(location: str) -> str:
        kind = known.get(location)
        if kind is None:
            fits = [k for k in game_map.unit_kinds if game_map.can_occupy(k, location)]
            kind = known[location] = fits[0] if len(fits) == 1 else UNKNOWN_KIND
        return kind

    return guess


_FAST: weakref.WeakKeyDictionary[GameMap, FastPath | None] = weakref.WeakKeyDictionary()


def fast_path_for(game_map: GameMap) -> FastPath | None:
    """The fast path of the map's standard parser (mobadj.orders.parser.parser_for), built
    once; None where the map's names include a keyword.  A batch reads everyday orders with
    it alone, and builds the parser only for the texts it declines."""
    if game_map not in _FAST:
        fast = FastPath(game_map, kind_guesser(game_map),
                        hyphen_heads(hyphenated_words(game_map)), MAX_LINE)
        _FAST[game_map] = fast if fast.enabled else None
    return _FAST[game_map]
