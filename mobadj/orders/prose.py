"""Remarks around the orders: the lines a person writes before the first order or after the
last ("Here are my orders:", "thanks", "Carla", "See you in Berlin!") are set aside when they
are clearly prose, rather than answered with an error; an unreadable line that looks like an
order keeps its error, with a did-you-mean for a misspelt keyword (``Biuld`` -> Build).

The rule (docs/orders.md, "Remarks around the orders"): a line that cannot be read as an
order is a *remark* when it comes before the first order read or after the last one, and
fewer than half of its words are *order words*:

- a province of the map in any spelling (id, name, alias, a unique beginning of four letters
  or more), or a word of five letters or more one slip away from one (a letter left out,
  added, changed, or two swapped: ``Burgandy``);
- a unit type written out (``Army``, ``Fleet``; Mobtown's ``Gang``, ``Don``);
- an order keyword (hold, support, convoy, build, remove, waive, disband, retreat, via ...),
  or a word of four letters or more one slip away from one (``Biuld``, ``Suport``);
- an arrow (``-``, ``->``, ``=>``) between two words, neither of them a power's name
  (``thanks - Lucky`` signs off with a mob's nickname).

One-letter words (``A``, ``F``, ``S``), power names, "to", "in", "the", "of", "and" and
"move(s)" count for neither side ("My moves:" is a remark, "A PAR - YOK" an order with an
unknown province).  A line of nothing but such words is a remark.  So is a lone name as the
last line with text, under the orders (``Dan``, a sign-off, even where DAN is a province).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from mobadj.board.model import GameMap, UnknownNameError, close_matches, fold
from mobadj.orders.errors import OrderError, OrderSyntaxError
from mobadj.orders.fastpath import MAX_LINE
from mobadj.orders.spelling import PrefixNames, plain_characters, text_lines

if TYPE_CHECKING:
    from mobadj.orders.parser import ParseResult

KEYWORDS = (
    "hold", "holds", "stand", "stands", "support", "supports", "supp", "sup", "convoy",
    "convoys", "disband", "disbands", "build", "builds", "remove", "removes", "waive", "waives",
    "waived", "retreat", "retreats", "via", "cement", "overcoat", "starts",
)
"""Words only an order uses (the grammar's, mobadj/orders/grammar.lark, and Mobtown's)."""
SUGGESTED = ("Build", "Remove", "Waive", "Disband", "Retreat", "Support", "Convoy", "Hold")
"""The keywords a misspelt first word is compared with, as the did-you-mean writes them."""
NEUTRAL = frozenset({"to", "into", "in", "by", "the", "of", "and", "move", "moves", "m"})
"""Words an order and a sentence share: they count for neither side."""
_TOKEN = re.compile(r"[^\W_]+(?:['\u2019.][^\W_]+)*|-+>?|=>|>")
_ARROW = re.compile(r"-+>?|=>|>")
MAX_RUN = 4  # words in the longest province name looked for ("Gulf of Bothnia")


@dataclass
class Vocabulary:
    """The order words of one map."""

    names: frozenset[str]  # folded spellings of every province
    units: frozenset[str]  # unit types written out, folded
    powers: frozenset[str]
    prefixes: PrefixNames
    slips: frozenset[str]  # the longer spellings with one letter left out, and themselves
    longest: int = 0  # letters in the longest spelling of a province
    remarks: dict[str, bool] = field(default_factory=dict)  # line -> is a remark (a cache)

    def is_name(self, words: list[str]) -> bool:
        key = "".join(fold(w) for w in words)
        return key in self.names or (len(words) == 1 and self.prefixes.find(key) is not None)

    def near_name(self, key: str) -> bool:
        """Is ``key`` (folded, five letters or more) one slip from a province's spelling: a
        letter left out, added, changed or two swapped (``burgandy``, ``yorksire``)?  A word
        longer than every name by more than a letter is none: it is not spelt out letter by
        letter (a word of 200,000 letters would take seconds)."""
        return len(key) <= self.longest + 1 and not self.slips.isdisjoint(_dropped(key))


def _dropped(key: str) -> set[str]:
    """``key`` and every spelling of it with one letter left out."""
    return {key, *(key[:i] + key[i + 1:] for i in range(len(key)))}


_VOCABULARIES: dict[int, tuple[GameMap, Vocabulary]] = {}


def vocabulary(game_map: GameMap) -> Vocabulary:
    """The order words of ``game_map`` (built once per map)."""
    got = _VOCABULARIES.get(id(game_map))
    if got is not None and got[0] is game_map:
        return got[1]
    names = {fold(s) for pid, prov in game_map.provinces.items()
             for s in (pid, prov.name, *prov.aliases)}
    units = {fold(n) for n in game_map.unit_kinds.values()} - {""}
    powers = {fold(s) for pid, p in game_map.powers.items() for s in (pid, p.name, *p.aliases)}
    slips = {s for n in names if len(n) >= 5 for s in _dropped(n)}
    vocab = Vocabulary(frozenset(names - {""}), frozenset(u for u in units if len(u) > 1),
                       frozenset(powers), PrefixNames(game_map), frozenset(slips),
                       max(map(len, names), default=0))
    _VOCABULARIES[id(game_map)] = (game_map, vocab)
    return vocab


def _words(line: str) -> list[tuple[str, int]]:
    """The words and arrows of a line, with the column (0-based) of each."""
    return [(m.group(0), m.start()) for m in _TOKEN.finditer(plain_characters(line))]


def near_keyword(word: str, vocab: Vocabulary | None = None) -> str | None:
    """The order keyword or unit type ``word`` is a slip away from (``Biuld`` -> Build,
    ``Armee`` -> Army), None when it is none or is a province, or a word orders share
    with sentences (:data:`NEUTRAL`: "move" is no slip of Remove)."""
    key = fold(word)
    units = tuple(sorted(vocab.units)) if vocab is not None else ()
    if (len(key) < 4 or key in KEYWORDS or key in NEUTRAL
            or len(key) > 2 * max(map(len, (*SUGGESTED, *units)))):
        return None  # (a word twice as long as every keyword is no slip of one)
    if vocab is not None and (key in vocab.units or vocab.is_name([word])):
        return None
    return _near_keyword(key, units)


@lru_cache(maxsize=4096)
def _near_keyword(key: str, units: tuple[str, ...]) -> str | None:
    close = close_matches(key, [*(k.lower() for k in SUGGESTED), *units], n=1, cutoff=0.75)
    return close[0].title() if close else None


def is_remark(line: str, game_map: GameMap) -> bool:
    """Is ``line`` (which is no order) clearly prose?  See the module's rule.  A line longer
    than an order line may be (:data:`~mobadj.orders.fastpath.MAX_LINE`) is not read at all,
    not even as a remark: it keeps its error ("too long"), and no line takes long."""
    if len(line) > MAX_LINE:
        return False
    vocab = vocabulary(game_map)
    known = vocab.remarks.get(line)
    if known is None:
        if len(vocab.remarks) > 4096:
            vocab.remarks.clear()
        known = vocab.remarks[line] = _is_remark(line, vocab)
    return known


def _is_remark(line: str, vocab: Vocabulary) -> bool:
    words = [w for w, _ in _words(line)]
    marks = [False] * len(words)
    i = 0
    while i < len(words):  # province names of several words first ("North Sea", "Mid-Atl")
        for n in range(min(MAX_RUN, len(words) - i), 0, -1):
            run = words[i:i + n]
            if all(not _ARROW.fullmatch(w) for w in run) and vocab.is_name(run):
                marks[i:i + n] = [True] * n
                i += n - 1
                break
        i += 1
    order = other = 0
    for j, word in enumerate(words):
        key = fold(word)
        if marks[j]:
            order += 1
        elif _ARROW.fullmatch(word):
            if 0 < j < len(words) - 1 and not _names_power(words, j, vocab):
                order += 1
        elif len(key) <= 1 or key in NEUTRAL or key in vocab.powers:
            continue
        elif (key in KEYWORDS or key in vocab.units or near_keyword(word, vocab)
              or (len(key) >= 5 and vocab.near_name(key))):
            order += 1
        else:
            other += 1
    return order * 2 < order + other or order == 0


def _names_power(words: list[str], j: int, vocab: Vocabulary) -> bool:
    """Does the arrow ``words[j]`` stand next to a power's name (``thanks - Lucky``,
    ``Cheers -- Baby Face``)?  Then it is a dash in a sign-off, no order's arrow."""
    after = ["".join(fold(w) for w in words[j + 1:j + 1 + n]) for n in range(1, MAX_RUN + 1)]
    before = ["".join(fold(w) for w in words[max(0, j - n):j]) for n in range(1, MAX_RUN + 1)]
    return any(w in vocab.powers and w not in vocab.names for w in after + before)


