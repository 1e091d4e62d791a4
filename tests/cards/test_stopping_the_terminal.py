"""Stopping a terminal game where a person does: Ctrl-C at the end screen's pause, Ctrl-D at
a ``-- more --`` pause, and the same save resumed in two windows at once (the stale window
says so once and stops).  None of them may take a move back or show what a save keeps
sealed."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mobadj.cards.record import fork
from mobadj.cards.saves import read_save, still_latest, write_sealed
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


PLAYED_ON = "This game was played on in another window (or program) since it was opened here"


def _window(path: Path, read, out: list[str]) -> Session:
    """A terminal window that has resumed the save at ``path``."""
    opened = read_save(path)
    return Session.resume(opened.content, read=read, write=out.append, save_to=path,
                          key=opened.key, saves=opened.number)


def test_a_save_resumed_in_two_windows_is_one_game(tmp_path) -> None:
    """Window B resumes and waits; window A resumes the same file, plays and quits; B, at
    its next prompt, says once that the game was played on elsewhere and stops: it asks
    nothing more, saves nothing, and A's moves (and draws) stand."""
    path = tmp_path / "g.json"
    Session.new("miceheist", 2, 7, {1}, read=lambda _: "quit", write=lambda _: None,
                save_to=path).run()

    def window(read, out):
        return _window(path, read, out)

    b_out: list[str] = []
    b_asked: list[str] = []
    b = window(lambda prompt: b_asked.append(prompt) or "quit", b_out)
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
    a_save = path.read_bytes()
    b.run()
    assert b_asked == []  # stopped before its prompt
    assert b_out[-1].startswith("! " + PLAYED_ON) and "that save stands" in b_out[-1]
    assert sum(PLAYED_ON in line for line in b_out) == 1
    assert b.played_elsewhere is not None
    assert not any(line.startswith("Game saved to") for line in b_out)
    assert path.read_bytes() == a_save
    assert len(read_save(path).content["actions"]) == played  # A's moves stand


def _until_prompt(window: subprocess.Popen[bytes], prompt: bytes) -> str:
    """What a window shows until it waits at ``prompt`` (a minute at most)."""
    seen, deadline = b"", time.monotonic() + 60
    fd = window.stdout.fileno()
    while not seen.endswith(prompt):
        left = deadline - time.monotonic()
        assert left > 0 and select.select([fd], [], [], left)[0], seen[-400:]
        chunk = os.read(fd, 4096)
        assert chunk, seen[-400:]  # (the window ended without asking)
        seen += chunk
    return seen.decode()


def _play(*args: str, typed: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobadj", "play", *args], input=typed,
                          capture_output=True, text=True, timeout=60)


