"""The judge over TLS against real servers: pymap offering STARTTLS (and an implicit-TLS
front for it, as on port 993) and aiosmtpd with STARTTLS or implicit TLS and AUTH required,
all with a throwaway self-signed certificate that the judge trusts through ``ca_file``.  A
certificate the judge does not trust is refused with a clear logged error and a back-off,
never a crash, and nothing queued is lost."""

from __future__ import annotations

import email
import email.policy
import logging
import ssl
import threading
import time
from email.message import EmailMessage

import pytest
from imapclient import IMAPClient

from mobadj.judge.config import ConfigError, TLSTrustError, config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from .servers import nagle_off
from .tlsservers import SMTP_PASSWORD, SMTP_USER, make_cert, start_imap, start_smtp

pytestmark = pytest.mark.pure_only  # the judge's mail over TLS: no phase adjudicated

JUDGE = "judge@tls.test"
IMAP_USER = "judge"
IMAP_PASSWORD = "imap-tls-secret"


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    """(cert, key) of the servers, and another self-signed certificate nobody uses."""
    folder = tmp_path_factory.mktemp("certs")
    cert, key = make_cert(folder, "server")
    other, _ = make_cert(folder, "other")
    return cert, key, other


@pytest.fixture(scope="module")
def imap_server(certs):
    cert, key, _ = certs
    server = start_imap(cert, key, IMAP_USER, IMAP_PASSWORD)
    yield server
    server.stop()


@pytest.fixture(scope="module", params=["starttls", "ssl"])
def smtp_server(request, certs):
    cert, key, _ = certs
    server = start_smtp(cert, key, implicit=request.param == "ssl")
    server.tls = request.param
    yield server
    server.stop()


@pytest.fixture
def smtp(smtp_server):
    """The SMTP server with no mail kept from earlier tests."""
    smtp_server.clear()
    return smtp_server


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    monkeypatch.setenv("TLS_IMAP_PW", IMAP_PASSWORD)
    monkeypatch.setenv("TLS_SMTP_PW", SMTP_PASSWORD)


def inbox_client(imap_server, cert) -> IMAPClient:
    """A mail client of our own, over STARTTLS, to put mail in the judge's inbox."""
    ctx = ssl.create_default_context(cafile=str(cert))
    client = IMAPClient("127.0.0.1", port=imap_server.port, ssl=False, timeout=10)
    nagle_off(client)
    client.starttls(ctx)
    client.login(IMAP_USER, IMAP_PASSWORD)
    client.select_folder("INBOX")
    uids = client.search(["ALL"])
    if uids:
        client.delete_messages(uids)
        client.expunge()
    return client


def put_mail(client: IMAPClient, sender: str, body: str) -> None:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = JUDGE
    m["Subject"] = "question"
    m["Message-ID"] = f"<{time.monotonic_ns()}@tls.test>"
    m.set_content(body)
    client.append("INBOX", m.as_bytes())


def judge_yaml(tmp_path, imap_server, smtp_server, imap_tls, imap_ca, smtp_ca) -> dict:
    """judge.yaml as a GM would write it, the CA files named relative to its folder."""
    imap_port = imap_server.tls_port if imap_tls == "ssl" else imap_server.port
    return {
        "judge": {"name": "TLS Judge", "address": JUDGE, "data_dir": "data",
                  "timezone": "UTC", "gm_addresses": ["gm@tls.test"]},
        "imap": {"host": "127.0.0.1", "port": imap_port, "tls": imap_tls, "user": IMAP_USER,
                 "password_env": "TLS_IMAP_PW", "poll_seconds": 0.2, "timeout": 5,
                 "ca_file": imap_ca},
        "smtp": {"host": "127.0.0.1", "port": smtp_server.port, "tls": smtp_server.tls,
                 "user": SMTP_USER, "password_env": "TLS_SMTP_PW", "timeout": 5,
                 "ca_file": smtp_ca},
    }


def make_service(tmp_path, data, backoff=(0.05, 0.1)) -> Service:
    (tmp_path / "data").mkdir(exist_ok=True)
    cfg = config_from_data(data, base=tmp_path)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=time.time, kdf_n=2**10)
    return Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, time.time),
                   backoff=backoff)


