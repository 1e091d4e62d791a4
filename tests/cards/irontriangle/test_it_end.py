"""Rulebook "End of Game & Determining the Winner": the end, Notoriety, roles, tie-break."""

from __future__ import annotations

import pytest
from it_helpers import new, place_time, play_round

from mobadj.cards.irontriangle.cards import load_deck
from mobadj.cards.irontriangle.scoring import final_scores, role_met, track_notoriety

DECK = load_deck()
ROLE = {r.name: r for r in DECK.roles}


def _finish_last_round(players: int = 3):
    """A game whose last cube reaches the finish space with the next pick."""
    s = new(players, seed=5)
    finish = s.deck.finish
    others = [p for p in range(players) if p != 0]
    place_time(s, {finish - 1: [0], finish: others})
    assert s.boss == 0
    return s


def test_the_game_ends_when_every_cube_is_on_the_finish_space() -> None:
    s = _finish_last_round()
    assert not s.is_over()
    play_round(s, "Card Game", "fast", {1: "Speakeasy", 2: "Shakedown"}, pick=1)
    assert s.is_over() and s.to_act() == [] and s.phase == "over"
    assert s.legal_actions(0) == []


def test_roles_are_revealed_at_the_end_and_not_before() -> None:
    s = _finish_last_round()
    names = [s.deck.roles[r].name for r in s.roles]
    assert not any(n in " ".join(s.history(None)) for n in names)
    assert all("role" not in seat for seat in s.view(None)["seats"])
    play_round(s, "Card Game", "fast", {1: "Speakeasy", 2: "Shakedown"}, pick=1)
    public = " ".join(s.history(None))
    assert all(f"P{p + 1} reveals {n}" in public for p, n in enumerate(names))
    assert [seat["role"] for seat in s.view(None)["seats"]] == names


def test_notoriety_adds_the_values_above_the_money_and_quality_cubes() -> None:
    # rulebook example: $20 and 16 stars make 4 + 6 = 10
    assert track_notoriety(DECK, 20, 16) == 10
    s = new(3)
    s.money, s.quality = [20, 5, 5], [16, 0, 3]
    assert s.scores() == [10.0, 1.0, 2.0]  # running scores leave the secret roles out


@pytest.mark.parametrize(
    ("role", "money", "quality", "met"),
    [
        ("The Loan Shark", [14, 14, 2], [0, 0, 0], [True, True, False]),  # ties count for all
        ("The Perfectionist", [10, 10, 10], [9, 12, 12], [False, True, True]),
        ("The Big Spender", [1, 1, 28], [0, 0, 0], [True, True, False]),
        ("The Fixer", [5, 10, 15], [9, 3, 6], [False, False, True]),
        ("The Fixer", [5, 5, 20], [3, 6, 6], [False, False, True]),  # tied last is last
        ("The Hustler", [15, 14, 1], [0, 0, 0], [True, False, False]),
        ("The Consigliere", [10, 12, 8], [30, 20, 25], [True, False, False]),
        ("The Consigliere", [12, 12, 6], [25, 25, 20], [True, True, False]),  # tied, both met
    ],
)
def test_secret_role_conditions_ties_count_for_everyone_tied(role, money, quality, met) -> None:
    # rulebook: players tied on the Money and Quality tracks score if they meet the condition
    assert [role_met(DECK, ROLE[role], p, money, quality) for p in range(3)] == met


def test_final_scores_add_the_bonus_of_each_met_role() -> None:
    roles = [ROLE["The Loan Shark"].index, ROLE["The Big Spender"].index,
             ROLE["The Perfectionist"].index]
    money, quality = [20, 1, 9], [4, 16, 16]
    base = [track_notoriety(DECK, m, q) for m, q in zip(money, quality, strict=True)]
    bonus = [ROLE["The Loan Shark"].bonus, ROLE["The Big Spender"].bonus,
             ROLE["The Perfectionist"].bonus]
    assert final_scores(DECK, roles, money, quality) == [b + x for b, x in zip(base, bonus,
                                                                               strict=True)]


def test_a_tie_goes_to_the_top_cube_on_the_time_track() -> None:
    # rulebook: "the player on top of the Time Track (the last player to be the Mob Boss)"
    s = _finish_last_round()
    play_round(s, "Card Game", "fast", {1: "Speakeasy", 2: "Shakedown"}, pick=1)
    finish = s.deck.finish
    assert s.stacks[finish][-1] == 0  # the last boss is on top
    # force a three-way tie in the final scores
    s.money, s.quality = [10, 10, 10], [5, 5, 5]
    s.roles = [ROLE["The Loan Shark"].index, ROLE["The Perfectionist"].index,
               ROLE["The Big Spender"].index]  # all met, bonuses differ: make them equal
    scores = s.scores()
    best = max(scores)
    tied = [p for p, v in enumerate(scores) if v == best]
    top = next(p for p in reversed(s.stacks[finish]) if p in tied)
    assert s.winners() == [top]
    s.stacks[finish] = [0, 2, 1]
    s.money, s.quality = [10, 10, 10], [5, 5, 5]
    s.roles = [ROLE["The Loan Shark"].index, ROLE["The Hustler"].index,
               ROLE["The Consigliere"].index]  # only P1 meets a role
    assert s.winners() == [0]
    s.roles = [ROLE["The Hustler"].index, ROLE["The Consigliere"].index,
               ROLE["The Fixer"].index]  # nobody meets a role: a three-way tie
    assert s.winners() == [1]  # the top of [P1, P3, P2]


def test_final_render_shows_scores_roles_and_winner() -> None:
    s = _finish_last_round()
    play_round(s, "Card Game", "fast", {1: "Speakeasy", 2: "Shakedown"}, pick=1)
    text = s.render(None)
    assert "Final Notoriety" in text and "Winner: P" in text
    assert all(s.deck.roles[r].name in text for r in s.roles)
