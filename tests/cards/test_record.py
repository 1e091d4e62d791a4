"""Seeds and commitments: secret 128-bit seeds, a commitment that binds the seed to a secret
256-bit salt (so it cannot be checked, nor the seed searched, without the salt), and
``mobadj play verify`` on finished records, old unsalted ones included."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from mobadj.cards.record import (
    OLD_SCHEME,
    SCHEME,
    GameRecord,
    new_salt,
    new_seed,
    seed_commitment,
    verify_record,
)
from mobadj.cards.registry import game_class
from mobadj.cards.saves import read_save
from mobadj.cards.terminal import Session
from mobadj.cli import main

ROOT = Path(__file__).resolve().parents[2]


def finished(game: str = "micromob", players: int = 2, seed: int = 5) -> GameRecord:
    rng = random.Random(seed)
    state = game_class(game).new(players, seed)
    while not state.is_over():
        p = state.to_act()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    return GameRecord.of(game, state, salt=f"{rng.getrandbits(256):064x}")


def final_json(record: GameRecord) -> dict:
    return record.to_json(reveal_seed=True)


def test_seeds_have_128_bits_and_salts_256() -> None:
    seeds = [new_seed() for _ in range(32)]
    assert all(0 <= s < 2**128 for s in seeds) and max(seeds) >= 2**120
    assert len(set(seeds)) == 32
    salts = [new_salt() for _ in range(8)]
    assert all(len(s) == 64 and int(s, 16) >= 0 for s in salts) and len(set(salts)) == 8


def test_the_commitment_is_hmac_sha256_keyed_by_the_salt() -> None:
    salt = new_salt()
    expect = hmac.new(bytes.fromhex(salt), b"miceheist:123456", hashlib.sha256).hexdigest()
    assert seed_commitment("miceheist", 123456, salt) == expect
    assert seed_commitment("miceheist", 123456) == hashlib.sha256(b"miceheist:123456").hexdigest()


def test_a_commitment_cannot_be_checked_without_the_salt() -> None:
    # the old attack: a typed seed like 123456 was found from the first screen in 0.3 s
    salt = new_salt()
    published = seed_commitment("micromob", 123456, salt)
    unsalted = {hashlib.sha256(f"micromob:{s}".encode()).hexdigest() for s in range(200_000)}
    assert published not in unsalted
    guesses = {seed_commitment("micromob", s, g) for s in range(123_000, 124_000)
               for g in ("00" * 32, new_salt())}
    assert published not in guesses  # the right seed with a wrong salt does not match
    assert seed_commitment("micromob", 123456, salt) == published  # the salt checks it
    record = finished()
    data = final_json(record)
    del data["salt"]
    verdict = verify_record(data)
    assert not verdict.ok and "no salt" in verdict.lines[0]
    hidden = record.to_json()  # during the game: the commitment, no seed, no salt
    assert "seed" not in hidden and "salt" not in hidden
    assert hidden["commitment_scheme"] == SCHEME
    assert not verify_record(hidden).ok


def test_a_finished_game_verifies_and_a_tampered_one_does_not() -> None:
    record = finished()
    data = final_json(record)
    verdict = verify_record(data, commitment=record.commitment)
    assert verdict.ok and verdict.lines[0].startswith("verified: micro mob, 2 players")
    assert f"{len(record.actions)} actions replay legally to the end" in "\n".join(verdict.lines)
    wrong = verify_record(data, commitment="0" * 64)
    assert not wrong.ok and "published at the start was" in "\n".join(wrong.lines)
    other_seed = dict(data, seed=data["seed"] + 1)
    assert not verify_record(other_seed).ok
    other_salt = dict(data, salt=new_salt())
    assert "MISMATCH" in "\n".join(verify_record(other_salt).lines)
    forged = dict(data, actions=[*data["actions"][:-1], [data["actions"][-1][0], "pass"]])
    assert not verify_record(forged).ok
    short = dict(data, actions=data["actions"][:-3])
    lines = verify_record(short).lines
    assert not verify_record(short).ok and any("not finished" in x for x in lines)
    assert not verify_record(dict(data, scores=[99, 0])).ok


def test_an_old_unsalted_record_verifies_and_is_named_the_old_scheme() -> None:
    record = finished("irontriangle", 3, seed=1234)
    record.salt = None
    data = final_json(record)
    assert data["commitment_scheme"] == OLD_SCHEME and "salt" not in data
    assert data["seed_commitment"] == hashlib.sha256(b"irontriangle:1234").hexdigest()
    verdict = verify_record(data)
    assert verdict.ok and "old unsalted scheme" in "\n".join(verdict.lines)


def test_a_terminal_game_saves_a_record_that_verifies(tmp_path) -> None:
    path = tmp_path / "game.json"
    rng = random.Random(2)
    box = {}

    def read(prompt: str) -> str:
        if not re.fullmatch(r"P\d+> ", prompt):  # the bot waits for Enter
            return ""
        s = box["s"].state
        return str(rng.choice(s.legal_actions(int(prompt[1:-2]) - 1)))

    out: list[str] = []
    session = Session.new("miceheist", 2, None, {1}, read=read, write=out.append,
                          save_to=path)
    box["s"] = session
    state = session.run()
    commitment_line = next(line for line in out if line.startswith("Seed commitment: "))
    published = commitment_line.split()[2]
    assert state.is_over()
    data = json.loads(path.read_text())
    assert data["over"] and data["seed_commitment"] == published
    assert f"Seed: {state.seed}" in out and f"Salt: {data['salt']}" in out
    assert verify_record(data, commitment=published).ok
    result = CliRunner().invoke(main, ["play", "verify", str(path), "--commitment", published])
    assert result.exit_code == 0 and result.output.startswith("verified: Mice Heist")
    data["actions"] = data["actions"][:5]
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["play", "verify", str(path)])
    assert result.exit_code == 1 and "not finished" in result.output


def test_verify_refuses_bad_files_in_one_line(tmp_path) -> None:
    runner = CliRunner()
    for content, words in (("{not json", "not a JSON game record"),
                           ("[1, 2]", "not a JSON game record"),
                           ('{"game": "chess", "players": 2, "seed": 1, "actions": []}',
                            "unknown game 'chess'")):
        path = tmp_path / "bad.json"
        path.write_text(content)
        result = runner.invoke(main, ["play", "verify", str(path)])
        assert result.exit_code in (1, 2) and words in result.output
        assert "Traceback" not in result.output and len(result.output.splitlines()) == 1
    missing = runner.invoke(main, ["play", "verify", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    assert runner.invoke(main, ["play", "verify"]).exit_code == 2


def test_verify_in_a_real_subprocess(tmp_path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(final_json(finished("microcity", 1, seed=3))))
    proc = subprocess.run([sys.executable, "-m", "mobadj", "play", "verify", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("verified: Micro City, 1 player")


def _views(state) -> tuple:
    return (tuple(state.render(p) for p in [None, *range(state.players)]),
            tuple(state.history(p) for p in [None, *range(state.players)]), state.actions)


def test_a_forked_game_goes_on_alone_and_the_replay_cache_gives_the_replayed_game() -> None:
    from mobadj.cards.record import ReplayCache, fork

    cache = ReplayCache(games=2, per_game=2)
    for game, players, options in (("micromob", 3, None), ("miceheist", 3, None),
                                   ("irontriangle", 4, None),
                                   ("microcity", 2, {"mode": "competitive"})):
        rng = random.Random(game)
        state = game_class(game).new(players, 99, options)
        record = GameRecord.of(game, state, salt="ab" * 32)
        steps = 0
        while not state.is_over():
            p = rng.choice(state.to_act())
            action = rng.choice(state.legal_actions(p))
            if steps % 7 == 3:
                copy = fork(state)
                copy.apply(p, action)  # the copy moves on; the original has not moved
                assert len(copy.actions) == len(state.actions) + 1
            state.apply(p, action)
            if steps % 7 == 3:
                assert _views(copy) == _views(state)
            steps += 1
            if steps % 5 == 0:
                record.actions = list(state.actions)
                cached = cache.state(record)
                assert _views(cached) == _views(state) == _views(cache.state(record, False))
                if cached.to_act():  # changing the copy leaves the cache as it was
                    q = cached.to_act()[0]
                    cached.apply(q, cached.legal_actions(q)[0])
                assert _views(cache.state(record, False)) == _views(state)


def _saved(tmp_path: Path) -> tuple[Path, dict]:
    """A micromob game saved at its first prompt, at the terminal (a real process), as an
    earlier mobadj saved it: in plain text."""
    path = tmp_path / "saved.json"
    proc = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "--players", "2",
                           "--bot", "2", "--seed", "4", "--save", str(path)],
                          input="quit\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and path.exists(), proc.stderr
    return path, read_save(path).content


TAMPERED = [
    ("bots", "x", "the saved game's bots are malformed"),
    ("bots", 3, "the saved game's bots are malformed"),
    ("bots", [7], "the saved game's bots are malformed"),
    ("bot_levels", ["P2"], "the saved game's bot_levels are malformed"),
    ("bot_levels", {"a": "basic"}, "the saved game's bot_levels are malformed"),
    ("seen", "P1", "the saved game's seen are malformed"),
    ("seen", {"P1": "many"}, "the saved game's seen are malformed"),
    ("salt", "not hex", "the salt must be hex digits, not 'not hex'"),
    ("salt", 1.5, "the salt must be hex digits, not '1.5'"),
    ("actions", [[99, "pass"]], "action 1 is by player 100, and there are 2"),
    ("actions", [[-1, "pass"]], "action 1 is by player 0, and there are 2"),
    ("options", [[0, "x"]], "the record's options must map names to values, not \"[[0, 'x']]\""),
    ("game", "micro\ud800mob", "not a JSON game record: a text in it is no Unicode"),
]


def test_a_tampered_save_is_refused_in_one_line(tmp_path) -> None:
    """A save of an earlier mobadj (plain text) was the player's to edit: any value in any
    field gives one line, both to resume and to verify, never a traceback."""
    path, good = _saved(tmp_path)
    for key, value, words in TAMPERED:
        path.write_text(json.dumps({**good, key: value}))
        for args in (["micromob", "--resume", str(path)], ["verify", str(path)]):
            proc = subprocess.run([sys.executable, "-m", "mobadj", "play", *args],
                                  input="quit\n", capture_output=True, text=True, timeout=120)
            shown = proc.stdout + proc.stderr
            assert proc.returncode in (1, 2) and "Traceback" not in shown, (key, value, shown)
            if args[0] == "micromob" or key in ("salt", "actions", "game", "options"):
                assert words in shown, (key, value, args[0], shown)


def test_a_save_nested_too_deeply_is_refused(tmp_path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    for args in (["micromob", "--resume", str(path)], ["verify", str(path)]):
        result = CliRunner().invoke(main, ["play", *args])
        assert result.exit_code == 2 and "is not a JSON game record: nested too deeply" in \
            result.output, result.output


def _mobadj(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobadj", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)


def test_verify_names_the_winner_and_refuses_a_record_naming_another(tmp_path) -> None:
    """Seed 100 ends in a 22-22 tie that the Time track gives to P1: the scores cannot
    tell who won, so a record naming P3 (or anyone else) must not pass."""
    path = tmp_path / "it100.json"
    played = _mobadj("play", "irontriangle", "-p", "3", "--bot", "1", "--bot", "2", "--bot",
                     "3", "--seed", "100", "--save", str(path), stdin="\n" * 400)
    assert "tie goes to the cube highest on the Time track" in played.stdout
    good = _mobadj("play", "verify", str(path))
    assert good.returncode == 0, good.stdout
    assert good.stdout.splitlines()[0] == "verified: Mobsters of the Iron Triangle, 3 players"
    assert ("Winner: P1: tied on 22 Notoriety with P3; the tie goes to the cube highest on "
            "the Time track.") in good.stdout.splitlines()
    data = json.loads(path.read_text())
    assert data["winners"] == [1]
    for stated, said in (([3], "P3 won"), ([2], "P2 won"), ([], "nobody won"),
                         ([1, 3], "P1 and P3 won"), ("P1", "'P1' won")):
        path.write_text(json.dumps(dict(data, winners=stated)))
        edited = _mobadj("play", "verify", str(path))
        assert edited.returncode == 1, (stated, edited.stdout)
        assert edited.stdout.startswith("NOT verified: Mobsters of the Iron Triangle")
        assert f"MISMATCH: the record states {said}; the replay gives P1" in edited.stdout


def test_verify_refuses_a_micro_city_record_naming_the_loser() -> None:
    state = game_class("microcity").new(2, 9, {"mode": "competitive"})
    rng = random.Random(9)
    while not state.is_over():
        p = state.to_act()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    (winner,) = state.winners()
    data = dict(final_json(GameRecord.of("microcity", state, salt=new_salt())),
                scores=state.scores(), winners=[winner + 1])
    verdict = verify_record(data)
    assert verdict.ok and f"Winner: P{winner + 1}." in verdict.lines
    bad = verify_record(dict(data, winners=[2 - winner]))
    assert not bad.ok
    assert f"MISMATCH: the record states P{2 - winner} won; the replay gives P{winner + 1}" in (
        bad.lines)


def test_verify_names_the_move_that_does_not_replay_and_moves_after_the_end(tmp_path) -> None:
    path = tmp_path / "mc.json"
    state = game_class("microcity").new(1, 3)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(0, rng.choice(state.legal_actions(0)))
    data = dict(final_json(GameRecord.of("microcity", state, salt=new_salt())),
                scores=state.scores(), winners=[p + 1 for p in state.winners()])
    n = len(data["actions"])
    for actions, said in (
            ([*data["actions"][:2], [0, "sell steel"], *data["actions"][3:]],
             f"the actions do not replay: action 3 of {n}, P1 'sell steel': "),
            ([*data["actions"], [0, "pass"]],
             f"the actions do not replay: the game was over after action {n}; the record "
             "has 1 more (the first: P1 'pass')")):
        path.write_text(json.dumps(dict(data, actions=actions)))
        result = _mobadj("play", "verify", str(path))
        lines = result.stdout.splitlines()
        assert result.returncode == 1
        assert lines[0] == "NOT verified: Micro City, 1 player"
        assert lines[-1].startswith(said), lines
