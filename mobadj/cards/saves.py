"""Saved terminal games that keep their secrets and refuse edits.

A game in progress is saved for resuming, never for reading: its record (seed, salt, every
action, sealed bets and face-down offers included) is *sealed*.  The file holds in readable
form only what every seat at the keyboard may know (the game, its seats and options, the
seed commitment, how many moves were made); the rest is encrypted with a key of that game
kept apart from the file, in the user's key folder (:func:`keys_folder`), and never printed.

The construction uses only the standard library: a key of 256 bits from :mod:`secrets`
per game; from it, by HMAC-SHA256, one key that encrypts (SHAKE-256 of key and a fresh
128-bit nonce as the key stream, XORed with the record, the record padded to a multiple of
:data:`PAD` bytes so its length says little) and one that authenticates (HMAC-SHA256 over
the whole file: the readable fields, the nonce and the sealed text).  The file must be
byte for byte what was written, so an edit anywhere, even of a space, is refused.

Replay: the key file remembers the tag and the number of the game's latest save, and only
that save resumes, or a save of a higher number (the number is signed with the rest): one
made with a copy of the key on another machine, where the game went on (a game moved there
and back).  Resuming it, the key remembers it as the latest.  A copy kept from earlier (to
take back a draw by restoring it) is refused, and the terminal saves at every prompt, so
killing the program after a draw does not help either.
Saving writes the key file with the new tag as *pending* first, then the save, then the key
file with it as the latest: a crash between the writes leaves one of the two files able to
resume, never none.  The same save resumed in two windows is one game: once one window has
saved, the other finds by the key file that its game is no longer the latest
(:class:`PlayedElsewhere`) and stops without saving.  The check and the save it allows are
made under one exclusive lock of the game (:meth:`GameKey.locked`, a lock file beside the
key), so a save of another window never lands between them.

What this cannot do: the key is a file of the same account, so whoever owns the machine can
read it and, with this code, open the save.  Sealing keeps the secrets from a glance and
from an edit, not from someone who sets out to read them (docs/cards/playing.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mobadj.cards.protocol import IllegalAction
from mobadj.errors import CardGameError
from mobadj.privatefile import write_privately

if sys.platform != "win32":
    import fcntl

SAVE_FORMAT = "mobadj-card-save"
KEY_BYTES = 32
NONCE_BYTES = 16
PAD = 512  # the sealed record is padded to a multiple of this many bytes
DEFAULT_KEYS = "~/.local/share/mobadj/keys"  # the keys folder as the docs name it
_ID = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"(?:[0-9a-f]{2})*")
# the readable fields, in the order they are written (each is authenticated by the tag)
PUBLIC = ("format", "note", "game", "game_id", "save", "players", "seats", "options",
          "rules_version", "deck_version", "commitment_scheme", "seed_commitment", "moves")


class PlayedElsewhere(CardGameError):
    """The game of this session was saved, or played to its end, by another session (a
    second window) since it was opened here: going on here would fork the game, and a save
    from here would take back the moves made there.  Not a player's mistake to correct at
    the prompt, so not a :class:`GameError`."""


def data_folder() -> Path:
    """The user's data folder for mobadj: ``$XDG_DATA_HOME/mobadj``, else
    ``~/.local/share/mobadj``."""
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and Path(data).is_absolute() else Path.home() / ".local/share"
    return base / "mobadj"


def keys_folder() -> Path:
    """Where the keys of saved games are kept: ``$MOBADJ_KEY_DIR``, else ``keys`` in the
    user's data folder; never beside the saves, which may be anywhere."""
    own = os.environ.get("MOBADJ_KEY_DIR")
    return Path(own).expanduser() if own else data_folder() / "keys"


