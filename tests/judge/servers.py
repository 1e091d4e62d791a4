"""Real mail servers for the tests: pymap (IMAP, in-memory backend, a subprocess) and aiosmtpd
(SMTP, in a thread).  Mail the SMTP server receives for the judge's address is APPENDed to
the judge's IMAP inbox; mail for anyone else is kept per recipient for the test to read.
Both listen on 127.0.0.1 on free ports and are stopped by the fixture."""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from imapclient import IMAPClient

JUDGE_ADDRESS = "judge@test.org"
IMAP_USER = "judge"
IMAP_PASSWORD = "imap-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nagle_off(client: IMAPClient) -> IMAPClient:
    """A test's own IMAP client sends each command without Nagle's delay, as mail servers
    and delivery agents do (see :meth:`MailServers.imap`)."""
    client.socket().setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return client


class _Handler:
    def __init__(self, servers: MailServers) -> None:
        self.servers = servers

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        data = envelope.original_content or envelope.content
        if isinstance(data, str):
            data = data.encode()
        for rcpt in envelope.rcpt_tos:
            self.servers.deliver(rcpt.lower(), data)
        return "250 OK"


@dataclass
class MailServers:
    """The running servers and what they delivered."""

    imap_port: int
    smtp_port: int
    proc: subprocess.Popen
    controller: Controller | None = None
    delivered: dict[str, list[bytes]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)
    _imap: IMAPClient | None = None

    def imap(self) -> IMAPClient:
        """A client of the judge's mailbox, as the mail system delivering into it.  It sends
        without Nagle's delay, as mail servers do: an APPEND's literal follows its command
        line in a second small write, which would otherwise wait ~40 ms for the server's
        delayed ACK (every mail for the judge took ~50 ms to deliver)."""
        client = IMAPClient("127.0.0.1", port=self.imap_port, ssl=False, timeout=10)
        nagle_off(client)
        client.login(IMAP_USER, IMAP_PASSWORD)
        return client

    def deliver(self, rcpt: str, data: bytes) -> None:
        with self.lock:
            if rcpt == JUDGE_ADDRESS:
                if self._imap is None:
                    self._imap = self.imap()
                self._imap.append("INBOX", data)
            else:
                self.delivered[rcpt].append(data)

    def inbox(self, address: str) -> list[EmailMessage]:
        """Mails delivered so far to ``address`` (parsed)."""
        with self.lock:
            raws = list(self.delivered.get(address.lower(), []))
        return [email.message_from_bytes(r, policy=email.policy.default) for r in raws]

    def all_delivered(self) -> dict[str, list[bytes]]:
        with self.lock:
            return {k: list(v) for k, v in self.delivered.items()}

    def reset(self) -> None:
        """Empty the judge's IMAP inbox and forget delivered mail (between tests)."""
        with self.lock:
            self.delivered.clear()
            if self._imap is None:
                self._imap = self.imap()
            self._imap.select_folder("INBOX")
            uids = self._imap.search(["ALL"])
            if uids:
                self._imap.delete_messages(uids)
                self._imap.expunge()

    def wait_for(self, address: str, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        """Block until ``address`` has at least ``count`` mails (real network round trips)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.inbox(address)
            if len(got) >= count:
                return got
            time.sleep(0.02)
        raise AssertionError(f"{address} got {len(self.inbox(address))} mails, wanted {count}")

    def wait_for_raw(self, address: str, count: int, timeout: float = 10.0) -> None:
        """:meth:`wait_for` without parsing every mail at each look (for long games)."""
        end = time.monotonic() + timeout
        while len(self.all_delivered().get(address.lower(), [])) < count:
            if time.monotonic() > end:
                raise AssertionError(f"{address} got fewer than {count} mails")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
        if self._imap is not None:
            with contextlib.suppress(Exception):
                self._imap.logout()
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def wait_for_port(proc: subprocess.Popen, port: int, what: str) -> None:
    """Until the server ``proc`` listens on ``port`` (20 s at most)."""
    end = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.05)


def start_servers() -> MailServers:
    imap_port, smtp_port = free_port(), free_port()
    pymap = Path(sys.executable).with_name("pymap")
    proc = subprocess.Popen(
        [str(pymap), "--host", "127.0.0.1", "--port", str(imap_port), "dict",
         "--demo-user", IMAP_USER, "--demo-password", IMAP_PASSWORD],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ),
    )
    wait_for_port(proc, imap_port, "pymap")
    servers = MailServers(imap_port, smtp_port, proc)
    controller = Controller(_Handler(servers), hostname="127.0.0.1", port=smtp_port)
    controller.start()
    servers.controller = controller
    return servers


@pytest.fixture(scope="session")
def _servers():
    servers = start_servers()
    yield servers
    servers.stop()


@pytest.fixture
def mail_servers(_servers):
    """Running IMAP and SMTP servers with an empty judge inbox."""
    _servers.reset()
    yield _servers
