"""Mail out: the outbox of the store sent over SMTP (aiosmtplib), one connection per batch.

Each queued mail is marked sent right after the server accepted it.  A crash between the
two can send a mail twice (never lose one); its Message-ID is stable (built from the
outbox id), so a duplicate is recognisable.  It is built with a secret of the store
(:func:`message_id`), so it shows neither the outbox id nor any order: the copies of an
anonymous broadcast must not tell by their numbers which power got none (the sender), nor
the numbers how much mail the judge sent.  A mail the server refuses for good (a 5xx
answer to its recipient or its content, or an address that cannot be written in SMTP) is
set aside with the server's answer and the others go on: one bad address must not hold up
every game's mail.  Temporary refusals (4xx) and network errors stop the batch, to be
tried again.
"""

from __future__ import annotations

import asyncio
import email.errors
import functools
import hashlib
import hmac
import logging
import ssl
from collections.abc import Callable
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.utils import formataddr, formatdate

import aiosmtplib

from mobadj.judge.config import MailServerError, ServerConfig, TLSTrustError
from mobadj.judge.oauth import TokenCommand, TokenError
from mobadj.judge.store import Mail, Store

log = logging.getLogger("mobadj.judge.mailer")
SMTP_ERRORS = (OSError, aiosmtplib.SMTPException)  # network trouble and refusals
# What one mail can raise that is its own problem, not the server's or the network's.
_MAIL_REFUSALS = (aiosmtplib.SMTPRecipientsRefused, aiosmtplib.SMTPDataError, ValueError,
                  email.errors.MessageError)


def refusal(exc: Exception) -> str | None:
    """Why a mail is refused for good, or None when the refusal is temporary (4xx)."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in exc.recipients]
        if not codes or min(codes) < 500:
            return None
        return "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
    if isinstance(exc, aiosmtplib.SMTPDataError):
        return f"{exc.code} {exc.message}" if exc.code >= 500 else None
    return f"cannot be sent ({type(exc).__name__}: {exc})"


class _Headers(HeaderRegistry):
    """The standard header classes, each made once: the registry builds a new class for every
    header it parses, which made bulk mail several times slower than it need be."""

    @functools.cache  # noqa: B019 (one registry for the module's whole life)
    def __getitem__(self, name: str) -> type[BaseHeader]:
        return super().__getitem__(name)


POLICY = policy.default.clone(header_factory=_Headers())  # aiosmtplib sends CRLF


def _put(msg: EmailMessage, name: str, value: str) -> None:
    """Set a header on one line (a line break in a value must not start another header).
    Short plain-ASCII values are written as they are, which spares parsing each one (most
    of the cost of building a mail); others are encoded by the policy (RFC 2047)."""
    value = " ".join(value.split())
    if value.isascii() and len(name) + len(value) < 76:
        msg.set_raw(name, value)
    else:
        msg[name] = value


def message_id(key: str, mail_id: int | None, sender: str) -> str:
    """The Message-ID of the outbox's mail ``mail_id``: the same each time it is sent, but
    without ``key`` (:meth:`~mobadj.judge.store.Store.message_key`) nobody can tell from
    it which mail it is, or which came before another."""
    digest = hmac.new(key.encode(), str(mail_id).encode(), hashlib.sha256).hexdigest()[:32]
    domain = sender.split("@", 1)[1] if "@" in sender else "mobadj.invalid"
    return f"<mobadj.{digest}@{domain}>"


def build_message(mail: Mail, sender: str, name: str, key: str, at: float) -> EmailMessage:
    """A plain-text mail with its attachments; headers that stop auto-responders looping.
    ``key``: the store's secret for Message-IDs."""
    msg = EmailMessage(policy=POLICY)
    _put(msg, "From", formataddr((name, sender)))
    _put(msg, "To", mail.to)
    _put(msg, "Subject", mail.subject)
    _put(msg, "Date", formatdate(at, localtime=False))
    _put(msg, "Message-ID", message_id(key, mail.id, sender))
    for key, value in mail.headers.items():
        if key.lower() not in ("from", "to", "subject", "message-id", "date"):
            _put(msg, key, value)
    if "Auto-Submitted" not in msg:
        _put(msg, "Auto-Submitted", "auto-replied")
    _put(msg, "X-Mailer", "mobadj judge")
    msg.set_content(mail.body)
    for filename, mime, data in mail.attachments:
        maintype, _, subtype = mime.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype or "octet-stream",
                           filename=filename)
    return msg


