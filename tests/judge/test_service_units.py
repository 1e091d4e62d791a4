"""The systemd units in deploy/systemd, as a GM installs them: each passes
``systemd-analyze verify`` with its paths pointed at a real installation, and the command
each one runs does its job as systemd runs it (its EnvironmentFile, its working folder):
the judge answers mail and stops cleanly on SIGTERM (systemd's stop), the pages answer and
stop, the nightly backup writes a backup and keeps the newest."""

from __future__ import annotations

import configparser
import os
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from .e2e import send, text
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS, free_port

pytestmark = pytest.mark.pure_only  # the units' commands, a HELP mail: no phase adjudicated

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
MOBADJ = str(Path(sys.executable).with_name("mobadj"))


def install(tmp: Path, servers) -> Path:
    """The units as a GM adapts them: /srv/mobadj is ``tmp``, the virtualenv is ours."""
    home = tmp / "srv"
    home.mkdir()
    (home / "judge.yaml").write_text(yaml.safe_dump({
        "judge": {"name": "Unit Judge", "address": JUDGE_ADDRESS, "data_dir": "judge-data",
                  "timezone": "UTC"},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "MOBADJ_IMAP_PASSWORD",
                 "poll_seconds": 0.2},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
        "web": {"port": free_port()},
        "log": {"file": "judge-data/judge.log"},
    }))
    env = home / "judge.env"
    env.write_text(f"MOBADJ_IMAP_PASSWORD={IMAP_PASSWORD}\nMOBADJ_SMTP_PASSWORD=unused\n")
    env.chmod(0o600)
    out = tmp / "units"
    out.mkdir()
    for unit in UNITS.iterdir():
        body = (unit.read_text().replace("/srv/mobadj/venv/bin/mobadj", MOBADJ)
                .replace("/etc/mobadj/judge.env", str(env)).replace("/srv/mobadj", str(home)))
        (out / unit.name).write_text(body)
    return out


def service(unit: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read(unit)
    return dict(parser["Service"])


def run_env(unit: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    if "EnvironmentFile" in unit:
        for line in Path(unit["EnvironmentFile"]).read_text().splitlines():
            key, _, value = line.partition("=")
            env[key] = value
    return env


def test_the_units_pass_systemd_analyze_verify(tmp_path, mail_servers):
    units = install(tmp_path, mail_servers)
    names = sorted(p.name for p in units.iterdir())
    assert names == ["mobadj-backup.service", "mobadj-backup.timer", "mobadj-serve.service",
                     "mobadj-web.service"]
    r = subprocess.run(["systemd-analyze", "verify", *(str(units / n) for n in names)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    ours = [line for line in r.stderr.splitlines() if "mobadj" in line]
    assert ours == [], ours


def test_the_units_commands_do_their_jobs(tmp_path, mail_servers):
    S = mail_servers
    units = install(tmp_path, S)
    serve_unit, web_unit = service(units / "mobadj-serve.service"), service(
        units / "mobadj-web.service")
    assert serve_unit["KillSignal"] == "SIGTERM" and serve_unit["Restart"] == "on-failure"
    procs = []
    try:
        for unit in (serve_unit, web_unit):
            procs.append(subprocess.Popen(shlex.split(unit["ExecStart"]), env=run_env(unit),
                                          cwd=unit["WorkingDirectory"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True))
        send(S, "anna@test.org", "help")
        assert "SIGNON <game> <power> <password>" in text(S.wait_for("anna@test.org", 1)[0])
        home = Path(serve_unit["WorkingDirectory"])
        port = yaml.safe_load((home / "judge.yaml").read_text())["web"]["port"]
        end = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200
                    break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)
        # the nightly backup, twice: both kept, in the folder the unit names
        backup_unit = service(units / "mobadj-backup.service")
        for _ in range(2):
            subprocess.run(shlex.split(backup_unit["ExecStart"]), env=run_env(backup_unit),
                           cwd=backup_unit["WorkingDirectory"], check=True, timeout=60,
                           capture_output=True)
            time.sleep(1.1)
        assert len(list((home / "backups").glob("judge-*.sqlite"))) == 2
        # systemctl stop: SIGTERM, then the stop timeout.  The judge exits 0; uvicorn shuts
        # the pages down and ends by the signal it got, which systemd counts as clean too
        clean = {serve_unit["ExecStart"]: (0,), web_unit["ExecStart"]: (0, -signal.SIGTERM)}
        for proc, unit in zip(procs, (serve_unit, web_unit), strict=True):
            proc.send_signal(signal.SIGTERM)
            status = proc.wait(float(unit["TimeoutStopSec"]))
            assert status in clean[unit["ExecStart"]], proc.stderr.read()
        log = (home / "judge-data" / "judge.log").read_text()
        assert "serving judge@test.org" in log and "stopped" in log
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
