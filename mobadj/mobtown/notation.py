"""The rulebook's order notation as a grammar extension of the core order parser.

Everything the core grammar reads still works (``Gang Lexington - Columbus``,
``G(Lex)-Col``, ``G+D(PPU)-Har``, ``G(Tam)-U-Ext``, ``G(PPU) & G(Pel) S G(Mic)-Mem``,
``Build G Lex``, ``Remove D Lex``).  Mobtown adds:

- ``D(Har) cement overcoat``: a captor leaves a captured Don alone in water (rule 3);
- names that begin with a digit, as the rulebook prints them: ``5th``, ``42nd``, ``110``,
  ``325`` (the core grammar's words begin with a letter);
- the June 1919 Don placement (rule 6): ``D Lex``, ``D(Lex)``, ``Don starts in Lex``
  (also ``Don Lexington``, ``Don in Lex``, ``Don at Lex``; ``Build D Lex`` is read as a
  placement in that phase).

:func:`rulebook_text` prints any order back in the rulebook's own style (``G(Tam)-U-Ext``);
``str(order)`` gives the canonical spaced form.  Both parse back to the same order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from lark import Token

from mobadj.board import GameMap, UnknownNameError, close_matches
from mobadj.mobtown.terms import SUBWAY
from mobadj.orders import text_lines, without_list_mark
from mobadj.orders.errors import OrderError, OrderSyntaxError
from mobadj.orders.model import (
    AnyOrder,
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
    register_route,
)
from mobadj.orders.parser import (
    Action,
    Children,
    HoldAction,
    MoveAction,
    OrderBuilder,
    OrderParser,
    ParseResult,
    RetreatAction,
    Subject,
    SupportHoldAction,
    SupportMoveAction,
    parse_orders,
)

register_route(SUBWAY, "U")  # G(Tam)-U-Ext: the core prints a route tag as its mark

_GUARD = r"(?![\w.'\u2011\/])"
_PLACE_WORDS = ("starts", "start", "placed", "place", "begins")  # PLACE below
_IN_WORDS = ("in", "at", "on")  # IN below
EXTENSION = rf"""
%extend action: CEMENT OVERCOAT -> cement
              | RETREAT SUBWAY loc -> retreat_subway
%extend move: arrow SUBWAY arrow loc -> subway_move
%extend support: SUPPORT unit arrow SUBWAY arrow loc -> support_subway
%extend order: unit -> place
             | RETREAT_FIRST unit arrow SUBWAY arrow loc -> retreat_first_subway
             | KIND PLACE IN? loc -> place_words
             | KIND IN loc -> place_words
