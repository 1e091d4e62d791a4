"""Files for their owner's eyes only: a card game's save and key, a judge game's export.

Written whole or not at all: into a new file beside the target, readable by its owner alone
(mode 0600, whatever the umask), then moved over it.  A write that fails half-way (a full
disk) leaves the old file as it was, and a file there before never keeps its old rights."""

from __future__ import annotations

import os
from pathlib import Path


def write_privately(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` for its owner alone, whole or not at all."""
    raw = data.encode() if isinstance(data, str) else data
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