class Mailer:
    """Sends the store's outbox through one SMTP server."""

    def __init__(self, server: ServerConfig, sender: str, name: str,
                 clock: Callable[[], float]) -> None:
        self.server = server
        self.sender = sender
        self.name = name
        self.clock = clock
        self.tokens = (TokenCommand(server.token_command, server.base_dir)
                       if server.uses_oauth and server.token_command else None)
        #: mail id -> (Message-ID, size) of the mails the server took whose record as sent
        #: failed (a full disk): a judge that goes on serving records them, never sends
        #: them again
        self.unrecorded: dict[int, tuple[str, int]] = {}

    async def _login(self, client: aiosmtplib.SMTP) -> None:
        """AUTH with the password, or XOAUTH2 with the token in hand; a refused token is
        refreshed (the token command runs again) and tried once more."""
        s = self.server
        if self.tokens is None:
            if s.user:
                await client.login(s.user, s.password)
            return
        try:
            try:
                await client.auth_xoauth2(s.user, self.tokens.token())
            except aiosmtplib.SMTPAuthenticationError as exc:
                log.info("SMTP server %s refused the access token (%s %s); asking for a new "
                         "one", s.host, exc.code, exc.message)
                await client.auth_xoauth2(s.user, self.tokens.refresh())
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise MailServerError("SMTP", s, (
                f"XOAUTH2 login refused for user {s.user!r} ({exc.code} {exc.message}); a "
                f"fresh token was refused too: check smtp.token_command and the account's "
                f"SMTP permission")) from None
        except TokenError as exc:
            raise MailServerError("SMTP", s, str(exc)) from None

    async def _send(self, store: Store, mails: list[Mail]) -> int:
        s = self.server
        client = aiosmtplib.SMTP(
            hostname=s.host, port=s.port, use_tls=s.tls == "ssl",
            start_tls=s.tls == "starttls", timeout=s.timeout,
            tls_context=s.ssl_context() if s.tls != "none" else None,
        )
        try:
            await client.connect()
        except SMTP_ERRORS as exc:
            cause = exc if isinstance(exc, ssl.SSLCertVerificationError) else exc.__cause__
            if isinstance(cause, ssl.SSLCertVerificationError):
                raise TLSTrustError("SMTP", s, cause.verify_message or str(cause)) from None
            raise MailServerError("SMTP", s, f"cannot connect ({type(exc).__name__}: {exc})"
                                  ) from None
        try:
            await self._login(client)
            key = store.message_key()
            sent = 0
            for mail in mails:
                assert mail.id is not None
                taken = self.unrecorded.get(mail.id)
                if taken is not None:  # sent before; only its record failed
                    with store.transaction():
                        store.mark_sent(mail.id, self.clock(), *taken)
                    del self.unrecorded[mail.id]
                    sent += 1
                    continue
                try:
                    msg = build_message(mail, self.sender, self.name, key, self.clock())
                    raw = msg.as_bytes()
                    await client.sendmail(self.sender, [mail.to], raw)
                except _MAIL_REFUSALS as exc:
                    why = refusal(exc)
                    if why is None:
                        raise
                    log.warning("mail %d to %r refused for good, set aside: %s", mail.id,
                                mail.to, why)
                    with store.transaction():
                        store.mark_refused(mail.id, self.clock(), why)
                    continue
                self.unrecorded[mail.id] = (str(msg["Message-ID"]), len(raw))
                with store.transaction():  # the record stays; the attachments go
                    store.mark_sent(mail.id, self.clock(), *self.unrecorded[mail.id])
                del self.unrecorded[mail.id]
                sent += 1
            return sent
        except (asyncio.CancelledError, KeyboardInterrupt):
            # the judge is stopping (SIGTERM, Ctrl-C): no QUIT, whose answer may be a mail's
            # whole DATA away; a mail not yet marked sent goes out at the next start
            client.close()
            raise
        finally:
            if client.is_connected:
                try:
                    await client.quit()
                except SMTP_ERRORS as exc:  # the connection may already be gone
                    log.debug("SMTP quit failed (%s); closing the connection", exc)
                    client.close()

    def send_outbox(self, store: Store, limit: int = 2000) -> int:
        """Send every unsent mail; returns how many went out.  Raises on network errors
        (the service retries with back-off; nothing is lost)."""
        mails = store.unsent(limit)
        if not mails:
            return 0
        n = asyncio.run(self._send(store, mails))
        log.info("sent %d mail(s)", n)
        return n
