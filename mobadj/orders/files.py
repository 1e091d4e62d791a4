"""Order files as ``mobadj adjudicate`` reads them: any encoding, mail-shaped, several files.

Each file is decoded (:mod:`mobadj.orders.textfile`), cleaned of quoted replies, signatures
and sign-offs like a mail (:mod:`mobadj.orders.mailtext`, line numbers kept) and parsed;
a power's heading ("France:") starts a mail of its own, so that one player's signature never
swallows the next player's orders, and what the reader drops is named in a note;
remarks before a mail's first order or after its last ("Here are my orders:", "thanks") are
set aside with a note (:mod:`mobadj.orders.prose`); the orders of all files are then taken
in order, the last order for a unit replacing earlier ones (:mod:`mobadj.orders.duplicates`)
unless ``duplicates="first"``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mobadj.board import GameMap
from mobadj.orders.duplicates import check_rule, last_order_wins
from mobadj.orders.mailtext import own_header, read_mail
from mobadj.orders.parser import ParsedOrder, ParseResult, parse_orders
from mobadj.orders.prose import set_aside_remarks
from mobadj.orders.spelling import text_lines
from mobadj.orders.textfile import binary_kind, decode_text, shown


@dataclass
class OrderFiles:
    """What was read: the orders (in file order), and messages each prefixed by the file's
    name (:func:`file_names`): ``errors`` (lines not read), ``warnings`` (read, but
    doubtful) and ``notices`` (how a file was decoded)."""

    orders: list[ParsedOrder] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    #: the files with text from which no order at all was read
    empty: list[str] = field(default_factory=list)

    def messages(self) -> list[str]:
        """The notices and warnings, each on a line, for the GM's terminal."""
        return [f"note: {n}" for n in self.notices] + [f"warning: {w}" for w in self.warnings]


def read_order_files(paths: Sequence[str | os.PathLike[str]], game_map: GameMap,
                     parse: Callable[[str, GameMap], ParseResult] = parse_orders,
                     duplicates: str = "last",
                     saved_mail: Callable[[bytes], str] | None = None) -> OrderFiles:
    """Read and parse order files; raises OSError for a file that cannot be read and
    ValueError for a bad ``duplicates`` value.  ``parse(text, game_map)`` is the variant's
    reader (Mobtown: ``parse_mobtown_orders``).  ``saved_mail(raw)``: the text of a mail
    saved whole whose body is MIME (base64, quoted-printable, several parts), as the judge
    reads it (a ValueError when there is none); without it such a file is read as text."""
    rule = check_rule(duplicates)
    out = OrderFiles()
    heading = power_heading(game_map)
    source: dict[int, str] = {}
    escorts: frozenset[str] = frozenset()
    given = [Path(path) for path in paths]
    for path, name in zip(given, file_names(given), strict=True):
        data = path.read_bytes()
        text, notice = decode_text(data, name)
        kind = binary_kind(data, text)
        if kind is not None:  # the wrong attachment: its bytes are not orders nor remarks
            what = kind if kind.startswith("not ") else f"{kind}, not text"
            out.warnings.append(f"{name}: {what}: skipped (save the orders as Plain "
                                "Text, .txt)")
            out.empty.append(name)
            continue
        if notice:
            out.notices.append(notice)
        header = own_header(text)
        if saved_mail is not None and any(_MIME.match(line) for line in header):
            try:
                body = saved_mail(path.read_bytes())
            except ValueError as exc:  # no text to read: its author's orders are not here
                out.errors.append(f"{name}: a mail saved whole, but its text cannot be "
                                  f"read: {exc}")
                continue
            text = "\n".join(header) + "\n\n" + body
            out.notices.append(f"{name}: read as a mail: its text part, decoded as a mail "
                               f"program does (the line numbers below count that text)")
        mail = read_mail(text, heading, saved=True)
        cleaned = mail.text
        result = parse(cleaned, game_map)
        escorts |= result.escorts
        lines = text_lines(cleaned)
        notes = [(aside.first, aside.describe()) for aside in mail.set_aside]
        notes += [(number, f"line {number} set aside as a remark, not an order: "
                           f"{lines[number - 1].strip()[:60]}")
                  for number in set_aside_remarks(result, cleaned, game_map, mail.starts)]
        out.notices.extend(f"{name}: {note}" for _, note in sorted(notes))
        for parsed in result.orders:
            source[id(parsed)] = name
        out.orders.extend(result.orders)
        out.errors.extend(f"{name}: {e}" for e in result.errors)
        out.warnings.extend(f"{name}: {w}" for w in result.warnings)
        if not result.orders and not result.errors:  # an empty file too: a failed save,
            empty = "" if text.strip() else " (it is empty)"  # the wrong attachment
            out.warnings.append(f"{name}: no order was read from this file{empty}")
            if text.strip():  # (an empty file may be meant: a phase with nothing to order)
                out.empty.append(name)
    if rule == "last":
        everything = out.orders
        kept, replaced = last_order_wins(everything, where=lambda p: source[id(p)],
                                         apart=escorts)
        out.orders = kept
        out.warnings.extend(f"{source[id(w.replaced)]}: {w}" for w in replaced)
    for said in (out.errors, out.warnings, out.notices):  # they quote the files' text
        said[:] = map(shown, said)
    return out


def file_names(paths: Sequence[Path]) -> list[str]:
    """How messages name each file: its base name, or the path as given when another file
    has the same base name (``mails/france/orders.txt`` and ``mails/germany/orders.txt``:
    one folder per player)."""
    count: dict[str, int] = {}
    for path in paths:
        count[path.name] = count.get(path.name, 0) + 1
    return [path.name if count[path.name] == 1 else str(path) for path in paths]


_MIME = re.compile(r"^content-(transfer-encoding:\s*(base64|quoted-printable)\b|"
                   r"type:\s*multipart/)", re.I)
"""A field of a saved mail's header that says its body must be decoded to be read."""

_HEADING = re.compile(
    r"^\s*([\"\u201c]?[^\W\d_][\w .'\"\u201c\u201d\-]{0,40}?)\s*(?:\([^()]{0,80}\)\s*)?[:.!-]?\s*$")


def power_heading(game_map: GameMap) -> Callable[[str], bool]:
    """The test for a line that is only a power's heading ("France:", "FRANCE", "Russia
    (Ann):"): in a file of pasted mails, where the next player's mail begins."""
    def heading(line: str) -> bool:
        line = line.strip()  # (a heading is short: a long line is not matched, which would
        if len(line) > 200:  # take time growing with the square of its length)
            return False
        match = _HEADING.match(line)
        return match is not None and game_map.find_power(match.group(1)) is not None

    return heading
