"""The email judge's benchmark (run by hand: ``.venv/bin/python bench/judge_bench.py``).

1. 1,000 order mails waiting in the judge's IMAP mailbox are handled end to end: fetched,
   parsed, signed on (scrypt passwords), orders read and stored, each acknowledged over
   SMTP.  Real servers on 127.0.0.1 (pymap IMAP, aiosmtpd SMTP).  Target: < 60 s.
2. One phase of a 6-player Mobtown II game (standard Diplomacy with 7 players while the
   Mobtown II variant cannot yet be played here) adjudicated by the judge with its
   results mailed to every player and the GM over SMTP.  Target: < 2 s.

Prints the figures as JSON; ``--write`` also rewrites docs/performance-judge.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mobadj.judge.config import config_from_data  # noqa: E402
from mobadj.judge.core import Judge  # noqa: E402
from mobadj.judge.hosts import HostError, host_for  # noqa: E402
from mobadj.judge.mailbox import Mailbox  # noqa: E402
from mobadj.judge.mailer import Mailer  # noqa: E402
from mobadj.judge.service import Service  # noqa: E402
from mobadj.judge.store import Store  # noqa: E402
from tests.judge.servers import (  # noqa: E402
    IMAP_PASSWORD,
    IMAP_USER,
    JUDGE_ADDRESS,
    free_port,
    start_servers,
)

ORDERS = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"],
    "ITALY": ["A ROM - APU", "A VEN H", "F NAP - ION"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"],
}


def make_judge(tmp: Path, servers, monkey_env: dict[str, str]) -> tuple[Judge, Service]:
    os.environ.update(monkey_env)
    cfg = config_from_data({
        "judge": {"name": "Bench Judge", "address": JUDGE_ADDRESS, "data_dir": str(tmp),
                  "timezone": "UTC"},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "BENCH_IMAP_PW", "poll_seconds": 0.1},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
    })
    judge = Judge(Store(cfg.db_path), cfg)  # real KDF cost (scrypt n=2**14)
    service = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name,
                                                       judge.clock))
    return judge, service


def start_game(judge: Judge, name: str, kind: str, powers: list[str]) -> dict[str, str]:
    judge.create_game(name, kind, "gm@bench.org", "gm-pw", {"early": "never"}, seed=1)
    out: list = []
    with judge.store.transaction():
        for p in powers:
            judge.add_player(judge.store.game(name), f"{p.lower()}@bench.org", p,
                             f"pw-{p.lower()}", judge.clock(), out)
        judge.start(judge.store.game(name), judge.clock(), out)
        for m in out:
            m.id = judge.store.queue(m, judge.clock())
    judge.store.db.execute("UPDATE outbox SET sent=0")  # set-up mail is not part of the bench
    return {p: f"pw-{p.lower()}" for p in powers}


def sink_smtp() -> tuple[subprocess.Popen, int]:
    """An SMTP server in its own process that accepts and drops every mail (as a real
    outgoing relay would take it off the judge's hands)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "aiosmtpd", "-n", "-c",
                             "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 20
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the SMTP sink did not start")


def bench_mail(servers, n: int) -> dict[str, float]:
    tmp = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    judge, service = make_judge(tmp, servers, {"BENCH_IMAP_PW": IMAP_PASSWORD})
    powers = list(ORDERS)
    start_game(judge, "bench", "standard", powers)
    rng = random.Random(1)
    imap = servers.imap()
    for i in range(n):
        p = powers[i % len(powers)]
        lines = [o if rng.random() < 0.8 else o.split(" - ")[0] + " H" for o in ORDERS[p]]
        if rng.random() < 0.1:
            lines.append("A XYZ - PAR")  # some mails carry an error to explain
        m = EmailMessage()
        m["From"] = f"{p.lower()}@bench.org"
        m["To"] = JUDGE_ADDRESS
        m["Subject"] = f"orders {i}"
        m["Message-ID"] = f"<bench-{i}@bench.org>"
        m.set_content(f"SIGNON bench {p} pw-{p.lower()}\n" + "\n".join(lines))
        imap.append("INBOX", m.as_bytes())
    imap.logout()
    sink, port = sink_smtp()
    service.mailer.server = replace(service.mailer.server, port=port)
    t0 = time.perf_counter()
    handled = 0
    try:
        while handled < n:
            handled += service.step()
        elapsed = time.perf_counter() - t0
    finally:
        sink.terminate()
    delivered = judge.store.db.execute(
        "SELECT COUNT(*) FROM outbox WHERE sent > 0").fetchone()[0]
    service.mailbox.close()
    judge.store.close()
    return {"mails": n, "seconds": round(elapsed, 2), "per_mail_ms": round(elapsed / n * 1000, 2),
            "replies_delivered": delivered}


def bench_phase(servers) -> dict[str, object]:
    tmp = Path(tempfile.mkdtemp(prefix="judge-bench-phase-"))
    judge, service = make_judge(tmp, servers, {"BENCH_IMAP_PW": IMAP_PASSWORD})
    kind, powers = "mobtown2", None
    try:
        host = host_for("mobtown2")
        seats = host.seats({})
        powers = seats[:6]
        host.new_state(powers, 1, {})
    except HostError as exc:
        kind, note = "standard", f"Mobtown II not playable yet ({exc}); standard, 7 players"
        powers = list(ORDERS)
    else:
        note = "Mobtown II, 6 players"
    start_game(judge, "phase", kind, powers)
    if kind == "standard":
        with judge.store.transaction():
            for p in powers:
                judge.store.set_orders("phase", "S1901M", p, "\n".join(ORDERS[p]), 0, None)
    before = sum(len(v) for v in servers.all_delivered().values())
    t0 = time.perf_counter()
    out: list = []
    with judge.store.transaction():
        judge.resolve(judge.store.game("phase"), judge.clock(), out)
        for m in out:
            m.id = judge.store.queue(m, judge.clock())
    t1 = time.perf_counter()
    service.mailer.send_outbox(judge.store)
    t2 = time.perf_counter()
    delivered = sum(len(v) for v in servers.all_delivered().values()) - before
    attachments = sorted({a[0] for m in out for a in m.attachments})
    judge.store.close()
    return {"what": note, "adjudicate_and_queue_s": round(t1 - t0, 3),
            "mail_out_s": round(t2 - t1, 3), "total_s": round(t2 - t0, 3),
            "result_mails": delivered, "attachments": attachments}


def write_doc(figures: dict[str, object]) -> None:
    m, p = figures["mail"], figures["phase"]
    text = f"""# Judge performance

Measured with `bench/judge_bench.py` (run by hand: `.venv/bin/python bench/judge_bench.py
--write`) on this machine ({figures['machine']}), real servers on 127.0.0.1: pymap (IMAP,
in-memory) and aiosmtpd (SMTP).  Passwords use the production scrypt cost (n = 2**14).

| Measurement | Figure | Target |
|---|---|---|
| {m['mails']} order mails in the mailbox handled end to end (fetch, parse, sign-on, \
orders read and stored, reply accepted by SMTP) | {m['seconds']} s ({m['per_mail_ms']} ms a \
mail; {m['replies_delivered']} replies) | < 60 s |
| One phase adjudicated, results mailed to every player and the GM ({p['what']}) | \
{p['total_s']} s (adjudicate + queue {p['adjudicate_and_queue_s']} s, SMTP \
{p['mail_out_s']} s; {p['result_mails']} mails; attachments \
{', '.join(p['attachments'])}) | < 2 s |

Notes
- Each mail is its own SQLite transaction (WAL, synchronous=NORMAL), recording the mail's
  Message-ID and IMAP UID together with its effect and its replies in the outbox.
- A successful password check is remembered in memory (keyed by a hash of the password),
  so a player's many mails cost one scrypt run, not one each.
- Replies go out over one SMTP connection per round of the serve loop.
- The machine is shared: the load average above says how busy it was; figures on an idle
  machine are lower.
- No map picture is attached for the standard map (there is no layout file for it); maps
  with a layout (maps/<name>.layout.yaml) get map.svg and map.png on every result.
"""
    (ROOT / "docs" / "performance-judge.md").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--write", action="store_true", help="rewrite docs/performance-judge.md")
    args = parser.parse_args()
    servers = start_servers()
    try:
        figures = {
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                       f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f} "
                       f"while measuring",
            "mail": bench_mail(servers, args.mails),
            "phase": bench_phase(servers),
        }
    finally:
        servers.stop()
    print(json.dumps(figures, indent=1))
    if args.write:
        write_doc(figures)


if __name__ == "__main__":
    main()
