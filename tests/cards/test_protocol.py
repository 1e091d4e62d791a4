"""The shared card-game protocol (mobadj/cards/), exercised through micro mob.

Records replay, the seed commitment, undo by replay, the simulation JSON, terminal play
driven by a scripted ``read``, and the ``mobadj play`` command line.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.cards.protocol import Event, IllegalAction, RandomBot
from mobadj.cards.record import GameRecord, seed_commitment, undo_last
from mobadj.cards.registry import bot_class, canonical_name, game_class
from mobadj.cards.simulate import simulate
from mobadj.cards.terminal import play_terminal
from mobadj.cli import main

ROOT = Path(__file__).resolve().parents[2]
SIM_KEYS = {"game", "games", "finished", "mean_length", "wins", "invalid_actions",
            "invariant_violations", "seconds_per_game"}


def random_game(seed: int, players: int = 3):
    state = game_class("micromob").new(players, seed)
    rng = random.Random(seed)
    bot = RandomBot()
    while not state.is_over():
        p = state.to_act()[0]
        state.apply(p, bot.choose(state, p, rng))
    return state


def test_registry_names_aliases_and_classes():
    assert canonical_name("Micro-Mob") == "micromob" == canonical_name("micro_mob")
    assert game_class("micromob").info.name == "micromob"
    assert bot_class("micromob").__name__ == "MicroMobBot"
    with pytest.raises(KeyError, match="unknown game 'chess'; known games: "):
        canonical_name("chess")


def test_record_replays_every_prefix():
    state = random_game(11)
    record = GameRecord.of("micromob", state)
    assert record.replay().history(None) == state.history(None)
    for upto in (0, 1, len(record.actions) // 3, len(record.actions)):
        partial = record.replay(upto)
        assert partial.actions == record.actions[:upto]
    assert record.replay().scores() == state.scores()


def test_seed_commitment_is_published_and_the_seed_revealed_only_at_the_end():
    state = random_game(12)
    record = GameRecord.of("micromob", state)
    expect = hashlib.sha256(b"micromob:12").hexdigest()
    assert seed_commitment("micromob", 12) == record.commitment == expect
    hidden = record.to_json()
    assert "seed" not in hidden and hidden["seed_commitment"] == expect
    shown = record.to_json(reveal_seed=True)
    assert shown["seed"] == 12
    assert hashlib.sha256(f"micromob:{shown['seed']}".encode()).hexdigest() == expect
    assert json.loads(json.dumps(shown))["actions"] == [list(a) for a in record.actions]


def test_undo_only_own_last_action_and_by_replay():
    state = game_class("micromob").new(2, 4)
    pick = state.pool[1]
    state.command(0, f"draft {pick}")
    with pytest.raises(IllegalAction, match="your own last action"):
        undo_last("micromob", state, 1)
    before = undo_last("micromob", state, 0)
    assert before.actions == [] and pick in before.pool
    assert before.history(0) == game_class("micromob").new(2, 4).history(0)


def test_event_visibility():
    public, private = Event("all"), Event("mine", frozenset({1}))
    assert public.visible(None) and public.visible(0)
    assert private.visible(1) and not private.visible(0) and not private.visible(None)


def test_simulate_json_keys_and_counts():
    result = simulate("micromob", 12, seed=3, players=3)
    assert set(result) == SIM_KEYS
    assert result["games"] == result["finished"] == 12
    assert result["invalid_actions"] == result["invariant_violations"] == 0
    assert sum(result["wins"].values()) >= 12 and result["mean_length"] > 20
    assert simulate("micromob", 12, seed=3, players=3)["wins"] == result["wins"]
    bots = simulate("micromob", 6, seed=3, players=2, bots=True)
    assert bots["finished"] == 6 and bots["invalid_actions"] == 0


class Script:
    """A scripted player at the terminal: asks for help, then plays the first listed
    command; tries a typo, history and undo along the way."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.turns = 0
        self.pending: list[str] = []
        self.last = ""

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        if prompt == "P1 (Enter: play on)> ":  # the bot waits: the move may be taken back
            return ""
        assert prompt in ("P1> ", "P2> ")
        self.last = self._next()
        return self.last

    def _next(self) -> str:
        if self.pending:
            return self.pending.pop(0)
        self.turns += 1
        if self.turns == 1:
            self.pending = ["history", "?"]
            return "drfat X1"
        if self.last not in ("help", "?"):
            return "help"
        options = [line for line in self.out if line.startswith("You can: ")]
        first = options[-1].removeprefix("You can: ").split("; ")[0]
        if self.turns == 4:
            self.pending = ["undo", "help"]
        return first


