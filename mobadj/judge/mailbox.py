"""Mail in: the judge's IMAP mailbox (imapclient), watched with IDLE or by polling.

New mail is found by UID (everything above the highest UID the store has handled), so a
restart never skips or repeats a mail; if the server's UIDVALIDITY changes, the old UIDs
are forgotten and Message-IDs alone keep mail from being handled twice.

IDLE is waited on with ``select`` on the socket, and left with ``idle_done``, which reads the
server's untagged responses (``* 4 FETCH (FLAGS (\\Recent))``) as whole lines.  imapclient's
``idle_check`` reads them from a non-blocking socket and can see half a line when the server
writes one in pieces (pymap does), which broke the connection (imapclient issue 519).
"""

from __future__ import annotations

import contextlib
import datetime
import imaplib
import logging
import select
import socket
import ssl
import time
from collections.abc import Iterator

from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from mobadj.judge.config import ConfigError, MailServerError, ServerConfig, TLSTrustError
from mobadj.judge.oauth import TokenCommand, TokenError, server_error, xoauth2_string

log = logging.getLogger("mobadj.judge.mailbox")
CHUNK = 200
IMAP_ERRORS = (OSError, imaplib.IMAP4.error)  # network trouble and protocol errors


class Mailbox:
    """One connection to the judge's mailbox folder."""

    def __init__(self, server: ServerConfig) -> None:
        self.server = server
        self.client: IMAPClient | None = None
        self.uidvalidity: int | None = None
        self.can_idle = False
        self.connects = 0  # connections made: the first and every reconnect
        self.tokens = (TokenCommand(server.token_command, server.base_dir)
                       if server.uses_oauth and server.token_command else None)

    def connect(self) -> None:
        """Log in and select the folder; every failure is a :class:`MailServerError` naming
        the server and what went wrong."""
        s = self.server
        client: IMAPClient | None = None
        stage = "cannot connect"
        try:
            client = IMAPClient(s.host, port=s.port, ssl=s.tls == "ssl",
                                ssl_context=s.ssl_context(), timeout=s.timeout)
            _no_delay(client)
            if s.tls == "starttls":
                stage = "STARTTLS failed"
                client.starttls(s.ssl_context())
            stage = "login failed"
            self._login(client)
            stage = f"cannot open folder {s.folder!r}"
            info = client.select_folder(s.folder)
        except ssl.SSLCertVerificationError as exc:
            self._drop(client)
            raise TLSTrustError("IMAP", s, exc.verify_message or str(exc)) from None
        except LoginError as exc:
            self._drop(client)
            how = "XOAUTH2 login" if self.tokens is not None else "login"
            hint = ("; a fresh token was refused too: check imap.token_command and the "
                    "account's IMAP permission" if self.tokens is not None else "")
            raise MailServerError("IMAP", s, f"{how} refused for user {s.user!r} "
                                             f"({_reason(exc)}){hint}") from None
        except ConfigError:  # the password's environment variable is not set
            self._drop(client)
            raise
        except TokenError as exc:
            self._drop(client)
            raise MailServerError("IMAP", s, str(exc)) from None
        except IMAP_ERRORS as exc:
            self._drop(client)
            raise MailServerError("IMAP", s, f"{stage} ({_reason(exc)})"
                                  ) from None
        self.uidvalidity = int(info.get(b"UIDVALIDITY", 0) or 0)
        self.can_idle = s.idle and client.has_capability("IDLE")
        self.client = client
        self.connects += 1
        log.info("connected to %s:%s/%s (IDLE %s)", s.host, s.port, s.folder,
                 "yes" if self.can_idle else "no")

    def _login(self, client: IMAPClient) -> None:
        """LOGIN with the password, or AUTHENTICATE XOAUTH2 with the token in hand; a
        refused token is refreshed (the token command runs again) and tried once more."""
        s = self.server
        if self.tokens is None:
            client.login(s.user, s.password)
            return
        try:
            _xoauth2(client, s.user, self.tokens.token())
        except LoginError as exc:
            log.info("IMAP server %s refused the access token (%s); asking for a new one",
                     s.host, exc)
            _xoauth2(client, s.user, self.tokens.refresh())

    @staticmethod
    def _drop(client: IMAPClient | None) -> None:
        """Close a connection that is broken or half made, quietly (it is being replaced)."""
        if client is None:
            return
        try:
            client.shutdown()
        except IMAP_ERRORS as exc:
            log.debug("closing a broken IMAP connection: %s", exc)

    def close(self, timeout: float | None = None) -> None:
        """LOGOUT and close (``timeout``: the most seconds to wait for the server's answers,
        when the judge is stopping; else the connection's own)."""
        if self.client is not None:
            try:
                if timeout is not None:
                    self.client.socket().settimeout(timeout)
                self.client.logout()
            except IMAP_ERRORS as exc:  # already broken; dropping it is all we can do
                log.debug("IMAP logout failed (%s); dropping the connection", exc)
                self._drop(self.client)
        self.client = None

    def _c(self) -> IMAPClient:
        if self.client is None:
            self.connect()
        assert self.client is not None
        return self.client

    def new_uids(self, after: int) -> list[int]:
        """UIDs above ``after``, ascending."""
        c = self._c()
        c.noop()  # some servers show mail appended by others only after a NOOP
        uids = c.search(["UID", f"{after + 1}:*"])
        return sorted(u for u in uids if u > after)

    def fetch(self, uids: list[int]) -> Iterator[tuple[int, bytes, float | None]]:
        """(uid, raw bytes, when the server received it) in UID order; BODY.PEEK so
        fetching does not mark them seen.  The time is the server's INTERNALDATE (None when
        it gives none): the judge applies the deadlines that passed before a mail came
        before it reads the mail (:meth:`mobadj.judge.service.Service.step`)."""
        c = self._c()
        for i in range(0, len(uids), CHUNK):
            part = uids[i:i + CHUNK]
            data = c.fetch(part, ["BODY.PEEK[]", "INTERNALDATE"])
            for uid in part:
                item = data.get(uid)
                if item is None:
                    continue
                raw = item.get(b"BODY[]") or b""
                yield uid, bytes(raw), _timestamp(item.get(b"INTERNALDATE"))

    def mark_seen(self, uids: list[int]) -> None:
        if uids:
            self._c().add_flags(uids, [b"\\Seen"], silent=True)

    def expunge(self, uids: list[int]) -> None:
        """Delete these mails from the folder for good (UID EXPUNGE when the server has
        UIDPLUS, so mail others marked deleted is left alone)."""
        if not uids:
            return
        c = self._c()
        for i in range(0, len(uids), CHUNK):
            part = uids[i:i + CHUNK]
            c.delete_messages(part, silent=True)
            if c.has_capability("UIDPLUS"):
                c.uid_expunge(part)
            else:
                c.expunge()

    def wait(self, timeout: float, after: int | None = None) -> None:
        """Wait for new mail: IDLE when the server has it, otherwise sleep (polling).  With
        ``after`` (the highest UID handled), mail above it that came while the judge was
        busy ends the wait at once: the server announced it in its answer to an earlier
        command, and IDLE reports only what comes later."""
        c = self._c()
        if self.can_idle and after is not None and self.new_uids(after):
            return
        if not self.can_idle:
            time.sleep(max(0.0, timeout))
            c.noop()
            return
        c.idle()
        try:
            if not self._buffered(c):
                select.select([c.socket()], [], [], max(0.05, timeout))
        except BaseException:
            # stopped (SIGTERM, Ctrl-C) or the network failed while waiting: the connection
            # is dropped, not ended with DONE and LOGOUT, whose answers could keep the
            # judge waiting; a new one is made when needed
            self.client = None
            self._drop(c)
            raise
        c.idle_done()  # blocking reads of whole lines up to the server's tagged OK

    @staticmethod
    def _buffered(c: IMAPClient) -> bool:
        """Has the server already sent something that sits in a buffer, where ``select`` on
        the socket cannot see it (read along with the IDLE continuation, or kept by TLS)?"""
        sock = c.socket()
        if isinstance(sock, ssl.SSLSocket) and sock.pending():
            return True
        reader = getattr(getattr(c, "_imap", None), "file", None)
        peek = getattr(reader, "peek", None)
        if peek is None:
            return False
        timeout = sock.gettimeout()
        sock.setblocking(False)
        try:
            return bool(peek(1))  # what is buffered, or one read that must not block
        except (BlockingIOError, ssl.SSLWantReadError):
            return False
        finally:
            sock.settimeout(timeout)


