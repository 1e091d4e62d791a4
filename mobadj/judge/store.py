"""All of a judge's games in one SQLite file, written in transactions.

What is kept (so any game can be replayed to any point): games with their options, seed
and current state; players with scrypt-hashed passwords, and who held each seat when
(tenures); every handled mail (Message-ID and IMAP UID) and every accepted command; orders
per phase; results with the state before and after; press; an event log; and an outbox of
mails to send.  A mail's effect, its record as handled and the replies it causes are written
in one transaction: exactly once.

The store stays small: a mail the SMTP server took keeps no attachment (their names, sizes
and digests stay: the maps can be drawn again from the stored positions), and after the
judge's ``mail_retention_days`` no text either, only who, when, subject, Message-ID and a
digest (:meth:`Store.prune`).

A store made by an older mobadj is brought up to date when it is opened (a copy of it is
kept first, beside it); one made by a newer mobadj is refused.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import hmac
import json
import logging
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mobadj.errors import JudgeServiceError
from mobadj.judge.private import COMPANIONS, private_dir, private_file

log = logging.getLogger("mobadj.judge.store")

SCHEMA_VERSION = 2
"""1: every store made before tenures and delivered-mail records; 2: tenures, GM-entered
orders, seats offered for TAKEOVER, the outbox's delivery record, attachments kept once."""

LASTING_IDS = ("outbox", "results")
"""Tables whose row ids name things outside the store: a sent mail's Message-ID is made from
its outbox id, and a running ``mobadj web`` keeps a result's pictures under its id.  An id
once given is never given again, not even after ``mobadj game delete`` removed the rows with
the highest ids (SQLite alone would give those again)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,            -- forming | active | paused | ended
    options TEXT NOT NULL,           -- JSON
    seed INTEGER NOT NULL,
    state TEXT,                      -- JSON, the host's state of the current phase
    phase TEXT NOT NULL DEFAULT '',
    deadline REAL,                   -- epoch seconds UTC
    paused_until REAL,
    pause_left REAL,                 -- seconds left on the deadline when paused
    reminded INTEGER NOT NULL DEFAULT 0,
    extended INTEGER NOT NULL DEFAULT 0,
    gm_email TEXT NOT NULL,
    gm_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    game TEXT NOT NULL REFERENCES games(name),
    power TEXT NOT NULL,
    email TEXT NOT NULL,
    pw_hash TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',   -- active | disorder | out
    nmr_total INTEGER NOT NULL DEFAULT 0,
    nmr_streak INTEGER NOT NULL DEFAULT 0,
    absence_used REAL NOT NULL DEFAULT 0,    -- hours of absence taken
    ready INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, power)
);
CREATE TABLE IF NOT EXISTS mails (
    message_id TEXT PRIMARY KEY,
    uid INTEGER,
    sender TEXT,
    subject TEXT,
    handled REAL NOT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS mails_uid ON mails(uid);
CREATE TABLE IF NOT EXISTS commands (
    id INTEGER PRIMARY KEY,
    game TEXT, power TEXT, message_id TEXT, uid INTEGER,
    kind TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
    game TEXT NOT NULL, phase TEXT NOT NULL, power TEXT NOT NULL,
    text TEXT NOT NULL, at REAL NOT NULL, message_id TEXT,
    PRIMARY KEY (game, phase, power)
);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, phase TEXT NOT NULL,
    state_before TEXT NOT NULL, state_after TEXT NOT NULL,
    orders TEXT NOT NULL, report TEXT NOT NULL, at REAL NOT NULL,
    rolled_back INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS press (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, phase TEXT NOT NULL, sender TEXT NOT NULL,
    recipients TEXT NOT NULL, grey INTEGER NOT NULL, text TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game TEXT, at REAL NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    to_addr TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL,
    attachments TEXT NOT NULL, headers TEXT NOT NULL,
    game TEXT, created REAL NOT NULL, sent REAL
);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox(sent) WHERE sent IS NULL;
CREATE TABLE IF NOT EXISTS auth_failures (key TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS auth_failures_key ON auth_failures(key, at);
CREATE TABLE IF NOT EXISTS replies (           -- replies sent to an address (loop limits)
    address TEXT NOT NULL, at REAL NOT NULL,
    kind TEXT NOT NULL                          -- reply | nocommand | notice
);
CREATE INDEX IF NOT EXISTS replies_address ON replies(address, at);
CREATE TABLE IF NOT EXISTS address_changes (   -- SET ADDRESS waiting for its confirmations
    game TEXT NOT NULL, power TEXT NOT NULL,
    old TEXT NOT NULL, new TEXT NOT NULL,
    codes TEXT NOT NULL,                        -- JSON {"old"|"new": sha256 of its code}
    created REAL NOT NULL,
    PRIMARY KEY (game, power)
);
CREATE TABLE IF NOT EXISTS requests (          -- JOIN and WATCH waiting for their CONFIRM
    game TEXT NOT NULL, email TEXT NOT NULL,
    kind TEXT NOT NULL,                         -- join | watch
    args TEXT NOT NULL,                         -- JSON list: a JOIN's wishes
    digest TEXT NOT NULL,                       -- sha256 of the code mailed to the address
    created REAL NOT NULL,
    PRIMARY KEY (game, email, kind)
);
CREATE TABLE IF NOT EXISTS joins (             -- sign-ups to a forming game (JOIN)
    game TEXT NOT NULL, email TEXT NOT NULL,
    wishes TEXT NOT NULL,                       -- JSON list of powers, best first
    status TEXT NOT NULL,                       -- waiting (for the GM) | accepted
    at REAL NOT NULL,
    PRIMARY KEY (game, email)
);
CREATE TABLE IF NOT EXISTS watchers (          -- observers: results and public press
    game TEXT NOT NULL, email TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (game, email)
);
CREATE TABLE IF NOT EXISTS votes (             -- DRAW and CONCEDE votes, secret
    game TEXT NOT NULL, power TEXT NOT NULL,
    kind TEXT NOT NULL,                         -- draw | concede
    target TEXT NOT NULL,                       -- JSON list: the draw's members, or the power
    at REAL NOT NULL,
    PRIMARY KEY (game, power, kind)
);
CREATE TABLE IF NOT EXISTS endings (           -- the result of an ended game
    game TEXT PRIMARY KEY,
    result TEXT NOT NULL,                       -- draw | win | together | lost | ended
    powers TEXT NOT NULL,                       -- JSON: the draw's members, the winner(s)
    how TEXT NOT NULL, phase TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS people (             -- per address, whatever the game
    email TEXT PRIMARY KEY,
    timezone TEXT                               -- SET TIMEZONE; NULL: the judge's
);
CREATE TABLE IF NOT EXISTS web_keys (   -- a private game's pages need this key (mobadj web)
    game TEXT PRIMARY KEY REFERENCES games(name), key TEXT NOT NULL, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tenures (    -- who held each seat when (schema 2)
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, power TEXT NOT NULL, email TEXT NOT NULL,
    start REAL NOT NULL, start_phase TEXT NOT NULL,
    how TEXT NOT NULL,                         -- added | joined | replaced | took over
    end REAL, end_phase TEXT,
    why TEXT,                                  -- replaced | resigned | taken over
    nmr_total INTEGER NOT NULL DEFAULT 0,      -- missed deadlines in this tenure
    absence_used REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS outbox_files (  -- attachments of mail to send, each once (schema 2)
    sha256 TEXT PRIMARY KEY, data BLOB NOT NULL  -- gone once no mail waiting needs it
);
CREATE TABLE IF NOT EXISTS takeovers (  -- TAKEOVER requests waiting for the GM (schema 2)
    game TEXT NOT NULL, email TEXT NOT NULL, power TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (game, email)
);
CREATE TABLE IF NOT EXISTS web_sessions (  -- seats signed in on the pages (mobadj web)
    token TEXT PRIMARY KEY,               -- sha256 of the cookie's value, never the value
    game TEXT NOT NULL, power TEXT,       -- power NULL: the GM
    proof TEXT NOT NULL,                  -- digest of the password hash signed in with
    csrf TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    said TEXT NOT NULL DEFAULT '',        -- the judge's answer to the last action, shown once
    done TEXT NOT NULL DEFAULT ''         -- digests of the last once-only forms done, by spaces
);
"""
# Indexes on columns that a store of an older schema gains only when it is brought up to
# date (made after the columns).
INDEXES = """
CREATE INDEX IF NOT EXISTS tenures_seat ON tenures(game, power, start);
CREATE INDEX IF NOT EXISTS outbox_kept ON outbox(sent) WHERE pruned IS NULL;
"""
# Columns added after a table was first created: (table, column, declaration).
ADDED_COLUMNS = (
    ("press", "broadcast", "INTEGER NOT NULL DEFAULT 0"),  # sent to ALL: public on the pages
    # whom grey press says it went to ("everyone but FRANCE"); NULL: to its recipients
    ("press", "shown", "TEXT"),
    ("outbox", "refused", "TEXT"),  # why the SMTP server refused the mail for good
    # schema 2
    ("outbox", "message_id", "TEXT"),  # as sent
    ("outbox", "digest", "TEXT"),  # sha256 of the text as queued (kept when the text goes)
    ("outbox", "size", "INTEGER"),  # bytes handed to the SMTP server
    ("outbox", "pruned", "REAL"),  # when the text was dropped (mail_retention_days)
    ("orders", "by_gm", "INTEGER NOT NULL DEFAULT 0"),  # entered by the GM (ORDERS FOR)
    ("players", "offered", "INTEGER NOT NULL DEFAULT 0"),  # the GM offers it for TAKEOVER
    ("web_sessions", "done", "TEXT NOT NULL DEFAULT ''"),  # once-only forms done (press)
    ("replies", "digest", "TEXT"),  # a "no command" reply: the digest of the text answered
)

