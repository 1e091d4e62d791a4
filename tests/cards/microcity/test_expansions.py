"""Logistics, Seaport and Garden expansions (rulebook sections of the same names)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mobadj.cards.microcity.board import CELL_NAMES
from mobadj.cards.protocol import IllegalAction
from mobadj.cards.report import end_report
from mobadj.cli import main

from .helpers import at_invest, new, set_res, started, texts


def _find(st, kind: str) -> str:
    for c in st.city.cells():
        if st.city.specs[c].type == kind:
            return CELL_NAMES[c]
    raise LookupError(kind)


# -- LOGISTICS -----------------------------------------------------------------------------
def test_logistics_replaces_one_basic_district() -> None:
    # "remove one random basic District card and replace it with one random District from
    # the Logistics expansion"
    for seed in range(8):
        ids = new(seed, expansions="logistics").city.district_ids
        assert sum(1 for i in ids if i in (5, 6, 7)) == 1
        assert len(ids) == 4


def test_logistics_quarter_needs_a_die_of_any_value() -> None:
    # "The logistics Quarter has 2 basic actions but requires using a die of ANY value."
    st = started(seed=2, expansions="logistics")
    q = _find(st, "logistics")
    at_invest(st, q, 3, 3)
    st.inv[0] = st.inv[1] = 0
    st.pools[0] = 6
    if st.cell(q) in (0, 1):
        st.inv[st.cell(q)] = -1
        st.inv[2] = 0
    set_res(st, 0, money=1)
    options = texts(st)
    assert "basic die1 coal wood" in options  # exchange 1 money for 2 Materials
    assert all(t.startswith("basic die1") or t == "pass" for t in options)  # equal dice: one
    retrieve = [t for t in options if t.count(" ") == 3 and t.split()[2][0] in "abcd"]
    assert retrieve  # retrieve 2 Investment markers
    money = st.res[0][3]
    st.command(0, retrieve[0])
    a, b = retrieve[0].split()[2:4]
    assert st.inv[st.cell(a)] == -1 and st.inv[st.cell(b)] == -1  # back to the pool
    assert st.res[0][3] == money  # a die was used: no +1 in the final phase


def test_logistics_without_dice_no_action() -> None:
    st = started(seed=2, expansions="logistics")
    at_invest(st, _find(st, "logistics"), 3, 4)
    st.used = [True, True]
    st.__dict__["_cache"] = None
    assert texts(st) == ["pass"]


# -- GARDEN ---------------------------------------------------------------------------------
def test_garden_at_the_centre_and_impassable() -> None:
    # "Place the card so that the Garden is surrounded by other quarters on all 4 sides";
    # "A player's Engineer cannot move through or stop on the Garden quarter."
    for seed in range(8):
        st = new(seed, expansions="garden")
        g = st.city.garden
        assert CELL_NAMES[g] in ("b2", "c2", "b3", "c3")
        assert g not in st.city.cells()
        for c in st.city.cells():
            assert g not in st.city.adjacent[c]
            assert g not in st.city.destinations(c, 2)
        assert 9 in st.city.district_ids


def test_garden_bonus_in_final_phase() -> None:
    # "If a player has 2 or more investment markers on quarters surrounding it orthogonally
    # in the Final phase he gains 1"
    st = started(seed=1, expansions="garden")
    g = st.city.garden
    around = [c for c in st.city.cells() if g in _orth(c)]
    st.inv[around[0]] = 0
    st.pools[0] = 7
    at_invest(st, CELL_NAMES[around[1]], 0, 0)
    st.used = [True, False]  # no unused-dice money
    st.__dict__["_cache"] = None
    money = st.res[0][3]
    st.command(0, "pass")
    assert st.res[0][3] == money + 1


def _orth(c: int) -> list[int]:
    r, col = divmod(c, 4)
    return [x * 4 + y for x, y in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1))
            if 0 <= x < 4 and 0 <= y < 4]


# -- SEAPORT -----------------------------------------------------------------------------------
def test_seaport_setup_rounds_and_markers() -> None:
    # "place 4 additional Investment markers ... and add 10 rounds to the time track"
    st = new(1, expansions="seaport")
    assert st.time == 20 and st.contract_pool == 4 and len(st.contract_marks) == 4
    assert new(1, 2, mode="competitive", expansions="seaport").time == 20


def test_seaport_is_one_quarter_entered_from_two_neighbours() -> None:
    # "An Engineer can enter it from any of the 2 neighbouring Quarters. An Engineer cannot
    # move directly from one Seaport Quarter to the other."
    st = new(1, expansions="seaport")
    s1, s2 = st.cell("s1"), st.cell("s2")
    assert sorted(CELL_NAMES[c] for c in st.city.adjacent[s1]) == ["a1", "a2"]
    assert sorted(CELL_NAMES[c] for c in st.city.adjacent[s2]) == ["a3", "a4"]
    assert s2 not in st.city.adjacent[s1]
    assert s1 in st.city.destinations(st.cell("a1"), 1)


def test_seaport_basic_side_a_and_b() -> None:
    # SEAPORT basic A: 1 Material for 2 money; B: 1 Material for 3 money + 1 Project card
    st = started(expansions="seaport")
    at_invest(st, "s1", 0, 0)
    st.used = [True, True]
    set_res(st, 0, coal=1)
    st.command(0, "basic coal")
    assert st.res[0] == [0, 0, 0, 2]
    st = started(expansions="seaport")
    at_invest(st, "s1", 0, 0)
    st.used = [True, True]
    st.sides[4] = "B"
    st.discards[0] = ["3"]
    st.hands[0] = ["1", "2", "4", "5", "6"]
    set_res(st, 0, wood=1)
    st.command(0, "basic wood 3")
    assert st.res[0] == [0, 0, 0, 3] and "3" in st.hands[0]


def test_seaport_advanced_completes_one_of_its_contracts() -> None:
    st = started(expansions="seaport")
    die = st.quarter_dice(st.cell("s2"))[0]
    at_invest(st, "s2", die, 0)
    set_res(st, 0, 5, 5, 5, 5)
    adv = sorted(t for t in texts(st) if t.startswith("advanced"))
    assert adv == ["advanced contract s2.1", "advanced contract s2.2"]
    st.command(0, "advanced contract s2.1")
    assert st.contract_marks[2] == 0 and st.contract_pool == 3
    assert st.step == "bonus"  # the Contract's bonus


def test_seaport_solo_win_needs_building_and_all_contracts() -> None:
    # "In the solo and cooperative modes Contracts are an additional goal and all 4 have to
    # be completed in order to win the game."
    st = started(expansions="seaport")
    from .helpers import cell_of

    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    st.stage_marks = [0, 0, -1]
    st.pools[0] = 6
    set_res(st, 0, 5, 5, 5, 5)
    st.command(0, "advanced stage 3")
    assert st.result is None  # Contracts still open
    st.contract_marks = [0, 0, 0, -1]
    st.contract_pool = 1
    die = st.quarter_dice(st.cell("s2"))[0]
    st.result = None
    at_invest(st, "s2", die, 0)
    set_res(st, 0, 5, 5, 5, 5)
    st.command(0, "advanced contract s2.2")
    assert st.result == "win"


def test_project_build_can_complete_any_contract() -> None:
    # "perform an advanced action on the Seaport Quarter (or a build action from a Project
    # card)"
    st = started(expansions="seaport", where="b2")
    st.dice = [4, 6]
    set_res(st, 0, 5, 5, 5, 5)
    st.command(0, "done")
    st.command(0, "play 4 to b1")
    adv = {t for t in texts(st) if t.startswith("advanced contract")}
    assert adv == {f"advanced contract s{a}.{b}" for a in (1, 2) for b in (1, 2)}


def test_seaport_upgrade_keeps_contract_markers_solo() -> None:
    st = started(expansions="seaport", where="b2")
    st.contract_marks[0] = 0
    st.contract_pool = 3
    st.dice = [6, 1]
    st.command(0, "done")
    st.command(0, "play 6 to b1")
    st.command(0, "advanced s1")
    assert st.sides[4] == "B" and st.contract_marks[0] == 0


def test_competitive_contract_gives_points() -> None:
    # "In the competitive mode place one of your own Investment markers ... and gain victory
    # points equal to the value shown on the Contract."
    st = new(1, 2, mode="competitive", expansions="seaport")
    st.command(1, "start b2")
    st.command(0, "start c2")
    die = st.quarter_dice(st.cell("s1"))[0]
    st.engineer[0] = st.cell("s1")
    st.dice, st.step = [die, 0], "invest"
    set_res(st, 0, 5, 5, 5, 5)
    st.__dict__["_cache"] = None
    st.command(0, "advanced contract s1.1")
    vp = st.city.seaports[0].contracts[0].vp
    assert st.vp[0] == vp
    assert st.contract_marks[0] == 0
    assert f"P1 completes Contract s1.1: +{vp} points" in st.history(1)  # the opponent's log
    report = "\n".join(end_report(st))  # the end's table counts it under Contracts
    assert f"Contracts {vp} (s1.1 +{vp})" in report and "card effects" not in report


@pytest.mark.parametrize("combo", ["logistics,seaport", "garden,seaport", "logistics,garden",
                                   "logistics,seaport,garden"])
def test_expansions_combine(combo: str) -> None:
    st = new(5, expansions=combo)
    names = set(combo.split(","))
    assert st.cfg.expansions == names
    if "garden" in names:
        assert st.city.garden is not None
    if "logistics" in names:
        assert any(i in (5, 6, 7) for i in st.city.district_ids)
    if "seaport" in names:
        assert st.city.specs[16] is not None


def test_unknown_expansion_suggests() -> None:
    with pytest.raises(IllegalAction, match="did you mean 'garden'"):
        new(1, expansions="gardn")


def test_garden_bonus_counts_own_markers_in_competitive() -> None:
    # GARDEN: "If a player has 2 or more investment markers on quarters surrounding it"
    st = new(1, 2, mode="competitive", expansions="garden")
    g = st.city.garden
    around = [c for c in st.city.cells() if g in _orth(c)]
    st.command(1, f"start {CELL_NAMES[around[3]]}")
    st.command(0, f"start {CELL_NAMES[around[2]]}")
    st.inv[around[0]] = 1  # the opponent's marker does not count for P1
    st.pools[1] = 4
    st.engineer[0] = around[1]
    st.dice, st.used, st.step = [0, 0], [True, True], "invest"
    st.__dict__["_cache"] = None
    money = st.res[0][3]
    st.command(0, "pass")
    assert st.res[0][3] == money  # one own marker (just placed) + one of the opponent's


def test_logistics_retrieve_takes_either_players_markers_in_competitive() -> None:
    # "that player may remove his own or his opponent's marker (e.g. to unlock a Goal)"
    st = new(3, 2, mode="competitive", expansions="logistics")
    q = _find(st, "logistics")
    others = [CELL_NAMES[c] for c in st.city.cells() if CELL_NAMES[c] != q]
    st.command(1, f"start {others[0]}")
    st.command(0, f"start {others[1]}")
    st.goal_marks[0][1] = 1
    st.pools[1] = 4
    st.engineer[0] = st.cell(q)
    st.dice, st.used, st.step = [3, 5], [False, False], "invest"
    st.__dict__["_cache"] = None
    st.inv[st.cell(others[5])] = 0
    st.pools[0] = 4
    st.__dict__["_cache"] = None
    st.command(0, f"basic die1 {others[5]} g1.2")
    assert st.goal_marks[0][1] == -1 and st.inv[st.cell(others[5])] == -1
    assert st.pools[1] == 5  # the opponent's marker went back to the opponent's pool


def test_cooperative_extended_flip_returns_the_shared_markers() -> None:
    from mobadj.cards.microcity.cards import load_deck

    st = new(1, 2, mode="extended")
    st.command(0, "start b2")
    st.command(1, "start c3")
    st.command(0, "assign 1 2")
    q = next(CELL_NAMES[c] for c in st.city.cells() if st.city.specs[c].type == "residential")
    die = st.quarter_dice(st.cell(q))[0]
    st.dice = [die, 0, 0, 0]
    st.engineer[0], st.step, st.current = st.cell(q), "invest", 0
    st.stage_marks = [0, 0, -1]
    st.inv[0] = 0
    st.pools[0] = 5
    set_res(st, 0, 5, 5, 5, 5)
    st.command(0, "advanced stage 3")
    assert st.building_side == "B"
    assert len(st.stage_marks) == len(load_deck().basic_building["B"].stages)
    assert st.pools[0] == 7 and not st.check_invariants()  # 8 back, 1 placed by P1's final


def _competitive_foreman(**options):
    """A competitive Seaport game: P1 in the card step of the Foreman (advanced: upgrade
    any District), with markers of both players on Seaport s1's Contracts and Quarter."""
    st = new(1, 2, mode="competitive", expansions="seaport", **options)
    st.command(1, "start b2")
    st.command(0, "start c2")
    st.contract_marks[0], st.contract_marks[1] = 0, 1
    st.inv[16] = 1
    st.pools = [4, 3]
    st.vp = [3, 4]
    st.dice, st.used = [6, 6], [False, False]
    st.__dict__["_cache"] = None
    st.command(0, "done")
    dest = next(t.split()[-1] for t in texts(st) if t.startswith("play 6 "))
    st.command(0, f"play 6 to {dest}")
    return st


