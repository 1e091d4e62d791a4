"""Undo never reveals chance or hidden information, in every game.

One mechanism decides for all games (:func:`mobadj.cards.protocol.undo_refusal`): an action
that moved the game's RNG or took anything out of what ``hidden_from`` the player is never
taken back.  These tests check, per game: that ``hidden_from`` accounts for every hidden
card (so the mechanism sees every draw), that over whole random games the mechanism refuses
exactly the actions that drew, rolled, shuffled or turned up something (judged here from
the game's own zones, independently of the mechanism), and the paths named in the rules
(Micro City's Advantage claim and Engineer placement, draws in micro mob, ...).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from mobadj.cards.irontriangle.actions import Offer, Pick, PlayJob, Reveal, Say
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.miceheist.engine import MiceHeistState
from mobadj.cards.microcity.actions import Claim, Start
from mobadj.cards.microcity.engine import MicroCityState
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import GameState, IllegalAction, undo_refusal
from mobadj.cards.record import undo_last
from mobadj.cards.registry import GAMES, game_class


def test_every_game_with_hidden_information_declares_what_it_hides() -> None:
    for name in GAMES:
        cls = game_class(name)
        assert cls.info.hidden_information
        assert cls.hidden_from is not GameState.hidden_from, name


# -- what each game hides: every hidden card is in hidden_from ------------------------------

def mm_complete(s: MicroMobState, p: int) -> None:
    hidden = s.hidden_from(p)
    hands = sum(map(len, s.hand)) if s.hands_public else len(s.hand[p])
    seen = (len(s.city) + len(s.pool) + hands
            + sum(map(len, s.fatigue)) + sum(map(len, s.allies)) + sum(map(len, s.hits)))
    assert sum(hidden.values()) + seen == s.total_cards
    assert hidden[("pile", s.pile[-1])] if s.pile else True


def it_complete(s: IronTriangleState, p: int) -> None:
    hidden = s.hidden_from(p)
    cards = sum(n for (place, _), n in hidden.items() if not place.endswith("role"))
    seen = len(s.hands[p]) + (p in s.offers) + (s.job is not None)
    assert cards + seen == len(s.deck.cards)
    roles = sum(n for (place, _), n in hidden.items() if place.endswith("role"))
    assert roles == (0 if s.is_over() else s.players - 1)


def mh_complete(s: MiceHeistState, p: int) -> None:
    hidden = s.hidden_from(p)
    assert sum(n for (place, _), n in hidden.items() if place == "upgrade deck") == len(s.deck)
    assert sum(n for (place, _), n in hidden.items() if place == "bag") == len(s.bag)
    sealed = sum(n for (place, _), n in hidden.items() if place.endswith("sealed bet"))
    assert sealed == len(s.sealed) - (p in s.sealed)


def mc_complete(s: MicroCityState, p: int) -> None:
    assert sum(s.hidden_from(p).values()) == len(s.adv_deck)


# -- an independent judgement of "drew, rolled, shuffled or turned up" per game -------------

def mm_reveals(before: MicroMobState, after: MicroMobState, action: Any) -> bool:
    return len(after.pile) != len(before.pile)  # the city refilled, expand, the city dealt


def it_reveals(before: IronTriangleState, after: IronTriangleState, action: Any) -> bool:
    if isinstance(action, Offer):
        return after.phase != "offer"  # the last offer turned every back up
    return isinstance(action, Pick | Say | Reveal)  # a pick shows a card and draws


def mh_reveals(before: MiceHeistState, after: MiceHeistState, action: Any) -> bool:
    chips = sorted(after.bag) != sorted(before.bag)  # chips drawn (after the bets' reveal)
    return chips or len(after.deck) != len(before.deck)  # the market refilled


def mc_reveals(before: MicroCityState, after: MicroCityState, action: Any) -> bool:
    new_round = after.turn != before.turn or (before.step == "start" != after.step)
    return new_round or len(after.adv_deck) != len(before.adv_deck)


Case = tuple[str, int, dict[str, Any], Callable[..., None], Callable[..., bool]]
CASES: list[Case] = [
    ("micromob", 3, {"modules": 3}, mm_complete, mm_reveals),
    ("micromob", 2, {"modules": 1}, mm_complete, mm_reveals),
    ("irontriangle", 6, {}, it_complete, it_reveals),
    ("irontriangle", 3, {}, it_complete, it_reveals),
    ("miceheist", 3, {}, mh_complete, mh_reveals),
    ("microcity", 1, {}, mc_complete, mc_reveals),
    ("microcity", 2, {"mode": "competitive"}, mc_complete, mc_reveals),
    ("microcity", 2, {"mode": "basic"}, mc_complete, mc_reveals),
]


@pytest.mark.parametrize(("game", "players", "options", "complete", "reveals"), CASES,
                         ids=[f"{c[0]}-{c[1]}p-{'-'.join(map(str, c[2].values()))}"
                              for c in CASES])
def test_undo_is_refused_exactly_when_an_action_drew_or_rolled(
    game: str, players: int, options: dict[str, Any], complete: Callable[..., None],
    reveals: Callable[..., bool],
) -> None:
    refused = allowed = 0
    for seed in range(3):
        cls = game_class(game)
        after = cls.new(players, seed, options)
        before = cls.new(players, seed, options)  # one action behind ``after``
        rng = random.Random(seed)
        while not after.is_over():
            actors = after.to_act()
            p = rng.choice(actors)
            action = rng.choice(after.legal_actions(p))
            for q in range(players):
                complete(after, q)
            after.apply(p, action)
            refusal = undo_refusal(before, after, p, action)
            expected = after.is_over() or reveals(before, after, action)
            assert (refusal is not None) == expected, (str(action), refusal)
            refused += refusal is not None
            allowed += refusal is None
            before.apply(p, action)
    assert refused and allowed


# -- the paths named in the rules -----------------------------------------------------------

def competitive_until(seed: int, want: Callable[[MicroCityState, Any], bool]) -> tuple[
        MicroCityState, Any]:
    """A random competitive Micro City game played until an action ``want`` accepts is
    legal; returns the state and that action."""
    rng = random.Random(seed)
    s = MicroCityState.new(2, seed, {"mode": "competitive"})
    while not s.is_over():
        p = s.to_act()[0]
        acts = s.legal_actions(p)
        wanted = [a for a in acts if want(s, a)]
        if wanted:
            return s, wanted[0]
        s.apply(p, rng.choice(acts))
    raise LookupError("the game ended first")


def mid_turn_claim(s: MicroCityState, action: Any) -> bool:
    """A claim that does not also end the turn (which would roll the next dice)."""
    return isinstance(action, Claim) and bool(s.adv_deck) and s.step != "claim"


def test_micro_city_claim_turns_a_hidden_advantage_card_and_cannot_be_undone() -> None:
    for seed in range(40):
        try:
            s, claim = competitive_until(seed, mid_turn_claim)
        except LookupError:
            continue
        p = s.current
        before = len(s.adv_deck)
        s.apply(p, claim)
        assert len(s.adv_deck) == before - 1  # the next card was turned face up
        with pytest.raises(IllegalAction, match="turned up something hidden"):
            undo_last("microcity", s, p)
        return
    pytest.fail("no claimable Advantage card in 40 games")


def test_micro_city_engineer_placement_rolls_the_dice_and_cannot_be_undone() -> None:
    s = MicroCityState.new(1, 3)
    s.command(0, "start b2")
    assert s.dice  # the first round's dice are rolled at once
    with pytest.raises(IllegalAction, match="used chance"):
        undo_last("microcity", s, 0)
    c = MicroCityState.new(2, 3, {"mode": "competitive"})
    c.command(1, "start b2")  # the second player places first: nothing rolled yet
    c = undo_last("microcity", c, 1)
    assert c.engineer == [-1, -1] and c.actions == []
    c.command(1, str(Start("b2")))
    c.command(0, "start c3")  # the last Engineer: the first player's dice are rolled
    with pytest.raises(IllegalAction, match="used chance"):
        undo_last("microcity", c, 0)


def test_micro_mob_take_that_refills_the_city_cannot_be_undone() -> None:
    s = MicroMobState.new(2, 5, {"modules": 1})
    while s.phase == "draft":
        s.apply(s.current, s.legal_actions(s.current)[0])
    p = s.current
    take = next(a for a in s.legal_actions(p) if str(a).startswith(("hit", "hire", "ally")))
    s.apply(p, take)
    with pytest.raises(IllegalAction, match="turned up something hidden"):
        undo_last("micromob", s, p)


def test_iron_triangle_job_and_early_offers_undo_but_not_the_last_offer_or_talk() -> None:
    s = IronTriangleState.new(3, 2)
    boss = s.boss
    job = s.legal_actions(boss)[0]
    assert isinstance(job, PlayJob)
    s.apply(boss, job)
    s = undo_last("irontriangle", s, boss)
    s.apply(boss, job)
    first, last = s.to_act()
    s.apply(first, s.legal_actions(first)[0])
    s = undo_last("irontriangle", s, first)
    s.apply(first, s.legal_actions(first)[0])
    s.apply(last, s.legal_actions(last)[0])
    with pytest.raises(IllegalAction, match="turned up something hidden"):
        undo_last("irontriangle", s, last)
    s.command(first, "say cheap and quick, boss")
    with pytest.raises(IllegalAction, match="cannot be undone"):
        undo_last("irontriangle", s, first)


# -- one way to take a move back ------------------------------------------------------------

def test_no_game_can_replace_the_shared_undo_check() -> None:
    for name in GAMES:
        cls = game_class(name)
        assert cls.undo is GameState.undo and cls.can_undo is GameState.can_undo, name
    for method in ("undo", "can_undo"):
        with pytest.raises(TypeError, match=f"may not override {method}"):
            type("Lenient", (MicroCityState,), {method: lambda self, player: True})


def test_can_undo_runs_the_shared_check_not_only_the_games_own_limits() -> None:
    """The dice rolled by the last Engineer: the game's own limits allow it, the shared
    check (chance) does not, and can_undo says no, as undo does."""
    c = MicroCityState.new(2, 3, {"mode": "competitive"})
    c.command(1, "start b2")
    assert c.can_undo(1) and not c.can_undo(0)  # only one's own last action
    c.command(0, "start c3")
    before = c.replay(1)
    assert before._may_undo(0, before.parse(0, "start c3"))  # the game alone would allow it
    assert not c.can_undo(0)
    with pytest.raises(IllegalAction, match="used chance"):
        c.undo(0)
    assert len(c.actions) == 2  # a refused undo changes nothing