def _lone_name(line: str, game_map: GameMap) -> bool:
    """Is ``line`` a single word of letters that is no keyword, unit type or slip of one
    (``Dan``, ``Lex``: a name, even when it spells a province)?  A line too long to be read
    is none."""
    if len(line) > MAX_LINE:
        return False
    words = _words(line)
    if len(words) != 1 or not words[0][0].isalpha():
        return False
    word = words[0][0]
    key = fold(word)
    vocab = vocabulary(game_map)
    return key not in KEYWORDS and key not in vocab.units and near_keyword(word, vocab) is None


def _signs_off(lines: Sequence[str], n: int, end: int, game_map: GameMap) -> bool:
    """Is line ``n`` (1-based) of a mail ending at line ``end`` its sign-off: a lone name
    (``Dan``), the last line with text, under the orders?"""
    return (_lone_name(lines[n - 1], game_map)
            and not any(line.strip() for line in lines[n:end]))


def keyword_slip(error: OrderError, line: str, game_map: GameMap) -> OrderError:
    """``error`` with a did-you-mean for the misspelt keyword or unit type where it points
    (``Biuld G Que``: "unknown word 'Biuld'; did you mean Build?"), else itself."""
    if len(line) > MAX_LINE:  # not read: no word of it is looked at
        return error
    vocab = vocabulary(game_map)
    words = _words(line)
    for word, start in words:
        if start + 1 == error.column:
            if fold(word) in ("move", "moves"):
                return OrderSyntaxError(
                    f"unknown word {word!r}: {move_form(words, game_map)}", line=error.line,
                    column=error.column, text=error.text, note=error.note)
            near = near_keyword(word, vocab)
            if near is None:
                return error
            return OrderSyntaxError(f"unknown word {word!r}", line=error.line,
                                    column=error.column, text=error.text, suggestion=near,
                                    note=error.note)
    return error


