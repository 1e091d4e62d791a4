"""Contribution tracks: moving a marker up or down past occupied spaces, falling off.

A track is ``spaces``, a list whose index 1..L holds the player on that space (or None;
index 0 is unused), and ``pos``, each player's space (0: not on the track).  Rulebook,
"Contribution Tracks".
"""

from __future__ import annotations


def move(spaces: list[int | None], pos: list[int], player: int, steps: int) -> int:
    """Move ``player`` by ``steps`` (up if positive, down if negative); returns the new space.

    Up: count from the first space if not on the track; an occupied landing space sends you
    to the next available space above; past the end (or with nothing free above) you land on
    the highest available space.  Your own space counts as available (ruling R7), so moving
    up never moves you down.
    Down: an occupied landing space sends you to the next available lower space; with none
    (or below space 1) your marker leaves the track.
    """
    if steps == 0:
        return pos[player]
    length = len(spaces) - 1
    here = pos[player]
    if steps < 0 and not here:
        return 0  # not on the track: nothing to move down (ruling R8)
    if here:
        spaces[here] = None
    target = here + steps
    if steps > 0:
        target = min(target, length)
        while target <= length and spaces[target] is not None:
            target += 1
        if target > length:  # "land on the highest value available space"
            target = length
            while spaces[target] is not None:
                target -= 1
    else:
        while target >= 1 and spaces[target] is not None:
            target -= 1
        if target < 1:  # "remove your marker from the track entirely"
            pos[player] = 0
            return 0
    spaces[target] = player
    pos[player] = target
    return target


def standing(pos: list[int]) -> list[int]:
    """Players on the track, 1st place (the highest space) first."""
    return sorted((p for p, at in enumerate(pos) if at), key=lambda p: -pos[p])
