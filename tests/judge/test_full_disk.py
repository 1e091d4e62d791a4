"""A full disk (here a file-size limit, ``ulimit -f``, as a stand-in) while the judge runs:
``mobadj serve --once``, ``mobadj store backup``, ``mobadj store compact`` and the GM's
``mobadj game ...`` commands say in one line
which file cannot be written and why, exit with status 1, and lose nothing; the log says a
mail was handled only once it is stored.  Real processes, real SQLite files, real mail
servers."""

from __future__ import annotations

import gzip
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from mobadj.judge import storetools
from mobadj.judge.config import load_config
from mobadj.judge.core import Judge
from mobadj.judge.store import Mail, Store

from .conftest import Table
from .e2e import send
from .helpers import Clock
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS

MOBADJ = str(Path(sys.executable).with_name("mobadj"))
FULL = "the disk is full or the file too large"
SCHEMA1 = Path(__file__).parent / "data" / "store-schema1.sql.gz"


def _config(tmp_path: Path, servers) -> Path:
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"name": "Full Judge", "address": JUDGE_ADDRESS, "data_dir": "judge-data",
                  "timezone": "UTC", "gm_addresses": ["gm@test.org"]},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "FULL_IMAP_PW", "poll_seconds": 0.2},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
        "log": {"file": "judge-data/judge.log", "level": "info"},
    }))
    return path


def _limit(kbytes: int | None):
    """What runs in the child before mobadj: ``ulimit -f``, writing past it fails (EFBIG)
    instead of killing the process, as on a full disk."""
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if kbytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (kbytes * 1024, kbytes * 1024))
    return apply


def _env(limited: bool) -> dict[str, str]:
    """The environment of a mobadj process; a limited one writes no bytecode: Python would
    install a .pyc cut short at the limit, which every later import of that module (in any
    process of the test run) fails to read."""
    env = dict(os.environ, FULL_IMAP_PW=IMAP_PASSWORD)
    if limited:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def mobadj(cfg: Path, *args: str, kbytes: int | None = None, timeout: float = 60
           ) -> subprocess.CompletedProcess:
    return subprocess.run([MOBADJ, *args[:2], "--config", str(cfg), *args[2:]],
                          cwd=cfg.parent, env=_env(kbytes is not None),
                          preexec_fn=_limit(kbytes), capture_output=True, text=True,
                          timeout=timeout)


def _grow(db: Path, kbytes: int) -> None:
    """Make the store bigger than the limit (a store a year old is), checkpointed."""
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE IF NOT EXISTS ballast (x BLOB)")
    con.execute("INSERT INTO ballast VALUES (?)", (os.urandom(kbytes * 1024),))
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def log_text(tmp_path: Path) -> str:
    return (tmp_path / "judge-data" / "judge.log").read_text()


