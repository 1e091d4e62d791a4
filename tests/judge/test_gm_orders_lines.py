"""The GM's ORDERS FOR in a mail: the errors name the lines of the mail as it was sent, and
speak of the seat ordered for, not of "your" skills."""

from __future__ import annotations

import re

import pytest

from .conftest import Table
from .helpers import mail
from .test_cards import setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def gm(judge, game, password, text):
    out = judge.handle_mail(mail("gm@test.org", f"Hi all,\n\nGM {game} {password}\n{text}"))
    return next(m for m in out if m.to == "gm@test.org").body


def test_errors_under_orders_for_name_the_mails_lines_and_the_seat(judge) -> None:
    setup_game(judge, "miceheist", 4)
    reply = gm(judge, "cg", "gm-pw", "ORDERS FOR P1\n\nuse sniff out\n")
    # a skill used while P1 is to select an obstacle: the time is wrong before the name
    assert ("  line 6: P1 cannot activate a skill now: P1 is selecting an obstacle (select A, "
            "select B, select C, select D)") in reply, reply
    assert not re.search(r"\byou", reply.split("Errors")[1].split("\n\n")[0]), reply


def test_a_second_orders_for_block_keeps_the_mails_lines(judge) -> None:
    table = Table(judge, "standard")
    reply = gm(judge, "g1", table.gm_password,
               "ORDERS FOR France\nA PAR - BUR\n\nORDERS FOR England\nF LON - NTH\nA LVP - YOK")
    assert "line 9, column 9: unknown province 'YOK'" in reply
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR"
