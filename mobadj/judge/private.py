"""The judge's files are its own: the store holds the players' mails (private press, card
hands, welcome mails with passwords waiting in the outbox), so the store, its SQLite
companions and its copies are made readable by the judge's user alone, whatever the umask,
and a store made before loses what everyone else may do with it.  (The log holds nothing
secret, mobadj.judge.logs, and is made the same way: it names the players' addresses.)"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: the files SQLite keeps beside a database
COMPANIONS = ("-wal", "-shm", "-journal")


def private_dir(path: Path) -> None:
    """Make the folder ``path`` if missing, for this user alone (the parents made on the
    way keep the umask's rights, as ``mkdir -p``: the folder closes what is inside); a
    folder that exists is left as its owner set it."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)


def private_file(path: Path) -> None:
    """Make ``path`` an empty file only this user may read (mode 0600) if it is missing, or
    take everyone else's rights from it if it exists (:func:`keep_private`).  SQLite gives
    the write-ahead log and shared-memory files it makes the mode of their database."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        keep_private(path)
    else:
        os.close(fd)


def keep_private(path: Path) -> None:
    """Take everyone else's rights from ``path`` and its SQLite companions (a store an
    older mobadj made with the umask's rights, 0644).  The group's are kept: a group that
    may read the store was given it on purpose.  A file this user does not own is left as
    it is: its owner decides, and the judge still runs."""
    for one in (path, *(path.with_name(path.name + end) for end in COMPANIONS)):
        try:
            mode = stat.S_IMODE(one.stat().st_mode)
            if mode & 0o007:
                one.chmod(mode & 0o770)
        except OSError:  # no such file, or not this user's
            continue
