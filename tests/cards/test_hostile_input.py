"""Hostile input at the card games' front ends: control and escape sequences, invisible and
fullwidth characters, bytes that are no UTF-8, very long lines, odd option values.  Each
gets a clear error or is read as meant; none reaches another seat's screen, ends the game
with a traceback or makes a saved game unreadable (docs/cards/playing.md, "Hostile
input")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.cards.registry import game_class
from mobadj.cards.saves import read_save
from mobadj.cards.screen import MAX_LINE, clean_command, printable
from mobadj.cards.terminal import Session
from mobadj.cli import main
from mobadj.judge.cardhost import CardHost
from mobadj.judge.hosts import HostError

ROOT = Path(__file__).resolve().parents[2]
ESC = "\x1b"
NASTY = f"{ESC}[2J{ESC}[H{ESC}]0;owned\x07\u202eevil\u200b\x00\r\x08ok"


def _harmful(text: str) -> list[str]:
    """The characters of ``text`` a terminal would obey or hide: controls but line breaks
    and tabs, format characters (bidi overrides, zero-width), lone surrogates."""
    return [f"U+{ord(ch):04X}" for ch in text
            if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Cs")]


class Table:
    """A scripted hot-seat keyboard: Enter at every hand-over, the script at the prompts,
    then end of input."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)
        self.written: list[str] = []

    def read(self, prompt: str) -> str:
        if not prompt.endswith("> "):
            return ""
        if not self.script:
            raise EOFError
        return self.script.pop(0)

    def write(self, text: str) -> None:
        self.written.append(text)


def _negotiating_iron_triangle(script: list[str], tmp_path: Path) -> tuple[Session, Table]:
    """Four human seats of Iron Triangle up to the negotiation, then ``script`` at P1's
    (the Mob Boss's) prompt."""
    table = Table(["job 1 fast", "offer 1", "offer 1", "offer 1", *script])
    session = Session.new("irontriangle", 4, 5, set(), read=table.read, write=table.write,
                          save_to=tmp_path / "it.json")
    session.run()
    return session, table


def test_escape_sequences_in_table_talk_never_reach_a_screen(tmp_path) -> None:
    session, table = _negotiating_iron_triangle([f"say {NASTY}", f"P2: say {NASTY}"],
                                                tmp_path)
    said = [a for _, a in session.state.actions if a.startswith("say")]
    assert said == ["say [2J[H]0;ownedevilok"] * 2
    assert not [line for line in table.written if _harmful(line)]
    assert any("P2 says: [2J[H]0;ownedevilok" in line for line in table.written)


def test_a_hand_edited_save_with_escapes_is_shown_harmless(tmp_path) -> None:
    """An old save (plain text, before saves were sealed) was the player's to edit."""
    _negotiating_iron_triangle(["say hello"], tmp_path)
    data = read_save(tmp_path / "it.json").content
    data["actions"][-1][1] = f"say {NASTY}"
    table = Table(["board", "history"])
    Session.resume(data, read=table.read, write=table.write).run()
    assert any("P1 says:" in line for line in table.written)
    assert not [line for line in table.written if _harmful(line)]


def test_a_byte_that_is_no_utf8_in_table_talk_still_saves_and_resumes(tmp_path) -> None:
    session, _ = _negotiating_iron_triangle(["say caf\udce9 for all"], tmp_path)
    assert session.state.actions[-1] == (0, "say caf\ufffd for all")
    data = read_save(tmp_path / "it.json").content  # was: "a text in it is no Unicode"
    again = Session.resume(data, read=Table([]).read, write=lambda _: None)
    assert again.state.actions == session.state.actions


def test_fullwidth_and_invisible_characters_are_read_as_meant() -> None:
    state = game_class("micromob").new(2, 3)
    move = str(state.legal_actions(state.to_act()[0])[0])
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" for c in move)
    table = Table(["\u200b" + wide.replace("\u3000", "\u00a0\u200d") + "\t"])
    session = Session.new("micromob", 2, 3, {1}, read=table.read, write=table.write)
    session.run()
    assert session.state.actions[0] == (0, move)


def test_a_line_longer_than_any_command_is_refused_whole(tmp_path) -> None:
    session, table = _negotiating_iron_triangle(["say " + "x" * MAX_LINE], tmp_path)
    assert not any(a.startswith("say") for _, a in session.state.actions)
    assert f"! that line is longer than {MAX_LINE} characters: not read" in table.written


def test_the_cleaning_rules() -> None:
    assert clean_command("ｈｉｒｅ\u00a0D3\t") == "hire D3 "
    assert clean_command("x\udcffy") == "x\ufffdy"
    assert printable("a\nb\tc" + NASTY) == "a\nb\tc[2J[H]0;ownedevilok"
    assert printable("plain, unchanged: café ♠") == "plain, unchanged: café ♠"


