"""The Micro City bots in the competitive mode: the standard bot never pays to hand its
opponent a marker back, it plays for the face-up Advantage cards, and it beats the first
bot (level "basic")."""

from __future__ import annotations

import random

from mobadj.cards.duel import duel
from mobadj.cards.microcity.actions import RemoveMarker
from mobadj.cards.microcity.bot import MicroCityBasicBot, MicroCityBot, advantage_progress
from mobadj.cards.registry import bot_levels

from .helpers import new, set_res


def _low_pool_preparation():
    """P1's preparation with one marker left, and a marker of each player on the board."""
    st = new(1, 2, mode="competitive")
    st.command(1, "start b2")
    st.command(0, "start c2")
    st.inv[st.cell("a1")] = 1  # the opponent's
    st.inv[st.cell("d4")] = 0  # P1's own
    st.pools = [1, 4]
    set_res(st, 0, coal=3, money=4)
    return st


def test_the_basic_bot_may_pay_to_hand_a_marker_to_its_opponent() -> None:
    st = _low_pool_preparation()
    removals = MicroCityBasicBot().removals(st, 0, st.legal_actions(0))
    assert {a.quarter for a in removals} == {"a1", "d4"}


def test_the_standard_bot_frees_only_its_own_markers() -> None:
    st = _low_pool_preparation()
    assert {a.quarter for a in MicroCityBot().removals(st, 0, st.legal_actions(0))} == {"d4"}
    action = MicroCityBot().choose(st, 0, random.Random(1))
    assert not isinstance(action, RemoveMarker) or action.quarter == "d4"


def test_progress_toward_an_advantage_condition() -> None:
    st = new(1, 2, mode="competitive")
    set_res(st, 0, coal=1, steel=2, wood=0, money=4)
    assert advantage_progress(st, 0, {"money": 5}) == 0.8
    assert advantage_progress(st, 0, {"each_material": 2}) == 0.5
    assert advantage_progress(st, 0, {"materials": 6}) == 0.5
    assert advantage_progress(st, 0, {"empty_pool": True}) == 0.0


def test_the_standard_bot_beats_the_basic_one_in_the_competitive_mode() -> None:
    result = duel("microcity", MicroCityBot(), MicroCityBasicBot(), 24, seed=900, players=2,
                  options={"mode": "competitive"})
    assert result["win_rate"] > 0.55, result
    assert bot_levels("microcity") == {"standard": MicroCityBot, "basic": MicroCityBasicBot}
