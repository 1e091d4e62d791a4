"""Remarks around a card move in a player's mail are set aside, as around Diplomacy orders:
"Thanks!", a name, "See you next round" are no move out of turn nor a second sealed choice;
a misspelt move keeps its error and its did-you-mean."""

from __future__ import annotations

import pytest

from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build

QUOTE = ("\n\nOn Sun, 17 Jan 2027 at 08:00, Judge <judge@test.org> wrote:\n"
         "> Your move: draft a goon from the pool\n> P2 is next\n")


def reply(judge, seat, text):
    return next(m for m in act(judge, seat, text) if m.to == f"p{seat[1:]}@test.org").body


@pytest.mark.parametrize(("before", "after"), [
    ("Hi judge,\n\n", "\n\nThanks!\nAnna"),
    ("", "\n\nThanks!\nAnna" + QUOTE),
    ("", "\nSee you next round, good luck all"),
    ("Here is my pick:\n", "\nAnna"),
    ("My pick this round\n", "\nGood luck"),
])
def test_remarks_around_a_move_are_set_aside(judge, before, after) -> None:
    host = setup_game(judge, "micromob", 3)
    move = legal(judge, host, "P1")[0]
    body = reply(judge, "P1", f"{before}{move}{after}")
    assert "Errors" not in body, body
    assert judge.store.game("cg").state["actions"][0] == [0, move]


def test_a_name_after_a_sealed_choice_is_no_second_choice(judge) -> None:
    setup_game(judge, "irontriangle", 3)
    act(judge, "P1", "job 1 fast")
    body = reply(judge, "P2", "offer 1\nAnna" + QUOTE)
    assert "Errors" not in body and "one sealed choice" not in body, body


@pytest.mark.parametrize("spell", [lambda card: f"darft {card}", lambda card: card.lower()])
def test_a_misspelt_move_is_no_remark(judge, spell) -> None:
    """Still an error with its did-you-mean, even alone at the end of the mail."""
    host = setup_game(judge, "micromob", 3)
    card = legal(judge, host, "P1")[0].split()[1]  # "draft U14": a goon in the pool
    body = reply(judge, "P1", f"Hi,\n{spell(card)}\nThanks")
    assert "Errors" in body and "did you mean" in body, body