def test_bytes_no_utf8_at_a_strict_terminal_are_a_mistake_not_a_traceback(tmp_path) -> None:
    """A terminal whose locale decodes strictly (en_US.UTF-8) used to end the game with a
    UnicodeDecodeError, unsaved."""
    result = subprocess.run(
        [sys.executable, "-m", "mobadj", "play", "micromob", "--bot", "2", "--save", "g.json"],
        input=b"x\xff\xfe\nquit\n", capture_output=True, cwd=tmp_path, timeout=120,
        check=False, env={"PYTHONPATH": str(ROOT), "PATH": "",
                          "MOBADJ_KEY_DIR": os.environ["MOBADJ_KEY_DIR"],
                          "PYTHONIOENCODING": "utf-8:strict"})
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0 and "Traceback" not in err, err
    assert "! 'x\ufffd\ufffd' is not understood" in out
    assert "Game saved to g.json" in out


def test_a_terminal_that_cannot_show_a_character_shows_a_question_mark(tmp_path) -> None:
    """An ASCII terminal used to end the game unsaved at the first character it could not
    show (here the replacement character of a byte that was no ASCII)."""
    result = _play(["micromob", "--bot", "2", "--save", "g.json"], b"x\xff\nquit\n",
                   tmp_path, PYTHONIOENCODING="ascii:strict")
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0 and "Traceback" not in err, err
    assert "! 'x?' is not understood" in out and "Game saved to g.json" in out


# -- the command line -------------------------------------------------------------------------

def _one_line_error(args: list[str], words: str) -> str:
    result = CliRunner().invoke(main, ["play", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not _harmful(result.output)
    return result.output


def test_odd_option_values_are_one_line_errors() -> None:
    _one_line_error(["micromob", "-o", "modules=" + "9" * 5000], "unknown module '999")
    _one_line_error(["micromob", "-o", "modules=1.5"], "modules must be a count 1-6 or module")
    _one_line_error(["micromob", "-o", "modules=[]"], "modules must be a count 1-6 or module")
    _one_line_error(["micromob", "-o", "modules=2026-01-01"], "unknown module '2026-01-01'")
    _one_line_error(["micromob", "-o", "modules=" + "[" * 5000], "unknown module '[[[")
    _one_line_error(["microcity", "-o", "mode=.nan"], "option mode=.nan is not known")
    for count in ("0", "-3"):
        _one_line_error(["micromob", "--simulate", count], "is not in the range x>=1")


def test_escapes_on_the_command_line_are_not_echoed() -> None:
    _one_line_error(["micromob", "--bot-level", f"{ESC}]0;x\x07"], "has no bot level ']0;x'")
    _one_line_error([f"micro{ESC}[2Jmob"], "unknown game")


def test_an_empty_or_listed_deck_file_is_named_plainly(tmp_path) -> None:
    deck = tmp_path / "deck.yaml"
    for content, words in (("", "it holds nothing"), ("- a\n", "it holds no mapping")):
        deck.write_text(content)
        output = _one_line_error(["miceheist", "-o", f"deck={deck}"], words)
        assert "NoneType" not in output and "subscriptable" not in output


def test_verify_shows_a_hostile_record_harmless(tmp_path) -> None:
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"game": "micromob", "players": 2, "seed": 1,
                                  "salt": "00" * 32, "actions": [[0, f"draft {NASTY}"]]}))
    result = CliRunner().invoke(main, ["play", "verify", str(record)])
    assert result.exit_code == 1 and "NOT verified" in result.output
    assert not _harmful(result.output)


@pytest.mark.parametrize("value", ["\u00b2", "9" * 5000])
def test_the_judge_refuses_an_odd_option_number_by_name(value) -> None:
    with pytest.raises(HostError, match="module"):
        CardHost("micromob").new_state(["P1", "P2"], 1, {"game_modules": value})


# -- saved files and records --------------------------------------------------------------------

def test_verify_names_malformed_scores_instead_of_a_traceback(tmp_path) -> None:
    session = Session.new("micromob", 2, 7, {0, 1}, read=Table([]).read,
                          write=lambda _: None, save_to=tmp_path / "done.json")
    session.run()
    data = json.loads((tmp_path / "done.json").read_text())
    for scores in ("abc", 5, [None], {"a": 1}):
        (tmp_path / "bad.json").write_text(json.dumps(dict(data, scores=scores)))
        result = CliRunner().invoke(main, ["play", "verify", str(tmp_path / "bad.json")])
        assert result.exit_code == 1, result.output
        assert "MISMATCH: the record states the scores" in result.output
        assert "Traceback" not in result.output


