"""Rulebook "Turn Structure": each step of a test, in order."""

from __future__ import annotations

import pytest
from mh_helpers import BLUE, GREEN, ORANGE, PURPLE, RED, YELLOW, new, select, set_chips

from mobadj.cards.miceheist.actions import Bet, Learn, Select, Use
from mobadj.cards.miceheist.actions import Test as RunTest
from mobadj.cards.protocol import IllegalAction


def fresh(players: int = 4, seed: int = 1):
    s = new(players, seed)
    t = s.tester
    others = [(t + k) % players for k in range(1, players)]
    return s, t, others


# -- Select Obstacle --
def test_select_only_tops_of_non_empty_stacks() -> None:
    # "Choose an obstacle": the top card of a job's stack
    s, t, _ = fresh()
    s.stacks["C"] = []
    assert s.legal_actions(t) == [Select("A"), Select("B"), Select("D")]
    with pytest.raises(IllegalAction):
        s.command(t, "select C")
    s.command(t, "select B")
    assert s.obstacle is not None and s.obstacle.id == "B1"


def test_only_the_tester_selects() -> None:
    s, t, others = fresh()
    with pytest.raises(IllegalAction):
        s.command(others[0], "select A")
    assert s.legal_actions(others[0]) == []


# -- Get Help --
def test_bets_are_simultaneous_and_sealed() -> None:
    # "Everyone else ... choose and hold zero or more cheese in a closed fist"
    s, t, others = fresh()
    s.command(t, "select A")
    assert s.phase == "bet" and sorted(s.to_act()) == sorted(others)
    s.command(others[1], "bet 2")
    # nothing moves until all are revealed; the others still to act are the rest
    assert s.stash[others[1]] == 3 and s.stash[t] == 3
    assert sorted(s.to_act()) == sorted([others[0], others[2]])
    with pytest.raises(IllegalAction):
        s.command(others[1], "bet 1")  # one bet each
    s.command(others[2], "bet 0")
    s.command(others[0], "bet 1")
    # "simultaneously reveal": one public event, then the cheese goes to the tester's stash
    reveal = [e for e in s.history(None) if e.startswith("Bets revealed")]
    assert len(reveal) == 1
    assert f"P{others[1] + 1} bets 2" in reveal[0] and f"P{others[0] + 1} bets 1" in reveal[0]
    assert s.stash[t] == 6 and s.stash[others[1]] == 1 and s.stash[others[0]] == 2
    assert s.bets == {others[0]: 1, others[1]: 2, others[2]: 0}
    assert s.assisting == [others[0], others[1]]  # clockwise from the tester's left
    assert s.phase == "activate"


def test_bet_limit_is_stash_plus_covered() -> None:
    # "This cheese may come from either their personal stash or from their covered skill cards"
    s, t, others = fresh()
    p = others[0]
    s.covered[p].add(s.skills[p][0])
    s.stash[p] -= 1
    s.supply += 0
    s.stash[p] += 0
    s.command(t, "select A")
    assert max(a.amount for a in s.legal_actions(p)) == 3
    with pytest.raises(IllegalAction):
        s.command(p, "bet 4")


def test_bet_takes_covered_cheese_first() -> None:
    # ruling R4: covered skills' cheese first, in the order named, then the stash
    s, t, others = fresh()
    p = others[0]
    a, b, _ = s.skills[p]
    s.covered[p] |= {a, b}
    s.stash[p] -= 2
    s.command(t, "select A")
    s.command(p, f"bet 1 uncover {b}")
    for q in others[1:]:
        s.command(q, "bet 0")
    assert s.covered[p] == {a} and s.stash[p] == 1 and s.bets[p] == 1


