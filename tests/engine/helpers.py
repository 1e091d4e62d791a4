"""Small helpers for engine tests: positions and orders written as text."""

from __future__ import annotations

from typing import Any

from mobadj.board.loader import load_map
from mobadj.engine import PhaseResult, adjudicate, position_from_data
from mobadj.engine.rules import Rules
from mobadj.orders.parser import parse_orders

STANDARD = load_map("standard")


def play(
    units: dict[str, list[str]],
    orders: str,
    phase: str = "S1901M",
    centers: dict[str, list[str]] | None = None,
    rules: Rules | None = None,
    **extra: Any,
) -> PhaseResult:
    """Adjudicate ``orders`` (order-file text with ``POWER:`` prefixes) on a position."""
    data = {"phase": phase, "units": units, "centers": centers or {}, **extra}
    position = position_from_data(data, STANDARD)
    parsed = parse_orders(orders, STANDARD)
    assert not parsed.errors, parsed.errors
    return adjudicate(position, parsed.orders, STANDARD, rules)


def result_of(result: PhaseResult, order_prefix: str):
    """The OrderResult whose order text starts with ``order_prefix``."""
    found = [r for r in result.results if r.order.startswith(order_prefix)]
    assert len(found) == 1, (order_prefix, result.results)
    return found[0]


def units_after(result: PhaseResult) -> set[str]:
    return {f"{u.power} {u}" for u in result.position.units.values()}