@dataclass
class GameKey:
    """The key of one saved game, the tags of its latest (and pending) save and the
    latest's number (``number`` 0: not known, a key written by an earlier mobadj)."""

    game_id: str
    secret: bytes
    latest: str = ""
    pending: str = ""
    number: int = 0
    _held: int = field(default=0, repr=False, compare=False)  # depth of locked() here

    @classmethod
    def new(cls) -> GameKey:
        return cls(secrets.token_hex(16), secrets.token_bytes(KEY_BYTES))

    @property
    def path(self) -> Path:
        return keys_folder() / f"{self.game_id}.key"

    @classmethod
    def load(cls, game_id: str) -> GameKey:
        """The key of the game ``game_id``; IllegalAction when it is not on this machine."""
        path = keys_folder() / f"{game_id}.key"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            key = cls(game_id, bytes.fromhex(data["key"]), str(data.get("latest", "")),
                      str(data.get("pending", "")), int(data.get("save", 0)))
        except FileNotFoundError:
            raise IllegalAction(
                f"its key is not on this machine (looked for {game_id}.key in "
                f"{keys_folder()}): to go on here, copy {game_id}.key from the keys folder of "
                f"the machine where the game was saved ({DEFAULT_KEYS} there, unless "
                f"MOBADJ_KEY_DIR names another) into {keys_folder()}") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            raise IllegalAction(f"its key in {path} cannot be read") from None
        if len(key.secret) != KEY_BYTES:
            raise IllegalAction(f"its key in {path} cannot be read")
        return key

    def store(self) -> None:
        folder = keys_folder()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_privately(self.path, json.dumps({"key": self.secret.hex(), "latest": self.latest,
                                               "pending": self.pending,
                                               "save": self.number}) + "\n")

    @property
    def lock_path(self) -> Path:
        return keys_folder() / f"{self.game_id}.lock"

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the game's exclusive lock (``flock`` of :attr:`lock_path`; another window
        of the game waits for it), so that a check that this session's save is still the
        latest (:func:`still_latest`) and the save or move it allows are one step.  Taken
        again inside, it is already held."""
        if self._held:
            self._held += 1
            try:
                yield
            finally:
                self._held -= 1
            return
        folder = keys_folder()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if sys.platform != "win32":
                fcntl.flock(fd, fcntl.LOCK_EX)
            self._held = 1
            try:
                yield
            finally:
                self._held = 0
        finally:
            os.close(fd)  # (closing it releases the lock)

    def forget(self) -> None:
        """The game is over: its save is a plain record now, the key is of no more use (and
        with no latest save, :func:`still_latest` asks nothing more of it).  A window that
        waits for the lock meanwhile finds the key gone once it has it."""
        self.path.unlink(missing_ok=True)
        self.lock_path.unlink(missing_ok=True)
        self.latest = self.pending = ""

    def _derived(self, purpose: bytes) -> bytes:
        return hmac.new(self.secret, b"mobadj card save: " + purpose, hashlib.sha256).digest()

    def stream(self, nonce: bytes, length: int) -> bytes:
        return hashlib.shake_256(self._derived(b"seal") + nonce).digest(length)

    def tag(self, body: str) -> str:
        return hmac.new(self._derived(b"tag"), body.encode("utf-8"), hashlib.sha256).hexdigest()


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def _body_text(fields: dict[str, Any]) -> str:
    """The file's text without its tag (what the tag authenticates)."""
    return json.dumps(fields, indent=1, ensure_ascii=False)


def _file_text(body: str, tag: str) -> str:
    """The file's text: ``body`` with the tag as its last field (as ``json.dumps`` would
    write the fields and the tag together)."""
    return body[:-2] + _tag_line(tag)


def _tag_line(tag: str) -> str:
    """The end of a sealed file's text: its tag as the last field."""
    return f',\n "tag": "{tag}"\n}}\n'


def _body_of(text: str, tag: str) -> str | None:
    """The body of a sealed file's ``text`` (what its tag authenticates), taken from the
    text itself: what :func:`_file_text` made it from; None when the text does not end with
    its tag as written.  (Any other change to the text is a change to the body, which the
    tag then refuses: the fields need not be written out again to be checked.)"""
    end = _tag_line(tag)
    if not text.endswith(end):
        return None
    return text[:-len(end)] + "\n}"


