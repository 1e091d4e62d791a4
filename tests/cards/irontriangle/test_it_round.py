"""Rulebook "Game Play" and "Picking and Scoring an Offer": one round, rule by rule."""

from __future__ import annotations

import dataclasses
import random

import pytest
from it_helpers import give, idx, new, place_time, play_round

from mobadj.cards.irontriangle.actions import Offer, Pick, PlayJob
from mobadj.cards.protocol import GameError, IllegalAction


def test_mob_boss_is_the_last_cube_on_the_time_track() -> None:
    # rulebook "When playing as the Mob Boss": the last cube on the Time track is the boss
    s = new(4)
    place_time(s, {1: [2], 2: [0, 1], 3: [3]})
    assert s.boss == 2 and s.to_act() == [2]


def test_tied_last_place_the_bottom_cube_is_the_mob_boss() -> None:
    # rulebook: "If two cubes are in the same last place, the one ... on the bottom"
    s = new(4)
    place_time(s, {2: [3, 0, 1], 4: [2]})
    assert s.boss == 3


def test_boss_plays_a_job_face_up_and_names_one_feature() -> None:
    s = new(4)
    boss = s.boss
    give(s, boss, ["Bootleg Run"])
    s.command(boss, "job Bootleg Run cheap")
    assert s.job == idx(s, "Bootleg Run") and s.feature == "cheap"
    assert idx(s, "Bootleg Run") not in s.hands[boss]
    public = s.history(None)[-1]
    assert "Bootleg Run" in public and "CHEAP" in public
    assert s.view(None)["job"]["name"] == "Bootleg Run"


def test_the_job_must_come_from_the_bosss_hand_and_name_a_feature() -> None:
    s = new(4)
    boss = s.boss
    other = next(p for p in range(4) if p != boss)
    foreign = s.deck.cards[s.hands[other][0]].name
    with pytest.raises(IllegalAction, match="do not hold"):
        s.command(boss, f"job {foreign} fast")
    with pytest.raises(IllegalAction, match=rf"^only the Mob Boss plays a job, and P{boss + 1} "
                                            "is the Mob Boss$"):
        s.command(other, "job 1 fast")
    with pytest.raises(IllegalAction, match="one feature"):
        s.apply(boss, PlayJob(s.deck.cards[s.hands[boss][0]].name, "dear"))
    # every legal job names exactly one of the three features
    features = {a.feature for a in s.legal_actions(boss)}
    assert features == {"fast", "cheap", "good"} and len(s.legal_actions(boss)) == 9


def test_every_other_player_offers_at_once_and_face_down() -> None:
    # rulebook "When playing as one of the Gangsters": offers face down, all Gangsters
    s = new(5)
    boss = s.boss
    s.command(boss, "job 1 good")
    gangsters = [p for p in range(5) if p != boss]
    assert s.to_act() == gangsters  # a simultaneous phase: all offerers act
    first, *rest = gangsters
    name = s.deck.cards[s.hands[first][0]].name
    s.command(first, "offer 1")
    assert s.to_act() == rest
    mine = s.history(first)[-1]
    assert mine.startswith("You offer") and name in mine
    for p in [None, boss, *rest]:
        assert not any(name in e for e in s.history(p)[-3:])
        assert "back" not in (s.view(p)["seats"][first]["offer"] or {})  # not yet shown
    assert s.view(first)["seats"][first]["offer"]["card"]["name"] == name


def test_pick_two_backs_are_shown_when_all_offers_are_in() -> None:
    s = new(4)
    boss = s.boss
    s.command(boss, "job 1 fast")
    for p in list(s.to_act()):
        s.command(p, "offer 1")
    assert s.phase == "negotiate" and s.to_act() == [boss]
    event = s.history(None)[-1]
    for p, card in s.offers.items():
        assert f"P{p + 1} {s.deck.cards[card].back_text}" in event
        seat = s.view(None)["seats"][p]["offer"]
        assert seat == {"face_down": True, "back": s.deck.cards[card].back_text}


def test_an_offer_must_come_from_hand_and_only_once() -> None:
    s = new(4)
    s.command(s.boss, "job 1 fast")
    p = s.to_act()[0]
    with pytest.raises(IllegalAction, match="do not hold"):
        s.apply(p, Offer(s.deck.cards[s.hands[s.boss][0]].name))
    with pytest.raises(IllegalAction, match="^the Mob Boss makes no offer: the Gangsters "
                                            "offer on your job$"):
        s.command(s.boss, "offer 1")
    s.command(p, "offer 2")
    with pytest.raises(IllegalAction, match=r"^you have already made your offer this round "
                                            r"\(one sealed offer a round\)$"):
        s.command(p, "offer 1")


