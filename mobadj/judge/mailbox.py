"""Mail in: the judge's IMAP mailbox (imapclient), watched with IDLE or by polling.

New mail is found by UID (everything above the highest UID the store has handled), so a
restart never skips or repeats a mail; if the server's UIDVALIDITY changes, the old UIDs
are forgotten and Message-IDs alone keep mail from being handled twice.
"""

from __future__ import annotations

import contextlib
import logging
import ssl
import time
from collections.abc import Iterator

from imapclient import IMAPClient

from mobadj.judge.config import ServerConfig, TLSTrustError

log = logging.getLogger("mobadj.judge.mailbox")
CHUNK = 200


class Mailbox:
    """One connection to the judge's mailbox folder."""

    def __init__(self, server: ServerConfig) -> None:
        self.server = server
        self.client: IMAPClient | None = None
        self.uidvalidity: int | None = None
        self.can_idle = False

    def connect(self) -> None:
        s = self.server
        context = s.ssl_context()
        try:
            client = IMAPClient(s.host, port=s.port, ssl=s.tls == "ssl", ssl_context=context,
                                timeout=s.timeout)
            if s.tls == "starttls":
                client.starttls(context)
        except ssl.SSLCertVerificationError as exc:
            raise TLSTrustError("IMAP", s, exc.verify_message or str(exc)) from None
        client.login(s.user, s.password)
        info = client.select_folder(s.folder)
        self.uidvalidity = int(info.get(b"UIDVALIDITY", 0) or 0)
        self.can_idle = s.idle and client.has_capability("IDLE")
        self.client = client
        log.info("connected to %s:%s/%s (IDLE %s)", s.host, s.port, s.folder,
                 "yes" if self.can_idle else "no")

    def close(self) -> None:
        if self.client is not None:
            try:
                self.client.logout()
            except Exception:  # already broken; dropping it is all we can do
                with contextlib.suppress(Exception):
                    self.client.shutdown()
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

    def fetch(self, uids: list[int]) -> Iterator[tuple[int, bytes]]:
        """(uid, raw bytes) in UID order; BODY.PEEK so fetching does not mark them seen."""
        c = self._c()
        for i in range(0, len(uids), CHUNK):
            part = uids[i:i + CHUNK]
            data = c.fetch(part, ["BODY.PEEK[]"])
            for uid in part:
                item = data.get(uid)
                if item is None:
                    continue
                raw = item.get(b"BODY[]") or b""
                yield uid, bytes(raw)

    def mark_seen(self, uids: list[int]) -> None:
        if uids:
            self._c().add_flags(uids, [b"\\Seen"], silent=True)

    def wait(self, timeout: float) -> None:
        """Wait for new mail: IDLE when the server has it, otherwise sleep (polling)."""
        c = self._c()
        if self.can_idle:
            c.idle()
            try:
                c.idle_check(timeout=max(0.05, timeout))
            finally:
                c.idle_done()
        else:
            time.sleep(max(0.0, timeout))
            c.noop()
