"""bench/peers/build.sh: the bench's compiled peers are built where they can be, and a peer
that cannot be built is skipped with a line saying why, never failing ``make bench``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

BUILD = Path(__file__).resolve().parents[1] / "bench" / "peers" / "build.sh"


def _build(tmp_path: Path, **sources: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GODIP_SRC", "DIPCC_SRC")}
    env.update(sources, PEERS_OUT=str(tmp_path / "peers"))
    run = subprocess.run(["sh", str(BUILD)], env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    return run.stdout.splitlines()


def test_without_sources_each_peer_is_skipped_with_the_reason(tmp_path) -> None:
    godip, dipcc = _build(tmp_path)
    assert godip.startswith("godip: skipped: no ")  # no Go toolchain, or no source
    assert "GODIP_SRC" in godip or "golang-go" in godip
    assert dipcc.startswith("dipcc: skipped: no ")
    assert not any((tmp_path / "peers").glob("mobadj-*"))


def test_a_source_that_is_not_the_peers_is_named_and_skipped(tmp_path) -> None:
    other = tmp_path / "elsewhere"
    (other / "src").mkdir(parents=True)
    (other / "src" / "main.c").write_text("int main(void) { return 0; }\n")
    lines = _build(tmp_path, GODIP_SRC=str(other), DIPCC_SRC=str(other))
    dipcc = lines[-1]
    assert dipcc == f"dipcc: skipped: {other} holds no dipcc/dipcc/cc/game_state.cc" or (
        dipcc.startswith("dipcc: skipped: no C++ compiler"))
    godip = lines[0]
    assert godip in (f"godip: skipped: {other} holds no variants/classical",
                     "godip: skipped: no Go toolchain (Debian: apt-get install golang-go)")
    assert not any((tmp_path / "peers").glob("mobadj-*"))
