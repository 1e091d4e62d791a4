"""Read any text file a GM has: UTF-8 with or without a byte-order mark, UTF-16 or UTF-32
with one, UTF-16 without one (every other byte 0), else Windows-1252 (cp1252, a superset of
Latin-1's letters) with a notice.

Order and position files come from every kind of editor and mail program: Notepad writes
UTF-16 or a UTF-8 BOM, old Windows and Mac tools cp1252 or Latin-1.  Whatever the bytes,
the text is read; only the guess is reported.
"""

from __future__ import annotations

import codecs
import os
import re
from pathlib import Path

_BOMS = (  # longest first: the UTF-32 LE mark begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


def decode_text(data: bytes, name: str = "the file") -> tuple[str, str | None]:
    """(text, notice): the notice is one line saying how a file that is not UTF-8 was read,
    None for UTF-8.  Never raises: bytes no encoding explains become U+FFFD."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec), (
                    None if label == "UTF-8" else f"{name}: read as {label} (byte-order mark)")
            except UnicodeDecodeError as exc:
                text = data[len(bom):].decode(codec, errors="replace")
                return text, (f"{name}: not valid {label} after its byte-order mark (byte "
                              f"{exc.start + len(bom) + 1}); unreadable bytes are shown as \ufffd")
    wide = _utf16_without_bom(data)
    if wide:
        return data.decode(wide, errors="replace"), (
            f"{name}: read as UTF-16 {wide[-2:].upper()} (no byte-order mark; every other byte "
            "is 0)")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        where = exc.start + 1  # counted from 1, as editors do
    try:
        text = data.decode("cp1252")
        label = "Windows-1252 (cp1252)"
    except UnicodeDecodeError:  # the five bytes cp1252 leaves undefined: Latin-1 has them
        text = data.decode("latin-1")
        label = "Latin-1 (ISO 8859-1)"
    return text, f"{name}: not UTF-8 (byte {where}); read as {label}"


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` for text saved as UTF-16 without a byte-order mark
    (some Windows tools): mostly Latin letters, so every other byte is 0 (at least three in
    four of them, and hardly any of the others); else None.  No UTF-8 or cp1252 text looks
    like that: their only 0 byte is NUL."""
    if len(data) < 4 or len(data) % 2 or b"\x00" not in data[:64]:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    if odd * 4 >= half * 3 and even * 8 <= half:
        return "utf-16-le"
    if even * 4 >= half * 3 and odd * 8 <= half:
        return "utf-16-be"
    return None


_SIGNATURES = (  # what a GM attaches instead of a text file
    (b"PK\x03\x04", "a Word document or another zip file (.docx, .xlsx, .odt, .zip)"),
    (b"\xd0\xcf\x11\xe0", "a Word 97-2003 document (.doc) or another Office file"),
    (b"%PDF", "a PDF document"),
    (b"{\\rtf", "a rich-text document (.rtf)"),
    (b"\x89PNG", "a PNG picture"),
    (b"\xff\xd8\xff", "a JPEG picture"),
    (b"GIF8", "a GIF picture"),
)


def binary_kind(data: bytes, text: str) -> str | None:
    """What a file is when it is not text (``data`` its bytes, ``text`` as decode_text
    read them): a known document or picture, or any file with NUL bytes that is not
    UTF-16/32 text; None for text."""
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    return "not a text file (it holds NUL bytes)" if "\x00" in text else None


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """``text`` (a message that quotes a file) with its control characters written as
    ``\\x1b``: a file's bytes never reach the terminal as commands (ESC sequences, BEL)
    nor raw into JSON."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def read_text_file(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """The text of a file and a notice when it was not UTF-8 (see :func:`decode_text`);
    raises OSError when the file cannot be read at all."""
    path = Path(path)
    return decode_text(path.read_bytes(), path.name)