def copy_certs(tmp_path, certs):
    cert, _, other = certs
    (tmp_path / "ca.pem").write_bytes(cert.read_bytes())
    (tmp_path / "wrong-ca.pem").write_bytes(other.read_bytes())


def replies_to(smtp_server, address):
    out = []
    for user, rcpts, raw in smtp_server.mails:
        if address in rcpts:
            out.append((user, email.message_from_bytes(raw, policy=email.policy.default)))
    return out


# --- configuration --------------------------------------------------------------------

def test_ca_file_is_optional_and_read_relative_to_judge_yaml(tmp_path):
    (tmp_path / "ca.pem").write_text("not checked here")
    base = {"judge": {"address": JUDGE}, "imap": {"host": "h"}, "smtp": {"host": "h"}}
    cfg = config_from_data(base, base=tmp_path)
    assert cfg.imap.ca_file is None and cfg.smtp.ca_file is None  # old files keep working
    cfg = config_from_data({**base, "imap": {"host": "h", "ca_file": "ca.pem"}}, base=tmp_path)
    assert cfg.imap.ca_file == str(tmp_path / "ca.pem")
    assert cfg.smtp.ca_file is None


def test_a_missing_ca_file_is_a_config_error_naming_the_key(tmp_path):
    data = {"judge": {"address": JUDGE}, "imap": {"host": "h"},
            "smtp": {"host": "h", "ca_file": "nowhere.pem"}}
    with pytest.raises(ConfigError, match=r"smtp\.ca_file: no such file .*nowhere\.pem"):
        config_from_data(data, base=tmp_path)


# --- a working judge over TLS ---------------------------------------------------------

@pytest.mark.parametrize("imap_tls", ["starttls", "ssl"])
def test_judge_reads_and_answers_mail_over_tls(tmp_path, certs, imap_server, smtp,
                                               imap_tls):
    copy_certs(tmp_path, certs)
    client = inbox_client(imap_server, certs[0])
    put_mail(client, "anna@tls.test", "HELP")
    svc = make_service(tmp_path, judge_yaml(tmp_path, imap_server, smtp, imap_tls,
                                            "ca.pem", "ca.pem"))
    try:
        assert svc.step() == 1  # connected, logged in, fetched over TLS
        sock = svc.mailbox.client._imap.sock
        assert isinstance(sock, ssl.SSLSocket) and sock.version() in ("TLSv1.2", "TLSv1.3")
        got = replies_to(smtp, "anna@tls.test")
        assert len(got) == 1
        user, reply = got[0]
        assert user == SMTP_USER  # the judge logged in to the SMTP server (AUTH over TLS)
        assert reply["From"].addresses[0].addr_spec == JUDGE
        assert "HELP" in reply.get_body(("plain",)).get_content()
        assert svc.judge.store.unsent(10) == []
    finally:
        svc.mailbox.close()
        svc.judge.store.close()
        client.logout()


# --- untrusted certificates -----------------------------------------------------------

def serve_until_failures(svc: Service, n: int, limit: float = 10.0) -> None:
    """Run the real serve loop in a thread until it has backed off ``n`` times."""
    stop = threading.Event()
    thread = threading.Thread(target=svc.serve, args=(stop,), daemon=True)
    thread.start()
    end = time.monotonic() + limit
    while len(svc.failures) < n and time.monotonic() < end and thread.is_alive():
        time.sleep(0.02)
    stop.set()
    thread.join(5)
    assert not thread.is_alive(), "the serve loop did not stop"
    assert len(svc.failures) >= n, f"backed off {len(svc.failures)} times, wanted {n}"


@pytest.mark.parametrize("imap_tls", ["starttls", "ssl"])
def test_untrusted_imap_certificate_is_logged_and_retried(tmp_path, certs, imap_server,
                                                          smtp, imap_tls, caplog):
    copy_certs(tmp_path, certs)
    svc = make_service(tmp_path, judge_yaml(tmp_path, imap_server, smtp, imap_tls,
                                            "wrong-ca.pem", "ca.pem"))
    with caplog.at_level(logging.WARNING, logger="mobadj.judge.service"):
        serve_until_failures(svc, 3)
    try:
        assert svc.failures[:3] == [0.05, 0.1, 0.1]  # back-off, capped
        port = svc.mailbox.server.port
        warnings = [r.getMessage() for r in caplog.records]
        assert any(f"IMAP server 127.0.0.1:{port}: TLS certificate not trusted" in w
                   and "self-signed certificate" in w and "check imap.ca_file" in w
                   and "retrying in" in w for w in warnings), warnings
        assert svc.mailbox.client is None
    finally:
        svc.judge.store.close()


