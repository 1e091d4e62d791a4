"""The many ways players write the same order, brought to the one the grammar reads.

Two jobs, both kept out of the grammar so that it and the fast path stay simple:

- :func:`normalise` rewrites an order text *without moving any column* (every change
  keeps the length, or cuts only at the end), so error messages still point into what the
  player wrote: Unicode dashes and arrows (``−``, ``‐``, ``⇒``, ``⟶``) become ``-``,
  non-breaking and typographic spaces and invisible characters (zero-width spaces,
  direction marks) a space and full-width letters
  (``Ａ ＰＡＲ``) their ASCII selves;
  a keyword in brackets (``(via convoy)``, ``(hold)``) loses its brackets; trailing
  full stops go (``A PAR H.``, ``F MAO - SPA/SC.``).
- :class:`PrefixNames` reads an unambiguous beginning of a name (``Mosc``, ``Bohem``,
  ``Mid Atl``) as that province, when no other province of the map starts the same way.
"""

from __future__ import annotations

import bisect
import re

from mobadj.board.model import GameMap, fold

DASHES = "\u2010\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""Hyphen, figure dash, en and em dash, horizontal bar, minus sign, small and full-width
hyphen-minus: each is read as ``-``.  (U+2011, the non-breaking hyphen, is kept: the parser
uses it inside hyphenated names such as Mid-Atlantic.)"""

ARROWS = "\u2192\u21d2\u21e8\u2794\u279c\u27a1\u27f6\u27f9"
"""→ ⇒ ⇨ ➔ ➜ ➡ ⟶ ⟹: each is read as ``-`` (a move)."""

INVISIBLE = "\u00ad\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e" \
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u3000"
"""Soft hyphen, zero-width and direction marks, word joiner, byte-order mark (as
zero-width no-break space) and the ideographic space, which web pages and phones leave in
pasted text: each is read as a space (between words; inside a word it still splits it)."""

SPACES = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009" \
    "\u200a\u202f\u205f"
"""The non-breaking space (Word, Excel and web mail put it between words), its narrow
form and the typographic spaces (en, em, thin, hair, ...): each is read as a space, so a
line with another mistake is told of that mistake, not of its space."""

_TO_PLAIN = str.maketrans({
    **{ch: "-" for ch in DASHES + ARROWS},
    **{ch: " " for ch in INVISIBLE + SPACES},
    **{chr(wide): chr(wide - 0xFEE0) for wide in range(0xFF01, 0xFF5F)},
})
"""Dashes and arrows -> ``-``, invisible characters -> space, full-width ASCII (``Ａ``,
``（``) -> ASCII: one character for one, so every column stays."""
_ODD = re.compile(f"[{DASHES}{ARROWS}{INVISIBLE}{SPACES}\uff01-\uff5e]")
_BRACKETED = re.compile(r"\(\s*((?:via|by)(?:\s+convoy)?|holds?|h|stands?)\s*\)", re.IGNORECASE)

_INNER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Characters ``str.splitlines`` breaks a line at but editors and mail programs do not
(vertical tab, form feed, the separators, next line): inside a line they are spaces."""
_INNER = re.compile(f"[{_INNER_BREAKS}]")
_INNER_TO_SPACE = str.maketrans(dict.fromkeys(_INNER_BREAKS, " "))


def text_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor and a mail program count them (broken at
    ``\\n``, ``\\r\\n`` and ``\\r`` only), so that a line number in a message is the one
    the writer sees; a form feed or U+2028 pasted from a web page is a space."""
    if _INNER.search(text):
        text = text.translate(_INNER_TO_SPACE)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


MIN_PREFIX = 4
"""A name's beginning must have at least this many letters to stand for it ("Mosc")."""


def plain_characters(text: str) -> str:
    """``text`` with dashes and arrows as ``-``, invisible characters as spaces and
    full-width letters as ASCII; columns are kept."""
    return text.translate(_TO_PLAIN) if _ODD.search(text) else text


_LIST_MARK = re.compile(
    r"^\s*(?:\d{1,2}[.)]|\(\d{1,2}\)|[-*+\u2022\u00b7\u25aa\u25e6\u2023])(?=\s+\S)")


def without_list_mark(line: str) -> str:
    """``line`` without the mark of a list it was written in (``1.``, ``2)``, ``(3)``, ``-``,
    ``*``, ``\u2022``: "1. A Par - Bur"), blanked so that columns are kept; no order begins
    so.  (A dash from a mail program is ``-`` by now: :func:`plain_characters`.)"""
    mark = _LIST_MARK.match(line)
    return line if mark is None else " " * mark.end() + line[mark.end():]


def normalise(text: str) -> str:
    """``text`` with other judges' and keyboards' spellings made plain; columns are kept.
    Only non-ASCII characters, brackets and trailing full stops are changed: the fast path
    takes a text free of them as written (mobadj.orders.fastpath.FastPath.parse_written)."""
    text = plain_characters(text)
    if "(" in text:
        text = _BRACKETED.sub(lambda m: " " + m.group(0)[1:-1] + " ", text)
    if "." in text:
        end = len(text.rstrip())
        if end and text[end - 1] == ".":
            text = text[:end].rstrip(".")
    return text


class PrefixNames:
    """Unique beginnings of the map's province names, ids and aliases (case and
    punctuation ignored): ``Mosc`` -> MOS, ``Bohem`` -> BOH; ``Nor`` is no one's."""

    def __init__(self, game_map: GameMap) -> None:
        pairs: dict[str, set[str]] = {}
        for pid, prov in game_map.provinces.items():
            for spelling in (pid, prov.name, *prov.aliases):
                key = fold(spelling)
                if key:
                    pairs.setdefault(key, set()).add(pid)
        self._keys = sorted(pairs)
        self._owners = [pairs[k] for k in self._keys]

    def find(self, text: str) -> str | None:
        """The one province whose name begins with ``text``; None if none or several."""
        key = fold(text)
        if len(key) < MIN_PREFIX:
            return None
        keys = self._keys
        i = bisect.bisect_left(keys, key)
        found: set[str] = set()
        while i < len(keys) and keys[i].startswith(key):
            found |= self._owners[i]
            if len(found) > 1:
                return None
            i += 1
        return next(iter(found)) if found else None