def test_abstainer_uncovers_one_skill() -> None:
    # "Any player who reveals no cheese ... may return one cheese from one of their covered
    # skills to their stash."
    s, t, others = fresh()
    p = others[0]
    a, b, _ = s.skills[p]
    s.covered[p] |= {a, b}
    s.stash[p] -= 2
    s.command(t, "select A")
    s.command(p, f"pass uncover {b}")
    for q in others[1:]:
        s.command(q, "bet 0")
    assert s.covered[p] == {a} and s.stash[p] == 2 and p not in s.assisting


def test_player_without_cheese_abstains_without_being_asked() -> None:
    # ruling R3
    s, t, others = fresh()
    p = others[0]
    s.supply += s.stash[p]
    s.stash[p] = 0
    s.command(t, "select A")
    assert p not in s.to_act() and s.legal_actions(p) == []
    for q in others[1:]:
        s.command(q, "bet 0")
    assert s.bets[p] == 0 and s.phase == "activate"


def test_no_bettors_reveals_at_once() -> None:
    s, t, others = fresh(2)
    s.supply += s.stash[others[0]]
    s.stash[others[0]] = 0
    s.command(t, "select A")
    assert s.phase == "activate" and len(s.test_chips) == 2


# -- Draw Chips --
def test_draw_two_chips_with_random_faces() -> None:
    # "You now draw 2 chips from the bag" and "Leave them randomly assigned"
    faces = set()
    for seed in range(20):
        s = new(3, seed)
        select(s, "A")
        assert len(s.test_chips) == 2 and len(s.bag) == 9
        faces |= {f for _, f, _ in s.test_chips}
    assert faces == {0, 1}


def test_bag_refills_from_play_area_but_not_this_tests_chips() -> None:
    # "return all chips from the play area except the ones already drawn for this test"
    s, t, _ = fresh()
    s.center = [c for c in s.bag if c not in (BLUE, GREEN)]
    s.bag = [BLUE]
    s.test_chips = []
    s.center.append(GREEN)  # chips of earlier tests
    s._draw(2)  # the bag holds one chip: draw it, refill, draw another
    drawn = [c for c, _, _ in s.test_chips]
    assert drawn[0] == BLUE and drawn[1] != BLUE
    assert BLUE not in s.bag and not s.center
    assert len(s.bag) == 9 and not s.check_invariants()
    assert any("bag is empty" in e for e in s.history(None))


def test_no_chip_left_to_draw() -> None:
    s, t, _ = fresh()
    s.test_chips = [[c, 0, 0] for c in range(11)]
    s.bag, s.center = [], []
    s._draw(1)
    assert len(s.test_chips) == 11 and any("No chip" in e for e in s.history(None))


# -- Activate Skills --
def activate_phase(seed: int = 1, players: int = 4, job: str = "A"):
    s, t, others = fresh(players, seed)
    select(s, job)
    set_chips(s, [(YELLOW[0], 0), (YELLOW[1], 1)])  # +1 and -1
    return s, t, others


def test_activation_pays_a_cheese_and_covers() -> None:
    # "To activate a skill, it must available (uncovered). Pay a cheese from your personal
    # stash onto the skill card, covering it."
    s, t, _ = activate_phase()
    s.skills[t][0] = "scurry"
    s.command(t, "use scurry")
    assert s.stash[t] == 2 and "scurry" in s.covered[t] and s.modifier == 2
    with pytest.raises(IllegalAction):
        s.command(t, "use scurry")  # covered: not available
    assert Use("scurry") not in s.legal_actions(t)


def test_activation_needs_stash_cheese() -> None:
    s, t, _ = activate_phase()
    s.supply += s.stash[t]
    s.stash[t] = 0
    assert s.legal_actions(t) == [RunTest()]
    with pytest.raises(IllegalAction):
        s.apply(t, Use(s.skills[t][0]))


def test_icon_conditional_effects() -> None:
    # "some skills will indicate that they only have an effect ... matching skill icon"
    s, t, _ = activate_phase(job="A")  # A1 shows hand
    s.skills[t][:2] = ["nimble-paws", "long-jump"]
    s.command(t, "use nimble paws")
    assert s.modifier == 3  # bonus 1 + bonus 2 if hand
    s.command(t, "use long jump")
    assert s.modifier == 4  # bonus 1, no leg icon