def _play(args: list[str], stdin: bytes, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mobadj", "play", *args], input=stdin,
                          capture_output=True, cwd=cwd, timeout=120, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": "",
                               "MOBADJ_KEY_DIR": os.environ["MOBADJ_KEY_DIR"],
                               "PYTHONDONTWRITEBYTECODE": "1", **env})


def test_a_save_is_private_and_a_failed_one_keeps_the_game_saved_before(tmp_path) -> None:
    first = _play(["micromob", "--bot", "2", "--save", "g.json"], b"quit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    saved = tmp_path / "g.json"
    assert saved.stat().st_mode & 0o777 == 0o600  # it holds the seed
    before = saved.read_bytes()

    def small_files() -> None:  # a full disk: writing half the save fails (EFBIG)
        import resource
        import signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) // 2, len(before) // 2))

    again = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "--resume",
                            "g.json"], input=b"quit\n", capture_output=True, cwd=tmp_path,
                           timeout=120, check=False, preexec_fn=small_files,
                           env={"PYTHONPATH": str(ROOT), "PATH": "",
                                "MOBADJ_KEY_DIR": os.environ["MOBADJ_KEY_DIR"],
                                "PYTHONDONTWRITEBYTECODE": "1"})
    assert b"! cannot save the game to g.json" in again.stdout, again.stdout + again.stderr
    assert saved.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "keys"]
    resumed = _play(["micromob", "--resume", "g.json"], b"quit\n", tmp_path)
    assert resumed.returncode == 0 and b"Game saved to g.json" in resumed.stdout


def test_a_deck_file_changed_since_the_game_started_is_refused(tmp_path) -> None:
    from mobadj.cards.miceheist.data import DATA_FILE

    deck = tmp_path / "deck.yaml"
    deck.write_bytes(DATA_FILE.read_bytes())
    first = _play(["miceheist", "--bot", "2", "-o", "deck=deck.yaml", "--save", "g.json"],
                  b"quit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    options = json.loads((tmp_path / "g.json").read_text())["options"]
    assert options["deck"] == "deck.yaml" and len(options["deck_sha256"]) == 64
    deck.write_bytes(DATA_FILE.read_bytes() + b"# the same cards, another file\n")
    again = _play(["miceheist", "--resume", "g.json"], b"quit\n", tmp_path)
    assert again.returncode == 2, again.stdout
    assert b"is not the one this game was played with" in again.stderr
    deck.write_bytes(DATA_FILE.read_bytes())
    assert _play(["miceheist", "--resume", "g.json"], b"quit\n", tmp_path).returncode == 0


def test_a_deck_file_too_large_is_no_deck(tmp_path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_bytes(b"#" * (1024 * 1024 + 1))
    _one_line_error(["miceheist", "-o", f"deck={deck}"], "larger than 1024 KiB")


def test_the_hand_over_erases_the_scrollback_of_a_real_terminal(tmp_path) -> None:
    """A cleared screen is not enough: the next seat would scroll back up to the hand just
    hidden.  Played on a real pseudo-terminal, hot-seat, P1 moves and hands over to P2."""
    import os
    import pty
    import select

    from mobadj.cards.screen import ERASE

    move = str(game_class("micromob").new(2, 3).legal_actions(0)[0])
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game on the terminal
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "mobadj", "play", "micromob",
                                   "--seed", "3", "--save", "g.json"],
                  {"PYTHONPATH": str(ROOT), "PATH": "", "TERM": "xterm",
                   "MOBADJ_KEY_DIR": os.environ["MOBADJ_KEY_DIR"]})
    os.write(fd, f"\n{move}\n\nquit\n".encode())
    screen = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 60)
        assert ready, screen.decode(errors="replace")
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the game has ended and closed the terminal
            break
        if not chunk:
            break
        screen += chunk
    os.waitpid(pid, 0)
    text = screen.decode(errors="replace")
    hidden = text.index("P1: press Enter to hide your screen")
    assert ERASE in text[hidden:text.index("Pass to P2 and press Enter")], text
    assert "Game saved to g.json" in text


def test_a_record_naming_a_pipe_as_its_deck_is_refused_not_waited_on(tmp_path) -> None:
    """A record to verify may come from anyone and name any path as its Mice Heist deck:
    opening a pipe used to wait for a writer for ever."""
    import os

    os.mkfifo(tmp_path / "pipe")
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"game": "miceheist", "players": 2, "seed": 1,
                                  "salt": "00" * 32, "options": {"deck": "pipe"},
                                  "actions": []}))
    result = _play(["verify", "record.json"], b"", tmp_path)
    assert result.returncode == 1, result.stdout
    assert b"cannot read the deck file pipe: it is no file" in result.stdout
    _one_line_error(["miceheist", "-o", "deck=/dev/zero"], "it is no file")
