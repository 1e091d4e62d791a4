"""Sealed saves (mobadj/cards/saves.py): what a save file shows, where its key is kept, and
the one line ``--resume`` answers for a changed file, an older copy, a missing key, a save
cut short by a crash, and a save of an earlier mobadj."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from save_table import hidden_values, readable_leaks

from mobadj.cards import saves
from mobadj.cards.protocol import IllegalAction
from mobadj.cards.record import verify_record
from mobadj.cards.saves import PUBLIC, GameKey, keys_folder, read_save
from mobadj.cards.terminal import Session
from mobadj.cli import main


def _quit_after(moves: int, path: Path, game: str = "miceheist", players: int = 3,
                bots: frozenset[int] = frozenset({1, 2})) -> Session:
    """A game played by P1 (its first legal move each time) until ``moves`` moves are made,
    then quit: the save is at ``path``."""
    def read(prompt: str) -> str:
        if len(session.state.actions) >= moves:
            return "quit"
        if prompt != "P1> ":
            return ""
        return str(session.state.legal_actions(0)[0])

    session = Session.new(game, players, None, set(bots), read=read, write=lambda _: None,
                          save_to=path)
    session.run()
    return session


def _resume_line(path: Path, game: str = "miceheist") -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", game, "--resume", str(path)], input="quit\n")
    return result.exit_code, result.output


def test_a_save_shows_only_what_the_table_knows_and_its_key_is_kept_apart(tmp_path) -> None:
    path = tmp_path / "g.json"
    session = _quit_after(6, path)
    text = path.read_text()
    data = json.loads(text)
    assert list(data) == [*PUBLIC, "nonce", "sealed", "tag"]
    assert data["seats"] == {"P1": "human", "P2": "bot (standard)", "P3": "bot (standard)"}
    assert data["moves"] == len(session.state.actions) and data["game"] == "miceheist"
    assert data["seed_commitment"] == session.record.commitment
    assert "--resume" in data["note"]
    state = session.state
    assert not readable_leaks(text, hidden_values(state, [0], session.salt))
    for _, action in state.actions:  # not even the moves everyone saw
        assert f'"{action}"' not in text
    assert len(bytes.fromhex(data["sealed"])) % saves.PAD == 0
    assert path.stat().st_mode & 0o777 == 0o600
    key = keys_folder() / f"{data['game_id']}.key"
    assert key.stat().st_mode & 0o777 == 0o600 and key.parent != path.parent
    assert data["game_id"] in str(key) and json.loads(key.read_text())["key"] not in text
    opened = read_save(path)
    assert opened.content["seed"] == state.seed and opened.content["salt"] == session.salt
    assert opened.content["actions"] == [list(a) for a in state.actions]


def test_the_check_finds_the_secrets_of_a_save_in_plain_text(tmp_path) -> None:
    """The scan that finds no secret in a sealed save finds them in the save of old."""
    session = _quit_after(6, tmp_path / "g.json")
    plain = json.dumps(session.to_json())
    found = readable_leaks(plain, hidden_values(session.state, [0], session.salt))
    assert str(session.state.seed) in found and session.salt in found


def test_a_changed_save_an_older_copy_and_a_lost_key_are_one_line_each(tmp_path) -> None:
    path = tmp_path / "g.json"
    _quit_after(3, path)
    first = path.read_text()
    code, out = _resume_line(path)
    assert code == 0 and "Game saved to" in out
    second = path.read_text()
    assert second != first  # saved again: a new nonce, another tag
    (tmp_path / "old.json").write_text(first)
    code, out = _resume_line(tmp_path / "old.json")
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert "it is not the game's latest save" in out and "Traceback" not in out
    edited = second.replace('"moves": ', '"moves": 1')
    (tmp_path / "edited.json").write_text(edited)
    code, out = _resume_line(tmp_path / "edited.json")
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert f"cannot resume {tmp_path / 'edited.json'}: it has been changed since it was " \
           "saved" in out
    code, out = _resume_line(path)  # the latest save still goes on
    assert code == 0, out
    for key in keys_folder().glob("*.key"):
        key.unlink()
    code, out = _resume_line(path)
    assert code == 2 and "its key is not on this machine" in out and str(keys_folder()) in out


def test_a_crash_between_the_writes_leaves_one_save_that_resumes(tmp_path, monkeypatch
                                                                 ) -> None:
    path = tmp_path / "g.json"
    session = _quit_after(3, path)
    before = path.read_text()
    real = saves.write_privately

    def full_disk(where: Path, text: str) -> None:
        if where == path:
            raise OSError(28, "No space left on device")
        real(where, text)

    monkeypatch.setattr(saves, "write_privately", full_disk)  # the key is written, not the save
    with pytest.raises(OSError):
        saves.write_sealed(path, session.to_json(), session.key, session.saves + 1)
    monkeypatch.setattr(saves, "write_privately", real)
    assert path.read_text() == before and read_save(path).content["actions"]
    stored = json.loads(session.key.path.read_text())
    assert stored["pending"] and stored["latest"]  # the new tag was never the latest


def test_verify_says_a_sealed_save_is_a_game_in_progress(tmp_path) -> None:
    path = tmp_path / "g.json"
    _quit_after(3, path)
    verdict = verify_record(json.loads(path.read_text()))
    assert not verdict.ok and "a game in progress, saved sealed" in verdict.lines[0]
    result = CliRunner().invoke(main, ["play", "verify", str(path)])
    assert result.exit_code == 1 and "game in progress" in result.output


def test_the_end_replaces_the_save_by_the_record_and_forgets_the_key(tmp_path) -> None:
    path = tmp_path / "g.json"
    session = _quit_after(10_000, path, "micromob", 2, frozenset({1}))
    assert session.state.is_over()
    data = json.loads(path.read_text())
    assert data["over"] and data["seed"] == session.state.seed and verify_record(data).ok
    assert not session.key.path.exists()
    assert "is over; check it with: mobadj play verify" in _resume_line(path, "micromob")[1]


def test_a_save_of_an_earlier_mobadj_resumes_and_is_sealed_from_then_on(tmp_path) -> None:
    path = tmp_path / "g.json"
    session = _quit_after(4, path)
    path.write_text(json.dumps(session.to_json()))  # as saves were written before
    code, out = _resume_line(path)
    assert code == 0 and "saved by an earlier mobadj, whose saves kept the seed readable" in out
    data = json.loads(path.read_text())
    assert data["format"] == saves.SAVE_FORMAT and "seed" not in data


def test_a_key_that_is_not_a_key_is_said_so(tmp_path) -> None:
    path = tmp_path / "g.json"
    session = _quit_after(3, path)
    session.key.path.write_text("{not json")
    with pytest.raises(IllegalAction, match="its key in .* cannot be read"):
        read_save(path)
    assert GameKey.new().game_id != session.key.game_id  # a key, and a name, per game


def test_a_game_moved_to_another_machine_and_back_goes_on_at_home(tmp_path, monkeypatch
                                                                   ) -> None:
    """The docs' way to move a game: the save and its key to another machine (another key
    folder), a move played there, and the newer save copied back home, the key left at
    home.  Home resumes it (its save number is higher than the one home's key knows), the
    move made away stands, and from then on home refuses the copy it had before."""
    home, away = tmp_path / "home", tmp_path / "away"
    monkeypatch.setenv("MOBADJ_KEY_DIR", str(home / "keys"))
    path = home / "g.json"
    _quit_after(3, path)
    before = path.read_text()
    game_id = json.loads(before)["game_id"]
    (away / "keys").mkdir(parents=True)
    shutil.copy(home / "keys" / f"{game_id}.key", away / "keys")
    shutil.copy(path, away / "g.json")
    monkeypatch.setenv("MOBADJ_KEY_DIR", str(away / "keys"))
    moves = len(read_save(away / "g.json").content["actions"])
    move = str(Session.resume(read_save(away / "g.json").content).state.legal_actions(0)[0])
    result = CliRunner().invoke(main, ["play", "miceheist", "--resume", str(away / "g.json")],
                                input=f"{move}\nquit\n")
    assert result.exit_code == 0 and "Game saved to" in result.output, result.output
    shutil.copy(away / "g.json", path)  # back home, with the newer save
    monkeypatch.setenv("MOBADJ_KEY_DIR", str(home / "keys"))
    code, out = _resume_line(path)
    assert code == 0 and "Game saved to" in out, out
    assert len(read_save(path).content["actions"]) > moves  # the move made away stands
    (tmp_path / "old.json").write_text(before)
    code, out = _resume_line(tmp_path / "old.json")  # home's own older copy: refused now
    assert code == 2 and "it is not the game's latest save" in out


def test_quitting_and_a_missing_key_name_the_key_file_to_copy(tmp_path, monkeypatch) -> None:
    """A group takes its game to another laptop: the quit line and the save's note say a
    key file goes along, and the laptop without it names the file and where it lives."""
    path = tmp_path / "g.json"
    made = CliRunner().invoke(main, ["play", "miceheist", "--bot", "2", "--save", str(path)],
                              input="quit\n")
    game_id = json.loads(path.read_text())["game_id"]
    key = keys_folder() / f"{game_id}.key"
    assert f"Its key is {key}: to go on on another machine, copy the key file there too." \
        in made.output
    assert f"{game_id}.key" in json.loads(path.read_text())["note"]
    monkeypatch.setenv("MOBADJ_KEY_DIR", str(tmp_path / "laptop-keys"))
    code, out = _resume_line(path)
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert (f"its key is not on this machine (looked for {game_id}.key in "
            f"{tmp_path / 'laptop-keys'}): to go on here, copy {game_id}.key from the keys "
            "folder of the machine where the game was saved (~/.local/share/mobadj/keys "
            "there") in out
    (tmp_path / "laptop-keys").mkdir()
    shutil.copy(key, tmp_path / "laptop-keys")
    code, out = _resume_line(path)
    assert code == 0 and "Game saved to" in out


def test_a_save_with_the_note_of_an_earlier_mobadj_still_resumes(tmp_path) -> None:
    """The readable note changed wording; a game saved (and signed) with the old words goes
    on."""
    path = tmp_path / "g.json"
    session = _quit_after(3, path)
    key = session.key
    text = path.read_text()
    note = json.loads(text)["note"]
    old = ("A miceheist game in progress, sealed: its secrets are encrypted with a key kept "
           "apart from this file, and a changed file is refused. Go on with: mobadj play "
           "miceheist --resume FILE")
    tag = json.loads(text)["tag"]
    body = saves._body_of(text, tag).replace(json.dumps(note), json.dumps(old))
    new_tag = key.tag(body)
    path.write_text(saves._file_text(body, new_tag))
    key.latest = new_tag
    key.store()
    assert read_save(path).content["actions"] == [list(a) for a in session.state.actions]
    code, out = _resume_line(path)
    assert code == 0 and "Game saved to" in out


def test_a_finished_games_record_edited_back_into_a_save_does_not_resume(tmp_path) -> None:
    """The end screen showed the scores, the seed and the salt; the record is then edited
    into the shape of a plain save of an earlier mobadj (its end and last move taken out,
    or the judge's record.json so edited).  ``--resume`` refuses each in one line, and the
    last move is not played again."""
    path = tmp_path / "g.json"
    session = _quit_after(10_000, path, "micromob", 2, frozenset({1}))
    assert session.state.is_over()
    record = json.loads(path.read_text())
    edits = {
        "end taken out": lambda d: [d.pop(k) for k in ("over", "scores", "winners")],
        "over false": lambda d: d.update(over=False),
        "judge's shape": lambda d: [d.pop(k) for k in ("over", "scores", "winners", "seen",
                                                        "bots", "bot_levels", "secret")],
    }
    said = {
        "end taken out": "it ended on this machine, and this file is its record with the "
                         "end taken out",
        "over false": "the file is its finished record",
        "judge's shape": "the file is a game's record as the judge mails it, not a saved "
                         "game",
    }
    for name, edit in edits.items():
        data = json.loads(json.dumps(record))
        edit(data)
        data["actions"] = data["actions"][:-1]
        edited = tmp_path / f"{name.replace(' ', '-')}.json"
        edited.write_text(json.dumps(data))
        code, out = _resume_line(edited, "micromob")
        assert code == 2 and len(out.strip().splitlines()) == 1, (name, out)
        assert f"the game in {edited} is over ({said[name]}: a finished game does not " \
               "resume); check it with: mobadj play verify" in out, (name, out)
        assert json.loads(edited.read_text()) == data  # nothing played, nothing saved


def test_a_file_that_is_no_save_says_what_it_is_and_what_was_expected(tmp_path) -> None:
    """A save whose ``format`` lost a letter is neither over nor the judge's record, and a
    file without ``game`` names no game (the user typed one)."""
    path = tmp_path / "g.json"
    _quit_after(3, path)
    data = json.loads(path.read_text())
    data["format"] = "mobadj-card-sav"
    misspelt = tmp_path / "misspelt.json"
    misspelt.write_text(json.dumps(data))
    code, out = _resume_line(misspelt)
    assert code == 2 and out.strip() == (
        f"Error: cannot resume {misspelt}: it is not a saved mobadj game: its format is "
        "'mobadj-card-sav', expected 'mobadj-card-save'")
    result = CliRunner().invoke(main, ["play", "verify", str(misspelt)])
    assert result.exit_code == 1 and result.output.strip() == (
        "NOT verified: this is not a mobadj game's record: its format is 'mobadj-card-sav', "
        "expected 'mobadj-card-game'")
    hello = tmp_path / "hello.json"
    hello.write_text('{"hello": 1}\n')
    code, out = _resume_line(hello)
    assert code == 2 and out.strip() == (
        f"Error: cannot resume {hello}: it is not a saved mobadj game: it names no game")
    hello.write_text('{"game": "miceheits", "players": 3}\n')
    code, out = _resume_line(hello)
    assert code == 2 and out.strip() == f"Error: {hello} holds a game of miceheits, not miceheist"


def test_a_save_that_notepad_gave_a_byte_order_mark_resumes_and_still_refuses_edits(
        tmp_path) -> None:
    path = tmp_path / "g.json"
    _quit_after(3, path)
    text = path.read_text()
    edited = tmp_path / "edited.json"
    edited.write_text(text.replace('"moves": ', '"moves": 1'), encoding="utf-8-sig")
    code, out = _resume_line(edited)
    assert code == 2 and "it has been changed since it was saved" in out, out
    path.write_text(text, encoding="utf-8-sig")  # opened in Notepad and saved
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    code, out = _resume_line(path)
    assert code == 0 and "Game saved to" in out, out


def test_verify_reads_a_record_with_a_byte_order_mark(tmp_path) -> None:
    path = tmp_path / "g.json"
    _quit_after(10_000, path, "micromob", 2, frozenset({1}))
    path.write_text(path.read_text(), encoding="utf-8-sig")
    result = CliRunner().invoke(main, ["play", "verify", str(path)])
    assert result.exit_code == 0 and result.output.startswith("verified: "), result.output


def test_a_number_too_long_to_read_is_named_with_its_place(tmp_path) -> None:
    path = tmp_path / "g.json"
    _quit_after(3, path)
    lines = path.read_text().splitlines()
    number = next(n for n, line in enumerate(lines) if line.startswith(' "moves": '))
    lines[number] = ' "moves": ' + "9" * 10_000 + ","
    path.write_text("\n".join(lines) + "\n")
    said = (f"{path} is not a JSON game record: line {number + 1}, column 11: a number of "
            "10,000 digits (at most 4,300)")
    code, out = _resume_line(path)
    assert code == 2 and out.strip() == f"Error: cannot resume {path}: {said}"
    result = CliRunner().invoke(main, ["play", "verify", str(path)])
    assert result.exit_code == 2 and result.output.strip() == f"Error: {said}"