def _no_delay(client: IMAPClient) -> None:
    """Send each command at once (TCP_NODELAY): imapclient writes a command in pieces, and
    with Nagle's algorithm the last piece waits for the server's delayed acknowledgement,
    about 40 ms on every SEARCH."""
    with contextlib.suppress(OSError):  # not a TCP socket: it sends as it can
        client.socket().setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _xoauth2(client: IMAPClient, user: str, token: str) -> None:
    """AUTHENTICATE XOAUTH2.  A server that refuses the token says why in a challenge (base64
    JSON), which is answered with an empty line to get its final NO (Gmail's protocol);
    imapclient's ``oauth2_login`` would send the token again instead."""
    errors: list[str] = []

    def answer(challenge: bytes) -> bytes:
        if errors or challenge:
            errors.append(server_error(challenge))
            return b""
        errors.append("")
        return xoauth2_string(user, token)

    try:
        client._command_and_check("authenticate", "XOAUTH2", answer)
    except imaplib.IMAP4.error as exc:
        said = next((e for e in errors if e), "")
        raise LoginError(f"{_reason(exc)}{f'; {said}' if said else ''}") from None


def _reason(exc: BaseException) -> str:
    """Why an IMAP step failed, as plain text: the system's words for a network error
    (``Connection refused``), else the error's name and the server's message."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    arg = exc.args[0] if exc.args else ""
    text = arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _timestamp(value: object) -> float | None:
    """An INTERNALDATE as imapclient gives it (a datetime, naive in local time) in seconds."""
    if isinstance(value, datetime.datetime):
        try:
            return value.timestamp()
        except (OverflowError, OSError, ValueError):  # a server's date out of range
            return None
    return None
