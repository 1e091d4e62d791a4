"""Random phases from a seeded generator: invariants every adjudication must keep."""

from __future__ import annotations

import random

from mobadj.engine import Outcome, Rules, adjudicate
from mobadj.engine.scenarios import random_orders, random_position
from mobadj.engine.topology import topology_for
from mobadj.orders.parser import parse_orders

from .helpers import STANDARD

KEEP = Rules(forced_retreats="retreat_phase")


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
        # every unit is somewhere: on the board, waiting to retreat, or disbanded at once
        assert len(after.units) + len(after.dislodged) + len(res.destroyed) == len(pos.units)
        for d in [*after.dislodged.values(), *res.destroyed]:
            assert d.unit.province in after.units  # the attacker took its place
        # only units with a retreat open wait; the others are exactly those the retreat
        # phase kept by the option would have disbanded
        assert all(d.retreats for d in after.dislodged.values())
        kept = adjudicate(pos, parsed.orders, STANDARD, KEEP)
        assert {str(d.unit) for d in res.destroyed} == {
            str(d.unit) for d in kept.dislodged if not d.retreats}
        assert not kept.destroyed and kept.position.units == after.units
        for d in after.dislodged.values():
            for loc in d.retreats:
                prov = loc.split("/")[0]
                assert prov not in after.units and prov not in after.standoffs
                assert prov != d.attacker_from or d.convoyed
        for r, po in zip(res.results, parsed.orders, strict=True):
            order = po.order
            if type(order).__name__ == "Move" and r.outcome is Outcome.SUCCEEDS:
                landed = after.units[order.destination.split("/")[0]]
                assert (landed.power, landed.kind) == (po.power, order.unit.kind)


def test_settling_at_once_comes_to_the_board_of_the_old_retreat_phase() -> None:
    """A dislodged unit with no retreat disbanded at once, or in a retreat phase of its own
    (``forced_retreats=retreat_phase``): after the retreats (here: none ordered, so every
    unit with a choice disbands too) the units, centres and next phase are the same."""
    rng = random.Random(99)
    topo = topology_for(STANDARD)
    settled = 0
    for _ in range(1000):
        pos = random_position(STANDARD, rng, 34)
        text = "\n".join(f"{p}: {o}" for p, o in random_orders(pos, topo, rng))
        orders = parse_orders(text, STANDARD).orders
        now, kept = adjudicate(pos, orders, STANDARD), adjudicate(pos, orders, STANDARD, KEEP)
        settled += bool(now.settled)
        if now.next_phase.is_retreat:
            now = adjudicate(now.position, [], STANDARD)
        if kept.next_phase.is_retreat:
            kept = adjudicate(kept.position, [], STANDARD, KEEP)
        assert now.position.units == kept.position.units
        assert now.position.centers == kept.position.centers
        assert now.next_phase == kept.next_phase
    assert settled > 10, settled  # the sample has such units (16)