def test_negotiation_table_talk_from_anyone_until_the_boss_picks() -> None:
    # rulebook: "a brief time of negotiating begins"; bluffing allowed
    s = new(4)
    boss = s.boss
    s.command(boss, "job 1 fast")
    gangster = s.to_act()[0]
    with pytest.raises(IllegalAction, match="^you cannot talk now: the Gangsters are making "
                                            "their offers; the table talks once all offers "
                                            "are in$"):
        s.command(gangster, "say too early")
    for p in list(s.to_act()):
        s.command(p, "offer 1")
    s.command(gangster, "say   it's fast AND good, boss")  # out of turn
    s.command(boss, "say convince me")
    assert s.history(None)[-2:] == [f"P{gangster + 1} says: it's fast AND good, boss",
                                    f"P{boss + 1} says: convince me"]
    assert s.actions[-2] == (gangster, "say it's fast AND good, boss")
    with pytest.raises(IllegalAction, match=rf"only the Mob Boss picks an offer, and "
                                            rf"P{boss + 1} is the Mob Boss"):
        s.apply(gangster, Pick(gangster))
    s.command(boss, f"pick P{gangster + 1}")
    with pytest.raises(IllegalAction, match="cannot talk"):
        s.command(gangster, "say too late")


def test_the_boss_picks_one_of_the_offers() -> None:
    s = new(4)
    boss = s.boss
    s.command(boss, "job 1 fast")
    for p in list(s.to_act()):
        s.command(p, "offer 1")
    assert sorted(a.player for a in s.legal_actions(boss)) == sorted(s.offers)
    with pytest.raises(IllegalAction, match="^you are the Mob Boss and made no offer: pick "
                                            "one of P"):
        s.apply(boss, Pick(boss))


def _with_card(s, name: str, **changes) -> None:
    """Give this game a deck where card ``name`` has other printed values."""
    deck = s.deck
    cards = tuple(dataclasses.replace(c, **changes) if c.name == name else c
                  for c in deck.cards)
    s.deck = dataclasses.replace(deck, cards=cards)


def test_rulebook_example_three_stars_minus_two_moves_one() -> None:
    # rulebook "Picking and Scoring an Offer": 3 stars modified by -2 moves the boss 1 forward;
    # the boss pays the price; the Gangster moves 1 forward on Quality and is paid
    s = new(4)
    _with_card(s, "Horse Race Fix", stars=3)
    _with_card(s, "Shakedown", price=1, days=1, modifier=-2)
    boss = s.boss
    g = next(p for p in range(4) if p != boss)
    others = {p: n for p, n in zip([p for p in range(4) if p not in (boss, g)],
                                   ["Card Game", "Speakeasy"], strict=True)}
    play_round(s, "Horse Race Fix", "cheap", {g: "Shakedown", **others}, pick=g)
    assert s.quality[boss] == 1
    assert s.quality[g] == 1
    assert s.money[boss] == 9 and s.money[g] == 11
    assert all(s.money[p] == 10 and s.quality[p] == 0 for p in others)
    assert s.time_pos[boss] == 1


def test_tracks_move_by_the_printed_values() -> None:
    s = new(3, seed=2)
    boss = s.boss
    g, h = [p for p in range(3) if p != boss]
    job, offer = s.deck.card_named("Bank Robbery"), s.deck.card_named("Art Forgery")
    play_round(s, job.name, "good", {g: offer.name, h: "Card Game"}, pick=g)
    assert s.quality[boss] == job.stars + offer.modifier
    assert s.money[boss] == 10 - offer.price and s.money[g] == 10 + offer.price
    assert s.time_pos[boss] == offer.days
    assert (s.money[h], s.quality[h], s.time_pos[h]) == (10, 0, 0)


def test_payment_never_takes_the_boss_below_one_dollar_shortfall_costs_stars() -> None:
    # rulebook NOTE: pay down to $1, then one star exchanged for every dollar short
    s = new(3)
    boss = s.boss
    g, h = [p for p in range(3) if p != boss]
    s.money[boss], s.money[g] = 3, 17  # money is conserved: 3 + 17 + 10 = 30
    job, offer = s.deck.card_named("Loan Collection"), s.deck.card_named("Rival Hit")
    assert offer.price > 2
    play_round(s, job.name, "fast", {g: offer.name, h: "Card Game"}, pick=g)
    short = offer.price - 2
    assert s.money[boss] == 1  # paid $2
    assert s.money[g] == 19  # the Gangster gets what was paid
    assert s.quality[boss] == job.stars + offer.modifier - short
    assert any(f"${short} short" in e for e in s.history(None))


