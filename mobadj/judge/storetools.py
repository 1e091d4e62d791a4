"""``mobadj store check | backup | restore | compact``: the store's care, safe while
``mobadj serve`` and ``mobadj web`` run.

Backups use SQLite's online backup API (``sqlite3.Connection.backup``), which copies a
consistent snapshot while others read and write (WAL); each copy is checked
(``PRAGMA integrity_check``) before it takes its name.  A restore checks the backup the same
way, brings it up to date when an older mobadj made it, keeps the store it replaces beside
it, and writes it into the live file with the same API, so a running judge and the pages see
the restored games at their next read.  A live store that SQLite cannot read whole (cut
short, pages overwritten, an empty file) is kept aside byte for byte and replaced whole.
The restored store gets a new Message-ID token: mail sent after the restore never reuses
the Message-ID of a mail sent before it.
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import shutil
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from mobadj.errors import JudgeServiceError
from mobadj.judge.private import COMPANIONS, private_dir, private_file
from mobadj.judge.store import (
    SCHEMA_VERSION,
    Store,
    StoreDamaged,
    StoreError,
    damaged,
    refuse_empty,
    schema_of,
    store_trouble,
)

BACKUP_NAME = re.compile(r"judge-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite")
"""The name of a backup ``store backup`` writes into a folder: only these count for --keep
(never the store's kept copies, ``judge-replaced-...``, ``judge-schema1``, or the GM's own
files)."""


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


def _companions(path: Path) -> list[Path]:
    return [path.with_name(path.name + end) for end in COMPANIONS]


@contextmanager
def _reading(path: Path, tidy: bool = False) -> Iterator[sqlite3.Connection]:
    """``path`` open for reading only.  ``tidy`` (a backup, which no judge uses): the
    ``-wal`` and ``-shm`` files SQLite makes beside a file it reads are removed after, when
    they were not there before and nothing was written into them, so the backups' folder is
    left as it was found.  (Never beside the live store: a judge may have opened them.)"""
    before = {p for p in _companions(path) if p.exists()}
    db = _connect_ro(path)
    try:
        yield db
    finally:
        db.close()
        made = [p for p in _companions(path) if p not in before and p.exists()]
        if tidy and all(p.stat().st_size == 0 for p in made if p.name.endswith("-wal")):
            for one in made:
                one.unlink(missing_ok=True)


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
    try:  # read only first: a damaged store is not written into
        refuse_empty(path)
        with _reading(path) as db:
            schema_of(db, path)
            damage = integrity(db)
    except StoreError as exc:
        out.problems.append(str(exc))
        return out
    if damage:
        out.facts.append(f"{path}: {megabytes(size(path))}, DAMAGED")
        out.problems += [*damage, f"{path} is damaged: restore the latest backup with "
                         "mobadj store restore"]
        return out
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
        out.facts.append(f"{path}: {megabytes(size(path))}, schema {SCHEMA_VERSION}, sound")
        _describe(store, out, now)
    finally:
        store.close()
    return out


def _describe(store: Store, out: Checked, now: float) -> None:
    """What ``check`` says the store holds: games, the outbox, mail handled, large tables."""
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


def _copy(source: sqlite3.Connection, dest: Path, named: Path | None = None,
          source_name: Path | None = None) -> None:
    """SQLite's online backup of ``source`` into a new file ``dest``, checked.  A copy that
    cannot be written (a full disk) is removed, and the error names the file (``named``, the
    name the copy was to take, or ``dest``) and the likely cause; a source SQLite cannot
    read whole is named (``source_name``) as damaged."""
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
    except sqlite3.DatabaseError as exc:  # the source cannot be read: it is damaged
        dest.unlink(missing_ok=True)
        raise StoreToolError(damaged(source_name or "the store", exc)) from None
    if problems:
        dest.unlink(missing_ok=True)
        raise StoreToolError(f"{source_name or 'the store'} is not sound ({problems[0]}); "
                             "nothing was written")


def _prune(folder: Path, keep: int, written: Path) -> None:
    """Keep the ``keep`` newest backups ``store backup`` wrote into ``folder`` (by their
    name, the time), the one just ``written`` always; remove the others with their SQLite
    companions.  Nothing else in the folder is touched."""
    others = sorted(p for p in folder.iterdir()
                    if BACKUP_NAME.fullmatch(p.name) and p.name != written.name)
    for old in others[:max(len(others) - (keep - 1), 0)]:
        for one in (old, *_companions(old)):
            one.unlink(missing_ok=True)


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
    try:
        refuse_empty(path)
    except StoreError as exc:
        raise StoreToolError(f"{exc}; nothing was written") from None
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{dest.name}.partial")
    source = _connect_ro(path)
    try:
        _copy(source, partial, named=dest, source_name=path)
    finally:
        source.close()
    os.replace(partial, dest)
    if folder is not None and keep is not None:
        _prune(folder, keep, dest)
    return dest


@dataclass
class Restored:
    """What a restore did: the restored store (open, for the caller's report), the schema
    the backup had when an older mobadj made it, and what became of the store replaced."""

    store: Store
    upgraded_from: int | None = None
    kept: Path | None = None  # the replaced store, kept beside it
    damage: str | None = None  # why the replaced store was damaged (it was replaced whole)
    was_empty: bool = False  # the replaced store was an empty file: nothing to keep


def _live_damage(path: Path) -> str | None:
    """Why SQLite cannot read the store at ``path`` whole (None: it can)."""
    if path.stat().st_size == 0:
        return "an empty file (0 bytes)"
    try:
        with _reading(path) as db:
            schema_of(db, path)
            problems = integrity(db)
    except StoreDamaged as exc:
        return exc.why
    except StoreError as exc:  # not a judge store
        return str(exc).removeprefix(f"{path}: ")
    return problems[0] if problems else None


def _keep_whole(path: Path, kept: Path) -> None:
    """Copy the store at ``path`` (and its write-ahead log) byte for byte to ``kept``: what
    SQLite cannot read is kept as it was, for whoever wants to look into it."""
    try:
        for src, dst in ((path, kept), (path.with_name(path.name + "-wal"),
                                        kept.with_name(kept.name + "-wal"))):
            if src.exists() and src.stat().st_size:
                private_file(dst)
                shutil.copyfile(src, dst)
    except OSError as exc:
        for one in (kept, *_companions(kept)):
            one.unlink(missing_ok=True)
        raise StoreToolError(store_trouble(kept, exc) + f"; {path} was left as it is"
                             ) from None


@contextmanager
def _no_judge_serving(path: Path) -> Iterator[None]:
    """Hold the serving judge's lock while the store file is replaced whole: a judge
    serving it would go on writing into the file replaced (and none may start meanwhile)."""
    lock = path.with_name(path.name + ".lock")  # mobadj.judge.service.lock_path
    private_file(lock)
    held = open(lock, "a+", encoding="utf-8")  # noqa: SIM115 (closed below)
    try:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held.seek(0)
            pid = held.read().strip() or "unknown"
            raise StoreToolError(f"a judge (pid {pid}) is serving {path}: stop it first "
                                 "(systemctl stop mobadj-serve), restore, then start it "
                                 "again; nothing was written") from None
        yield
    finally:
        held.close()


def restore(backup_file: Path, path: Path, now: float | None = None) -> Restored:
    """Put a backup in place of the store (online: a running judge and the pages see it at
    their next read).  The backup is checked and brought up to date in a copy first; the
    store it replaces is kept beside it: through SQLite when it is sound, byte for byte when
    it is damaged (then it is replaced whole, with no judge serving it)."""
    when = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    if backup_file.resolve() == path.resolve():
        raise StoreToolError(f"{backup_file} is the store itself")
    left = "; the store was left as it is"
    if backup_file.is_file() and backup_file.stat().st_size == 0:
        raise StoreToolError(f"{backup_file} is empty (0 bytes): it is no backup{left}")
    with _reading(backup_file, tidy=True) as source:
        problems = integrity(source)
        if problems:
            raise StoreToolError(f"{backup_file} is not sound ({problems[0]}){left}")
        try:
            version = schema_of(source, backup_file)
        except StoreError as exc:
            raise StoreToolError(f"{exc}{left}") from None
        if version is None:
            raise StoreToolError(f"{backup_file} holds no judge store (an SQLite file "
                                 f"without tables){left}")
        if version > SCHEMA_VERSION:
            raise StoreToolError(f"{backup_file}: made by a newer mobadj (store schema "
                                 f"{version}; this one reads up to {SCHEMA_VERSION}): "
                                 f"upgrade mobadj{left}")
        private_dir(path.parent)
        staged = path.with_name(f".{path.name}.restoring")
        for leftover in (staged, *_companions(staged)):
            leftover.unlink(missing_ok=True)
        _copy(source, staged, named=path, source_name=backup_file)
    ready: Store | None = None
    try:
        ready = Store(staged, keep_old=False)  # brought up to date if an older mobadj made it
        with ready.transaction():  # Message-IDs after the restore never repeat earlier ones
            ready.set_meta("token", secrets.token_hex(6))
        ready.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        done = Restored(ready, upgraded_from=ready.upgraded_from)
        damage = _live_damage(path) if path.exists() else None
        if path.exists():
            done.kept = path.with_name(f"{path.stem}-replaced-{when:%Y-%m-%dT%H%M%SZ}"
                                       f"{path.suffix}")
        if damage is None and done.kept is not None:  # sound: written in under its locks
            live = sqlite3.connect(str(path), timeout=60)
            try:
                _copy(live, done.kept, source_name=path)
                ready.db.backup(live)  # page by page, under SQLite's locks
            finally:
                live.close()
        else:  # no store, or one SQLite cannot write into: the file is replaced whole
            ready.close()
            with _no_judge_serving(path):
                if done.kept is not None:
                    done.damage = damage
                    done.was_empty = damage is not None and path.stat().st_size == 0
                    if done.was_empty:
                        done.kept = None
                    else:
                        _keep_whole(path, done.kept)
                for stale in _companions(path):  # they belong to the file replaced
                    stale.unlink(missing_ok=True)
                os.replace(staged, path)
    except sqlite3.OperationalError as exc:  # a full disk
        raise StoreToolError(store_trouble(path, exc) + left) from None
    finally:
        if ready is not None:
            ready.close()
        for leftover in (staged, *_companions(staged)):
            leftover.unlink(missing_ok=True)
    done.store = Store(path)
    return done


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
