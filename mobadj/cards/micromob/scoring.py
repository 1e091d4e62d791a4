"""micro mob end-of-game scoring (rulebook, "endgame & scoring" and "scoring bonuses")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mobadj.cards.micromob.cards import Card


@dataclass(frozen=True, slots=True)
class Score:
    """One player's v.p., term by term, so the final report can show the sum."""

    goons: int  # 1 v.p. per goon, hand and fatigue
    allies: int  # 2 v.p. per ally
    hits: int  # hit number of each hit card, 0 if it matches the kingpin's colour
    bonuses: int  # scoring-bonus allies
    total: int


def score_player(
    goons: int, allies: Sequence[Card], hits: Sequence[Card], kingpin: Card | None
) -> Score:
    """Score one player; ``kingpin`` None (running score, or a deadlock ending) spares all."""
    powers = [a.power for a in allies]
    recolours = powers.count("recolour")
    scored: list[int] = []
    spared: list[int] = []
    for card in hits:
        if kingpin is not None and card.colour == kingpin.colour:
            spared.append(card.boss_hit)  # "it is worth NOTHING"
        else:
            scored.append(card.boss_hit)
    # colour change: each recolour ally saves one matching card; the best ones are chosen.
    spared.sort(reverse=True)
    hit_vp = sum(scored) + sum(spared[:recolours])
    bonuses = (
        powers.count("goon_bonus") * goons
        + powers.count("ally_bonus") * len(allies)
        + powers.count("hit_bonus") * len(hits)
    )
    total = goons + 2 * len(allies) + hit_vp + bonuses
    return Score(goons, 2 * len(allies), hit_vp, bonuses, total)