def test_competitive_seaport_upgrade_puts_the_contract_markers_back_on_their_spots() -> None:
    # SEAPORT EXPANSION (line 471): "In the competitive mode all markers are removed and
    # placed back in their owners investment pool (after upgrading, place them back on the
    # same Contract spot)": the Contracts stay completed, so none can score twice
    st = _competitive_foreman()
    assert st.cfg.seaport_upgrade == "keep"
    st.command(0, "advanced s1")
    assert st.sides[4] == "B"
    assert st.contract_marks[:2] == [0, 1] and st.inv[16] == 1 and st.pools == [4, 3]
    assert not [o for o in st.build_options(0, ("contract",)) if o[0][1].startswith("s1")]
    assert not any("returns to its pool" in e for e in st.history(0))


def test_seaport_upgrade_return_is_the_rulings_2_reading() -> None:
    st = _competitive_foreman(seaport_upgrade="return")
    st.command(0, "advanced s1")
    assert st.sides[4] == "B"
    assert st.contract_marks[:2] == [-1, -1] and st.inv[16] == -1
    assert st.pools == [5, 5] and st.vp == [3, 4]
    assert not st.check_invariants()


def test_the_seaport_help_gives_the_rulebooks_amounts_and_the_garden_refusal_says_why(
) -> None:
    # SEAPORT: "Basic (side A): Exchange 1 Material for 2 $"; GARDEN: "A player's Engineer
    # cannot move through or stop on the Garden quarter"
    result = CliRunner().invoke(main, ["play", "microcity", "-o",
                                       "expansions=logistics,seaport,garden", "--seed", "9"],
                                input="help s1\nstart c3\nquit\n")
    assert "Quarter s1, seaport (District s1, side A): basic: exchange 1 Material for 2 " \
           "money; advanced (a die showing 2): complete a Contract." in result.output
    assert "! c3 is the Garden: no Engineer may stop on it (rulebook, GARDEN EXPANSION)" \
        in result.output
    st = new(9, expansions="seaport")
    st.sides[4] = "B"
    assert "basic: exchange 1 Material for 3 money and take 1 discarded Project card back" \
        in st.explain(0, "s1")


def test_a_move_through_or_onto_the_garden_is_refused_with_the_garden_rule() -> None:
    # "A player's Engineer cannot move through or stop on the Garden quarter": d2 is two
    # steps from b2, but only through the Garden on c2
    typed = "start b2\ndone\nplay 1 to d2\nplay 1 to c2\nretrieve to c2\nquit\n"
    result = CliRunner().invoke(main, ["play", "microcity", "-o", "expansions=garden",
                                       "--seed", "1"], input=typed)
    assert " a2 Ico[4]   b2 C[2]@1   c2 G        d2 Ico[6]" in result.output
    assert ("! d2 can only be reached through the Garden (c2), which no Engineer may cross "
            "(rulebook, GARDEN EXPANSION)") in result.output
    assert result.output.count("! c2 is the Garden: no Engineer may stop on it or cross it "
                               "(rulebook, GARDEN EXPANSION)") == 2
    assert "moves you exactly" not in result.output
