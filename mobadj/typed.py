"""A line a person typed, read as it was meant.

The judge reads each line of a mail with :func:`as_meant`, and the card games each line
typed at the terminal, so both take the same text for the same keys: a fullwidth letter
from an East Asian keyboard, a no-break space a mailer put in, a zero-width space or a
right-to-left override pasted from a web page, an escape sequence, a byte that was no UTF-8.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["as_meant"]

_SURROGATES = re.compile("[\ud800-\udfff]")
_DROPPED = ("Cc", "Cf")  # control and format characters


def as_meant(line: str, tabs: bool = True) -> str:
    """``line`` with compatibility forms folded (NFKC: fullwidth letters and no-break spaces
    become plain ones), invisible format characters (zero-width spaces, a byte-order mark,
    right-to-left overrides) and control characters (NUL, ESC) dropped, and a lone surrogate
    (what a decoder makes of a byte that was no UTF-8) the replacement character U+FFFD.  A
    tab is kept, or made a space (``tabs=False``).  Not stripped."""
    if line.isascii() and (line.replace("\t", " ") if tabs else line).isprintable():
        return line
    line = unicodedata.normalize("NFKC", _SURROGATES.sub("\ufffd", line))
    if not tabs:
        line = line.replace("\t", " ")
    return "".join(ch for ch in line if ch == "\t" or unicodedata.category(ch) not in _DROPPED)
