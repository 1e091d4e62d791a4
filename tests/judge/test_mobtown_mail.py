"""Mobtown II by mail: what a mob is told when the rulebook's own reasons (a support
through a subway, civil disorder after the Don's death) refuse or take its orders, in the
answers to its mails and in the results."""

from __future__ import annotations

import re

import pytest

from .conftest import Table
from .helpers import mail


@pytest.fixture
def mob(judge):
    return Table(judge, "mobtown2", picture="none")


def say(judge, t, seat, text, **headers):
    return judge.handle_mail(mail(t.emails[seat], t.signon(seat) + text, **headers))


def set_position(judge, position: dict) -> None:
    """Play on from ``position`` (the board a test needs, reached by earlier weeks)."""
    with judge.store.transaction():
        game = judge.store.game("g1")
        game.state["position"] = position
        judge.store.update_game("g1", state=game.state, phase=position["phase"])


def results(out, t, seat):
    return next(m for m in out if m.to == t.emails[seat] and "results" in m.subject).body


def orders_of(body: str, mob: str) -> list[str]:
    """The lines of ``mob``'s orders in a results mail."""
    block = body.split(f"\n{mob}:\n")[1].split("\n\n")[0]
    return block.splitlines()


def test_a_support_through_a_subway_is_listed_once(judge, mob):
    """Ruling 12 refuses the support; the results list the Gang by its order only, as the
    standard map lists an impossible order, not again as a hold with no order given."""
    set_position(judge, {"phase": "1919-07-W3-M",
                         "units": {"murderinc": ["G MaE", "G 42nd", "D MaE"],
                                   "capone": ["G Cas", "G DAN", "D DAN"]}})
    say(judge, mob, "capone", "G(Cas) H\nready")
    out = say(judge, mob, "murderinc", "G(42nd)-Cas\nG(MaE) S G(42nd)-Cas\nready")
    lines = orders_of(results(out, mob, "murderinc"), "Murder Incorporated")
    mae = [line for line in lines if line.strip().startswith("G MaE")]
    assert len(mae) == 1, lines
    assert re.search(r"G MaE S G 42nd - Cas\s+invalid: a Gang cannot support through a "
                     r"subway \(ruling 12\)", mae[0])