def _stale_window(path: Path, typed: bytes
                  ) -> tuple[subprocess.Popen[bytes], bytes, bytes, bytes]:
    """Two terminal windows on one Mice Heist save: B waits at P1>, A plays a move there and
    quits; then B's player types ``typed`` (``{move}``: the move A played).  (B, what B
    wrote, what B wrote on standard error, the save as A left it)."""
    made = _play("miceheist", "--bot", "2", "--save", str(path), typed="quit\n")
    assert made.returncode == 0, made.stderr
    move = str(Session.resume(read_save(path).content).state.legal_actions(0)[0])
    b = subprocess.Popen([sys.executable, "-m", "mobadj", "play", "miceheist", "--resume",
                          str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        _until_prompt(b, b"P1> ")
        a = _play("miceheist", "--resume", str(path), typed=f"{move}\nquit\n")
        assert a.returncode == 0 and "Game saved to" in a.stdout, a.stdout + a.stderr
        a_save = path.read_bytes()
        out, err = b.communicate(typed.replace(b"{move}", move.encode()), timeout=60)
    finally:
        if b.poll() is None:
            b.kill()
            b.wait()
    return b, out, err, a_save


def test_a_stale_window_says_so_once_and_stops_with_status_1(tmp_path) -> None:
    """Two terminal windows, one save: B waits at P1>, A plays a move there and quits.  The
    move B's player then types is not played: B says once that the game was played on in
    another window and exits with status 1, the lines typed after it unread, A's save as A
    left it, and neither the seed nor the salt shown."""
    path = tmp_path / "g.json"
    b, out, err, a_save = _stale_window(path, b"{move}\nboard\nquit\n")
    told = out.decode().strip().splitlines()
    assert b.returncode == 1 and err == b""
    assert told == ["! " + PLAYED_ON + ", and saved there: that save stands. This window "
                    "stops without saving; resume the game's latest save to go on here."]
    assert path.read_bytes() == a_save
    game = read_save(path).content
    assert str(game["seed"]) not in out.decode() and game["salt"] not in out.decode()
    again = _play("miceheist", "--resume", str(path), typed="quit\n")
    assert again.returncode == 0 and "Game saved to" in again.stdout  # the game goes on


def _one_move_from_the_end(path: Path) -> None:
    """Micro Mob for two at one keyboard, played (each seat its first legal move) until the
    next move would end it, then quit: the save at ``path``."""
    def read(prompt: str) -> str:
        state = session.state
        if not (prompt.startswith("P") and prompt.endswith("> ")):
            return ""  # the hand-overs
        seat = int(prompt[1:-2]) - 1
        move = state.legal_actions(seat)[0]
        ahead = fork(state)
        ahead.apply(seat, move)
        return "quit" if ahead.is_over() else str(move)

    session = Session.new("micromob", 2, None, set(), read=read, write=lambda _: None,
                          save_to=path)
    assert not session.run().is_over()


def test_a_stale_window_never_shows_the_end_of_a_game_ended_elsewhere(tmp_path) -> None:
    """B waits at the last prompt of the game; meanwhile A plays the last move there (the
    record replaces the save, the key is deleted).  B's last move is not played: no end
    screen, no seed nor salt, A's record left as it is."""
    path = tmp_path / "g.json"
    _one_move_from_the_end(path)
    a_out: list[str] = []
    b_out: list[str] = []

    def a_read(prompt: str) -> str:
        if prompt.startswith("P") and prompt.endswith("> "):
            seat = int(prompt[1:-2]) - 1
            return str(a.state.legal_actions(seat)[0])
        return ""

    def b_read(prompt: str) -> str:
        if prompt.startswith("P") and prompt.endswith("> "):
            assert a.run().is_over()  # (the other window, while this one waits)
            return str(b.state.legal_actions(int(prompt[1:-2]) - 1)[0])
        return ""

    b = _window(path, b_read, b_out)
    a = _window(path, a_read, a_out)
    b.run()
    assert any("the end ===" in line for line in a_out)
    record = path.read_text()
    data = json.loads(record)
    assert data["over"] is True
    assert not b.state.is_over() and b.played_elsewhere is not None
    assert b_out[-1] == ("! This game was ended in another window (or program) since it was "
                         "opened here, or its key was deleted. This window stops without "
                         "saving.")
    shown = "\n".join(b_out)
    assert "the end ===" not in shown and data["salt"] not in shown
    assert str(data["seed"]) not in shown
    assert path.read_text() == record


def test_the_docs_competitive_micro_city_example_runs() -> None:
    """docs/cards/playing.md: without -p, competitive Micro City is a game of two."""
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "microcity", "-o",
                           "mode=competitive", "--bot", "2:basic"], input="quit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Micro City: 2 players: P1, P2 (bot, basic)")


def test_hot_seat_over_a_pipe_reads_the_first_line_as_the_first_command() -> None:
    """``printf 'help\\nquit\\n' | mobadj play micromob --players 3``: the line typed at the
    first hand-over is P1's first command, not swallowed as its Enter."""
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "--players",
                           "3"], input="help\nquit\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "P1> help\n" in done.stdout
    assert "help CARD  what a card does" in done.stdout
    assert "Game saved to" in done.stdout


