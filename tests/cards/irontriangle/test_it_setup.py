"""Rulebook "Setup" and the first Mob Boss."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from it_helpers import new

from mobadj.cards.irontriangle.engine import HAND_SIZE, IronTriangleState
from mobadj.cards.protocol import IllegalAction
from mobadj.cli import main


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_places_cubes_deals_roles_and_hands(players: int) -> None:
    s = new(players, seed=7)
    # a cube on the $10 spot; a cube on the empty space next to the Quality track
    assert s.money == [10] * players
    assert s.quality == [0] * players
    # the Time cube is placed at random on one of the starting circles (one cube a circle)
    assert s.time_pos == [0] * players
    assert sorted(s.circle) == list(range(6 - players + 1, 7))
    assert sorted(s.stacks[0]) == list(range(players))
    # one secret role each, all different
    assert len(set(s.roles)) == players
    # three job cards each; the rest is the draw pile
    assert all(len(h) == HAND_SIZE for h in s.hands)
    assert len(s.draw_pile) == 24 - 3 * players
    assert s.deep_invariants() == []


def test_starting_circles_and_roles_are_random_but_seeded() -> None:
    orders = {tuple(new(5, seed).stacks[0]) for seed in range(30)}
    roles = {tuple(new(5, seed).roles) for seed in range(30)}
    assert len(orders) > 10 and len(roles) > 10
    assert new(5, 3).stacks == new(5, 3).stacks
    assert new(5, 3).hands == new(5, 3).hands


def test_leftmost_starting_circle_is_the_first_mob_boss() -> None:
    # rulebook "Setup": the player in the last (leftmost) starting circle is the first boss
    for seed in range(10):
        s = new(4, seed)
        leftmost = min(range(4), key=lambda p: s.circle[p])
        assert s.boss == leftmost == s.stacks[0][0]
        assert s.to_act() == [leftmost]
        assert s.phase == "job"


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_is_three_to_six(players: int) -> None:
    # six colours of cubes, six roles; ruling: at least three players (two offers to choose)
    with pytest.raises(IllegalAction):
        IronTriangleState.new(players, 1)


def test_each_player_sees_only_their_own_role_and_hand_at_setup() -> None:
    s = new(4, seed=2)
    for p in range(4):
        own = [e for e in s.history(p) if e.startswith("Your secret role")]
        assert len(own) == 1
        assert s.deck.roles[s.roles[p]].name in own[0]
    assert not any("secret role" in e for e in s.history(None))


def test_the_screens_show_each_starting_circle_apart_from_a_stack() -> None:
    # setup: each cube on its own starting circle; '/' marks only a real stack (line "If
    # two cubes are in the same last place, the one whose cube is on the bottom ...")
    result = CliRunner().invoke(main, ["play", "irontriangle", "-p", "3", "--seed", "1",
                                       "--bot", "2", "--bot", "3"], input="board\nquit\n")
    assert "Time track, last first: c4 P2  c5 P3  c6 P1; pile 15" in result.output
    assert "Time track (last first; a stack bottom/top): c4 P2  c5 P3  c6 P1\n" \
        in result.output
    assert "P2/P3/P1" not in result.output
