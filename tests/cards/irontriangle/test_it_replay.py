"""Exact replay from the record, undo by replay, terminal play and the CLI simulation."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from mobadj.cards.irontriangle.bot import IronTriangleBot
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.protocol import IllegalAction
from mobadj.cards.record import GameRecord, undo_last
from mobadj.cards.registry import bot_class, game_class
from mobadj.cards.simulate import simulate
from mobadj.cards.terminal import play_terminal
from mobadj.cli import main


def _played(players: int, seed: int) -> IronTriangleState:
    s = IronTriangleState.new(players, seed)
    rng = random.Random(seed)
    while not s.is_over():
        if s.phase == "negotiate" and rng.random() < 0.5:
            s.command(rng.randrange(players), "say a fine offer, boss")
        if s.last and s.last["open"] and rng.random() < 0.5:
            hidden = [p for p in s.last["offers"] if p not in s.last["revealed"]]
            if hidden:
                s.command(hidden[0], "reveal")
        p = rng.choice(s.to_act())
        s.apply(p, rng.choice(s.legal_actions(p)))
    return s


def _same(a: IronTriangleState, b: IronTriangleState) -> None:
    for v in [None, *range(a.players)]:
        assert a.view(v) == b.view(v)
        assert a.history(v) == b.history(v)
    assert (a.money, a.quality, a.stacks, a.hands, a.draw_pile, a.discard, a.roles) == (
        b.money, b.quality, b.stacks, b.hands, b.draw_pile, b.discard, b.roles)


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (5, 6), (6, 7)])
def test_a_logged_game_replays_to_the_same_state(players: int, seed: int) -> None:
    s = _played(players, seed)
    record = GameRecord.of("irontriangle", s)
    assert record.deck_version == s.deck.version and record.rules_version
    again = record.replay()
    _same(s, again)
    assert again.scores() == s.scores() and again.winners() == s.winners()
    # and half way through, too
    half = len(record.actions) // 2
    assert record.replay(half).actions == record.actions[:half]


def test_the_record_hides_the_seed_until_asked() -> None:
    s = _played(4, 8)
    data = GameRecord.of("iron-triangle", s).to_json()
    assert "seed" not in data and len(data["seed_commitment"]) == 64
    assert GameRecord.of("irontriangle", s).to_json(reveal_seed=True)["seed"] == 8


def test_registry_finds_the_game_and_its_bot() -> None:
    assert game_class("irontriangle") is IronTriangleState
    assert game_class("mobsters") is IronTriangleState
    assert bot_class("iron-triangle") is IronTriangleBot


def test_undo_a_job_or_an_offer_but_not_a_pick() -> None:
    s = IronTriangleState.new(4, 9)
    boss = s.boss
    hand = list(s.hands[boss])
    s.command(boss, "job 1 fast")
    s = undo_last("irontriangle", s, boss)
    assert s.phase == "job" and s.hands[boss] == hand
    s.command(boss, "job 1 fast")
    first = s.to_act()[0]
    s.command(first, "offer 1")
    s = undo_last("irontriangle", s, first)
    assert first in s.to_act() and first not in s.offers
    for p in list(s.to_act()):
        s.command(p, "offer 1")
    last_offerer = s.actions[-1][0]
    with pytest.raises(IllegalAction):
        undo_last("irontriangle", s, last_offerer)  # it showed every back
    s.command(boss, f"pick P{sorted(s.offers)[0] + 1}")
    with pytest.raises(IllegalAction):
        undo_last("irontriangle", s, boss)  # a revealed card and new draws


def test_terminal_hot_seat_with_bots_plays_to_the_end() -> None:
    out: list[str] = []
    lines = iter(["help", "jbo 1 fast", "history"] + ["quit"])

    def read(prompt: str) -> str:
        return next(lines) if prompt.endswith("> ") else ""

    state = play_terminal("irontriangle", 3, 4, bots={1, 2}, read=read, write=out.append)
    text = "\n".join(out)
    assert "You can: " in text and "did you mean 'job'" in text
    assert not state.is_over() or state.winners()
    # all-bot table goes to the end
    done = play_terminal("irontriangle", 4, 4, bots={0, 1, 2, 3}, read=read,
                         write=out.append)
    text = "\n".join(out)
    assert done.is_over() and "Winner: P" in text and "Seed: 4" in text
    assert "Final Notoriety" not in text  # the end report says it, once


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_simulation_has_no_invalid_actions_or_broken_invariants(players: int) -> None:
    result = simulate("irontriangle", 60, seed=players, players=players)
    assert result["finished"] == 60
    assert result["invalid_actions"] == 0 and result["invariant_violations"] == 0
    assert 10 < result["mean_length"] < 400


def test_deep_invariants_hold_at_every_step_of_random_games() -> None:
    for seed in range(6):
        s = IronTriangleState.new(3 + seed % 4, seed)
        rng = random.Random(seed)
        while not s.is_over():
            p = rng.choice(s.to_act())
            s.apply(p, rng.choice(s.legal_actions(p)))
            assert s.deep_invariants() == []


def test_cli_simulate_prints_one_json_object() -> None:
    result = CliRunner().invoke(main, ["play", "irontriangle", "--simulate", "20",
                                       "--players", "5", "--seed", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "games", "finished", "mean_length", "wins",
                         "invalid_actions", "invariant_violations", "seconds_per_game"}
    assert data["finished"] == 20 and data["invalid_actions"] == 0
    assert data["invariant_violations"] == 0
