"""The standard phases the batch benchmarks feed to mobadj and to the ``diplomacy`` package.

Movement and adjustment phases are the cross-checker's (``tools/crosscheck/generate.py``:
clustered positions, supports, convoys, head-to-head battles, builds and removals, some of
them illegal); after each movement phase that dislodges a unit comes the retreat phase that
follows it, with the generator's retreat plan as its orders.  Every line is a ``mobadj
batch`` input object; the same lines go to both adjudicators.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mobadj.board import load_map
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import position_from_data
from mobadj.orders.parser import parser_for
from tools.crosscheck.generate import generate


def _retreat_phase(case: dict[str, Any]) -> dict[str, Any] | None:
    """The retreat phase after movement ``case`` (None: nobody was dislodged)."""
    game_map = load_map("standard")
    parser = parser_for(game_map)
    pairs = [(game_map.power_id(p), parser.parse_order(t))
             for p, texts in case["orders"].items() for t in texts]
    after = adjudicate(position_from_data(case, game_map), pairs, game_map).position
    if not after.dislodged:
        return None
    data = after.to_data()
    dislodged = {d.unit.location: d.unit.power for d in after.dislodged.values()}
    orders: dict[str, list[str]] = {}
    for power, texts in case["retreat_plan"].items():
        for text in texts:
            if dislodged.get(text.split()[1]) == power:
                orders.setdefault(power, []).append(text)
    return {"id": f"{case['id']}R", "map": "standard", "phase": data["phase"],
            "units": data["units"], "centers": data["centers"],
            "dislodged": data["dislodged"], "standoffs": data["standoffs"],
            "orders": orders}


def phases(seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` batch input objects: the generator's cases, each movement phase followed by
    its retreat phase when it dislodged a unit."""
    made = 0
    for case in generate(seed, count):
        plan = case.pop("retreat_plan", None)
        yield case
        made += 1
        if made == count:
            return
        if plan is not None:
            retreat = _retreat_phase({**case, "retreat_plan": plan})
            if retreat is not None:
                yield retreat
                made += 1
                if made == count:
                    return


def write(path: Path, seed: int, count: int) -> Path:
    """Write ``count`` phases as JSON lines to ``path``."""
    with path.open("w", encoding="utf-8") as out:
        for case in phases(seed, count):
            out.write(json.dumps(case) + "\n")
    return path
