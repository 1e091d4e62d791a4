"""A card game filled by open sign-up: the joiners get seats P1..Pn without a gap (their
wishes choose among those), and a START the game cannot make changes nothing: nobody is
seated or mailed a password."""

from __future__ import annotations

import re

import pytest

from .helpers import mail

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def join(judge, who: str, wish: str) -> None:
    out = judge.handle_mail(mail(f"{who}@test.org", f"Hi,\nJOIN og {wish}\nThanks, {who}"))
    code = re.search(r"CONFIRM (\S+)", "\n".join(m.body for m in out)).group(1)
    judge.handle_mail(mail(f"{who}@test.org", f"CONFIRM {code}"))


def start(judge) -> list:
    """The GM's START: every mail it makes."""
    return judge.handle_mail(mail("gm@test.org", "GM og gm-pass\nSTART"))


@pytest.fixture
def open_game(judge):
    judge.handle_mail(mail("gm@test.org", "CREATE og micromob gm-pass open=yes"))
    assert judge.store.game("og").status == "forming"
    return judge


def test_joiners_get_the_first_seats_and_the_game_starts(open_game) -> None:
    judge = open_game
    for who, wish in (("ann", "P2"), ("bob", "P5"), ("cat", "P6")):
        join(judge, who, wish)
    out = start(judge)
    assert any(m.to == "ann@test.org" and "Your password" in m.body for m in out)
    assert judge.store.game("og").status == "active"
    seats = {p.email: p.power for p in judge.store.players("og")}
    assert sorted(seats.values()) == ["P1", "P2", "P3"]
    assert seats["ann@test.org"] == "P2"  # a wish among the seats dealt is kept


def test_a_start_the_game_cannot_make_seats_and_mails_nobody(open_game) -> None:
    judge = open_game
    join(judge, "ann", "P1")  # micro mob needs two
    out = start(judge)
    reply = next(m for m in out if m.to == "gm@test.org").body
    assert "START" in reply and "players" in reply  # refused, with the game's reason
    assert [m.to for m in out] == ["gm@test.org"]  # no seat, no password mailed
    assert judge.store.game("og").status == "forming" and judge.store.players("og") == []
    assert [j["email"] for j in judge.store.joins("og")] == ["ann@test.org"]
    join(judge, "bob", "P4")
    start(judge)
    assert sorted(p.power for p in judge.store.players("og")) == ["P1", "P2"]
