"""Golden records of seeded micro mob games, so speed work can prove it changed no game.

``record()`` plays seeded games with random (and bot) choices and keeps, per game, digests of
the action log, every legal-action list in order, the events and the final snapshot, plus
the scores; and the ``--simulate`` JSON (minus its timing).  The games are played under
the readings of rulings 1, when they were recorded: secret hands (public hands change only
the events) and ``expand=unlimited`` (rulings 3 stops the city at its 5th or 7th card).
Bot games use the first bot (level "basic"), which is kept unchanged, so improving the
default bot changes no record.
The test compares a fresh record with ``data/golden.json``.  Regenerate (only for a
deliberate rules change) with ``python tests/cards/micromob/mm_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from mobadj.cards.micromob.bot import MicroMobBasicBot
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import RandomBot
from mobadj.cards.simulate import simulate

GOLDEN = Path(__file__).resolve().parent / "data" / "golden.json"
# (players, modules, seeds, bots): mostly the benchmark's 4 players / 4 modules
GAMES = [(4, 4, range(30), False), (2, 1, range(4), False), (3, 3, range(4), False),
         (5, 6, range(4), False), (6, 6, range(4), False), (4, 4, range(100, 104), True)]
SIMULATE = {"games": 300, "seed": 7, "players": 4,
            "options": {"modules": 4, "expand": "unlimited"}}


def _digest(items: Any) -> str:
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()[:20]


def play(players: int, modules: int, seed: int, bots: bool) -> dict[str, Any]:
    """One seeded game, chosen like ``simulate`` does; digests of all it produced."""
    state = MicroMobState.new(players, seed, {"modules": modules, "hands": "secret",
                                                "expand": "unlimited"})
    chooser = MicroMobBasicBot() if bots else RandomBot()
    rng = random.Random(seed ^ 0x5EED)
    legal = hashlib.sha256()
    while not state.is_over():
        player = state.to_act()[0]
        legal.update(("|".join(map(str, state.legal_actions(player))) + "\n").encode())
        state.apply(player, chooser.choose(state, player, rng))
        assert not state.check_invariants()
    snap = state.snapshot()
    return {
        "game": f"{players}p{modules}m seed {seed}" + (" bots" if bots else ""),
        "length": len(state.actions),
        "scores": state.scores(),
        "winners": state.winners(),
        "kingpin": state.kingpin,
        "actions": _digest(state.actions),
        "legal": legal.hexdigest()[:20],
        "events": _digest(snap.pop("events")),
        "snapshot": _digest(snap),
    }


def record() -> dict[str, Any]:
    games = [play(p, m, s, b) for p, m, seeds, b in GAMES for s in seeds]
    sim = simulate("micromob", **SIMULATE)
    sim.pop("seconds_per_game")
    return {"games": games, "simulate": sim}


if __name__ == "__main__":
    data = record()
    lines = ",\n  ".join(json.dumps(g) for g in data["games"])
    text = f'{{"games": [\n  {lines}\n ],\n "simulate": {json.dumps(data["simulate"])}}}\n'
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN}")