def test_quality_never_moves_behind_the_start_space() -> None:
    # ruling: a negative star total moves the cube back, but not behind the start space
    for start, expected in ((1, 0), (5, 3)):
        s = new(3)
        _with_card(s, "Numbers Racket", stars=1)
        _with_card(s, "Bootleg Run", price=1, days=1, modifier=-3)
        boss = s.boss
        g, h = [p for p in range(3) if p != boss]
        s.quality[boss] = start
        play_round(s, "Numbers Racket", "fast", {g: "Bootleg Run", h: "Card Game"}, pick=g)
        assert s.quality[boss] == expected  # 1 - 3 = -2 stars


def test_hourglasses_move_the_boss_and_stack_on_top() -> None:
    # rulebook: forward by the hourglasses; "Stack the Mob Boss's cube on top"
    s = new(4)
    place_time(s, {0: [0, 1], 3: [2, 3]})
    boss = s.boss
    assert boss == 0
    play_round(s, "Card Game", "good", {1: "Mayor's Favour", 2: "Speakeasy", 3: "Shakedown"},
               pick=1)  # 3 days
    assert s.time_pos[0] == 3
    assert s.stacks[3] == [2, 3, 0]


def test_the_finish_space_stops_the_cube_and_stacks_it() -> None:
    # rulebook: a cube that would go past the finish stays on it, on top of the others
    s = new(3)
    finish = s.deck.finish
    place_time(s, {finish - 1: [1], finish: [2, 0]})
    assert s.boss == 1
    play_round(s, "Card Game", "good", {0: "Fight Fix", 2: "Speakeasy"}, pick=0)  # 3 days
    assert s.time_pos[1] == finish
    assert s.stacks[finish] == [2, 0, 1]


def test_players_on_the_finish_space_still_offer() -> None:
    s = new(3)
    place_time(s, {2: [0], s.deck.finish: [1, 2]})
    s.command(0, "job 1 fast")
    assert s.to_act() == [1, 2]


def test_a_boss_at_one_dollar_moves_ahead_of_the_next_to_last_cube() -> None:
    # rulebook NOTE: a boss at $1 is too poor to hire; move one space ahead of the next-to-
    # last cube(s); then the new last cube is the boss
    s = new(4)
    s.money = [1, 13, 13, 13]
    place_time(s, {1: [0], 3: [1, 2], 5: [3]})
    assert s.time_pos[0] == 4 and s.stacks[4] == [0]
    assert s.boss == 1  # now the last cube: the bottom of the stack on day 3
    assert any("too poor" in e for e in s.history(None))
    assert s.stats["too_poor"] == 1


def test_too_poor_with_the_next_to_last_cube_in_the_same_space() -> None:
    s = new(3)
    s.money = [1, 14, 15]
    place_time(s, {2: [0, 1], 5: [2]})
    assert s.stacks[3] == [0]  # one space ahead of P2 (same space as the boss)
    assert s.boss == 1


def test_too_poor_can_repeat_and_reach_the_finish_space() -> None:
    s = new(3)
    s.money = [1, 1, 28]
    finish = s.deck.finish
    place_time(s, {1: [0], 2: [1], finish: [2]})
    # P1 goes ahead of P2 (to day 3); P2 is then last and too poor: ahead of P1 (day 4);
    # P1 is last again, too poor: day 5 ... until both are on the finish space
    assert s.is_over()
    assert s.stacks[finish][0] == 2 and sorted(s.stacks[finish]) == [0, 1, 2]


def test_hands_are_refilled_to_three_after_the_round() -> None:
    # rulebook: cards played this round are discarded; players draw back up to three
    s = new(4)
    before = len(s.draw_pile)
    play_round(s, "Card Game", "fast", {p: n for p, n in zip(
        [p for p in range(4) if p != s.boss], ["Speakeasy", "Shakedown", "Truck Heist"],
        strict=True)}, pick=next(p for p in range(4) if p != s.boss))
    assert all(len(h) == 3 for h in s.hands)
    assert len(s.draw_pile) == before - 4
    assert s.deep_invariants() == []