def _hot_seat_save(path: Path, moves: int) -> None:
    """Micro Mob for two at one keyboard with secret hands, each seat playing its first
    legal move ``moves`` times, then quit: the save at ``path``."""
    played = {"n": 0}

    def read(prompt: str) -> str:
        if not (prompt.startswith("P") and prompt.endswith("> ")):
            return ""  # the hand-overs
        if played["n"] == moves:
            return "quit"
        played["n"] += 1
        return str(session.state.legal_actions(int(prompt[1:-2]) - 1)[0])

    session = Session.new("micromob", 2, None, set(), {"hands": "secret"}, read=read,
                          write=lambda _: None, save_to=path)
    session.run()


def _pty_window(path: Path, **env: str) -> tuple[int, int]:
    """``mobadj play micromob --resume path`` on a real pseudo-terminal: (pid, its fd);
    ``env``: more of its environment (``LINES="10"``: a terminal of 10 rows)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the game on the terminal
        os.execve(sys.executable, [sys.executable, "-m", "mobadj", "play", "micromob",
                                   "--resume", str(path)],
                  {"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": "",
                   "TERM": "xterm", "MOBADJ_KEY_DIR": os.environ["MOBADJ_KEY_DIR"],
                   "PYTHONDONTWRITEBYTECODE": "1", **env})
    return pid, fd


def _read_pty(fd: int, until: bytes | None) -> str:
    """What the terminal shows until ``until`` (None: until the program closes it)."""
    seen, deadline = b"", time.monotonic() + 60
    while until is None or not seen.endswith(until):
        left = deadline - time.monotonic()
        assert left > 0 and select.select([fd], [], [], left)[0], seen[-400:]
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the program ended and closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    assert until is None or seen.endswith(until), seen[-400:]
    return seen.decode(errors="replace")


def test_a_stale_hot_seat_window_clears_the_screen_before_it_stops(tmp_path) -> None:
    """Hot-seat on a real terminal: window B shows P1's secret hand at its prompt; window A
    resumes the same save, plays a move and quits.  The move then typed in B is not played,
    and B erases the screen (scrollback too, as a hand-over does) before it says why it
    stops: the next person at the keyboard does not see P1's hand."""
    from mobadj.cards.screen import ERASE

    path = tmp_path / "g.json"
    _hot_seat_save(path, 4)
    state = Session.resume(read_save(path).content).state
    seat = state.to_act()[0]
    move = str(state.legal_actions(seat)[0])
    hand = state.screen(seat).splitlines()[-2 if seat else -4]
    assert "hand (goons" in hand
    pid, fd = _pty_window(path)
    try:
        _read_pty(fd, f"Pass to P{seat + 1} and press Enter ".encode())
        os.write(fd, b"\n")
        shown = _read_pty(fd, f"P{seat + 1}> ".encode())
        assert hand.split(";")[1].strip() in shown  # the secret hand is on the screen
        a = _play("micromob", "--resume", str(path), typed=f"{move}\nquit\n")
        assert a.returncode == 0 and "Game saved to" in a.stdout, a.stdout + a.stderr
        a_save = path.read_bytes()
        os.write(fd, f"{move}\n".encode())
        after = _read_pty(fd, None)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 1
    told = "! This game was played on in another window"  # (wrapped to the terminal)
    assert ERASE in after and after.index(ERASE) < after.index(told)
    assert after.split(ERASE)[-1].startswith(told)
    assert path.read_bytes() == a_save


def test_a_move_is_saved_before_its_result_is_shown(tmp_path) -> None:
    """Hot-seat: when the screen first shows what P's move did, the save on disk already
    holds the move (a window that could not save it would have shown nothing of it)."""
    path = tmp_path / "g.json"
    _hot_seat_save(path, 2)
    checked: list[int] = []
    played = {"n": 0}

    def read(prompt: str) -> str:
        if prompt.startswith("P") and prompt.endswith("> ") and not played["n"]:
            played["n"] = len(window.state.actions) + 1
            return str(window.state.legal_actions(int(prompt[1:-2]) - 1)[0])
        return "quit" if played["n"] else ""

    def write(line: str) -> None:
        if played["n"] and not checked:
            checked.append(len(read_save(path).content["actions"]))

    window = _window(path, read, [])
    window.write = write
    window.pager.write = write
    window.run()
    assert checked == [played["n"]]


