"""How ``mobadj web`` is served: uvicorn, with a limit on the time a request may take to
arrive.  uvicorn closes an idle kept-alive connection but waits for ever for a request that
is sent slowly (a byte now and then, or half a request and nothing more): a few hundred such
connections would hold the server's sockets.  Here a request's head and body must be in
within :data:`REQUEST_TIMEOUT` seconds of their first byte (of the connection, for the first
request), or the connection is closed."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 10.0  # seconds for a whole request (head and body) to arrive


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request to arrive."""

    request_timeout = REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

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
