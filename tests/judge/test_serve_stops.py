"""``mobadj serve`` stops within seconds on SIGTERM (systemd's stop, kill), whatever it is
doing at that moment: waiting for mail in IMAP IDLE, reading a mail, answering it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from aiosmtpd.controller import Controller

from .e2e import send
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS, free_port

pytestmark = pytest.mark.pure_only  # the serve loop's stops: no phase adjudicated

MOBADJ = str(Path(sys.executable).with_name("mobadj"))
STOP_SECONDS = 5.0
"""How long a stop may take: a judge is stopped by systemd, a deploy script, a reboot."""


def _config(tmp_path: Path, servers, smtp_port: int | None = None) -> Path:
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"name": "Stopping Judge", "address": JUDGE_ADDRESS, "data_dir": "data",
                  "gm_addresses": ["gm@test.org"]},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "STOP_IMAP_PW"},
        "smtp": {"host": "127.0.0.1", "port": smtp_port or servers.smtp_port, "tls": "none",
                 "user": ""},
    }))
    return path


def _started(cfg: Path) -> subprocess.Popen:
    proc = subprocess.Popen([MOBADJ, "serve", "-c", str(cfg), "--poll", "30"],
                            env=dict(os.environ, STOP_IMAP_PW=IMAP_PASSWORD),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert "serving" in proc.stderr.readline()  # the judge is up and connecting
    return proc


def _stop(proc: subprocess.Popen) -> float:
    """Seconds from SIGTERM to the end of the process, which must end well."""
    proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    try:
        code = proc.wait(STOP_SECONDS * 4)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(
            f"mobadj serve still ran {STOP_SECONDS * 4:.0f} s after SIGTERM") from None
    took = time.monotonic() - t0
    assert code == 0, proc.stderr.read() if proc.stderr else code
    return took


def test_a_judge_waiting_for_mail_stops_at_once(tmp_path, mail_servers) -> None:
    cfg = _config(tmp_path, mail_servers)
    for wait in (0.0, 0.05, 0.3, 1.0, 2.0):  # just serving, connecting, logging in, in IDLE
        proc = _started(cfg)
        time.sleep(wait)
        assert _stop(proc) < STOP_SECONDS


def test_a_judge_stopped_while_mail_comes_in_stops_and_loses_none(tmp_path, mail_servers
                                                                  ) -> None:
    cfg = _config(tmp_path, mail_servers)
    for n, wait in enumerate((0.0, 0.02, 0.05, 0.1, 0.2)):
        proc = _started(cfg)
        time.sleep(1.0)  # in IDLE
        send(mail_servers, "someone@test.org", f"LIST\nHELP\n(mail {n})")
        time.sleep(wait)  # ... while the mail is read, answered, sent
        assert _stop(proc) < STOP_SECONDS
    # every mail is answered in the end: a mail in hand when the judge stopped is read again
    proc = _started(cfg)
    try:
        mail_servers.wait_for("someone@test.org", 5, timeout=30)
    finally:
        _stop(proc)


class _SlowServer:
    """An SMTP server that takes its time over every mail's DATA (a busy or distant one)."""

    def __init__(self) -> None:
        self.got: list[bytes] = []
        self.receiving = threading.Event()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        self.receiving.set()
        await asyncio.sleep(15)
        self.got.append(envelope.original_content or b"")
        return "250 OK"


def test_a_judge_stopped_while_it_sends_a_mail_stops_at_once_and_sends_it_later(
        tmp_path, mail_servers) -> None:
    handler = _SlowServer()
    slow = Controller(handler, hostname="127.0.0.1", port=free_port())
    slow.start()
    try:
        proc = _started(_config(tmp_path, mail_servers, smtp_port=slow.port))
        send(mail_servers, "someone@test.org", "LIST")
        assert handler.receiving.wait(30)  # the answer is on its way to the slow server
        assert _stop(proc) < STOP_SECONDS
    finally:
        slow.stop()
    proc = _started(_config(tmp_path, mail_servers))  # the usual server again
    try:
        mail_servers.wait_for("someone@test.org", 1, timeout=30)
    finally:
        _stop(proc)
