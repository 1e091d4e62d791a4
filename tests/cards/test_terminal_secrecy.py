"""Secrecy and feeds at the terminal, per game: 200 random games through the terminal front
end (100 hot-seat, 100 with bots), every printed line checked against what the seat at the
keyboard may know at that moment (see terminal_table.py); and every event a seat may see
shown to it exactly once, in order (0 missing, 0 repeated): in all 100 hot-seat games, and
in the games with bots where nobody took a move back."""

from __future__ import annotations

import random
from typing import Any

import pytest
import terminal_table
from terminal_table import Leak, Table

from mobadj.cards.terminal import Session

GAMES = 100  # per game and kind of table


def hot_seat(game: str, k: int) -> tuple[int, set[int], dict[str, Any] | None]:
    """Players, bot seats and options of the k-th hot-seat table (no bots)."""
    if game == "microcity":
        return 2, set(), [None, {"mode": "competitive"}, {"mode": "extended"}][k % 3]
    low = {"micromob": 2, "miceheist": 2, "irontriangle": 3}[game]
    return low + k % 3, set(), None


def with_bots(game: str, k: int) -> tuple[int, set[int], dict[str, Any] | None]:
    """Players, bot seats (at least one human left) and options of the k-th table."""
    rng = random.Random(f"{game}-bots-{k}")
    if game == "microcity":
        return 2, {rng.randrange(2)}, [None, {"mode": "competitive"}][k % 2]
    players, _, options = hot_seat(game, k)
    seats = list(range(players))
    bots = set(rng.sample(seats, rng.randrange(1, players)))
    return players, bots, options


@pytest.mark.parametrize("game", ["micromob", "miceheist", "irontriangle", "microcity"])
def test_hot_seat_tables_leak_nothing_and_feed_each_event_once(game: str) -> None:
    missing = repeated = lines = 0
    for k in range(GAMES):
        players, bots, options = hot_seat(game, k)
        table = Table(game, players, bots, k, options)  # undo: at the tables with bots
        table.play()  # raises Leak at the first line a seat may not see
        lines += len(table.lines)
        for m, r in table.feed_problems().values():
            missing += m
            repeated += r
    assert (missing, repeated) == (0, 0)  # in all 100 games, for every seat
    assert lines > GAMES * 100


@pytest.mark.parametrize("game", ["micromob", "miceheist", "irontriangle", "microcity"])
def test_tables_with_bots_leak_nothing_and_feed_each_event_once(game: str) -> None:
    problems = 0
    for k in range(GAMES):
        players, bots, options = with_bots(game, k)
        table = Table(game, players, bots, k, options, undo=k % 4 == 3)
        table.play()
        if not table.undone:  # an undo takes shown events back: feeds of the others only
            problems += sum(m + r for m, r in table.feed_problems().values())
    assert problems == 0


# (in hot-seat a move is taken back at the hand-over, Iron Triangle's job and offers too)
@pytest.mark.parametrize("game", ["micromob", "miceheist", "irontriangle", "microcity"])
def test_taking_moves_back_leaks_nothing(game: str) -> None:
    undone = 0
    for k in range(GAMES // 5):
        players, bots, options = hot_seat(game, k)
        table = Table(game, players, bots, 1000 + k, options, mischief=0.3, undo=True)
        table.play()
        undone += table.undone
    assert undone > 0


class _Leaky(Session):
    """The terminal as it was: every move printed as typed, bots' sealed bets included."""

    def _act(self, player: int, action: Any) -> None:
        super()._act(player, action)
        if player in self.bots:
            self.write(f"P{player + 1} (bot): {action}")


def test_the_checks_catch_a_terminal_that_prints_sealed_bot_moves(monkeypatch) -> None:
    monkeypatch.setattr(terminal_table, "Session", _Leaky)
    with pytest.raises(Leak, match="from nowhere it may see: 'P2 \\(bot\\): bet"):
        for k in range(20):
            Table("miceheist", 3, {1}, k).play()


def test_the_checks_catch_another_seats_hand_in_an_error(monkeypatch) -> None:
    """The old ``P4: offer ...`` at P1's prompt listed P4's hand in its error."""
    class Prefixed(Session):
        def _table_command(self, seat: int, other: int, text: str) -> None:
            self._act(other, self.state.parse(other, text))

    monkeypatch.setattr(terminal_table, "Session", Prefixed)
    with pytest.raises(Leak):
        for k in range(40):
            Table("irontriangle", 4, set(), k, mischief=0.6).play()
