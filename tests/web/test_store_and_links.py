"""What the pages need from the judge: a read-only store beside a writing judge, press sent
to everyone told apart, private games' keys, the web section of judge.yaml, and the link to
the phase's page in every results mail."""

from __future__ import annotations

import sqlite3

import pytest

from mobadj.judge.config import ConfigError, config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.links import phase_url, step_id
from mobadj.judge.store import Store, StoreError
from mobadj.web.demo import Table

BASE = {"judge": {"address": "judge@test.org"}}


def test_readonly_store_reads_while_a_writer_holds_its_transaction(tmp_path):
    rw = Store(tmp_path / "judge.sqlite")
    with rw.transaction():
        rw.create_game("g", "standard", {}, 1, "gm@x.org", "h", 0)
    ro = Store(tmp_path / "judge.sqlite", readonly=True)
    with rw.transaction():  # the judge is in the middle of a mail
        rw.update_game("g", phase="S1901M")
        with ro.reading():
            assert ro.game("g").phase == ""  # the last committed state, no waiting
    assert ro.game("g").phase == "S1901M"
    with pytest.raises(sqlite3.OperationalError):
        ro.update_game("g", phase="X")
    with pytest.raises(StoreError, match="no judge store"):
        Store(tmp_path / "none.sqlite", readonly=True)
    ro.close()
    rw.close()


def test_press_to_all_is_told_apart_and_grey_hides_the_sender(tmp_path):
    s = Store(tmp_path / "judge.sqlite")
    s.add_press("g", "S1901M", "FRANCE", ["ENGLAND"], False, "private", 1)
    s.add_press("g", "S1901M", "FRANCE", ["ENGLAND", "GERMANY"], False, "public", 2,
                broadcast=True)
    s.add_press("g", "S1901M", "TURKEY", ["ENGLAND", "GERMANY"], True, "grey", 3,
                broadcast=True)
    assert [(p["sender"], p["text"]) for p in s.broadcast_press("g")] == [
        ("FRANCE", "public"), (None, "grey")]
    assert len(s.press("g")) == 3
    s.close()


def test_an_older_store_gains_the_broadcast_column(tmp_path):
    path = tmp_path / "judge.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        CREATE TABLE press (id INTEGER PRIMARY KEY, game TEXT NOT NULL, phase TEXT NOT NULL,
            sender TEXT NOT NULL, recipients TEXT NOT NULL, grey INTEGER NOT NULL,
            text TEXT NOT NULL, at REAL NOT NULL);
        INSERT INTO press VALUES (1, 'g', 'S1901M', 'FRANCE', '["ENGLAND"]', 0, 'old', 1);
    """)
    db.commit()
    db.close()
    s = Store(path)
    assert s.broadcast_press("g") == []  # old press stays private
    assert s.press("g")[0]["text"] == "old"
    s.close()


def test_web_keys_results_version_and_submitted(tmp_path):
    s = Store(tmp_path / "judge.sqlite")
    with s.transaction():
        s.create_game("g", "standard", {}, 1, "gm@x.org", "h", 0)
        assert s.web_key("g") is None
        s.set_web_key("g", "k1", 0)
        s.set_web_key("g", "k2", 0)
        s.set_orders("g", "S1901M", "FRANCE", "A PAR H", 1, None)
    assert s.web_key("g") == "k2" and s.submitted("g", "S1901M") == {"FRANCE"}
    assert s.results_version("g") == (0, 0)
    rid = s.add_result("g", "S1901M", {}, {}, {}, {}, 1)
    assert s.results_version("g") == (1, rid)
    s.mark_rolled_back(rid)
    assert s.results_version("g") == (0, 0)
    s.set_web_key("g", None, 0)
    assert s.web_key("g") is None
    s.close()


def test_web_section_of_judge_yaml():
    cfg = config_from_data(BASE | {"web": {"base_url": "https://x.org/games/", "port": 9000}})
    assert cfg.web.base_url == "https://x.org/games" and cfg.web.port == 9000
    assert cfg.web.host == "127.0.0.1"
    assert config_from_data(BASE).web.base_url is None
    with pytest.raises(ConfigError, match="web.base_url: expected an http"):
        config_from_data(BASE | {"web": {"base_url": "games.org"}})
    with pytest.raises(ConfigError, match="web.port"):
        config_from_data(BASE | {"web": {"port": 0}})


def test_links_name_the_phase_page():
    assert step_id("S1901M") == "S1901M" and step_id("1919-07-W1-M") == "1919-07-W1-M"
    assert step_id("a/b c") == "a-b-c"
    assert phase_url("https://x.org/j/", "g1", "F1901M") == "https://x.org/j/g/g1/F1901M.html"
    assert phase_url("https://x.org", "g1", "M3", "k") == "https://x.org/g/g1/M3.html?key=k"


def _results_mails(tmp_path, clock_start=1_800_000_000.0, **web):
    data = {"judge": {"address": "judge@test.org", "data_dir": str(tmp_path)}}
    if web:
        data["web"] = web
    cfg = config_from_data(data)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=lambda: clock_start, kdf_n=2**10)
    t = Table(judge, "g1", "standard")
    return judge, t


def test_results_mails_link_to_the_phase_page(tmp_path):
    judge, t = _results_mails(tmp_path, base_url="https://games.example.org/judge")
    out: list = []
    with judge.store.transaction():
        judge.resolve(t.game, judge.clock(), out)
    results = [m for m in out if "results" in m.subject]
    assert len(results) == 8  # seven players and the GM
    for m in results:
        assert "On the game's page: https://games.example.org/judge/g/g1/S1901M.html" in m.body
    with judge.store.transaction():
        judge.store.set_web_key("g1", "sesame", 0)
    out = []
    with judge.store.transaction():
        judge.resolve(t.game, judge.clock(), out)
    assert "g/g1/F1901M.html?key=sesame" in out[0].body
    judge.store.close()


def test_without_a_base_url_results_mails_carry_no_link(tmp_path):
    judge, t = _results_mails(tmp_path)
    out: list = []
    with judge.store.transaction():
        judge.resolve(t.game, judge.clock(), out)
    assert out and all("game's page" not in m.body for m in out)
    judge.store.close()
