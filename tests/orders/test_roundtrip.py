"""str(order) is canonical: it parses back to the same order, for every order kind."""

from __future__ import annotations

import random

import pytest

from mobadj.orders.model import (
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
from mobadj.orders.parser import parse_order, parser_for


def random_orders(game_map, seed: int, count: int):
    rng = random.Random(seed)
    units = [Unit(k, loc) for loc in game_map.graph.nodes for k in game_map.unit_kinds
             if game_map.can_occupy(k, loc)]
    locs = list(game_map.graph.nodes)
    makers = [
        lambda u, v, d: Hold(u),
        lambda u, v, d: Move(u, d, via_convoy=rng.random() < 0.3),
        lambda u, v, d: SupportHold(u, v),
        lambda u, v, d: SupportMove(u, v, d),
        lambda u, v, d: Convoy(u, v, d),
        lambda u, v, d: Retreat(u, d),
        lambda u, v, d: Disband(u),
        lambda u, v, d: Build(u),
        lambda u, v, d: Remove(u),
        lambda u, v, d: Waive(),
    ]
    for _ in range(count):
        yield rng.choice(makers)(rng.choice(units), rng.choice(units), rng.choice(locs))


def test_round_trip_standard(std):
    for order in random_orders(std, seed=7, count=3000):
        assert parse_order(str(order), std) == order, str(order)


def test_round_trip_mobtown(mini):
    for order in random_orders(mini, seed=8, count=500):
        assert parse_order(str(order), mini) == order, str(order)
    from mobadj.mobtown.notation import parse_mobtown_order

    for order in (Move(Unit("G", "Lex"), "Ext", route="subway"),
                  Move(Unit("G", "Lex"), "Col", escort="D"),
                  SupportMove(Unit("D", "Col"), Unit("G", "Lex"), "Ext", route="subway"),
                  Retreat(Unit("G", "Lex"), "Ext", route="subway")):
        assert parse_mobtown_order(str(order), mini) == [order], str(order)


@pytest.mark.parametrize("text", ["Remove PIC", "PIC - BEL", "F NTH C A LON - NWY"])
def test_unknown_kind_round_trip(std, text):
    assert str(parser_for(std).parse_order(text)) == text
