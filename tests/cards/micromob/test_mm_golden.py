"""Seeded games are exactly what they were: same legal actions (in order), moves, events,
final state and scores, and the same ``--simulate 300 --seed 7`` JSON (see mm_golden.py).

The engine's fast paths (legal-action caches, precomputed card tables) must never change a
game; this is the check.
"""

from __future__ import annotations

import json

import pytest
from mm_golden import GAMES, GOLDEN, SIMULATE, play

from mobadj.cards.simulate import simulate

EXPECTED = json.loads(GOLDEN.read_text(encoding="utf-8"))
CASES = [(p, m, s, b) for p, m, seeds, b in GAMES for s in seeds]


def test_golden_covers_every_recorded_game():
    assert len(EXPECTED["games"]) == len(CASES) == 50


@pytest.mark.parametrize(("index", "case"), list(enumerate(CASES)),
                         ids=[e["game"] for e in EXPECTED["games"]])
def test_seeded_game_is_unchanged(index, case):
    assert play(*case) == EXPECTED["games"][index]


def test_simulate_json_is_unchanged():
    result = simulate("micromob", **SIMULATE)
    assert result.pop("seconds_per_game") > 0
    assert result == EXPECTED["simulate"]
