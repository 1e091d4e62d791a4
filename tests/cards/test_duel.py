"""Bot duels (mobadj.cards.duel, reported by make bench): seeded, seat by seat, shared wins
counted as shares; and every game names its bot levels."""

from __future__ import annotations

from mobadj.cards.duel import duel
from mobadj.cards.protocol import RandomBot
from mobadj.cards.registry import GAMES, bot_class, bot_levels


def test_a_duel_is_seeded_and_rotates_the_challengers_seat() -> None:
    first = duel("micromob", RandomBot(), RandomBot(), 12, seed=4, players=3,
                 options={"modules": 3})
    again = duel("micromob", RandomBot(), RandomBot(), 12, seed=4, players=3,
                 options={"modules": 3})
    assert first == again
    assert first["games"] == 12 and first["fair_share"] == round(1 / 3, 4)
    assert abs(sum(first["wins_by_seat"]) - 12 * first["win_rate"]) < 0.05
    assert first["unfinished"] == 0


def test_a_bot_against_itself_wins_about_its_fair_share() -> None:
    levels = bot_levels("irontriangle")
    result = duel("irontriangle", levels["basic"](), levels["basic"](), 200, seed=3, players=4)
    assert 0.17 < result["win_rate"] < 0.33, result


def test_every_game_has_a_standard_bot_level_that_is_its_default_bot() -> None:
    for name in GAMES:
        levels = bot_levels(name)
        assert levels["standard"] is bot_class(name)