AUTH_FAILURES_KEPT_DAYS = 30  # failed sign-ons count for a day at most; kept a while more

# scrypt cost: 2**14 takes ~70 ms here, slow enough to hurt guessing, fast enough to serve.
KDF_N = 2**14
_verified: dict[tuple[str, str], bool] = {}
_verified_lock = threading.Lock()


def hash_password(password: str, n: int = KDF_N) -> str:
    """``scrypt$n$r$p$salt$hash`` (hex); the parameters travel with the hash."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=8, p=1, dklen=32)
    return f"scrypt${n}$8$1${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Constant-time check.  Successful checks are remembered in memory (keyed by a hash of
    the password, never the password), so a busy player does not cost a KDF per mail."""
    key = (stored, hashlib.sha256(password.encode()).hexdigest())
    with _verified_lock:
        if key in _verified:
            return True
    try:
        algo, n, r, p, salt, digest = stored.split("$")
        if algo != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except ValueError:
        return False
    ok = hmac.compare_digest(got.hex(), digest)
    if ok:
        with _verified_lock:
            if len(_verified) > 10_000:
                _verified.clear()
            _verified[key] = True
    return ok


@dataclass
class Game:
    """A row of ``games`` with JSON decoded."""

    name: str
    kind: str
    status: str
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None  # None until the game starts
    phase: str
    deadline: float | None
    paused_until: float | None
    pause_left: float | None
    reminded: bool
    extended: bool
    gm_email: str
    gm_hash: str
    created: float

    @property
    def started_state(self) -> dict[str, Any]:
        """The state of a game that has started (one still forming has none yet)."""
        if self.state is None:
            raise StoreError(f"game {self.name} has not started: it has no state yet")
        return self.state


@dataclass
class Player:
    """A seat of a game as the store keeps it: power, address, password hash, status and
    missed turns."""

    game: str
    power: str
    email: str
    pw_hash: str
    status: str
    nmr_total: int
    nmr_streak: int
    absence_used: float
    ready: bool
    offered: bool = False  # the GM offers the seat for TAKEOVER


@dataclass
class Mail:
    """A mail to send (or sent): plain-text body, optional attachments (name, mime, bytes)."""

    to: str
    subject: str
    body: str
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    game: str | None = None
    id: int | None = None


def _statements(script: str) -> Iterator[str]:
    """The statements of an SQL script, one by one (run inside one transaction, which
    ``executescript`` would commit first)."""
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf
            buf = ""


def content_digest(body: str, attachments: list[tuple[str, str, bytes]]) -> str:
    """sha256 of a mail's content (its text, then each attachment's name, type and bytes):
    kept when the text and attachments are gone, to check a mail someone shows."""
    h = hashlib.sha256(body.encode("utf-8"))
    for name, mime, data in attachments:
        h.update(f"\0{name}\0{mime}\0".encode())
        h.update(data)
    return h.hexdigest()


def _audit(attachments: str) -> str:
    """The stored attachments of a delivered mail without their bytes: name, type, size,
    sha256 (the bytes are not kept: maps are drawn again from the stored positions)."""
    out = []
    for a in json.loads(attachments):
        if "data" in a:
            data = base64.b64decode(a["data"])
            a = {"name": a["name"], "mime": a["mime"], "size": len(data),
                 "sha256": hashlib.sha256(data).hexdigest()}
        out.append(a)
    return json.dumps(out)


class StoreError(JudgeServiceError, RuntimeError):
    """The store file cannot be used (wrong schema version, locked for too long), or a
    stored game lacks what was asked of it (the state of a game that has not started)."""


FULL_DISK = ("disk I/O error", "database or disk is full")
"""What SQLite says when a write finds no room (a full disk, a file-size limit)."""


def store_trouble(path: str | Path, exc: BaseException) -> str:
    """Why ``path`` (the store, or a copy of it) cannot be written, in one line for the GM:
    the file and the likely cause, not a traceback."""
    if isinstance(exc, OSError):
        full = exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
        text = exc.strerror or str(exc)
    else:
        text = str(exc)
        full = text in FULL_DISK
    if full:
        return f"cannot write {path}: the disk is full or the file too large ({text})"
    if "locked" in text:
        return f"cannot write {path}: another program held it locked too long ({text})"
    return f"cannot use {path} ({text})"


SQLITE_HEADER = b"SQLite format 3\x00"


def damaged(path: str | Path, why: object) -> str:
    """What to say of a store that SQLite cannot read whole (cut short, pages overwritten)."""
    return (f"{path}: damaged ({why}): restore the latest backup with mobadj store restore")


class StoreDamaged(StoreError):
    """An SQLite file SQLite cannot read whole: ``why`` is what SQLite says."""

    def __init__(self, path: str | Path, why: str) -> None:
        super().__init__(damaged(path, why))
        self.why = why


