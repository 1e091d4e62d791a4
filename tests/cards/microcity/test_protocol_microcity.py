"""Micro City through the shared protocol: commands, errors, replay, undo, simulation, CLI."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from mobadj.cards.microcity.bot import MicroCityBot
from mobadj.cards.microcity.parser import parse_command
from mobadj.cards.protocol import CommandError, IllegalAction, RandomBot
from mobadj.cards.record import GameRecord, undo_last
from mobadj.cards.simulate import simulate
from mobadj.cli import main

from .helpers import new, started

SETTINGS = [
    (1, {}),
    (1, {"side": "B", "difficulty": "hard"}),
    (1, {"mode": "extended"}),
    (1, {"mode": "challenge", "building": "random", "difficulty": "hard"}),
    (2, {"mode": "basic", "xcard": True}),
    (2, {"mode": "competitive"}),
    (1, {"expansions": "logistics,seaport,garden"}),
    (2, {"mode": "competitive", "expansions": "logistics,seaport,garden"}),
]


def _play(players: int, options: dict, seed: int, bot=None, steps: int = 400):
    st = new(seed, players, **options)
    rng = random.Random(seed)
    chooser = bot or RandomBot()
    for _ in range(steps):
        if st.is_over():
            break
        p = st.to_act()[0]
        st.apply(p, chooser.choose(st, p, rng))
    return st


@pytest.mark.parametrize(("players", "options"), SETTINGS)
def test_every_legal_action_round_trips_through_the_parser(players, options) -> None:
    # protocol: str(action) is the canonical command text parse() accepts back
    for seed in range(2):
        st = new(seed, players, **options)
        rng = random.Random(seed)
        for _ in range(150):
            if st.is_over():
                break
            p = st.to_act()[0]
            acts = st.legal_actions(p)
            for a in acts:
                assert st.parse(p, str(a)) == a
            st.apply(p, rng.choice(acts))


@pytest.mark.parametrize(("players", "options"), SETTINGS)
def test_replay_rebuilds_the_same_state(players, options) -> None:
    bot = MicroCityBot() if options == {} else None  # the bot is slow: one setting
    st = _play(players, options, seed=11, bot=bot)
    record = GameRecord.of("microcity", st)
    again = record.replay()
    assert again.view(None) == st.view(None)
    assert again.history(0) == st.history(0)
    assert json.loads(json.dumps(record.to_json()))["game"] == "microcity"


def test_undo_within_a_round_but_not_across_the_dice() -> None:
    st = started()
    st.command(0, "done")
    st.command(0, "play 2 to b1")
    back = undo_last("microcity", st, 0)
    assert back.step == "project" and back.hands == [["1", "2", "3", "4", "5", "6"]]
    st.command(0, "basic")  # the card's action: the round goes on
    if st.step == "invest":
        st.command(0, "pass")  # ends the round: new dice were rolled
    assert st.turn == 1
    with pytest.raises(IllegalAction, match="cannot be undone"):
        undo_last("microcity", st, 0)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("plya 3 to b2", "did you mean 'play'"),
        ("play 3 to e9", "at column"),
        ("change die1 sideways pay coal", "expected up or down"),
        ("sell cole", "did you mean 'coal'"),
        ("", "empty command"),
        ("play 3", "incomplete"),
        ("play 3 a1", "expected 'to'"),
        ("change die1 up coal", "expected 'pay'"),
    ],
)
def test_parse_errors_are_friendly(text: str, fragment: str) -> None:
    with pytest.raises(CommandError) as err:
        parse_command(text)
    assert fragment in str(err.value)


def test_parser_is_forgiving_about_case_and_spacing() -> None:
    assert str(parse_command("  PLAY 3   TO B2 ")) == "play 3 to b2"
    assert str(parse_command("change die 2 Down pay Money")) == "change die2 down pay money"
    assert str(parse_command("retrieve c1")) == "retrieve to c1"


def test_misspelt_option_words_get_a_suggestion() -> None:
    st = started(where="b2")
    st.command(0, "done")
    st.command(0, "play 6 to b1")  # Foreman basic: 1 Material of your choice
    with pytest.raises(IllegalAction, match="did you mean 'basic coal'"):
        st.command(0, "basic coall")


def test_random_simulation_has_no_invalid_actions_or_violations() -> None:
    for players, options in SETTINGS:
        result = simulate("microcity", 15, seed=3, players=players, options=options)
        assert result["finished"] == 15
        assert result["invalid_actions"] == 0 and result["invariant_violations"] == 0


def test_bot_wins_some_easy_games_and_beats_random() -> None:
    bot = simulate("microcity", 10, seed=500, bots=True)
    rand = simulate("microcity", 10, seed=500)
    assert bot["wins"].get("P1", 0) >= 3
    assert bot["wins"].get("P1", 0) > rand["wins"].get("P1", 0)
    assert bot["invalid_actions"] == 0


def test_cli_simulate_prints_one_json_object() -> None:
    out = CliRunner().invoke(main, ["play", "microcity", "--simulate", "5", "--seed", "2"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "microcity" and data["finished"] == 5
    out = CliRunner().invoke(
        main, ["play", "micro-city", "--simulate", "3", "--players", "2",
               "--option", "mode=competitive", "--option", "expansions=seaport,garden"])
    assert out.exit_code == 0, out.output


def test_terminal_play_with_a_scripted_player() -> None:
    from mobadj.cards.terminal import play_terminal

    lines = iter(["help", "start b2", "plya", "done", "history", "quit"])
    written: list[str] = []
    play_terminal("microcity", 1, 4, set(), read=lambda _: next(lines), write=written.append)
    text = "\n".join(written)
    assert "You can: start a1" in text
    assert "did you mean 'play'" in text
    assert "P1 places the Engineer on b2" in text


def test_refusals_say_why() -> None:
    st = new(1)
    with pytest.raises(IllegalAction, match="not now; this is place your Engineer"):
        st.command(0, "done")
    st.command(0, "start b2")
    with pytest.raises(IllegalAction, match="not now; this is preparation"):
        st.command(0, "play 3 to a1")
    st.command(0, "done")
    with pytest.raises(IllegalAction, match="retrieving moves you 1 Quarter"):
        st.command(0, "retrieve to d4")
    with pytest.raises(IllegalAction, match="Project X is not in hand"):
        st.command(0, "play x to b1")


def test_commands_after_the_end_are_refused() -> None:
    st = new(1)
    st.result, st.step = "loss", "over"
    assert st.to_act() == [] and st.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        st.command(0, "done")


def test_invariants_catch_broken_states() -> None:
    st = started()
    assert st.check_invariants() == []
    st.pools[0] = 9
    assert st.check_invariants() == ["Investment markers of pool 0: 9 != 8"]
    st.pools[0] = 8
    st.res[0][1] = 6
    assert st.check_invariants() == ["P1 resources out of 0..5: [0, 6, 0, 2]"]
    st.res[0][1] = 0
    st.hands[0].pop()
    assert st.check_invariants() == ["Project cards of hand 0: 5 != 6"]
    comp = new(1, 2, mode="competitive")
    comp.pools[1] = 4
    assert comp.check_invariants() == ["Investment markers of pool 1: 4 != 5"]


def test_any_text_gives_a_game_error_never_a_crash() -> None:
    # working agreement: bad input gets a clear error, never a traceback
    from mobadj.cards.protocol import GameError

    words = ["play", "retrieve", "to", "basic", "advanced", "bonus", "change", "die1", "die9",
             "up", "pay", "coal", "money", "remove", "a1", "e5", "s1", "x", "7", "1.2", "g1.1",
             "stage", "goal", "contract", "from", "take", "claim", "assign", "start", "done",
             "pass", "sell", "for", "??", "", "-1", "9999999999"]
    rng = random.Random(5)
    for setting in SETTINGS:
        st = new(2, setting[0], **setting[1])
        for _ in range(300):
            text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 5)))
            player = st.to_act()[0] if st.to_act() else 0
            try:
                st.command(player, text)
            except GameError as err:
                assert str(err)
            if st.is_over():
                break
