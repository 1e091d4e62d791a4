"""Extended and challenge modes (rulebook EXTENDED MODE, CHALLENGE MODE)."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from mobadj.cards.microcity.cards import load_deck
from mobadj.cards.microcity.engine import MicroCityState
from mobadj.cards.protocol import IllegalAction
from mobadj.cards.record import GameRecord, verify_record
from mobadj.cli import main

from .helpers import at_invest, cell_of, new, set_res, started, texts


def _build_ready(st, cost=(5, 5, 5, 5)):
    """Engineer on a residential Quarter with a matching die and plenty of Resources."""
    q = cell_of(st, "residential")
    die = st.quarter_dice(st.cell(q))[0]
    at_invest(st, q, die, 0)
    set_res(st, 0, *cost)
    return q


# -- EXTENDED MODE -------------------------------------------------------------------------
@pytest.mark.parametrize(("difficulty", "rounds"), [("easy", 25), ("medium", 22), ("hard", 18)])
def test_extended_rounds_table(difficulty: str, rounds: int) -> None:
    st = new(mode="extended", difficulty=difficulty)
    assert st.time == rounds
    # "you always have to start with the A side up"
    assert st.building_side == "A"


def test_extended_starts_on_side_a() -> None:
    # "when choosing the Building you always have to start with the A side up"
    assert new(mode="extended").building_side == "A"
    assert new(mode="extended", side="A").building_side == "A"


def _refused(args: list[str]) -> str:
    """What a player sees who starts ``mobadj play microcity ARGS``: one line, exit 2."""
    result = CliRunner().invoke(main, ["play", "microcity", "--seed", "1", *args],
                                input="quit\n")
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    return result.output.strip()


@pytest.mark.parametrize(("args", "words"), [
    (["-o", "mode=extended", "-o", "side=B"],
     "Error: option side=B: the extended mode always starts with the Building's A side up "
     "(rulebook, EXTENDED MODE)"),
    (["-o", "building=louvre"], "Error: option building=louvre: a landmark Building is "
     "played only in the challenge mode (-o mode=challenge)"),
    (["-o", "mode=challenge", "-o", "side=B"], "Error: option side=B: in the challenge mode "
     "the landmark's side is chosen by building="),
    (["-p", "2", "-o", "mode=competitive", "-o", "difficulty=hard"], "Error: option "
     "difficulty=hard: the competitive mode always lasts 20 rounds, 10 per player"),
    (["-p", "2", "-o", "mode=competitive", "-o", "side=B"], "Error: option side=B: the "
     "competitive mode builds no Building (Goal cards instead)"),
    (["-p", "2", "-o", "mode=competitive", "-o", "building=pisa"], "Error: option "
     "building=pisa: a landmark Building is played only in the challenge mode"),
    (["-o", "mode=challenge", "-o", "building=bogus"], "Error: option building=bogus is not "
     "known; expected one of eiffel, colosseum, pyramid, bigben, liberty, opera, louvre, "
     "pisa, greatwall, towerbridge, redeemer, sagrada, random"),
    (["-o", "goals=architect"], "Error: option goals=architect: only the competitive mode "
     "completes Goals (-o mode=competitive)"),
    (["-o", "seaport_upgrade=return", "-o", "expansions=seaport"], "Error: option "
     "seaport_upgrade=return: it reads the competitive mode's upgraded Seaport"),
    (["-p", "2", "-o", "mode=competitive", "-o", "stage_markers=removable"], "Error: option "
     "stage_markers=removable: the competitive mode builds no Building (Goal cards instead)"),
    (["-p", "2", "-o", "mode=competitive", "-o", "seaport_upgrade=return"], "Error: option "
     "seaport_upgrade=return: it reads the competitive mode's upgraded Seaport (-o "
     "mode=competitive -o expansions=seaport)"),
])
def test_an_option_the_mode_does_not_use_is_refused(args: list[str], words: str) -> None:
    assert words in _refused(args)


def test_games_of_earlier_rulings_keep_ignoring_unused_options() -> None:
    # rulings 1 and 2 dropped such options silently: their games still replay
    old = list(MicroCityState.earlier_rules)[1]
    state = GameRecord("microcity", 1, 1, {"mode": "extended", "side": "B"}, [],
                       old).replay()
    assert state.building_side == "A"
    assert new(mode="extended", side="B", unused_options="ignore").building_side == "A"


def test_a_game_started_before_the_reading_options_were_refused_still_verifies() -> None:
    # a solo game started with goals=architect (accepted then, and unused by solo play)
    played = new(2, goals="architect", unused_options="ignore")
    rng = random.Random(2)
    while not played.is_over():
        played.apply(0, rng.choice(played.legal_actions(0)))
    record = GameRecord("microcity", 1, 2, {"goals": "architect"}, played.actions,
                        MicroCityState.info.rules_version, salt="ab" * 32)
    assert verify_record(record.to_json(reveal_seed=True)).ok
    assert record.replay().history(0) == played.history(0)


def test_extended_flips_to_b_and_returns_all_markers() -> None:
    # "After completing the final stage of the A side ... remove all Investment markers and
    # put them back to the Investments pool. Then flip the Building card to the B side."
    st = started(mode="extended")
    _build_ready(st)
    st.stage_marks = [0, 0, -1]
    st.inv[0] = st.inv[5] = 0
    st.pools[0] = 4
    st.__dict__["_cache"] = None
    st.command(0, "advanced stage 3")
    assert st.result is None
    assert st.building_side == "B"
    assert st.stage_marks == [-1] * len(load_deck().basic_building["B"].stages)
    # every marker back, then the final phase placed one on the Engineer's Quarter
    assert st.pools == [7] and sum(1 for o in st.inv if o >= 0) == 1
    assert not st.check_invariants()


def test_extended_win_needs_side_b_too() -> None:
    st = started(mode="extended")
    _build_ready(st)
    st.building_side = "B"
    st.building = load_deck().basic_building["B"]
    st.stage_marks = [0] * (len(st.building.stages) - 1) + [-1]
    st.pools[0] = 8 - len(st.building.stages) + 1
    st.__dict__["_cache"] = None
    last = len(st.building.stages)
    st.command(0, f"advanced stage {last}")
    assert st.result == "win"


# -- CHALLENGE MODE ----------------------------------------------------------------------------
def test_challenge_has_six_double_sided_cards_with_three_difficulties() -> None:
    # COMPONENTS: "6 double-sided Building cards used in the challenge mode"
    import yaml

    from mobadj.cards.microcity.cards import DATA

    raw = yaml.safe_load(DATA.read_text())["challenge_buildings"]
    fronts = {b["id"] for b in raw if "card" not in b}
    backs = {b["card"]: b["id"] for b in raw if "card" in b}
    assert len(fronts) == 6 and set(backs) == fronts
    deck = load_deck()
    assert len(deck.challenge) == 12
    for b in deck.challenge.values():
        assert set(b.rounds) == {"easy", "medium", "hard"}
        assert b.rounds["easy"] > b.rounds["medium"] > b.rounds["hard"]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_challenge_time_marker_by_difficulty(difficulty: str) -> None:
    # "place a marker on the round track on the spot corresponding to the chosen difficulty"
    st = new(mode="challenge", building="colosseum", difficulty=difficulty)
    assert st.time == load_deck().challenge["colosseum"].rounds[difficulty]
    assert st.building.name == "Great Arena"


def test_challenge_unknown_building_suggests() -> None:
    with pytest.raises(IllegalAction, match="did you mean 'eiffel'"):
        new(mode="challenge", building="eifel")


def test_challenge_random_building_is_seeded() -> None:
    a = new(seed=9, mode="challenge", building="random").cfg.building
    assert a == new(seed=9, mode="challenge", building="random").cfg.building


def test_ordered_stages_must_be_built_in_order() -> None:
    # CHALLENGE MODE A: "Starting with stage 1, then 2 etc."
    st = started(mode="challenge", building="eiffel")
    _build_ready(st)
    builds = [t for t in texts(st) if t.startswith("advanced")]
    assert builds == ["advanced stage 1"]
    with pytest.raises(IllegalAction, match=r"^the Iron Tower's stages are built in order, "
                                            r"stage 1 first, then 2 \.\.\. \(rulebook, "
                                            r"CHALLENGE MODE\): stage 1 comes next$"):
        st.command(0, "advanced stage 2")


def test_unordered_stages_in_any_order() -> None:
    # CHALLENGE MODE B: "If Building stages don't have numbers ... any order"
    st = started(mode="challenge", building="colosseum")
    _build_ready(st)
    builds = {t for t in texts(st) if t.startswith("advanced")}
    assert builds == {f"advanced stage {k}" for k in range(1, 5)}


def test_stage_bonus_is_an_optional_free_action_right_after() -> None:
    # CHALLENGE MODE C: "some Building stages give you a special bonus ... right after"
    st = started(mode="challenge", building="eiffel")
    _build_ready(st, cost=(0, 2, 0, 1))
    st.command(0, "advanced stage 1")  # 2 steel; bonus: gain 2 money
    assert st.step == "bonus"
    assert texts(st) == ["bonus", "pass"]
    st.command(0, "bonus")
    assert st.res[0][3] == 3
    assert st.step == "prep"  # the final phase ran after the bonus


def test_bonus_can_be_passed() -> None:
    st = started(mode="challenge", building="eiffel")
    _build_ready(st, cost=(0, 2, 0, 0))
    st.command(0, "advanced stage 1")
    st.command(0, "pass")
    assert st.res[0][3] == 0 and st.step == "prep"


def test_bonus_cannot_pay_for_its_own_stage() -> None:
    # COMPANY CARDS: "unable to cover its cost even if that action would have given you the
    # necessary Resources (e.g. using a bonus for completing a Building stage)"
    st = started(mode="challenge", building="bigben")
    _build_ready(st, cost=(0, 0, 1, 0))  # stage 1 costs 1 wood and 1 money
    assert not any(t.startswith("advanced") for t in texts(st))


def test_bonus_from_project_build_then_investment_phase() -> None:
    # Project card 4 advanced: build; the bonus comes before the investment phase
    st = started(mode="challenge", building="eiffel", where="b2")
    st.dice = [4, 6]
    set_res(st, 0, steel=2)
    st.command(0, "done")
    st.command(0, "play 4 to b1")
    st.command(0, "advanced stage 1")
    assert st.step == "bonus"
    st.command(0, "bonus")
    assert st.step in ("invest", "prep")
    assert st.discards == [["4"]]

