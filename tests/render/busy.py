"""Busy Mobtown II turns, generated from a seed: some forty Gangs of six mobs, their Dons
(some captive), a Gang or two in gaol, and an order for every Gang, about half of them
moves (over and under ground, some with the Don) and most of the rest supports of those
moves or of holds, as a September 1919 turn of a real game looks."""

from __future__ import annotations

import random

from mobadj.board import GameMap
from mobadj.engine import adjudicate, position_from_data
from mobadj.mobtown.rules import MobtownRules
from mobadj.mobtown.terms import GAOL, ground_link, subway_link
from mobadj.orders.model import Hold, Move, SupportHold, SupportMove, Unit


def busy_turn(mt: GameMap, seed: int, gangs: int = 41):
    """(position data, position, orders) of one generated turn."""
    rng = random.Random(seed)
    spaces = sorted(p for p, prov in mt.provinces.items()
                    if prov.terrain not in ("impassable", "gaol"))
    mobs = sorted(mt.powers)
    chosen = rng.sample(spaces, gangs)
    owner = {sp: mobs[i % len(mobs)] for i, sp in enumerate(chosen)}
    units: dict[str, list[str]] = {m: [f"G {sp}" for sp in chosen if owner[sp] == m]
                                   for m in mobs}
    for m in mobs:
        if rng.random() < 0.8:
            units[m].append(f"D {rng.choice([sp for sp in chosen if owner[sp] == m])}")
        elif rng.random() < 0.6:
            units[m].append(f"D {rng.choice([sp for sp in chosen if owner[sp] != m])} captive")
    taken = {u.split()[1] for lst in units.values() for u in lst if u.startswith("D")}
    units = {m: [u for u in lst if not (u.endswith("captive") and
                                        sum(u.split()[1] == t for t in taken) > 1)]
             for m, lst in units.items()}
    for _ in range(rng.randint(0, 2)):
        units[rng.choice(mobs)].append(f"G {GAOL}")
    centers: dict[str, list[str]] = {}
    for sc in sorted(mt.supply_centers):
        if rng.random() < 0.85:
            centers.setdefault(rng.choice(mobs), []).append(sc)
    data = {"phase": "1919-09-W2-M", "units": units, "centers": centers}
    pos = position_from_data(data, mt)
    dons = {where: mob for mob, where in pos.dons.items()}
    orders = []
    moves: list[tuple[str, str]] = []
    rest = []
    for sp, gang in sorted(pos.units.items()):
        nbs = sorted(n for n in mt.neighbours("G", sp) if n != GAOL)
        if nbs and rng.random() < 0.5:
            dest = rng.choice(nbs)
            edge = mt.edge("G", sp, dest)
            under = not ground_link(edge) or (subway_link(edge) and rng.random() < 0.5)
            with_don = dons.get(sp) == gang.power and rng.random() < 0.7
            orders.append((gang.power, Move(Unit("G", sp), dest,
                                            route="subway" if under else "",
                                            escort="D" if with_don else "")))
            if not under:
                moves.append((sp, dest))
        else:
            rest.append((sp, gang))
    for sp, gang in rest:
        reach = {n for n in mt.neighbours("G", sp) if ground_link(mt.edge("G", sp, n))}
        helped = [(src, dst) for src, dst in moves if dst in reach and src != sp]
        held = sorted(n for n in reach if n in pos.units and all(n != s for s, _ in moves))
        roll = rng.random()
        if helped and roll < 0.6:
            src, dst = rng.choice(helped)
            orders.append((gang.power, SupportMove(Unit("G", sp), Unit("G", src), dst)))
        elif held and roll < 0.85:
            orders.append((gang.power, SupportHold(Unit("G", sp), Unit("G", rng.choice(held)))))
        else:
            orders.append((gang.power, Hold(Unit("G", sp))))
    return data, pos, orders


def busy_pictures(mt: GameMap, seed: int) -> dict[str, object]:
    """The two pictures of a turn the program draws: the position before it with every
    order (the game pages) and the position after it with its moves and supports
    (``mobadj adjudicate --picture``, the judge's results)."""
    from mobadj.render.position import as_view, moves_from_results, supports_from_results

    rules = MobtownRules()
    data, pos, orders = busy_turn(mt, seed)
    result = adjudicate(pos, orders, mt, rules)
    published = [r.as_dict() for r in result.results]
    before = as_view(mt, {**data, "caption": "before"})
    before.moves.extend(moves_from_results(mt, published))
    before.supports.extend(supports_from_results(mt, published))
    return {"before": before, "after": rules.picture_data(result), "result": result}
