"""Rulebook "Contribution Tracks": moving up and down around occupied spaces, falling off."""

from __future__ import annotations

from mobadj.cards.miceheist.tracks import move, standing


def track(length: int = 12, **at: int) -> tuple[list[int | None], list[int]]:
    """A track with players (named p0..p5) on the given spaces."""
    spaces: list[int | None] = [None] * (length + 1)
    pos = [0] * 6
    for name, space in at.items():
        p = int(name[1:])
        spaces[space] = p
        pos[p] = space
    return spaces, pos


def test_up_from_off_track_counts_from_first_space() -> None:
    # "If you are not already on the track, start counting from the first track space."
    spaces, pos = track()
    assert move(spaces, pos, 0, 1) == 1
    spaces, pos = track()
    assert move(spaces, pos, 0, 3) == 3 and spaces[3] == 0


def test_up_onto_occupied_goes_to_next_available() -> None:
    # "... would land on an already occupied space, instead move to the next available space"
    spaces, pos = track(p1=3, p2=4)
    assert move(spaces, pos, 0, 3) == 5
    assert spaces[5] == 0 and spaces[3] == 1 and spaces[4] == 2


def test_up_past_end_lands_on_highest_available() -> None:
    # "If you have reached the end of the track and there are no more available spaces,
    # land on the highest value available space."
    spaces, pos = track(length=8, p1=8, p2=7)
    assert move(spaces, pos, 0, 20) == 6
    spaces, pos = track(length=8)
    assert move(spaces, pos, 0, 20) == 8


def test_up_own_space_counts_as_available() -> None:
    # ruling R7: moving up never moves you down; your own space is free once you leave it
    spaces, pos = track(length=6, p0=4, p1=5, p2=6)
    assert move(spaces, pos, 0, 1) == 4
    assert spaces[4] == 0 and pos[0] == 4


def test_up_occupied_then_free_above() -> None:
    spaces, pos = track(length=6, p0=2, p1=4, p2=5)
    assert move(spaces, pos, 0, 2) == 6
    assert spaces[2] is None


def test_down_to_free_space() -> None:
    # "To decrease your place on the contribution track, move backwards as above."
    spaces, pos = track(p0=6)
    assert move(spaces, pos, 0, -2) == 4 and spaces[6] is None


def test_down_onto_occupied_goes_to_next_lower_available() -> None:
    # "if you would land on an occupied space you instead move to the next available lower"
    spaces, pos = track(p0=6, p1=4, p2=3)
    assert move(spaces, pos, 0, -2) == 2


def test_down_with_no_lower_space_falls_off() -> None:
    # "If there are no lower available spaces then remove your marker from the track"
    spaces, pos = track(p0=3, p1=2, p2=1)
    assert move(spaces, pos, 0, -1) == 0
    assert pos[0] == 0 and spaces[3] is None


def test_down_below_first_space_falls_off() -> None:
    spaces, pos = track(p0=2)
    assert move(spaces, pos, 0, -3) == 0 and pos[0] == 0 and spaces[2] is None


def test_down_when_not_on_track_does_nothing() -> None:
    # ruling R8
    spaces, pos = track(p1=1)
    assert move(spaces, pos, 0, -1) == 0 and spaces[1] == 1


def test_standing_highest_space_first() -> None:
    _, pos = track(p0=2, p1=9, p3=5)
    assert standing(pos) == [1, 3, 0]
