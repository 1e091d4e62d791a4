"""Two orders for one unit: the last one counts, as on njudge and godip.

A player who changes their mind sends a new order; a GM who pastes a player's mails in the
order they came gets the latest orders.  The earlier order is dropped with a warning that
names it and the order that replaced it.  (``duplicate_orders=first`` keeps every order and
lets the adjudicator use the first legal one, DATC 4.D.3; docs/rulings.md.)

*The same unit* means the same province and the same power (or no power given), whatever
unit type the orders write: a province holds one unit, and the adjudicator finds it by its
province (DATC 4.C.1, 4.C.2), so ``F PAR - BUR`` then ``A PAR - PIC`` are two orders for the
army in Paris, the second a correction.  Only a kind of piece that stands beside a unit
(``apart``: the escorts of the map's order reader, Mobtown's Don with his Gang) makes an
order of another type one for another piece.  An order that commands a piece by something
other than the space it names says so with a ``piece`` string (Mobtown's June placement of a
mob's Don, ``D P37`` then ``D Brk``): two such orders of one power (named) are for one piece
whatever spaces they name.  Builds and waives are not units' orders and are
never replaced here (too many builds is DATC 4.D.4-4.D.5, a rule option of the adjudicator).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import NamedTuple, Protocol, TypeVar

from mobadj.orders.errors import OrderError
from mobadj.orders.model import UNKNOWN_KIND, Build, Unit


class Placed(Protocol):
    """An order with where it was read (a ParsedOrder): its power, the order, the line and
    column, and the text it was read from."""

    @property
    def power(self) -> str | None: ...
    @property
    def order(self) -> object: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def text(self) -> str: ...


P = TypeVar("P", bound=Placed)
T = TypeVar("T")

DUPLICATE_RULES = ("last", "first")
"""Values of the ``duplicate_orders`` option; the first is the default."""


class ReplacedOrder(OrderError):
    """A warning: an order dropped because a later one was given to the same unit;
    ``replaced`` is the dropped order as it was read, ``by`` the one that replaced it."""

    replaced: Placed | None = None
    by: Placed | None = None


def check_rule(value: object) -> str:
    """The ``duplicate_orders`` value, or ValueError naming the choices."""
    text = str(value).strip().lower()
    if text not in DUPLICATE_RULES:
        raise ValueError(f"duplicate_orders must be {' or '.join(DUPLICATE_RULES)}, "
                         f"not {value!r}")
    return text


def split_rule(options: T) -> tuple[T | dict[str, object], str]:
    """A batch line's ``options`` without ``duplicate_orders`` (an order-reading option, not a
    rule of the adjudicator), and its value (default ``last``); ValueError for a bad value."""
    if not isinstance(options, Mapping) or "duplicate_orders" not in options:
        return options, "last"
    rest = {k: v for k, v in options.items() if k != "duplicate_orders"}
    return rest, check_rule(options["duplicate_orders"])


class _Given(NamedTuple):
    """An order as a batch line gives it: its power, the order and the text it was read from
    (``line`` is its index among the line's orders)."""

    power: str | None
    order: object
    line: int
    column: int
    text: str


def replaced_orders(pairs: Sequence[tuple[str | None, object]],
                    texts: Sequence[str], apart: Collection[str] = ()) -> dict[int, str]:
    """Orders given as (power, order) pairs, ``texts[i]`` the text ``pairs[i]`` was read from
    (one ``mobadj batch`` line's orders): the index of each order a later one replaces ->
    why, as the batch reports it.  ``apart``: as for :func:`last_order_wins`."""
    given = [_Given(power, order, i, 1, text)
             for i, ((power, order), text) in enumerate(zip(pairs, texts, strict=True))]
    _kept, replaced = last_order_wins(given, apart=apart)
    return {_given(w.replaced).line: f"replaced by the later order {_given(w.by).text!r} "
            "for the same unit" for w in replaced}


def _given(placed: Placed | None) -> Placed:
    assert placed is not None  # a ReplacedOrder of last_order_wins names both
    return placed


def _unit(placed: Placed) -> Unit | None:
    """The unit an order commands; None for a build, a waive or anything else."""
    unit = getattr(placed.order, "unit", None)
    return unit if isinstance(unit, Unit) and not isinstance(placed.order, Build) else None


def piece_key(order: object, unit: Unit) -> str:
    """What tells the piece ``order`` commands (``unit``) from others of its power: its
    ``piece`` when it names one (see the module's docstring), else the unit's province."""
    piece = getattr(order, "piece", None)
    return piece if isinstance(piece, str) else unit.province


def _same_unit(a: Placed, ua: Unit, b: Placed, ub: Unit, apart: Collection[str]) -> bool:
    """Whether two parsed orders with one :func:`piece_key` command the same unit (see the
    module's docstring)."""
    if isinstance(getattr(a.order, "piece", None), str):  # one power's piece, by its name
        return a.power is not None and a.power == b.power
    return ((a.power == b.power or a.power is None or b.power is None)
            and (ua.kind == ub.kind or UNKNOWN_KIND in (ua.kind, ub.kind)
                 or (ua.kind not in apart and ub.kind not in apart)))


def last_order_wins(orders: Sequence[P], where: Callable[[P], str] | None = None,
                    apart: Collection[str] = ()) -> tuple[list[P], list[ReplacedOrder]]:
    """``orders`` (ParsedOrder-like: power, order, line, column, text) without those a later
    order replaces, and one :class:`ReplacedOrder` warning for each.  ``where(parsed)`` may
    name the file of an order, for orders read from several files.  ``apart``: the kinds
    of piece that stand beside a unit of another kind (Mobtown's Don), whose orders never
    replace, nor are replaced by, an order for a unit of another kind."""
    kept: list[P | None] = []
    units: dict[int, Unit] = {}  # index in kept -> the unit its order commands
    by_province: dict[str, list[int]] = {}
    warnings: list[ReplacedOrder] = []
    for parsed in orders:
        unit = _unit(parsed)
        if unit is not None:
            slots = by_province.setdefault(piece_key(parsed.order, unit), [])
            for i in slots:
                old = kept[i]
                if old is not None and _same_unit(old, units[i], parsed, unit, apart):
                    kept[i] = None
                    slots.remove(i)
                    warnings.append(_warning(old, parsed, where))
                    break
            slots.append(len(kept))
            units[len(kept)] = unit
        kept.append(parsed)
    return [p for p in kept if p is not None], warnings


def _warning(old: P, new: P, where: Callable[[P], str] | None) -> ReplacedOrder:
    at = f"line {new.line}"
    if where is not None and where(new) != where(old):
        at += f" of {where(new)}"
    warning = ReplacedOrder(f"{old.text!r} is replaced by the later order {new.text!r} ({at}): "
                            "the last order for a unit counts", line=old.line, column=old.column,
                            text=old.text)
    warning.replaced, warning.by = old, new
    return warning
