"""Random but plausible phases and orders, from a seeded random.Random.

On the standard map (:func:`random_position`, :func:`random_orders`, :func:`random_case`)
each unit gets a hold, a move to a neighbour, a support of a neighbouring unit's hold or
move, a convoy (fleets at sea next to an army), or a convoyed move; so the phases exercise
bounces, cut supports, head-to-head battles, dislodgements and convoys.

On any map, :func:`plausible_orders` gives one power's orders for the phase of a game (the
default of the ``sample_orders`` hook): each unit holds, moves to a neighbour or supports a
neighbour; dislodged units retreat where they may; builds go on free home centres.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypedDict

from mobadj.board import GameMap, province_of
from mobadj.engine.hooks import standard
from mobadj.engine.position import Phase, Position, PositionT
from mobadj.engine.topology import Topology, topology_for
from mobadj.engine.units import UnitState

if TYPE_CHECKING:
    from mobadj.engine.rules import Rules


def random_position(game_map: GameMap, rng: random.Random, n_units: int) -> Position:
    """``n_units`` units of random powers on random provinces, centres owned at random."""
    topo = topology_for(game_map)
    powers = sorted(game_map.powers)
    pos = Position(Phase(1901 + rng.randrange(10), rng.choice("SF"), "M"))
    provinces = list(topo.provinces)
    rng.shuffle(provinces)
    for prov in provinces:
        if len(pos.units) >= n_units:
            break
        kinds = [k for k in ("A", "F") for loc in topo.locations[prov] if loc in topo.neighbours[k]]
        if not kinds:
            continue
        kind = rng.choice(kinds)
        locs = [loc for loc in topo.locations[prov] if loc in topo.neighbours[kind]]
        pos.units[prov] = UnitState(rng.choice(powers), kind, rng.choice(locs))
    for sc in sorted(topo.supply_centers):
        if rng.random() < 0.8:
            pos.centers[sc] = rng.choice(powers)
    return pos


def random_orders(pos: Position, topo: Topology, rng: random.Random) -> list[tuple[str, str]]:
    """One order text per unit: (power, order)."""
    units = pos.units
    out: list[tuple[str, str]] = []
    moves: dict[str, str] = {}
    order_of = list(units.values())
    rng.shuffle(order_of)
    for u in order_of:
        nb = sorted(topo.neighbours[u.kind].get(u.location, ()))
        r = rng.random()
        if r < 0.15 or not nb:
            out.append((u.power, f"{u} H"))
        elif r < 0.65:
            dest = rng.choice(nb)
            moves[u.province] = dest
            out.append((u.power, f"{u} - {dest}"))
        elif r < 0.92:
            reach = {province_of(x) for x in nb}
            friends = [v for v in units.values() if v.province in reach]
            near = [v for v in units.values() if v.province != u.province and
                    reach & set(topo.reach[v.kind].get(v.location, ()))]
            if friends and rng.random() < 0.4:
                v = rng.choice(friends)
                out.append((u.power, f"{u} S {v}"))
            elif near:
                v = rng.choice(near)
                targets = sorted(reach & set(topo.reach[v.kind].get(v.location, ())) - {v.province})
                if targets:
                    out.append((u.power, f"{u} S {v} - {rng.choice(targets)}"))
                else:
                    out.append((u.power, f"{u} H"))
            else:
                out.append((u.power, f"{u} H"))
        else:
            if u.kind == "F" and u.province in topo.sea:
                armies = [v for v in units.values() if v.kind == "A" and
                          v.province in topo.fleet_reach[u.province]]
                if armies:
                    a = rng.choice(armies)
                    dests = sorted(p for p in topo.fleet_reach[u.province]
                                   if p in topo.coastal and p != a.province)
                    if dests:
                        out.append((u.power, f"{u} C {a} - {rng.choice(dests)}"))
                        continue
            if u.kind == "A" and u.province in topo.coastal:
                seas = sorted(s for s in topo.fleet_reach[u.province] if s in topo.sea)
                if seas:
                    s = rng.choice(seas)
                    dests = sorted(p for p in topo.fleet_reach[s]
                                   if p in topo.coastal and p != u.province)
                    if dests:
                        out.append((u.power, f"{u} - {rng.choice(dests)}"))
                        continue
            out.append((u.power, f"{u} H"))
    return out


class BatchCase(TypedDict, total=False):
    """One ``mobadj batch`` input line (docs/adjudication.md), as the benchmarks and the
    corpus write them."""

    id: str
    map: str
    phase: str
    units: dict[str, list[str]]
    centers: dict[str, list[str]]
    dislodged: dict[str, list[dict[str, str]]]
    standoffs: list[str]
    orders: dict[str, list[str]]


def random_case(game_map: GameMap, rng: random.Random, case_id: str) -> BatchCase:
    """A batch input object: a movement, retreat or adjustment phase."""
    topo = topology_for(game_map)
    pos = random_position(game_map, rng, rng.randint(20, 34))
    data = pos.to_data()
    kind = rng.random()
    orders = random_orders(pos, topo, rng)
    case: BatchCase = {"id": case_id, "map": "standard", "phase": data["phase"],
                            "units": data["units"], "centers": data["centers"]}
    if kind < 0.8:
        per: dict[str, list[str]] = {}
        for power, text in orders:
            per.setdefault(power, []).append(text)
        case["orders"] = per
        return case
    if kind < 0.9:  # retreat phase: dislodge two random units
        units = list(pos.units.values())
        rng.shuffle(units)
        dislodged: dict[str, list[dict[str, str]]] = {}
        rorders: dict[str, list[str]] = {}
        for u in units[:2]:
            attackers = sorted(topo.reach[u.kind].get(u.location, ()))
            if not attackers:
                continue
            dislodged.setdefault(u.power, []).append(
                {"unit": str(u), "from": rng.choice(attackers)})
            nb = sorted(topo.neighbours[u.kind].get(u.location, ()))
            if nb:
                rorders.setdefault(u.power, []).append(f"{u} - {rng.choice(nb)}")
        for d in dislodged.values():
            for entry in d:
                prov = province_of(entry["unit"].split()[1])
                case["units"] = {p: [x for x in v if province_of(x.split()[1]) != prov]
                                 for p, v in case["units"].items()}
        case["phase"] = case["phase"][:-1] + "R"
        case["dislodged"] = dislodged
        case["standoffs"] = []
        case["orders"] = rorders
        return case
    case["phase"] = f"W{case['phase'][1:-1]}A"  # adjustment phase
    aorders: dict[str, list[str]] = {}
    for power in sorted(game_map.powers):
        n_c = sum(1 for o in pos.centers.values() if o == power)
        n_u = sum(1 for u in pos.units.values() if u.power == power)
        if n_c > n_u:
            for home in game_map.powers[power].home_centers:
                if home not in pos.units:
                    aorders.setdefault(power, []).append(f"Build A {home}")
        elif n_u > n_c:
            mine = [u for u in pos.units.values() if u.power == power]
            for u in mine[: max(0, n_u - n_c - 1)]:
                aorders.setdefault(power, []).append(f"Remove {u}")
    case["orders"] = aorders
    return case


def plausible_orders(position: PositionT, power: str, topology: Topology,
                     rules: Rules[PositionT], rng: random.Random) -> list[str]:
    """Random but plausible orders of ``power`` for the phase of ``position`` (none for a
    phase that is neither movement, retreats nor adjustments: a variant's hook knows it)."""
    phase = position.phase
    if phase.is_movement:
        return _movement(position, power, topology.game_map, rng)
    if phase.is_retreat:
        mine = sorted((d for d in position.dislodged.values() if d.unit.power == power),
                      key=lambda d: d.unit.location)
        return [f"{d.unit} - {rng.choice(d.retreats)}" if d.retreats and rng.random() < 0.8
                else f"{d.unit} disband" for d in mine]
    if phase.is_adjustment:
        return _adjustments(position, power, topology, rules, rng)
    return []


def _movement(position: Position, power: str, game_map: GameMap,
              rng: random.Random) -> list[str]:
    units = position.units
    lines = []
    for u in sorted(position.units_of(power), key=str):
        near = sorted(game_map.neighbours(u.kind, u.location))
        r = rng.random()
        if r < 0.55 and near:
            lines.append(f"{u} - {rng.choice(near)}")
            continue
        if r < 0.8 and near:
            friends = [loc for loc in near if province_of(loc) in units]
            if friends:
                lines.append(f"{u} S {units[province_of(rng.choice(friends))]}")
                continue
        lines.append(f"{u} H")
    return lines


def _adjustments(position: PositionT, power: str, topology: Topology,
                 rules: Rules[PositionT], rng: random.Random) -> list[str]:
    game_map = topology.game_map
    delta = rules.adjustment_counts(position).get(power, 0)
    if delta < 0:
        mine = sorted(position.units_of(power), key=str)
        return [f"Remove {u}" for u in mine[:-delta]]  # as the rules write a removal
    owned = set(position.centers_of(power))
    sites = (game_map.powers[power].home_centers if standard(rules, "build_sites")
             else sorted(rules.build_sites(position, power, topology)))
    free = [c for c in sites if c in owned and c not in position.units]
    rng.shuffle(free)
    lines = []
    for center in free[:delta]:
        kind = next((k for k in game_map.unit_kinds if game_map.can_occupy(k, center)), None)
        if kind is not None:
            lines.append(f"Build {kind} {center}")
    return lines
