"""Pages, maps and static files as they go out: each compressed once, then served from that.

A map of 180 KB takes about 13 ms of CPU to gzip at the best level: done on every request
(as a compressing middleware does) it would cost more than serving the map.  Here a body's
gzip is made the first time a request takes gzip and kept with the body (a map for as long
as the map is kept, a page by its digest, as a page that has not changed is the same text);
each answer picks the identity or the gzip bytes by the request's ``Accept-Encoding``, and
an ``If-None-Match`` with the body's ETag is answered 304 without a body.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
from collections import OrderedDict

from starlette.requests import Request
from starlette.responses import Response

GZIP_FROM = 512  # bytes: smaller bodies go out as they are (gzip gains nothing on them)


class Body:
    """What a page or map sends: its bytes, their ETag, and the same gzipped."""

    def __init__(self, data: bytes, digest: bytes | None = None) -> None:
        self.data = data
        self.etag = f'"{(digest or hashlib.sha256(data).digest()).hex()[:32]}"'

    @property
    def worth_gzip(self) -> bool:
        return len(self.data) >= GZIP_FROM

    @functools.cached_property
    def gzipped(self) -> bytes:
        """Made once, at the best level (``mtime=0``: the same bytes every time)."""
        return gzip.compress(self.data, 9, mtime=0)

    @property
    def gzip_etag(self) -> str:
        """The gzipped bytes are another representation: another tag."""
        return self.etag[:-1] + '-gz"'

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")


class Bodies:
    """The bodies of the pages served last, by their digest: a page rendered again with the
    same text is not compressed again."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._by_digest: OrderedDict[bytes, Body] = OrderedDict()

    def of(self, text: str) -> Body:
        data = text.encode("utf-8")
        digest = hashlib.sha256(data).digest()
        body = self._by_digest.get(digest)
        if body is None:
            body = self._by_digest[digest] = Body(data, digest)
            while len(self._by_digest) > self.size:
                self._by_digest.popitem(last=False)
        else:
            self._by_digest.move_to_end(digest)
        return body


def accepts_gzip(header: str) -> bool:
    """Does an ``Accept-Encoding`` value take gzip (``gzip``, ``x-gzip`` or ``*``, with a
    q-value above 0)?"""
    for part in header.split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        if coding.lower() not in ("gzip", "x-gzip", "*"):
            continue
        q = next((p[2:] for p in params if p.lower().startswith("q=")), "1")
        try:
            if float(q) > 0:
                return True
        except ValueError:
            continue
    return False


def answer(request: Request, body: Body, media_type: str, headers: dict[str, str],
           status: int = 200) -> Response:
    """The answer with ``body``: gzipped when the request takes it, 304 when the request
    already has this version."""
    headers = dict(headers)
    zipped = body.worth_gzip and accepts_gzip(request.headers.get("accept-encoding", ""))
    if body.worth_gzip:
        headers["Vary"] = "Accept-Encoding"
    if status == 200:
        tag = body.gzip_etag if zipped else body.etag
        headers["ETag"] = tag
        wanted = request.headers.get("if-none-match", "")
        if tag in (t.strip().removeprefix("W/") for t in wanted.split(",")):
            return Response(status_code=304, headers=headers)
    if zipped:
        headers["Content-Encoding"] = "gzip"
        return Response(body.gzipped, status, headers, media_type)
    return Response(body.data, status, headers, media_type)
