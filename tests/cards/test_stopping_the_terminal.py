"""Stopping a terminal game where a person does: Ctrl-C at the end screen's pause, Ctrl-D at
a ``-- more --`` pause, and the same save resumed in two windows at once.  None of them may
take a move back or show what a save keeps sealed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mobadj.cards.saves import read_save
from mobadj.cards.screen import Pager
from mobadj.cards.terminal import Session

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


class Player:
    """P1 at a small terminal: the first legal move at its prompt, Enter elsewhere; at the
    first pause after the game is over, ``at_end`` (Ctrl-C: KeyboardInterrupt)."""

    def __init__(self, at_end: type[BaseException] | None = None) -> None:
        self.session: Session | None = None
        self.at_end = at_end
        self.stopped_at_end = False

    def read(self, prompt: str) -> str:
        state = self.session.state
        if prompt == Pager.MORE and state.is_over() and self.at_end is not None:
            self.stopped_at_end = True
            raise self.at_end
        if prompt.startswith("P1>") and 0 in state.to_act():
            return str(state.legal_actions(0)[0])
        return ""


def test_ctrl_c_at_the_end_screen_leaves_a_finished_record(tmp_path) -> None:
    """The seed and salt are on the end screen: by then the save is the finished record,
    so stopping there never leaves a game to resume and play its last move again."""
    path = tmp_path / "g.json"
    player, out = Player(KeyboardInterrupt), []
    session = player.session = Session.new("micromob", 2, 5, {1}, read=player.read,
                                           write=out.append, size=(80, 8), save_to=path)
    assert session.run().is_over()
    assert player.stopped_at_end  # the end screen paused, and was stopped there
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["over"] is True and "sealed" not in data
    assert any("record is saved in" in line for line in out)
    resumed = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "--resume",
                              str(path)], capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 2 and "is over" in resumed.stderr


def test_ctrl_d_at_a_pause_saves_and_stops_at_once(tmp_path) -> None:
    """Ctrl-D at ``-- more --`` is the player's Ctrl-D: saved, and nothing more is asked."""
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        assert len(asked) < 50, asked[-3:]  # (asked on and on: never saved nor stopped)
        if prompt == Pager.MORE:
            raise EOFError
        return ""

    path, out = tmp_path / "g.json", []
    session = Session.new("irontriangle", 5, 3, {1, 2, 3, 4}, read=read, write=out.append,
                          size=(80, 10), save_to=path)
    assert not session.run().is_over()
    assert asked == [Pager.MORE]  # no prompt after it
    assert any(line.startswith("Game saved to") for line in out) and path.exists()


def test_a_save_resumed_in_two_windows_is_one_game(tmp_path) -> None:
    """Window B resumes and waits; window A resumes the same file, plays and quits; B's
    quit is refused: A's moves (and draws) stand."""
    path = tmp_path / "g.json"
    Session.new("miceheist", 2, 7, {1}, read=lambda _: "quit", write=lambda _: None,
                save_to=path).run()

    def window(read, out):
        opened = read_save(path)
        return Session.resume(opened.content, read=read, write=out.append, save_to=path,
                              key=opened.key, saves=opened.number)

    b_out: list[str] = []
    b = window(lambda _: "quit", b_out)
    a_player, a_out = Player(), []
    a = a_player.session = window(a_player.read, a_out)
    moves = {"n": 0}

    def a_read(prompt: str) -> str:
        if prompt.startswith("P1>") and 0 in a.state.to_act() and moves["n"] < 2:
            moves["n"] += 1
            return a_player.read(prompt)
        return "quit" if prompt.startswith("P1") else ""

    a.read = a_read
    played = len(a.run().actions)
    assert moves["n"] and played > len(b.state.actions)
    b.run()
    assert any(line.startswith("! not saved to") and "another window" in line
               for line in b_out), b_out
    assert not any(line.startswith("Game saved to") for line in b_out)
    assert len(read_save(path).content["actions"]) == played  # A's moves stand


def test_the_docs_competitive_micro_city_example_runs() -> None:
    """docs/cards/playing.md: without -p, competitive Micro City is a game of two."""
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "microcity", "-o",
                           "mode=competitive", "--bot", "2:basic"], input="quit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Micro City: 2 players: P1, P2 (bot, basic)")
