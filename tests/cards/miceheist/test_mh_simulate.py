"""Random playouts (``mobadj play miceheist --simulate``) and terminal play."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from mobadj.cards.simulate import simulate
from mobadj.cards.terminal import Session, play_terminal
from mobadj.cli import main


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_are_clean(players: int) -> None:
    result = simulate("miceheist", 40, seed=players, players=players)
    assert result["finished"] == 40
    assert result["invalid_actions"] == 0 and result["invariant_violations"] == 0
    assert sum(result["wins"].values()) >= 40


def test_bot_playouts_are_clean() -> None:
    result = simulate("mice-heist", 30, seed=3, players=4, bots=True)
    assert result["finished"] == 30 and result["invalid_actions"] == 0
    assert result["invariant_violations"] == 0


def test_cli_simulate_prints_json() -> None:
    out = CliRunner().invoke(main, ["play", "miceheist", "--simulate", "20", "-p", "4"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "miceheist" and data["finished"] == 20
    assert set(data) >= {"mean_length", "wins", "seconds_per_game"}


def test_terminal_game_with_bots_and_a_human() -> None:
    lines: list[str] = []
    answers = iter(["?", "history", "sel A", "quit"])
    state = play_terminal(
        "miceheist", 3, 5, {1, 2}, read=lambda _: next(answers), write=lines.append
    )
    text = "\n".join(lines)
    assert "You can:" in text and "unknown command 'sel'" in text
    assert not state.is_over()


def test_terminal_all_bots_to_the_end() -> None:
    lines: list[str] = []
    state = play_terminal(
        "miceheist", 4, 2, {0, 1, 2, 3}, read=lambda _: "quit", write=lines.append
    )
    assert state.is_over() and any(line.startswith("Winner") for line in lines)


def test_balance_module_reports_figures() -> None:
    from mobadj.cards.miceheist.balance import REPORTS, figures

    f = figures(3, 6, bots=True, options={})
    assert f["games"] == 6 and len(f["seat_win_pct"]) == 3
    assert abs(sum(f["seat_win_pct"]) - 100) < 0.5 and f["turns"][1] >= 5
    versus = REPORTS["versus"](4, 2, {})
    assert 0 <= versus["bot_win_share"] <= 1 and versus["fair_share"] == 0.5


def test_hot_seat_game_typed_to_the_end() -> None:
    # two human seats typing commands (a random legal one each time) until the game ends
    rng = random.Random(4)

    def read(prompt: str) -> str:
        if not prompt.endswith("> "):  # hot-seat: the screen is handed over
            return ""
        seat = int(prompt[1]) - 1
        return str(rng.choice(session.state.legal_actions(seat)))

    lines: list[str] = []
    session = Session.new("miceheist", 2, 3, set(), read=read, write=lines.append)
    state = session.run()
    assert state.is_over() and any(line.startswith("Winner") for line in lines)
    assert any(line.startswith("Seed: 3") for line in lines)
    assert any(line.startswith("Pass to P") for line in lines) is False  # prompts, not lines
