"""The judge's IMAP side against real pymap: IDLE through a stream of mail without a single
reconnect, and handled mail expunged after the configured number of days."""

from __future__ import annotations

import random
import socket
import threading
import time
from email.message import EmailMessage

import pytest

from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS


def make_service(tmp_path, servers, clock, **imap) -> Service:
    cfg = config_from_data({
        "judge": {"name": "IMAP Judge", "address": JUDGE_ADDRESS, "data_dir": str(tmp_path)},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "MBX_IMAP_PW", "poll_seconds": 5, **imap},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
    })
    judge = Judge(Store(cfg.db_path), cfg, clock=clock, kdf_n=2**10)
    return Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock))


def message(sender: str, body: str, n: int) -> EmailMessage:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = JUDGE_ADDRESS
    m["Subject"] = f"mail {n}"
    m["Message-ID"] = f"<idle-{n}@test.org>"
    m.set_content(body)
    return m


@pytest.mark.pure_only  # "list" mails: the judge's mailbox, no phase adjudicated
def test_hundreds_of_mails_while_idling_cost_no_reconnect(tmp_path, mail_servers, clock,
                                                          monkeypatch):
    """Mail arrives in bursts of 1 to 30 while the judge waits in IDLE, so pymap sends its
    untagged EXISTS / RECENT / FETCH (FLAGS (\\Recent)) lines, sometimes in pieces; the judge
    reads them all and keeps its one connection: 400 mails, 400 replies, 0 reconnects.
    (The bursts are MULTIAPPENDs: pymap takes ~50 ms a single APPEND.)"""
    monkeypatch.setenv("MBX_IMAP_PW", IMAP_PASSWORD)
    svc = make_service(tmp_path, mail_servers, clock)
    stop = threading.Event()
    thread = threading.Thread(target=svc.serve, args=(stop,), daemon=True)
    thread.start()
    n, rng = 400, random.Random(5)
    delivery = mail_servers.imap()
    try:
        sent = 0
        while sent < n:
            size = min(n - sent, rng.randint(1, 30))
            delivery.multiappend("INBOX", [message(f"p{i % 100}@test.org", "list", i).as_bytes()
                                           for i in range(sent, sent + size)])
            sent += size
            time.sleep(rng.uniform(0, 0.05))  # the judge is back in IDLE, or not yet
        end = time.monotonic() + 120
        while svc.judge.store.mail_count() < n and time.monotonic() < end:
            time.sleep(0.05)
        replies = 0
        while replies < n and time.monotonic() < end:
            replies = sum(len(mail_servers.inbox(f"p{k}@test.org")) for k in range(100))
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(30)
        delivery.logout()
    assert not thread.is_alive()
    assert svc.judge.store.mail_count() == n and replies == n
    assert svc.failures == [] and svc.mailbox.connects == 1
    svc.judge.store.close()


@pytest.mark.pure_only  # the judge's mailbox, no phase adjudicated
def test_mail_that_comes_while_the_judge_works_is_answered_at_once(tmp_path, mail_servers,
                                                                  clock, monkeypatch):
    """A player's mail arrives while the judge is answering another one: it is answered
    straight after, not when the poll interval (here a minute) ends.  The server told of it
    in its answer to one of the judge's commands, and IDLE reports only later mail."""
    monkeypatch.setenv("MBX_IMAP_PW", IMAP_PASSWORD)
    svc = make_service(tmp_path, mail_servers, clock, poll_seconds=60)
    delivery = mail_servers.imap()
    delivery.append("INBOX", message("first@test.org", "list", 1).as_bytes())
    sent: list[int] = []

    def second_mail_comes(step: str) -> None:  # while the judge handles the first one
        if step == "handled" and not sent:
            sent.append(2)
            delivery.append("INBOX", message("second@test.org", "list", 2).as_bytes())

    svc.on_step = second_mail_comes
    stop = threading.Event()
    thread = threading.Thread(target=svc.serve, args=(stop,), daemon=True)
    started = time.monotonic()
    thread.start()
    try:
        end = started + 30
        while svc.judge.store.mail_count() < 2 and time.monotonic() < end:
            time.sleep(0.02)
        waited = time.monotonic() - started
    finally:
        stop.set()
        delivery.append("INBOX", message("late@test.org", "list", 3).as_bytes())  # ends IDLE
        thread.join(5)
        client = svc.mailbox.client
        if thread.is_alive() and client is not None:  # a server slow to tell IDLE of it
            client.socket().shutdown(socket.SHUT_RDWR)
        thread.join(30)
        delivery.logout()
    assert not thread.is_alive()
    assert sent == [2] and svc.judge.store.mail_count() == 2
    assert waited < 10, f"the second mail waited {waited:.0f} s"
    assert len(mail_servers.inbox("second@test.org")) == 1
    svc.judge.store.close()


def test_handled_mail_is_expunged_after_the_configured_days(tmp_path, mail_servers, clock,
                                                            monkeypatch):
    monkeypatch.setenv("MBX_IMAP_PW", IMAP_PASSWORD)
    svc = make_service(tmp_path, mail_servers, clock, expunge_after_days=7)
    imap = mail_servers.imap()
    imap.select_folder("INBOX")
    try:
        imap.append("INBOX", message("old@test.org", "help", 1).as_bytes())
        assert svc.step() == 1
        clock.advance(hours=24 * 5)
        imap.append("INBOX", message("new@test.org", "help", 2).as_bytes())
        assert svc.step() == 1
        imap.noop()
        assert len(imap.search(["ALL"])) == 2  # nothing is 7 days old yet
        clock.advance(hours=24 * 2 + 1)  # the first mail is now 7 days old, the second 2
        assert svc.step() == 0
        imap.noop()
        left = imap.fetch(imap.search(["ALL"]), ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
        assert [b"idle-2@test.org" in v[b"BODY[HEADER.FIELDS (MESSAGE-ID)]"]
                for v in left.values()] == [True]
        assert svc.judge.store.mail_count() == 2  # the record stays: never handled again
        assert svc.step() == 0
    finally:
        imap.logout()
        svc.mailbox.close()
        svc.judge.store.close()
