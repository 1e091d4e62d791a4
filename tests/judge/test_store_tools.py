"""The store's care (``mobadj store check | backup | restore | compact``), the delivered
mail's record and the retention of mail text: with real SQLite files, real mail servers and
real ``mobadj serve`` and ``mobadj web`` processes running while the store is copied and
restored."""

from __future__ import annotations

import gzip
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Mail, Store, content_digest

from .e2e import send, text
from .helpers import Clock
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS, free_port

MOBADJ = str(Path(sys.executable).with_name("mobadj"))
FIXTURE = Path(__file__).parent / "data" / "store-schema1.sql.gz"


def judge_yaml(tmp_path: Path, servers, web_port: int = 8080) -> Path:
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"name": "Store Judge", "address": JUDGE_ADDRESS, "data_dir": "data",
                  "timezone": "UTC", "gm_addresses": ["gm@test.org"]},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "STORE_IMAP_PW", "poll_seconds": 0.2},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
        "web": {"host": "127.0.0.1", "port": web_port},
        "log": {"file": "data/judge.log", "level": "info"},
    }))
    return path


def cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    r = subprocess.run([MOBADJ, *args], capture_output=True, text=True, timeout=120)
    if ok:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


def wait_until(what, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


def page(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
        assert r.status == 200
        return r.read().decode()


def test_backup_and_restore_while_the_judge_and_the_pages_run(tmp_path, mail_servers):
    S = mail_servers
    web_port = free_port()
    cfg_path = judge_yaml(tmp_path, S, web_port)
    data = tmp_path / "data"
    cfg = config_from_data(yaml.safe_load(cfg_path.read_text()), base=tmp_path)
    judge = Judge(Store(cfg.db_path), cfg, kdf_n=2**10)
    judge.create_game("live", "standard", "gm@test.org", "gm-pw", seed=4)
    out: list[Mail] = []
    with judge.store.transaction():
        for power, email in (("ENGLAND", "eng@test.org"), ("FRANCE", "fra@test.org")):
            judge.add_player(judge.store.game("live"), email, power, f"pw-{power}",
                             judge.clock(), out)
        judge.start(judge.store.game("live"), judge.clock(), out)
        judge.queue(out, judge.clock())
    judge.store.close()

    env = dict(os.environ, STORE_IMAP_PW=IMAP_PASSWORD)
    serve = subprocess.Popen([MOBADJ, "serve", "--config", str(cfg_path)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    web = subprocess.Popen([MOBADJ, "web", "--config", str(cfg_path)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        S.wait_for("eng@test.org", 2)  # the welcome and the start, sent by the judge
        send(S, "eng@test.org", "SIGNON live ENGLAND pw-ENGLAND\nF LON - NTH\nA LVP - YOR")
        eng = text(S.wait_for("eng@test.org", 3)[2])
        assert "Orders for ENGLAND" in eng and "F LON - NTH" in eng
        wait_until(lambda: _pages_up(web_port))
        assert "live" in page(web_port)

        # a backup while mail flows
        send(S, "fra@test.org", "SIGNON live FRANCE pw-FRANCE\nA PAR - BUR")
        r = cli("store", "backup", "--config", str(cfg_path), str(tmp_path / "backups") + "/",
                "--keep", "3")
        backup = Path(re.search(r"backup written: (\S+)", r.stdout).group(1))
        S.wait_for("fra@test.org", 3)
        assert cli("store", "check", "--config", str(cfg_path)).stdout.count("sound") == 1
        copy = Store(backup, readonly=True)
        assert copy.game("live").phase == "S1901M"
        copy.close()

        # France changes the orders after the backup; then the backup is restored
        send(S, "fra@test.org", "SIGNON live FRANCE pw-FRANCE\nA PAR - PIC\nF BRE - MAO")
        wait_until(lambda: _orders(cfg.db_path).get("FRANCE", "").startswith("A PAR - PIC"))
        handled_before = _count(cfg.db_path, "SELECT COUNT(*) FROM mails")
        token_before = _meta(cfg.db_path, "token")
        r = cli("store", "restore", "--config", str(cfg_path), str(backup), "--yes")
        assert "restored" in r.stdout and "live S1901M" in r.stdout
        assert list(data.glob("judge-replaced-*.sqlite"))
        # the judge carries on from the restored store: mail that came after the backup is
        # still in the mailbox, is read again, and the game catches up with it
        wait_until(lambda: _orders(cfg.db_path).get("FRANCE", "").startswith("A PAR - PIC"))
        assert _count(cfg.db_path, "SELECT COUNT(*) FROM mails") == handled_before
        assert _meta(cfg.db_path, "token") != token_before  # new Message-IDs from now on
        assert "live" in page(web_port)

        # and it still answers, and it stops cleanly on SIGTERM (as systemd stops it)
        send(S, "eng@test.org", "SIGNON live ENGLAND pw-ENGLAND\nLIST")
        assert "Game live" in text(S.wait_for("eng@test.org", 4)[3])
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(20) == 0
        assert "stopped" in serve.stderr.read()
        log = (data / "judge.log").read_text()
        assert "serving judge@test.org" in log and "stopped" in log
        assert "pw-ENGLAND" not in log and "pw-FRANCE" not in log
        assert cli("store", "check", "--config", str(cfg_path)).returncode == 0
    finally:
        for proc in (serve, web):
            if proc.poll() is None:
                proc.terminate()
                proc.wait(20)


def _pages_up(port: int) -> bool:
    try:
        page(port)
    except OSError:
        return False
    return True


def _orders(path: Path) -> dict[str, str]:
    db = sqlite3.connect(path, timeout=30)
    try:
        return dict(db.execute("SELECT power, text FROM orders WHERE game='live' AND "
                               "phase='S1901M'").fetchall())
    finally:
        db.close()


def _count(path: Path, sql: str) -> int:
    db = sqlite3.connect(path, timeout=30)
    try:
        return int(db.execute(sql).fetchone()[0])
    finally:
        db.close()


def _meta(path: Path, key: str) -> str:
    db = sqlite3.connect(path, timeout=30)
    try:
        return str(db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()[0])
    finally:
        db.close()


def test_delivered_mail_keeps_its_record_not_its_pictures(tmp_path, mail_servers,
                                                          monkeypatch):
    """Results with the map go out over SMTP; the store keeps who, when, subject, the
    Message-ID the reader got, the size and digests; after mail_retention_days, no text."""
    monkeypatch.setenv("STORE_IMAP_PW", IMAP_PASSWORD)
    data = yaml.safe_load(judge_yaml(tmp_path, mail_servers).read_text())
    data["judge"]["mail_retention_days"] = 30
    cfg = config_from_data(data, base=tmp_path)
    clock = Clock()
    judge = Judge(Store(cfg.db_path), cfg, clock=clock, kdf_n=2**10)
    assert cfg.imap is not None and cfg.smtp is not None
    svc = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock))
    try:
        judge.create_game("pic", "mobtown2", "gm@test.org", "gm-pw", {"picture": "svg"},
                          seed=2)
        out: list[Mail] = []
        with judge.store.transaction():
            judge.add_player(judge.store.game("pic"), "cap@test.org", "capone", "pw-cap",
                             clock(), out)
            judge.start(judge.store.game("pic"), clock(), out)
            judge.resolve(judge.store.game("pic"), clock(), out)
            judge.queue(out, clock())
        queued = {m.id: m for m in judge.store.unsent()}
        results = next(m for m in queued.values() if "results" in m.subject
                       and m.to == "cap@test.org")
        assert [a[0] for a in results.attachments] == ["result.json", "map.svg"]
        svc.step()
        got = next(m for m in mail_servers.wait_for("cap@test.org", 3)
                   if "results" in m["Subject"])
        record = next(r for r in judge.store.sent_mail() if r["id"] == results.id)
        assert record["message_id"] == got["Message-ID"] and record["size"] > 10_000
        assert record["digest"] == content_digest(results.body, results.attachments)
        svg = dict((a[0], a[2]) for a in results.attachments)["map.svg"]
        assert record["attachments"][1] == {
            "name": "map.svg", "mime": "image/svg+xml", "size": len(svg),
            "sha256": __import__("hashlib").sha256(svg).hexdigest()}
        assert all(m.attachments == [] for m in judge.store.all_mail())
        kept = _count(cfg.db_path, "SELECT SUM(LENGTH(attachments) + LENGTH(body)) FROM "
                                   "outbox")
        assert kept < 40_000  # the maps are gone (each map.svg is about 200 KB)
        assert record["body"] == results.body

        clock.advance(hours=24 * 31)  # a month on: the text goes, the record stays
        svc.step()
        record = next(r for r in judge.store.sent_mail() if r["id"] == results.id)
        assert record["body"] == "" and record["pruned"] is not None
        assert record["digest"] and record["message_id"] == got["Message-ID"]
    finally:
        svc.mailbox.close()
        judge.store.close()


def run(cfg: Path, *args: str, ok: bool = True):
    r = CliRunner().invoke(main, [*args[:2], "--config", str(cfg), *args[2:]])
    if ok:
        assert r.exit_code == 0, r.output
    return r


@pytest.fixture
def small_cfg(tmp_path):
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d",
                                              "timezone": "UTC"}}))
    return path