def test_terminal_play_to_the_end_against_a_bot():
    script = Script()
    state = play_terminal("micromob", 2, 7, bots={1}, read=script.read, write=script.write)
    text = "\n".join(script.out)
    assert state.is_over()
    assert "Seed 7 was given by hand: this game is NOT secret" in text
    assert "'drfat' is not understood" in text and "did you mean 'draft'" in text
    assert "P2 (bot)" in text and "Winner" in text and "Winner(s): " not in text
    assert "P2 drafts " in text  # the bot's moves as the human may see them
    assert "Seed: 7" in text
    assert "You can: draft " in text
    assert "! nothing to undo: P2 has moved since your last move" in text


def test_terminal_quit_and_end_of_input():
    lines = iter(["quit"])
    out: list[str] = []
    state = play_terminal("micromob", 2, 1, bots=set(), read=lambda _: next(lines),
                          write=out.append)
    assert not state.is_over() and state.actions == []

    def eof(_: str) -> str:
        raise EOFError

    assert not play_terminal("micromob", 3, 1, bots={1, 2}, read=eof,
                             write=out.append).is_over()


def test_cli_simulate_through_clirunner():
    result = CliRunner().invoke(
        main, ["play", "micromob", "--simulate", "20", "--seed", "3", "--players", "4"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == SIM_KEYS and data["game"] == "micromob"
    assert data["finished"] == 20 and data["invalid_actions"] == 0
    assert data["invariant_violations"] == 0
    assert set(data["wins"]) <= {"P1", "P2", "P3", "P4"}


def test_cli_options_and_errors():
    runner = CliRunner()
    ok = runner.invoke(main, ["play", "micromob", "--simulate", "3", "--option", "modules=1"])
    assert ok.exit_code == 0 and json.loads(ok.output)["finished"] == 3
    bad = runner.invoke(main, ["play", "nosuchgame", "--simulate", "3"])
    assert bad.exit_code == 2 and "unknown game 'nosuchgame'" in bad.output
    assert "micromob" in bad.output and "Traceback" not in bad.output
    many = runner.invoke(main, ["play", "micromob", "--players", "9", "--simulate", "1"])
    assert many.exit_code == 2 and "2-6 players" in many.output
    table = runner.invoke(main, ["play", "micromob", "-p", "3", "-o", "modules=1",
                                 "--simulate", "1"])
    # rules (micromob.md L19-24): "1 module  2 players", "2 modules  2-3 players"
    assert table.exit_code == 2 and table.output == "Error: 1 module is for 2 players, not 3\n"
    two = runner.invoke(main, ["play", "micromob", "-p", "4", "-o", "modules=docks,casino",
                               "--simulate", "1"])
    assert two.exit_code == 2 and two.output == "Error: 2 modules are for 2-3 players, not 4\n"
    empty = runner.invoke(main, ["play", "micromob", "-o", "modules=", "--simulate", "1"])
    assert empty.exit_code == 2 and empty.output == (
        "Error: modules must be a count 1-6 or module names such as docks,casino; it was "
        "given no value\n")
    pair = runner.invoke(main, ["play", "micromob", "-o", "modules", "--simulate", "1"])
    assert pair.exit_code == 2 and "key=value" in pair.output


def test_cli_terminal_play_with_bots_and_stdin(tmp_path, monkeypatch, saves_in_tmp_path):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "micromob", "--bot", "2", "--seed", "2"],
                                input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert "You can: draft " in result.output
    (saved,) = saves_in_tmp_path.glob("micromob-*.json")  # the default file, not in the cwd
    assert f"Game saved to {saved}" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keys", "saves"]


def test_cli_real_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "mobadj", "play", "micromob", "--simulate", "5", "--seed", "3",
         "--players", "4"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["finished"] == 5 and data["invalid_actions"] == 0
