"""Every card-game test saves into its own temporary folder, and keeps the keys of its saved
games there too: a game played without a file named (the terminal's default,
:func:`mobadj.cards.terminal.default_save_path`) must never land in the working directory or
the user's data folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def saves_in_tmp_path(tmp_path, monkeypatch):
    saves = tmp_path / "saves"
    monkeypatch.setenv("MOBADJ_SAVE_DIR", str(saves))
    monkeypatch.setenv("MOBADJ_KEY_DIR", str(tmp_path / "keys"))
    return saves