def test_played_cards_are_discarded_and_the_discards_reshuffled_when_needed() -> None:
    # with six players the draw pile (24 - 18 = 6) is empty after one refill
    s = new(6, seed=4)
    for _ in range(3):
        boss = s.boss
        s.command(boss, "job 1 fast")
        for p in list(s.to_act()):
            s.command(p, "offer 1")
        s.command(boss, f"pick P{sorted(s.offers)[0] + 1}")
        assert s.deep_invariants() == []
    assert s.stats["reshuffles"] >= 1
    assert "shuffled into a new draw pile" in " ".join(s.history(None))


def test_the_rounds_cards_are_discarded_before_anyone_draws() -> None:
    # rulebook L70: "all cards played this round are discarded. Players draw one card to
    # bring their hand back up to three"; with six players the draw pile (24 - 18 = 6) runs
    # out at every other refill, and the cards just played are shuffled in with the others
    s = new(6, seed=4)
    boss = s.boss
    s.command(boss, "job 1 fast")
    played = {s.job}
    for p in list(s.to_act()):
        s.command(p, "offer 1")
    played |= set(s.offers.values())
    s.command(boss, f"pick P{sorted(s.offers)[0] + 1}")
    assert played <= set(s.discard) and len(s.discard) == 6 and not s.draw_pile
    assert s.deep_invariants() == []


def test_refills_do_not_just_hand_back_the_previous_rounds_cards() -> None:
    # the old reading kept the round's cards on the table during the refill, so with six
    # players every refill drew exactly the six cards of the round before
    same = refills = 0
    for seed in range(6):
        s = new(6, seed)
        rng = random.Random(seed)
        previous: set[int] = set()
        while not s.is_over():
            p = rng.choice(s.to_act())
            action = rng.choice(s.legal_actions(p))
            if not isinstance(action, Pick):
                s.apply(p, action)
                continue
            played = {s.job, *s.offers.values()}
            hands = [set(h) for h in s.hands]  # the played cards have left them
            s.apply(p, action)
            if not s.is_over():
                drawn = set().union(*(set(h) - old for h, old in zip(s.hands, hands,
                                                                       strict=True)))
                refills += 1
                same += drawn == previous
            previous = played
    assert refills > 50 and same < refills / 4


def test_unpicked_offers_may_be_revealed_until_the_next_job() -> None:
    # rulebook: "All other players cards may be revealed at this time if they wish"
    s = new(4)
    boss = s.boss
    g1, g2, g3 = [p for p in range(4) if p != boss]
    play_round(s, "Card Game", "fast", {g1: "Speakeasy", g2: "Shakedown", g3: "Fight Fix"},
               pick=g1)
    with pytest.raises(IllegalAction, match="no face-down offer"):
        s.command(g1, "reveal")  # the picked one is already shown
    assert "Fight Fix" not in s.render(g2)
    s.command(g3, "reveal")  # out of turn
    assert "Fight Fix" in s.history(g2)[-1] and "Fight Fix" in s.render(None)
    with pytest.raises(IllegalAction):
        s.command(g3, "reveal")
    assert "Shakedown" not in s.render(g1)
    assert "Shakedown" in s.render(g2)  # its owner still sees it
    s.command(s.boss, "job 1 fast")
    with pytest.raises(IllegalAction, match="no face-down offer"):
        s.command(g2, "reveal")  # too late: the next job is on the table
    assert idx(s, "Shakedown") in s.discard


def test_commands_for_another_phase_are_refused_with_the_phase_named() -> None:
    s = new(4)
    boss = s.boss
    with pytest.raises(GameError, match="choosing a job"):
        s.apply(boss, Pick(1))
    s.command(boss, "job 1 fast")
    g = s.to_act()[0]
    with pytest.raises(GameError, match="making their offers"):
        s.apply(g, Pick(boss))


def test_no_card_front_is_shown_before_the_boss_picks() -> None:
    # rulebook: Gangsters "may not reveal the front of their card until the Mob Boss chooses"
    s = new(4)
    boss = s.boss
    s.command(boss, "job 1 fast")
    for p in list(s.to_act()):
        s.command(p, "offer 1")
    g = sorted(s.offers)[0]
    with pytest.raises(IllegalAction, match="you may not show your offer until the Mob Boss "
                                            "picks one"):
        s.command(g, "reveal")
    assert s.view(None)["seats"][g]["offer"] == {
        "face_down": True, "back": s.deck.cards[s.offers[g]].back_text}