CEMENT.2: /(?i:cement){_GUARD}/
OVERCOAT.2: /(?i:overcoat){_GUARD}/
PLACE.2: /(?i:starts|start|placed|place|begins){_GUARD}/
SUBWAY.2: /(?i:u){_GUARD}/
IN.2: /(?i:in|at|on){_GUARD}/
%override WORD: /[A-Za-z0-9\u00c0-\u024f][\w.'\u2019\u2011]*(?:\/[A-Za-z]+)?/
"""


@dataclass(frozen=True, slots=True)
class PlaceDon:
    """Rule 6: in the June 1919 weekend a mob places its Don on one of its home centres.

    Two placements by one mob are two orders for its one Don, wherever they put him: the
    last one counts (``piece``, mobadj.orders.duplicates)."""

    unit: Unit
    #: the piece this order commands, whatever space it names: the mob's Don
    piece: ClassVar[str] = "the Don to place"

    def __str__(self) -> str:
        return f"D {self.unit.location}"


@dataclass(frozen=True, slots=True)
class CementOvercoat:
    """Rule 3: the captor's Gang leaves the captured Don alone in water and he drowns."""

    unit: Unit

    def __str__(self) -> str:
        return f"D {self.unit.location} cement overcoat"


def _locations(children: Children) -> list[str]:
    """The locations among a rule's children (the map's ids: plain strings, not tokens)."""
    return [c for c in children if type(c) is str]


#: what may follow a Gang named alone, in some phase: the mark of that error
GANG_ALONE = ("H (hold)", "'-' (move)", "S (support)")


def for_phase(error: OrderError, phase: object) -> OrderError:
    """A Gang named with nothing after it (``G(Lex)``, or a lone ``Dan``) is told only what
    the phase being played takes after it, which the parser does not know; other errors
    are themselves."""
    if error.expected != GANG_ALONE:
        return error
    if getattr(phase, "is_movement", False):
        hint = "H (hold), '-' (move) or S (support): G(Lex) H"
    elif getattr(phase, "is_retreat", False):
        hint = "'-' and where it retreats, or Disband: G(Lex)-Col"
    elif getattr(phase, "is_adjustment", False):
        hint = "Build or Remove before the Gang: Remove G(Lex)"
    else:
        hint = "'Don starts in' before the place, in June 1919: Don starts in Lex"
    head = error.message.split(": expected ", 1)[0]
    return OrderSyntaxError(f"{head}: expected {hint}", line=error.line, column=error.column,
                            text=error.text, note=error.note)


class CementAction(Action):
    """``cement overcoat``: what a captor's Gang orders for the Don it holds."""

    __slots__ = ()


class MobtownBuilder(OrderBuilder):
    """Callbacks for the Mobtown rules of the grammar."""

    escorts: ClassVar[frozenset[str]] = frozenset({"D"})
    escort_rule: ClassVar[str] = "only a Don travels with a unit (Mobtown's G+D)"
    words: ClassVar[Mapping[str, str]] = {"SUBWAY": "U (subway)"}

    def subway_move(self, children: Children) -> Action:
        """``G(Tam)-U-Ext``: a move by subway (rule 5)."""
        return MoveAction(_locations(children)[0], route=SUBWAY)

    def support_subway(self, children: Children) -> Action:
        """``G(Bgt) S G(Mem)-U-Mic``: support of a move by subway."""
        supported = next(c for c in children if isinstance(c, Subject)).unit
        return SupportMoveAction(supported, _locations(children)[0], route=SUBWAY)

    def retreat_subway(self, children: Children) -> Action:
        """``G(Mem) R U WCP``: a retreat by subway (rule 5)."""
        return RetreatAction(_locations(children)[0], route=SUBWAY)

    def retreat_first_subway(self, children: Children) -> list[AnyOrder]:
        """``Retreat G(Mem)-U-WCP``: a retreat by subway written word first."""
        subject = next(c for c in children if isinstance(c, Subject))
        return [self.make_order(subject, RetreatAction(_locations(children)[0], route=SUBWAY))]

    def cement(self, _children: Children) -> Action:
        """``cement overcoat`` as an action."""
        return CementAction()

    def make_order(self, subject: Subject, action: Action) -> AnyOrder:
        """The core orders plus ``D(X) cement overcoat``."""
        if isinstance(action, CementAction):
            if subject.escort:
                self.reject(OrderSyntaxError("the cement overcoat is ordered for the Don "
                                             "alone: D(Har) cement overcoat",
                                             column=subject.column or 1, text=self.text))
            return CementOvercoat(Unit("D", subject.unit.location))
        if subject.escort and isinstance(action, (HoldAction, SupportHoldAction,
                                                  SupportMoveAction)):
            alone = re.sub(r"\+\s*D", "", self.text.strip(), count=1, flags=re.IGNORECASE)
            self.reject(OrderSyntaxError(
                f"a Gang with its Don (G+D) can only move: the Don adds nothing to a hold or a "
                f"support (rule 3), so give the Gang's order alone: {alone}",
                column=subject.column or 1, text=self.text))
        return super().make_order(subject, action)

    def place(self, children: list[Subject]) -> list[AnyOrder]:
        """``D Lex``: a Don placement; a Gang alone is an order that stops too early."""
        subject = children[0]
        if subject.unit.kind != "D" or subject.escort:
            where = self.text.strip()
            self.reject(OrderSyntaxError(
                f"the order stops too early after {where!r}: expected H (hold), '-' (move), "
                "S (support) or, for a Don in June 1919, 'D Lex'",
                column=len(self.text.rstrip()) + 1, text=self.text,
                expected=GANG_ALONE))
        return [PlaceDon(Unit("D", subject.unit.location))]

    def _name_error(self, exc: UnknownNameError, words: list[Token], text: str,
                    written: str) -> OrderError:
        """``Don strats in P45``: a slip in "starts" is not part of the place's name."""
        return self._placement_slip(words) or super()._name_error(exc, words, text, written)

    def _placement_slip(self, words: list[Token]) -> OrderError | None:
        """The error for a Don's placement whose "starts" is misspelt, so that the words
        were read as one unknown place: the did-you-mean is the whole placement (the
        place after it is right), None for any other unknown name."""
        first = self.text.split(None, 1)[0].lower() if self.text.strip() else ""
        if first not in ("don", "d") or len(words) < 2:
            return None
        slip = str(words[0])
        if not close_matches(slip.lower(), _PLACE_WORDS, n=1, cutoff=0.7):
            return None
        rest = [str(w) for w in words[1:]]
        if rest and rest[0].lower() in _IN_WORDS:
            rest = rest[1:]
        try:
            place = self.game_map.lookup(" ".join(rest))
        except UnknownNameError:
            return None
        return OrderSyntaxError(f"unknown word {slip!r}", column=words[0].column or 1,
                                text=self.text, suggestion=f"'Don starts in {place}'")

    def place_words(self, children: list[Token | str]) -> list[AnyOrder]:
        """``Don starts in Lex``, ``Don in Lex``."""
        word = children[0]
        assert isinstance(word, Token)
        if self._kind(word) != "D":
            self.reject(OrderSyntaxError("only a Don is placed (rule 6): 'Don starts in Lex'",
                                         column=word.column or 1, text=self.text))
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
    r"^(?:[GD]\s*[(+]|[GD]\s+\S|gang\b|don\b|build\b|remove\b|waive\b|disband\b|retreats?\b)",
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
    for line in text_lines(text):
        line = without_list_mark(line)  # "1. Lepke G(Cit)-U-Mic"
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


def parse_mobtown_order(text: str, game_map: GameMap) -> list[AnyOrder]:
    """Parse one order or one ``&`` group; raises OrderError."""
    return mobtown_parser(game_map).parse_group(text)


def _u(unit: Unit) -> str:
    return f"{unit.kind}({unit.location})"


def rulebook_text(order: AnyOrder) -> str:
    """An order in the rulebook's compact style: ``G(Tam)-U-Ext``, ``G+D(PPU)-Har``."""
    if isinstance(order, Move):
        head = (f"{order.unit.kind}+{order.escort}({order.unit.location})" if order.escort
                else _u(order.unit))
        return f"{head}-{'U-' if order.route == SUBWAY else ''}{order.destination}"
    if isinstance(order, Hold):
        return f"{_u(order.unit)} H"
    if isinstance(order, SupportHold):
        return f"{_u(order.unit)} S {_u(order.supported)}"
    if isinstance(order, SupportMove):
        u = "U-" if order.route == SUBWAY else ""
        return f"{_u(order.unit)} S {_u(order.supported)}-{u}{order.destination}"
    if isinstance(order, Retreat):
        return f"{_u(order.unit)} R {'U ' if order.route == SUBWAY else ''}{order.destination}"
    if isinstance(order, Disband):
        return f"{_u(order.unit)} Disband"
    if isinstance(order, Build):
        return f"Build {_u(order.unit)}"
    if isinstance(order, Remove):
        return f"Remove {_u(order.unit)}"
    if isinstance(order, CementOvercoat):
        return f"{_u(order.unit)} cement overcoat"
    if isinstance(order, PlaceDon):
        return f"D({order.unit.location})"
    if isinstance(order, Waive):
        return "Waive"
    return str(order)
