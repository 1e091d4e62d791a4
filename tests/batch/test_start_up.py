"""A batch starts fast: commands are imported when used, maps and the grammar's tables come
from the disk cache (mobadj/diskcache.py), networkx, YAML and logging stay unloaded.  The
cache can only make a start faster: a stale, damaged or unsafe entry is never used."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj import diskcache
from mobadj.board import loader
from mobadj.board.loader import load_map
from mobadj.cli import COMMANDS
from mobadj.orders.parser import OrderParser

ROOT = Path(__file__).resolve().parents[2]
LINE = '{"id": 1, "phase": "S1901M", "units": {"France": ["A PAR"]}, ' \
       '"orders": {"France": ["A PAR - BUR"]}}\n'
PROBE = """
import sys
from mobadj.cli import main
try:
    main(["batch", "--jobs", "1", sys.argv[1]])
except SystemExit:
    pass
heavy = ("networkx", "yaml", "mobadj.judge", "mobadj.cards", "mobadj.render", "mobadj.web",
         "multiprocessing", "concurrent.futures", "mobadj.batch.jobs", "mobadj.orders.files",
         "mobadj.orders.mailtext", "mobadj.engine.scenarios", "lark", "logging",
         "mobadj.orders.parser")
print("loaded:", *(m for m in heavy if m in sys.modules), file=sys.stderr)
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A disk cache of this test's own."""
    where = tmp_path / "cache"
    monkeypatch.setenv("MOBADJ_CACHE", str(where))
    return where


def _fresh(name: str):
    """The map read from its YAML, never from a cache."""
    game_map, findings = loader.read_map(loader.map_path(name))
    assert game_map is not None and not [f for f in findings if f.severity == "error"]
    return game_map


def _same(a, b) -> None:
    mine = {k: v for k, v in vars(a).items() if k != "graph"}
    theirs = {k: v for k, v in vars(b).items() if k != "graph"}
    assert mine == theirs
    assert list(a.graph.edges(keys=True, data=True)) == list(b.graph.edges(keys=True, data=True))
    assert list(a.graph.nodes(data=True)) == list(b.graph.nodes(data=True))


def _load_anew(name: str, monkeypatch):
    monkeypatch.setattr(loader, "_CACHE", {})
    return load_map(name)


