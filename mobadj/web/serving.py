"""How ``mobadj web`` is served: uvicorn, with a limit on the time a request may take to
arrive.  uvicorn closes an idle kept-alive connection but waits for ever for a request that
is sent slowly (a byte now and then, or half a request and nothing more): a few hundred such
connections would hold the server's sockets.  Here a request's head and body must be in
within :data:`REQUEST_TIMEOUT` seconds of their first byte (of the connection, for the first
request), or the connection is closed.

A request's head is read up to a limit, as a web server in front of the pages reads it: a
request line longer than :data:`MAX_REQUEST_LINE` bytes is answered *414 URI Too Long*, header
fields longer than :data:`MAX_HEADER_FIELDS` bytes together *431 Request Header Fields Too
Large*, whether they arrive at once or a piece at a time (the connection is closed after the
answer; other connections are not touched).  A request target in absolute form
(``GET http://host/g/x/ HTTP/1.1``, RFC 9112 section 3.2.2) is served as its path and query,
its authority taking the Host header's place; a target of any other form but a path (or
``*``) is refused with *400*."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from mobadj.errors import WebError

REQUEST_TIMEOUT = 10.0  # seconds for a whole request (head and body) to arrive
MAX_REQUEST_LINE = 8192  # bytes of a request line (method, target, version) read at most
MAX_HEADER_FIELDS = 32_768  # bytes of a request's header fields, together, read at most
REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}
_ABSOLUTE = re.compile(rb"^https?://(?P<authority>[^/?#]*)(?P<rest>[^#]*)", re.I)


class Refused(WebError, h11.RemoteProtocolError):
    """A request the pages will not read: its status and the words that say why (h11's
    protocol error, so that uvicorn answers it as one)."""


class HeadReader(h11.Connection):
    """h11's connection, reading a request's head within the limits above, and a target in
    absolute form as its path."""

    def __init__(self) -> None:
        # h11 gives up on an unfinished head past this size: by then one limit is passed
        super().__init__(h11.SERVER, MAX_REQUEST_LINE + MAX_HEADER_FIELDS + 4)
        self.refused: Refused | None = None

    def next_event(self) -> Any:
        try:
            event = super().next_event()
            if isinstance(event, h11.Request):
                event = self._read_head(event)
        except Refused as exc:
            self.refused = exc
            raise
        except h11.RemoteProtocolError as exc:
            if exc.error_status_hint == 431:  # an unfinished head too long: which part?
                first_line = self.trailing_data[0].split(b"\n", 1)
                if len(first_line) == 1 or len(first_line[0]) > MAX_REQUEST_LINE:
                    self.refused = too_long_line()
                else:
                    self.refused = too_many_fields()
                raise self.refused from None
            raise
        return event

    def _read_head(self, event: h11.Request) -> h11.Request:
        if len(event.method) + len(event.target) + 10 > MAX_REQUEST_LINE:
            raise too_long_line()
        if sum(len(k) + len(v) + 4 for k, v in event.headers.raw_items()) > MAX_HEADER_FIELDS:
            raise too_many_fields()
        if event.target.startswith(b"/") or event.target == b"*":
            return event
        found = _ABSOLUTE.match(event.target)
        host = found.group("authority").rpartition(b"@")[2] if found else b""
        if not host:
            raise Refused("The request's target is neither a path nor an http(s) address: "
                          "these pages serve paths only.", error_status_hint=400)
        rest = found.group("rest") if found else b""
        headers = [(k, v) for k, v in event.headers if k != b"host"] + [(b"host", host)]
        try:
            return h11.Request(method=event.method, target=rest if rest.startswith(b"/")
                               else b"/" + rest, headers=headers,
                               http_version=event.http_version)
        except h11.LocalProtocolError:  # a host that no Host header may carry
            raise Refused("The request's target names a host that cannot be read.",
                          error_status_hint=400) from None


def too_long_line() -> Refused:
    return Refused(f"The address asked for is longer than {MAX_REQUEST_LINE} bytes: no "
                   "page here has an address so long.", error_status_hint=414)


def too_many_fields() -> Refused:
    return Refused(f"The request's header fields are longer than {MAX_HEADER_FIELDS} bytes "
                   "together: too long to be read (a browser's cookies for another site "
                   "on this address?).", error_status_hint=431)


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request to arrive."""

    request_timeout = REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None
    conn: HeadReader

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = HeadReader()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # the whole request is in: the page may take its time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request h11 cannot read, with the status and the words of
        a request refused here (414, 431, 400)."""
        refused, self.conn.refused = self.conn.refused, None
        if refused is None:
            super().send_400_response(msg)
            return
        status = refused.error_status_hint
        body = str(refused).encode() + b"\n"
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
                   (b"content-length", str(len(body)).encode()),
                   (b"x-content-type-options", b"nosniff")]
        for event in (h11.Response(status_code=status, headers=headers, reason=REASONS[status]),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def server_config(app: Any, host: str, port: int,
                  request_timeout: float = REQUEST_TIMEOUT) -> uvicorn.Config:
    """uvicorn's settings for the pages: the timed protocol, no server header, warnings only.
    Behind a proxy on the same machine (127.0.0.1) its ``X-Forwarded-Proto`` is believed, so
    a key's cookie is ``Secure`` when the visitor came by HTTPS.  uvicorn's own logging
    setup is left out (``log_config=None``): its lines, a failed request's traceback
    above all, go where ``mobadj web`` logs (judge-web.log), which the 500 page names."""
    class Protocol(TimedH11Protocol):
        pass

    Protocol.request_timeout = request_timeout
    return uvicorn.Config(app, host=host, port=port, http=Protocol, log_level="warning",
                          log_config=None, server_header=False)
