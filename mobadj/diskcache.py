"""What a process would otherwise build afresh at every start, kept on disk between runs.

A batch or a CLI command should print its first result in a blink, but reading a map's YAML
and building the order grammar's parse tables take longer than adjudicating thousands of
phases.  Both are pure functions of their sources, so their results are kept here, each
under a name that is a hash of everything it is built from (the source text, the code that
reads it, the Python version): a changed map or a new mobadj never meets a stale entry.
Each entry carries a checksum: one that cannot be read, is damaged or is not what it should
be is ignored and built again; the cache can only make a start faster, never change a
result.

The directory is ``$MOBADJ_CACHE`` (``off`` disables every disk cache of this module), else
``$XDG_CACHE_HOME/mobadj`` or ``~/.cache/mobadj``.  Entries are pickles, which may run code
when read, so a directory that is not the user's own or that others may write to is never
read; one that cannot be written is simply not used.
"""

from __future__ import annotations

import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Any

try:  # hashlib's own BLAKE2: importing hashlib loads OpenSSL too, a few ms of every start
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

MAGIC = b"mobadj-cache 2\n"
KEEP = 32
"""Entries kept of each kind (older ones are deleted when a new one is written)."""


def note(message: str, *args: object) -> None:
    """Log (``mobadj.cache``, level INFO) why an entry was not used; logging is imported
    only then, so that a start does without it."""
    import logging

    logging.getLogger("mobadj.cache").info(message, *args)


def cache_directory(env_name: str, *default: str) -> Path | None:
    """A cache directory: ``$env_name`` when set (``off`` or empty: None, no cache), else
    ``default`` under ``$XDG_CACHE_HOME/mobadj`` or ``~/.cache/mobadj``."""
    env = os.environ.get(env_name)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(xdg) if xdg else Path.home() / ".cache"
    except RuntimeError:  # no home directory
        return None
    return root.joinpath("mobadj", *default)


def cache_root() -> Path | None:
    """The directory of the disk caches, or None when they are off."""
    return cache_directory("MOBADJ_CACHE")


def _hash(data: bytes) -> Any:
    """A 256-bit BLAKE2b hash of ``data`` (more can be added with ``update``)."""
    return blake2b(data, digest_size=32)


def fingerprint(*parts: str | bytes) -> str:
    """A hash naming an entry: of ``parts`` and of the Python version (pickles and compiled
    tables may differ between versions)."""
    digest = _hash(sys.version.encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def source_of(*modules: str) -> bytes:
    """The source text of the named modules (a fingerprint part: the code that builds an
    entry); empty for a module without a source file."""
    out = []
    for name in modules:
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        try:
            out.append(Path(path).read_bytes() if path else b"")
        except OSError:
            out.append(b"")
    return b"\0".join(out)


def folder(kind: str) -> Path | None:
    """The directory of one kind of entry, made if missing; None when there is no usable
    cache (off, not writable, or not safe to read)."""
    root = cache_root()
    if root is None:
        return None
    path = root / kind
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        for where in (root, path):
            info = where.stat()
            if hasattr(os, "getuid") and (
                    info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                return None  # someone else could plant an entry
    except OSError:
        return None
    return path


def entry_path(kind: str, key: str) -> Path | None:
    """Where the entry ``key`` of ``kind`` is kept (None: no usable cache)."""
    where = folder(kind)
    return None if where is None else where / f"{key}.pickle"


def load(kind: str, key: str) -> Any:
    """The value stored under ``key``, or None when there is none that can be read."""
    path = entry_path(kind, key)
    if path is None:
        return None
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    head = MAGIC + key.encode() + b"\n"
    if not blob.startswith(head):
        return None
    digest, _, payload = blob[len(head):].partition(b"\n")
    if digest != _hash(payload).hexdigest().encode():
        return None  # damaged
    try:
        return pickle.loads(payload)
    except Exception as exc:  # written by other code: built again
        note("cache entry %s/%s not read (%s): built again", kind, key[:12], exc)
        return None


def store(kind: str, key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` (written whole or not at all; errors are ignored)."""
    path = entry_path(kind, key)
    if path is None:
        return
    try:
        payload = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # not picklable: nothing is kept
        note("cache entry %s/%s not kept: %s", kind, key[:12], exc)
        return
    blob = b"%s%s\n%s\n%s" % (MAGIC, key.encode(), _hash(payload).hexdigest().encode(), payload)
    try:
        import tempfile  # only when writing: a warm start never needs it

        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(blob)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        prune(path.parent)
    except OSError:
        pass  # read-only or full disk: the cache is only a cache


def prune(where: Path, keep: int = KEEP) -> None:
    """Delete all but the ``keep`` entries of a directory most recently written (entries of
    maps and grammars that were edited since, or of older versions of mobadj)."""
    try:
        entries = sorted(where.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[keep:]:
            old.unlink()
    except OSError:
        pass  # another process pruned first
