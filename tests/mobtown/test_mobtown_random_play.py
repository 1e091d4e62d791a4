"""Random play from June 1919 (seeded): invariants hold and every phase round-trips."""

from __future__ import annotations

import random

from mobadj.engine import adjudicate, initial_position, position_from_data
from mobadj.mobtown.notation import CementOvercoat, PlaceDon
from mobadj.mobtown.terms import GAOL, ground_link, subway_link
from mobadj.orders.model import Build, Disband, Hold, Move, SupportHold, Unit


def _movement_orders(pos, mt, rng):
    orders = []
    for prov, gang in sorted(pos.units.items()):
        nbs = sorted(n for n in mt.neighbours("G", prov) if n != GAOL)
        roll = rng.random()
        if roll < 0.6 and nbs:
            dest = rng.choice(nbs)
            edge = mt.edge("G", prov, dest)
            under = not ground_link(edge) or (subway_link(edge) and rng.random() < .5)
            with_don = prov in pos.dons.values() and rng.random() < 0.7
            orders.append((gang.power, Move(Unit("G", prov), dest,
                                            route="subway" if under else "",
                                            escort="D" if with_don else "")))
        elif roll < 0.8:
            friends = [p for p in nbs if p in pos.units]
            if friends:
                orders.append((gang.power, SupportHold(Unit("G", prov), Unit("G", friends[0]))))
        else:
            orders.append((gang.power, Hold(Unit("G", prov))))
    return orders


def _weekend_orders(pos, mt, rng):
    orders = []
    for prov, d in sorted(pos.dislodged.items()):
        if d.retreats and rng.random() < 0.8:
            opt = rng.choice(d.retreats)
            orders.append((d.unit.power, Move(Unit("G", prov), opt.removeprefix("U-"),
                                              route="subway" if opt.startswith("U-") else "")))
        else:
            orders.append((d.unit.power, Disband(Unit("G", prov))))
    return orders


def _adjust_orders(pos, mt):
    orders = []
    for pid, power in mt.powers.items():
        for home in power.home_centers:
            if pos.centers.get(home) == pid and home not in pos.units:
                kind = "D" if pid not in pos.dons else "G"
                orders.append((pid, Build(Unit(kind, home))))
    return orders


def _stray_orders(pos, mt, rng):
    provs = sorted(mt.provinces)
    pool = [
        lambda: Move(Unit(rng.choice("GD"), rng.choice(provs)), rng.choice(provs),
                     route="subway" if rng.random() < .3 else "",
                     escort="D" if rng.random() < .3 else ""),
        lambda: Build(Unit(rng.choice("GD"), rng.choice(provs))),
        lambda: Disband(Unit("G", rng.choice(provs))),
        lambda: PlaceDon(Unit("D", rng.choice(provs))),
        lambda: CementOvercoat(Unit("D", rng.choice(provs))),
        lambda: SupportHold(Unit("G", rng.choice(provs)), Unit("G", rng.choice(provs))),
    ]
    mobs = [None, *sorted(mt.powers)]
    return [(rng.choice(mobs), rng.choice(pool)()) for _ in range(4)]


def test_random_games_keep_the_invariants(mt):
    for seed in range(3):
        rng = random.Random(seed)
        pos = initial_position(mt)
        orders = [(pid, PlaceDon(Unit("D", rng.choice(p.home_centers))))
                  for pid, p in mt.powers.items()]
        for _ in range(40):
            result = adjudicate(pos, orders, mt)
            assert len(result.results) == len(orders)  # one result per order, in order
            pos = result.position
            assert len(pos.dons) <= 6  # rule 3
            assert len(pos.centers) <= 32
            assert all(p in mt.provinces and p != GAOL for p in pos.units)
            assert position_from_data(pos.to_data(), mt).to_data() == pos.to_data()
            if pos.phase.is_movement:
                orders = _movement_orders(pos, mt, rng)
            elif pos.phase.is_retreat:
                orders = _weekend_orders(pos, mt, rng)
            else:
                orders = _adjust_orders(pos, mt)
            orders += _stray_orders(pos, mt, rng)  # wrong phase, wrong mob, no such unit
        assert pos.phase > result.phase
