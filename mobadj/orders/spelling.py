"""The many ways players write the same order, brought to the one the grammar reads.

Two jobs, both kept out of the grammar so that it and the fast path stay simple:

- :func:`normalise` rewrites an order text *without moving any column* (every change
  keeps the length, or cuts only at the end), so error messages still point into what the
  player wrote: Unicode dashes and arrows (``−``, ``‐``, ``⇒``, ``⟶``) become ``-``;
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

_TO_DASH = str.maketrans({ch: "-" for ch in DASHES + ARROWS})
_ODD = re.compile(f"[{DASHES}{ARROWS}]")
_BRACKETED = re.compile(r"\(\s*((?:via|by)(?:\s+convoy)?|holds?|h|stands?)\s*\)", re.IGNORECASE)

MIN_PREFIX = 4
"""A name's beginning must have at least this many letters to stand for it ("Mosc")."""


def normalise(text: str) -> str:
    """``text`` with other judges' and keyboards' spellings made plain; columns are kept."""
    if _ODD.search(text):
        text = text.translate(_TO_DASH)
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
