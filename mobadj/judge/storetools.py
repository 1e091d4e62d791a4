"""``mobadj store check | backup | restore | compact``: the store's care, safe while
``mobadj serve`` and ``mobadj web`` run.

Backups use SQLite's online backup API (``sqlite3.Connection.backup``), which copies a
consistent snapshot while others read and write (WAL); each copy is checked
(``PRAGMA integrity_check``) before it takes its name.  A restore checks the backup the same
way, brings it up to date when an older mobadj made it, keeps the store it replaces beside
it, and writes it into the live file with the same API, so a running judge and the pages see
the restored games at their next read.  The restored store gets a new Message-ID token: mail
sent after the restore never reuses the Message-ID of a mail sent before it.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from mobadj.errors import JudgeServiceError
from mobadj.judge.private import private_file
from mobadj.judge.store import SCHEMA_VERSION, Store, StoreError, store_trouble

BACKUP_PATTERN = "judge-*.sqlite"


class StoreToolError(JudgeServiceError, RuntimeError):
    """A store task that cannot be done; the message says why and what to do."""


@dataclass
class Checked:
    """What ``store check`` found: facts to show, and problems (none: the store is sound)."""

    facts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _connect_ro(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise StoreToolError(f"{path}: no such file")
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)


def integrity(db: sqlite3.Connection) -> list[str]:
    """SQLite's own check of every page and index, and of the references between tables:
    [] when the file is sound."""
    try:
        found = [str(r[0]) for r in db.execute("PRAGMA integrity_check")]
        keys = db.execute("PRAGMA foreign_key_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return [f"not readable as SQLite ({exc})"]
    problems = [] if found == ["ok"] else found[:20]
    problems += [f"{r[0]} row {r[1]} refers to a missing {r[2]}" for r in keys[:20]]
    return problems


def size(path: Path) -> int:
    """Bytes of the store with its write-ahead log."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def megabytes(n: int) -> str:
    return f"{n / 1_000_000:.2f} MB"


def check(path: Path, now: float | None = None) -> Checked:
    """Open the store (bringing it up to date when an older mobadj made it), check it and
    say what it holds."""
    now = time.time() if now is None else now
    out = Checked()
    try:
        store = Store(path)
    except StoreError as exc:
        out.problems.append(str(exc))
        return out
    except sqlite3.OperationalError as exc:  # a full disk
        out.problems.append(store_trouble(path, exc))
        return out
    try:
        if store.upgraded_from is not None:
            out.facts.append(f"brought up to date from schema {store.upgraded_from} to "
                             f"{SCHEMA_VERSION} (the old store is kept as {store.kept_copy})")
        out.problems += integrity(store.db)
        out.facts.append(f"{path}: {megabytes(size(path))}, schema {SCHEMA_VERSION}, "
                         f"{'sound' if not out.problems else 'DAMAGED'}")
        games = store.games()
        by_status: dict[str, int] = {}
        for g in games:
            by_status[g.status] = by_status.get(g.status, 0) + 1
        out.facts.append(f"games: {len(games)}" + (" (" + ", ".join(
            f"{n} {s}" for s, n in sorted(by_status.items())) + ")" if games else ""))
        db = store.db
        waiting = db.execute("SELECT COUNT(*), MIN(created) FROM outbox WHERE sent IS NULL"
                             ).fetchone()
        if waiting[0]:
            hours = (now - float(waiting[1])) / 3600
            out.facts.append(f"outbox: {waiting[0]} mail(s) waiting to be sent, the oldest "
                             f"for {hours:.1f} hours")
            if hours > 24:
                out.problems.append(f"{waiting[0]} mail(s) have waited more than a day in "
                                    "the outbox: is mobadj serve running, and can it reach "
                                    "the SMTP server? (its log says)")
        refused = db.execute("SELECT COUNT(*) FROM outbox WHERE refused IS NOT NULL"
                             ).fetchone()[0]
        if refused:
            out.facts.append(f"outbox: {refused} mail(s) refused for good by the SMTP server "
                             "(mobadj game status shows whose)")
        out.facts.append("mail handled: " + str(store.mail_count()) + "; sent: "
                         + str(db.execute("SELECT COUNT(*) FROM outbox WHERE sent IS NOT "
                                          "NULL").fetchone()[0]))
        out.facts += _table_sizes(db)
    finally:
        store.close()
    return out


def _table_sizes(db: sqlite3.Connection) -> list[str]:
    """The largest tables by bytes on disk (SQLite's dbstat, where this SQLite has it)."""
    try:
        rows = db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name "
                          "HAVING SUM(pgsize) > 65536 ORDER BY 2 DESC LIMIT 6").fetchall()
    except sqlite3.OperationalError:
        return []
    if not rows:
        return []
    return ["largest: " + ", ".join(f"{name} {megabytes(int(n))}" for name, n in rows)]


