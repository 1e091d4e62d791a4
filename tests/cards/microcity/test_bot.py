"""The Micro City bots: in the competitive mode the intermediate and standard bots never pay
to hand the opponent a marker back and play for the face-up Advantage cards; the standard
bot spends its Resources and turns a die only for a turn that uses it, and beats the bot
before it (level "intermediate")."""

from __future__ import annotations

import random

from mobadj.cards.duel import duel
from mobadj.cards.microcity.actions import ChangeDie, RemoveMarker
from mobadj.cards.microcity.bot import (
    MicroCityBasicBot,
    MicroCityBot,
    MicroCityIntermediateBot,
    advantage_progress,
    remaining_cost,
)
from mobadj.cards.protocol import Bot
from mobadj.cards.registry import bot_levels

from .helpers import new, set_res, started


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


def test_the_standard_bot_beats_the_one_before_it_in_the_competitive_mode() -> None:
    # (make bench plays 1,000 games)
    result = duel("microcity", MicroCityBot(), MicroCityIntermediateBot(), 12, seed=900,
                  players=2, options={"mode": "competitive"})
    assert result["win_rate"] > 0.55, result
    assert bot_levels("microcity") == {"standard": MicroCityBot,
                                       "intermediate": MicroCityIntermediateBot,
                                       "basic": MicroCityBasicBot}


def _habits(bot: Bot, games: int, seed: int) -> tuple[int, int, float]:
    """Of P1's rounds in which it paid to turn a die: how many, and in how many it then
    spent no die at all; and the Resources it held at the end of a round, on average
    (competitive games against the bot before it)."""
    turned = wasted = full = rounds = 0
    for i in range(seed, seed + games):
        st = new(i, 2, mode="competitive")
        bots = [bot, MicroCityIntermediateBot()]
        rng = random.Random(i)
        turn, paid, spent = st.turn, False, False
        while not st.is_over():
            p = st.to_act()[0]
            action = bots[p].choose(st, p, rng)
            st.apply(p, action)
            if p == 0:
                text = str(action)
                paid |= isinstance(action, ChangeDie)
                spent |= text.startswith("advanced") or (" die" in text and not text.startswith(
                    "change"))  # an advanced action, or the Logistics Quarter's die
            if st.turn != turn:
                turned += paid
                wasted += paid and not spent
                rounds += 1
                full += sum(st.res[0])
                turn, paid, spent = st.turn, False, False
    return turned, wasted, full / rounds


def test_the_standard_bot_spends_what_it_pays_for_and_sits_on_less() -> None:
    """The bot before it turned dice toward a build by rule, then in a third of those rounds
    spent no die at all; it held 6 Resources at the end of a round (8 or more in a quarter
    of its rounds), 5 for the standard bot (16 %: 20 games, docs/cards/microcity.md)."""
    turned, wasted, _ = _habits(MicroCityBot(), 6, 500)
    old_turned, old_wasted, _ = _habits(MicroCityIntermediateBot(), 6, 500)
    assert turned > 10 and wasted / turned < 0.15, (turned, wasted)
    assert old_wasted / old_turned > 0.25, (old_turned, old_wasted)


def test_the_standard_bot_sells_the_wood_it_cannot_use() -> None:
    """Five wood where the Building still needs two of each Resource and money: the bot
    before it kept them all; the standard bot sells one for money it can use."""
    st = started(3)
    set_res(st, 0, wood=5)
    assert remaining_cost(st) == [2, 2, 2, 2]
    assert str(MicroCityBot().choose(st, 0, random.Random(1))) == "sell wood"
    assert str(MicroCityIntermediateBot().choose(st, 0, random.Random(1))) == "done"
