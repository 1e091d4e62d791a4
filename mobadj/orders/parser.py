"""Parse order text into :mod:`mobadj.orders.model` values, with friendly errors.

Two layers, each with one job:

- :func:`parse_orders` reads a file: ``#`` comments, power sections (``England:`` on its
  own line), power prefixes (``England: A PAR-BUR``, and ``Italy F gol`` without a colon
  as in the DATC files), several orders per line separated by ``,`` or ``;``.  A bad
  order becomes an :class:`OrderError` and the rest of the file is still read.
- :class:`OrderParser` parses one order with the LALR grammar in ``grammar.lark``
  (built once per map) and resolves every name through :meth:`GameMap.lookup`.

The parser checks syntax and names only; whether an order is possible is the engine's
business.  It cannot know the phase: "A PAR - BUR" is always a Move (see model.py).
"""

from __future__ import annotations

import io
import re
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, NoReturn, cast

from mobadj import diskcache
from mobadj.board.model import (
    AmbiguousNameError,
    GameMap,
    UnknownCoastError,
    UnknownNameError,
    close_matches,
    fold,
)
from mobadj.errors import OrdersError
from mobadj.orders.duplicates import last_order_wins
from mobadj.orders.errors import (
    OrderError,
    OrderSyntaxError,
    UnknownPowerError,
    UnknownProvinceError,
    or_list,
)
from mobadj.orders.fastpath import (
    MAX_LINE,
    FastPath,
    fast_path_for,
    hyphen_heads,
    hyphenated_words,
    kind_guesser,
)
from mobadj.orders.model import (
    UNKNOWN_KIND,
    AnyOrder,
    Build,
    Convoy,
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
from mobadj.orders.prose import is_remark, keyword_slip
from mobadj.orders.spelling import (
    PrefixNames,
    normalise,
    plain_characters,
    text_lines,
    without_list_mark,
)

if TYPE_CHECKING:
    from lark import Lark, Token, Transformer
    from lark.exceptions import UnexpectedInput

    from mobadj.engine.rules import Rules

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
CACHE_SIZE = 100_000
"""Parsed texts kept per map (a cache of immutable results, cleared when full)."""
MAX_ERRORS_PER_LINE = 10
"""After this many unreadable orders on one line the rest of the line is not read (one
error says so): each error's did-you-mean costs time, and such a line is no order list."""
_KEYWORD_GUARD = r"(?![\w.'\u2011\/])"


class ParsedOrder(NamedTuple):
    """An order with where it came from: its power (None if no section), line and column."""

    power: str | None
    order: AnyOrder
    line: int
    column: int
    text: str


@dataclass
class ParseResult:
    """Everything read from one text: the good orders, the errors, and warnings (accepted
    but doubtful input, e.g. a misspelt power name that was corrected)."""

    orders: list[ParsedOrder] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    warnings: list[OrderError] = field(default_factory=list)
    #: the kinds of piece that stand beside a unit on the map (its reader's escorts,
    #: Mobtown's Don): an order for one is never the same unit's as one of another kind
    escorts: frozenset[str] = frozenset()

    @property
    def ok(self) -> bool:
        return not self.errors

    def last_order_wins(self) -> ParseResult:
        """The same result with each order a later one replaces for its unit left out, and
        a warning naming it (the rule of njudge and godip; mobadj.orders.duplicates)."""
        kept, replaced = last_order_wins(self.orders, apart=self.escorts)
        return ParseResult(kept, list(self.errors), [*self.warnings, *replaced], self.escorts)

    def by_power(self) -> dict[str | None, list[AnyOrder]]:
        """Orders grouped by power, in file order."""
        out: dict[str | None, list[AnyOrder]] = {}
        for parsed in self.orders:
            out.setdefault(parsed.power, []).append(parsed.order)
        return out


# -- friendly words for grammar terminals ------------------------------------------------
_FRIENDLY = {
    "KIND": "a unit type",
    "WORD": "a province",
    "HOLD": "H (hold)",
    "ARROW": "'-' (move)",
    "TO": "'-' (move)",
    "MOVE": "'-' (move)",
    "SUPPORT": "S (support)",
    "CONVOY": "C (convoy)",
    "DISBAND": "Disband",
    "D_AFTER": "Disband",
    "BUILD": "Build",
    "B_AFTER": "Build",
    "REMOVE": "Remove",
    "REMOVE_R": "Remove",
    "WAIVE": "Waive",
    "RETREAT": "R (retreat)",
    "RETREAT_FIRST": "Retreat",
    "VIA": "via convoy",
    "AMP": "'&'",
    "PLUS": "'+'",
    "SLASH": "'/' and a coast",
    "LPAR": "'('",
    "RPAR": "')'",
    "$END": "the end of the order",
}
_FRIENDLY_ORDER = list(dict.fromkeys(_FRIENDLY.values()))
#: a variant's words (OrderBuilder.words) come after the core's ways to go on, before "'&'"
_EXTENSION_AT = _FRIENDLY_ORDER.index("'&'")
_ACTIONS = frozenset({"HOLD", "SUPPORT", "CONVOY"})
_NAME_CONTINUATIONS = frozenset({"WORD", "LPAR", "SLASH", "AMP", "BUILD", "B_AFTER", "REMOVE"})


def friendly(names: Iterable[str], kinds: str = "",
             words: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Grammar terminal names -> the words a player understands, in a stable order;
    ``words`` names the terminals of a variant's grammar extension (Mobtown's "U (subway)")."""
    terminals = set(names)
    if terminals & _ACTIONS:  # after a unit: name the actions, not ways to go on with the name
        terminals -= _NAME_CONTINUATIONS
    if terminals == {"CONVOY"}:  # after "by"
        return ("convoy",)
    if terminals == {"CONVOY", "$END"}:  # after "via" ("A LON - BEL VIA" is complete)
        return ("convoy", "the end of the order")
    table: Mapping[str, str] = {**_FRIENDLY, **words} if words else _FRIENDLY
    said = {table.get(t, t.lower()) for t in terminals}
    ranking = (_FRIENDLY_ORDER[:_EXTENSION_AT] + list(words.values())
               + _FRIENDLY_ORDER[_EXTENSION_AT:]) if words else _FRIENDLY_ORDER
    order = {w: i for i, w in enumerate(ranking)}
    ranked = sorted(said, key=lambda w: (order.get(w, 99), w))
    if kinds:
        ranked = [f"a unit type ({kinds})" if w == "a unit type" else w for w in ranked]
    return tuple(ranked)


class _Fail(OrdersError):
    """Raised inside grammar callbacks (:meth:`OrderBuilder.reject`); carries an OrderError
    relative to the order text.  ``stray`` marks "a known name followed by a stray word": the
    parser adds what was expected after the name."""

    def __init__(self, error: OrderError, stray: bool = False) -> None:
        super().__init__(error.message)
        self.error = error
        self.stray = stray


class Subject:
    """A unit at the head of an order, maybe with an escort: the kind of a piece that
    travels with it ("" for none; Mobtown's ``G+D``, a Don)."""

    __slots__ = ("unit", "escort", "column")

    def __init__(self, unit: Unit, escort: str, column: int) -> None:
        self.unit = unit
        self.escort = escort
        self.column = column


# -- actions: what the subjects of an order do; make_order combines them ----------------
class Action:
    """What the subjects of an order do, as a grammar callback read it.  A variant's grammar
    extension adds subclasses, and its builder's ``make_order`` turns them into orders."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class HoldAction(Action):
    """``H``: the subject holds."""


@dataclass(frozen=True, slots=True)
class MoveAction(Action):
    """``- DEST``, maybe by convoy, or by a variant's route (``route``: its tag)."""

    destination: str
    via_convoy: bool = False
    route: str = ""


@dataclass(frozen=True, slots=True)
class SupportHoldAction(Action):
    """``S UNIT``: support of a unit where it stands."""

    supported: Unit


@dataclass(frozen=True, slots=True)
class SupportMoveAction(Action):
    """``S UNIT - DEST``: support of a unit's move."""

    supported: Unit
    destination: str
    route: str = ""


@dataclass(frozen=True, slots=True)
class ConvoyAction(Action):
    """``C ARMY - DEST``: a convoy."""

    convoyed: Unit
    destination: str


@dataclass(frozen=True, slots=True)
class DisbandAction(Action):
    """``D``: the subject disbands."""


@dataclass(frozen=True, slots=True)
class RemoveAction(Action):
    """``Remove``: the subject is removed."""


@dataclass(frozen=True, slots=True)
class RetreatAction(Action):
    """``R DEST``: a retreat, maybe by a variant's route (``route``: its tag)."""

    destination: str
    route: str = ""


class _Arrow:
    """The value of an arrow ("-", "to", "M") among a rule's children."""


_ARROW = _Arrow()

_CLOSE_NAME: Final = 0.85
"""How close several words together must be to a map name to be read as that name misspelt
(difflib's ratio of the folded texts; "Ionian See" ~ "Ionian Sea" is 0.89, ~ "Livonia" 0.62)."""

Children = Sequence[object]
"""What a grammar callback gets: tokens and the values of its sub-rules, in order."""


class OrderBuilder:
    """Grammar callbacks: turn matched rules straight into order values (no parse tree).

    Variants subclass this and add methods for their own rules (see OrderParser); a callback
    refuses what it cannot read with :meth:`reject`.  Lark takes it as its transformer; it
    is no subclass of Lark's ``Transformer`` so that Lark is imported only when an order
    first needs the grammar (everyday orders take the fast path, and a batch of them starts
    without Lark).
    """

    __visit_tokens__ = False  # what Transformer(visit_tokens=False) sets: no token callbacks
    #: the kinds of piece that may travel with a unit (``G+D``): none in the standard game
    escorts: ClassVar[frozenset[str]] = frozenset()
    #: why another escort is refused ("unexpected '+A': ...")
    escort_rule: ClassVar[str] = "no piece travels with a unit in this game"
    #: the terminals of the variant's grammar extension, in a player's words (its errors'
    #: "expected ...")
    words: ClassVar[Mapping[str, str]] = {}

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self.text = ""
        kinds: dict[str, str] = {}
        for letter, name in game_map.unit_kinds.items():
            kinds[letter.lower()] = letter
            kinds[fold(name)] = letter
        self.kinds = kinds
        self._guess_kind = kind_guesser(game_map)
        self.prefixes = PrefixNames(game_map)
        self._suggestions: dict[str, tuple[str, ...]] = {}
        self.longest_name = max(
            (len(s.split()) for p in game_map.provinces.values() for s in (p.name, *p.aliases)),
            default=1) + 2  # and a coast of two words ("north coast")

    @staticmethod
    def reject(error: OrderError, stray: bool = False) -> NoReturn:
        """Refuse the order being read with ``error`` (its column counts in the order's
        text); the parser raises it, with what was expected added when ``stray``."""
        raise _Fail(error, stray)

    def __default__(self, data: str, children: list[object], meta: object) -> object:
        """A rule without a callback makes a tree, as in Lark's ``Transformer``."""
        from lark import Tree

        return Tree(data, children, meta)  # type: ignore[arg-type]

    # -- names --------------------------------------------------------------------------
    def coast(self, children: list[Token]) -> _CoastText:
        words = [c for c in children if c.type == "WORD"]
        coast = _CoastText(" ".join(str(c) for c in words))
        coast.end = words[-1].end_pos or 0
        return coast

    def loc(self, children: list[Token | _CoastText]) -> str:
        from lark import Token

        words = [c for c in children if isinstance(c, Token)]
        text = " ".join(words)
        coast = children[-1] if isinstance(children[-1], _CoastText) else None
        if coast is not None:
            text = f"{text}/{coast}"
        try:
            return self.game_map.lookup(text)
        except UnknownNameError as exc:
            if type(exc) is UnknownNameError and coast is None:  # no such name at all
                found = self.prefixes.find(text)  # "Mosc", "Bohem": a unique beginning
                if found is not None:
                    return found
            error = self._name_error(exc, words, text, self._written(words, coast))
            self.reject(error, stray=error.message.startswith("unexpected"))

    def _written(self, words: list[Token], coast: _CoastText | None) -> str:
        """A name as the player wrote it, a coast in brackets too: ``Bur (if Germany
        agrees)``, which the lookup tried as ``Bur/if Germany agrees``."""
        start = words[0].start_pos or 0
        end = coast.end if coast is not None else (words[-1].end_pos or 0)
        if coast is not None:  # the closing bracket, if the coast was written in brackets
            close = len(self.text) - len(self.text[end:].lstrip())
            if self.text[close:close + 1] == ")":
                end = close + 1
        return self.text[start:end] or " ".join(words)

    def _name_error(self, exc: UnknownNameError, words: list[Token], text: str,
                    written: str) -> OrderError:
        """Why the name ``text`` (as the lookup read it; ``written``: as the player wrote
        it, which the message quotes) is no location."""
        column = _column(words[0])
        if len(words) > 1:  # "A PAR XYZ": a known name followed by a stray word
            # no name has more words than the longest one: the search stays linear
            for cut in range(min(len(words) - 1, self.longest_name), 0, -1):
                head = " ".join(words[:cut])
                try:
                    self.game_map.lookup(head)
                except UnknownNameError:
                    continue
                stray = words[cut]
                misspelt = self._misspelt_name(words[:cut + 1])
                if misspelt is not None:
                    return misspelt
                return OrderSyntaxError(f"unexpected {str(stray)!r} after {head!r}",
                                        column=_column(stray), text=self.text)
            first = words[0]
            if (first.column == len(self.text) - len(self.text.lstrip()) + 1
                    and len(words) <= self.longest_name + 1):
                try:
                    self.game_map.lookup(" ".join(words[1:]))
                except UnknownNameError:
                    pass
                else:  # "X PAR - BUR": an unknown unit type before a good name
                    kinds = f"a unit type ({', '.join(self.game_map.unit_kinds)})"
                    return OrderSyntaxError(f"unknown unit type {str(first)!r}",
                                            column=column, text=self.text,
                                            expected=(kinds,))
        describe = self._describe
        if isinstance(exc, UnknownCoastError):
            options = " or ".join(exc.suggestions)
            return UnknownProvinceError(f"no such coast: {written!r}", column=column,
                                        text=self.text,
                                        suggestion=options or None)
        if isinstance(exc, AmbiguousNameError):
            return UnknownProvinceError(
                f"ambiguous name {written!r} (it could be {' or '.join(exc.suggestions)})",
                column=column, text=self.text)
        suggestion = " or ".join(describe(s) for s in self._suggest(text)) or None
        return UnknownProvinceError(f"unknown province {written!r}", column=column,
                                    text=self.text, suggestion=suggestion)

    def _misspelt_name(self, words: list[Token]) -> OrderError | None:
        """"Mid Atlantik", "Ionian See": a name of several words with one misspelt, whose
        first words are a name of their own ("Mid"); said as an unknown name with its
        did-you-mean when the words together are very close to one of the map's names
        (closer than for a did-you-mean of one word: "A PAR XYZ" stays a stray word)."""
        text = " ".join(words)
        close = self.game_map.suggest(text, limit=1, cutoff=_CLOSE_NAME)
        if not close:
            return None
        return UnknownProvinceError(f"unknown province {text!r}", column=_column(words[0]),
                                    text=self.text, suggestion=self._describe(close[0]))

    def _suggest(self, text: str) -> tuple[str, ...]:
        """The map's did-you-mean ids for an unknown name (slow, so kept by folded name)."""
        key = fold(text)
        found = self._suggestions.get(key)
        if found is None:
            if len(self._suggestions) >= 10_000:
                self._suggestions.clear()
            found = self._suggestions[key] = self.game_map.suggest(text)
        return found

    def _describe(self, loc: str) -> str:
        name = self.game_map.describe(loc)
        return loc if fold(name) == fold(loc) else f"{name} ({loc})"

    def _kind(self, token: Token) -> str:
        return self.kinds.get(token.lower(), token.upper())

    def _infer_kind(self, loc: str) -> str:
        """The kind when an order leaves it out: the only kind that may stand there, else '?'."""
        return self._guess_kind(loc)

    # -- units --------------------------------------------------------------------------
    def unit(self, children: list[Token | str]) -> Subject:
        kind = _token(children[0])
        return Subject(Unit(self._kind(kind), children[-1]), "", _column(kind))

    def unit_with(self, children: list[Token | str]) -> Subject:
        kind, escort = _token(children[0]), _token(children[2])
        escort_kind = self._kind(escort)
        if escort_kind not in self.escorts or escort_kind not in self.game_map.unit_kinds:
            self.reject(OrderSyntaxError(f"unexpected '+{escort}': {self.escort_rule}",
                                         column=_column(escort) - 1, text=self.text))
        return Subject(Unit(self._kind(kind), children[-1]), escort_kind, _column(kind))

    def bare_unit(self, children: list[str]) -> Subject:
        """A unit written without its type: its column is 0 (the kind is a guess)."""
        loc = children[0]
        return Subject(Unit(self._infer_kind(loc), loc), "", 0)

    def subjects(self, children: Children) -> list[Subject]:
        return [c for c in children if isinstance(c, Subject)]

    # -- actions, combined with the subjects in unit_order -----------------------------
    def arrow(self, _children: Children) -> _Arrow:
        return _ARROW

    def via_convoy(self, children: list[Token]) -> bool:
        """``via convoy``, ``by convoy``, or a bare trailing ``via`` (other judges' files:
        "A ALB - APU VIA"); a bare ``by`` is too vague and stops too early."""
        word = children[0]
        if len(children) == 1 and word.lower() == "by":
            end = word.end_pos or 0
            before = self.text[:end].strip()
            self.reject(OrderSyntaxError(
                f"the order stops too early after {before!r}: expected convoy",
                column=end + 1, text=self.text, expected=("convoy",)))
        return True

    def hold(self, _children: Children) -> Action:
        return HoldAction()

    def move(self, children: Children) -> Action:
        return MoveAction(_locs(children)[0], via_convoy=True in children)

    def path_move(self, children: Children) -> Action:
        # "A LON - NTH - NWY": the written route through the convoying fleets.
        return MoveAction(_locs(children)[-1], via_convoy=True)

    def support_hold(self, children: Children) -> Action:
        return SupportHoldAction(_subject(children).unit)

    def support_move(self, children: Children) -> Action:
        return SupportMoveAction(_subject(children).unit, _locs(children)[0])

    def convoy(self, children: Children) -> Action:
        unit = _subject(children).unit
        if unit.kind == UNKNOWN_KIND and "A" in self.game_map.unit_kinds:
            unit = Unit("A", unit.location)  # only armies are convoyed (rule: convoys)
        return ConvoyAction(unit, _locs(children)[0])

    def disband(self, _children: Children) -> Action:
        return DisbandAction()

    def remove_after(self, _children: Children) -> Action:
        return RemoveAction()

    def retreat(self, children: Children) -> Action:
        return RetreatAction(_locs(children)[0])

    # -- whole orders (always a list: "&" groups give several) -------------------------
    def unit_order(self, children: Children) -> list[AnyOrder]:
        subjects, action = children
        assert isinstance(subjects, list) and isinstance(action, Action)
        return [self.make_order(s, action) for s in subjects]

    def make_order(self, subject: Subject, action: Action) -> AnyOrder:
        """One order from a subject and an action; variants extend this."""
        unit = subject.unit
        if subject.escort and not isinstance(action, MoveAction):
            self.reject(OrderSyntaxError("a unit with its escort (G+D) can only move",
                                         column=subject.column or 1, text=self.text))
        if isinstance(action, HoldAction):
            return Hold(unit)
        if isinstance(action, MoveAction):
            return Move(unit, action.destination, via_convoy=action.via_convoy,
                        route=action.route, escort=subject.escort)
        if isinstance(action, SupportHoldAction):
            return SupportHold(unit, action.supported)
        if isinstance(action, SupportMoveAction):
            return SupportMove(unit, action.supported, action.destination, route=action.route)
        if isinstance(action, ConvoyAction):
            return Convoy(unit, action.convoyed, action.destination)
        if isinstance(action, DisbandAction):
            return Disband(unit)
        if isinstance(action, RemoveAction):
            return Remove(unit)
        if isinstance(action, RetreatAction):
            return Retreat(unit, action.destination, route=action.route)
        self.reject(OrderSyntaxError(f"unknown action {action!r}", text=self.text))

    def build(self, children: Children) -> list[AnyOrder]:
        """A build; one without a unit type is refused where more than one kind could be
        built (nothing on the board to take the kind from): ``Build BRE``, and ``Build STP``,
        where a fleet could stand on a coast (DATC 4.C.3; ``Build STP/NC`` is a fleet)."""
        subject = _subject(children)
        unit = subject.unit
        game_map = self.game_map
        others: dict[str, str] = {}  # a coast -> the kind of unit that could stand there
        if subject.column == 0 and "/" not in unit.location:  # no type written, no coast
            for loc in game_map.locations(unit.location):
                for kind, name in game_map.unit_kinds.items():
                    if "/" in loc and kind != unit.kind and game_map.can_occupy(kind, loc):
                        others.setdefault(loc, name.lower())
        if unit.kind == UNKNOWN_KIND or others:
            kinds = ", ".join(game_map.unit_kinds)
            on_coasts = ""
            if others:  # "(a fleet on STP/NC or STP/SC)"
                on_coasts = f" (a {next(iter(others.values()))} on {' or '.join(others)})"
            self.reject(OrderSyntaxError(
                f"a build needs a unit type ({kinds}): {unit.location} could hold "
                f"either{on_coasts}",
                column=1, text=self.text, expected=(f"a unit type ({kinds})",)))
        return [Build(unit)]

    def remove(self, children: Children) -> list[AnyOrder]:
        return [Remove(_subject(children).unit)]

    def disband_first(self, children: Children) -> list[AnyOrder]:
        return [Disband(_subject(children).unit)]

    def retreat_first(self, children: Children) -> list[AnyOrder]:
        """``Retreat A BUR - PIC`` (njudge's ``R A BUR - PIC``): the retreat written word
        first, as ``Build``, ``Remove`` and ``Disband`` orders are."""
        return [self.make_order(_subject(children), RetreatAction(_locs(children)[-1]))]

    def waive(self, _children: Children) -> list[AnyOrder]:
        return [Waive()]


class _CoastText(str):
    """The words of a coast in parentheses or after '/'; ``end``: where its last word ends
    in the order's text."""

    end: int = 0


def _locs(children: Children) -> list[str]:
    return [c for c in children if type(c) is str]


def _subject(children: Children) -> Subject:
    return next(c for c in children if isinstance(c, Subject))


def _token(child: object) -> Token:
    """A child the grammar makes a token (a unit type's word)."""
    from lark import Token

    assert isinstance(child, Token)
    return child


def _column(token: Token) -> int:
    """A token's column (1-based); the lexer always sets it."""
    return token.column or 1


class OrderParser:
    """The grammar bound to one map (built once per map and extension; see parser_for).

    ``extension`` is extra Lark text (``%extend``/``%override`` rules) and ``builder`` an
    :class:`OrderBuilder` subclass with callbacks for the new rules: that is how a
    variant such as Mobtown adds its own orders without touching this module.
    """

    def __init__(self, game_map: GameMap, extension: str = "",
                 builder: type[OrderBuilder] = OrderBuilder, fast: bool = True) -> None:
        self.game_map = game_map
        self.builder = builder(game_map)
        kinds = _kind_words(game_map)
        self._extension = extension
        self._lark: Lark | None = None
        self.kinds_text = ", ".join(game_map.unit_kinds)
        words = hyphenated_words(game_map)
        heads = hyphen_heads(words)
        self._hyphen = _hyphen_fixer(words, heads)
        # an extended grammar may change what shapes mean; the map's own fast path is shared
        # with the batch, which asks it first (a builder of a variant's may guess kinds anew)
        self._fast: FastPath | None = None
        if fast and not extension:
            self._fast = (fast_path_for(game_map) if builder is OrderBuilder else
                          FastPath(game_map, self.builder._infer_kind, heads, MAX_LINE))
        if self._fast is not None and not self._fast.enabled:
            self._fast = None
        self._power_cache: dict[str, str | None] = {}
        self._power_names = {fold(s): pid for pid, p in game_map.powers.items()
                             for s in (pid, p.name, *p.aliases) if fold(s)}
        self._cache: dict[str, tuple[AnyOrder, ...] | OrderError] = {}
        self._accepts_cache: dict[tuple[int, ...], frozenset[str]] = {}
        self._prefix_words = {k.lower() for k in kinds} | {
            "build", "builds", "remove", "removes", "waive", "waives", "disband", "disbands",
            "retreat", "retreats"}
        self._fillers = _filler_pattern(game_map, _terminal_words(extension))

    @property
    def fast_path(self) -> FastPath | None:
        """The fast path for everyday orders, if this parser uses one (its
        :meth:`FastPath.parse_written` answers as :meth:`parse_order` does)."""
        return self._fast

    @property
    def lark(self) -> Lark:
        """The LALR parser of this map's grammar, built when first needed: everyday orders
        take the fast path, so a batch of them never waits for it."""
        if self._lark is None:
            self._lark = _build_lark(self._grammar(), self.builder)
        return self._lark

    def _grammar(self) -> str:
        grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
        kinds = _kind_words(self.game_map)
        if kinds != ["army", "fleet", "a", "f"]:
            alternatives = "|".join(map(re.escape, kinds))
            grammar += f"\n%override KIND.2: /(?i:{alternatives}){_KEYWORD_GUARD}/\n"
        return grammar + _adjustment_letters(self.game_map) + self._extension

    # -- one order ----------------------------------------------------------------------
    def parse_group(self, text: str) -> list[AnyOrder]:
        """Parse one order (or one ``&`` group) and return its orders; raises OrderError."""
        return list(self._group(text))

    def _group(self, text: str) -> tuple[AnyOrder, ...]:
        """Orders are immutable values, so the result for a given text is cached (and so is
        the error for a text that is no order: a pasted bad line costs its work once)."""
        cached = self._cache.get(text)
        if type(cached) is tuple:
            return cached
        if cached is None:
            try:
                cached = tuple(self._parse_group(text))
            except OrderError as exc:
                cached = _bare(exc)
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[text] = cached
        if isinstance(cached, OrderError):
            raise cached.with_traceback(None)
        return cached

    def _parse_group(self, text: str) -> list[AnyOrder]:
        source = text
        if not text or text.isspace():
            raise OrderSyntaxError("empty order", text=text,
                                   expected=friendly({"KIND", "WORD", "BUILD", "REMOVE", "WAIVE"},
                                                     self.kinds_text))
        if len(text) > MAX_LINE:
            raise too_long(text)
        text = plain = normalise(text)  # same columns: errors still point into the source
        if self._hyphen is not None and "-" in text:
            text = self._hyphen(text)
        if self._fast is not None and text == plain:
            orders = self._fast.parse(text)
            if orders is not None:
                return orders
        try:
            return self._parse_lark(text, source)
        except OrderError as error:
            plain_words = self._without_fillers(text)
            if plain_words == text:
                raise
            try:
                return self._parse_lark(plain_words, source)
            except OrderError as second:
                # read without the filler words, the order got further: that error names
                # the word that is the trouble ("army in moscow" stops too early; "the
                # Nort Sea" is 'Nort Sea'), not "in" -- unless the line began as no order
                # at all ("The army in Moscow is bored" is no slip of "Moscow is")
                early = second.message.startswith("the order stops too early")
                further = second.column > error.column and (early or error.column > 1)
                raise (second if further else error) from None

    def as_written_error(self, text: str) -> OrderError | None:
        """Why ``text`` cannot be read as written, when it reads only with its everyday
        words left out (``My army from Paris to Picardy``); None when it reads as written
        or those words change nothing."""
        plain = normalise(text)
        if self._without_fillers(plain) == plain:
            return None
        if self._hyphen is not None and "-" in plain:
            plain = self._hyphen(plain)
        try:
            self._parse_lark(plain, text)
        except OrderError as error:
            return error
        return None

    def _parse_lark(self, text: str, source: str) -> list[AnyOrder]:
        """``text`` (normalised ``source``, same columns) read by the grammar."""
        self.builder.text = source
        from lark.exceptions import UnexpectedInput

        try:
            # with a transformer, Lark returns the value of the start rule: the orders
            return cast("list[AnyOrder]", self.lark.parse(text))
        except _Fail as fail:
            error = fail.error
            if fail.stray:
                after = self._accepts(text[: error.column - 1]) - {"WORD", "LPAR", "SLASH"}
                expected = friendly(after, self.kinds_text, self.builder.words)
                if expected:
                    error = OrderSyntaxError(f"{error.message}: expected {or_list(expected)}",
                                             column=error.column, text=error.text,
                                             expected=expected)
            raise error from None
        except UnexpectedInput as exc:
            raise self._syntax_error(exc, source, text) from None

    def _without_fillers(self, text: str) -> str:
        """``text`` with the everyday words around an order blanked out, columns kept:
        "move my army from Vienna to Galicia please" -> "army Vienna to Galicia",
        "build a fleet in Sevastopol" -> "build fleet Sevastopol".  Tried only when the
        order as written cannot be read, so an order that reads stays as it is."""
        return self._fillers.sub(lambda m: " " * len(m.group(0)), text)

    def parse_order(self, text: str, remember: bool = True) -> AnyOrder:
        """Parse exactly one order; raises OrderError.  ``remember=False``: a caller that
        keeps its own cache of texts (``mobadj batch``) is not doubled by this parser's."""
        orders = self.parse_group(text) if remember else self._parse_group(text)
        if len(orders) != 1:
            raise OrderSyntaxError(f"one order expected, found {len(orders)}", text=text)
        return orders[0]

    def _syntax_error(self, exc: UnexpectedInput, text: str, parsed: str) -> OrderSyntaxError:
        """The error for ``text`` (as written) from the grammar's complaint about ``parsed``
        (the same text normalised, with the same columns)."""
        from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

        column = exc.column if isinstance(exc.column, int) else 1
        if isinstance(exc, UnexpectedCharacters):
            # lark declares the position None on the base class; the lexer's error sets it
            pos = cast(int, exc.pos_in_stream)
            expected = friendly(self._accepts(parsed[:pos]) or exc.allowed or (),
                                self.kinds_text, self.builder.words)
            found = text[pos] if pos < len(text) else ""
        elif isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
            expected = friendly(exc.accepts or exc.expected, self.kinds_text,
                                self.builder.words)
            found = str(exc.token)
        else:  # the order stops too early
            terminals: Iterable[str] = (
                exc.expected if isinstance(exc, UnexpectedEOF)
                else (exc.accepts or exc.expected) if isinstance(exc, UnexpectedToken) else ())
            expected = friendly(terminals, self.kinds_text, self.builder.words)
            column = len(text.rstrip()) + 1
            found = ""
        before = text[: column - 1].strip()
        if not found:
            where = f"after {before!r}" if before else "(the order is empty)"
            message = f"the order stops too early {where}: expected {or_list(expected)}"
        else:
            where = f" after {before!r}" if before else ""
            message = f"unexpected {found!r}{where}: expected {or_list(expected)}"
        return OrderSyntaxError(message, column=column, text=text, expected=expected)

    def _accepts(self, head: str) -> set[str]:
        """The terminals the grammar accepts after ``head`` (precise, unlike the lexer's)."""
        from lark.exceptions import UnexpectedInput

        try:
            interactive = self.lark.parse_interactive(head)
            interactive.exhaust_lexer()
        except (UnexpectedInput, _Fail):
            return set()
        # what may follow depends only on the parser's stack: ask Lark (slow) once per stack
        key = tuple(interactive.parser_state.state_stack)
        found = self._accepts_cache.get(key)
        if found is None:
            if len(self._accepts_cache) >= CACHE_SIZE:
                self._accepts_cache.clear()
            found = self._accepts_cache[key] = frozenset(interactive.accepts())
        return set(found)

    # -- powers -------------------------------------------------------------------------
    def power_of(self, text: str) -> tuple[str, str | None]:
        """(power id, corrected-from) for a power name; UnknownPowerError if unknown."""
        try:
            return self.game_map.power_id(text), None
        except UnknownNameError as exc:
            names = {fold(p.name): pid for pid, p in self.game_map.powers.items()}
            close = close_matches(fold(text), list(names), n=2, cutoff=0.8)
            if len(close) == 1:
                return names[close[0]], text
            powers = ", ".join(p.name for p in self.game_map.powers.values())
            suggestion = " or ".join(self.game_map.powers[s].name for s in exc.suggestions)
            raise UnknownPowerError(f"unknown power {text!r} (the powers are {powers})",
                                    suggestion=suggestion or None) from None

    def bare_header(self, line: str) -> tuple[str, str | None] | None:
        """'FRANCE', 'Russia (Ann)', 'En': a line that is only a power's name, maybe with a
        note in brackets -> (power id, the misspelling read or None); None otherwise."""
        if len(line) > 120:
            return None
        name = _NOTE.sub("", line).strip().rstrip(".!-").strip()
        found = self._power_names.get(fold(name))
        if found is not None:
            return found, None
        if len(name) >= 4 and name.isalpha():  # one word: maybe a misspelt power ("Frnace")
            try:
                found, corrected = self.power_of(name)
            except UnknownPowerError:
                return None
            return (found, corrected) if found else None
        return None

    def bare_power_prefix(self, line: str) -> tuple[str, int] | None:
        """'Italy F gol': a power name with no colon, followed by a unit type or Build/..."""
        match = _BARE_PREFIX.match(line)
        if match is None or match.group(2).lower() not in self._prefix_words:
            return None
        word = match.group(1)
        if len(word) < 2 or word.lower() in self._prefix_words:
            return None
        if word not in self._power_cache:
            try:
                self._power_cache[word] = self.game_map.power_id(word)
            except UnknownNameError:
                self._power_cache[word] = None
        power = self._power_cache[word]
        return (power, match.start(2)) if power else None


_SECTION = re.compile(r"^\s*([^\W\d_][\w .'\-]*?)\s*(?:\([^()]{0,80}\)\s*)?:\s*")
MAX_HEADING: Final = 200
"""A section's heading (``England:``, ``Russia (Ann):``) has its colon within this many
characters: a line whose first colon comes later is none (:data:`_SECTION` would take time
growing with the square of the text before it: 16 ms for a line of 1,000 characters)."""
_NOTE = re.compile(r"\([^()]{0,80}\)\s*$")
_BARE_PREFIX = re.compile(r"^\s*([^\W\d_][\w'\-]*)\s+([^\W\d_]\w*)")
_SPLIT = re.compile(r"[,;]")


def _bare(error: OrderError) -> OrderError:
    """``error`` without its traceback and context: a cached error must not keep the
    parser's frames (and everything they hold) alive."""
    error.__traceback__ = error.__context__ = error.__cause__ = None
    return error


def too_long(text: str) -> OrderSyntaxError:
    """The error for a line or order longer than :data:`MAX_LINE` (not read at all)."""
    return OrderSyntaxError(f"too long: {len(text):,} characters (at most {MAX_LINE:,}); "
                            "not read", column=MAX_LINE + 1, text=text[:60] + "...")


_GUARD = r"(?![\w.'\u2011\/])"


def _adjustment_letters(game_map: GameMap) -> str:
    """njudge's "B A PAR", "R A PAR" and "D A PAR" (build, remove, disband) and "R A BUR -
    PIC" (a retreat: "R" with a destination), as grammar rules, for each letter that is
    neither a unit type nor a province of the map."""
    taken = {k.lower() for k in game_map.unit_kinds}
    rules = []
    for letter, rule in (("b", "B_AFTER unit -> build"),
                         ("r", "REMOVE_R unit -> remove\n"
                               "%extend order: REMOVE_R unit arrow loc -> retreat_first"),
                         ("d", "D_AFTER unit -> disband_first")):
        try:
            game_map.lookup(letter)
        except UnknownNameError:
            if letter not in taken:
                rules.append(f"%extend order: {rule}\n")
        # a letter that names a province stays a province
    if any("REMOVE_R" in r for r in rules):
        rules.append(f"REMOVE_R.2: /(?i:r){_GUARD}/\n")
    return "\n" + "".join(rules)


def _kind_words(game_map: GameMap) -> list[str]:
    words = [fold(n) for n in game_map.unit_kinds.values()]
    words += [k.lower() for k in game_map.unit_kinds]
    return sorted(dict.fromkeys(words), key=len, reverse=True)


def _hyphen_fixer(parts: set[str], heads: re.Pattern[str] | None
                  ) -> Callable[[str], str] | None:
    """Names with a hyphen ("Mid-Atlantic") would read as a move; protect them by turning
    their hyphen into a non-breaking one (U+2011) that the grammar takes as part of a name.
    ``parts``: the map's hyphenated words; ``heads``: :func:`hyphen_heads` of them."""
    if heads is None:
        return None
    pattern = re.compile(
        r"(?<![\w\u2011])(" + "|".join(re.escape(p) for p in sorted(parts, key=len, reverse=True))
        + r")(?![\w\u2011])", re.IGNORECASE)

    def fix(text: str) -> str:
        if heads.search(text) is None:  # cheap test first: most lines have none
            return text
        return pattern.sub(lambda m: m.group(1).replace("-", "\u2011"), text)

    return fix


FILLERS: Final = ("in", "the", "my", "from", "at", "please")
"""Everyday words a newcomer writes around an order ("army in Paris", "to the North Sea"),
read as nothing when the order does not read with them (docs/orders.md)."""


def _terminal_words(extension: str) -> frozenset[str]:
    """The words a variant's grammar ``extension`` makes keywords of (Mobtown's ``in`` and
    ``at``: "Don in Lex" places a Don), from its terminals' definitions."""
    found: set[str] = set()
    for line in extension.splitlines():
        if re.match(r"\s*[A-Z_]+(?:\.\d+)?\s*:", line):
            found.update(w.lower() for w in re.findall(r"[A-Za-z]+", line.split(":", 1)[1]))
    return frozenset(found)


def _filler_pattern(game_map: GameMap, keywords: frozenset[str] = frozenset()
                    ) -> re.Pattern[str]:
    """The filler words of ``game_map`` as one pattern: :data:`FILLERS` that are no name
    on the map nor a keyword of its grammar (``keywords``), "a"/"an" before a unit type
    written out ("build a fleet"), and "move(s)" as the first word ("move army Vienna to
    Galicia")."""
    def free(word: str) -> bool:  # no name on the map
        try:
            game_map.lookup(word)
        except UnknownNameError:
            return True
        return False

    words = [w for w in FILLERS if w not in keywords and free(w)]
    kinds = [fold(n) for n in game_map.unit_kinds.values() if len(fold(n)) > 1]
    parts = []
    if words:
        parts.append(r"(?<![\w.'\u2011\/])(?:" + "|".join(words) + ")" + _GUARD)
    if kinds and free("a") and free("an"):
        parts.append(r"(?<![\w.'\u2011\/])an?\s+(?=(?:" + "|".join(map(re.escape, kinds))
                     + ")" + _GUARD + ")")
    parts.append(r"^\s*moves?" + _GUARD + r"(?!\s*(?:to|into)\b)")  # not "Move to BUR"
    return re.compile("|".join(parts), re.IGNORECASE)


_LARK_OPTIONS: dict[str, str | bool] = {"parser": "lalr", "lexer": "contextual",
                                 "propagate_positions": False, "maybe_placeholders": False}


def _build_lark(grammar: str, builder: OrderBuilder) -> Lark:
    """The LALR parser of ``grammar``.  Its tables, a pure function of the grammar, the
    options and Lark's version, are kept in the disk cache (mobadj.diskcache): building them
    takes longer than reading thousands of orders.  They are read back as Lark's own
    ``cache`` option does (``Lark._load``, with the transformer); any failure there, e.g. a
    Lark that changed, and the grammar is built anew."""
    from lark import Lark
    from lark import __version__ as lark_version

    transformer = cast("Transformer[Token, list[AnyOrder]]", builder)  # duck-typed for Lark
    key = diskcache.fingerprint(grammar, repr(sorted(_LARK_OPTIONS.items())), lark_version)
    saved = diskcache.load("grammar", key)
    if isinstance(saved, bytes):
        try:
            loaded = Lark.__new__(Lark)
            return loaded._load(io.BytesIO(saved), transformer=transformer,
                                propagate_positions=False)
        except Exception as exc:  # tables this Lark cannot read (another version): built below
            diskcache.note("grammar tables not read (%s): built again", exc)
    built = Lark(grammar, transformer=transformer, **_LARK_OPTIONS)
    tables = io.BytesIO()
    built.save(tables, exclude_options=("transformer", "postlex", "lexer_callbacks"))
    diskcache.store("grammar", key, tables.getvalue())
    return built


_PARSERS: weakref.WeakKeyDictionary[GameMap, OrderParser] = weakref.WeakKeyDictionary()


def parser_for(game_map: GameMap) -> OrderParser:
    """The standard order parser of a map, built on first use."""
    parser = _PARSERS.get(game_map)
    if parser is None:
        parser = _PARSERS[game_map] = OrderParser(game_map)
    return parser


def parse_order(text: str, game_map: GameMap) -> AnyOrder:
    """Parse one order ("A PAR - BUR"); raises an :class:`OrderError` subclass."""
    return parser_for(game_map).parse_order(text)


def parse_unit(text: str, game_map: GameMap) -> Unit:
    """Parse a unit as position lists write it ("F spa/nc", "A Paris"); raises OrderError."""
    order = parse_order(f"{text} H", game_map)
    if not isinstance(order, Hold):
        raise OrderSyntaxError(f"a unit is written like 'A PAR', not {text!r}", text=text)
    return order.unit


_IN_VARIANT: ContextVar[bool] = ContextVar("mobadj_parse_orders_in_variant", default=False)


def parse_orders(text: str, game_map: GameMap, power: str | None = None,
                 parser: OrderParser | None = None) -> ParseResult:
    """Parse an order file or mail body; never raises for bad input (see ParseResult).

    On a map played by a variant (Mobtown II), without ``parser``, the text is read by the
    variant's own reader (``rules_for(game_map).parse_orders``), as ``mobadj adjudicate``
    reads it.  An error at a misspelt keyword or unit type gets its did-you-mean
    ("unknown word 'Biuld'; did you mean Build?").

    ``power`` is the default for orders outside any section.  A line that names a power
    (``England:``, ``ENGLAND``, ``Russia (Ann):``, ``En:``) starts its section;
    ``England: A PAR-BUR`` (or ``England A PAR-BUR``) sets the power for that line only.
    A line that cannot be read ends the section that was open, so what follows is never
    credited to that power (each order then goes to its unit's owner, or to ``power``).
    ``,`` and ``;`` separate orders on one line; ``#`` starts a comment.  Every order is
    kept, in file order: :meth:`ParseResult.last_order_wins` settles two orders for a unit.
    """
    if parser is None:
        from mobadj.engine.rules import Rules

        rules = None if _IN_VARIANT.get() else _variant_rules(game_map)
        if rules is not None and type(rules).parse_orders is not Rules.parse_orders:
            token = _IN_VARIANT.set(True)  # its reader may call this one back
            try:
                return rules.parse_orders(text, game_map, power=power)
            finally:
                _IN_VARIANT.reset(token)
        parser = rules.order_parser(game_map) if rules is not None else parser_for(game_map)
    result = _parse_orders(text, game_map, power, parser)
    if result.errors:
        lines = text_lines(text[1:] if text.startswith("\ufeff") else text)
        result.errors[:] = [keyword_slip(e, lines[e.line - 1], game_map)
                            if 0 < e.line <= len(lines) else e for e in result.errors]
    return result


def _variant_rules(game_map: GameMap) -> Rules | None:
    """The rules of ``game_map`` when a variant reads its orders in its own way (None: the
    core reader, also for a variant whose rules cannot be loaded)."""
    from mobadj.engine.rules import Rules
    from mobadj.engine.variants import VariantError, default_rules

    try:
        rules = default_rules(game_map)
    except VariantError:
        return None
    cls = type(rules)
    if cls.parse_orders is Rules.parse_orders and cls.order_parser is Rules.order_parser:
        return None
    return rules


def _parse_orders(text: str, game_map: GameMap, power: str | None,
                  parser: OrderParser) -> ParseResult:
    result = ParseResult(escorts=parser.builder.escorts)
    errors = result.errors
    default = section = game_map.power_id(power) if power else None
    bad_section: tuple[str, int] | None = None  # (name, line) of an unknown power's section
    if text.startswith("\ufeff"):  # a byte-order mark decoded as text
        text = text[1:]
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.split("#", 1)[0] if "#" in raw else raw
        if not line.isascii():  # a header too may be pasted with invisible characters
            line = plain_characters(line)
        if not line[:1].isalpha():  # "1. A Par - Bur", "- A Par - Bur": a list in a mail
            line = without_list_mark(line)
        if not line or line.isspace():
            continue
        before = len(errors)
        if len(line) > MAX_LINE:
            errors.append(too_long(line).moved(number, 0, raw[:60] + "..."))
        elif 0 <= line.find(":") <= MAX_HEADING and (head := _SECTION.match(line)):
            try:
                found, corrected = parser.power_of(head.group(1))
            except UnknownPowerError as exc:
                errors.append(exc.moved(number, head.start(1), raw))
                if not line[head.end():].strip():
                    # "Zork:" opens a section whose orders go to no one; "Here are my
                    # orders:" is a remark, and so is any unknown header in one power's mail
                    remark = is_remark(head.group(1), game_map) and (
                        default is not None or len(head.group(1).split()) > 1)
                    bad_section = None if remark else (head.group(1), number)
                    section = default
                    continue
            else:
                if corrected:
                    result.warnings.append(_corrected(corrected, found, game_map, number,
                                                      head.start(1), raw))
                start = head.end()
                if not line[start:].strip():
                    section, bad_section = found, None
                    continue
                _parse_line(parser, line, start, number, raw, found, result)
        else:
            line_power, start = section, 0
            if line.lstrip()[1:2].isalnum():  # a first word of one letter is a unit type
                bare = parser.bare_power_prefix(line)
                if bare is not None:
                    line_power, start = bare
            if bad_section is not None and start == 0:
                # orders of an unknown power are not given to anyone (nor to no one)
                name, where = bad_section
                column = len(line) - len(line.lstrip()) + 1
                errors.append(UnknownPowerError(
                    f"ignored: this order is in the section of the unknown power {name!r} "
                    f"(line {where})", line=number, column=column, text=raw))
                continue
            orders_before = len(result.orders)
            _parse_line(parser, line, start, number, raw, line_power, result)
            if len(errors) > before and len(result.orders) == orders_before:
                header = parser.bare_header(line)  # "FRANCE", "Russia (Ann)": no colon
                if header is not None:
                    del errors[before:]
                    found, corrected = header
                    if corrected:
                        result.warnings.append(_corrected(corrected, found, game_map, number,
                                                          len(line) - len(line.lstrip()), raw))
                    section, bad_section = found, None
                    continue
        if len(errors) > before and section != default:
            # nothing after an unreadable line is credited to the section's power
            errors[-1] = errors[-1].noted(_section_ends(game_map, section, default))
            section = default
    return result


def _corrected(written: str, found: str, game_map: GameMap, number: int, column: int,
               raw: str) -> UnknownPowerError:
    """The warning for a misspelt power name read as ``found``."""
    return UnknownPowerError(f"unknown power {written!r}, read as {game_map.powers[found].name}",
                             line=number, column=column + 1, text=raw)


def _section_ends(game_map: GameMap, section: str | None, default: str | None) -> str:
    name = game_map.powers[section].name if section in game_map.powers else section
    if default is None:
        return f"{name}'s section ends here: the orders below go to each unit's owner"
    return f"{name}'s section ends here"


def _parse_line(parser: OrderParser, line: str, start: int, number: int, raw: str,
                power: str | None, result: ParseResult) -> None:
    rest = line[start:] if start else line
    pieces = _SPLIT.split(rest) if ("," in rest or ";" in rest) else (rest,)
    offset = start
    read: list[tuple[str, int, Sequence[AnyOrder]]] = []
    bad, first_error = 0, len(result.errors)
    for piece in pieces:
        stripped = piece.strip()
        if stripped:
            lead = offset + piece.index(stripped[0])
            try:
                read.append((stripped, lead, parser._group(stripped)))
            except OrderError as exc:
                result.errors.append(exc.moved(number, lead, raw))
                bad += 1
                if bad == MAX_ERRORS_PER_LINE and offset + len(piece) < len(line):
                    result.errors.append(OrderSyntaxError(
                        f"the rest of the line is not read: {bad} orders on it could not be "
                        "read", line=number, column=offset + len(piece) + 2, text=raw))
                    break
        offset += len(piece) + 1
    append = result.orders.append
    for stripped, lead, orders in read:
        # beside a part of the line that is no order, a part read only with its everyday
        # words left out is the sentence's, not an order ("My army from Paris to Picardy,
        # in my last mail, was a typo." must not replace the order above it)
        wrong = parser.as_written_error(stripped) if bad else None
        if wrong is not None:
            result.errors.append(wrong.moved(number, lead, raw))
            continue
        for order in orders:
            append(ParsedOrder(power, order, number, lead + 1, stripped))
    if bad and read:  # the line's errors in the order of its columns
        result.errors[first_error:] = sorted(result.errors[first_error:],
                                             key=lambda e: e.column or 0)
