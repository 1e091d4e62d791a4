"""A card game's moves by mail as the player sends and reads them: a line the judge cannot
read stops the moves after it (they are not played, and the reply says so and never offers
to correct a move already played); a move sent out of turn is named as not taken, with whose
move it is; a seat without a player is played as the GM's orders come and the notices say
what the judge does with it."""

from __future__ import annotations

import pytest

from mobadj.judge.overview import status_text

from .helpers import mail
from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def gm(judge, text):
    return judge.handle_mail(mail("gm@test.org", f"GM cg gm-pw\n{text}"))


def test_the_gms_moves_for_a_seat_whose_player_resigned_are_played_at_once(judge) -> None:
    host = setup_game(judge, "micromob", 3)
    (seat,) = host.due(judge.store.game("cg").state)
    move = legal(judge, host, seat)[0]
    notice = next(m for m in act(judge, seat, "RESIGN") if m.to == "p2@test.org").body
    assert "units hold" not in notice
    assert "the judge plays its moves" in notice
    status = status_text(judge, judge.store.game("cg"), judge.clock())  # mobadj game status
    assert f"Waiting for: {seat} (no player, or in civil disorder:" in status
    assert "Owe orders: nobody" not in status
    before = len(judge.store.game("cg").state["actions"])
    out = gm(judge, f"ORDERS FOR {seat}\n{move}")
    assert len(judge.store.game("cg").state["actions"]) == before + 1  # played, not held
    assert {m.to for m in out if "results" in m.subject} >= {"p2@test.org", "gm@test.org"}
    assert seat not in host.due(judge.store.game("cg").state)
