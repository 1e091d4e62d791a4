"""Exactly once under fire: the judge runs as a real process (``mobadj serve``) against the
real servers and is killed with SIGKILL at random moments, then restarted, until every mail
is handled.  No accepted order may be lost, no mail handled twice, and the phase is resolved
exactly once."""

from __future__ import annotations

import email
import email.policy
import os
import random
import signal
import subprocess
import sys
import time
from email.message import EmailMessage

import yaml

from mobadj.judge.config import load_config
from mobadj.judge.core import Judge
from mobadj.judge.store import Store

from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
CHOICES = {
    "AUSTRIA": ["A VIE H", "A VIE - GAL", "A VIE - BOH"],
    "ENGLAND": ["F LON H", "F LON - NTH", "F LON - ENG"],
    "FRANCE": ["A PAR H", "A PAR - BUR", "A PAR - PIC"],
    "GERMANY": ["A MUN H", "A MUN - RUH", "A MUN - BUR"],
    "ITALY": ["A ROM H", "A ROM - APU", "A ROM - TUS"],
    "RUSSIA": ["A MOS H", "A MOS - UKR", "A MOS - STP"],
    "TURKEY": ["A CON H", "A CON - BUL", "A SMY - ARM"],
}


def write_config(tmp_path, servers):
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"name": "Crash Judge", "address": JUDGE_ADDRESS, "data_dir": "data",
                  "timezone": "UTC"},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "CRASH_IMAP_PW", "poll_seconds": 0.05},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
    }))
    return path


def test_killed_at_random_points_loses_nothing_and_repeats_nothing(tmp_path, mail_servers):
    S = mail_servers
    cfg_path = write_config(tmp_path, S)
    cfg = load_config(cfg_path)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, kdf_n=2**10)
    judge.create_game("crash", "standard", "gm@test.org", "gm-pw", seed=1)
    out: list = []
    with store.transaction():
        for p in POWERS:
            judge.add_player(store.game("crash"), f"{p.lower()}@test.org", p, f"pw-{p}", 0, out)
        judge.start(store.game("crash"), judge.clock(), out)
    store.close()

    rng = random.Random(20261122)
    per_power = 4
    last: dict[str, str] = {}
    ids = []
    imap = S.imap()
    n = 0
    for round_ in range(per_power):
        for p in POWERS:
            orders = rng.choice(CHOICES[p])
            ready = "\nready" if round_ == per_power - 1 else ""
            m = EmailMessage()
            m["From"] = f"{p.lower()}@test.org"
            m["To"] = JUDGE_ADDRESS
            m["Subject"] = f"orders {n}"
            m["Message-ID"] = f"<crash-{n}@test.org>"
            m.set_content(f"SIGNON crash {p} pw-{p}\n{orders}{ready}")
            imap.append("INBOX", m.as_bytes())
            ids.append(m["Message-ID"])
            last[p] = orders
            n += 1
    imap.logout()

    env = dict(os.environ, CRASH_IMAP_PW=IMAP_PASSWORD)
    cmd = [sys.executable, "-m", "mobadj", "serve", "--config", str(cfg_path), "--poll", "0.05"]
    def progress() -> tuple[int, int]:
        check = Store(cfg.db_path)
        try:
            return check.mail_count(), len(check.unsent())
        finally:
            check.close()

    kills = 0
    for _ in range(3):
        before = progress()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        # let it handle a random few mails (whatever the machine's speed), then kill it at a
        # random point of the next one: mid-transaction, mid-SMTP, between the two ...
        target = min(n, before[0] + rng.randint(3, 10))
        end = time.monotonic() + 30
        while progress()[0] < target and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
        if progress() == (n, 0):
            break
    # a last clean run finishes whatever is left
    subprocess.run(cmd[:-2] + ["--once"], env=env, check=True, capture_output=True, timeout=60)
    assert kills >= 2

    store = Store(cfg.db_path)
    try:
        assert store.mail_count() == n
        handled = store.db.execute("SELECT message_id FROM mails").fetchall()
        assert sorted(r[0] for r in handled) == sorted(ids)
        order_cmds = store.db.execute(
            "SELECT message_id, COUNT(*) FROM commands WHERE kind='orders' GROUP BY message_id"
        ).fetchall()
        assert len(order_cmds) == n and all(c == 1 for _, c in order_cmds)  # never twice
        results = store.results("crash")
        assert len(results) == 1  # the phase was resolved exactly once
        assert results[0]["orders"] == last  # and with every power's last accepted orders
        assert store.unsent() == []
    finally:
        store.close()
    # every mail was answered; a reply sent twice (killed between SMTP and bookkeeping) keeps
    # its Message-ID, so a mail reader shows it once
    replies: dict[str, set[str]] = {}
    for raws in S.all_delivered().values():
        for raw in raws:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            if msg["In-Reply-To"]:
                replies.setdefault(msg["In-Reply-To"], set()).add(msg["Message-ID"])
    assert sorted(replies) == sorted(ids)
    assert all(len(v) == 1 for v in replies.values())