def _waiting_for_lock(pid: int) -> bool:
    """Is process ``pid`` blocked waiting for a file lock (Linux's /proc/locks)?"""
    return any(" -> " in f" {line}" and f" {pid} " in line
               for line in Path("/proc/locks").read_text().splitlines())


def test_a_save_cannot_land_between_a_windows_check_and_its_save(tmp_path) -> None:
    """Window B has checked that its save is the latest and is writing its move's save
    (it holds the game's lock); window A, a real process on the same save, plays a move
    meanwhile.  A waits, then finds its game played on elsewhere: it stops with status 1,
    saving nothing and showing neither the result of its move nor the seed; B's save
    stands."""
    path = tmp_path / "g.json"
    made = _play("miceheist", "--bot", "2", "--save", str(path), typed="quit\n")
    assert made.returncode == 0, made.stderr
    opened = read_save(path)
    b = Session.resume(opened.content)
    move = b.state.legal_actions(0)[0]
    key = opened.key
    with key.locked():
        still_latest(key)  # B's check: its save is the latest
        a = subprocess.Popen([sys.executable, "-m", "mobadj", "play", "miceheist", "--resume",
                              str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            _until_prompt(a, b"P1> ")
            a.stdin.write(f"{move}\nquit\n".encode())
            a.stdin.flush()
            deadline = time.monotonic() + 60
            while not _waiting_for_lock(a.pid):  # A has its move and waits for the lock
                assert a.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
            b.state.apply(0, move)
            write_sealed(path, b.to_json(), key, opened.number + 1)  # B's save
            b_save = path.read_bytes()
        except BaseException:
            a.kill()
            raise
    out, err = a.communicate(timeout=60)
    told = out.decode().strip().splitlines()
    assert a.returncode == 1 and err == b""
    assert told[-1].startswith("! " + PLAYED_ON)
    assert path.read_bytes() == b_save
    game = read_save(path).content
    assert len(game["actions"]) == len(opened.content["actions"]) + 1
    assert str(game["seed"]) not in out.decode() and game["salt"] not in out.decode()


@pytest.mark.parametrize("stop", [b"quit\n", b"\x04"], ids=["quit", "ctrl-d"])
def test_stopping_a_hot_seat_game_clears_the_hand_off_the_screen(tmp_path, stop) -> None:
    """Hot-seat on a real terminal: at the prompt that shows P's secret hand the players
    stop for the night (``quit``, Ctrl-D; Ctrl-C below).  The screen and its scrollback are
    erased before the line saying where the game is saved: whoever comes to the machine
    next does not find the hand there."""
    from mobadj.cards.screen import ERASE

    path = tmp_path / "g.json"
    _hot_seat_save(path, 4)
    state = Session.resume(read_save(path).content).state
    seat = state.to_act()[0]
    hand = state.screen(seat).splitlines()[-2 if seat else -4].split(";")[1].strip()
    pid, fd = _pty_window(path)
    try:
        _read_pty(fd, f"Pass to P{seat + 1} and press Enter ".encode())
        os.write(fd, b"\n")
        assert hand in _read_pty(fd, f"P{seat + 1}> ".encode())  # the hand is on the screen
        os.write(fd, stop)
        after = _read_pty(fd, None)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    assert ERASE in after
    left = after.split(ERASE)[-1]  # what stays on the terminal
    assert left.lstrip().startswith("Game saved to") and hand not in left
    assert len(read_save(path).content["actions"]) == 4  # saved, nothing taken back


def test_ctrl_c_in_a_hot_seat_game_clears_the_hand_off_the_screen(tmp_path) -> None:
    """The same for Ctrl-C at the prompt that shows P's hand (in-process: a Ctrl-C sent to a
    pseudo-terminal the instant its prompt shows can reach Python before its line editor
    waits, and then waits with it)."""
    path = tmp_path / "g.json"
    _hot_seat_save(path, 4)
    opened = read_save(path)
    seat = Session.resume(opened.content).state.to_act()[0]
    screen: list[str] = []

    def read(prompt: str) -> str:
        if prompt == f"P{seat + 1}> ":
            assert any("hand (goons" in line for line in screen)  # the hand is up
            raise KeyboardInterrupt
        return ""

    window = Session.resume(opened.content, read=read, write=screen.append,
                            clear=screen.clear, save_to=path, key=opened.key,
                            saves=opened.number)
    window.run()
    assert screen and screen[0].startswith("Game saved to")  # all else erased before it
    assert not any("hand (goons" in line for line in screen)
    assert len(read_save(path).content["actions"]) == 4


def test_a_stale_window_answers_board_with_its_one_line(tmp_path) -> None:
    """B waits at P1>, A plays a move on the same save and quits; B's player types
    ``board``: B shows no table of the game as it was, but says once that the game was
    played on elsewhere and stops with status 1."""
    path = tmp_path / "g.json"
    b, out, err, _ = _stale_window(path, b"board\nhistory\nquit\n")
    assert b.returncode == 1 and err == b""
    assert out.decode().strip().splitlines() == [
        "! " + PLAYED_ON + ", and saved there: that save stands. This window stops without "
        "saving; resume the game's latest save to go on here."]


def _save_before_the_last_move(path: Path) -> str:
    """Micro Mob, P1 against a bot, P1 playing its first legal move each turn, saved just
    before the move that ends the game: that move."""
    last: list[str] = []

    def read(prompt: str) -> str:
        state = session.state
        if not (prompt.startswith("P1>") and 0 in state.to_act()):
            return ""
        move = str(state.legal_actions(0)[0])
        after = fork(state)
        after.apply(0, after.parse(0, move))
        if after.is_over():
            last.append(move)
            return "quit"
        return move

    session = Session.new("micromob", 2, 5, {1}, read=read, write=lambda _: None,
                          save_to=path)
    session.run()
    assert last and not session.state.is_over()
    return last[0]


@pytest.mark.parametrize(("typed", "then"), [
    (b"board", "! 'board' was not read: the game is over"),
    (b"quit", "The game's record is saved in"),
], ids=["a-command", "quit"])
def test_a_line_typed_at_the_end_screens_pause_is_answered(tmp_path, typed, then) -> None:
    """A real terminal of 10 rows: P1's last move ends the game and the end screen pauses
    (``-- more --``).  A command typed there instead of Enter is not silently dropped: it
    is answered at once (the game is over, no command follows), and the rest of the end
    screen comes as with Enter; ``quit`` there skips to the line naming the record, as
    Ctrl-D does."""
    path = tmp_path / "g.json"
    move = _save_before_the_last_move(path)
    pid, fd = _pty_window(path, LINES="10", COLUMNS="80")
    try:
        shown = _read_pty(fd, Pager.MORE.encode())  # the resumed table is taller
        while "P1> " not in shown:
            os.write(fd, b"\n")
            shown = _read_pty(fd, b" ")
        os.write(fd, f"{move}\n".encode())
        assert "the end ===" in _read_pty(fd, Pager.MORE.encode())
        os.write(fd, typed + b"\n")
        after = _read_pty(fd, None)
    except BaseException:
        os.kill(pid, 9)
        raise
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    lines = [line.strip() for line in after.splitlines()]
    assert lines[0] == typed.decode() and lines[1].startswith(then), after  # at once
    assert "The game's record is saved in" in after and after.rstrip().endswith("g.json")
    assert read_save(path).content["over"] is True
    if typed == b"board":
        assert any(line.startswith("Winner: ") for line in lines)  # the rest, as with Enter
