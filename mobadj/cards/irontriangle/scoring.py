"""End-of-game Notoriety: the values above the Money and Quality cubes, then secret roles.

Rulebook, "End of Game & Determining the Winner": Notoriety is the sum of the values found above
a player's Money and Quality cubes; roles are then revealed and score their bonus when their
condition holds; players tied on a track all meet a "furthest ahead/behind" condition.
"""

from __future__ import annotations

from collections.abc import Sequence

from mobadj.cards.irontriangle.cards import Deck, Role


def track_notoriety(deck: Deck, money: int, quality: int) -> int:
    """Notoriety from the two tracks (rulebook example: $20 and 16 stars score 4 + 6)."""
    return deck.money.notoriety(money) + deck.quality.notoriety(quality)


def role_met(deck: Deck, role: Role, player: int, money: Sequence[int],
             quality: Sequence[int]) -> bool:
    """Does ``player`` meet ``role``'s condition on the final tracks?  Ties count for all."""
    values = {"money": money, "quality": quality}
    kind, arg = next(iter(role.condition.items()))
    if kind == "most":
        track = values[arg]
        return track[player] == max(track)
    if kind == "least":
        track = values[arg]
        return track[player] == min(track)
    if kind == "balanced":
        gap = abs(deck.money.notoriety(money[player]) - deck.quality.notoriety(quality[player]))
        return gap <= int(arg["within"])
    if kind == "not_last":
        return all(values[t][player] > min(values[t]) for t in arg)
    if kind == "ahead_of_half":
        others = len(money) - 1
        return all(2 * sum(v < values[t][player] for v in values[t]) >= others for t in arg)
    if kind == "at_least":
        return values[arg["track"]][player] >= int(arg["space"])
    raise ValueError(f"unknown role condition {kind}")  # the loader refuses these


def final_scores(deck: Deck, roles: Sequence[int], money: Sequence[int],
                 quality: Sequence[int]) -> list[int]:
    """Track Notoriety plus each met role's bonus."""
    scores = []
    for p, r in enumerate(roles):
        role = deck.roles[r]
        bonus = role.bonus if role_met(deck, role, p, money, quality) else 0
        scores.append(track_notoriety(deck, money[p], quality[p]) + bonus)
    return scores