def public_fields(content: dict[str, Any], key: GameKey, number: int) -> dict[str, Any]:
    """What every seat at the keyboard may read of a saved game (``content`` is the whole
    of it, :meth:`Session.to_json`)."""
    bots = {f"P{b}" for b in content.get("bots", [])}
    levels = content.get("bot_levels", {})
    seats = {f"P{p + 1}": (f"bot ({levels.get(f'P{p + 1}', 'standard')})"
                           if f"P{p + 1}" in bots else "human")
             for p in range(int(content["players"]))}
    game = content["game"]
    return {
        "format": SAVE_FORMAT,
        "note": (f"A {game} game in progress, sealed: its secrets are encrypted with a key "
                 f"kept apart from this file ({key.game_id}.key, in {DEFAULT_KEYS} or "
                 "$MOBADJ_KEY_DIR), and a changed file is refused. Go on with: "
                 f"mobadj play {game} --resume FILE (on another machine, copy the key file "
                 "there too)"),
        "game": game,
        "game_id": key.game_id,
        "save": number,
        "players": content["players"],
        "seats": seats,
        "options": content.get("options", {}),
        "rules_version": content.get("rules_version", ""),
        "deck_version": content.get("deck_version", ""),
        "commitment_scheme": content.get("commitment_scheme", ""),
        "seed_commitment": content.get("seed_commitment", ""),
        "moves": len(content.get("actions", [])),
    }


def seal(content: dict[str, Any], key: GameKey, number: int) -> tuple[str, str]:
    """The text of a sealed save of ``content`` (save number ``number``) and its tag."""
    plain = json.dumps(content, ensure_ascii=False).encode("utf-8")
    plain += b" " * (-len(plain) % PAD)  # JSON ignores trailing blanks
    nonce = secrets.token_bytes(NONCE_BYTES)
    fields = public_fields(content, key, number)
    fields["nonce"] = nonce.hex()
    fields["sealed"] = _xor(plain, key.stream(nonce, len(plain))).hex()
    body = _body_text(fields)
    tag = key.tag(body)
    return _file_text(body, tag), tag


def is_sealed(data: dict[str, Any]) -> bool:
    return data.get("format") == SAVE_FORMAT


@dataclass
class Opened:
    """A sealed save opened: the game's whole content, its key and its save number."""

    content: dict[str, Any]
    key: GameKey | None  # None: a save of an earlier mobadj, in plain text
    number: int


