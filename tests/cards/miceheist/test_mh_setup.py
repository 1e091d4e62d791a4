"""Rulebook "Setup": player components, jobs, skill market, bag, first player."""

from __future__ import annotations

import pytest
from mh_helpers import new

from mobadj.cards.miceheist.data import load_data
from mobadj.cards.protocol import IllegalAction


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_player_components(players: int) -> None:
    # Setup, Player Components: a random colour each, its 3 starting skills, 3 cheese
    s = new(players, seed=players)
    d = load_data()
    assert len(set(s.colours)) == players and set(s.colours) <= set(d.colours)
    for p in range(players):
        assert s.skills[p] == list(d.starting[s.colours[p]])
        assert s.stash[p] == 3 and not s.covered[p]
    # "Put the remaining cheese in a central supply" (40 tokens)
    assert s.supply == 40 - 3 * players
    assert not s.check_invariants()


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_is_2_to_6(players: int) -> None:
    with pytest.raises(IllegalAction):
        new(players)


def test_jobs_sorted_with_food() -> None:
    # Setup, Jobs: stacks A-D sorted lowest number on top; a 12, 6 and 3 food per job
    s = new(4, 3)
    assert s.stacks == {j: [f"{j}{i}" for i in range(1, 6)] for j in "ABCD"}
    assert all(not s.pos[j][p] for j in "ABCD" for p in range(4))  # tracks empty
    items = []
    for j in "ABCD":
        assert [v for v, _ in s.food[j]] == [12, 6, 3]
        items += [i for _, i in s.food[j]]
    assert len(set(items)) == 12  # each food token used once


def test_food_is_random_per_job() -> None:
    # "For each job randomly select a 12 point, 6 point, and 3 point food item"
    seen = {tuple(new(4, seed).food["A"]) for seed in range(30)}
    assert len(seen) > 5


def test_market_and_bag() -> None:
    # Skill market: shuffled upgrade deck, 4 face up; all 11 modifier chips in the bag
    s = new(4, 5)
    assert len(s.market) == 4 and len(s.deck) == 33
    assert set(s.market) | set(s.deck) == set(load_data().upgrades)
    assert sorted(s.bag) == list(range(11)) and not s.center
    decks = {tuple(new(4, seed).market) for seed in range(10)}
    assert len(decks) > 5


def test_first_player_random_and_takes_bag() -> None:
    # "Randomly determine a starting player ... That player takes the bag."
    firsts = {new(4, seed).tester for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    s = new(4, 9)
    assert s.to_act() == [s.tester] and s.phase == "select"


def test_chip_faces_and_counts() -> None:
    # Components: Blue x1, Green x2, Yellow x4, Orange x2, Red x1, Purple x1; two faces each
    d = load_data()
    counts: dict[str, int] = {}
    for c in d.chips:
        counts[c.colour] = counts.get(c.colour, 0) + 1
        assert len(c.faces) == 2 and c.faces[0] != c.faces[1]
    assert counts == {"blue": 1, "green": 2, "yellow": 4, "orange": 2, "red": 1, "purple": 1}


def test_setup_is_logged_publicly() -> None:
    s = new(3, 2)
    public = s.history(None)
    assert any("goes first" in e for e in public)
    assert any(e.startswith("Market:") for e in public)
