"""Reading a batch's input: its lines as bytes, each line's JSON value.

A line is read on its own (bytes: nothing is decoded ahead of its line), and a line too long
to read is skipped without being held in memory (:class:`SkippedLine`).  orjson reads a line
where it reads what the json module reads; the json module reads the rest, and says why a
line is no JSON (docs/adjudication.md, "A batch cannot die").
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Iterator
from json.scanner import make_scanner
from typing import IO, Any, Final, NamedTuple, cast

from orjson import loads as _orjson_loads

from mobadj.longnumber import long_number, too_long_number

__all__ = ["MAX_DEPTH", "MAX_LINE_BYTES", "TOO_DEEP", "SkippedLine", "cr_inside", "read_case",
           "read_lines", "too_long"]

MAX_LINE_BYTES: Final = 1_000_000
"""The longest input line read (a full 34-unit phase is about 3 KB); longer ones are
answered with an error and skipped without being held in memory."""


class SkippedLine(NamedTuple):
    """An input line that is not read (too long); ``why`` says so.  (A named tuple: it is
    sent to the worker processes of ``--jobs N``, and it pickles in the compiled build too.)"""

    why: str


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant)
_DECODE: Final = _DECODER.decode
"""json.loads with these hooks would make a decoder for every line."""
_SCAN: Final = make_scanner(cast(Any, _DECODER))
"""The decoder's scanner (C, with the decoder's hooks): a line that is one JSON value from its
first character is read by it alone, without the decoder's whitespace searches around it."""


MAX_DEPTH: Final = 500
"""The deepest a line's arrays and objects may nest.  A deeper line is refused before it is
read (:data:`TOO_DEEP`): the json module's own limit is the interpreter's recursion limit
less the calls under way, which differ with the build and with ``--jobs``, and a line's
answer must depend on the line alone."""
TOO_DEEP: Final = f"not JSON: nested too deeply (more than {MAX_DEPTH} levels)"
_STRINGS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
"""A JSON string, escapes and all (one left open runs to the end of the line)."""
_RUNS: Final = re.compile(r"[\[{]+|[\]}]+")
"""A run of opening or of closing brackets."""


def _too_deep(text: str) -> bool:
    """Whether the arrays and objects of ``text`` nest more than :data:`MAX_DEPTH` deep,
    brackets inside strings left out (a closing bracket with nothing open is passed over).
    Only a line with that many opening brackets can, so only such a line is scanned."""
    if len(text) <= MAX_DEPTH or text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for run in _RUNS.findall(_STRINGS.sub("", text)):
        if run[0] in "[{":
            depth += len(run)
            if depth > MAX_DEPTH:
                return True
        else:
            depth = max(0, depth - len(run))
    return False


_DIGITS: Final = bytes.maketrans(b"123456789{", b"000000000[")
"""Every digit made 0 and every brace a bracket: one copy of a line shows both a long
number and how many brackets open."""
_LONG_NUMBER: Final = b"0" * 19
_DEEP: Final = 500
"""orjson reads a line of bytes the json module reads to the same value, but for integers
beyond 64 bits (it makes them floats: a line with 19 digits in a row goes to the json
module) and nesting deeper than :data:`MAX_DEPTH` (a line with ``_DEEP`` brackets goes
there too, where its depth is measured; one shorter than twice that cannot nest so deep,
and its brackets are not counted).  Everything orjson refuses (a
byte-order mark, NaN, a lone surrogate, ...) goes there as well;
tests/batch/test_batch_robust.py holds both readers to the same values."""


