"""A simple Iron Triangle bot: values stars, dollars and days in Notoriety and plays greedily.

It reads only what its seat may see: the public tracks, the job, the backs of offers, its own
hand and nothing else (the same facts :meth:`IronTriangleState.view` gives that player).
"""

from __future__ import annotations

import random
from typing import Any

from mobadj.cards.irontriangle.actions import Offer, Pick, PlayJob
from mobadj.cards.irontriangle.cards import BACK_FEATURES, FEATURES, Deck, JobCard
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.protocol import Bot

# Notoriety per star and per dollar (about the slopes of the two tracks' Notoriety bands), and
# per day of the boss's time (a share of a later turn as Mob Boss); tuned against random play
STAR = 0.4
DOLLAR = 0.2
DAY = 1.3


def offer_value(card: JobCard, job_stars: int, money: int, days_left: int, floor: int) -> float:
    """What an accepted offer is worth to the Mob Boss, in Notoriety."""
    paid = min(card.price, money - floor)
    short = card.price - paid
    stars = job_stars + card.modifier - short
    return stars * STAR - paid * DOLLAR - min(card.days, days_left) * DAY


_GROUPS: dict[int, dict[str, tuple[JobCard, ...]]] = {}


def _by_back(deck: Deck) -> dict[str, tuple[JobCard, ...]]:
    """The deck's cards grouped by their "pick two" back (computed once per deck)."""
    groups = _GROUPS.get(id(deck))
    if groups is None:
        found: dict[str, list[JobCard]] = {}
        for c in deck.cards:
            found.setdefault(c.back, []).append(c)
        groups = _GROUPS[id(deck)] = {k: tuple(v) for k, v in found.items()}
    return groups


class IronTriangleBot(Bot):
    """Greedy on expected Notoriety; never talks, never shows a card it need not show."""

    def choose(self, state: Any, player: int, rng: random.Random) -> Any:
        assert isinstance(state, IronTriangleState)
        legal = state.legal_actions(player)
        phase = state.phase
        if phase == "job":
            return self._job(state, player)
        if phase == "offer":
            return self._offer(state, player)
        if phase == "negotiate":
            return self._pick(state, player, rng)
        return rng.choice(legal)

    def _expected(self, state: IronTriangleState, player: int, back: str, stars: int) -> float:
        deck = state.deck
        days_left = deck.finish - state.time_pos[player]
        cards = _by_back(deck)[back]
        return sum(offer_value(c, stars, state.money[player], days_left, deck.money.floor)
                   for c in cards) / len(cards)

    def _job(self, state: IronTriangleState, player: int) -> PlayJob:
        deck = state.deck
        hand = [deck.cards[c] for c in state.hands[player]]
        # play the card with the most stars, keeping high-priced cards to offer later
        card = max(hand, key=lambda c: (c.stars - 0.5 * c.price * DOLLAR / STAR, c.index))
        # ask for the feature whose offers are worth most to this boss now
        best = {f: max(self._expected(state, player, b, card.stars)
                       for b, fs in BACK_FEATURES.items() if f in fs) for f in FEATURES}
        feature = max(FEATURES, key=lambda f: best[f])
        return PlayJob(card.name, feature)

    def _offer(self, state: IronTriangleState, player: int) -> Offer:
        deck = state.deck
        wanted = state.feature or ""

        def score(c: JobCard) -> float:
            matches = wanted in BACK_FEATURES[c.back]
            return (2.0 if matches else 0.0) + c.price * DOLLAR * 2 - c.stars * STAR

        card = max((deck.cards[c] for c in state.hands[player]), key=lambda c: (score(c), c.index))
        return Offer(card.name)

    def _pick(self, state: IronTriangleState, player: int, rng: random.Random) -> Pick:
        assert state.job is not None
        stars = state.deck.cards[state.job].stars
        # only the backs of the offers are visible: pick the best back on average, and
        # among equal backs any one (a fixed order would favour low seats)
        value = {p: self._expected(state, player, state.deck.cards[c].back, stars)
                 for p, c in state.offers.items()}
        best = max(value.values())
        return Pick(rng.choice([p for p in sorted(value) if value[p] == best]))
