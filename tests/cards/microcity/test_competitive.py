"""The 2-player competitive mode (rulebook 2 PLAYER COMPETITIVE MODE)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mobadj.cards.protocol import IllegalAction
from mobadj.cards.report import end_report as report_lines
from mobadj.cli import main

from .helpers import cell_of, new, set_res, texts


def comp(seed: int = 1, p2: str = "b2", p1: str = "c2", **options):
    st = new(seed, 2, mode="competitive", **options)
    st.command(1, f"start {p2}")
    st.command(0, f"start {p1}")
    return st


def to_project(st, player: int = 0) -> None:
    st.command(player, "done")


def test_competitive_needs_two_players() -> None:
    with pytest.raises(IllegalAction, match="2 players"):
        new(1, 1, mode="competitive")


def test_setup() -> None:
    st = new(1, 2, mode="competitive")
    assert st.pools == [5, 5]  # 2. five markers each
    assert st.res == [[0, 0, 0, 2], [0, 0, 0, 0]]  # 5. the second player has no money
    assert len(st.goals) == 3 and len(st.adv_row) == 2 and len(st.adv_deck) == 8  # 6., 7.
    assert st.time == 20 and st.vp == [0, 0]  # 8., 9.
    assert st.hands == [["1", "2", "3", "4", "5", "6"]] * 2  # 11. identical sets


def test_second_player_places_first_and_quarters_differ() -> None:
    # set-up 4: "The player who goes second is the first to choose a Quarter ... The first
    # player does the same and must choose a different Quarter."
    st = new(1, 2, mode="competitive")
    assert st.to_act() == [1]
    st.command(1, "start b2")
    assert st.to_act() == [0]
    assert "start b2" not in texts(st, 0)
    with pytest.raises(IllegalAction, match="must choose a different Quarter"):
        st.command(0, "start b2")


def test_turns_alternate_and_each_moves_the_time_marker() -> None:
    # "Starting with the first player, players carry out their rounds one at a time"
    st = comp()
    to_project(st)
    st.command(0, "retrieve to c1")
    if st.step == "invest":
        st.command(0, "pass")
    if st.step == "claim":
        st.command(0, "pass")
    assert st.to_act() == [1] and st.time == 19 and st.step == "prep"
    assert all(o == 1 for o in st.die_owner)  # the second player rolls their own dice


def test_cannot_play_the_opponents_last_card() -> None:
    # "Players cannot play a Project card that is identical to the card on top of their
    # opponent's discard pile"
    st = comp()
    st.discards[1] = ["4", "2"]
    st.hands[1] = ["1", "3", "5", "6"]
    to_project(st)
    assert not any(t.startswith("play 2 ") for t in texts(st))
    assert any(t.startswith("play 4 ") for t in texts(st))
    with pytest.raises(IllegalAction, match="opponent just played it"):
        st.command(0, "play 2 to c1")


def test_cannot_end_on_the_opponents_engineer() -> None:
    # Investment phase: "cannot end the movement of his Engineer on a Quarter with the
    # opponent's Engineer on it"
    st = comp(p2="b2", p1="c2")
    to_project(st)
    assert not any(t.endswith(" to b2") for t in texts(st))


def test_die_two_rule_gives_both_options() -> None:
    # "when performing an advanced action of the Project card with a die value of 2 ...
    # Treat the description of the advanced action as saying 1 AND 1"
    st = comp(p2="a4", p1="c2")
    st.inv[st.cell("d4")] = 1
    st.pools[1] = 4
    st.dice = [2, 5]
    to_project(st)
    st.command(0, "play 2 to c1")
    adv = [t for t in texts(st) if t.startswith("advanced")]
    assert adv == [f"advanced {m} d4" for m in ("coal", "steel", "wood")]
    st.command(0, "advanced steel d4")
    assert st.res[0][1] == 1 and st.inv[st.cell("d4")] == -1 and st.pools[1] == 5


def test_complete_a_goal_with_residential_advanced() -> None:
    # GOAL CARDS: residential advanced, spend the Resources, own marker, victory points
    st = comp()
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    st.engineer[0] = st.cell(q)
    st.dice, st.step = [die, 0], "invest"
    set_res(st, 0, 5, 5, 5, 5)
    goal_cost_vp = st.deck.goals[st.goals[0]][0]
    st.command(0, "advanced goal 1.1")
    assert st.goal_marks[0][0] == 0 and st.vp[0] == goal_cost_vp.vp
    assert st.pools[0] == 3  # one on the Goal, one on the Quarter in the final phase
    assert not any(t == "advanced goal 1.1" for t in texts(st, 0))


def test_goal_area_blocked_until_marker_removed_then_reusable() -> None:
    # "There can be only one Investment marker present on one Goal area ... can be placed
    # and removed repeatedly"; removal may take the opponent's marker back to its pool
    st = comp()
    st.goal_marks[0][0] = 1
    st.pools[1] = 4
    st.discards[0] = []
    st.dice = [3, 6]
    to_project(st)
    st.command(0, "play 3 to " + next(t.split()[-1] for t in texts(st) if t.startswith("play 3")))
    assert "basic g1.1" in texts(st)
    st.command(0, "basic g1.1")
    assert st.goal_marks[0][0] == -1 and st.pools[1] == 5


def test_empty_pool_goal_costs_a_point_and_a_marker_back() -> None:
    # "If you don't have any available Investment markers in your pool you can voluntarily
    # lose 1 victory point and retrieve 1 Investment marker from any area"
    st = comp()
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    st.engineer[0] = st.cell(q)
    st.dice, st.step = [die, 0], "invest"
    st.pools[0] = 0
    for c in (0, 1, 2, 3, 15):
        st.inv[c] = 0
    st.vp[0] = 3
    set_res(st, 0, 5, 5, 5, 5)
    options = [t for t in texts(st) if t.startswith("advanced goal 1.1")]
    assert "advanced goal 1.1 from a1" in options
    with pytest.raises(IllegalAction, match=r"^your pool is empty: name a marker of yours to "
                                            r"take back for 1 point .*: advanced goal 1.1 "
                                            r"from a1, advanced goal 1.1 from b1"):
        st.command(0, "advanced goal 1.1")
    st.command(0, "advanced goal 1.1 from a1")
    gain = st.deck.goals[st.goals[0]][0].vp
    assert st.goal_marks[0][0] == 0 and st.inv[0] == -1
    assert st.history(1)[-3:] == [
        "P1 has no marker left: loses 1 point and takes one back from a1",
        "The Investment marker on a1 returns to its pool",
        f"P1 completes Goal area 1.1: +{gain} points"]
    # then the final phase needs a marker again: the pool is empty once more
    assert st.step == "take" and st.vp[0] == 3 - 1 + gain
    st.command(0, "take b1")
    assert st.vp[0] == 3 - 2 + gain and st.inv[st.engineer[0]] == 0
    assert not st.check_invariants()


def test_the_final_table_books_both_points_paid_for_markers_taken_back() -> None:
    st = comp(seed=3, p2="c3", p1="b3")
    for c in range(5):
        st.inv[c] = 0
    st.pools, st.res, st.dice = [0, 5], [[5, 5, 5, 5], [0, 0, 0, 0]], [4, 4]
    st.command(0, "done")
    st.command(0, "play 1 to a4")
    st.command(0, "pass")
    st.command(0, "advanced goal 1.1 from a1")
    st.time = 1
    st.command(0, "take b1")
    while not st.is_over():
        st.command(st.to_act()[0], "pass")
    report = "\n".join(report_lines(st))
    assert ("P1: 0 points = Goal areas 2 (1.1 +2) + Advantages 0 + Contracts 0 - 2 for "
            "markers taken back") in report
    assert "card effects" not in report


def test_quarter_action_needs_no_marker_of_either_player() -> None:
    # "A player can use a Quarter's action only when there are no other Investment markers"
    st = comp()
    st.inv[st.cell("c1")] = 1
    st.pools[1] = 4
    to_project(st)
    turn = st.turn
    st.command(0, "retrieve to c1")
    assert st.turn == turn + 1


def test_advantage_claim_once_per_round_and_refill() -> None:
    # ADVANTAGE CARDS: "may take that card ... only from one Advantage card in his round",
    # "Place a new Advantage card on the table so that there are always 2 available"
    st = comp()
    st.adv_row = [1, 3]
    st.adv_deck = [5, 7]
    set_res(st, 0, 3, 2, 2, 5)  # money 5 and 7 Materials: both conditions met
    st.__dict__["_cache"] = None
    assert {"claim 1", "claim 3"} <= set(texts(st))
    st.command(0, "claim 1")
    assert st.vp[0] == 2 and st.adv_taken[0] == [1] and st.adv_row == [3, 5]
    assert not any(t.startswith("claim") for t in texts(st))


def test_game_end_and_tie_breaks() -> None:
    # GAME END: most points; then most Advantage cards; then most Resources
    st = comp()
    st.result = "over"
    st.vp = [5, 5]
    st.adv_taken = [[1], []]
    assert st.winners() == [0]
    st.adv_taken = [[], []]
    st.res = [[0, 0, 0, 1], [1, 1, 0, 0]]
    assert st.winners() == [1]
    st.res = [[0, 0, 0, 2], [1, 1, 0, 0]]
    assert st.winners() == [0, 1]
    assert st.scores() == [5.0, 5.0]


def test_game_ends_after_twenty_turns() -> None:
    import random

    from mobadj.cards.protocol import RandomBot

    st = new(3, 2, mode="competitive")
    bot = RandomBot()
    rng = random.Random(1)
    while not st.is_over():
        p = st.to_act()[0]
        st.apply(p, bot.choose(st, p, rng))
    assert st.time == 0 and st.turn == 19
    assert st.winners()


def test_advantage_deck_order_never_shown() -> None:
    # secrets stay secret in views, history and errors
    st = comp(seed=4)
    hidden = list(st.adv_deck)
    for who in (0, 1, None):
        v = st.view(who)
        assert v["advantage_deck"] == len(hidden)
        text = json.dumps(v) + st.render(who) + "\n".join(st.history(who))
        assert "adv_deck" not in text
        assert str(hidden) not in text
    with pytest.raises(IllegalAction) as err:
        st.command(0, f"claim {hidden[0]}")
    assert "not face up" in str(err.value)


def test_advantage_can_be_claimed_after_the_final_phase() -> None:
    # "At any time on his round": the final phase's +1 money may meet a condition
    st = comp()
    st.adv_row = [1, 3]
    st.adv_deck = [5]
    set_res(st, 0, money=4)
    q = cell_of(st, "residential")
    st.engineer[0] = st.cell(q)
    st.dice, st.step = [0, 0], "invest"
    st.__dict__["_cache"] = None
    st.command(0, "pass")  # both dice unused: +1 money in the final phase -> 5
    assert st.step == "claim" and st.to_act() == [0]
    assert texts(st) == ["claim 1", "pass"]
    st.command(0, "claim 1")
    assert st.vp[0] == 2 and st.to_act() == [1] and st.step == "prep"


def _architect_card_step(**options):
    """P1 has just played the Architect (die 4 showing, Resources to pay any Goal)."""
    st = comp(3, p2="c3", p1="a2", **options)
    to_project(st)
    set_res(st, 0, 5, 5, 5, 5)
    st.dice, st.used = [4, 2], [False, False]
    st.__dict__["_cache"] = None
    dest = next(t.split()[-1] for t in texts(st) if t.startswith("play 4 "))
    st.command(0, f"play 4 to {dest}")
    return st


def test_a_goal_is_completed_only_from_a_residential_quarter() -> None:
    # GOAL CARDS (line 324): "A Goal can be completed by using an advanced action of a
    # residential Quarter ... has to have his Engineer present on a residential Quarter in
    # the investment phase": the Architect's build completes no Goal
    st = _architect_card_step()
    assert st.cfg.goals == "residential"
    assert not any("goal" in t for t in texts(st, 0))
    with pytest.raises(IllegalAction, match="a Goal is completed only by a residential "
                                            "Quarter's advanced action, in the investment "
                                            r"phase \(rulebook, GOAL CARDS\)"):
        st.command(0, "advanced goal 1.1")
    assert st.vp == [0, 0]


def test_the_architect_still_completes_a_contract() -> None:
    # SEAPORT EXPANSION (line 469): "an advanced action on the Seaport Quarter (or a build
    # action from a Project card)"
    st = _architect_card_step(expansions="seaport")
    assert any(t.startswith("advanced contract s") for t in texts(st, 0))


def test_goals_architect_is_the_earlier_reading() -> None:
    st = _architect_card_step(goals="architect")
    assert "advanced goal 1.1" in texts(st, 0)
    st.command(0, "advanced goal 1.1")
    assert st.goal_marks[0][0] == 0 and st.vp[0] == st.deck.goals[st.goals[0]][0].vp
    with pytest.raises(IllegalAction, match="expected one of residential, architect"):
        new(1, 2, mode="competitive", goals="anywhere")


def test_starting_on_the_opponents_engineer_is_refused_with_the_rule() -> None:
    # set-up 4: "The first player does the same and must choose a different Quarter"
    st = new(3, 2, mode="competitive")
    st.command(1, "start c2")
    with pytest.raises(IllegalAction, match="P2's Engineer stands on c2: the first player "
                                            "must choose a different Quarter"):
        st.command(0, "start c2")


def test_a_move_onto_the_opponents_engineer_names_the_rule() -> None:
    # rulebook line 381: "A player cannot end the movement of his Engineer on a Quarter with
    # the opponent's Engineer on it" (c3 is one step from b3: the length is right)
    typed = "start c3\n\n\nstart b3\ndone\nretrieve to c3\nplay 2 to c3\nplay 5 to b3\nquit\n"
    result = CliRunner().invoke(main, ["play", "microcity", "-p", "2", "-o",
                                       "mode=competitive", "--seed", "3"], input=typed)
    said = ("! P2's Engineer stands on c3: you may not end your move on it (rulebook, 2 PLAYER "
            "COMPETITIVE MODE)")
    assert result.output.count(said) == 2
    assert ("! a move of 2 Quarters may not come back to b3, where you began (rulebook, "
            "ENGINEER)") in result.output  # Project 5 moves 2
    assert "moves you exactly 1" not in result.output and "retrieving moves you" not in (
        result.output)


def test_a_refused_advantage_claim_says_which_rule_stops_it() -> None:
    # rulebook "ADVANTAGE CARDS": "A player can gain victory points only from one Advantage
    # card in his round"; the condition is on the card
    st = comp(seed=3, p2="c3", p1="b3")
    set_res(st, 0, money=5)
    assert st.adv_row == [7, 1]
    with pytest.raises(IllegalAction, match=r"^Advantage 5 is not face up \(face up: 7, 1\)$"):
        st.command(0, "claim 5")
    with pytest.raises(IllegalAction, match="^you do not meet Advantage 7's condition: at "
                                            "least 2 Goal areas completed$"):
        st.command(0, "claim 7")
    with pytest.raises(IllegalAction, match="^there is no Advantage 11: the cards are 1-10$"):
        st.command(0, "claim 11")
    st.command(0, "claim 1")
    claim = f"claim {st.adv_row[-1]}"
    with pytest.raises(IllegalAction, match="^you have already taken an Advantage this round"):
        st.command(0, claim)


def test_the_empty_pool_step_says_why_and_what_it_costs() -> None:
    # "If a player was to place an Investment marker but has no Investment markers in the
    # pool he loses 1 victory point and retrieves an Investment marker from any area"
    st = comp(seed=3, p2="c3", p1="b3")
    for c in range(5):
        st.inv[c] = 0
    st.pools, st.dice = [0, 5], [6, 6]
    st.command(0, "done")
    st.command(0, "play 2 to b4")
    st.command(0, "pass")
    st.command(0, "pass")
    assert st.step == "take"
    assert ("Your move: your pool is empty: you lose 1 point and take back one of your "
            "markers (take <area>), then place it") in st.screen(0)
    assert st.explain(0, "take").startswith("take <area>: your pool is empty, and the final "
                                            "phase places a marker: you lose 1 victory point")
