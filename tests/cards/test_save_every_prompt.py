"""Saves that keep the secrets and refuse edits, per game: 50 seeded games against bots,
quitting at every prompt.  Each time the game is saved: no save shows a hidden value in
readable form (the seed, the salt, a card in a pile or another hand, a sealed choice still
to be revealed), every edited copy is refused with one line, the save before it is refused
once this one is written (a copy kept to take a draw back), and the untouched save resumes
the very game, which then goes on to its end, where its record verifies."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from save_table import EDITS, Keyboard, hidden_values, mixed, readable_leaks, refused

from mobadj.cards.record import verify_record
from mobadj.cards.saves import read_save
from mobadj.cards.terminal import Session

GAMES = 50
TABLES: dict[str, list[tuple[int, set[int], dict[str, Any] | None]]] = {
    "micromob": [(2, {1}, None), (3, {0, 2}, None), (3, {1, 2}, {"hands": "secret"})],
    "miceheist": [(2, {1}, None), (3, {0, 2}, None), (4, {1, 2, 3}, None)],
    "irontriangle": [(3, {1, 2}, None), (4, {0, 2, 3}, None)],
    "microcity": [(2, {1}, {"mode": "competitive"}), (2, {0}, {"mode": "competitive"})],
}


class Checked:
    """Totals over a game's saves, for the asserts."""

    def __init__(self) -> None:
        self.saves = self.edits = self.older = self.finished = 0


def _check_save(path: Path, session: Session, before: str | None, tmp: Path,
                totals: Checked) -> str:
    """One save, as a player might try it; returns its text."""
    text = path.read_text(encoding="utf-8")
    state = session.state
    leaks = readable_leaks(text, hidden_values(state, session.humans, session.salt))
    assert not leaks, f"the save shows {leaks}"
    copy = tmp / "edited.json"
    for name, edit in EDITS.items():
        if name.startswith("the sealed part of"):
            if before is None:
                continue
            changed = mixed(text, before)
        else:
            changed = edit(text)
        if changed == text:
            continue
        if name == "the end cut off":  # as a file: it is no JSON
            copy.write_text(changed, encoding="utf-8")
            why = refused(copy)
        else:
            why = refused(copy, changed)
        expected = "is not a JSON game record" if name == "the end cut off" else (
            "changed since it was saved")
        assert expected in why, (name, why)
        totals.edits += 1
    if before is not None:
        copy.write_text(before, encoding="utf-8")
        assert "not the game's latest save" in refused(copy)
        totals.older += 1
    totals.saves += 1
    return text


def _play(game: str, k: int, tmp: Path, totals: Checked) -> None:
    players, bots, options = TABLES[game][k % len(TABLES[game])]
    path = tmp / f"{game}-{k}.json"
    keys = Keyboard(seed=k)
    levels = dict.fromkeys(bots, "basic") if game == "microcity" else None  # (a fast bot)
    session = Session.new(game, players, None, bots, options, read=keys.read,
                          write=lambda _: None, save_to=path, bot_levels=levels)
    keys.session = session
    before: str | None = None
    for _ in range(5000):
        state = session.run()
        if state.is_over():
            break
        before = _check_save(path, session, before, tmp, totals)
        opened = read_save(path)
        resumed = Session.resume(opened.content, read=keys.read, write=lambda _: None,
                                 save_to=path, key=opened.key, saves=opened.number)
        assert resumed.state.actions == state.actions and resumed.seen == session.seen
        assert resumed.salt == session.salt and resumed.state.seed == state.seed
        keys.session = session = resumed
    assert session.state.is_over() and keys.prompts > 3
    record = json.loads(path.read_text())
    assert verify_record(record).ok
    assert not (tmp / "keys" / f"{session.key.game_id}.key").exists()  # forgotten
    totals.finished += 1


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """Where the games are saved: in memory when the machine has a folder there (thousands
    of saves, each written whole and moved into place, cost a disk a minute), else on disk.
    The keys go there too."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm) as where:
        monkeypatch.setenv("MOBADJ_KEY_DIR", str(Path(where) / "keys"))
        yield Path(where)


@pytest.mark.parametrize("game", list(TABLES))
def test_quitting_at_every_prompt_keeps_secrets_refuses_edits_and_resumes(game, folder
                                                                          ) -> None:
    totals = Checked()
    for k in range(GAMES):
        _play(game, k, folder, totals)
    assert totals.finished == GAMES
    assert totals.saves > GAMES * 10 and totals.edits >= totals.saves * 10
    assert totals.older == totals.saves - GAMES
