"""Only hidden moves are called hidden: in random games of every game, a move that some
seat sees nothing of is one of the game's hidden moves (``HIDDEN_MOVES``: a sealed bet, a
face-down offer), told without its content; every other move is logged for all, as what it
is ("P2 ends the preparation phase")."""

from __future__ import annotations

import random

import pytest

from mobadj.cards import report
from mobadj.cards.registry import game_class

TABLES = [("micromob", 3, None), ("micromob", 2, {"hands": "secret"}), ("miceheist", 3, None),
          ("irontriangle", 4, None), ("microcity", 1, None), ("microcity", 2, None),
          ("microcity", 2, {"mode": "competitive"})]


@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_a_move_nobody_else_sees_is_a_hidden_move(game, players, options) -> None:
    hidden = set(report._render_of(game).__dict__.get("HIDDEN_MOVES", {}))
    told = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game_class(game).new(players, seed, options)
        while not state.is_over():
            player = rng.choice(state.to_act())
            action = rng.choice(state.legal_actions(player))
            before = len(state.events)
            state.apply(player, action)
            new = state.events[before:]
            blind = [q for q in range(players) if q != player
                     and not any(e.visible(q) for e in new)]
            word = str(action).split()[0].lower()
            if blind:
                assert word in hidden, (game, str(action))
                narrated = report.narration(state, player, str(action), new)
                assert narrated is not None and str(action) not in narrated.text
                told += 1
            else:
                assert report.narration(state, player, str(action), new) is None
    assert told or not hidden


def test_micro_city_tells_the_partner_that_preparation_ended() -> None:
    state = game_class("microcity").new(2, 3, {"mode": "competitive"})
    rng = random.Random(3)
    while not any(e.text.endswith("ends the preparation phase") for e in state.events):
        p = state.to_act()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    event = next(e for e in state.events if e.text.endswith("ends the preparation phase"))
    assert event.visible_to is None and "cannot see" not in event.text
