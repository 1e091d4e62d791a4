"""Standard games from the opening position, every phase a ``mobadj batch`` input line: the
phases the batch benchmarks feed to mobadj and to the other adjudicators.

Each game starts in Spring 1901 with the seven powers' opening units and home centres and is
played, phase after phase, with random but legal-looking orders: in movement phases those of
the cross-checker's generator (``tools/crosscheck/generate.py``: moves to contested
provinces, supports of real moves, convoys, head-to-head battles, now and then a unit
without orders), in retreat phases its retreat plan (a retreat, now and then a disband or
no order), in adjustment phases builds on free home centres and removals.  mobadj
adjudicates each phase to give the next one.  Every home centre stays owned, as in a real
game (some adjudicators assume that); positions hold 20 to 34 units.  The same seed always
gives the same lines.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mobadj.board import load_map
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import Position, standard_initial_position
from mobadj.engine.topology import Topology, topology_for
from mobadj.orders.parser import parser_for
from tools.crosscheck.generate import movement_orders, retreat_plan

LAST_YEAR = 1912
"""A game ends after this year's adjustments (or at its first phase past it)."""


def _units(position: Position) -> dict[str, tuple[str, str, str]]:
    """Province -> (power, kind, location): the shape the generator takes, in the order of
    the provinces (the engine's order of a position's units may follow the hash seed)."""
    return {prov: (u.power, u.kind, u.location) for prov, u in sorted(position.units.items())}


def _orders(position: Position, topo: Topology, rng: random.Random) -> dict[str, list[str]]:
    """Each power's orders for the phase of ``position``."""
    phase = position.phase
    texts: dict[str, str] = {}  # province -> order
    owner: dict[str, str] = {}
    if phase.is_movement:
        units = _units(position)
        texts = movement_orders(topo, units, rng)
        owner = {prov: power for prov, (power, _, _) in units.items()}
    elif phase.is_retreat:
        dislodged = {prov: (d.unit.power, d.unit.kind, d.unit.location)
                     for prov, d in sorted(position.dislodged.items())}
        plan = retreat_plan(topo, dislodged, rng)
        for prov, d in position.dislodged.items():
            if prov in plan and d.retreats and " R " in plan[prov]:
                plan[prov] = f"{d.unit} R {rng.choice(sorted(d.retreats))}"
        texts, owner = plan, {prov: d.unit.power for prov, d in position.dislodged.items()}
    else:
        out: dict[str, list[str]] = {}
        for power in sorted(topo.game_map.powers):
            n = sum(1 for o in position.centers.values() if o == power) - sum(
                1 for u in position.units.values() if u.power == power)
            if n > 0:
                free = [h for h in sorted(topo.homes[power])
                        if position.centers.get(h) == power and h not in position.units]
                rng.shuffle(free)
                for home in free[:n]:
                    locs = [(k, loc) for loc in topo.locations[home] for k in ("A", "F")
                            if loc in topo.neighbours[k]]
                    kind, loc = rng.choice(locs)
                    out.setdefault(power, []).append(f"Build {kind} {loc}")
            elif n < 0:
                mine = sorted(str(u) for u in position.units.values() if u.power == power)
                rng.shuffle(mine)
                out[power] = [f"Remove {u}" for u in mine[:-n]]
        return out
    by_power: dict[str, list[str]] = {}
    for prov, text in sorted(texts.items()):
        by_power.setdefault(owner[prov], []).append(text)
    return by_power


def _line(position: Position, orders: dict[str, list[str]], case_id: str) -> dict[str, Any]:
    data = position.to_data()
    line: dict[str, Any] = {"id": case_id, "map": "standard", "phase": data["phase"],
                            "units": data["units"], "centers": data["centers"]}
    if position.phase.is_retreat:
        line["dislodged"] = {p: [{k: e[k] for k in ("unit", "from", "convoyed") if k in e}
                                 for e in lst]
                             for p, lst in data["dislodged"].items()}
        line["standoffs"] = data["standoffs"]
    line["orders"] = orders
    return line


def games(seed: int) -> Iterator[dict[str, Any]]:
    """Batch input lines, game after game, without end."""
    game_map = load_map("standard")
    topo = topology_for(game_map)
    parser = parser_for(game_map)
    rng = random.Random(seed)
    game = 0
    while True:
        position = standard_initial_position(game_map)
        n = 0
        while position.phase.year <= LAST_YEAR:
            orders = _orders(position, topo, rng)
            yield _line(position, orders, f"g{game}-{n}")
            pairs = [(power, parser.parse_order(text)) for power, texts in orders.items()
                     for text in texts]
            position = adjudicate(position, pairs, game_map).position
            n += 1
        game += 1


def phases(seed: int, count: int) -> Iterator[dict[str, Any]]:
    """The first ``count`` lines of :func:`games`."""
    for n, line in enumerate(games(seed)):
        if n == count:
            return
        yield line


def write(path: Path, seed: int, count: int) -> Path:
    """Write ``count`` phases as JSON lines to ``path``."""
    with path.open("w", encoding="utf-8") as out:
        for line in phases(seed, count):
            out.write(json.dumps(line) + "\n")
    return path


__all__ = ["games", "phases", "write"]