def test_without_ca_file_a_self_signed_server_is_refused_with_a_hint(tmp_path, certs,
                                                                     imap_server,
                                                                     smtp):
    svc = make_service(tmp_path, judge_yaml(tmp_path, imap_server, smtp, "starttls",
                                            None, None))
    try:
        with pytest.raises(TLSTrustError, match=r"set imap\.ca_file to the CA certificate"):
            svc.step()
    finally:
        svc.judge.store.close()


def test_untrusted_smtp_certificate_keeps_the_reply_queued_until_trusted(
        tmp_path, certs, imap_server, smtp, caplog):
    copy_certs(tmp_path, certs)
    client = inbox_client(imap_server, certs[0])
    put_mail(client, "ben@tls.test", "HELP")
    data = judge_yaml(tmp_path, imap_server, smtp, "starttls", "ca.pem", "wrong-ca.pem")
    svc = make_service(tmp_path, data)
    try:
        with caplog.at_level(logging.WARNING, logger="mobadj.judge.service"):
            serve_until_failures(svc, 2)
        port = smtp.port
        assert any(f"SMTP server 127.0.0.1:{port}: TLS certificate not trusted" in m
                   and "check smtp.ca_file" in m for m in caplog.messages), caplog.messages
        handled = svc.judge.store.db.execute("SELECT COUNT(*) FROM mails").fetchone()[0]
        assert handled == 1  # the mail was read and handled once ...
        assert replies_to(smtp, "ben@tls.test") == []  # ... its reply not sent ...
        assert len(svc.judge.store.unsent(10)) == 1  # ... but kept in the outbox
        svc.judge.store.close()
        # the GM fixes ca_file and restarts: the reply goes out, the mail is not handled again
        data["smtp"]["ca_file"] = "ca.pem"
        svc = make_service(tmp_path, data)
        assert svc.step() == 0
        got = replies_to(smtp, "ben@tls.test")
        assert len(got) == 1 and got[0][0] == SMTP_USER
        assert svc.judge.store.unsent(10) == []
    finally:
        svc.mailbox.close()
        svc.judge.store.close()
        client.logout()


def test_smtp_login_is_required_and_a_wrong_password_is_retried(tmp_path, certs, imap_server,
                                                              smtp, monkeypatch,
                                                              caplog):
    copy_certs(tmp_path, certs)
    client = inbox_client(imap_server, certs[0])
    put_mail(client, "cara@tls.test", "HELP")
    monkeypatch.setenv("TLS_SMTP_PW", "wrong")
    svc = make_service(tmp_path, judge_yaml(tmp_path, imap_server, smtp, "starttls",
                                            "ca.pem", "ca.pem"))
    try:
        with caplog.at_level(logging.WARNING, logger="mobadj.judge.service"):
            serve_until_failures(svc, 2)
        assert any("mail server trouble (SMTPAuthenticationError" in m
                   for m in caplog.messages), caplog.messages
        assert replies_to(smtp, "cara@tls.test") == []
        assert len(svc.judge.store.unsent(10)) == 1
    finally:
        svc.mailbox.close()
        svc.judge.store.close()
        client.logout()


def test_imap_wrong_password_over_tls_is_logged_and_retried(tmp_path, certs, imap_server,
                                                             smtp, monkeypatch, caplog):
    copy_certs(tmp_path, certs)
    monkeypatch.setenv("TLS_IMAP_PW", "wrong")
    svc = make_service(tmp_path, judge_yaml(tmp_path, imap_server, smtp, "ssl",
                                            "ca.pem", "ca.pem"))
    try:
        with caplog.at_level(logging.WARNING, logger="mobadj.judge.service"):
            serve_until_failures(svc, 2)
        assert any(m.startswith("IMAP server 127.0.0.1:") and "login refused for user" in m
                   and "retrying in" in m for m in caplog.messages), caplog.messages
        assert svc.mailbox.client is None and svc.judge.store.mail_count() == 0
    finally:
        svc.judge.store.close()
