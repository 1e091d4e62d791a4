"""A game's kind names its host however it is written, the same host every time it is asked
for (the judge asks a dozen times per mail), and a kind not known yet is looked for again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mobadj.board.loader import MAPS_DIR
from mobadj.judge.cardhost import CardHost
from mobadj.judge.hosts import DiplomacyHost, HostError, host_for


@pytest.mark.parametrize(("written", "kind"), [("micromob", "micromob"),
                                               (" Micro Mob ", "micromob"),
                                               ("MICE HEIST", "miceheist"),
                                               ("Mobsters", "irontriangle")])
def test_a_card_game_kind_in_any_spelling_is_one_host(written: str, kind: str) -> None:
    host = host_for(written)
    assert isinstance(host, CardHost) and host.kind == kind
    assert host_for(written) is host and host_for(kind) is host


def test_a_map_and_its_alias_share_the_host_that_keeps_the_map() -> None:
    host = host_for("Mobtown2")
    assert isinstance(host, DiplomacyHost)
    assert host_for("mobtown2") is host and host_for("MobTown") is host
    assert host_for(" STANDARD ") is host_for("standard")


def test_a_map_added_while_the_judge_runs_is_found(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MOBADJ_MAPS", str(tmp_path))
    with pytest.raises(HostError, match="unknown game kind 'Lateland'"):
        host_for("Lateland")
    shutil.copy(MAPS_DIR / "standard.yaml", tmp_path / "lateland.yaml")
    host = host_for("Lateland")
    assert isinstance(host, DiplomacyHost) and host_for("lateland") is host
