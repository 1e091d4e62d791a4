"""The rulebook's order notation as a grammar extension of the core order parser.

Everything the core grammar reads still works (``Gang Lexington - Columbus``,
``G(Lex)-Col``, ``G+D(PPU)-Har``, ``G(Tam)-U-Ext``, ``G(PPU) & G(Pel) S G(Mic)-Mem``,
``Build G Lex``, ``Remove D Lex``).  Mobtown adds:

- ``D(Har) cement overcoat``: a captor leaves a captured Don alone in water (rule 3);
- names that begin with a digit, as the rulebook prints them: ``5th``, ``42nd``, ``110``,
  ``325`` (the core grammar's words begin with a letter);
- the June 1919 Don placement (rule 6): ``D Lex``, ``D(Lex)``, ``Don starts in Lex``
  (also ``Don Lexington``; ``Build D Lex`` is read as a placement in that phase).

:func:`rulebook_text` prints any order back in the rulebook's own style (``G(Tam)-U-Ext``);
``str(order)`` gives the canonical spaced form.  Both parse back to the same order.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from mobadj.board import GameMap
from mobadj.orders.errors import OrderSyntaxError
from mobadj.orders.model import (
    Build,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from mobadj.orders.parser import OrderBuilder, OrderParser, ParseResult, _Fail, parse_orders

_GUARD = r"(?![\w.'\u2011\/])"
EXTENSION = rf"""
%extend action: CEMENT OVERCOAT -> cement
%extend order: unit -> place
             | KIND PLACE IN? loc -> place_words
