"""Secrecy by mail, per game: random games played through the judge in-process
(``Judge.handle_mail`` on a real SQLite store, real mail bytes in and out; the real mail
servers are in tests/judge/test_card_e2e.py), every move taken from the due seat's legal
commands, with mistakes, out-of-turn mails, PREVIEW and LIST thrown in; every mail the
judge sends is checked against what its recipient may know (mail_table.py), and every
finished game's record verifies.

MAIL_GAMES games per card game, played in blocks of BLOCK so that the test workers share
them: 50 in ``make test`` (a game by mail costs about ten times one at the terminal: every
mail goes through the whole judge), 200 with ``make secrecy`` (``MAIL_GAMES=200``), the
number of games the terminal's secrecy test plays."""

from __future__ import annotations

import json
import os

import pytest
from mail_table import MailTable, new_judge

from mobadj.cards.record import verify_record

MAIL_GAMES = int(os.environ.get("MAIL_GAMES", "50"))
BLOCK = 25
TABLES = {  # players and options of the k-th game
    "micromob": lambda k: (2 + k % 2, {"modules": 1 + k % 2} if k % 2 == 0 else None),
    "miceheist": lambda k: (2 + k % 2, None),
    "irontriangle": lambda k: (3, None),
    "microcity": lambda k: (1 + k % 2, [None, {"mode": "competitive"}][k % 2]),
}
BLOCKS = [(game, first) for game in sorted(TABLES) for first in range(0, MAIL_GAMES, BLOCK)]


@pytest.mark.parametrize(("game", "first"), BLOCKS,
                         ids=[f"{g}-{f}" for g, f in BLOCKS])
def test_mails_leak_nothing(game: str, first: int, tmp_path) -> None:
    games = range(first, min(first + BLOCK, MAIL_GAMES))
    mails = checked = 0
    judge = new_judge(tmp_path)  # one store, a game per table (as on a busy judge)
    for k in games:
        players, options = TABLES[game](k)
        table = MailTable(judge, game, players, k, options, name=f"g{k}")
        table.play()  # asserts at the first mail that says too much
        mails += table.mails
        checked += table.checked
        final = [m for m in judge.store.all_mail(f"g{k}") if m.to == "p1@test.org"
                 and m.game == f"g{k}" and "results" in m.subject][-1]
        record = dict((name, data) for name, _, data in final.attachments)["record.json"]
        assert verify_record(json.loads(record)).ok  # the end mail's record checks out
    judge.store.close()
    assert mails > len(games) * 10 and checked > mails