def test_flip_and_cancel_need_a_chip() -> None:
    s, t, _ = activate_phase()
    s.skills[t][:2] = ["second-glance", "shrug-off"]
    with pytest.raises(IllegalAction):
        s.command(t, "use second glance")
    s.command(t, "use second-glance on 2")  # -1 -> +1
    assert s.test_chips[1][1] == 0 and s.rating() == 1 + 1
    s.command(t, "use shrug off on 1")  # the +1 chip counts 0
    assert s.rating() == 0 + 1 + 1  # chip 2 flipped to +1, Shrug Off's bonus 1
    assert Use("second-glance", 1) not in s.legal_actions(t)


def test_draw_gain_advance_retreat_bounty() -> None:
    s, t, _ = activate_phase()
    s.skills[t][:3] = ["lucky-tail", "stash-away", "tumble"]
    s.command(t, "use lucky tail")
    assert len(s.test_chips) == 3
    before = s.supply
    s.command(t, "use stash away")
    assert s.supply == before - 1 and s.stash[t] == 3  # paid 1 each, gained 1 each
    s.pos["A"][t] = 5
    s.track["A"][5] = t
    s.command(t, "use tumble")
    assert s.pos["A"][t] == 4 and s.modifier == 1 + 1 + 3  # Lucky Tail, Stash Away, Tumble
    s.skills[t].append("bait-the-trap")
    s.command(t, "use bait the trap")
    assert s.obstacle_cheese == {"A1": 1}
    assert not s.check_invariants()


def test_per_icon_and_per_assist() -> None:
    s, t, others = fresh()
    s.skills[t][:2] = ["versatile", "rally-the-colony"]
    s.deck = [k for k in s.deck if k not in ("versatile", "rally-the-colony")]
    s.market = [k for k in s.market if k not in ("versatile", "rally-the-colony")]
    select(s, "A", {others[0]: "bet 1", others[1]: "bet 1"})
    s.command(t, "use versatile")
    assert s.modifier == 2  # one icon on A1
    s.command(t, "use rally")
    assert s.modifier == 2 + 4  # two assisting players


# -- Calculate Result --
@pytest.mark.parametrize(("chips", "mod", "ok"), [((BLUE, 0), 0, True), ((RED, 0), 4, False)])
def test_rating_is_chips_plus_skills(chips, mod, ok) -> None:
    # "If the test rating is less than the target rating you failed. Otherwise you succeeded."
    s, t, _ = activate_phase()  # A1 target 3
    set_chips(s, [chips, (PURPLE, 1)])  # purple -3
    s.modifier = mod
    expected = {BLUE: 4, RED: -2}[chips[0]] - 3 + mod
    assert s.rating() == expected
    s.modifier = 3 - ({BLUE: 4, RED: -2}[chips[0]] - 3) - (0 if ok else 1)
    s.command(t, "test")
    assert any(("succeeds" if ok else "fails") in e for e in s.history(None))


# -- Resolve: success --
def test_success_effects_in_order() -> None:
    # Success: take the obstacle's cheese; assisting players move up by their bets one at a
    # time clockwise; then the tester moves up by the payout.
    s, t, others = fresh()
    s.obstacle_cheese["A1"] = 2
    s.supply -= 2
    select(s, "A", {others[0]: "bet 2", others[1]: "bet 2"})
    set_chips(s, [(BLUE, 0), (GREEN, 0)])  # +6 >= 3
    stash = s.stash[t]
    s.command(t, "test")
    assert s.stash[t] == stash + 2 and "A1" not in s.obstacle_cheese
    # clockwise: left neighbour lands on 2, the next finds 2 taken and goes to 3
    assert s.pos["A"][others[0]] == 2 and s.pos["A"][others[1]] == 3
    assert s.pos["A"][t] == 4  # payout 2: 2 and 3 taken, next available 4
    assert s.stacks["A"][0] == "A2"  # returned to the box
    assert not s.check_invariants()