def test_compact_drops_old_text_and_shrinks_the_file(small_cfg, tmp_path):
    store = Store(tmp_path / "d" / "judge.sqlite")
    with store.transaction():
        for i in range(300):
            mid = store.queue(Mail(f"p{i}@test.org", "results", "x" * 5000,
                                   [("map.png", "image/png", os.urandom(20_000))]), 0.0)
            store.mark_sent(mid, 1.0, f"<m{i}@test.org>", 30_000)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    r = run(small_cfg, "store", "compact")
    assert "dropped: 300 mail texts" in r.output
    before, after = (float(x) for x in re.findall(r"([\d.]+) MB", r.output))
    assert after < before / 4 and after < 0.5


def test_check_finds_a_damaged_store(small_cfg, tmp_path):
    run(small_cfg, "game", "create", "g", "--gm", "gm@test.org")
    assert "sound" in run(small_cfg, "store", "check").output
    path = tmp_path / "d" / "judge.sqlite"
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("CREATE TABLE filler (x TEXT)")
    db.executemany("INSERT INTO filler VALUES (?)", [("y" * 500,)] * 2000)
    db.commit()
    db.close()
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2:len(raw) // 2 + 4096] = b"\xff" * 4096  # a page of garbage
    path.write_bytes(bytes(raw))
    r = run(small_cfg, "store", "check", ok=False)
    assert r.exit_code == 1 and "problem:" in r.output