def quick_damage(path: Path) -> str | None:
    """What SQLite's quick check finds wrong with the store file ``path``, read only (None:
    sound, or no file yet).  A judge does not start on a store damaged past its first pages:
    it would fail on them later, or write on into them (a few milliseconds for a year's
    store)."""
    if not path.is_file() or path.stat().st_size == 0:
        return None  # (an empty one is refused as such when it is opened)
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        found = [str(r[0]) for r in db.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        db.close()
    return None if found == ["ok"] else "; ".join(found)


def refuse_empty(path: Path) -> None:
    """An empty file where a store was is damage (a copy cut short by a full disk), never a
    new store: taken for one, the judge would answer every mail in its mailbox again."""
    if path.is_file() and path.stat().st_size == 0:
        raise StoreError(f"{path}: empty (0 bytes): the store was cut short (a full disk, a "
                         "copy that failed); restore the latest backup with mobadj store "
                         "restore (a judge's first start finds no file there at all)")


def schema_of(db: sqlite3.Connection, path: Path) -> int | None:
    """The judge store schema of the SQLite file ``path`` open as ``db``: None for an empty
    one; a :class:`StoreError` naming ``path`` for a file that is not a judge store, or a
    damaged one (an SQLite file that SQLite cannot read)."""
    try:
        tables = {r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        row = None
        if "meta" in tables:
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    except sqlite3.DatabaseError as exc:
        try:
            with open(path, "rb") as f:
                sqlite = f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
        except OSError:
            sqlite = False
        if sqlite:
            raise StoreDamaged(path, str(exc)) from None
        raise StoreError(f"{path}: not a judge store ({exc})") from None
    if row is None and "games" not in tables:
        raise StoreError(f"{path}: not a judge store (it has tables, but not the judge's)")
    if row is None:  # a store of the first mobadj, before the schema was written
        return 1
    try:
        return int(row[0])
    except ValueError:
        raise StoreError(f"{path}: not a judge store (schema {row[0]!r})") from None


def _make_new(path: Path) -> None:
    """Make a new judge store at ``path`` whole, under another name first, then linked into
    place: nobody ever finds a store half made there (an empty file is damage, not a new
    store), and of two judges starting at once, one makes it."""
    temp = path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        Store(temp, _new=True).close()  # the last to close it: its -wal and -shm are gone
        try:
            os.link(temp, path)
        except FileExistsError:  # another process made it meanwhile: that one is used
            pass
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(temp, path)
    finally:
        for leftover in (temp, *(temp.with_name(temp.name + end) for end in COMPANIONS)):
            leftover.unlink(missing_ok=True)


class Store:
    """One SQLite file.  Use :meth:`transaction` for every change that must be atomic."""

    def __init__(self, path: str | Path, readonly: bool = False, keep_old: bool = True,
                 _new: bool = False) -> None:
        """Open (and create or bring up to date) the store; ``readonly`` opens an existing
        store for reading only (the web pages, beside a running judge).  ``keep_old=False``
        brings an older store up to date without keeping a copy of it first (a restore's
        staging copy: the backup it came from stays as it was)."""
        self.path = Path(path)
        self.readonly = readonly
        self._depth = 0
        self._after: list[Callable[[], None]] = []  # to do once the transaction is stored
        self.upgraded_from: int | None = None  # the schema it had, when brought up to date
        self.kept_copy: Path | None = None  # the copy of it kept then
        if readonly:
            if not self.path.is_file():
                raise StoreError(f"{self.path}: no judge store there (has the judge run?)")
            refuse_empty(self.path)
            self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                      isolation_level=None, timeout=30,
                                      check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            try:
                version = self._version()
                if version != SCHEMA_VERSION:
                    raise StoreError(self._version_error(version))
            except StoreError:
                self.db.close()
                raise
            return
        try:
            private_dir(self.path.parent)
            if not _new and not self.path.exists():
                _make_new(self.path)
        except OSError as exc:  # no such folder, no right to write there
            raise StoreError(f"{self.path}: the judge's store cannot be made or opened there "
                             f"({exc.strerror or exc}); see data_dir in judge.yaml") from None
        if not _new:
            refuse_empty(self.path)
        try:
            private_file(self.path)
            self.db = sqlite3.connect(
                str(self.path), isolation_level=None, timeout=30, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as exc:  # no such folder, no right to write there
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise StoreError(f"{self.path}: the judge's store cannot be made or opened there "
                             f"({reason}); see data_dir in judge.yaml") from None
        self.db.row_factory = sqlite3.Row
        try:  # a file that is not a judge store, or one of a newer mobadj, is left as it is
            version = self._version()
            if version is not None and version > SCHEMA_VERSION:
                raise StoreError(self._version_error(version))
        except StoreError:
            self.db.close()
            raise
        if version is None:  # a new store gives freed pages back to the file system
            self.db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        if version is not None and version < SCHEMA_VERSION and keep_old:
            try:
                self.kept_copy = self._keep_copy(version)
            except StoreError:
                self.db.close()
                raise
        try:
            self._set_up()
        except BaseException:
            self.db.close()
            if self.kept_copy is not None:  # not brought up to date: the store is the copy
                self.kept_copy.unlink(missing_ok=True)
            raise

    def _set_up(self) -> None:
        """Make the tables (and bring an older store up to date), in one transaction."""
        with self.transaction():
            version = self._version()  # another process may have done it meanwhile
            for statement in _statements(SCHEMA):
                self.db.execute(statement)
            for table, column, decl in ADDED_COLUMNS:
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            for statement in _statements(INDEXES):
                self.db.execute(statement)
            if version is not None and version < SCHEMA_VERSION:
                for step in range(version, SCHEMA_VERSION):
                    UPGRADES[step](self)
                self.upgraded_from = version
                if self.kept_copy is not None:
                    log.warning("%s: brought up to date from schema %d to %d (the old store "
                                "is kept as %s)", self.path, version, SCHEMA_VERSION,
                                self.kept_copy)
            self.set_meta("schema", str(SCHEMA_VERSION))
            self._x("INSERT OR IGNORE INTO meta VALUES ('message_key', ?)",
                    (secrets.token_hex(16),))  # made with the store: no write when sending

    def _version(self) -> int | None:
        """The schema of the file: None for a new (empty) one; a :class:`StoreError` for a
        file that is not a judge store, or a damaged one."""
        return schema_of(self.db, self.path)

    def _version_error(self, version: int | None) -> str:
        if version is not None and version > SCHEMA_VERSION:
            return (f"{self.path}: made by a newer mobadj (store schema {version}; this one "
                    f"reads up to {SCHEMA_VERSION}): upgrade mobadj")
        return (f"{self.path}: store schema {version if version is not None else 'none'}, "
                f"this mobadj reads {SCHEMA_VERSION}: start mobadj serve, or run mobadj "
                f"store check, once to bring it up to date")

    def _keep_copy(self, version: int) -> Path:
        """A copy of a store about to be brought up to date, beside it (SQLite's online
        backup): an upgrade is never a one-way door."""
        stem = f"{self.path.stem}-schema{version}"
        copy = self.path.with_name(f"{stem}{self.path.suffix}")
        n = 1
        while copy.exists():
            n += 1
            copy = self.path.with_name(f"{stem}-{n}{self.path.suffix}")
        try:
            private_file(copy)
            target = sqlite3.connect(str(copy))
            try:
                self.db.backup(target)
            finally:
                target.close()
        except (OSError, sqlite3.Error) as exc:  # a full disk: no copy cut short stays
            copy.unlink(missing_ok=True)
            where = f"{copy} (the copy of the old store kept before it is brought up to date)"
            raise StoreError(f"{store_trouble(where, exc)}; {self.path} was left as it was "
                             f"(schema {version})") from None
        return copy

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; nested uses join the outer transaction."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        self.db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        self._after = []
        try:
            yield self
        except BaseException:
            self._depth = 0
            self._after = []
            self.db.execute("ROLLBACK")
            raise
        self._depth = 0
        after, self._after = self._after, []
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error:  # no room to write it (a full disk): nothing of it is kept
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        for done in after:
            done()

    def after_commit(self, done: Callable[[], None]) -> None:
        """Call ``done`` once the current transaction is stored (at once outside one): what
        the log says was done must have been done, not rolled back."""
        if self._depth:
            self._after.append(done)
        else:
            done()

    @contextmanager
    def savepoint(self, name: str = "mail") -> Iterator[Store]:
        """A savepoint inside the current transaction: undone alone when its block raises."""
        self._x(f"SAVEPOINT {name}")
        try:
            yield self
        except BaseException:
            self._x(f"ROLLBACK TO {name}")
            self._x(f"RELEASE {name}")
            raise
        self._x(f"RELEASE {name}")

    @contextmanager
    def reading(self) -> Iterator[Store]:
        """One consistent snapshot for several reads (``BEGIN`` ... ``COMMIT``): a page built
        from many queries never mixes two states of a game.  WAL: writers go on meanwhile."""
        if self._depth:
            yield self
            return
        self.db.execute("BEGIN")
        self._depth = 1
        try:
            yield self
        finally:
            self._depth = 0
            self.db.execute("COMMIT")

    def _x(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        return self.db.execute(sql, args)

    # -- meta ------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self._x("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._x("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def token(self) -> str:
        """A random token of this store (made once), so Message-IDs are unique across judges
        (a restored store gets a new one: its Message-IDs never repeat earlier ones)."""
        self._x("INSERT OR IGNORE INTO meta VALUES ('token', ?)", (secrets.token_hex(6),))
        return str(self.meta("token"))

    def message_key(self) -> str:
        """The secret the Message-IDs of the judge's mails are made with (made once; with
        the token, so a restored store's are new): :func:`mobadj.judge.mailer.message_id`."""
        self._x("INSERT OR IGNORE INTO meta VALUES ('message_key', ?)", (secrets.token_hex(16),))
        return f"{self.token()}.{self.meta('message_key')}"

    def new_uidvalidity(self, value: int | None) -> str | None:
        """Remember the mailbox's UIDVALIDITY; when it changed, forget every UID (they name
        other mails now) and return the old value."""
        old = self.meta("uidvalidity")
        if old == str(value):
            return None
        with self.transaction():
            if old is not None:
                self._x("UPDATE mails SET uid=NULL")
            self.set_meta("uidvalidity", str(value))
        return old

    # -- mails -----------------------------------------------------------------------------
    def mail_seen(self, message_id: str) -> bool:
        row = self._x("SELECT 1 FROM mails WHERE message_id=?", (message_id,)).fetchone()
        return row is not None

    def uid_seen(self, uid: int) -> bool:
        return self._x("SELECT 1 FROM mails WHERE uid=?", (uid,)).fetchone() is not None

    def record_mail(
        self, message_id: str, uid: int | None, sender: str, subject: str, at: float, outcome: str
    ) -> None:
        self._x(
            "INSERT INTO mails VALUES (?,?,?,?,?,?)",
            (message_id, uid, sender, subject[:200], at, outcome),
        )

    def set_mail_uid(self, message_id: str, uid: int) -> None:
        """A mail seen again under a new UID (renumbered mailbox, resent copy) keeps it."""
        self._x("UPDATE mails SET uid=? WHERE message_id=? AND uid IS NULL", (uid, message_id))

    def uids_to_expunge(self, before: float) -> list[int]:
        """UIDs of mails handled before ``before`` and not yet expunged (everything handled
        before the last expunge's cut-off is gone already)."""
        since = float(self.meta("expunged_before") or 0)
        rows = self._x("SELECT uid FROM mails WHERE uid IS NOT NULL AND handled>=? AND handled<?"
                       " ORDER BY uid", (since, before))
        return [int(r[0]) for r in rows]

    def max_uid(self) -> int:
        row = self._x("SELECT MAX(uid) FROM mails").fetchone()
        return int(row[0] or 0)

    def mail_count(self) -> int:
        return int(self._x("SELECT COUNT(*) FROM mails").fetchone()[0])

    # -- games -----------------------------------------------------------------------------
    def create_game(
        self, name: str, kind: str, options: dict[str, Any], seed: int,
        gm_email: str, gm_hash: str, at: float,
    ) -> None:
        self._x(
            "INSERT INTO games (name, kind, status, options, seed, state, phase, gm_email, "
            "gm_hash, created) VALUES (?,?,?,?,?,NULL,'',?,?,?)",
            (name, kind, "forming", json.dumps(options), seed, gm_email.lower(), gm_hash, at),
        )

    def game(self, name: str) -> Game | None:
        row = self._x("SELECT * FROM games WHERE name=?", (name.lower(),)).fetchone()
        return self._game(row) if row else None

    def games(self) -> list[Game]:
        return [self._game(r) for r in self._x("SELECT * FROM games ORDER BY name")]

    def delete_game(self, name: str) -> dict[str, int]:
        """Remove a game and every row kept under its name (the caller holds the transaction
        and has checked that it may go); returns how many rows of each table went.  The
        tables are found by their ``game`` column, so a table added later is not forgotten,
        and the freed pages are overwritten (``secure_delete``): what was deleted is not
        left readable in the file."""
        self._x("PRAGMA secure_delete=ON")  # (the default of some builds of SQLite only)
        for table in LASTING_IDS:  # their ids are never given again (:meth:`_next_id`)
            top = self._x(f"SELECT MAX(id) FROM {table}").fetchone()[0]
            if top:
                self.set_meta(f"{table}_id_floor",
                              str(max(int(top), int(self.meta(f"{table}_id_floor") or 0))))
        tables = [r[0] for r in self._x(
            "SELECT name FROM sqlite_master WHERE type='table' AND name!='games' ORDER BY name")]
        gone: dict[str, int] = {}
        for table in tables:
            if any(c[1] == "game" for c in self._x(f'PRAGMA table_info("{table}")')):
                count = self._x(f'DELETE FROM "{table}" WHERE game=?', (name,)).rowcount
                if count:
                    gone[table] = count
        gone["games"] = self._x("DELETE FROM games WHERE name=?", (name,)).rowcount
        return gone

    def _next_id(self, table: str) -> int | None:
        """The id of the next row of a table of :data:`LASTING_IDS`: past every id it ever
        gave, rows deleted since included (None: SQLite's own next id is that already)."""
        floor = self.meta(f"{table}_id_floor")
        if floor is None:
            return None
        top = self._x(f"SELECT MAX(id) FROM {table}").fetchone()[0] or 0
        return max(int(top), int(floor)) + 1

    @staticmethod
    def _game(row: sqlite3.Row) -> Game:
        return Game(
            name=row["name"], kind=row["kind"], status=row["status"],
            options=json.loads(row["options"]), seed=row["seed"],
            state=json.loads(row["state"]) if row["state"] else None, phase=row["phase"],
            deadline=row["deadline"], paused_until=row["paused_until"],
            pause_left=row["pause_left"], reminded=bool(row["reminded"]),
            extended=bool(row["extended"]), gm_email=row["gm_email"], gm_hash=row["gm_hash"],
            created=row["created"],
        )

    def update_game(self, name: str, **fields: Any) -> None:
        """Set columns of a game; ``state`` and ``options`` are JSON-encoded here."""
        if "state" in fields:
            fields["state"] = json.dumps(fields["state"])
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        cols = ", ".join(f"{k}=?" for k in fields)
        self._x(f"UPDATE games SET {cols} WHERE name=?", (*fields.values(), name))

    # -- players ---------------------------------------------------------------------------
    def add_player(self, game: str, power: str, email: str, pw_hash: str, at: float = 0.0,
                   phase: str = "", how: str = "added") -> None:
        """Seat a player; their tenure of the seat starts (``how``: added, joined, replaced,
        took over)."""
        self._x(
            "INSERT INTO players (game, power, email, pw_hash) VALUES (?,?,?,?)",
            (game, power, email.lower(), pw_hash),
        )
        self.start_tenure(game, power, email, at, phase, how)

    def remove_player(self, game: str, power: str) -> None:
        """The seat is vacant (its player resigned): civil disorder until someone takes it."""
        self._x("DELETE FROM players WHERE game=? AND power=?", (game, power))

    # -- tenures: who held each seat when ----------------------------------------------------
    def start_tenure(self, game: str, power: str, email: str, at: float, phase: str,
                     how: str) -> None:
        self._x("INSERT INTO tenures (game, power, email, start, start_phase, how) "
                "VALUES (?,?,?,?,?,?)", (game, power, email.lower(), at, phase, how))

    def end_tenure(self, game: str, power: str, at: float, phase: str, why: str,
                   nmr_total: int, absence_used: float) -> None:
        """Close the seat's open tenure with its record (missed deadlines, absence)."""
        self._x("UPDATE tenures SET end=?, end_phase=?, why=?, nmr_total=?, absence_used=? "
                "WHERE id=(SELECT MAX(id) FROM tenures WHERE game=? AND power=? AND end IS "
                "NULL)", (at, phase, why, nmr_total, absence_used, game, power))

    def tenures(self, game: str) -> list[dict[str, Any]]:
        """Every tenure of a game's seats, by seat then start; an open one (``end`` None) is
        the seat's current player, whose counters are the player's own."""
        rows = self._x("SELECT * FROM tenures WHERE game=? ORDER BY power, start, id", (game,))
        return [dict(r) for r in rows]

    # -- TAKEOVER requests waiting for the GM ------------------------------------------------
    def set_takeover(self, game: str, email: str, power: str, at: float) -> None:
        self._x("INSERT OR REPLACE INTO takeovers VALUES (?,?,?,?)",
                (game, email.lower(), power, at))

    def takeover(self, game: str, email: str) -> dict[str, Any] | None:
        row = self._x("SELECT * FROM takeovers WHERE game=? AND email=?",
                      (game, email.lower())).fetchone()
        return None if row is None else dict(row)

    def takeovers(self, game: str) -> list[dict[str, Any]]:
        rows = self._x("SELECT * FROM takeovers WHERE game=? ORDER BY at", (game,))
        return [dict(r) for r in rows]

    def delete_takeover(self, game: str, email: str) -> None:
        self._x("DELETE FROM takeovers WHERE game=? AND email=?", (game, email.lower()))

    def players(self, game: str) -> list[Player]:
        rows = self._x("SELECT * FROM players WHERE game=? ORDER BY power", (game,))
        return [Player(**dict(r)) for r in rows]

    def players_by_email(self, email: str) -> list[Player]:
        """Every seat an address holds, in any game."""
        rows = self._x("SELECT * FROM players WHERE email=? ORDER BY game, power",
                       (email.lower(),))
        return [Player(**dict(r)) for r in rows]

    def player(self, game: str, power: str) -> Player | None:
        r = self._x("SELECT * FROM players WHERE game=? AND power=?", (game, power)).fetchone()
        return Player(**dict(r)) if r else None

    def update_player(self, game: str, power: str, **fields: Any) -> None:
        cols = ", ".join(f"{k}=?" for k in fields)
        self._x(
            f"UPDATE players SET {cols} WHERE game=? AND power=?", (*fields.values(), game, power)
        )

    # -- commands, orders, press, events -----------------------------------------------------
    def record_command(
        self, game: str | None, power: str | None, message_id: str | None, uid: int | None,
        kind: str, text: str, at: float,
    ) -> None:
        self._x(
            "INSERT INTO commands (game, power, message_id, uid, kind, text, at) "
            "VALUES (?,?,?,?,?,?,?)",
            (game, power, message_id, uid, kind, text, at),
        )

    def commands(self, game: str) -> list[dict[str, Any]]:
        rows = self._x("SELECT * FROM commands WHERE game=? ORDER BY id", (game,))
        return [dict(r) for r in rows]

    def set_orders(
        self, game: str, phase: str, power: str, text: str, at: float, message_id: str | None,
        by_gm: bool = False,
    ) -> None:
        """A power's orders for a phase (``by_gm``: the GM entered them, ORDERS FOR)."""
        self._x(
            "INSERT OR REPLACE INTO orders (game, phase, power, text, at, message_id, by_gm) "
            "VALUES (?,?,?,?,?,?,?)",
            (game, phase, power, text, at, message_id, int(by_gm)),
        )

    def orders_by_gm(self, game: str, phase: str) -> list[str]:
        """The powers whose orders for a phase the GM entered."""
        rows = self._x("SELECT power FROM orders WHERE game=? AND phase=? AND by_gm=1 "
                       "ORDER BY power", (game, phase))
        return [str(r[0]) for r in rows]

    def delete_orders(self, game: str, phase: str, power: str) -> None:
        self._x("DELETE FROM orders WHERE game=? AND phase=? AND power=?", (game, phase, power))

    def orders_after(self, game: str, phases: set[str]) -> dict[str, dict[str, str]]:
        """Orders a game holds for phases other than ``phases`` (sent early with PHASE for a
        phase to come): phase -> power -> text."""
        out: dict[str, dict[str, str]] = {}
        for r in self._x("SELECT phase, power, text FROM orders WHERE game=?", (game,)):
            if r["phase"] not in phases:
                out.setdefault(r["phase"], {})[r["power"]] = r["text"]
        return out

    def orders(self, game: str, phase: str) -> dict[str, str]:
        rows = self._x("SELECT power, text FROM orders WHERE game=? AND phase=?", (game, phase))
        return {r["power"]: r["text"] for r in rows}

    def submitted(self, game: str, phase: str) -> set[str]:
        """The powers that have orders in for a phase (who, never what)."""
        rows = self._x("SELECT power FROM orders WHERE game=? AND phase=?", (game, phase))
        return {r["power"] for r in rows}

    def add_press(
        self, game: str, phase: str, sender: str, recipients: list[str], grey: bool,
        text: str, at: float, broadcast: bool = False, shown: str | None = None,
    ) -> None:
        """``broadcast``: sent to ALL (public press), not to a list of powers; ``shown``:
        whom its copies say it went to, when not its recipients (grey press)."""
        self._x(
            "INSERT INTO press (game, phase, sender, recipients, grey, text, at, broadcast, "
            "shown) VALUES (?,?,?,?,?,?,?,?,?)",
            (game, phase, sender, json.dumps(recipients), int(grey), text, at, int(broadcast),
             shown),
        )

    def press(self, game: str) -> list[dict[str, Any]]:
        rows = self._x("SELECT * FROM press WHERE game=? ORDER BY id", (game,))
        return [dict(r) | {"recipients": json.loads(r["recipients"])} for r in rows]

    def broadcast_press(self, game: str) -> list[dict[str, Any]]:
        """Only the press sent to ALL, oldest first; a grey message keeps its sender hidden
        (``sender`` is None).  What the public pages may show, and nothing more."""
        rows = self._x(
            "SELECT phase, CASE WHEN grey THEN NULL ELSE sender END AS sender, text, at "
            "FROM press WHERE game=? AND broadcast=1 ORDER BY id", (game,))
        return [dict(r) for r in rows]

    def log(self, game: str | None, kind: str, data: dict[str, Any], at: float) -> None:
        self._x(
            "INSERT INTO events (game, at, kind, data) VALUES (?,?,?,?)",
            (game, at, kind, json.dumps(data, sort_keys=True)),
        )

    def recent_events(self, game: str, kind: str, since: float) -> list[dict[str, Any]]:
        """The data of a game's events of one kind since a moment."""
        rows = self._x("SELECT data FROM events WHERE game=? AND kind=? AND at>=?",
                       (game, kind, since))
        return [json.loads(r[0]) for r in rows]

    def events(self, game: str) -> list[dict[str, Any]]:
        rows = self._x("SELECT * FROM events WHERE game=? ORDER BY id", (game,))
        return [dict(r) | {"data": json.loads(r["data"])} for r in rows]

    # -- results -----------------------------------------------------------------------------
    def add_result(
        self, game: str, phase: str, before: Any, after: Any, orders: dict[str, Any],
        report: dict[str, Any], at: float,
    ) -> int:
        cur = self._x(
            "INSERT INTO results (id, game, phase, state_before, state_after, orders, report, "
            "at) VALUES (?,?,?,?,?,?,?,?)",
            (self._next_id("results"), game, phase, json.dumps(before), json.dumps(after),
             json.dumps(orders), json.dumps(report), at),
        )
        return int(cur.lastrowid or 0)

    def results(self, game: str, include_rolled_back: bool = False) -> list[dict[str, Any]]:
        sql = "SELECT * FROM results WHERE game=?"
        if not include_rolled_back:
            sql += " AND rolled_back=0"
        rows = self._x(sql + " ORDER BY id", (game,))
        out = []
        for r in rows:
            d = dict(r)
            for k in ("state_before", "state_after", "orders", "report"):
                d[k] = json.loads(d[k])
            out.append(d)
        return out

    def result_phases(self, game: str) -> set[str]:
        """The phases of a game that were resolved (rolled back or not)."""
        rows = self._x("SELECT DISTINCT phase FROM results WHERE game=?", (game,))
        return {str(r[0]) for r in rows}

    def results_version(self, game: str) -> tuple[int, int]:
        """(count, last id) of a game's standing results: changes with every result and every
        rollback, so pages built from the results can be cached under it."""
        row = self._x("SELECT COUNT(*), MAX(id) FROM results WHERE game=? AND rolled_back=0",
                      (game,)).fetchone()
        return int(row[0]), int(row[1] or 0)

    def mark_rolled_back(self, result_id: int) -> None:
        self._x("UPDATE results SET rolled_back=1 WHERE id=?", (result_id,))

    # -- outbox ----------------------------------------------------------------------------
    def queue(self, mail: Mail, at: float) -> int:
        """Put a mail in the outbox; its attachments are kept once each, however many mails
        carry them (the map of a phase goes to every player)."""
        atts = []
        for name, mime, data in mail.attachments:
            digest = hashlib.sha256(data).hexdigest()
            self._x("INSERT OR IGNORE INTO outbox_files VALUES (?, ?)", (digest, data))
            atts.append({"name": name, "mime": mime, "size": len(data), "sha256": digest})
        cur = self._x(
            "INSERT INTO outbox (id, to_addr, subject, body, attachments, headers, game, "
            "created, digest) VALUES (?,?,?,?,?,?,?,?,?)",
            (self._next_id("outbox"), mail.to, mail.subject, mail.body, json.dumps(atts),
             json.dumps(mail.headers), mail.game, at, content_digest(mail.body, mail.attachments)),
        )
        return int(cur.lastrowid or 0)

    def unsent(self, limit: int = 500) -> list[Mail]:
        rows = self._x("SELECT * FROM outbox WHERE sent IS NULL ORDER BY id LIMIT ?", (limit,))
        return [self._mail(r) for r in rows.fetchall()]

    def all_mail(self, game: str | None = None) -> list[Mail]:
        """Every mail of the outbox (of one ``game``), oldest first."""
        if game is None:
            rows = self._x("SELECT * FROM outbox ORDER BY id")
        else:
            rows = self._x("SELECT * FROM outbox WHERE game=? ORDER BY id", (game,))
        return [self._mail(r) for r in rows.fetchall()]

    def _mail(self, r: sqlite3.Row) -> Mail:
        """A mail of the outbox; one delivered has no attachments left (their record is
        in :meth:`sent_mail`)."""
        atts = []
        for a in json.loads(r["attachments"]):
            if "data" in a:  # a store of schema 1 not yet brought up to date
                atts.append((a["name"], a["mime"], base64.b64decode(a["data"])))
                continue
            row = self._x("SELECT data FROM outbox_files WHERE sha256=?",
                          (a["sha256"],)).fetchone()
            if row is not None and r["sent"] is None:
                atts.append((a["name"], a["mime"], bytes(row[0])))
        return Mail(
            to=r["to_addr"], subject=r["subject"], body=r["body"], attachments=atts,
            headers=json.loads(r["headers"]), game=r["game"], id=r["id"],
        )

    def unsent_count(self, game: str | None = None) -> int:
        """How many mails wait to be sent (of one game)."""
        sql = "SELECT COUNT(*) FROM outbox WHERE sent IS NULL"
        row = self._x(sql + (" AND game=?" if game else ""), (game,) if game else ()).fetchone()
        return int(row[0])

    def sent_mail(self, game: str | None = None) -> list[dict[str, Any]]:
        """The record of each mail sent (or refused for good), oldest first: to, subject,
        when, Message-ID, size, the digest of its content, its attachments' names, sizes
        and digests, and its text until ``mail_retention_days`` have passed ("" after)."""
        sql = ("SELECT id, to_addr, subject, body, attachments, game, created, sent, refused, "
               "message_id, digest, size, pruned FROM outbox WHERE sent IS NOT NULL")
        rows = self._x(sql + (" AND game=?" if game else "") + " ORDER BY id",
                       (game,) if game else ())
        return [dict(r) | {"attachments": json.loads(_audit(r["attachments"]))} for r in rows]

    def mark_sent(self, mail_id: int, at: float, message_id: str | None = None,
                  size: int | None = None) -> None:
        """The SMTP server took the mail: it keeps its record, not its attachments (their
        bytes go once no mail waiting to be sent carries them)."""
        row = self._x("SELECT attachments FROM outbox WHERE id=?", (mail_id,)).fetchone()
        if row is None:
            return
        self._x("UPDATE outbox SET sent=?, attachments=?, message_id=?, size=? WHERE id=?",
                (at, _audit(row[0]), message_id, size, mail_id))
        for a in json.loads(row[0]):
            digest = a.get("sha256")
            if digest and self._x("SELECT 1 FROM outbox WHERE sent IS NULL AND attachments "
                                  "LIKE ? LIMIT 1", (f"%{digest}%",)).fetchone() is None:
                self._x("DELETE FROM outbox_files WHERE sha256=?", (digest,))

    def mark_refused(self, mail_id: int, at: float, why: str) -> None:
        """The SMTP server refused this mail for good (a malformed or unknown address): it
        is done with, never tried again, and keeps the server's answer."""
        self.mark_sent(mail_id, at)
        self._x("UPDATE outbox SET refused=? WHERE id=?", (why, mail_id))

    def refused(self) -> list[tuple[Mail, str]]:
        """Mails the SMTP server refused for good, with its answer, oldest first."""
        rows = self._x("SELECT * FROM outbox WHERE refused IS NOT NULL ORDER BY id")
        return [(self._mail(r), str(r["refused"])) for r in rows]

    def mark_all_sent(self, at: float) -> None:
        """Treat everything queued as sent (a fresh copy of a store, a benchmark's set-up)."""
        for row in self._x("SELECT id FROM outbox WHERE sent IS NULL").fetchall():
            self.mark_sent(int(row[0]), at)

    def sent_count(self, after: float = float("-inf")) -> int:
        """How many queued mails were sent (after the time ``after``)."""
        return int(self._x("SELECT COUNT(*) FROM outbox WHERE sent > ? AND refused IS NULL",
                           (after,)).fetchone()[0])

    # -- housekeeping ----------------------------------------------------------------------
    def give_back_space(self) -> None:
        """Return the pages freed since to the file system (a store made with
        ``auto_vacuum``; older ones shrink with ``mobadj store compact``)."""
        self._x("PRAGMA incremental_vacuum")

    def prune(self, now: float, retention_days: float) -> dict[str, int]:
        """Drop what the judge no longer needs (the caller holds the transaction): the text
        of mail sent more than ``retention_days`` ago (its record stays), replies counted
        for the loop limits (an hour is all they need), failed sign-ons older than
        ``AUTH_FAILURES_KEPT_DAYS``, and JOIN, WATCH and address changes long lapsed.
        Returns how many rows of each were dropped."""
        day = 86400.0
        done = {
            "mail texts": self._x(
                "UPDATE outbox SET body='', pruned=? WHERE sent IS NOT NULL AND sent<? AND "
                "pruned IS NULL", (now, now - retention_days * day)).rowcount,
            "reply counts": self._x("DELETE FROM replies WHERE at<?",
                                    (now - 2 * day,)).rowcount,
            "failed sign-ons": self._x("DELETE FROM auth_failures WHERE at<?",
                                       (now - AUTH_FAILURES_KEPT_DAYS * day,)).rowcount,
            "lapsed requests": self._x("DELETE FROM requests WHERE created<?",
                                       (now - 30 * day,)).rowcount
            + self._x("DELETE FROM address_changes WHERE created<?",
                      (now - 30 * day,)).rowcount,
        }
        return {k: v for k, v in done.items() if v}

    # -- replies per address ---------------------------------------------------------------
    def add_reply(self, address: str, kind: str, at: float, digest: str | None = None) -> None:
        """Count a reply to ``address``; ``digest``: of the writer's text it answered."""
        self._x("INSERT INTO replies (address, at, kind, digest) VALUES (?,?,?,?)",
                (address.lower(), at, kind, digest))

    def reply_digests(self, address: str, since: float, kind: str) -> list[str | None]:
        """The digests of the texts answered with a reply of ``kind`` to ``address`` since
        ``since`` (None for one counted without)."""
        rows = self._x("SELECT digest FROM replies WHERE address=? AND at>=? AND kind=?",
                       (address.lower(), since, kind))
        return [r[0] for r in rows]

    def replies(self, address: str, since: float, kinds: tuple[str, ...], limit: int
                ) -> list[float]:
        """When the latest ``limit`` replies of these kinds went to ``address`` since
        ``since`` (newest first)."""
        marks = ",".join("?" * len(kinds))
        rows = self._x(f"SELECT at FROM replies WHERE address=? AND at>=? AND kind IN ({marks})"
                       " ORDER BY at DESC LIMIT ?", (address.lower(), since, *kinds, limit))
        return [float(r[0]) for r in rows]

    # -- sign-ups and observers ------------------------------------------------------------
    def set_join(self, game: str, email: str, wishes: list[str], status: str, at: float
                 ) -> None:
        self._x("INSERT OR REPLACE INTO joins VALUES (?,?,?,?,?)",
                (game, email.lower(), json.dumps(wishes), status, at))

    def join(self, game: str, email: str) -> dict[str, Any] | None:
        row = self._x("SELECT * FROM joins WHERE game=? AND email=?",
                      (game, email.lower())).fetchone()
        return self._join(row) if row else None

    def joins(self, game: str) -> list[dict[str, Any]]:
        """A game's sign-ups in the order they came."""
        rows = self._x("SELECT * FROM joins WHERE game=? ORDER BY at, email", (game,))
        return [self._join(r) for r in rows]

    @staticmethod
    def _join(row: sqlite3.Row) -> dict[str, Any]:
        return {"email": row["email"], "wishes": json.loads(row["wishes"]),
                "status": row["status"], "at": row["at"]}

    def delete_join(self, game: str, email: str) -> None:
        self._x("DELETE FROM joins WHERE game=? AND email=?", (game, email.lower()))

    def add_watcher(self, game: str, email: str, at: float) -> None:
        self._x("INSERT OR IGNORE INTO watchers VALUES (?,?,?)", (game, email.lower(), at))

    def delete_watcher(self, game: str, email: str) -> bool:
        cur = self._x("DELETE FROM watchers WHERE game=? AND email=?", (game, email.lower()))
        return cur.rowcount > 0

    def watchers(self, game: str) -> list[str]:
        rows = self._x("SELECT email FROM watchers WHERE game=? ORDER BY email", (game,))
        return [str(r[0]) for r in rows]

    # -- votes and endings -----------------------------------------------------------------
    def set_vote(self, game: str, power: str, kind: str, target: list[str], at: float) -> None:
        self._x("INSERT OR REPLACE INTO votes VALUES (?,?,?,?,?)",
                (game, power, kind, json.dumps(target), at))

    def delete_vote(self, game: str, power: str, kind: str) -> None:
        self._x("DELETE FROM votes WHERE game=? AND power=? AND kind=?", (game, power, kind))

    def votes(self, game: str) -> dict[str, dict[str, list[str]]]:
        """kind -> power -> target."""
        out: dict[str, dict[str, list[str]]] = {}
        for r in self._x("SELECT power, kind, target FROM votes WHERE game=?", (game,)):
            out.setdefault(r["kind"], {})[r["power"]] = json.loads(r["target"])
        return out

    def set_ending(self, game: str, result: str, powers: list[str], how: str, phase: str,
                   at: float) -> None:
        self._x("INSERT OR REPLACE INTO endings VALUES (?,?,?,?,?,?)",
                (game, result, json.dumps(powers), how, phase, at))

    def ending(self, game: str) -> dict[str, Any] | None:
        row = self._x("SELECT * FROM endings WHERE game=?", (game,)).fetchone()
        return None if row is None else dict(row) | {"powers": json.loads(row["powers"])}

    def delete_ending(self, game: str) -> None:
        self._x("DELETE FROM endings WHERE game=?", (game,))

    # -- address changes --------------------------------------------------------------------
    def start_address_change(self, game: str, power: str, old: str, new: str,
                             codes: dict[str, str], at: float) -> None:
        """A new request replaces any earlier one for the seat."""
        self._x("INSERT OR REPLACE INTO address_changes VALUES (?,?,?,?,?,?)",
                (game, power, old.lower(), new.lower(), json.dumps(codes), at))

    def start_request(self, game: str, email: str, kind: str, args: list[str], digest: str,
                      at: float) -> None:
        """A JOIN or WATCH waiting for the code mailed to ``email`` (a new request of the
        same kind replaces one)."""
        self._x("INSERT OR REPLACE INTO requests VALUES (?,?,?,?,?,?)",
                (game, email.lower(), kind, json.dumps(args), digest, at))

    def request_made(self, game: str, email: str, kind: str) -> float | None:
        """When the waiting JOIN or WATCH of ``email`` was made (None: none waits)."""
        row = self._x("SELECT created FROM requests WHERE game=? AND email=? AND kind=?",
                      (game, email.lower(), kind)).fetchone()
        return None if row is None else float(row["created"])

    def set_request_args(self, game: str, email: str, kind: str, args: list[str]) -> None:
        """New arguments (a JOIN's wishes) for a request that keeps its code."""
        self._x("UPDATE requests SET args=? WHERE game=? AND email=? AND kind=?",
                (json.dumps(args), game, email.lower(), kind))

    def confirm_request(self, email: str, digest: str, since: float
                        ) -> tuple[str, str, list[str]] | None:
        """(game, kind, args) of the request from ``email`` that the code ``digest``
        confirms (it is removed), or None; requests older than ``since`` lapse."""
        self._x("DELETE FROM requests WHERE created<?", (since,))
        email = email.lower()
        for row in self._x("SELECT * FROM requests WHERE email=?", (email,)).fetchall():
            if hmac.compare_digest(row["digest"], digest):
                self._x("DELETE FROM requests WHERE game=? AND email=? AND kind=?",
                        (row["game"], email, row["kind"]))
                return str(row["game"]), str(row["kind"]), list(json.loads(row["args"]))
        return None

    def confirm_address_change(self, address: str, digest: str, since: float
                               ) -> tuple[dict[str, Any], bool] | None:
        """Tick off the code ``digest`` sent back from ``address`` (requests older than
        ``since`` have lapsed).  Returns the change and whether it is now confirmed by both
        sides (then it is removed), or None when no request waits for that code there."""
        address = address.lower()
        rows = self._x("SELECT * FROM address_changes WHERE (old=? OR new=?) AND created>=?",
                       (address, address, since)).fetchall()
        for row in rows:
            codes = json.loads(row["codes"])
            side = next((k for k, v in codes.items()
                         if hmac.compare_digest(v, digest) and row[k] == address), None)
            if side is None:
                continue
            del codes[side]
            change = {k: row[k] for k in ("game", "power", "old", "new")}
            if codes:
                self._x("UPDATE address_changes SET codes=? WHERE game=? AND power=?",
                        (json.dumps(codes), row["game"], row["power"]))
                return change, False
            self._x("DELETE FROM address_changes WHERE game=? AND power=?",
                    (row["game"], row["power"]))
            return change, True
        return None

    # -- people (settings of an address) ---------------------------------------------------
    def timezone(self, email: str) -> str | None:
        row = self._x("SELECT timezone FROM people WHERE email=?", (email.lower(),)).fetchone()
        return None if row is None else row[0]

    def set_timezone(self, email: str, timezone: str | None) -> None:
        self._x("INSERT INTO people (email, timezone) VALUES (?, ?) "
                "ON CONFLICT(email) DO UPDATE SET timezone=excluded.timezone",
                (email.lower(), timezone))

    # -- private games' page keys -------------------------------------------------------------
    def web_key(self, game: str) -> str | None:
        """The key a private game's pages need; None for a public game.  Kept in clear (the
        GM hands it out again with ``mobadj game link``): it guards a read-only view of data
        this file holds anyway."""
        row = self._x("SELECT key FROM web_keys WHERE game=?", (game.lower(),)).fetchone()
        return str(row["key"]) if row else None

    def game_key(self, name: str) -> tuple[str, str | None] | None:
        """The game called ``name`` (in any case), as its name is stored, with its pages'
        key (None: public); None when there is no such game.  One query that reads none of
        the game's state, so that the pages answer for a private game in the time they
        take for a missing one."""
        row = self._x("SELECT g.name, k.key FROM games g LEFT JOIN web_keys k "
                      "ON k.game = g.name WHERE g.name=?", (name.lower(),)).fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else str(row[1]))

    def set_web_key(self, game: str, key: str | None, at: float) -> None:
        """Make a game private with ``key``, or public again with None."""
        self._x("DELETE FROM web_keys WHERE game=?", (game.lower(),))
        if key is not None:
            self._x("INSERT INTO web_keys VALUES (?,?,?)", (game.lower(), key, at))

    # -- seats signed in on the pages -------------------------------------------------------
    def add_web_session(self, token: str, game: str, power: str | None, proof: str,
                        csrf: str, at: float, expires: float) -> None:
        """A seat signed in on the pages (``token``: the digest of its cookie); sessions
        past their time are dropped then."""
        self._x("DELETE FROM web_sessions WHERE expires<?", (at,))
        self._x("INSERT INTO web_sessions (token, game, power, proof, csrf, created, expires) "
                "VALUES (?,?,?,?,?,?,?)", (token, game, power, proof, csrf, at, expires))

    def web_session(self, token: str) -> dict[str, Any] | None:
        row = self._x("SELECT * FROM web_sessions WHERE token=?", (token,)).fetchone()
        return None if row is None else dict(row)

    def set_web_said(self, token: str, said: str) -> None:
        self._x("UPDATE web_sessions SET said=? WHERE token=?", (said, token))

    def web_done(self, token: str) -> list[str]:
        """The once-only forms (digests) this session has done lately, oldest first."""
        row = self._x("SELECT done FROM web_sessions WHERE token=?", (token,)).fetchone()
        return str(row["done"]).split() if row is not None else []

    def add_web_done(self, token: str, form: str, keep: int = 20) -> None:
        """A once-only form done by this session; the last ``keep`` are remembered."""
        done = [*self.web_done(token), form][-keep:]
        self._x("UPDATE web_sessions SET done=? WHERE token=?", (" ".join(done), token))

    def delete_web_session(self, token: str) -> None:
        self._x("DELETE FROM web_sessions WHERE token=?", (token,))

    # -- authentication throttling -----------------------------------------------------------
    def add_auth_failure(self, key: str, at: float) -> None:
        self._x("INSERT INTO auth_failures VALUES (?,?)", (key, at))

    def auth_failures(self, key: str, since: float) -> int:
        row = self._x(
            "SELECT COUNT(*) FROM auth_failures WHERE key=? AND at>=?", (key, since)
        ).fetchone()
        return int(row[0])

    def auth_failure_keys(self, prefix: str, since: float) -> list[str]:
        """The keys beginning with ``prefix`` that have failures since ``since``."""
        rows = self._x("SELECT DISTINCT key FROM auth_failures WHERE key>=? AND key<? AND "
                       "at>=? ORDER BY key", (prefix, prefix + "\U0010ffff", since))
        return [str(r[0]) for r in rows]

    def last_auth_failure(self, key: str) -> float | None:
        row = self._x("SELECT MAX(at) FROM auth_failures WHERE key=?", (key,)).fetchone()
        return None if row[0] is None else float(row[0])


def _upgrade_1_to_2(store: Store) -> None:
    """Schema 1 -> 2: delivered mail keeps no attachment and every mail gets its digest;
    each seated player's tenure starts when they were seated (the event log says when)."""
    db = store.db
    for r in db.execute("SELECT id, body, attachments, sent FROM outbox").fetchall():
        atts = [(a["name"], a["mime"], base64.b64decode(a["data"]))
                for a in json.loads(r["attachments"]) if "data" in a]
        if r["sent"] is None:  # waiting: its attachments go to outbox_files, once each
            for _, _, data in atts:
                db.execute("INSERT OR IGNORE INTO outbox_files VALUES (?, ?)",
                           (hashlib.sha256(data).hexdigest(), data))
        db.execute("UPDATE outbox SET attachments=?, digest=? WHERE id=?",
                   (_audit(r["attachments"]), content_digest(r["body"], atts), r["id"]))
    told = db.execute("SELECT MAX(id) FROM outbox WHERE refused IS NOT NULL").fetchone()[0]
    store.set_meta("refusals_told", str(told or 0))  # refusals before the upgrade are old news
    for p in db.execute("SELECT * FROM players").fetchall():
        game = db.execute("SELECT created, phase FROM games WHERE name=?",
                          (p["game"],)).fetchone()
        start, how = (float(game["created"]) if game else 0.0), "added"
        for e in db.execute("SELECT at, kind, data FROM events WHERE game=? AND kind IN "
                            "('player added', 'replaced') ORDER BY id", (p["game"],)):
            if json.loads(e["data"]).get("power") == p["power"]:
                start, how = float(e["at"]), ("replaced" if e["kind"] == "replaced"
                                              else "added")
        first = db.execute("SELECT phase FROM results WHERE game=? AND at>=? AND rolled_back=0"
                           " ORDER BY id LIMIT 1", (p["game"], start)).fetchone()
        phase = first["phase"] if first else (game["phase"] if game else "")
        db.execute("INSERT INTO tenures (game, power, email, start, start_phase, how, "
                   "nmr_total, absence_used) VALUES (?,?,?,?,?,?,?,?)",
                   (p["game"], p["power"], p["email"], start, phase, how, p["nmr_total"],
                    p["absence_used"]))


#: The steps that bring a store from schema N to N + 1, run in one transaction.
UPGRADES: dict[int, Callable[[Store], None]] = {1: _upgrade_1_to_2}