def read_case(line: str | bytes | SkippedLine) -> Any:
    """The JSON value of one input line; raises ValueError saying why there is none."""
    if isinstance(line, SkippedLine):
        raise ValueError(line.why)
    if type(line) is bytes:
        plain = line.translate(_DIGITS)
        if _LONG_NUMBER not in plain and (len(line) < 2 * _DEEP or plain.count(b"[") < _DEEP):
            try:
                return _orjson_loads(line)  # twice as fast as the json module
            except ValueError:
                pass  # the json module reads it, or says why not
    if isinstance(line, bytes):
        if _utf16(line):
            raise ValueError(UTF16)
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 (byte {exc.start + 1} of the line)") from None
    if line.startswith("\ufeff"):
        line = line[1:]
    if _too_deep(line):
        raise ValueError(TOO_DEEP)
    try:
        value, end = _SCAN(line, 0)
    except (StopIteration, ValueError, RecursionError):
        pass  # the decoder below says why
    else:
        if end == len(line) or not line[end:].strip(" \t\n\r"):  # JSON's whitespace
            return value
    try:
        return _DECODE(line)
    except RecursionError:
        raise ValueError("not JSON: nested too deeply") from None
    except ValueError as exc:
        if not line.strip():  # (the json module's "line 2 column 1" is the line break's)
            raise ValueError("not JSON: Expecting value: the line is empty") from None
        where = long_number(line) if too_long_number(exc) else None
        if where is not None:  # not Python's advice to call one of its functions
            raise ValueError(f"column {where[1]}: {where[2]}") from None
        raise ValueError(f"not JSON: {exc}") from None


UTF16: Final = ("not UTF-8: the file is UTF-16 (Notepad's 'Unicode'; every other byte is 0): "
                "save it as UTF-8")
"""The answer to each line of a file saved as UTF-16: JSON lines are UTF-8."""


def _utf16(line: bytes) -> bool:
    """Whether ``line`` is a line of a UTF-16 file (cut at its byte 10, the low byte of a
    line feed): NULs in a quarter of its bytes or more (JSON text holds no NUL, and UTF-16
    holds one in every other byte of Latin text)."""
    return line.count(0) * 4 >= len(line) > 1


def read_lines(source: IO[Any]) -> Iterator[bytes | str | SkippedLine]:
    """The lines of ``source`` as bytes when it has them (a binary file, or the buffer under
    a text file), so nothing is decoded ahead of its line; a line longer than
    :data:`MAX_LINE_BYTES` is skipped and given as :class:`SkippedLine`."""
    stream = source
    if isinstance(source, io.TextIOBase) and hasattr(source, "buffer"):
        stream = source.buffer
    readline = stream.readline
    while True:
        line = readline(MAX_LINE_BYTES + 1)
        if not line or line == b"\x00":  # (the last: a UTF-16 LE line feed's second byte,
            return  # not a line of its own)
        if len(line) <= MAX_LINE_BYTES or line[-1:] in (b"\n", "\n"):
            yield line
            continue
        size = len(line)
        while line and line[-1:] not in (b"\n", "\n"):
            line = readline(1 << 16)
            size += len(line)
        size -= line[-1:] in (b"\n", "\n")  # the line break is not the line's
        yield SkippedLine(f"too long: {size:,} bytes (at most {MAX_LINE_BYTES:,}); not read")


def cr_inside(line: str | bytes | SkippedLine) -> str:
    """A note for a line that is no JSON and holds a carriage return before its end (a file
    whose lines end with CR alone is read as one line), else ""."""
    if isinstance(line, SkippedLine):
        return ""
    text = line.decode("latin-1") if isinstance(line, bytes) else line
    if "\r" not in text.rstrip("\r\n") or "\x00" in text:  # (UTF-16's CRs are its own)
        return ""
    return (" (the line holds a carriage return (CR) before its end: lines end with a line "
            "feed (LF); a file whose lines end with CR alone is one line)")


def too_long(line: str | bytes) -> str | bytes | SkippedLine:
    """``line``, or the SkippedLine that read_lines makes of it when it is too long."""
    data = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    size = len(data) - data.endswith(b"\n")
    if size <= MAX_LINE_BYTES:
        return line
    return SkippedLine(f"too long: {size:,} bytes (at most {MAX_LINE_BYTES:,}); not read")