def test_the_batch_command_loads_no_heavy_module(tmp_path: Path, cache: Path) -> None:
    cases = tmp_path / "one.jsonl"
    cases.write_text(LINE)
    run = [sys.executable, "-c", PROBE, str(cases)]
    first = subprocess.run(run, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert '"next_phase":"F1901M"' in first.stdout
    # main, called from code, returns (only the mobadj program ends without teardown)
    assert first.stderr.startswith("loaded:")
    assert "networkx" not in first.stderr  # YAML is read once, to fill the cache
    again = subprocess.run(run, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert again.stdout == first.stdout and again.stderr.strip() == "loaded:"
    assert any((cache / "maps").iterdir())


def test_the_command_table_names_every_command() -> None:
    from mobadj.cli import main

    for module in {m for mods in COMMANDS.values() for m in mods}:
        __import__(module)
    assert set(main.commands) == set(COMMANDS)


@pytest.mark.parametrize("name", ["standard", "mobtown2"])
def test_a_cached_map_is_the_map(name: str, cache: Path, monkeypatch) -> None:
    built = _load_anew(name, monkeypatch)  # read and stored
    assert len(list((cache / "maps").iterdir())) == 1
    cached = _load_anew(name, monkeypatch)  # unpickled
    assert cached is not built
    _same(cached, _fresh(name))
    assert cached.edge("A", "PAR", "BUR") == _fresh(name).edge("A", "PAR", "BUR")


def test_a_changed_map_file_is_read_again(tmp_path: Path, cache: Path, monkeypatch) -> None:
    path = tmp_path / "mini.yaml"
    shutil.copy(loader.map_path("standard"), path)
    assert _load_anew(str(path), monkeypatch).provinces["PAR"].name == "Paris"
    path.write_text(path.read_text().replace("name: Paris", "name: Lutetia"))
    assert _load_anew(str(path), monkeypatch).provinces["PAR"].name == "Lutetia"
    assert len(list((cache / "maps").iterdir())) == 2


def _planted(cache: Path) -> None:
    """Replace the standard map's entry by a valid entry of a map that says Parus."""
    [entry] = (cache / "maps").iterdir()
    fake = _fresh("standard")
    fake.provinces["PAR"] = dataclasses.replace(fake.provinces["PAR"], name="Parus")
    diskcache.store("maps", entry.stem, fake)


def test_a_damaged_or_foreign_entry_is_rebuilt(cache: Path, monkeypatch) -> None:
    _load_anew("standard", monkeypatch)
    [entry] = (cache / "maps").iterdir()
    good = entry.read_bytes()
    for bad in (good[: len(good) // 2], b"garbage", good.replace(b"Paris", b"Parus"),
                good.replace(entry.stem.encode(), b"0" * 64)):
        entry.write_bytes(bad)
        _same(_load_anew("standard", monkeypatch), _fresh("standard"))
    diskcache.store("maps", entry.stem, "not a map")
    _same(_load_anew("standard", monkeypatch), _fresh("standard"))


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_cache_others_may_write_to_is_not_used(cache: Path, monkeypatch) -> None:
    _load_anew("standard", monkeypatch)
    _planted(cache)
    assert _load_anew("standard", monkeypatch).provinces["PAR"].name == "Parus"  # as planted
    os.chmod(cache / "maps", 0o777)  # ... by anyone
    assert diskcache.folder("maps") is None
    assert _load_anew("standard", monkeypatch).provinces["PAR"].name == "Paris"


def test_the_cache_can_be_switched_off(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MOBADJ_CACHE", "off")
    assert diskcache.cache_root() is None and diskcache.folder("maps") is None
    assert _load_anew("standard", monkeypatch).provinces["PAR"].name == "Paris"
    monkeypatch.setenv("MOBADJ_CACHE", str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("not a directory")
    assert diskcache.folder("maps") is None  # unusable: no cache, no error


BAD_ORDERS = ["A PAR - BUR", "F Mid-Atlantic Ocean - Brest", "A PAR S A MAR", "A Paris H",
              "A PAR - XYZ", "A PAR BUR BUR", "F STP/XC - BOT", "Build A", "A A A", "",
              "F NTH C A LON - NWY", "A Tyrolia - Vienna via convoy", "Waive", "A PAR -"]


def _answers(parser: OrderParser) -> list[str]:
    out = []
    for text in BAD_ORDERS:
        try:
            out.append(repr(parser.parse_group(text)))
        except ValueError as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def test_the_grammar_from_the_cache_reads_orders_as_a_new_one(cache: Path) -> None:
    game_map = load_map("standard")
    cold = _answers(OrderParser(game_map, fast=False))
    assert len(list((cache / "grammar").iterdir())) == 1
    warm = _answers(OrderParser(game_map, fast=False))
    assert warm == cold
    [entry] = (cache / "grammar").iterdir()
    blob = entry.read_bytes()
    for bad in (blob[:100], blob[:-1] + bytes([blob[-1] ^ 1])):  # damaged: built anew
        entry.write_bytes(bad)
        assert _answers(OrderParser(game_map, fast=False)) == cold
    diskcache.store("grammar", entry.stem, b"tables of another Lark")
    assert _answers(OrderParser(game_map, fast=False)) == cold


COLLECTOR_PROBE = """
import gc, io, sys
from mobadj.batch import COLLECT_EVERY, run_batch
line = sys.argv[1].encode() + b"\\n"
before = gc.get_threshold()
run_batch(io.BytesIO(line * 3), io.BytesIO(), jobs=1, own_process=False)
print(gc.get_threshold() == before, gc.get_freeze_count() == 0)
run_batch(io.BytesIO(line * 3), io.BytesIO(), jobs=1, own_process=True)
print(gc.get_threshold() == (COLLECT_EVERY, *before[1:]), gc.get_freeze_count() > 1000)
"""


def test_a_batch_of_its_own_collects_rarely_and_only_what_its_lines_make() -> None:
    """A process that is only a batch freezes what it holds after the first line and then
    collects rarely (batch.quiet_collector); a batch inside another program leaves the
    collector as it was."""
    run = subprocess.run([sys.executable, "-c", COLLECTOR_PROBE, LINE.strip()],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.stdout.split() == ["True", "True", "True", "True"], run.stderr
