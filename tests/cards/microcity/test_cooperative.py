"""The 2-player cooperative variant (rulebook 2 PLAYER COOPERATIVE VARIANT)."""

from __future__ import annotations

import pytest

from mobadj.cards.protocol import CommandError, IllegalAction

from .helpers import cell_of, new, set_res, texts


def coop(seed: int = 1, **options):
    st = new(seed, 2, **options)
    st.command(0, "start b2")
    st.command(1, "start b2")  # "it can be the same Quarter"
    return st


def test_setup_shared_pool_and_hand_own_companies() -> None:
    st = new(1, 2)
    assert st.cfg.coop and not st.cfg.competitive
    assert st.pools == [8]  # 3. 8 markers shared
    assert st.res == [[0, 0, 0, 2], [0, 0, 0, 2]]  # 4. both start with 0, 0, 0 and 2
    assert st.hands == [["1", "2", "3", "4", "5", "6"]]  # one shared set of Project cards
    assert st.to_act() == [0]
    st.command(0, "start a1")
    assert st.to_act() == [1]
    assert "start a1" in texts(st, 1)  # the same Quarter is allowed


def test_four_dice_rolled_and_split_two_each() -> None:
    # "One of the players rolls all 4 dice and they collectively decide which pool each die
    # goes to (each player takes exactly 2 dice)"; ruling: the first player assigns
    st = coop()
    assert st.step == "assign" and len(st.dice) == 4
    assert len(st.legal_actions(0)) == 6
    st.command(0, "assign 3 1")
    assert st.die_owner == [0, 1, 0, 1]
    assert st.own_dice(0) == [0, 2] and st.own_dice(1) == [1, 3]


def test_preparation_together_then_rounds_in_turn() -> None:
    st = coop()
    st.command(0, "assign 1 2")
    st.command(0, "done")
    assert st.to_act() == [1] and st.step == "prep"
    st.command(1, "done")
    assert st.to_act() == [0] and st.step == "project"


def test_either_player_may_change_any_die() -> None:
    # Note 1: "he may do so on any die (either his own or the other player's)"
    st = coop()
    st.command(0, "assign 1 2")
    set_res(st, 0, coal=1)
    assert "change die4 up pay coal" in texts(st, 0)


def test_resources_are_not_shared() -> None:
    # Note 2: "Players may not exchange or give each other any Resources."
    st = coop()
    st.command(0, "assign 1 2")
    set_res(st, 0, coal=2, money=0)
    st.command(0, "change die3 up pay coal")
    assert st.res[0][0] == 1 and st.res[1] == [0, 0, 0, 2]


def test_full_round_order_and_time_in_each_final_phase() -> None:
    # "The first player then executes his round following the base rules ... (project phase
    # -> investment phase -> final phase)", then the second player; then a new preparation
    st = coop()
    st.command(0, "assign 1 2")
    st.command(0, "done")
    st.command(1, "done")
    st.command(0, "retrieve to b1")
    if st.step == "invest":
        st.command(0, "pass")
    # the first player's final phase: marker placed, Time marker moved
    assert st.time == 9 and st.to_act() == [1] and st.step == "project"
    assert st.pools == [7]
    st.command(1, "retrieve to c2")
    if st.step == "invest":
        st.command(1, "pass")
    assert st.time == 8 and st.turn == 1 and st.step == "assign"


def test_project_cards_pass_to_the_partner() -> None:
    # "Unused Project cards are then passed to the second player."
    st = coop()
    st.command(0, "assign 1 2")
    st.command(0, "done")
    st.command(1, "done")
    st.command(0, "play 2 to b1")
    st.command(0, "basic")
    if st.step == "invest":
        st.command(0, "pass")
    assert not any(t.startswith("play 2 ") for t in texts(st, 1))
    assert any(t.startswith("play 3 ") for t in texts(st, 1))


def test_own_dice_for_advanced_actions_and_unused_bonus() -> None:
    st = coop()
    st.command(0, "assign 1 2")
    q = cell_of(st, "industrial")
    die = st.quarter_dice(st.cell(q))[0]
    other = next(v for v in range(1, 7) if v not in st.quarter_dice(st.cell(q)))
    st.dice = [die, die, other, other]
    st.step, st.current = "invest", 1
    st.engineer[1] = st.cell(q)
    st.__dict__["_cache"] = None
    # "Each player has their own pool of 2 dice": P1's matching dice do not help P2
    assert "advanced" not in texts(st, 1)
    st.command(1, "pass")
    assert st.res[1][3] == 3  # P2 left both own dice unused: +1


def test_x_card_is_an_option_and_gives_materials() -> None:
    # "players can add an additional Project card marked X ... exchange Materials"
    assert new(1, 2, xcard=True).hands == [["1", "2", "3", "4", "5", "6", "X"]]
    with pytest.raises(IllegalAction, match="cooperative"):
        new(1, 1, xcard=True)
    st = coop(xcard=True)
    st.command(0, "assign 1 2")
    st.command(0, "done")
    st.command(1, "done")
    set_res(st, 0, wood=2)
    st.command(0, "play x to a1")
    st.command(0, "basic wood")
    assert st.res[0][2] == 1 and st.res[1][2] == 1


def test_shared_loss_and_win() -> None:
    st = coop()
    st.command(0, "assign 1 2")
    st.command(0, "done")
    st.command(1, "done")
    st.pools[0] = 0
    for c in range(8):
        st.inv[c] = 0
    st.inv[st.cell("b2")] = -1
    st.__dict__["_cache"] = None
    # a free Quarter one step away: the final phase cannot place a marker
    st.command(0, "retrieve to c2" if st.inv[st.cell("c2")] < 0 else "retrieve to b3")
    if st.step == "invest":
        st.command(0, "pass")
    assert st.result == "loss" and st.winners() == [] and st.scores() == [0.0, 0.0]


def test_a_wrong_die_assignment_says_what_is_wrong() -> None:
    st = coop()
    with pytest.raises(IllegalAction, match=r"^give P1 two different dice: 'assign 1 1' names "
                                            r"die 1 twice"):
        st.command(0, "assign 1 1")
    with pytest.raises(IllegalAction, match=r"^there is no die 5: the dice are 1-4"):
        st.command(0, "assign 1 5")


def test_an_incomplete_assign_asks_for_a_die_of_the_four() -> None:
    st = coop()
    with pytest.raises(CommandError, match="the command is incomplete, at column 9, expected a "
                                           "die 1-4"):
        st.command(0, "assign 1")
