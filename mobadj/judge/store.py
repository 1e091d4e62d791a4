"""All of a judge's games in one SQLite file, written in transactions.

What is kept (so any game can be replayed to any point): games with their options, seed
and current state; players with scrypt-hashed passwords; every handled mail (Message-ID and
IMAP UID) and every accepted command; orders per phase; results with the state before and
after; press; an event log; and an outbox of mails to send.  A mail's effect, its record as
handled and the replies it causes are written in one transaction: exactly once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

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
CREATE TABLE IF NOT EXISTS web_keys (   -- a private game's pages need this key (mobadj web)
    game TEXT PRIMARY KEY REFERENCES games(name), key TEXT NOT NULL, created REAL NOT NULL
);
"""
# Columns added after a table was first created: (table, column, declaration).
ADDED_COLUMNS = (
    ("press", "broadcast", "INTEGER NOT NULL DEFAULT 0"),  # sent to ALL: public on the pages
)

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
    state: Any
    phase: str
    deadline: float | None
    paused_until: float | None
    pause_left: float | None
    reminded: bool
    extended: bool
    gm_email: str
    gm_hash: str
    created: float


@dataclass
class Player:
    game: str
    power: str
    email: str
    pw_hash: str
    status: str
    nmr_total: int
    nmr_streak: int
    absence_used: float
    ready: bool


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


class StoreError(RuntimeError):
    """The store file cannot be used (wrong schema version, locked for too long)."""


class Store:
    """One SQLite file.  Use :meth:`transaction` for every change that must be atomic."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        """Open (and create or bring up to date) the store; ``readonly`` opens an existing
        store for reading only (the web pages, beside a running judge)."""
        self.path = Path(path)
        self.readonly = readonly
        self._depth = 0
        if readonly:
            if not self.path.is_file():
                raise StoreError(f"{self.path}: no judge store there (has the judge run?)")
            self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                      isolation_level=None, timeout=30,
                                      check_same_thread=False)
            self.db.row_factory = sqlite3.Row
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(
                str(self.path), isolation_level=None, timeout=30, check_same_thread=False
            )
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
            for table, column, decl in ADDED_COLUMNS:
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a judge store ({exc})") from None
        if row is None and not readonly:
            self.db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )
        elif row is None or int(row[0]) != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: schema {row[0] if row else 'none'}, this judge "
                             f"reads {SCHEMA_VERSION}")

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
        try:
            yield self
        except BaseException:
            self._depth = 0
            self.db.execute("ROLLBACK")
            raise
        self._depth = 0
        self.db.execute("COMMIT")

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
    def add_player(self, game: str, power: str, email: str, pw_hash: str) -> None:
        self._x(
            "INSERT INTO players (game, power, email, pw_hash) VALUES (?,?,?,?)",
            (game, power, email.lower(), pw_hash),
        )

    def players(self, game: str) -> list[Player]:
        rows = self._x("SELECT * FROM players WHERE game=? ORDER BY power", (game,))
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
        self, game: str, phase: str, power: str, text: str, at: float, message_id: str | None
    ) -> None:
        self._x(
            "INSERT OR REPLACE INTO orders VALUES (?,?,?,?,?,?)",
            (game, phase, power, text, at, message_id),
        )

    def orders(self, game: str, phase: str) -> dict[str, str]:
        rows = self._x("SELECT power, text FROM orders WHERE game=? AND phase=?", (game, phase))
        return {r["power"]: r["text"] for r in rows}

    def submitted(self, game: str, phase: str) -> set[str]:
        """The powers that have orders in for a phase (who, never what)."""
        rows = self._x("SELECT power FROM orders WHERE game=? AND phase=?", (game, phase))
        return {r["power"] for r in rows}

    def delete_orders(self, game: str, phase: str) -> None:
        self._x("DELETE FROM orders WHERE game=? AND phase=?", (game, phase))

    def add_press(
        self, game: str, phase: str, sender: str, recipients: list[str], grey: bool,
        text: str, at: float, broadcast: bool = False,
    ) -> None:
        """``broadcast``: sent to ALL (public press), not to a list of powers."""
        self._x(
            "INSERT INTO press (game, phase, sender, recipients, grey, text, at, broadcast) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (game, phase, sender, json.dumps(recipients), int(grey), text, at, int(broadcast)),
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

    def events(self, game: str) -> list[dict[str, Any]]:
        rows = self._x("SELECT * FROM events WHERE game=? ORDER BY id", (game,))
        return [dict(r) | {"data": json.loads(r["data"])} for r in rows]

    # -- results -----------------------------------------------------------------------------
    def add_result(
        self, game: str, phase: str, before: Any, after: Any, orders: dict[str, Any],
        report: dict[str, Any], at: float,
    ) -> int:
        cur = self._x(
            "INSERT INTO results (game, phase, state_before, state_after, orders, report, at) "
            "VALUES (?,?,?,?,?,?,?)",
            (game, phase, json.dumps(before), json.dumps(after), json.dumps(orders),
             json.dumps(report), at),
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
        atts = [
            {"name": n, "mime": m, "data": base64.b64encode(b).decode()}
            for n, m, b in mail.attachments
        ]
        cur = self._x(
            "INSERT INTO outbox (to_addr, subject, body, attachments, headers, game, created) "
            "VALUES (?,?,?,?,?,?,?)",
            (mail.to, mail.subject, mail.body, json.dumps(atts), json.dumps(mail.headers),
             mail.game, at),
        )
        return int(cur.lastrowid or 0)

    def unsent(self, limit: int = 500) -> list[Mail]:
        rows = self._x("SELECT * FROM outbox WHERE sent IS NULL ORDER BY id LIMIT ?", (limit,))
        return [self._mail(r) for r in rows]

    def all_mail(self) -> list[Mail]:
        return [self._mail(r) for r in self._x("SELECT * FROM outbox ORDER BY id")]

    @staticmethod
    def _mail(r: sqlite3.Row) -> Mail:
        atts = [
            (a["name"], a["mime"], base64.b64decode(a["data"]))
            for a in json.loads(r["attachments"])
        ]
        return Mail(
            to=r["to_addr"], subject=r["subject"], body=r["body"], attachments=atts,
            headers=json.loads(r["headers"]), game=r["game"], id=r["id"],
        )

    def mark_sent(self, mail_id: int, at: float) -> None:
        self._x("UPDATE outbox SET sent=? WHERE id=?", (at, mail_id))

    # -- private games' page keys -------------------------------------------------------------
    def web_key(self, game: str) -> str | None:
        """The key a private game's pages need; None for a public game.  Kept in clear (the
        GM hands it out again with ``mobadj game link``): it guards a read-only view of data
        this file holds anyway."""
        row = self._x("SELECT key FROM web_keys WHERE game=?", (game,)).fetchone()
        return str(row["key"]) if row else None

    def set_web_key(self, game: str, key: str | None, at: float) -> None:
        """Make a game private with ``key``, or public again with None."""
        self._x("DELETE FROM web_keys WHERE game=?", (game,))
        if key is not None:
            self._x("INSERT INTO web_keys VALUES (?,?,?)", (game, key, at))

    # -- authentication throttling -----------------------------------------------------------
    def add_auth_failure(self, key: str, at: float) -> None:
        self._x("INSERT INTO auth_failures VALUES (?,?)", (key, at))

    def auth_failures(self, key: str, since: float) -> int:
        row = self._x(
            "SELECT COUNT(*) FROM auth_failures WHERE key=? AND at>=?", (key, since)
        ).fetchone()
        return int(row[0])
