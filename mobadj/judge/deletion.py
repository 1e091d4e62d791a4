"""``mobadj game delete``: take a game that is over out of the store, with the personal data
kept in it (players' addresses, private press, orders), once the GM has its archive.

Only a game that is ended, or still forming (made by mistake), may go, and only when no mail
of it waits to be sent: deleting an active game would strand its players, and deleting its
last mails would leave them without the end of their game.  Backups made before keep it.
"""

from __future__ import annotations

import contextlib
import sqlite3

from mobadj.judge.base import JudgeError
from mobadj.judge.store import Store

DELETABLE = ("ended", "forming")
"""The states in which a game may be deleted."""


def refusal(store: Store, name: str) -> str | None:
    """Why the game ``name`` cannot be deleted now (None: it can)."""
    game = store.game(name)
    if game is None:
        return f"no game {name!r} (mobadj game list names them)"
    if game.status not in DELETABLE:
        return (f"{game.name} is {game.status}: end it first (mobadj game end {game.name}), "
                f"then keep its archive (mobadj game export {game.name} -o FILE) and delete it")
    waiting = store.unsent_count(game.name)
    if waiting:
        return (f"{waiting} mail(s) of {game.name} wait to be sent: let the judge send them "
                "(mobadj serve --once) and delete it then")
    return None


def delete_game(store: Store, name: str, now: float) -> dict[str, int]:
    """Delete the game ``name`` and what is kept of it; returns the rows removed per table.
    Raises :class:`JudgeError` when it may not go (:func:`refusal`)."""
    with store.transaction():
        why = refusal(store, name)
        if why:
            raise JudgeError(why)
        game = store.game(name)
        assert game is not None
        gone = store.delete_game(game.name)
        store.log(None, "game deleted", {"game": game.name, "rows": gone}, now)
    # the deleted pages leave the write-ahead log too (a reader may delay it: no harm)
    with contextlib.suppress(sqlite3.Error):
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return gone