# -- Resolve: failure --
def failed(seed: int = 1, bets: dict | None = None):
    s, t, others = fresh(4, seed)
    s.obstacle_cheese["A1"] = 1
    s.supply -= 1
    select(s, "A", {others[0]: "bet 1"} if bets is None else bets)
    set_chips(s, [(RED, 1), (ORANGE, 1)])  # -6
    s.command(t, "test")
    return s, t, others


def test_failure_assisting_players_take_a_cheese() -> None:
    # Failure: "Each assisting player takes one cheese from the supply."
    s, t, others = failed()
    assert s.stash[others[0]] == 3  # bet 1, got 1 back
    assert s.stash[others[1]] == 3 and s.stash[t] == 4


def test_failure_learn_then_track_and_obstacle_gone() -> None:
    # Failure: "You may learn one skill from market." then +1 on the job's track
    s, t, _ = failed()
    assert s.phase == "learn" and s.to_act() == [t]
    card = s.market[0]
    top = s.deck[-1]
    s.command(t, f"learn {card}")
    assert s.skills[t][-1] == card and card not in s.market
    assert top in s.market and len(s.market) == 4  # refilled from the deck
    assert s.pos["A"][t] == 1
    # non-finale obstacle is returned to the box; its cheese to the supply
    assert s.stacks["A"][0] == "A2" and "A1" not in s.obstacle_cheese
    assert not s.check_invariants()


def test_failure_learn_nothing() -> None:
    s, t, _ = failed()
    s.command(t, "learn nothing")
    assert len(s.skills[t]) == 3 and s.pos["A"][t] == 1


def test_learn_at_six_skills_discards_first() -> None:
    # "if you would learn a new skill when you already have 6 first return one"
    s, t, _ = failed()
    extra = [k for k in ("squeak", "pounce", "dig-in") if k not in s.skills[t]][:3]
    s.skills[t] += extra
    while len(s.skills[t]) < 6:
        s.skills[t].append("sniff-out" if "sniff-out" not in s.skills[t] else "shadow-step")
    assert len(s.skills[t]) == 6
    victim = s.skills[t][0]
    s.covered[t].add(victim)  # its cheese goes back to the supply (ruling R9)
    s.stash[t] -= 1
    card = s.market[0]
    with pytest.raises(IllegalAction):
        s.apply(t, Learn(card))
    assert Learn(card) not in s.legal_actions(t)
    supply = s.supply
    s.command(t, f"learn {card} discard {victim}")
    assert len(s.skills[t]) == 6 and victim not in s.skills[t] and card in s.skills[t]
    # +1 from the discarded covered skill, +1 from the cheese left on A1
    assert s.supply == supply + 2 and not s.check_invariants()


def test_empty_market_skips_learning() -> None:
    s, t, others = fresh()
    s.deck += s.market
    s.market = []
    select(s, "A")
    set_chips(s, [(RED, 1), (ORANGE, 1)])
    s.command(t, "test")
    assert s.phase == "select" and s.pos["A"][t] == 1


# -- Finale obstacles --
def test_failed_finale_stays_in_play() -> None:
    # "Failure: Skip the rest of this step (the obstacle remains in play)."
    s, t, _ = fresh()
    s.stacks["A"] = ["A5"]
    s.obstacle_cheese["A5"] = 2
    s.supply -= 2
    select(s, "A")
    set_chips(s, [(RED, 1), (ORANGE, 1)])
    s.command(t, "test")
    s.command(t, "learn nothing")
    assert s.stacks["A"] == ["A5"] and s.obstacle_cheese["A5"] == 2
    assert not s.is_over() and s.tester == (t + 1) % 4