def _copy(source: sqlite3.Connection, dest: Path, named: Path | None = None) -> None:
    """SQLite's online backup of ``source`` into a new file ``dest``, checked.  A copy that
    cannot be written (a full disk) is removed, and the error names the file (``named``, the
    name the copy was to take, or ``dest``) and the likely cause."""
    try:
        private_file(dest)
        target = sqlite3.connect(str(dest))
        try:
            source.backup(target)
            problems = integrity(target)
        finally:
            target.close()
    except (OSError, sqlite3.OperationalError) as exc:
        dest.unlink(missing_ok=True)
        raise StoreToolError(store_trouble(named or dest, exc) + "; nothing was written"
                             ) from None
    if problems:
        dest.unlink(missing_ok=True)
        raise StoreToolError(f"the copy is not sound ({problems[0]}); nothing was written")


def backup(path: Path, target: str | Path, force: bool = False, keep: int | None = None,
           now: float | None = None) -> Path:
    """Copy the store (online, while the judge runs) to ``target``: a file, or a folder (one
    that exists, a name ending in ``/``, or any with ``keep``) where the copy is named by
    the time (``judge-2026-01-31T030000Z.sqlite``) and only the ``keep`` newest such copies
    stay.  Returns the file written."""
    when = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    dest = Path(target)
    if dest.is_dir() or str(target).endswith(("/", os.sep)) or keep is not None:
        dest.mkdir(parents=True, exist_ok=True)
        folder = dest
        dest = folder / f"judge-{when:%Y-%m-%dT%H%M%SZ}.sqlite"
    else:
        folder = None
    if dest.resolve() == path.resolve():
        raise StoreToolError(f"{dest} is the store itself")
    if dest.exists() and not force:
        raise StoreToolError(f"{dest} exists: give another name, or --force to replace it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{dest.name}.partial")
    source = _connect_ro(path)
    try:
        _copy(source, partial, named=dest)
    finally:
        source.close()
    os.replace(partial, dest)
    if folder is not None and keep is not None:
        for old in sorted(folder.glob(BACKUP_PATTERN))[:-keep or None]:
            old.unlink()
    return dest


def restore(backup_file: Path, path: Path, now: float | None = None) -> tuple[Store, Path | None]:
    """Put a backup in place of the store (online: a running judge and the pages see it at
    their next read).  The backup is checked and brought up to date in a copy first; the
    store it replaces is kept beside it.  Returns the restored store (open, for the caller's
    report) and the kept copy of the replaced one (None when there was no store)."""
    when = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    if backup_file.resolve() == path.resolve():
        raise StoreToolError(f"{backup_file} is the store itself")
    source = _connect_ro(backup_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(f".{path.name}.restoring")
    staged.unlink(missing_ok=True)
    try:
        problems = integrity(source)
        if problems:
            raise StoreToolError(f"{backup_file} is not sound ({problems[0]}); the store was "
                                 "left as it is")
        _copy(source, staged)
    finally:
        source.close()
    try:
        ready = Store(staged)  # a judge store? brought up to date if an older mobadj made it
    except StoreError as exc:
        staged.unlink(missing_ok=True)
        raise StoreToolError(f"{backup_file} cannot be restored: {exc}") from None
    if ready.kept_copy is not None:  # the backup itself is the old store's copy
        ready.kept_copy.unlink()
    with ready.transaction():  # Message-IDs after the restore never repeat earlier ones
        ready.set_meta("token", secrets.token_hex(6))
    ready.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    kept = None
    try:
        if path.exists():
            kept = path.with_name(f"{path.stem}-replaced-{when:%Y-%m-%dT%H%M%SZ}"
                                  f"{path.suffix}")
            live = sqlite3.connect(str(path), timeout=60)
            try:
                _copy(live, kept)
                ready.db.backup(live)  # page by page, under SQLite's locks
            finally:
                live.close()
        else:
            _copy(ready.db, path)
    finally:
        ready.close()
        for leftover in (staged, staged.with_name(staged.name + "-wal"),
                         staged.with_name(staged.name + "-shm")):
            leftover.unlink(missing_ok=True)
    return Store(path), kept


def compact(path: Path, retention_days: float, now: float | None = None
            ) -> tuple[int, int, dict[str, int]]:
    """Drop what the judge no longer needs (:meth:`Store.prune`), then give the free pages
    back to the file system (VACUUM; writers wait for it, readers go on).  Returns the
    size before and after, and what was dropped."""
    now = time.time() if now is None else now
    before = size(path) if path.exists() else 0
    try:
        store = Store(path)
    except sqlite3.OperationalError as exc:  # a full disk: the store is as it was
        raise StoreToolError(store_trouble(path, exc)) from None
    try:
        with store.transaction():
            dropped = store.prune(now, retention_days)
        store.db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # from now on, space goes back
        store.db.execute("VACUUM")  # it needs room for a whole copy of the store
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.db.execute("PRAGMA optimize")
    except sqlite3.OperationalError as exc:
        raise StoreToolError(store_trouble(path, exc) + "; nothing in it was lost"
                             ) from None
    finally:
        store.close()
    return before, size(path), dropped