CEMENT.2: /(?i:cement){_GUARD}/
OVERCOAT.2: /(?i:overcoat){_GUARD}/
PLACE.2: /(?i:starts|start|placed|place|begins){_GUARD}/
IN.2: /(?i:in|at|on){_GUARD}/
%override WORD: /[A-Za-z0-9\u00c0-\u024f][\w.'\u2019\u2011]*(?:\/[A-Za-z]+)?/
"""


@dataclass(frozen=True, slots=True)
class PlaceDon:
    """Rule 6: in the June 1919 weekend a mob places its Don on one of its home centres."""

    unit: Unit

    def __str__(self) -> str:
        return f"D {self.unit.location}"


@dataclass(frozen=True, slots=True)
class CementOvercoat:
    """Rule 3: the captor's Gang leaves the captured Don alone in water and he drowns."""

    unit: Unit

    def __str__(self) -> str:
        return f"D {self.unit.location} cement overcoat"


class MobtownBuilder(OrderBuilder):
    """Callbacks for the Mobtown rules of the grammar."""

    def cement(self, _children: list[Any]) -> tuple[str]:
        """``cement overcoat`` as an action."""
        return ("cement",)

    def make_order(self, subject: Any, action: tuple[Any, ...]) -> Any:
        """The core orders plus ``D(X) cement overcoat``."""
        if action[0] == "cement":
            if subject.with_escort:
                raise _Fail(OrderSyntaxError("the cement overcoat is ordered for the Don "
                                             "alone: D(Har) cement overcoat",
                                             column=subject.column or 1, text=self.text))
            return CementOvercoat(Unit("D", subject.unit.location))
        return super().make_order(subject, action)

    def place(self, children: list[Any]) -> list[PlaceDon]:
        """``D Lex``: a Don placement; a Gang alone is an order that stops too early."""
        subject = children[0]
        if subject.unit.kind != "D" or subject.with_escort:
            where = self.text.strip()
            raise _Fail(OrderSyntaxError(
                f"the order stops too early after {where!r}: expected H (hold), '-' (move), "
                "S (support) or, for a Don in June 1919, 'D Lex'",
                column=len(self.text.rstrip()) + 1, text=self.text,
                expected=("H (hold)", "'-' (move)", "S (support)")))
        return [PlaceDon(Unit("D", subject.unit.location))]

    def place_words(self, children: list[Any]) -> list[PlaceDon]:
        """``Don starts in Lex``."""
        kind = self._kind(children[0])
        if kind != "D":
            raise _Fail(OrderSyntaxError("only a Don is placed (rule 6): 'Don starts in Lex'",
                                         column=children[0].column, text=self.text))
        return [PlaceDon(Unit("D", children[-1]))]


@functools.lru_cache(maxsize=8)
def _parser(game_map: GameMap) -> OrderParser:
    return OrderParser(game_map, extension=EXTENSION, builder=MobtownBuilder)


def mobtown_parser(game_map: GameMap) -> OrderParser:
    """The Mobtown order parser of a map (built once per map)."""
    return _parser(game_map)


@functools.lru_cache(maxsize=8)
def _mob_names(game_map: GameMap) -> tuple[tuple[str, str], ...]:
    names = []
    for pid, power in game_map.powers.items():
        for name in (pid, power.name, *power.aliases):
            names.append((name.lower(), pid))
    return tuple(sorted(set(names), key=lambda n: -len(n[0])))


_ORDER_START = re.compile(
    r"^(?:[GD]\s*[(+]|[GD]\s+\S|gang\b|don\b|build\b|remove\b|waive\b|disband\b)",
    re.IGNORECASE)


def split_mob(text: str, game_map: GameMap) -> tuple[str | None, str]:
    """``"Murder Inc. G(PPU) & G(Pel) S G(Mic)-Mem"`` -> ("murderinc", the order): the
    rulebook's examples put the mob's name before its orders, with no colon.  The longest
    name that matches decides ("Legs Diamond:" is a section, not "Legs" and an order)."""
    stripped = text.lstrip()
    low = stripped.lower()
    for name, pid in _mob_names(game_map):
        if low.startswith(name) and (len(low) == len(name) or not low[len(name)].isalnum()):
            rest = stripped[len(name):].lstrip(" :")
            return (pid, rest) if _ORDER_START.match(rest) else (None, text)
    return None, text


def parse_mobtown_orders(text: str, game_map: GameMap, power: str | None = None) -> ParseResult:
    """Parse an order file in the rulebook notation (a core ParseResult).  Besides the core
    forms (``Al Capone:`` sections and prefixes), a line may start with the mob's name and no
    colon, as the rulebook prints its examples (``Lepke G(Cit)-U-Mic``)."""
    names = dict(_mob_names(game_map))
    lines = []
    for line in text.splitlines():
        bare = line.split("#", 1)[0].strip()
        if bare.lower() in names:  # "Lepke" alone on a line starts a section
            line = line.replace(bare, bare + ":", 1)
        else:
            pid, rest = split_mob(line, game_map)
            cut = len(line) - len(rest)
            if pid is not None and ":" not in line[:cut]:
                end = len(line[:cut].rstrip())  # keep every column where it was
                line = line[:end] + ":" + line[end + 1:]
        lines.append(line)
    return parse_orders("\n".join(lines), game_map, power=power,
                        parser=mobtown_parser(game_map))


def parse_mobtown_order(text: str, game_map: GameMap) -> list[Any]:
    """Parse one order or one ``&`` group; raises OrderError."""
    return mobtown_parser(game_map).parse_group(text)


def _u(unit: Unit) -> str:
    return f"{unit.kind}({unit.location})"


def rulebook_text(order: Any) -> str:
    """An order in the rulebook's compact style: ``G(Tam)-U-Ext``, ``G+D(PPU)-Har``."""
    t = type(order)
    if t is Move:
        head = f"{order.unit.kind}+D({order.unit.location})" if order.with_don else _u(order.unit)
        return f"{head}-{'U-' if order.via_subway else ''}{order.destination}"
    if t is Hold:
        return f"{_u(order.unit)} H"
    if t is SupportHold:
        return f"{_u(order.unit)} S {_u(order.supported)}"
    if t is SupportMove:
        u = "U-" if order.via_subway else ""
        return f"{_u(order.unit)} S {_u(order.supported)}-{u}{order.destination}"
    if t is Retreat:
        return f"{_u(order.unit)} R {'U ' if order.via_subway else ''}{order.destination}"
    if t is Disband:
        return f"{_u(order.unit)} Disband"
    if t is Build:
        return f"Build {_u(order.unit)}"
    if t is Remove:
        return f"Remove {_u(order.unit)}"
    if t is CementOvercoat:
        return f"{_u(order.unit)} cement overcoat"
    if t is PlaceDon:
        return f"D({order.unit.location})"
    if t is Waive:
        return "Waive"
    return str(order)
