"""Exact replay from the record, the seed commitment, and undo where the rules allow."""

from __future__ import annotations

import json

import pytest
from mh_helpers import new, random_game, select

from mobadj.cards.protocol import IllegalAction
from mobadj.cards.record import GameRecord, seed_commitment, undo_last


def same(a, b) -> None:
    for q in [None, *range(a.players)]:
        assert a.view(q) == b.view(q)
        assert a.history(q) == b.history(q)
    assert a.scores() == b.scores() and a.rng.getstate() == b.rng.getstate()


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_finished_game_replays_exactly(players: int, seed: int) -> None:
    state = random_game(players, seed)
    assert state.is_over()
    record = GameRecord.of("miceheist", state)
    same(record.replay(), state)
    data = record.to_json(reveal_seed=True)
    json.dumps(data)
    assert data["seed"] == seed and data["seed_commitment"] == seed_commitment("miceheist", seed)
    assert data["deck_version"] == "1" and "mice-heist" in data["rules_version"]


def test_replay_midway_and_seed_hidden_until_revealed() -> None:
    state = random_game(4, 7, upto=40)
    record = GameRecord.of("miceheist", state)
    same(record.replay(), state)
    assert "seed" not in record.to_json()


def test_undo_select_plain_skill_and_test_but_not_a_learned_draw() -> None:
    # ruling R13: undo until something is drawn or revealed (chips, a market card, bets)
    s = new(4, 1)
    t = s.tester
    s.command(t, "select A")
    back = undo_last("miceheist", s, t)
    assert back.phase == "select" and back.actions == []
    s = new(4, 1)
    select(s, "A")
    plain = [k for k in s.skills[t] if not any(e.kind == "draw" for e in s.data.skills[k].effects)]
    key = plain[0]
    chip = " on 1" if any(e.kind in ("flip", "cancel") for e in s.data.skills[key].effects) else ""
    s.command(t, f"use {key}{chip}")
    back = undo_last("miceheist", s, t)
    assert back.phase == "activate" and not back.covered[t]
    # the test itself only adds up public chips: it may be taken back
    s.command(t, "test")
    back = undo_last("miceheist", s, t)
    assert back.phase == "activate" and back.actions == s.actions[:-1]


def test_undo_of_a_learned_skill_that_deals_the_market_is_refused() -> None:
    for seed in range(60):
        s = new(3, seed)
        t = s.tester
        select(s, "A")
        s.command(t, "test")
        if s.phase == "learn" and s.deck:
            break
    else:
        pytest.fail("no failed test with a market to learn from")
    s.command(t, f"learn {s.market[0]}")
    with pytest.raises(IllegalAction, match="drew or turned up something hidden"):
        undo_last("miceheist", s, t)


def test_undo_a_drawing_skill_is_refused() -> None:
    for seed in range(40):
        s = new(3, seed)
        t = s.tester
        drawing = [
            k for k in s.skills[t] if any(e.kind == "draw" for e in s.data.skills[k].effects)
        ]
        if drawing:
            break
    select(s, "A")
    s.command(t, f"use {drawing[0]}")
    with pytest.raises(IllegalAction, match="cannot be undone"):
        undo_last("miceheist", s, t)
