"""Helpers for the tests that run the judge end to end through the real servers: players
send SMTP to aiosmtpd, which delivers into the judge's pymap IMAP inbox; the judge's service
fetches, handles, and replies over SMTP; the tests read what each address received."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS


def make_config(tmp_path, servers, **imap):
    return config_from_data({
        "judge": {"name": "E2E Judge", "address": JUDGE_ADDRESS, "data_dir": str(tmp_path),
                  "timezone": "America/New_York", "gm_addresses": ["gm@test.org"]},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "E2E_IMAP_PW", "poll_seconds": 0.2,
                 **imap},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none", "user": ""},
    })


@pytest.fixture
def service(tmp_path, mail_servers, clock, monkeypatch):
    monkeypatch.setenv("E2E_IMAP_PW", IMAP_PASSWORD)
    cfg = make_config(tmp_path, mail_servers)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=clock, kdf_n=2**10)
    svc = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock))
    yield svc
    svc.mailbox.close()
    store.close()


def send(servers, sender, body, subject="orders", reply_to=None):
    m = EmailMessage()
    m["From"] = sender
    m["To"] = JUDGE_ADDRESS
    m["Subject"] = subject
    if reply_to:
        m["Reply-To"] = reply_to
    m["Message-ID"] = make_msgid(domain="test.org")  # as every mail program does
    m.set_content(body)
    with smtplib.SMTP("127.0.0.1", servers.smtp_port, timeout=10) as s:
        s.send_message(m)


def last(servers, address, count):
    return servers.wait_for(address, count)[count - 1]


def text(msg):
    """The plain-text body, with the wire's CRLF line ends read as newlines."""
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def attachment_names(msg):
    return [p.get_filename() for p in msg.iter_attachments()]


