"""A store made by an older mobadj is brought up to date when the judge opens it, from a
stored store of schema 1 (tests/judge/data/store-schema1.sql.gz, made by mobadj before
tenures and delivery records: a standard game one phase in, its results mail with the map
sent to some, refused for one, waiting for others; an open game forming).  The old store is
kept beside it; the game goes on; the mail waiting goes out."""

from __future__ import annotations

import gzip
import re
import sqlite3
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.store import SCHEMA_VERSION, Store, StoreError, content_digest

from .helpers import Clock, mail

FIXTURE = Path(__file__).parent / "data" / "store-schema1.sql.gz"


def old_store(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.executescript(gzip.decompress(FIXTURE.read_bytes()).decode())
    db.close()
    return path


def schema(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
    finally:
        db.close()


def test_an_old_store_is_brought_up_to_date_and_the_game_goes_on(tmp_path, mail_servers):
    path = old_store(tmp_path / "judge.sqlite")
    before = sqlite3.connect(path).execute(
        "SELECT COUNT(*), SUM(LENGTH(attachments)) FROM outbox").fetchone()
    assert schema(path) == "1" and before[1] > 500_000  # the maps, kept with every mail

    store = Store(path)
    assert store.upgraded_from == 1 and schema(path) == str(SCHEMA_VERSION)
    assert store.kept_copy == tmp_path / "judge-schema1.sqlite"
    assert schema(store.kept_copy) == "1"  # the old store, as it was
    # delivered (and refused) mail keeps its record, not its maps; waiting mail keeps them
    sent = {m["id"]: m for m in store.sent_mail()}
    assert sorted(sent) == list(range(1, 17))
    results = sent[13]
    assert results["subject"] == "old1: S1901M results" and results["digest"]
    assert [a["name"] for a in results["attachments"]] == ["result.json", "map.svg"]
    assert all(a["size"] > 0 and len(a["sha256"]) == 64 and "data" not in a
               for a in results["attachments"])
    assert sent[16]["refused"] == "550 5.1.1 no such user"
    waiting = store.unsent()
    assert [m.id for m in waiting] == [17, 18, 19]
    assert [a[0] for a in waiting[0].attachments] == ["result.json", "map.svg"]
    assert all(r["digest"] == content_digest(m.body, m.attachments)
               for m in waiting for r in [dict(store.db.execute(
                   "SELECT digest FROM outbox WHERE id=?", (m.id,)).fetchone())])
    # each seated player's tenure, from when they were added
    tenures = store.tenures("old1")
    assert [t["power"] for t in tenures] == ["ENGLAND", "FRANCE", "GERMANY", "ITALY"]
    assert all(t["end"] is None and t["how"] == "added" and t["start_phase"] == "S1901M"
               for t in tenures)
    store.close()
    assert Store(path).upgraded_from is None  # once only

    # the judge carries on with the old games: France's orders, the GM's commands
    cfg = config_from_data({"judge": {"name": "Old Judge", "address": "judge@test.org",
                                      "data_dir": str(tmp_path), "timezone": "UTC",
                                      "gm_addresses": ["gm@test.org"]}})
    clock = Clock(1_800_100_000.0)
    judge = Judge(Store(path), cfg, clock=clock, kdf_n=2**10)
    game = judge.store.game("old1")
    assert game is not None and game.phase == "F1901M"
    out = judge.handle_mail(mail("old1-france@test.org", "SIGNON old1 FRANCE pw-france\n"
                                 "A BUR H\nA SPA H\nF MAO H"))
    assert "Orders for FRANCE, Fall 1901 Movement" in out[0].body
    out = judge.handle_mail(mail("gm@test.org", "GM old1 gm-secret\nPROCESS"))
    assert "F1901M resolved" in out[0].body
    assert judge.store.game("old1").phase in ("W1901A", "S1902M")
    # and what waited in the old outbox goes out with the rest
    from mobadj.judge.mailer import Mailer

    smtp = config_from_data({"judge": {"address": "judge@test.org"}, "smtp": {
        "host": "127.0.0.1", "port": mail_servers.smtp_port, "tls": "none", "user": ""}}).smtp
    assert smtp is not None
    sent_now = Mailer(smtp, "judge@test.org", "Old Judge", clock).send_outbox(judge.store)
    assert sent_now == len(judge.store.sent_mail()) - 16 and judge.store.unsent() == []
    gm = mail_servers.wait_for("gm@test.org", 3)
    assert any(m["Subject"] == "old1: S1901M results (GM copy)" and
               "map.svg" in [p.get_filename() for p in m.iter_attachments()] for m in gm)
    judge.store.close()


def test_a_store_of_a_newer_mobadj_is_refused_untouched(tmp_path):
    path = old_store(tmp_path / "judge.sqlite")
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="made by a newer mobadj .store schema 99"):
        Store(path)
    with pytest.raises(StoreError, match="made by a newer mobadj"):
        Store(path, readonly=True)
    assert schema(path) == "99" and not list(tmp_path.glob("*schema*"))


def test_the_pages_do_not_read_an_old_store_and_say_why(tmp_path):
    path = old_store(tmp_path / "judge.sqlite")
    with pytest.raises(StoreError, match=re.escape("store schema 1, this mobadj reads 2: "
                                                   "start mobadj serve, or run mobadj store "
                                                   "check, once")):
        Store(path, readonly=True)
    assert schema(path) == "1"  # read only: nothing changed


def test_mobadj_web_leaves_an_old_store_to_the_judge(tmp_path):
    """Serving or exporting, the pages neither bring an old store up to date nor keep a copy
    of it: the old judge may still serve it; they say what to run."""
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d",
                                             "timezone": "UTC"}, "web": {"play": False}}))
    (tmp_path / "d").mkdir()
    path = old_store(tmp_path / "d" / "judge.sqlite")
    before = path.read_bytes()
    for args in (["--export", str(tmp_path / "site")], ["--port", "1"]):
        r = CliRunner().invoke(main, ["web", "--config", str(cfg), *args])
        assert r.exit_code == 1 and "store schema 1, this mobadj reads 2" in r.output
        assert "run mobadj store check" in r.output
    assert path.read_bytes() == before and not list(path.parent.glob("judge-schema1*"))
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("content", [b"not a database at all" * 100, None])
def test_a_file_that_is_not_a_judge_store_is_left_alone(tmp_path, content):
    path = tmp_path / "other.sqlite"
    if content is None:  # an SQLite file of something else
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        db.commit()
        db.close()
    else:
        path.write_bytes(content)
    data = path.read_bytes()
    with pytest.raises(StoreError, match="not a judge store"):
        Store(path)
    assert path.read_bytes() == data
