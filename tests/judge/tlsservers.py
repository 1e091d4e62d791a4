"""Real mail servers speaking TLS, for the judge's TLS tests: a throwaway self-signed
certificate made with the ``openssl`` command line, pymap offering STARTTLS with it, a small
TLS front (implicit TLS, as on port 993) relaying to that pymap, and aiosmtpd with STARTTLS or
implicit TLS and AUTH required.  Everything listens on 127.0.0.1 and is stopped by the caller."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

from .servers import free_port

SMTP_USER = "judge-smtp"
SMTP_PASSWORD = "smtp-secret"


def make_cert(folder: Path, name: str = "server") -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (cert.pem, key.pem).  The
    certificate is its own CA, so it is also the file a client trusts."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RuntimeError("the TLS tests need the 'openssl' command line (apt install openssl)")
    cert, key = folder / f"{name}-cert.pem", folder / f"{name}-key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", f"/CN=mobadj test {name}",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-addext", "basicConstraints=critical,CA:TRUE"],
        check=True, capture_output=True,
    )
    return cert, key


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(str(cert), str(key))
    return ctx


def _wait_port(port: int, proc: subprocess.Popen | None = None, what: str = "server") -> None:
    end = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if (proc is not None and proc.poll() is not None) or time.monotonic() > end:
                raise RuntimeError(f"{what} did not start on port {port}") from None
            time.sleep(0.05)


class _Collect:
    """aiosmtpd handler: keeps every mail it accepts, with the authenticated user."""

    def __init__(self) -> None:
        self.mails: list[tuple[str | None, list[str], bytes]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        data = envelope.original_content or envelope.content
        if isinstance(data, str):
            data = data.encode()
        login = getattr(session.auth_data, "login", None)
        user = login.decode() if isinstance(login, bytes) else login
        with self.lock:
            self.mails.append((user, list(envelope.rcpt_tos), data))
        return "250 OK"


def _authenticator(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword) and auth_data.login == SMTP_USER.encode()
          and auth_data.password == SMTP_PASSWORD.encode())
    return AuthResult(success=ok, handled=False, auth_data=auth_data)


class _ImplicitTLSSMTP(SMTP):
    """aiosmtpd's own AUTH-needs-TLS check knows only STARTTLS; here the connection is TLS
    from the first byte, so AUTH is allowed once the handshake is done (and never before)."""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        if transport.get_extra_info("ssl_object") is not None:
            self._auth_require_tls = False


class _ImplicitTLSController(Controller):
    """aiosmtpd with TLS from the first byte (SMTPS, port 465 style)."""

    def factory(self) -> SMTP:
        return _ImplicitTLSSMTP(self.handler, **self.SMTP_kwargs)

    def _trigger_server(self) -> None:
        # The stock trigger speaks plain text; this one does the TLS handshake first.
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        with socket.create_connection((self.hostname, self.port), timeout=5) as raw, \
                ctx.wrap_socket(raw) as s:
            s.recv(1024)


@dataclass
class SMTPServer:
    """aiosmtpd that requires AUTH (and therefore TLS) before it accepts mail."""

    port: int
    controller: Controller
    handler: _Collect = field(default_factory=_Collect)

    @property
    def mails(self) -> list[tuple[str | None, list[str], bytes]]:
        with self.handler.lock:
            return list(self.handler.mails)

    def clear(self) -> None:
        with self.handler.lock:
            self.handler.mails.clear()

    def stop(self) -> None:
        self.controller.stop()


def start_smtp(cert: Path, key: Path, implicit: bool) -> SMTPServer:
    """STARTTLS offered (``implicit=False``) or TLS from the start (``implicit=True``);
    either way AUTH is required and only allowed over TLS."""
    port = free_port()
    handler = _Collect()
    ctx = server_context(cert, key)
    common = dict(hostname="127.0.0.1", port=port, auth_required=True, auth_require_tls=True,
                  authenticator=_authenticator, ready_timeout=10)
    if implicit:
        controller: Controller = _ImplicitTLSController(handler, ssl_context=ctx, **common)
    else:
        controller = Controller(handler, tls_context=ctx, require_starttls=True, **common)
    controller.start()
    return SMTPServer(port, controller, handler)


@dataclass
class IMAPServer:
    """pymap with STARTTLS on ``port``, and an implicit-TLS front on ``tls_port``."""

    port: int
    tls_port: int
    proc: subprocess.Popen
    front: _TLSFront

    def stop(self) -> None:
        self.front.stop()
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class _TLSFront:
    """Implicit TLS in front of pymap (which itself only offers STARTTLS): accepts TLS
    connections and relays the decrypted bytes to pymap's plain port."""

    def __init__(self, ctx: ssl.SSLContext, target: int) -> None:
        self.ctx, self.target = ctx, target
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.AbstractServer | None = None

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        with contextlib.suppress(Exception):
            writer.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_w), self._pipe(up_r, writer))

    def start(self) -> None:
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._client, "127.0.0.1", self.port, ssl=self.ctx),
            self.loop).result(10)

    async def _shutdown(self) -> None:
        if self.server is not None:
            self.server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def start_imap(cert: Path, key: Path, user: str, password: str) -> IMAPServer:
    """pymap (in-memory) offering STARTTLS with ``cert``; LOGIN as ``user``/``password``."""
    port = free_port()
    pymap = Path(sys.executable).with_name("pymap")
    proc = subprocess.Popen(
        [str(pymap), "--host", "127.0.0.1", "--port", str(port), "--cert", str(cert),
         "--key", str(key), "dict", "--demo-user", user, "--demo-password", password],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ),
    )
    _wait_port(port, proc, "pymap")
    front = _TLSFront(server_context(cert, key), port)
    front.start()
    return IMAPServer(port, front.port, proc, front)
