"""Where a JSON text holds an integer too long to read, said as a person can act on it.

Python reads an integer of at most 4,300 digits (``sys.get_int_max_str_digits``); beyond
that the json module stops with advice to call a Python function.  A batch line and a saved
game are read with the json module, so their readers say instead where the number is and
how long it is, in the words the YAML reader uses (``a number of 10,000 digits (at most
4,300)``).  Only the error path comes here: nothing is scanned for a text that reads.
"""

from __future__ import annotations

import re
import sys
from typing import Final

__all__ = ["long_number", "too_long_number"]

_TOKENS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?([0-9]+)(\.[0-9]+)?([eE][-+]?[0-9]+)?')
"""A JSON string (passed over: digits in it are no number) or a number, its integer part,
fraction and exponent apart."""


def too_long_number(exc: BaseException) -> bool:
    """Is ``exc`` Python's refusal of an integer with too many digits?"""
    return isinstance(exc, ValueError) and "int_max_str_digits" in str(exc)


def long_number(text: str) -> tuple[int, int, str] | None:
    """(line, column, why) of the first integer of the JSON ``text`` longer than Python
    reads, ``why`` as ``a number of 10,000 digits (at most 4,300)``; None when it has none."""
    limit = sys.get_int_max_str_digits()
    if not limit:  # (no limit: every integer reads)
        return None
    for token in _TOKENS.finditer(text):
        digits = token.group(1)
        if digits is None or token.group(2) or token.group(3) or len(digits) <= limit:
            continue  # a string, a float (read whatever its length) or a short integer
        start = token.start()
        line = text.count("\n", 0, start) + 1
        column = start - text.rfind("\n", 0, start)
        return line, column, f"a number of {len(digits):,} digits (at most {limit:,})"
    return None