def test_beaten_finale_ends_the_game() -> None:
    # "Success: The game is over."
    s, t, _ = fresh()
    s.stacks["B"] = ["B5"]
    select(s, "B")
    set_chips(s, [(BLUE, 0), (PURPLE, 0)])
    s.modifier = 1  # 4 + 3 + 1 = 8
    s.command(t, "test")
    assert s.is_over() and s.to_act() == [] and s.winners()
    assert s.legal_actions(t) == []


def test_completed_job_ends_the_game() -> None:
    # "End Game": triggered when a job has no more obstacles in its stack
    s, t, _ = fresh()
    s.stacks["C"] = ["C4"]
    select(s, "C")
    set_chips(s, [(BLUE, 0), (GREEN, 0)])
    s.command(t, "test")
    assert s.is_over() and "job C is complete" in s.end_reason


# -- Cleanup --
def test_cleanup_chips_to_play_area_and_bag_passes_clockwise() -> None:
    # "Move all other chips drawn for this test to the center play area" and
    # "Pass the bag to the next player in clockwise order."
    s, t, _ = fresh()
    select(s, "D")
    drawn = [c for c, _, _ in s.test_chips]
    set_chips(s, [(BLUE, 0), (GREEN, 0)])
    drawn = [BLUE, GREEN]
    s.command(t, "test")
    assert s.center == drawn and not s.test_chips
    assert s.tester == (t + 1) % 4 and s.turn == 2 and s.phase == "select"
    assert s.bets == {} and s.obstacle is None


def test_bet_action_text_roundtrip() -> None:
    assert str(Bet(2, ("scurry",))) == "bet 2 uncover scurry"
    assert str(Use("second-glance", 2)) == "use second-glance on 2"
    assert str(Learn("sprint", "scurry")) == "learn sprint discard scurry"
    assert str(Learn()) == "learn nothing" and str(RunTest()) == "test"


def test_invariants_catch_lost_cheese_chips_and_markers() -> None:
    s, t, _ = fresh()
    assert s.check_invariants() == []
    s.stash[t] += 1  # a cheese from nowhere
    assert any("cheese" in b for b in s.check_invariants())
    s.stash[t] -= 1
    s.bag.pop()
    assert any("chips" in b for b in s.check_invariants())
    s.bag.append(10 if 10 not in s.bag else 0)
    s.bag = sorted(set(s.bag) | {10})
    s.pos["A"][t] = 5  # a marker without its space (checked once a turn)
    s._moved.add("A")
    assert any("track A" in b for b in s.check_invariants())


def test_every_bet_offered_ends_differently_and_is_told_as_it_will_happen() -> None:
    """R4: a bet takes its cheese from the covered skills named, then the others in the
    order they lie, then the stash.  Over random games, no two bets offered to a player do
    the same (amount, skills uncovered), and the sealed bet's text names every skill the
    reveal uncovers."""
    import random

    from mobadj.cards.miceheist.engine import MiceHeistState

    checked = 0
    for seed in range(6):
        state = MiceHeistState.new(3, seed, {})
        rng = random.Random(seed)
        while not state.is_over():
            p = state.to_act()[0]
            acts = state.legal_actions(p)
            if state.phase == "bet":
                ends = [(b.amount, frozenset(state.bet_plan(p, b)[0])) for b in acts]
                assert len(set(ends)) == len(ends), acts
                bet = rng.choice(acts)
                before = {k for k in state.skills[p] if k in state.covered[p]}
                state.apply(p, bet)
                told = [e.text for e in state.events if e.visible_to == {p}][-1]
                if bet.amount and before and state.phase != "bet":
                    uncovered = before - set(state.covered[p])
                    assert all(state.data.skills[k].name in told for k in uncovered), told
                    checked += 1
                continue
            state.apply(p, rng.choice(acts))
    assert checked >= 5
