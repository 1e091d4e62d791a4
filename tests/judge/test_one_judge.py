"""One judge per store: a second ``mobadj serve`` (or a ``serve --once`` from cron while the
judge serves) says which judge serves the store and stops without touching the mail, so
no mail is sent twice; the GM's commands and the store's care work beside the judge.
Real processes, real mail servers."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from .e2e import send, text
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS

pytestmark = pytest.mark.pure_only  # the store's lock and LIST mails: no phase adjudicated

MOBADJ = str(Path(sys.executable).with_name("mobadj"))


def _config(tmp_path: Path, servers) -> Path:
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"name": "Only Judge", "address": JUDGE_ADDRESS, "data_dir": "data",
                  "timezone": "UTC", "gm_addresses": ["gm@test.org"]},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "ONE_IMAP_PW", "poll_seconds": 0.2},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
        "log": {"file": "data/judge.log", "level": "info"},
    }))
    return path


ENV = dict(os.environ, ONE_IMAP_PW=IMAP_PASSWORD)


def mobadj(cfg: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MOBADJ, *args[:2], "--config", str(cfg), *args[2:]], env=ENV,
                          capture_output=True, text=True, timeout=60)


def _serving(cfg: Path) -> subprocess.Popen:
    proc = subprocess.Popen([MOBADJ, "serve", "--config", str(cfg)], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert "serving" in proc.stderr.readline()
    return proc


def test_the_store_is_named_as_the_gm_names_judge_yaml(tmp_path):
    """The refusal names the store from judge.yaml as the GM gave it: run beside a relative
    judge.yaml, it reads as the guide quotes it; from MOBADJ_JUDGE_CONFIG=/abs/judge.yaml,
    with that folder."""
    (tmp_path / "judge.yaml").write_text(yaml.safe_dump({"judge": {
        "address": JUDGE_ADDRESS, "data_dir": "judge-data"}}))
    (tmp_path / "judge-data").mkdir()
    with open(tmp_path / "judge-data" / "judge.sqlite.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a serving judge holds it
        held.write("4711\n")
        held.flush()
        env = {k: v for k, v in ENV.items() if k != "MOBADJ_JUDGE_CONFIG"}
        here = subprocess.run([MOBADJ, "serve", "--once"], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        there = subprocess.run([MOBADJ, "serve", "--once"], cwd="/",
                               env=env | {"MOBADJ_JUDGE_CONFIG": str(tmp_path / "judge.yaml")},
                               capture_output=True, text=True, timeout=60)
    said = "; this one stops without touching the mail\n"
    assert here.returncode == 1 and here.stderr == (
        f"Error: another judge (pid 4711) is serving judge-data/judge.sqlite{said}")
    assert there.returncode == 1 and there.stderr == (
        f"Error: another judge (pid 4711) is serving {tmp_path}/judge-data/judge.sqlite{said}")


def test_a_second_judge_on_the_same_store_refuses_to_serve(tmp_path, mail_servers):
    S = mail_servers
    cfg = _config(tmp_path, S)
    db = tmp_path / "data" / "judge.sqlite"
    first = _serving(cfg)
    try:
        lock = db.with_name("judge.sqlite.lock")  # it names the pid: the judge's user's alone
        assert lock.read_text() == f"{first.pid}\n" and lock.stat().st_mode & 0o777 == 0o600
        expected = f"Error: another judge (pid {first.pid}) is serving {db}"
        for how in (("serve", "--once"), ("serve",)):  # from cron, or by hand
            second = mobadj(cfg, *how)
            assert second.returncode == 1
            assert second.stderr.startswith(expected), second.stderr
            assert len(second.stderr.splitlines()) == 1 and second.stdout == ""

        # every mail is answered once, by the one judge
        send(S, "p1@test.org", "LIST")
        assert "Only Judge" in text(S.wait_for("p1@test.org", 1)[0])
        # the GM's command line and the store's care still work beside it
        made = mobadj(cfg, "game", "create", "g1", "--gm", "gm@test.org",
                      "--gm-password", "gm-secret")
        assert made.returncode == 0, made.stderr
        assert "g1" in mobadj(cfg, "game", "list").stdout
        assert "sound" in mobadj(cfg, "store", "check").stdout
        assert mobadj(cfg, "store", "backup", str(tmp_path / "bk") + "/").returncode == 0
        time.sleep(0.5)
        assert len(S.inbox("p1@test.org")) == 1
        log = (tmp_path / "data" / "judge.log").read_text()
        assert log.count("serving judge@test.org") == 1  # the refused ones left it alone
    finally:
        first.send_signal(signal.SIGKILL)  # however the judge ends, the store is free again
        first.wait(20)
    again = mobadj(cfg, "serve", "--once")
    assert again.returncode == 0 and again.stdout == "handled 0 mail(s)\n", again.stderr
