"""Random phases from a seeded generator: invariants every adjudication must keep."""

from __future__ import annotations

import random

from mobadj.engine import Outcome, adjudicate
from mobadj.engine.scenarios import random_orders, random_position
from mobadj.engine.topology import topology_for
from mobadj.orders.parser import parse_orders

from .helpers import STANDARD


def test_random_movement_phases_keep_the_invariants() -> None:
    rng = random.Random(1234)
    topo = topology_for(STANDARD)
    for _ in range(150):
        pos = random_position(STANDARD, rng, rng.randint(20, 34))
        text = "\n".join(f"{p}: {o}" for p, o in random_orders(pos, topo, rng))
        parsed = parse_orders(text, STANDARD)
        assert not parsed.errors
        res = adjudicate(pos, parsed.orders, STANDARD)
        again = adjudicate(pos, parsed.orders, STANDARD)
        assert res.position.to_data() == again.position.to_data()  # deterministic
        after = res.position
        assert len(res.results) == len(parsed.orders)
        # every unit is somewhere: on the board or waiting to retreat
        assert len(after.units) + len(after.dislodged) == len(pos.units)
        for d in after.dislodged.values():
            assert d.unit.province in after.units  # the attacker took its place
            for loc in d.retreats:
                prov = loc.split("/")[0]
                assert prov not in after.units and prov not in after.standoffs
                assert prov != d.attacker_from or d.convoyed
        for r, po in zip(res.results, parsed.orders, strict=True):
            order = po.order
            if type(order).__name__ == "Move" and r.outcome is Outcome.SUCCEEDS:
                landed = after.units[order.destination.split("/")[0]]
                assert (landed.power, landed.kind) == (po.power, order.unit.kind)