def test_backups_rotate_and_never_overwrite_by_mistake(small_cfg, tmp_path):
    run(small_cfg, "game", "create", "g", "--gm", "gm@test.org")
    folder = tmp_path / "backups"
    from mobadj.judge.storetools import backup

    store_path = tmp_path / "d" / "judge.sqlite"
    for day in range(4):
        backup(store_path, folder, keep=2, now=1_800_000_000 + day * 86400)
    assert sorted(p.name for p in folder.iterdir()) == [
        "judge-2027-01-17T080000Z.sqlite", "judge-2027-01-18T080000Z.sqlite"]
    run(small_cfg, "store", "backup", str(tmp_path / "one.sqlite"))
    r = run(small_cfg, "store", "backup", str(tmp_path / "one.sqlite"), ok=False)
    assert "exists: give another name, or --force" in r.output
    run(small_cfg, "store", "backup", str(tmp_path / "one.sqlite"), "--force")
    r = run(small_cfg, "store", "restore", str(small_cfg), "--yes", ok=False)
    assert "is not sound" in r.output and Store(store_path).game("g") is not None


def test_a_backup_from_an_older_mobadj_is_restored_up_to_date(small_cfg, tmp_path):
    old = tmp_path / "old-backup.sqlite"
    db = sqlite3.connect(old)
    db.executescript(gzip.decompress(FIXTURE.read_bytes()).decode())
    db.close()
    run(small_cfg, "game", "create", "new", "--gm", "gm@test.org")
    r = run(small_cfg, "store", "restore", str(old), "--yes")
    assert "old1 F1901M" in r.output and "old2 forming" in r.output
    store = Store(tmp_path / "d" / "judge.sqlite")
    assert store.game("new") is None and len(store.tenures("old1")) == 4
    assert store.upgraded_from is None  # it was brought up to date on the way in
    replaced = list((tmp_path / "d").glob("judge-replaced-*.sqlite"))
    assert len(replaced) == 1 and Store(replaced[0]).game("new") is not None
    assert old.read_bytes()[:16] == b"SQLite format 3\x00"  # the backup itself untouched
    assert not list((tmp_path / "d").glob(".*"))  # nothing left half done
