"""Order files as ``mobadj adjudicate`` reads them: any encoding, mail-shaped, several files.

Each file is decoded (:mod:`mobadj.orders.textfile`), cleaned of quoted replies, signatures
and sign-offs like a mail (:mod:`mobadj.orders.mailtext`, line numbers kept) and parsed;
remarks before a file's first order or after its last ("Here are my orders:", "thanks") are
set aside with a note (:mod:`mobadj.orders.prose`); the orders of all files are then taken
in order, the last order for a unit replacing earlier ones (:mod:`mobadj.orders.duplicates`)
unless ``duplicates="first"``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mobadj.board import GameMap
from mobadj.orders.duplicates import check_rule, last_order_wins
from mobadj.orders.mailtext import mail_lines
from mobadj.orders.parser import ParsedOrder, ParseResult, parse_orders
from mobadj.orders.prose import set_aside_remarks
from mobadj.orders.textfile import read_text_file


@dataclass
class OrderFiles:
    """What was read: the orders (in file order), and messages each prefixed by the file
    name: ``errors`` (lines not read), ``warnings`` (read, but doubtful) and ``notices``
    (how a file was decoded)."""

    orders: list[ParsedOrder] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def messages(self) -> list[str]:
        """The notices and warnings, each on a line, for the GM's terminal."""
        return [f"note: {n}" for n in self.notices] + [f"warning: {w}" for w in self.warnings]


def read_order_files(paths: Sequence[str | os.PathLike[str]], game_map: GameMap,
                     parse: Callable[[str, GameMap], ParseResult] = parse_orders,
                     duplicates: str = "last") -> OrderFiles:
    """Read and parse order files; raises OSError for a file that cannot be read and
    ValueError for a bad ``duplicates`` value.  ``parse(text, game_map)`` is the variant's
    reader (Mobtown: ``parse_mobtown_orders``)."""
    rule = check_rule(duplicates)
    out = OrderFiles()
    source: dict[int, str] = {}
    for path in map(Path, paths):
        text, notice = read_text_file(path)
        if notice:
            out.notices.append(notice)
        cleaned = mail_lines(text)
        result = parse(cleaned, game_map)
        lines = cleaned.splitlines()
        for number in set_aside_remarks(result, cleaned, game_map):
            out.notices.append(f"{path.name}: line {number} set aside as a remark, not an "
                               f"order: {lines[number - 1].strip()[:60]}")
        for parsed in result.orders:
            source[id(parsed)] = path.name
        out.orders.extend(result.orders)
        out.errors.extend(f"{path.name}: {e}" for e in result.errors)
        out.warnings.extend(f"{path.name}: {w}" for w in result.warnings)
    if rule == "last":
        everything = out.orders
        kept, replaced = last_order_wins(everything, where=lambda p: source[id(p)])
        out.orders = kept
        out.warnings.extend(f"{source[id(w.replaced)]}: {w}" for w in replaced)
    return out