def _handled(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT outcome FROM mails ORDER BY rowid")]
    finally:
        con.close()


@pytest.mark.pure_only  # LIST mails: no phase adjudicated
def test_serve_once_on_a_full_disk_says_so_in_one_line_and_loses_nothing(tmp_path,
                                                                         mail_servers):
    S = mail_servers
    cfg = _config(tmp_path, S)
    db = tmp_path / "judge-data" / "judge.sqlite"
    Store(db).close()
    _grow(db, 400)
    for n in range(3):
        send(S, f"p{n}@test.org", f"LIST\n(mail {n})")
    full = mobadj(cfg, "serve", "--once", kbytes=32)
    assert full.returncode == 1, full.stderr
    assert "Traceback" not in full.stderr
    line = f"cannot write {Path('judge-data') / 'judge.sqlite'}"
    errors = [x for x in full.stderr.splitlines() if x.strip()]
    assert len(errors) == 1 and FULL in errors[0] and str(db) in errors[0], full.stderr
    log = log_text(tmp_path)
    assert FULL in log and str(db) in log, log
    assert "handled <" not in log  # nothing was stored: the log does not say it was
    assert _handled(db) == []
    assert line in errors[0].replace(str(tmp_path) + os.sep, "")

    # a judge that keeps serving tries again and again; its log never says "handled"
    serving = subprocess.Popen([MOBADJ, "serve", "--config", str(cfg)], cwd=tmp_path,
                               env=_env(True), preexec_fn=_limit(32), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while log_text(tmp_path).count("retrying in") < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        serving.send_signal(signal.SIGTERM)
        assert serving.wait(20) == 0
    log = log_text(tmp_path)
    retries = [x for x in log.splitlines() if "retrying in" in x]
    assert len(retries) >= 2 and all(f"cannot write {db}: {FULL}" in x for x in retries), log
    assert "handled <" not in log and _handled(db) == []

    # room again: every waiting mail is handled once and answered once
    ok = mobadj(cfg, "serve", "--once")
    assert ok.returncode == 0 and "handled 3 mail(s)" in ok.stdout, ok.stderr
    assert _handled(db) == ["handled"] * 3
    assert log_text(tmp_path).count("handled <") == 3
    for n in range(3):
        assert len(S.wait_for(f"p{n}@test.org", 1)) == 1
    time.sleep(0.3)
    assert all(len(S.inbox(f"p{n}@test.org")) == 1 for n in range(3))
    assert mobadj(cfg, "serve", "--once").stdout.strip() == "handled 0 mail(s)"
    assert storetools.check(db).problems == []


@pytest.mark.pure_only  # an empty store: no phase adjudicated
def test_backup_and_compact_on_a_full_disk_say_so_and_leave_nothing_behind(tmp_path,
                                                                           mail_servers):
    cfg = _config(tmp_path, mail_servers)
    db = tmp_path / "judge-data" / "judge.sqlite"
    Store(db).close()
    _grow(db, 400)
    backups = tmp_path / "bk"

    r = mobadj(cfg, "store", "backup", str(backups) + "/", kbytes=32)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert re.fullmatch(rf"Error: cannot write {re.escape(str(backups))}/judge-\S+\.sqlite: "
                        rf"{FULL} \(.+\); nothing was written\n", r.stderr), r.stderr
    assert list(backups.iterdir()) == []  # no hidden .partial file left

    r = mobadj(cfg, "store", "compact", kbytes=32)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"Error: cannot write {db}: {FULL}"), r.stderr
    assert len(r.stderr.splitlines()) == 1
    assert storetools.check(db).problems == []

    # with room, both work
    assert mobadj(cfg, "store", "backup", str(backups) + "/").returncode == 0
    assert len(list(backups.glob("judge-*.sqlite"))) == 1
    assert mobadj(cfg, "store", "compact").returncode == 0


def test_a_deadline_that_falls_due_on_a_full_disk_is_decided_once_there_is_room(
        tmp_path, mail_servers):
    cfg = _config(tmp_path, mail_servers)
    db = tmp_path / "judge-data" / "judge.sqlite"
    clock = Clock()
    clock.now = time.time() - 50 * 3600  # the game started 50 h ago: its deadline has passed
    judge = Judge(Store(db), load_config(cfg), clock=clock, kdf_n=2**10)
    Table(judge, kind="standard")
    judge.store.close()
    _grow(db, 400)

    full = mobadj(cfg, "serve", "--once", kbytes=32)
    assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
    assert len(full.stderr.splitlines()) == 1 and f"cannot write {db}: {FULL}" in full.stderr
    assert "extended" not in log_text(tmp_path)  # it was not: nothing was stored

    assert mobadj(cfg, "serve", "--once").returncode == 0
    assert log_text(tmp_path).count("g1: S1901M deadline extended to ") == 1
    check = Store(db, readonly=True)
    assert check.game("g1").extended == 1
    check.close()


@pytest.mark.pure_only  # queued mail: no phase adjudicated
def test_mail_waiting_to_go_out_on_a_full_disk_goes_out_once(tmp_path, mail_servers):
    """A judge that goes on serving on a full disk sends a waiting mail once: when the
    server took it but its record as sent failed, the next tries record it, never send it
    again (they would at every retry).  Only a judge started anew, which cannot know, sends
    that one mail once more."""
    S = mail_servers
    cfg = _config(tmp_path, S)
    db = tmp_path / "judge-data" / "judge.sqlite"
    store = Store(db)
    with store.transaction():
        for n in range(2):
            store.queue(Mail(f"w{n}@test.org", f"welcome {n}", "Welcome to the club.\n"), 0.0)
    store.close()
    _grow(db, 400)
    serving = subprocess.Popen([MOBADJ, "serve", "--config", str(cfg)], cwd=tmp_path,
                               env=_env(True), preexec_fn=_limit(32), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while _retries(tmp_path) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)
        assert [len(S.inbox(f"w{n}@test.org")) for n in range(2)] == [1, 0]
    finally:
        serving.send_signal(signal.SIGTERM)
        assert serving.wait(20) == 0
    assert _retries(tmp_path) >= 3
    assert mobadj(cfg, "serve", "--once").returncode == 0
    assert len(S.wait_for("w1@test.org", 1)) == 1
    time.sleep(0.3)
    assert [len(S.inbox(f"w{n}@test.org")) for n in range(2)] == [2, 1]
    assert mobadj(cfg, "serve", "--once").returncode == 0
    time.sleep(0.3)
    assert [len(S.inbox(f"w{n}@test.org")) for n in range(2)] == [2, 1]


def _retries(tmp_path: Path) -> int:
    """How many times the judge's log says it will try again (0 before the log exists)."""
    log = tmp_path / "judge-data" / "judge.log"
    return log.read_text().count("retrying in") if log.exists() else 0



def _store_rows(db: Path) -> dict[str, list[str]]:
    """Every row of every table but the ballast: what a GM command may have changed."""
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'ballast'")]
        return {t: sorted(map(repr, con.execute(f"SELECT * FROM {t}"))) for t in tables}
    finally:
        con.close()


def test_gm_commands_on_a_full_disk_say_so_in_one_line_and_change_nothing(tmp_path,
                                                                          mail_servers):
    """``mobadj game extend``, ``game process``, ``game add-player`` beside a running judge,
    with room to open the store (``game status`` works) but not for the command: the GM
    reads which store cannot be written and why, in one line; the games are as they were."""
    cfg = _config(tmp_path, mail_servers)
    db = tmp_path / "judge-data" / "judge.sqlite"
    judge = Judge(Store(db), load_config(cfg), kdf_n=2**10)
    Table(judge, kind="standard")
    judge.create_game("g2", "standard", "gm@test.org", "gm-secret", {}, seed=3)
    judge.store.close()
    _grow(db, 400)
    before = _store_rows(db)
    beside = sqlite3.connect(db)  # the running judge: the store's -shm file stays as it is

    def limited(*args: str) -> subprocess.CompletedProcess:
        """``mobadj game ...`` with room to open the store (that writes a little) only."""
        beside.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return mobadj(cfg, "game", *args, kbytes=12)

    try:
        r = limited("status", "g1")
        assert r.returncode == 0 and "S1901M" in r.stdout, r.stderr
        for args in (("extend", "g1", "12h"), ("process", "g1"),
                     ("add-player", "g2", "new@test.org", "France")):
            r = limited(*args)
            assert r.returncode == 1 and r.stdout == "", (args, r.stdout, r.stderr)
            assert r.stderr.startswith(f"Error: cannot write {db}: {FULL}"), (args, r.stderr)
            assert len(r.stderr.splitlines()) == 1, (args, r.stderr)
    finally:
        beside.close()
    assert _store_rows(db) == before

    ok = mobadj(cfg, "game", "extend", "g1", "12h")  # with room, it is done
    assert ok.returncode == 0 and "Deadline extended" in ok.stdout, (ok.stdout, ok.stderr)


def test_an_upgrade_without_room_keeps_no_copy_cut_short(tmp_path):
    """The copy of an old store kept before bringing it up to date, on a full disk: no empty
    copy stays, the error names the copy, and with room the copy takes its documented name."""
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": JUDGE_ADDRESS,
                                             "data_dir": "judge-data", "timezone": "UTC"}}))
    db = tmp_path / "judge-data" / "judge.sqlite"
    db.parent.mkdir()
    con = sqlite3.connect(db)
    con.executescript(gzip.decompress(SCHEMA1.read_bytes()).decode())  # 1.7 MB, schema 1
    con.close()
    copy = tmp_path / "judge-data" / "judge-schema1.sqlite"
    for args in (("store", "check"), ("game", "list")):
        r = mobadj(cfg, *args, kbytes=1000)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert f"cannot write {copy} (the copy of the old store" in r.stderr, r.stderr
        assert FULL in r.stderr
        assert f"{db} was left as it was (schema 1)" in r.stderr
        assert sorted(p.name for p in db.parent.glob("judge-*")) == []
    r = mobadj(cfg, "store", "check")
    assert r.returncode == 0 and f"the old store is kept as {copy})" in r.stdout, r.stdout
    assert sorted(p.name for p in db.parent.glob("judge-*")) == [copy.name]