def open_sealed(text: str, data: dict[str, Any]) -> Opened:
    """Check and open a sealed save (``data`` is ``text`` read as JSON).  Raises
    IllegalAction with one line: changed, not the latest save, or no key."""
    changed = IllegalAction("it has been changed since it was saved (a saved game is sealed "
                            "and cannot be edited)")
    game_id = data.get("game_id")
    tag = data.get("tag")
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id) or not isinstance(tag, str):
        raise changed
    fields = {k: v for k, v in data.items() if k != "tag"}
    if list(fields) != [*PUBLIC, "nonce", "sealed"] or not _HEX.fullmatch(tag):
        raise changed
    body = _body_of(text, tag)
    if body is None:
        raise changed
    key = GameKey.load(game_id)
    if not hmac.compare_digest(key.tag(body), tag):
        raise changed
    number = fields["save"]
    newer = (tag not in (key.latest, key.pending) and key.number > 0
             and isinstance(number, int) and number > key.number)
    if tag not in (key.latest, key.pending) and not newer:
        raise IllegalAction("it is not the game's latest save: the game was saved again "
                            "since, so this copy would take back moves (only the latest save "
                            "resumes)")
    nonce, sealed = str(fields["nonce"]), str(fields["sealed"])
    if not (_HEX.fullmatch(nonce) and _HEX.fullmatch(sealed)):
        raise changed
    plain = _xor(bytes.fromhex(sealed), key.stream(bytes.fromhex(nonce), len(sealed) // 2))
    try:
        content = json.loads(plain.decode("utf-8"))
    except ValueError:
        raise changed from None
    # (the note is only words for a reader, authenticated with the rest: an earlier
    # mobadj's note differs, and its saves still resume)
    if not isinstance(content, dict) or {
            k: v for k, v in public_fields(content, key, fields["save"]).items()
            if k != "note"} != {k: fields[k] for k in PUBLIC if k != "note"}:
        raise changed
    key.latest, key.pending, key.number = tag, "", int(number)
    if newer:  # made with a copy of the key elsewhere: from now on the latest here too
        with key.locked():
            key.store()
    return Opened(content, key, int(number))


def write_sealed(path: Path, content: dict[str, Any], key: GameKey, number: int) -> None:
    """Seal ``content`` into ``path`` as the game's latest save (see the module's doc for
    the order of the writes).  PlayedElsewhere when another session of the same game has
    saved since this one opened or last saved it: its save stands (a second window's quit
    would otherwise take back the draws made in the first).  The check and the writes
    are made under the game's lock: no other save lands between them."""
    with key.locked():
        still_latest(key)
        text, tag = seal(content, key, number)
        key.pending = tag
        key.store()
        write_privately(path, text)
        key.latest, key.pending, key.number = tag, "", number
        key.store()


def still_latest(key: GameKey) -> None:
    """Raise PlayedElsewhere unless the save this session knows is still the game's latest,
    by its key file: checked before each save and each move, so a stale window neither
    overwrites the game nor plays on a copy of it (and reaches an end screen with its
    seed)."""
    if not key.latest:  # a game never saved before
        return
    try:
        stored = json.loads(key.path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlayedElsewhere("This game was ended in another window (or program) since it "
                              "was opened here, or its key was deleted. This window stops "
                              "without saving.") from None
    except (OSError, ValueError):
        return  # unreadable: GameKey.store writes it afresh
    if not isinstance(stored, dict):
        return  # (as unreadable)
    if key.latest not in (stored.get("latest"), stored.get("pending")):
        raise PlayedElsewhere("This game was played on in another window (or program) since "
                              "it was opened here, and saved there: that save stands. This "
                              "window stops without saving; resume the game's latest save "
                              "to go on here.")


FINISHED_FILE = "finished"  # in the keys folder: the commitments of the games ended here
FINISHED_MARKS = ("scores", "winners", "ended")  # fields only a finished record has


def remember_finished(commitment: str) -> None:
    """Note that the game of ``commitment`` ended here (its record replaced its save): its
    record, edited back into the shape of a plain save, then never resumes here
    (:func:`finished_record`).  One line a game, appended (commitments are public)."""
    folder = keys_folder()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(folder / FINISHED_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="ascii") as out:
        out.write(commitment + "\n")


def finished_here() -> set[str]:
    """The commitments of the games that ended on this machine (:func:`remember_finished`)."""
    try:
        return set((keys_folder() / FINISHED_FILE).read_text(encoding="ascii").split())
    except (OSError, ValueError):
        return set()


def finished_record(data: dict[str, Any]) -> str | None:
    """Why the plain file ``data`` (not a sealed save) is, or was, a finished game's record
    and not a save of an earlier mobadj, or None.  A finished record has the shape of such a
    save, so one edited (its end and last move taken out) would let the last move be played
    again once the scores, seed and salt were seen: its marks give it away (final scores,
    winners, an early end), or the judge's record.json's shape (no seat's feed: every save
    of the terminal has one), or its commitment is of a game that ended on this machine."""
    if data.get("over") or any(mark in data for mark in FINISHED_MARKS):
        return "the file is its finished record"
    if "seen" not in data:
        return "the file is a game's record as the judge mails it, not a saved game"
    from mobadj.cards.record import GameRecord

    if GameRecord.from_json(data).commitment in finished_here():
        return "it ended on this machine, and this file is its record with the end taken out"
    return None


def read_save(path: str | Path) -> Opened:
    """A saved game read back for ``--resume``: a sealed save checked and opened
    (:func:`open_sealed`), or a save of an earlier mobadj, which kept its record in plain
    text (``key`` None).  Raises IllegalAction with one line."""
    from mobadj.cards.record import RECORD_FORMAT, read_json_file

    text, data = read_json_file(path)
    if is_sealed(data):
        return open_sealed(text, data)
    if "format" in data and data["format"] != RECORD_FORMAT:  # (an earlier save's is that)
        raise IllegalAction(f"it is not a saved mobadj game: its format is "
                            f"{str(data['format'])[:40]!r}, expected {SAVE_FORMAT!r}")
    if not data.get("game"):
        raise IllegalAction("it is not a saved mobadj game: it names no game")
    return Opened(data, None, 0)
