"""Single-player basic mode, rule by rule (sections of shared/rules/micro-city.md)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mobadj.cards.microcity.board import CELL_NAMES
from mobadj.cards.protocol import IllegalAction
from mobadj.cli import main

from .helpers import at_invest, cell_of, new, put, set_dice, set_res, started, texts


# -- SETTING UP THE GAME -------------------------------------------------------------------
def test_setup_city_company_pool_hand_and_time() -> None:
    st = new(seed=5)
    # 1. four District cards in a 2x2 board, A side up: 16 Quarters
    assert len(st.city.cells()) == 16
    assert st.sides[:4] == ["A"] * 4
    assert len(set(st.city.district_ids)) == 4
    # 3. 8 Investment markers; 4. starting values 0, 0, 0 and 2
    assert st.pools == [8]
    assert st.res == [[0, 0, 0, 2]]
    # 6. Easy: Time marker on 10; 8. 6 Project cards in hand
    assert st.time == 10
    assert st.hands == [["1", "2", "3", "4", "5", "6"]]
    # 2. "Place the Engineer on a Quarter of your choice"
    assert len(st.legal_actions(0)) == 16
    assert all(t.startswith("start ") for t in texts(st))


def test_district_sides_have_one_more_die_on_b() -> None:
    # DISTRICT CARDS: "A side ... 1 or 2 dice. The B side ... one more than on the basic side"
    from mobadj.cards.microcity.cards import load_deck

    deck = load_deck()
    for d in deck.districts + deck.logistics_districts:
        for q in d.quarters:
            if q.type in ("logistics", "garden"):
                continue
            assert 1 <= len(q.dice["A"]) <= 2
            assert len(q.dice["B"]) == len(q.dice["A"]) + 1
            assert set(q.dice["A"]) < set(q.dice["B"])


def test_random_layout_depends_on_seed_only() -> None:
    # SETTING UP 1: "Pick 4 District cards and place them randomly" (seeded)
    assert new(seed=3).city.district_ids == new(seed=3).city.district_ids
    layouts = {new(seed=s).city.district_ids for s in range(30)}
    assert len(layouts) > 5


# -- difficulty table (BASIC MODE) -----------------------------------------------------------
@pytest.mark.parametrize(
    ("side", "difficulty", "rounds"),
    [("A", "easy", 10), ("A", "medium", 8), ("B", "medium", 15), ("B", "hard", 12)],
)
def test_basic_difficulty_table(side: str, difficulty: str, rounds: int) -> None:
    st = new(side=side, difficulty=difficulty)
    assert st.time == rounds
    assert st.building is not None and st.building_side == side


def test_basic_difficulty_not_in_table_is_refused() -> None:
    with pytest.raises(IllegalAction, match="side A is played at easy or medium"):
        new(side="A", difficulty="hard")
    with pytest.raises(IllegalAction, match="did you mean 'medium'"):
        new(difficulty="meduim")
    with pytest.raises(IllegalAction, match="unknown option 'mdoe'"):
        new(mdoe="basic")


# -- ENGINEER movement -----------------------------------------------------------------------
def test_engineer_moves_orthogonally_one_step() -> None:
    st = started(where="a1")
    assert sorted(CELL_NAMES[c] for c in st.city.destinations(st.cell("a1"), 1)) == ["a2", "b1"]
    assert sorted(CELL_NAMES[c] for c in st.city.destinations(st.cell("b2"), 1)) == [
        "a2", "b1", "b3", "c2"]


def test_two_step_move_cannot_return_to_start() -> None:
    # ENGINEER: "when moving two spaces he cannot come back to the Quarter he began on"
    st = started(where="b2")
    ends = sorted(CELL_NAMES[c] for c in st.city.destinations(st.cell("b2"), 2))
    assert ends == ["a1", "a3", "b4", "c1", "c3", "d2"]
    assert "b2" not in ends


def test_play_moves_exactly_the_cards_number_of_quarters() -> None:
    # Project phase 1: "Move your Engineer a number of Quarters indicated on the Project card"
    st = started(where="b2")
    st.command(0, "done")
    plays = {t for t in texts(st) if t.startswith("play 2 ")}  # card 2 moves 1
    assert plays == {"play 2 to a2", "play 2 to b1", "play 2 to b3", "play 2 to c2"}
    with pytest.raises(IllegalAction, match="moves you exactly 1"):
        st.command(0, "play 2 to d4")


# -- Preparation phase -------------------------------------------------------------------------
def test_preparation_rolls_two_dice() -> None:
    st = started()
    assert len(st.dice) == 2 and all(1 <= d <= 6 for d in st.dice)
    assert st.used == [False, False]
    assert any("rolled" in e for e in st.history(0))


def test_change_die_costs_a_material_or_two_money_and_wraps() -> None:
    # Preparation: "+1/-1 (you can change a 6 to a 1 and vice versa) by paying 1 Material or 2"
    st = started()
    set_dice(st, 6, 1)
    set_res(st, 0, coal=1, money=2)
    st.command(0, "change die1 up pay coal")
    assert st.dice[0] == 1 and st.res[0] == [0, 0, 0, 2]
    st.command(0, "change die2 down pay money")
    assert st.dice[1] == 6 and st.res[0] == [0, 0, 0, 0]
    # nothing left to pay with: no more changes
    assert not any(t.startswith("change") for t in texts(st))
    with pytest.raises(IllegalAction, match="cannot pay"):
        st.command(0, "change die1 up pay steel")


def test_change_die_repeatable_on_both_dice() -> None:
    st = started()
    set_dice(st, 3, 3)
    set_res(st, 0, wood=3)
    for _ in range(3):
        st.command(0, "change die1 up pay wood")
    assert st.dice == [6, 3]


def test_remove_investment_in_preparation() -> None:
    # Preparation: "pay 1 Material or 2 to remove 1 Investment marker from any Quarter"
    st = started()
    st.inv[st.cell("c3")] = 0
    st.pools[0] = 7
    set_res(st, 0, money=4)
    st.command(0, "remove c3 pay money")
    assert st.inv[st.cell("c3")] == -1 and st.pools == [8] and st.res[0][3] == 2
    with pytest.raises(IllegalAction, match="no Investment marker on c3"):
        st.command(0, "remove c3 pay money")


def test_sell_material_for_one_money() -> None:
    # Preparation: "You may sell 1 Material for 1"
    st = started()
    set_res(st, 0, steel=2, money=5)
    st.command(0, "sell steel")
    assert st.res[0] == [0, 1, 0, 5]  # money at 5 stays 5: overflow lost
    with pytest.raises(IllegalAction, match="no coal to sell"):
        st.command(0, "sell coal")


# -- Project phase -----------------------------------------------------------------------------
def test_project_basic_action_then_discard() -> None:
    st = started(where="b2")
    st.command(0, "done")
    st.command(0, "play 2 to b1")  # Supplier: basic gain 1 money
    assert st.step == "card" and st.in_play == "2"
    st.command(0, "basic")
    assert st.res[0][3] == 3
    assert st.discards == [["2"]] and "2" not in st.hands[0]


def test_project_advanced_needs_matching_die_and_uses_it() -> None:
    # Project phase: "advanced action ... by using a die ... the value of which corresponds"
    st = started(where="b2")
    set_dice(st, 5, 2)
    st.command(0, "done")
    st.command(0, "play 5 to b4")  # Merchant die 5: gain 2 Materials
    assert "advanced coal wood" in texts(st)
    st.command(0, "advanced wood coal")  # any order
    assert st.res[0][:3] == [1, 0, 1]
    assert st.used == [True, False]
    st2 = started(where="b2")
    set_dice(st2, 1, 2)
    st2.command(0, "done")
    st2.command(0, "play 5 to b4")
    assert not any(t.startswith("advanced") for t in texts(st2))
    with pytest.raises(IllegalAction, match=r"Project 5's advanced action needs an unused "
                                            r"die showing 5 \(your unused dice: 1 2\)"):
        st2.command(0, "advanced coal coal")


def test_retrieve_moves_one_and_returns_all_cards() -> None:
    # Project phase 2: "Move your Engineer 1 Quarter and retrieve all Project cards"
    st = started(where="b2")
    st.discards[0] = ["1", "3"]
    st.hands[0] = ["2", "4", "5", "6"]
    st.command(0, "done")
    st.command(0, "retrieve to c2")
    assert st.engineer[0] == st.cell("c2")
    assert st.hands[0] == ["1", "2", "3", "4", "5", "6"] and st.discards == [[]]


def test_card_action_may_be_forgone() -> None:
    st = started(where="b2")
    st.command(0, "done")
    st.command(0, "play 3 to a1")  # Demolition: nothing to remove
    assert texts(st) == ["pass"]
    st.command(0, "pass")
    assert st.discards == [["3"]]


def test_upgrade_flips_district_to_b() -> None:
    # DISTRICT CARDS: "Upgrading a District takes place after playing the appropriate card"
    st = started(where="b2")
    st.command(0, "done")
    st.command(0, "play 4 to b1")  # Architect basic: upgrade the District here (nw)
    st.command(0, "basic")
    assert st.sides[0] == "B"
    spec = st.city.specs[st.cell("b1")]
    assert st.quarter_dice(st.cell("b1")) == spec.dice["B"]


# -- Investment phase --------------------------------------------------------------------------
def test_investment_phase_skipped_on_a_marker() -> None:
    # Investment phase: "Skip this step if ... an Investment marker is already present"
    st = started(where="b2")
    st.inv[st.cell("b1")] = 0
    st.pools[0] = 7
    st.command(0, "done")
    turn = st.turn
    st.command(0, "retrieve to b1")
    assert st.turn == turn + 1  # straight to the final phase; the next round began
    assert st.pools == [7]  # no new marker: one lies there already


def test_industrial_basic_and_advanced() -> None:
    st = started()
    q = cell_of(st, "industrial", "coal")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, die)
    assert set(texts(st)) == {"basic", "advanced", "pass"}
    st.command(0, "advanced")  # Industrial advanced: 2 Materials depicted
    assert st.res[0][0] == 2


def test_industrial_basic_one_material() -> None:
    st = started()
    q = cell_of(st, "industrial", "wood")
    at_invest(st, q, 0, 0)
    st.command(0, "basic")
    assert st.res[0][2] == 1


def test_commercial_exchange_and_money() -> None:
    # Commercial basic: 1 Material for 1 of a different type, gain 1
    st = started()
    q = cell_of(st, "commercial")
    at_invest(st, q, 0, 0)
    set_res(st, 0, coal=1)
    assert sorted(t for t in texts(st) if t.startswith("basic")) == [
        "basic coal for steel", "basic coal for wood"]
    st.command(0, "basic coal for wood")
    assert st.res[0] == [0, 0, 1, 2]  # +1 traded, +1 in the final phase (both dice unused)


def test_commercial_advanced_one_for_two() -> None:
    st = started()
    q = cell_of(st, "commercial")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    set_res(st, 0, steel=1)
    assert "advanced steel for coal coal" in texts(st)
    assert "advanced steel for coal wood" in texts(st)
    st.command(0, "advanced steel for coal wood")
    assert st.res[0] == [1, 0, 1, 1]


def test_residential_basic_two_money() -> None:
    st = started()
    at_invest(st, cell_of(st, "residential"), 0, 0)
    st.command(0, "basic")
    assert st.res[0][3] == 5  # 2 + 2, and +1 for two unused dice


def test_residential_advanced_completes_a_stage() -> None:
    # Residential advanced: spend the Resources, place a marker from the pool on the stage
    st = started()
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    set_res(st, 0, coal=1, wood=1, money=2)
    assert "advanced stage 1" in texts(st)
    assert "advanced stage 2" not in texts(st)  # 1 steel 2 money: no steel
    st.command(0, "advanced stage 1")
    assert st.stage_marks[0] == 0 and st.res[0] == [0, 0, 0, 2]
    assert st.pools == [6]  # one on the stage, one on the Quarter in the final phase


def test_stage_cannot_be_completed_without_markers() -> None:
    # Residential note: "This action cannot be performed if there are no markers available"
    st = started()
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    set_res(st, 0, coal=1, wood=1)
    st.pools[0] = 0
    for c in range(8):
        st.inv[c if c != st.cell(q) else 15] = 0
    st.__dict__["_cache"] = None
    assert not any(t.startswith("advanced") for t in texts(st))


def test_win_immediately_on_final_stage() -> None:
    # Game end: "You are victorious immediately when the final stage ... is completed"
    st = started()
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    st.stage_marks = [0, 0, -1]
    st.pools[0] = 6
    set_res(st, 0, coal=1, steel=1, wood=1)
    st.command(0, "advanced stage 3")
    assert st.is_over() and st.result == "win"
    assert st.winners() == [0] and st.scores() == [1.0]
    assert st.to_act() == []


# -- Final phase ---------------------------------------------------------------------------
def test_final_places_marker_moves_time_and_pays_unused_dice() -> None:
    st = started()
    at_invest(st, cell_of(st, "residential"), 0, 0)
    st.command(0, "pass")
    # 1. marker on the Quarter; 2. Time marker down; 3. both dice unused: +1
    assert st.inv[st.engineer[0]] == 0 and st.pools == [7]
    assert st.time == 9
    assert st.res[0][3] == 3
    assert st.step == "prep" and st.turn == 1  # a new round began


def test_final_no_money_when_a_die_was_used() -> None:
    st = started()
    q = cell_of(st, "industrial")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    st.command(0, "advanced")
    assert st.res[0][3] == 2


def test_loss_when_no_marker_to_place() -> None:
    # Game end 2: "place an Investment marker ... no available markers" -> loss
    st = started()
    at_invest(st, cell_of(st, "residential"), 0, 0)
    st.pools[0] = 0
    st.stage_marks = [0, 0, -1]
    for c in range(16):
        if c != st.engineer[0] and sum(1 for o in st.inv if o >= 0) < 6:
            st.inv[c] = 0
    st.command(0, "pass")
    assert st.result == "loss" and st.winners() == [] and st.scores() == [0.0]


def test_loss_when_time_reaches_zero() -> None:
    # Game end 1: "The Time marker on the round track reaches the 0 spot"
    st = started()
    st.time = 1
    at_invest(st, cell_of(st, "residential"), 0, 0)
    st.command(0, "pass")
    assert st.result == "loss" and st.time == 0


# -- resources --------------------------------------------------------------------------------
def test_resources_capped_at_five_overflow_lost() -> None:
    # COMPANY CARDS: "You can never have more than 5 of any Resource"
    st = started()
    q = cell_of(st, "industrial", "steel")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    set_res(st, 0, steel=4)
    st.command(0, "advanced")
    assert st.res[0][1] == 5


def test_costs_must_be_payable() -> None:
    # COMPANY CARDS: "You cannot perform an action if you are unable to cover its cost"
    st = started()
    at_invest(st, cell_of(st, "commercial"), 0, 0)
    set_res(st, 0, money=5)
    assert not any(t.startswith("basic") for t in texts(st))


def test_not_your_turn_and_game_over() -> None:
    st = started()
    with pytest.raises(IllegalAction, match="not your turn"):
        st.apply(1, st.legal_actions(0)[0])
    put(st, 0, "a1")
    assert st.legal_actions(1) == []


# -- the authored Project cards (data file; "PROJECT CARDS") ---------------------------------
def _card_step(card: str, dice: tuple[int, int], where: str = "b2", **options):
    st = started(where=where, **options)
    set_dice(st, *dice)
    st.command(0, "done")
    dest = next(t.split()[-1] for t in texts(st) if t.startswith(f"play {card} "))
    st.command(0, f"play {card} to {dest}")
    return st


def test_surveyor_changes_or_sets_a_die() -> None:
    st = _card_step("1", (1, 6))
    assert {"basic die1 up", "basic die1 down", "basic die2 up", "basic die2 down"} <= set(
        texts(st))
    # advanced: the die showing 1 is spent, so only the other die can be set
    adv = [t for t in texts(st) if t.startswith("advanced")]
    assert adv == [f"advanced die2 {v}" for v in range(1, 6)]
    st.command(0, "advanced die2 3")
    assert st.dice == [1, 3] and st.used[0] and st.res[0][3] == 3


def test_supplier_advanced_is_one_option_solo() -> None:
    st = _card_step("2", (2, 5))
    st.inv[0] = 0
    st.pools[0] = 7
    st.__dict__["_cache"] = None
    adv = sorted(t for t in texts(st) if t.startswith("advanced"))
    assert adv == ["advanced a1", "advanced coal", "advanced steel", "advanced wood"]


def test_demolition_advanced_removes_two_markers() -> None:
    st = _card_step("3", (3, 5))
    st.inv[0] = st.inv[15] = st.inv[3] = 0
    st.pools[0] = 5
    st.__dict__["_cache"] = None
    st.command(0, "advanced a1 d4")
    assert st.inv[0] == -1 and st.inv[15] == -1 and st.inv[3] == 0
    assert st.res[0][3] == 3


def test_demolition_advanced_on_a_clear_city_still_pays_its_money() -> None:
    # ruling 5: "Remove N markers from any area" removes exactly N (fewer if fewer lie on
    # the board): with none on the board the advanced action removes none and pays +1 money
    typed = "start b2\ndone\nplay 3 to b4\nadvanced\nquit\n"
    result = CliRunner().invoke(main, ["play", "microcity", "--seed", "6"], input=typed)
    assert "Dice: die1 6, die2 3; markers in the pool: 8; card in play: 3" in result.output
    assert "cannot be carried out now" not in result.output
    assert "- P1 (Project 3): advanced" in result.output
    assert "P1 0c 0s 0w 3$" in result.output.split("P1 (Project 3): advanced")[1]


def test_merchant_basic_exchange() -> None:
    st = _card_step("5", (1, 1))
    set_res(st, 0, wood=1)
    st.command(0, "basic wood for coal")
    assert st.res[0][:3] == [1, 0, 0]


def test_every_project_card_moves_one_or_two() -> None:
    from mobadj.cards.microcity.cards import load_deck

    deck = load_deck()
    assert sorted(p.die for p in deck.projects) == [1, 2, 3, 4, 5, 6]
    assert all(p.move in (1, 2) for p in deck.projects)


def test_a_built_stage_keeps_its_marker() -> None:
    # "GOAL CARDS" (line 326): "Unlike in the case of Building cards, Investment marker on
    # Goal cards can be placed and removed repeatedly": a completed stage stays built, so
    # "remove ... from any area" does not take its marker (and its bonus is paid once)
    st = _card_step("3", (3, 5))
    assert st.cfg.stage_markers == "fixed"
    st.inv[0] = 0
    st.stage_marks[1] = 0
    st.pools[0] = 6
    st.__dict__["_cache"] = None
    assert "basic a1" in texts(st)
    assert not any("stage" in t for t in texts(st))
    with pytest.raises(IllegalAction, match="'basic stage2' is not possible; possible: "
                                            "basic a1"):
        st.command(0, "basic stage2")
    assert st.stage_marks[1] == 0 and st.pools[0] == 6


def test_stage_markers_removable_un_builds_the_stage_and_says_so() -> None:
    # the option (rulings 2): "any area" ("PROJECT CARDS", line 93) includes a Building
    # stage, whose marker goes back to the pool; the log says the stage is no longer built
    st = _card_step("3", (3, 5), stage_markers="removable")
    st.inv[0] = 0
    st.stage_marks[1] = 0
    st.pools[0] = 6
    st.__dict__["_cache"] = None
    assert {"basic a1", "basic stage2"} <= set(texts(st))
    assert "advanced a1 stage2" in texts(st)
    st.command(0, "basic stage2")
    assert st.stage_marks[1] == -1 and st.pools[0] == 7 and st.inv[0] == 0
    assert not st.check_invariants()
    log = st.history(0)
    assert any("stage2 returns to its pool" in e for e in log)
    assert "Building stage 2 is no longer built" in log
    with pytest.raises(IllegalAction, match="expected one of fixed, removable"):
        new(stage_markers="sometimes")


def test_a_refused_advanced_action_says_why_when_the_die_is_showing() -> None:
    # "You cannot perform an action if you are unable to cover its cost": the Architect's
    # die (4) is showing, but no stage is affordable with 4 money; the refusal says so
    typed = "start b2\ndone\nplay 2 to c2\nbasic\npass\ndone\nplay 4 to b2\nadvanced\nquit\n"
    result = CliRunner().invoke(main, ["play", "microcity", "--seed", "5"], input=typed)
    assert "Dice: die1 3, die2 4; markers in the pool: 7; card in play: 4" in result.output
    assert "! you cannot pay for any stage (stage 1 needs 1 coal 1 wood, stage 2 needs 1 " \
           "steel 2 money, stage 3 needs 1 coal 1 steel 1 wood); you have 4 money" \
           in result.output
    assert "needs a die of the right value" not in result.output


def test_a_refused_advanced_action_names_the_missing_die_or_the_empty_pool() -> None:
    # Residential: "This action cannot be performed if there are no Investment markers
    # available"
    st = started(where="b2")
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, die)
    set_res(st, 0, 5, 5, 5, 5)
    st.pools[0] = 0
    with pytest.raises(IllegalAction, match="no Investment marker left in your pool to put "
                                            "on the stage"):
        st.command(0, "advanced stage 1")
    other = next(v for v in range(1, 7) if v not in st.quarter_dice(st.cell(q)))
    at_invest(st, q, other, other)
    with pytest.raises(IllegalAction, match=rf"the residential Quarter's advanced action "
                                            rf"needs an unused die showing .* \(your unused "
                                            rf"dice: {other} {other}\)"):
        st.command(0, "advanced")


def test_a_basic_action_without_its_material_says_so() -> None:
    # Commercial: "Exchange 1 Material for 1 Material of a different type" needs a Material
    typed = ("start b2\ndone\nplay 2 to c2\nbasic\nbasic\ndone\nplay 1 to c4\nbasic die1 up\n"
             "basic\nquit\n")
    result = CliRunner().invoke(main, ["play", "microcity", "--seed", "5"], input=typed)
    assert ("! no basic action is possible now: you have no Material to exchange (you have 5 "
            "money)") in result.output
    assert "no basic action is possible now; the Quarter's action" not in result.output


def test_demolition_on_a_clear_city_says_no_marker_lies_on_the_board() -> None:
    st = started(where="b2")
    st.command(0, "done")
    st.command(0, "play 3 to a1")
    with pytest.raises(IllegalAction, match="^no basic action is possible now: no Investment "
                                            "marker lies on the board to remove$"):
        st.command(0, "basic")


def test_the_log_tells_gains_the_cap_of_five_swallowed() -> None:
    # "You can never have more than 5 of any Resource ... the excess is lost"
    st = started(seed=5, where="b2")
    set_res(st, 0, coal=5, money=5)
    st.command(0, "sell coal")
    assert st.history(0)[-1] == "P1 sells 1 coal; money is already at 5, so the 1 money is lost"
    assert st.res[0] == [4, 0, 0, 5]
    st.command(0, "done")
    st.command(0, "play 2 to c2")
    st.command(0, "basic")
    st.command(0, "basic")
    assert "P1 left both dice unused: +1 money, lost: money is already at 5" in st.history(0)
    assert "P1 left both dice unused: +1 money" not in st.history(0)


def test_the_log_says_what_each_action_gave() -> None:
    typed = "start b2\ndone\nplay 2 to c2\nbasic\nbasic\nhistory\nquit\n"
    result = CliRunner().invoke(main, ["play", "microcity", "--seed", "5"], input=typed)
    history = result.output.split("P1> Micro City, solo")[1]
    assert "P1 (Project 2): basic: +1 money\nP1 (Quarter): basic: +2 money\n" in history


def test_refusals_read_as_words_not_parser_tokens() -> None:
    typed = "start b2 c2\nstart b2\nchange die1 up pay coal\nplay 2 to b1 now\nquit\n"
    result = CliRunner().invoke(main, ["play", "microcity", "--seed", "9", "-o",
                                       "expansions=garden"], input=typed)
    assert "! unexpected 'c2', at column 10, expected the end of the command" in result.output
    assert "! you cannot pay 1 coal (you have 0 coal)" in result.output
    assert "<end-of-file>" not in result.output
