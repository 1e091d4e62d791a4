"""Helpers for the Mobtown II tests: play one phase from a small position and orders."""

from __future__ import annotations

import pytest

from mobadj.board.loader import load_map
from mobadj.engine import adjudicate, position_from_data
from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.mobtown.rules import MobtownRules


@pytest.fixture(scope="session")
def mt():
    return load_map("mobtown2")


class Played:
    """One adjudicated phase with easy questions for asserts."""

    def __init__(self, result):
        self.result = result
        self.after = result.position

    def outcome(self, text_start: str) -> tuple[str, str | None]:
        """(result, reason) of the first order whose canonical text starts so."""
        for r in self.result.results + self.result.defaults:
            if r.order.startswith(text_start):
                return r.outcome.value, (r.reason.value if r.reason else None)
        raise AssertionError(f"no order {text_start!r} in {self.result.results}")

    def ok(self, text_start: str) -> bool:
        return self.outcome(text_start)[0] == "succeeds"

    @property
    def units(self) -> dict[str, list[str]]:
        return self.after.unit_lists()


@pytest.fixture
def play(mt):
    def run(units, orders="", phase="1919-07-W1-M", centers=None, rules=None, **data):
        pos = position_from_data({"phase": phase, "units": units, "centers": centers or {},
                                  **data}, mt)
        parsed = parse_mobtown_orders(orders, mt)
        assert not parsed.errors, [str(e) for e in parsed.errors]
        return Played(adjudicate(pos, parsed.orders, mt, rules or MobtownRules()))

    return run
