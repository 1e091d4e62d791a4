"""The terminal session a person can live with: help, any case, errors without the board,
board, quit / end of input / Ctrl-C save the game and --resume continues it, hot-seat
hand-over, the P<n>: prefix for public table commands only, sealed bot moves narrated, the
end screen; and the command line's one-line errors (exit 2, never a traceback)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.cards import report, terminal
from mobadj.cards.micromob.bot import MicroMobBasicBot, MicroMobBot
from mobadj.cards.record import verify_record
from mobadj.cards.registry import game_class
from mobadj.cards.saves import read_save
from mobadj.cards.terminal import FEED_MARK, Session
from mobadj.cli import main

ROOT = Path(__file__).resolve().parents[2]


class Keyboard:
    """Scripted typing: ``script`` lines for the command prompts, then random legal moves
    (or quit); Enter at every hand-over.  Records writes, prompts and screen clears."""

    def __init__(self, script: list[str], then: str = "play", seed: int = 1) -> None:
        self.script = list(script)
        self.then = then
        self.rng = random.Random(seed)
        self.events: list[tuple[str, str]] = []  # ("write" | "read" | "clear", text)
        self.session: Session | None = None

    def read(self, prompt: str) -> str:
        self.events.append(("read", prompt))
        turn = re.fullmatch(r"P(\d+)> ", prompt)
        if turn is None:  # a hand-over, a pause, the bots waiting: Enter
            return ""
        if self.script:
            answer = self.script.pop(0)
            if isinstance(answer, BaseException):
                raise answer
            return answer
        if self.then == "quit":
            return "quit"
        assert self.session is not None
        state = self.session.state
        return str(self.rng.choice(state.legal_actions(int(turn.group(1)) - 1)))

    def write(self, text: str) -> None:
        self.events.append(("write", text))

    def clear(self) -> None:
        self.events.append(("clear", ""))

    @property
    def text(self) -> str:
        return "\n".join(t for kind, t in self.events if kind == "write")

    def prompts(self) -> list[str]:
        return [t for kind, t in self.events if kind == "read"]

    def start(self, game: str, players: int, bots: set[int], seed: int | None = 3,
              options: dict | None = None, **kw) -> Session:
        self.session = Session.new(game, players, seed, bots, options, read=self.read,
                                   write=self.write, clear=self.clear, **kw)
        return self.session


def test_help_lists_meta_commands_rules_and_moves_in_any_case() -> None:
    keys = Keyboard(["HELP", "Board", "hIsToRy", "DRAFT Z9", "quit"])
    session = keys.start("micromob", 2, {1})
    session.run()
    text = keys.text
    for word in ("help, ?", "board", "history", "undo", "quit"):
        assert f"  {word}" in text
    assert "micro mob in brief:" in text and "kingpin" in text
    assert "You can: draft " in text
    assert "! Z9 is not in the draft pool" in text  # DRAFT read as draft
    move = str(session.state.legal_actions(0)[0])
    keys = Keyboard([move.upper(), "QUIT"])
    session = keys.start("micromob", 2, {1})
    assert session.run().actions[0] == (0, move)


@pytest.mark.parametrize("stop", ["q", "exit", "Q"])
def test_the_short_words_h_and_q_and_exit_as_the_help_lists_them(stop: str) -> None:
    """docs/cards/playing.md: ``h`` shows the help, ``q`` and ``exit`` save and stop as
    ``quit`` does; the help says so."""
    keys = Keyboard(["h", stop, "draft Z9"])
    state = keys.start("micromob", 2, {1}).run()
    assert "micro mob in brief:" in keys.text and "  help, ?, h " in keys.text
    assert "  quit, q    save the game and stop (also exit;" in keys.text
    assert state.actions == [] and "Z9" not in keys.text  # stopped at the word


def test_a_move_named_by_its_card_alone_gets_it_as_the_did_you_mean() -> None:
    """"u9" when "draft U9" is a move: the error offers that move; a word that names no
    move, or several, gets no guess."""
    keys = Keyboard(["quit"])
    state = keys.start("micromob", 2, {1}).state
    card = str(state.legal_actions(0)[0]).split()[-1]
    keys = Keyboard([card.lower(), "draft", "quit"])
    keys.start("micromob", 2, {1}).run()
    assert f"(did you mean 'draft {card}'?)" in keys.text
    assert keys.text.count("did you mean") == 1  # "draft" alone: which card?


def test_read_offers_the_one_move_a_word_names_as_mail_and_pages_read_it() -> None:
    game = game_class("micromob").new(2, seed=3)
    card = str(game.legal_actions(0)[0]).split()[-1]
    with pytest.raises(Exception, match=rf"did you mean 'draft {card}'"):
        game.read(0, card.lower())
    with pytest.raises(Exception) as refused:
        game.read(0, "1")
    assert "did you mean" not in str(refused.value)


def test_after_an_error_only_the_error_and_the_prompt() -> None:
    keys = Keyboard(["fly to the moon", "board", "quit"])
    keys.start("irontriangle", 3, {1, 2}).run()
    ev = keys.events
    prompts = [i for i, (k, t) in enumerate(ev) if k == "read" and t.endswith("> ")]
    between = [t for k, t in ev[prompts[0] + 1:prompts[1]] if k == "write"]
    assert len(between) == 1 and between[0].startswith("! unknown command 'fly'")
    again = [t for k, t in ev[prompts[1] + 1:prompts[2]] if k == "write"]
    assert any("Mobsters of the Iron Triangle - round" in t for t in again)  # board reprints


@pytest.mark.parametrize("stop", ["quit", "EXIT", EOFError(), KeyboardInterrupt()])
def test_quit_end_of_input_and_ctrl_c_save_and_resume_continues(tmp_path, stop) -> None:
    path = tmp_path / "saved.json"
    keys = Keyboard(["draft " + "?"] * 0, then="play", seed=4)
    session = keys.start("micromob", 3, {2}, seed=None, save_to=path)
    moves = 0
    original = keys.read

    def read(prompt: str) -> str:
        nonlocal moves
        if prompt.endswith("> "):
            moves += 1
            if moves == 9:
                if isinstance(stop, BaseException):
                    raise stop
                return stop
        return original(prompt)

    session.read = read
    state = session.run()
    assert not state.is_over() and path.exists()
    assert f"Game saved to {path}. Continue it with: mobadj play micromob --resume {path}" \
        in keys.text
    text = path.read_text()
    assert str(state.seed) not in text and session.salt not in text  # sealed
    opened = read_save(path)
    data = opened.content
    assert data["actions"] == [list(a) for a in state.actions] and data["bots"] == [3]
    assert data["seed"] == state.seed and len(data["salt"]) == 64 and data["secret"]
    # resumed: the same game, the same feeds (nothing shown twice), played to the end
    keys2 = Keyboard([], seed=5)
    resumed = Session.resume(data, read=keys2.read, write=keys2.write, clear=keys2.clear,
                             save_to=path, key=opened.key, saves=opened.number)
    keys2.session = resumed
    assert resumed.state.actions == state.actions and resumed.seen == session.seen
    assert [e.text for e in resumed.feed] == [e.text for e in session.feed]
    assert resumed.run().is_over()
    assert verify_record(json.loads(path.read_text())).ok


def test_hot_seat_hands_over_with_a_cleared_screen_and_one_human_does_not() -> None:
    keys = Keyboard([], seed=2)
    keys.start("irontriangle", 3, set()).run()
    prompts = keys.prompts()
    assert any(p.startswith("Pass to P") and p.endswith(" and press Enter ") for p in prompts)
    ev = keys.events
    hand_overs = [i for i, (kind, text) in enumerate(ev)
                  if kind == "read" and text.startswith("Pass to P")]
    for i in hand_overs[1:]:  # after the first: hide the last screen, clear, hand over
        assert ev[i - 1] == ("clear", "") and "to hide your screen" in ev[i - 2][1]
    assert "Press Enter to show the final scores to everyone " in prompts
    solo = Keyboard([], seed=2)
    solo.start("irontriangle", 3, {1, 2}).run()
    assert not any("press Enter" in p.lower() for p in solo.prompts())
    assert ("clear", "") not in solo.events


def test_the_seat_prefix_takes_only_public_table_commands() -> None:
    keys = Keyboard(["P2: bet 1", "p2: use scurry", "P3: say hi", "P9: say hi",
                     "P2: history", "quit"])
    seed = next(s for s in range(50) if game_class("miceheist").new(3, s).tester == 0)
    session = keys.start("miceheist", 3, {2}, seed=seed)  # P1 selects first
    session.run()
    text = keys.text
    assert "! P2 may give only table commands here (history); other moves at their own " \
           "prompt" in text
    assert "! P3 is played by a bot" in text and "! there is no player P9" in text
    assert session.state.actions == []


def test_sealed_bot_bets_are_narrated_without_their_amount() -> None:
    for seed in range(10):
        keys = Keyboard([], seed=seed)
        session = keys.start("miceheist", 3, {1, 2}, seed=seed)
        session.run()
        bets = [e for e in session.feed if e.text == "P2 has sealed a bet."]
        if bets:
            assert bets[0].visible_to == frozenset({0, 2})
            assert FEED_MARK + "P2 has sealed a bet." in keys.text
            assert "P2 (bot)" not in keys.text.split("\n", 1)[1]
            return
    pytest.fail("no bot ever bet")


@pytest.mark.parametrize("game,players,options", [
    ("micromob", 3, None), ("miceheist", 2, None), ("irontriangle", 3, None),
    ("microcity", 1, None), ("microcity", 2, {"mode": "competitive"}),
])
def test_the_end_screen(game, players, options, tmp_path) -> None:
    path = tmp_path / "end.json"
    keys = Keyboard([], seed=7)
    state = keys.start(game, players, set(), seed=None, options=options,
                       save_to=path).run()
    text = keys.text
    end = text[text.index("=== "):]
    assert "Game over: over" not in text and end.count("Winner") <= 1
    assert sum(line.startswith(("Winner", "Nobody wins", "You win")) for line
               in end.split("\n")) == 1
    scores = state.scores()
    if game != "microcity" or options:
        for p, score in enumerate(scores):
            assert f"\nP{p + 1}: {score:g} " in end
    assert f"Seed: {state.seed}" in end and "Salt: " in end
    assert f"mobadj play verify {path}" in end and verify_record(json.loads(path.read_text())).ok
    assert not any(report.superseded(state, e) and FEED_MARK + e.text in text
                   for e in state.events)  # the engine's own score lines: said once, better


def test_end_reports_count_as_the_rulebooks_do() -> None:
    """micro mob: hits of the kingpin's colour are named as wiped and count nothing;
    Iron Triangle: tracks plus met roles; Mice Heist: food plus stash; each sums up."""
    wiped = False
    for seed in range(40):
        rng = random.Random(seed)
        state = game_class("micromob").new(3, seed)
        while not state.is_over():
            p = state.to_act()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
        lines = report.end_report(state)
        for p, s in enumerate(state.score_details()):
            head = next(x for x in lines if x.startswith(f"P{p + 1}: "))
            assert head.startswith(f"P{p + 1}: {s.total} v.p. = {s.goons} for ")
            assert f"+ {s.hits} from hits + {s.bonuses} bonus" in head
        wiped |= any("wiped by the kingpin's colour" in x for x in lines)
    assert wiped
    for game, players in (("irontriangle", 4), ("miceheist", 3)):
        rng = random.Random(1)
        state = game_class(game).new(players, 1)
        while not state.is_over():
            p = rng.choice(state.to_act())
            state.apply(p, rng.choice(state.legal_actions(p)))
        lines = report.end_report(state)
        for p, score in enumerate(state.scores()):
            line = next(x for x in lines if x.startswith(f"P{p + 1}: "))
            if game == "irontriangle":
                m = re.search(r"= (\d+) for \$\d+ \+ (\d+) for \d+ stars \+ (\d+) for .* "
                              r"\((met|not met)\)$", line)
                assert m and sum(int(m.group(k)) for k in (1, 2, 3)) == score
            else:
                assert f"{state.stash[p]} cheese in the stash" in line


def test_a_given_seed_says_the_game_is_not_secret() -> None:
    keys = Keyboard(["quit"])
    keys.start("micromob", 2, {1}, seed=42).run()
    assert "Seed 42 was given by hand: this game is NOT secret" in keys.text
    assert "Seed commitment" not in keys.text
    keys = Keyboard(["quit"])
    session = keys.start("micromob", 2, {1}, seed=None)
    session.run()
    assert f"Seed commitment: {session.record.commitment}" in keys.text
    assert str(session.state.seed) not in keys.text and session.salt not in keys.text


def _one_line_error(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, ["play", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_command_line_mistakes_are_one_line_and_exit_2(tmp_path) -> None:
    _one_line_error(["micromob", "--bot", "3"], "--bot 3: there is no seat 3 in a 2-player")
    _one_line_error(["micromob", "--bot", "0", "-p", "4"], "there is no seat 0")
    _one_line_error(["micromob", "-o", "colour=red"], "unknown option 'colour'")
    _one_line_error(["micromob", "-o", "modules=abc"], "unknown module 'abc'")
    _one_line_error(["microcity", "-o", "mode=coop"], "option mode=coop is not known")
    _one_line_error(["irontriangle", "-o", "x=1", "--simulate", "2"], "unknown option 'x'")
    _one_line_error(["micromob", "-o", "modules"], "key=value")
    bad = tmp_path / "deck.yaml"
    for content, words in (("a: [1,", "not valid YAML"), ("a: 1\n", "not a Mice Heist deck")):
        bad.write_text(content)
        _one_line_error(["miceheist", "-o", f"deck={bad}"], words)
        _one_line_error(["miceheist", "-o", f"deck={bad}", "--simulate", "1"], words)
    _one_line_error(["miceheist", "-o", f"deck={tmp_path / 'none.yaml'}"],
                    "cannot read the deck file")
    _one_line_error(["micromob", "--resume", str(tmp_path / "none.json")], "cannot read")
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps({"game": "miceheist", "players": 2, "seed": 1,
                                 "salt": "00" * 32, "actions": []}))
    _one_line_error(["micromob", "--resume", str(saved)], "holds a game of miceheist")
    _one_line_error(["miceheist", "--resume", str(saved), "--seed", "3"], "drop --seed")
    saved.write_text(json.dumps({"game": "miceheist", "players": 2, "seed": 1,  # (a save
                                 "salt": "00" * 32, "actions": [[0, "fly"]],  # has its feeds)
                                 "seen": {}}))
    _one_line_error(["miceheist", "--resume", str(saved)], "cannot resume")
    _one_line_error(["chess"], "unknown game 'chess'")


def test_play_quit_and_resume_in_real_subprocesses(tmp_path) -> None:
    def run(*args: str, stdin: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "mobadj", "play", *args], input=stdin,
                              capture_output=True, text=True, cwd=tmp_path, timeout=120,
                              check=False, env={"PYTHONPATH": str(ROOT), "PATH": "",
                                                "MOBADJ_KEY_DIR": os.environ["MOBADJ_KEY_DIR"]})

    first = run("micromob", "--bot", "2", "--save", "g.json", stdin="help\n")  # then EOF
    assert first.returncode == 0, first.stderr
    assert "Game saved to g.json" in first.stdout and (tmp_path / "g.json").exists()
    assert "Traceback" not in first.stderr
    legal = [line for line in first.stdout.splitlines() if line.startswith("You can: ")][0]
    move = legal.removeprefix("You can: ").split("; ")[0]
    second = run("micromob", "--resume", "g.json", stdin=f"{move}\nquit\n")
    assert second.returncode == 0, second.stderr
    data = read_save(tmp_path / "g.json").content
    assert data["actions"][0] == [0, move]


# -- where games are saved ------------------------------------------------------------------

def _quit_at_once(args: list[str]) -> str:
    result = CliRunner().invoke(main, ["play", "micromob", "--bot", "2", *args], input="quit\n")
    assert result.exit_code == 0, result.output
    return result.output


def test_the_default_save_file_is_in_the_users_data_folder(tmp_path, monkeypatch) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.delenv("MOBADJ_SAVE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    home_saves = tmp_path / "home" / ".local" / "share" / "mobadj" / "saves"
    for where, env in ((home_saves, {}),
                       (tmp_path / "xdg" / "mobadj" / "saves",
                        {"XDG_DATA_HOME": str(tmp_path / "xdg")}),
                       (tmp_path / "mine", {"MOBADJ_SAVE_DIR": str(tmp_path / "mine")})):
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        output = _quit_at_once([])
        (saved,) = where.glob("micromob-*.json")
        assert f"Game saved to {saved}. Continue it with: mobadj play micromob --resume " \
               f"{saved}" in output
        assert json.loads(saved.read_text())["game"] == "micromob"  # readable: the game
    assert list(cwd.iterdir()) == []  # nothing left where the game was played
    named = tmp_path / "tonight.json"
    _quit_at_once(["--save", str(named)])
    assert named.exists()


def test_a_second_game_started_in_the_same_second_gets_its_own_file(monkeypatch,
                                                                    saves_in_tmp_path) -> None:
    monkeypatch.setattr(terminal.time, "strftime", lambda fmt: "20270101-120000")
    first = terminal.default_save_path("miceheist")
    assert first == saves_in_tmp_path / "miceheist-20270101-120000.json"
    first.parent.mkdir(parents=True)
    first.write_text("{}")
    assert terminal.default_save_path("miceheist").name == "miceheist-20270101-120000-2.json"


def test_a_save_that_cannot_be_written_is_said_not_a_traceback(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    keys = Keyboard(["quit"])
    keys.start("micromob", 2, {1}, save_to=blocker / "saved.json").run()
    assert f"! cannot save the game to {blocker / 'saved.json'}" in keys.text


# -- bot levels -----------------------------------------------------------------------------

def test_bot_levels_per_game_and_per_seat_are_saved_and_resumed(tmp_path) -> None:
    path = tmp_path / "levels.json"
    result = CliRunner().invoke(main, ["play", "micromob", "-p", "4", "--bot", "2:basic",
                                       "--bot", "3", "--bot", "4:STANDARD", "--save", str(path)],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    assert "P1, P2 (bot, basic), P3 (bot), P4 (bot)" in result.output
    assert json.loads(path.read_text())["seats"] == {
        "P1": "human", "P2": "bot (basic)", "P3": "bot (standard)", "P4": "bot (standard)"}
    data = read_save(path).content
    assert data["bot_levels"] == {"P2": "basic", "P3": "standard", "P4": "standard"}
    resumed = Session.resume(data)
    assert [type(resumed.bot_players[p]) for p in (1, 2, 3)] == [
        MicroMobBasicBot, MicroMobBot, MicroMobBot]
    result = CliRunner().invoke(main, ["play", "micromob", "-p", "3", "--bot", "2", "--bot",
                                       "3", "--bot-level", "Basic", "--save", str(path)],
                                input="quit\n")
    assert "P2 (bot, basic), P3 (bot, basic)" in result.output
    assert read_save(path).content["bot_levels"] == {"P2": "basic", "P3": "basic"}
    old = dict(data)
    del old["bot_levels"]  # a file saved before levels: the standard bot
    assert isinstance(Session.resume(old).bot_players[1], MicroMobBot)


def test_bot_level_mistakes_are_one_line(tmp_path) -> None:
    _one_line_error(["miceheist", "--bot", "2", "--bot-level", "basic"],
                    "Mice Heist has no bot level 'basic' (its levels: standard)")
    _one_line_error(["micromob", "--bot", "2:expert"], "has no bot level 'expert'")
    _one_line_error(["micromob", "--bot", "two"], "--bot two: expected a seat number")
    _one_line_error(["micromob", "--bot", "5:basic"], "there is no seat 5")
    _one_line_error(["micromob", "--bot-level", "expert"],
                    "micro mob has no bot level 'expert' (its levels: basic, standard)")
    _one_line_error(["miceheist", "--simulate", "1", "--bots", "--bot-level", "basic"],
                    "no bot level 'basic'")
    saved = tmp_path / "s.json"
    CliRunner().invoke(main, ["play", "micromob", "--bot", "2", "--save", str(saved)],
                       input="quit\n")
    _one_line_error(["micromob", "--resume", str(saved), "--bot-level", "basic"],
                    "drop --bot-level")
    result = CliRunner().invoke(main, ["play", "micromob", "--simulate", "3", "--bots",
                                       "--bot-level", "basic", "--seed", "4"])
    assert result.exit_code == 0 and json.loads(result.output)["finished"] == 3


def test_a_move_typed_at_a_more_pause_is_the_next_prompts_command() -> None:
    """A small terminal pauses (``-- more --``) before P1's prompt; P1 types its move there
    instead of Enter.  The move is not dropped: it is P1's command at the prompt that
    follows, shown after it as if typed there."""
    from mobadj.cards.screen import Pager

    typed: list[str] = []
    out: list[str] = []

    def read(prompt: str) -> str:
        if prompt == Pager.MORE and not typed:
            typed.append(str(session.state.legal_actions(0)[0]))
            return typed[0]
        return "" if prompt == Pager.MORE else "quit"

    session = Session.new("irontriangle", 5, 3, {1, 2, 3, 4}, read=read, write=out.append,
                          size=(80, 10))
    assert 0 in session.state.to_act()
    session.run()
    assert typed and session.state.actions[0] == (0, typed[0])
    assert f"P1> {typed[0]}" in out


def test_a_line_typed_to_hide_the_screen_is_answered_not_dropped() -> None:
    """Hot-seat over a pipe: after P1's move, a line at ``P1: press Enter to hide your
    screen`` is answered (P1 has no move to make now) and the prompt asked again; Enter then
    hands over to P2 as before."""
    state = game_class("micromob").new(2, 3)
    move = str(state.legal_actions(0)[0])
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "-p", "2",
                           "--seed", "3"], input=f"{move}\nbet 2\n\n\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    hide = "P1: press Enter to hide your screen (or 'undo' to take your move back) "
    assert (f"{hide}! 'bet 2' was not read: P1 has no move to make now (press Enter to hide "
            "your screen, or 'undo' to take your move back)\n" + hide) in out
    assert "Pass to P2 and press Enter" in out and "P2> " in out


def test_a_micro_mob_move_of_the_play_typed_in_the_draft_says_it_is_the_draft() -> None:
    """``hit u9`` at the draft is answered with what the game waits for (as Mice Heist's
    'you cannot bet now'), not with what the command lacks."""
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "--bot", "2",
                           "--seed", "5"], input="HIT\nhit u9\npass\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    draft = "it is the goon draft (draft a goon from the pool: draft U9, draft D12, ...)"
    for word in ("hit", "hit", "pass"):
        assert f"P1> ! you cannot {word} now: {draft}\n" in done.stdout
    assert "expected one of: none" not in done.stdout


def test_a_line_typed_at_the_end_hand_overs_is_answered_not_dropped() -> None:
    """Hot-seat over a pipe, to the end of the game: a command typed at ``The game is over.
    Pass to P1 for your last events`` or at ``Press Enter to show the final scores to
    everyone`` instead of Enter (no command follows: the game is over) is answered, not
    silently dropped, and the end screen comes as with Enter."""
    lines: list[str] = []

    def read(prompt: str) -> str:  # the same game played first in-process: what to type
        if prompt.startswith("P") and prompt.endswith("> ") and "Enter" not in prompt:
            lines.append(str(session.state.legal_actions(int(prompt[1:-2]) - 1)[0]))
        else:
            lines.append("board" if "last events" in prompt or "final scores" in prompt
                         else "")
        return lines[-1]

    session = Session.new("micromob", 2, 5, set(), read=read, write=lambda _: None)
    assert session.run().is_over() and lines.count("board") == 2
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "-p", "2",
                           "--seed", "5"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    answer = "! 'board' was not read: the game is over\n"
    last = out.index("The game is over. Since your last turn:")
    assert out.index(answer, last) < out.index("P1: press Enter to hide your screen", last)
    assert ("Press Enter to show the final scores to everyone "
            + answer + "=== micro mob: the end ===") in out


@pytest.mark.parametrize(("game", "players", "options"), [
    ("microcity", 2, {"mode": "competitive"}), ("micromob", 2, None), ("miceheist", 2, None)])
def test_the_help_offers_the_seat_prefix_only_for_what_the_game_takes(game, players,
                                                                    options) -> None:
    """Games without table talk list only ``history`` for ``P<n>:``; what the help offers
    is taken, not refused."""
    keys = Keyboard(["help", "P2: say hello", "quit"])
    keys.start(game, players, set(), options=options).run()
    assert "  P<n>: ...  another human seat's table command at this prompt: history\n" \
           in keys.text + "\n"
    assert "say, reveal" not in keys.text


def test_the_help_offers_iron_triangle_table_talk_while_it_is_allowed() -> None:
    keys = Keyboard([])
    session = keys.start("irontriangle", 3, set(), seed=1)
    state = session.state
    rng = random.Random(1)
    while state.phase != "negotiate":
        p = state.to_act()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    seat = state.to_act()[0]
    session._help(seat)
    line = next(t for t in keys.text.split("\n") if t.startswith("  P<n>:"))
    assert line.startswith("  P<n>: ...  another human seat's table command at this "
                           "prompt: say") and line.endswith(", history")
