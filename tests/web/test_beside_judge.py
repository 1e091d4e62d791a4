"""``mobadj web`` and ``mobadj serve`` at once on the same store, as separate processes: the
judge handles order mails from real mail servers and resolves a phase while the pages are
read over and over; no request fails, nothing is locked, and the pages show the new phase."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import threading
import time
from email.message import EmailMessage
from pathlib import Path

import yaml

# the judge tests' real mail servers (pytest puts tests/ on the path: ``judge`` is theirs)
from judge.servers import (  # noqa: F401
    IMAP_PASSWORD,
    IMAP_USER,
    JUDGE_ADDRESS,
    _servers,
    mail_servers,  # noqa: F401
)

from mobadj.judge.config import load_config
from mobadj.judge.core import Judge
from mobadj.judge.store import Store

from .helpers import fetch, free_port

MOBADJ = str(Path(sys.executable).with_name("mobadj"))
ORDERS = {"ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
          "FRANCE": "A PAR - BUR\nA MAR - SPA\nF BRE - MAO"}


def send(port: int, sender: str, body: str) -> None:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, JUDGE_ADDRESS, "orders"
    m.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as s:
        s.send_message(m)


def test_pages_served_while_the_judge_resolves(tmp_path, mail_servers):  # noqa: F811
    web_port = free_port()
    cfg_path = tmp_path / "judge.yaml"
    cfg_path.write_text(yaml.safe_dump({
        "judge": {"name": "Busy Judge", "address": JUDGE_ADDRESS, "data_dir": "data"},
        "imap": {"host": "127.0.0.1", "port": mail_servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "WEB_TEST_IMAP_PW", "poll_seconds": 0.2},
        "smtp": {"host": "127.0.0.1", "port": mail_servers.smtp_port, "tls": "none",
                 "user": ""},
        "web": {"port": web_port, "base_url": f"http://127.0.0.1:{web_port}"},
    }))
    cfg = load_config(cfg_path)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, kdf_n=2**10)
    judge.create_game("busy", "standard", "gm@test.org", "gm-pw", {}, seed=1)
    seats = ["ENGLAND", "FRANCE"]
    with store.transaction():
        for seat in seats:
            judge.add_player(store.game("busy"), f"{seat.lower()}@test.org", seat,
                             f"pw-{seat.lower()}", judge.clock(), [])
        judge.start(store.game("busy"), judge.clock(), [])
    store.close()
    env = dict(os.environ, WEB_TEST_IMAP_PW=IMAP_PASSWORD)
    serve = subprocess.Popen([MOBADJ, "serve", "-c", str(cfg_path), "--poll", "0.2"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    web = subprocess.Popen([MOBADJ, "web", "-c", str(cfg_path)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{web_port}"
    statuses: list[int] = []
    stop = threading.Event()
    try:
        end = time.monotonic() + 30
        while True:
            try:
                if fetch(base + "/").status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < end and web.poll() is None, "mobadj web did not start"
            time.sleep(0.1)

        def reader() -> None:
            while not stop.is_set():
                for url in ("/", "/g/busy/", "/g/busy/map/S1901M.svg"):
                    statuses.append(fetch(base + url).status)

        threads = [threading.Thread(target=reader) for _ in range(2)]
        for th in threads:
            th.start()
        for seat in seats:
            send(mail_servers.smtp_port, f"{seat.lower()}@test.org",
                 f"SIGNON busy {seat} pw-{seat.lower()}\n{ORDERS[seat]}\nREADY\n")
        end = time.monotonic() + 60
        while "2 / 2" not in fetch(base + "/g/busy/").text:
            assert time.monotonic() < end, "the pages never showed the resolved phase"
            assert serve.poll() is None and web.poll() is None
            time.sleep(0.2)
        stop.set()
        for th in threads:
            th.join(30)
        page = fetch(base + "/g/busy/S1901M.html").text
        assert "A PAR - BUR" in page and "succeeds" in page
        mails = mail_servers.wait_for("england@test.org", 2)
        body = "".join(m.get_body(("plain",)).get_content() for m in mails)
        assert f"On the game's page: {base}/g/busy/S1901M.html" in body
    finally:
        stop.set()
        for proc in (serve, web):
            proc.terminate()
        outs = [proc.communicate(timeout=20) for proc in (serve, web)]
    assert len(statuses) > 20 and set(statuses) == {200}, sorted(set(statuses))
    for _, err in outs:
        assert "locked" not in err and "Traceback" not in err, err
