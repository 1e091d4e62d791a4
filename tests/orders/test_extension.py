"""A variant adds its own order through the grammar extension hook (as Mobtown does)."""

from __future__ import annotations

from dataclasses import dataclass

from mobadj.orders.model import Move, Unit
from mobadj.orders.parser import Action, OrderBuilder, OrderParser, parse_orders

EXTENSION = r"""
%extend action: CEMENT OVERCOAT -> cement
CEMENT.2: /(?i:cement)(?![\w.'\u2011\/])/
OVERCOAT.2: /(?i:overcoat)(?![\w.'\u2011\/])/
"""


@dataclass(frozen=True, slots=True)
class Cement:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} cement overcoat"


class CementAction(Action):
    __slots__ = ()


class MobBuilder(OrderBuilder):
    def cement(self, _children):
        return CementAction()

    def make_order(self, subject, action):
        if isinstance(action, CementAction):
            return Cement(subject.unit)
        return super().make_order(subject, action)


def test_extension_adds_an_order(mini):
    parser = OrderParser(mini, extension=EXTENSION, builder=MobBuilder)
    assert parser.parse_group("D(Lex) cement overcoat") == [Cement(Unit("D", "Lex"))]
    assert parser.parse_group("G(Lex)-Col") == [Move(Unit("G", "Lex"), "Col")]
    result = parse_orders("D(Lex) Cement Overcoat\nD(Lex) cement", mini, parser=parser)
    assert [str(p.order) for p in result.orders] == ["D Lex cement overcoat"]
    (err,) = result.errors
    assert err.line == 2 and "stops too early" in err.message and err.expected == ("overcoat",)
