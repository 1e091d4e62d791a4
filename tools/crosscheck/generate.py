"""Random but plausible standard-map phases for cross-checking (docs/crosscheck.md).

Every case comes from its own ``random.Random(f"{seed}:{index}")``, so a single case can be
regenerated from its id alone.  Positions are clustered (units of a power sit near each
other, all units near a few hot spots) so that orders interact: supports (many of them for
moves that were really ordered), cut supports, moves into each other, circular moves,
convoys along chains of one to four fleets, fleet moves to split coasts.  Every order is
legal on the map, so both adjudicators see the same orders.

Output: one batch input object per line (the ``mobadj batch`` contract), plus a
``retreat_plan`` for movement phases: for every unit a retreat order (or a disband) to be
given if the unit is dislodged; the runner turns it into the retreat phase that follows.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from mobadj.board import load_map, province_of
from mobadj.engine.topology import Topology, topology_for

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


Units = dict[str, tuple[str, str, str]]  # province -> (power, kind, location)


def _place_units(topo: Topology, rng: random.Random, n_units: int,
                 naval: bool = False) -> Units:
    """``{province: (power, kind, location)}`` clustered around a few hot spots.

    ``naval``: the hot spots are seas, fleets go to sea and armies to the coast (a
    position full of convoys, attacks on convoying fleets and convoy paradoxes)."""
    provs = [p for p in topo.provinces if any(
        loc in topo.neighbours[k] for k in ("A", "F") for loc in topo.locations[p])]
    if naval:
        provs = [p for p in provs if p in topo.sea or p in topo.coastal]
    hot = rng.sample([p for p in provs if not naval or p in topo.sea], rng.randint(1, 3))
    dist = topo.distances()
    weight = {p: 1.0 / (1 + min(dist[h].get(p, 9) for h in hot)) ** 1.5 for p in provs}
    units: dict[str, tuple[str, str, str]] = {}
    owners = list(POWERS)
    rng.shuffle(owners)
    owners = owners[: rng.randint(2, 5)]
    anchor = {pw: rng.choice(provs) for pw in owners}
    while len(units) < n_units:
        free = [p for p in provs if p not in units]
        prov = rng.choices(free, [weight[p] for p in free])[0]
        kinds = [k for k in ("A", "F")
                 if any(loc in topo.neighbours[k] for loc in topo.locations[prov])]
        kind = rng.choice(kinds)
        if naval and len(kinds) == 2:
            kind = "A" if rng.random() < 0.7 else "F"
        locs = [loc for loc in topo.locations[prov] if loc in topo.neighbours[kind]]
        # the power whose anchor is nearest, most of the time
        if rng.random() < 0.75:
            power = min(owners, key=lambda pw: (dist[anchor[pw]].get(prov, 9), rng.random()))
        else:
            power = rng.choice(owners)
        units[prov] = (power, kind, rng.choice(locs))
    return units


def _convoy_chains(topo: Topology, units: dict[str, tuple[str, str, str]], army: str,
                   rng: random.Random) -> list[tuple[list[str], str]]:
    """Chains (fleet provinces, destination) that could carry the army in ``army``."""
    fleets_at_sea = {p for p, (_, k, _) in units.items() if k == "F" and p in topo.sea}
    out: list[tuple[list[str], str]] = []
    start = [s for s in sorted(topo.fleet_reach[army]) if s in fleets_at_sea]
    frontier = [[s] for s in start]
    while frontier:
        chain = frontier.pop()
        last = chain[-1]
        for p in sorted(topo.fleet_reach[last]):
            if p in topo.coastal and p != army:
                out.append((chain, p))
            if p in fleets_at_sea and p not in chain and len(chain) < 4:
                frontier.append(chain + [p])
    return out


def _support_move_targets(topo: Topology, supporter: tuple[str, str, str],
                          mover: tuple[str, str, str], mover_prov: str) -> list[str]:
    """Provinces the mover could move to and the supporter could reach (not the supporter's)."""
    _, sk, sloc = supporter
    _, mk, mloc = mover
    sup_reach = topo.reach[sk].get(sloc, frozenset())
    mov_reach = topo.reach[mk].get(mloc, frozenset())
    return sorted((sup_reach & mov_reach) - {province_of(sloc), mover_prov})


def _attack_convoy(topo: Topology, units: Units, orders: dict[str, str],
                   moves: dict[str, str], chain: list[str], dest: str,
                   rng: random.Random) -> None:
    """The unit at a convoy's destination supports an attack on a convoying fleet (the
    shape of every convoy paradox, DATC 6.F.14-6.F.24), when some unit can make it."""
    _, dk, dloc = units[dest]
    for f in rng.sample(chain, len(chain)):
        if f not in topo.reach[dk].get(dloc, frozenset()):
            continue
        attackers = [p for p in units if p not in orders and p not in (dest, f)
                     and f in topo.reach[units[p][1]].get(units[p][2], frozenset())]
        if not attackers:
            continue
        a = rng.choice(attackers)
        _, ak, aloc = units[a]
        target = sorted(x for x in topo.neighbours[ak][aloc] if province_of(x) == f)[0]
        orders[a] = f"{ak} {aloc} - {target}"
        moves[a] = f
        orders[dest] = f"{dk} {dloc} S {ak} {aloc} - {f}"
        return


def movement_orders(topo: Topology, units: dict[str, tuple[str, str, str]],
                    rng: random.Random, convoy_share: float = 0.45) -> dict[str, str]:
    """``{province: order text}``, one legal order per unit."""
    orders: dict[str, str] = {}
    moves: dict[str, str] = {}  # province -> destination province (ordered moves)

    def unit_text(prov: str) -> str:
        _, k, loc = units[prov]
        return f"{k} {loc}"

    provs = list(units)
    rng.shuffle(provs)
    # 1. convoys: some coastal armies with fleets at sea next to them
    for prov in provs:
        _, kind, _ = units[prov]
        if kind != "A" or prov not in topo.coastal or rng.random() > convoy_share:
            continue
        chains = [c for c in _convoy_chains(topo, units, prov, rng)
                  if not any(f in orders for f in c[0])]
        if not chains:
            continue
        chain, dest = rng.choice(chains)
        adjacent = dest in topo.reach["A"].get(prov, frozenset())
        via = " VIA CONVOY" if adjacent or rng.random() < 0.15 else ""
        orders[prov] = f"{unit_text(prov)} - {dest}{via}"
        moves[prov] = dest
        for f in chain:
            if rng.random() < 0.93:  # now and then a fleet forgets its convoy order
                orders[f] = f"{unit_text(f)} C {unit_text(prov)} - {dest}"
        if dest in units and dest not in orders and rng.random() < 0.5:
            _attack_convoy(topo, units, orders, moves, chain, dest, rng)
    # 2. moves: prefer occupied or contested destinations; some swaps and rings
    for prov in provs:
        if prov in orders or rng.random() > 0.5:
            continue
        _, kind, loc = units[prov]
        nb = sorted(topo.neighbours[kind].get(loc, ()))
        if not nb:
            continue
        occupied = [x for x in nb if province_of(x) in units]
        pool = occupied if occupied and rng.random() < 0.6 else nb
        dest = rng.choice(pool)
        shown = dest
        if "/" in dest and rng.random() < 0.3:
            shown = province_of(dest)  # coast left out (DATC 6.B.1, 6.B.2)
        orders[prov] = f"{unit_text(prov)} - {shown}"
        moves[prov] = province_of(dest)
        other = province_of(dest)
        if other in units and other not in orders and rng.random() < 0.3:
            _, k2, loc2 = units[other]
            back = [x for x in topo.neighbours[k2].get(loc2, ()) if province_of(x) == prov]
            if back:  # head-to-head
                orders[other] = f"{unit_text(other)} - {rng.choice(sorted(back))}"
                moves[other] = prov
    # 3. supports (for real moves most of the time), holds
    for prov in provs:
        if prov in orders:
            continue
        power, kind, loc = units[prov]
        reach = topo.reach[kind].get(loc, frozenset())
        r = rng.random()
        if r < 0.12:
            orders[prov] = f"{unit_text(prov)} H"
            continue
        near_moves = [m for m, d in moves.items() if d in reach and d != prov and m != prov]
        near_units = [p for p in units if p in reach and p != prov]
        if near_moves and r < 0.75:
            m = rng.choice(near_moves)
            target = moves[m]
            coast = orders[m].split(" - ")[-1].split()[0]
            if "/" in coast and rng.random() < 0.5:
                target = coast  # the coast named in the support too (DATC 6.B.9)
                others = [x for x in topo.locations[province_of(coast)]
                          if "/" in x and x != coast]
                if others and rng.random() < 0.2:
                    target = others[0]  # the wrong coast: the support fails (6.B.9)
            orders[prov] = f"{unit_text(prov)} S {unit_text(m)} - {target}"
            continue
        if near_units and r < 0.88:
            orders[prov] = f"{unit_text(prov)} S {unit_text(rng.choice(near_units))}"
            continue
        candidates = [p for p in units if p != prov and _support_move_targets(
            topo, units[prov], units[p], p)]
        if candidates and r < 0.95:
            m = rng.choice(candidates)
            dest = rng.choice(_support_move_targets(topo, units[prov], units[m], m))
            orders[prov] = f"{unit_text(prov)} S {unit_text(m)} - {dest}"
            continue
        nb = sorted(topo.neighbours[kind].get(loc, ()))
        orders[prov] = f"{unit_text(prov)} - {rng.choice(nb)}" if nb else f"{unit_text(prov)} H"
    # 4. a few units get no order at all (they hold)
    for prov in list(orders):
        if rng.random() < 0.03:
            del orders[prov]
    return orders


def retreat_plan(topo: Topology, units: dict[str, tuple[str, str, str]],
                 rng: random.Random) -> dict[str, str]:
    """For each unit, the retreat (or disband) its owner would order if it were dislodged."""
    plan: dict[str, str] = {}
    for prov, (_, kind, loc) in units.items():
        nb = sorted(topo.neighbours[kind].get(loc, ()))
        free = [x for x in nb if province_of(x) not in units] or nb
        if not nb or rng.random() < 0.1:
            plan[prov] = f"{kind} {loc} D"
        elif rng.random() < 0.1:
            continue  # no order: the unit disbands
        else:
            plan[prov] = f"{kind} {loc} R {rng.choice(free if rng.random() < 0.7 else nb)}"
    return plan


def _centers(topo: Topology, units: dict[str, tuple[str, str, str]],
             rng: random.Random) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for sc in sorted(topo.supply_centers):
        if sc in units and rng.random() < 0.7:
            out.setdefault(units[sc][0], []).append(sc)
        elif rng.random() < 0.8:
            home = [pw for pw in POWERS if sc in topo.homes[pw]]
            owner = home[0] if home and rng.random() < 0.6 else rng.choice(POWERS)
            out.setdefault(owner, []).append(sc)
    return out


def _by_power(units: Units, texts: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for prov, text in sorted(texts.items()):
        out.setdefault(units[prov][0], []).append(text)
    return out


def movement_case(topo: Topology, rng: random.Random, case_id: str,
                  naval_share: float = 0.3) -> dict[str, Any]:
    naval = rng.random() < naval_share
    units = _place_units(topo, rng, rng.randint(10, 34), naval)
    orders = movement_orders(topo, units, rng, 0.8 if naval else 0.45)
    plan = retreat_plan(topo, units, rng)
    unit_lists: dict[str, list[str]] = {}
    for _, (pw, k, loc) in sorted(units.items()):
        unit_lists.setdefault(pw, []).append(f"{k} {loc}")
    return {
        "id": case_id, "map": "standard",
        "phase": f"{rng.choice('SF')}{1901 + rng.randrange(10)}M",
        "units": unit_lists, "centers": _centers(topo, units, rng),
        "orders": _by_power(units, orders),
        "retreat_plan": _by_power(units, plan),
    }


def adjustment_case(topo: Topology, rng: random.Random, case_id: str) -> dict[str, Any]:
    """A winter phase: some powers build (sometimes too many, on occupied or foreign
    centres), some remove (sometimes too few: the rules' default removals)."""
    units = _place_units(topo, rng, rng.randint(10, 30))
    centers = _centers(topo, units, rng)
    unit_lists: dict[str, list[str]] = {}
    for _, (pw, k, loc) in sorted(units.items()):
        unit_lists.setdefault(pw, []).append(f"{k} {loc}")
    orders: dict[str, list[str]] = {}
    for pw in POWERS:
        n_c = len(centers.get(pw, []))
        mine = [f"{k} {loc}" for _, (p, k, loc) in sorted(units.items()) if p == pw]
        diff = n_c - len(mine)
        if diff > 0:
            homes = sorted(h for h in topo.homes[pw] if h in centers.get(pw, []))
            rng.shuffle(homes)
            for h in homes[: diff + rng.choice((0, 0, 1))]:
                kinds = []
                for loc in topo.locations[h]:
                    kinds += [(k, loc) for k in ("A", "F") if loc in topo.neighbours[k]]
                k, loc = rng.choice(kinds)
                r = rng.random()
                if r < 0.1:
                    orders.setdefault(pw, []).append("Waive")
                    continue
                if r < 0.25:  # coast left out (DATC 4.B.7) or a centre that is no home
                    loc = province_of(loc) if "/" in loc else rng.choice(
                        sorted(centers.get(pw, [h])))
                orders.setdefault(pw, []).append(f"Build {k} {loc}")
        elif diff < 0:
            rng.shuffle(mine)
            n = -diff - (1 if rng.random() < 0.3 else 0)
            for u in mine[:n]:
                orders.setdefault(pw, []).append(f"Remove {u}")
    return {
        "id": case_id, "map": "standard", "phase": f"W{1901 + rng.randrange(10)}A",
        "units": unit_lists, "centers": centers, "orders": orders,
    }


def generate(seed: int, count: int, start: int = 0, adjust_share: float = 0.1):
    """Yield ``count`` cases; case ``i`` depends only on (seed, i)."""
    topo = topology_for(load_map("standard"))
    for i in range(start, start + count):
        rng = random.Random(f"{seed}:{i}")
        case_id = f"{seed}:{i}"
        if rng.random() < adjust_share:
            yield adjustment_case(topo, rng, case_id)
        else:
            yield movement_case(topo, rng, case_id)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    args = ap.parse_args(argv)
    for case in generate(args.seed, args.count, args.start):
        sys.stdout.write(json.dumps(case) + "\n")


if __name__ == "__main__":
    main()