def move_form(words: list[tuple[str, int]], game_map: GameMap) -> str:
    """How a move is written, with the provinces of the line where it names two ("a move
    names its unit first: A VIE - GAL"), for an order that begins with "move"."""
    found: list[str] = []
    for word, _ in words:
        try:
            loc = game_map.lookup(word)
        except UnknownNameError:
            continue
        if loc not in found:
            found.append(loc)
    kind = next(iter(game_map.unit_kinds), "A")
    there = f"{found[0]} - {found[1]}" if len(found) >= 2 else "PAR - BUR"
    if len(found) < 2 and "PAR" not in game_map.provinces:
        return "a move names its unit first, then '-' and where it goes"
    return f"a move names its unit first, then '-' and where it goes: {kind} {there}"


def set_aside_remarks(result: ParseResult, text: str, game_map: GameMap,
                      starts: Sequence[int] = ()) -> list[int]:
    """Drop from ``result.errors`` (in place) the errors of the remark lines of ``text``
    (before the first order read, after the last); give the other errors a keyword's
    did-you-mean.  ``starts``: the line numbers where another mail begins (a file of
    several pasted mails, mobadj.orders.mailtext.read_mail), each read by the rule alone.
    Returns the numbers of the lines set aside."""
    lines = text_lines(text)
    bounds = sorted({s for s in starts if s > 1})
    ranges: dict[int, list[int]] = {}  # mail -> [its first order's line, its last's]
    for p in result.orders:
        got = ranges.setdefault(bisect_right(bounds, p.line), [p.line, p.line])
        got[0], got[1] = min(got[0], p.line), max(got[1], p.line)
    aside = []
    for n in sorted({e.line for e in result.errors}):
        mail = bisect_right(bounds, n)
        first, last = ranges.get(mail, (len(lines) + 1, 0))
        if not (n < first or n > last) or not 0 < n <= len(lines):
            continue
        end = bounds[mail] - 1 if mail < len(bounds) else len(lines)
        if is_remark(lines[n - 1], game_map) or (
                n > last and _signs_off(lines, n, end, game_map)):
            aside.append(n)
    kept = [e for e in result.errors if e.line not in aside]
    result.errors[:] = [keyword_slip(e, lines[e.line - 1], game_map)
                        if 0 < e.line <= len(lines) else e for e in kept]
    return aside
