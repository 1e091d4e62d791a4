"""Secrecy by mail, per game: random games played through the judge (a real SQLite store,
real mail bytes in and out), every move taken from the due seat's legal commands, with
mistakes, out-of-turn mails, PREVIEW and LIST thrown in; every mail the judge sends is
checked against what its recipient may know (mail_table.py).  The number of games per
card game is MAIL_GAMES (the environment variable of that name raises it)."""

from __future__ import annotations

import json
import os

import pytest
from mail_table import MailTable, new_judge

from mobadj.cards.record import verify_record

MAIL_GAMES = int(os.environ.get("MAIL_GAMES", "8"))
TABLES = {  # players and options of the k-th game
    "micromob": lambda k: (2 + k % 2, {"modules": 1 + k % 2} if k % 2 == 0 else None),
    "miceheist": lambda k: (2 + k % 2, None),
    "irontriangle": lambda k: (3, None),
    "microcity": lambda k: (1 + k % 2, [None, {"mode": "competitive"}][k % 2]),
}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_mails_leak_nothing(game: str, tmp_path) -> None:
    mails = checked = 0
    for k in range(MAIL_GAMES):
        judge = new_judge(tmp_path)
        players, options = TABLES[game](k)
        table = MailTable(judge, game, players, k, options, name=f"g{k}")
        table.play()  # asserts at the first mail that says too much
        mails += table.mails
        checked += table.checked
        final = [m for m in judge.store.all_mail() if m.to == "p1@test.org"
                 and "results" in m.subject][-1]
        record = dict((name, data) for name, _, data in final.attachments)["record.json"]
        assert verify_record(json.loads(record)).ok  # the end mail's record checks out
        judge.store.close()
    assert mails > MAIL_GAMES * 10 and checked > mails
