"""The rules' sample_orders hook: plausible orders for any phase of any map, which the map's
own reader accepts (the demonstration games of mobadj.web.demo are made of them)."""

from __future__ import annotations

import random

import pytest

from mobadj.board import load_map
from mobadj.engine import Outcome, adjudicate, default_rules, topology_for


@pytest.mark.parametrize("name", ["standard", "mobtown2"])
def test_a_game_of_sample_orders_reads_cleanly_and_goes_on(name):
    game_map = load_map(name)
    rules = default_rules(game_map)
    topo = topology_for(game_map)
    position = rules.initial_position(game_map)
    rng = random.Random(3)
    kinds: set[str] = set()
    moved = 0
    for _ in range(14):
        phase = position.phase
        kinds.add("M" if phase.is_movement else "R" if phase.is_retreat
                  else "A" if phase.is_adjustment else "other")
        orders = []
        for power in rules.due(position, topo):
            text = "\n".join(rules.sample_orders(position, power, topo, rng))
            parsed = rules.parse_orders(text, game_map, power)
            assert parsed.errors == [], (str(phase), power, text)
            orders.extend((power, p.order) for p in parsed.orders)
        result = adjudicate(position, orders, game_map, rules)
        moved += sum(1 for r in result.results if r.outcome is Outcome.SUCCEEDS)
        position = result.position
    assert {"M", "A"} <= kinds and moved > 20
    if name == "mobtown2":
        assert "other" in kinds  # the June 1919 Don placement
        assert len(position.dons) == len(game_map.powers)

