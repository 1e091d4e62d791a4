"""Set-up: modules, the player-count table, the goon draft, the city, turn order.

``# rules L<n>`` = line n of /work/shared/rules/micromob.md.
"""

from __future__ import annotations

import pytest
from mm_helpers import DECK, drafted

from mobadj.cards.micromob.cards import MODULE_SIZE, POWERS, load_deck, parse_deck
from mobadj.cards.micromob.engine import MicroMobState, city_size, draft_order
from mobadj.cards.protocol import GameError, IllegalAction


def test_deck_has_six_modules_of_fifteen_cards():
    # rules L9, L30: 6 modules, 15 cards each, 90 boss/goon cards
    assert len(DECK.modules) == 6
    assert all(len(cards) == MODULE_SIZE == 15 for cards in DECK.modules.values())
    assert len(DECK.cards) == 90


def test_every_power_of_all_four_groups_is_in_the_deck():
    # rules L139-171: four groups of ally powers, each one in the deck
    assert {c.power for c in DECK.cards.values()} == set(POWERS)
    assert len(POWERS) == 18


def test_deck_has_goons_the_draft_must_replace():
    # rules L65: goons with money <= 1 exist, so the replacement rule matters
    assert any(c.goon_money <= 1 for c in DECK.cards.values())


def test_deck_file_errors_name_the_card():
    data = {"colours": ["red"], "modules": {"m": {"cards": [{"id": "X1"}] * 15}}}
    with pytest.raises(ValueError, match="X1"):
        parse_deck(data)
    with pytest.raises(ValueError, match="1 cards, expected 15"):
        parse_deck({"colours": ["red"], "modules": {"m": {"cards": [{"id": "X1"}]}}})
    assert load_deck() is load_deck()  # read once


@pytest.mark.parametrize(
    ("modules", "low", "high"),
    [(1, 2, 2), (2, 2, 3), (3, 2, 4), (4, 2, 5), (5, 3, 6), (6, 3, 6)],
)
def test_module_table_limits_player_counts(modules, low, high):
    # rules L19-24: the modules / players table
    for players in range(2, 7):
        if low <= players <= high:
            state = MicroMobState.new(players, 1, {"modules": modules})
            assert state.total_cards == 15 * modules
        else:
            with pytest.raises(IllegalAction, match="module"):
                MicroMobState.new(players, 1, {"modules": modules})


def test_modules_by_name_or_letter_and_bad_options():
    # rules L17, L61: any combination of modules
    state = MicroMobState.new(2, 1, {"modules": "casino, D"})
    assert state.modules == ["casino", "docks"]
    state = MicroMobState.new(3, 1, {"modules": ["rail", "harbor"]})
    assert state.modules == ["rail", "harbor"]
    with pytest.raises(GameError, match="unknown module 'nowhere'"):
        MicroMobState.new(2, 1, {"modules": "nowhere"})
    with pytest.raises(GameError, match="unknown option 'colour'"):
        MicroMobState.new(2, 1, {"colour": "red"})
    with pytest.raises(GameError, match="modules must be 1-6"):
        MicroMobState.new(2, 1, {"modules": 7})


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_draft_pool_has_two_goons_per_player_all_with_money_2_or_more(players):
    # rules L65-73: 2 cards per player goon-side up; money <= 1 replaced
    for seed in range(20):
        state = MicroMobState.new(players, seed)
        assert len(state.pool) == 2 * players
        assert all(state.card(c).goon_money >= 2 for c in state.pool)
        assert not state.check_invariants()


def test_replaced_goons_go_back_into_the_pile():
    # rules L65: replaced cards are not lost (a ruling: reshuffled into the pile)
    replaced = 0
    for seed in range(20):
        state = MicroMobState.new(2, seed)
        replaced += any("replaced" in line for line in state.history(None))
        assert len(state.pile) + len(state.pool) == state.total_cards
    assert replaced


def test_draft_goes_counter_clockwise_from_p1_two_rounds():
    # rules L75: one card at a time, counter-clockwise with more than 2 players
    assert draft_order(2) == [0, 1, 0, 1]
    assert draft_order(4) == [0, 3, 2, 1, 0, 3, 2, 1]
    state = MicroMobState.new(4, 3, {"modules": 4})
    seen = []
    while state.phase == "draft":
        seen.append(state.current)
        assert state.legal_actions(state.current) == [
            a for a in state.legal_actions(state.current) if str(a).startswith("draft")
        ]
        state.command(state.current, f"draft {state.pool[-1]}")
    assert seen == draft_order(4)
    assert [len(h) for h in state.hand] == [2, 2, 2, 2]


def test_only_the_drafter_may_draft_and_only_from_the_pool():
    state = MicroMobState.new(3, 2)
    with pytest.raises(IllegalAction, match="not your turn"):
        state.command(1, f"draft {state.pool[0]}")
    with pytest.raises(GameError, match="not in the draft pool"):
        state.command(0, f"draft {state.pile[0]}")
    with pytest.raises(IllegalAction, match="draft"):
        state.command(0, "payroll")


@pytest.mark.parametrize(("players", "size"), [(2, 4), (3, 4), (4, 6), (5, 6), (6, 6)])
def test_city_is_four_cards_or_six_for_4_to_6_players(players, size):
    # rules L77-81: 4 cards in play, 6 in a 4-6 player game
    state = drafted(players, seed=4, modules=min(max(players, 2), 6))
    assert city_size(players) == size
    assert len(state.city) == size
    assert state.phase == "play"
    assert len(state.pile) == state.total_cards - size - 2 * players


@pytest.mark.parametrize("players", [2, 3, 5])
def test_first_turn_is_the_last_drafter_then_clockwise(players):
    # rules L89: start with the player who drafted last, then clockwise
    state = drafted(players, seed=2)
    last = draft_order(players)[-1]
    assert state.current == last == 1
    order = []
    for _ in range(players + 1):
        order.append(state.current)
        state.command(state.current, "payroll" if state.fatigue[state.current] else str(
            next(a for a in state.legal_actions(state.current) if str(a).startswith(
                ("hit", "hire", "ally", "pass")))))
        while state.current == order[-1] and not state.is_over():
            state.command(state.current, "done")
    assert order == [(last + i) % players for i in range(players + 1)]
