"""What players see (views, text, history) and games by mail through the judge's card host."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from mobadj.cards.microcity.bot import MicroCityBot
from mobadj.cli import main
from mobadj.judge.cardhost import CardHost

from .helpers import new, started


def test_view_is_json_and_has_no_seed_or_rng() -> None:
    st = started(seed=12345)
    for who in (0, None):
        v = st.view(who)
        text = json.dumps(v)
        assert "12345" not in text and "rng" not in v and "seed" not in v
        assert v["time"] == 10 and v["step"] == "prep" and len(v["city"]) == 16


def test_render_shows_city_company_dice_cards_and_building() -> None:
    st = started(where="b2")
    text = st.render(0)
    assert "b2 " in text and "@1" in text
    assert "P1: coal 0, steel 0, wood 0, money 2" in text
    assert "Dice: die1=" in text
    assert "Project hand: 1 2 3 4 5 6" in text
    assert "Building Town Hall side A (any order):" in text
    assert "stage 1: 1 coal 1 wood" in text


def test_competitive_render_names_goals_and_advantages_in_words() -> None:
    st = new(2, 2, mode="competitive")
    text = st.render(None)
    assert "Goal 1: g1.1:" in text and "Advantages:" in text and "at least" in text
    assert "in the deck" in text


def test_same_seed_same_game() -> None:
    # every die from the state's seeded RNG: the same seed and commands give the same game
    def play(seed: int) -> list[str]:
        st = new(seed)
        rng = random.Random(0)
        while not st.is_over():
            st.apply(0, rng.choice(st.legal_actions(0)))
        return st.history(0)

    assert play(8) == play(8)
    assert play(8) != play(9)


def test_a_seeded_bot_game_is_won() -> None:
    # a known answer: the bot builds the Town Hall (side A, easy) in this seeded game
    st = new(1000)
    rng = random.Random(1000 ^ 0x5EED)
    bot = MicroCityBot()
    while not st.is_over():
        st.apply(0, bot.choose(st, 0, rng))
    assert st.result == "win" and all(o >= 0 for o in st.stage_marks)
    assert st.history(0)[-1] == "Game over: the city is built, victory!"


def test_solo_game_by_mail_through_the_card_host() -> None:
    # the judge as an opponent-free game master: several commands in one mail
    host = CardHost("microcity")
    state = host.new_state(["P1"], 77, {"game_mode": "basic", "game_difficulty": "medium"})
    assert host.due(state) == ["P1"]
    check = host.check(state, "P1", "start b2\ndone\nplya 3 to a1\n")
    assert check.accepted == ["start b2", "done"]
    assert "did you mean 'play'" in check.errors[0]
    res = host.resolve(state, {"P1": "start b2\ndone\nretrieve to b1"}, [])
    assert "P1 places the Engineer on b2" in res.report
    assert "Time marker 8" in res.private["P1"]  # medium: 8 rounds; b1 awaits its action
    game = host._game(res.state)
    assert game.actions[:3] == [(0, "start b2"), (0, "done"), (0, "retrieve to b1")]


def test_competitive_game_by_mail_turns() -> None:
    host = CardHost("microcity")
    state = host.new_state(["P1", "P2"], 5, {"game_mode": "competitive",
                                             "game_expansions": "garden"})
    assert host.due(state) == ["P2"]  # the second player places the Engineer first
    res = host.resolve(state, {"P2": "start a1"}, [])
    assert host.due(res.state) == ["P1"]


def test_whole_solo_game_by_mail_one_round_per_mail() -> None:
    # a commuter's game: each mail plays a round; the reply brings the next dice
    host = CardHost("microcity")
    state = host.new_state(["P1"], 1000, {})
    bot = MicroCityBot()
    rng = random.Random(1)
    mails = 0
    while not host.is_over(state):
        game = host._game(state)
        turn = game.turn
        lines = []
        while not game.is_over() and game.turn == turn:
            action = bot.choose(game, 0, rng)
            game.apply(0, action)
            lines.append(str(action))
        res = host.resolve(state, {"P1": "\n".join(lines)}, [])
        state = res.state
        mails += 1
        assert res.over or ("rolled" in res.report and "Dice: die1=" in res.private["P1"])
    assert 2 <= mails <= 11
    assert f"Seed: {state['seed']}" in res.report and f"Salt: {state['salt']}" in res.report
    assert "Game over: " in res.report and ("You win." in res.report
                                            or "Nobody wins" in res.report)
    assert [name for name, _, _ in res.attachments] == ["record.json"]


def test_the_short_screen_has_a_key_to_the_city_grid() -> None:
    """Every turn's screen says what 'Ist', '[3,6]', '#' and '@1' mean, right under the
    grid; a Logistics Quarter takes any die (L[1-6]) and the Garden has no action (G)."""
    def screen(*args: str) -> str:
        return CliRunner().invoke(main, ["play", "microcity", *args], input="quit\n").output
    solo = screen("--seed", "5")
    assert " a4 Ist[1]   b4 R[2,6]   c4 C[3]     d4 Ist[2]\nKey: I industrial (co/st/wo), " \
           "C commercial, R residential; [dice of the advanced action]; # a marker; @1 " \
           "P1's Engineer\n" in solo
    expansions = screen("-o", "expansions=logistics,seaport,garden", "--seed", "9")
    assert "Key: I industrial (co/st/wo), C commercial, R residential, L logistics, S " \
           "seaport, G garden; [dice of the advanced action]" in expansions
    assert " L[1-6] " in expansions and " G " in expansions and "[]" not in expansions
    duel = screen("-p", "2", "-o", "mode=competitive", "--bot", "2", "--seed", "3")
    assert "Key: I industrial (co/st/wo), C commercial, R residential; [dice: advanced]\n" \
        in duel
