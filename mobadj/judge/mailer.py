"""Mail out: the outbox of the store sent over SMTP (aiosmtplib), one connection per batch.

Each queued mail is marked sent right after the server accepted it.  A crash between the
two can send a mail twice (never lose one); its Message-ID is stable (built from the
outbox id), so a duplicate is recognisable.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import ssl
from collections.abc import Callable
from email import encoders
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import formataddr, formatdate

import aiosmtplib

from mobadj.judge.config import ServerConfig, TLSTrustError
from mobadj.judge.store import Mail, Store

log = logging.getLogger("mobadj.judge.mailer")


def store_token(store: Store) -> str:
    """A random token of this store, so outgoing Message-IDs are unique across judges."""
    row = store.db.execute("SELECT value FROM meta WHERE key='token'").fetchone()
    if row:
        return str(row[0])
    token = secrets.token_hex(6)
    store.db.execute("INSERT OR IGNORE INTO meta VALUES ('token', ?)", (token,))
    return str(store.db.execute("SELECT value FROM meta WHERE key='token'").fetchone()[0])


def build_message(mail: Mail, sender: str, name: str, token: str, at: float) -> Message:
    """A plain-text mail with its attachments; headers that stop auto-responders looping.
    (Built with the compat32 classes: several times faster than EmailMessage for bulk mail.)"""
    text = MIMEText(mail.body, "plain", "utf-8")
    if mail.attachments:
        msg: Message = MIMEMultipart("mixed")
        msg.attach(text)
        for filename, mime, data in mail.attachments:
            maintype, _, subtype = mime.partition("/")
            part = MIMEBase(maintype, subtype or "octet-stream")
            part.set_payload(data)
            encoders.encode_base64(part)
            part.add_header("Content-Disposition", "attachment", filename=filename)
            msg.attach(part)
    else:
        msg = text
    msg["From"] = formataddr((name, sender))
    msg["To"] = mail.to
    msg["Subject"] = Header(mail.subject, "utf-8") if not mail.subject.isascii() else mail.subject
    msg["Date"] = formatdate(at, localtime=False)
    domain = sender.split("@", 1)[1] if "@" in sender else "mobadj.invalid"
    msg["Message-ID"] = f"<mobadj.{token}.{mail.id}@{domain}>"
    for key, value in mail.headers.items():
        if key.lower() not in ("from", "to", "subject", "message-id", "date"):
            msg[key] = value
    if "Auto-Submitted" not in msg:
        msg["Auto-Submitted"] = "auto-replied"
    msg["X-Mailer"] = "mobadj judge"
    return msg


class Mailer:
    """Sends the store's outbox through one SMTP server."""

    def __init__(self, server: ServerConfig, sender: str, name: str,
                 clock: Callable[[], float]) -> None:
        self.server = server
        self.sender = sender
        self.name = name
        self.clock = clock

    async def _send(self, store: Store, mails: list[Mail]) -> int:
        s = self.server
        client = aiosmtplib.SMTP(
            hostname=s.host, port=s.port, use_tls=s.tls == "ssl",
            start_tls=s.tls == "starttls", timeout=s.timeout,
            tls_context=s.ssl_context() if s.tls != "none" else None,
        )
        try:
            await client.connect()
        except Exception as exc:
            cause = exc if isinstance(exc, ssl.SSLCertVerificationError) else exc.__cause__
            if isinstance(cause, ssl.SSLCertVerificationError):
                raise TLSTrustError("SMTP", s, cause.verify_message or str(cause)) from None
            raise
        try:
            if s.user:
                await client.login(s.user, s.password)
            token = store_token(store)
            sent = 0
            for mail in mails:
                msg = build_message(mail, self.sender, self.name, token, self.clock())
                await client.sendmail(self.sender, [mail.to], msg.as_bytes())
                with store.transaction():
                    assert mail.id is not None
                    store.mark_sent(mail.id, self.clock())
                sent += 1
            return sent
        finally:
            try:
                await client.quit()
            except Exception:  # the connection may already be gone
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
