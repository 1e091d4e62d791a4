"""The bot: always legal, and clearly better than random; simulations stay consistent."""

from __future__ import annotations

import pytest

from mobadj.cards.micromob.balance import bot_vs_random, play, report
from mobadj.cards.micromob.bot import MicroMobBot
from mobadj.cards.simulate import simulate


def test_bot_seat_wins_far_more_than_its_fair_share_against_random():
    # 200 seeded 3-player games, the bot's seat rotating: fair share 1/3
    rate = bot_vs_random(200, 3, 2)
    assert rate > 0.55, rate


def test_bot_games_finish_without_deadlock():
    bots = [MicroMobBot() for _ in range(4)]
    for seed in range(10):
        state = play(4, seed, 4, bots)
        assert state.is_over() and state.kingpin is not None
        assert not state.check_invariants()


def test_balance_report_shape():
    data = report(12, 3, 3)
    assert data["games"] == 12 and sum(data["seat_wins"].values()) >= 12
    assert 20 < data["mean_turns"] < 120
    assert set(data["power_win_rate"]) <= {c.power for c in play(2, 1, 1, [MicroMobBot()] * 2)
                                         .deck.cards.values()}


@pytest.mark.parametrize(("players", "modules"), [(2, 1), (3, 6), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_random_and_bot_simulations_are_clean(players, modules):
    for bots in (False, True):
        result = simulate("micromob", 8, seed=players, players=players,
                          options={"modules": modules}, bots=bots)
        assert result["finished"] == 8
        assert result["invalid_actions"] == 0 and result["invariant_violations"] == 0
