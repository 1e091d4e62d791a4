"""Iron Triangle bots: value stars, dollars and days in Notoriety and play greedily.

``IronTriangleBot`` (level "standard", the default) also plays for its secret role: it
prices dollars and stars by what its role pays for being first, last or past a mark on a
track.  ``IronTriangleBasicBot`` (level "basic") is the first bot, which ignores its role,
kept so the two can be compared.  Both read only what their seat may see: the public
tracks, the job, the backs of offers, their own hand and role (the same facts
:meth:`IronTriangleState.view` gives that player).
"""

from __future__ import annotations

import random
from typing import Any

from mobadj.cards.irontriangle.actions import Offer, Pick, PlayJob
from mobadj.cards.irontriangle.cards import BACK_FEATURES, FEATURES, JobCard
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.protocol import Bot

# Notoriety per star and per dollar (about the slopes of the two tracks' Notoriety bands), and
# per day of the boss's time (a share of a later turn as Mob Boss); tuned against random play
STAR = 0.4
DOLLAR = 0.2
DAY = 1.3


def offer_value(card: JobCard, job_stars: int, money: int, days_left: int, floor: int,
                star: float = STAR, dollar: float = DOLLAR, day: float = DAY) -> float:
    """What an accepted offer is worth to the Mob Boss, in Notoriety."""
    paid = min(card.price, money - floor)
    short = card.price - paid
    stars = job_stars + card.modifier - short
    return stars * star - paid * dollar - min(card.days, days_left) * day


class IronTriangleBasicBot(Bot):
    """The first bot (level "basic"): greedy on expected Notoriety, blind to its role;
    never talks, never shows a card it need not show."""

    def prices(self, state: IronTriangleState, player: int) -> tuple[float, float, float]:
        """Notoriety per star, per dollar and per day of the boss's time for ``player``."""
        return STAR, DOLLAR, DAY

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

    def _expected(self, state: IronTriangleState, player: int, back: str, stars: int,
                  prices: tuple[float, float, float] | None = None) -> float:
        """What an offer with ``back`` is worth on average to ``player`` as the boss."""
        deck = state.deck
        days_left = deck.finish - state.time_pos[player]
        cards = deck.by_back[back]
        star, dollar, day = prices or self.prices(state, player)
        return sum(offer_value(c, stars, state.money[player], days_left, deck.money.floor,
                               star, dollar, day)
                   for c in cards) / len(cards)

    def _job(self, state: IronTriangleState, player: int) -> PlayJob:
        deck = state.deck
        hand = [deck.cards[c] for c in state.hands[player]]
        star, dollar, _ = self.prices(state, player)
        # play the card with the most stars, keeping high-priced cards to offer later
        card = max(hand, key=lambda c: (c.stars - 0.5 * c.price * dollar / star, c.index))
        # ask for the feature whose offers are worth most to this boss now
        best = {f: max(self._expected(state, player, b, card.stars)
                       for b, fs in BACK_FEATURES.items() if f in fs) for f in FEATURES}
        feature = max(FEATURES, key=lambda f: best[f])
        return PlayJob(card.name, feature)

    def _offer(self, state: IronTriangleState, player: int) -> Offer:
        deck = state.deck
        wanted = state.feature or ""
        star, dollar, _ = self.prices(state, player)

        def score(c: JobCard) -> float:
            matches = wanted in BACK_FEATURES[c.back]
            return (2.0 if matches else 0.0) + c.price * dollar * 2 - c.stars * star

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


ROLE_PULL = 0.2  # Notoriety per dollar (or star) per point of role bonus at stake


class IronTriangleBot(IronTriangleBasicBot):
    """Level "standard": the basic bot's play, with dollars and stars priced for its role."""

    # its own prices, tuned against the basic bot (which was tuned against random play):
    # dearer dollars and days, for rivals that fight for the boss's seat
    star, dollar, day = 0.4, 0.35, 2.5

    def prices(self, state: IronTriangleState, player: int) -> tuple[float, float, float]:
        """The bot's prices, plus a pull toward what the role pays for: being first on
        Money (the Loan Shark) or on Quality (the Perfectionist, who needs more stars than
        the Loan Shark dollars: a star is dearer), reaching $15 (the Hustler), being ahead
        on both tracks (the Consigliere, the Fixer).  The Big Spender gets no pull: being
        last on Money costs more Notoriety than its bonus pays (tried in bot games)."""
        star, dollar = self.star, self.dollar
        role = state.deck.roles[state.roles[player]]
        pull = ROLE_PULL * role.bonus / 4
        kind, arg = next(iter(role.condition.items()))
        if kind == "most":
            if arg == "money":
                dollar += pull
            else:
                star += 2 * pull
        elif kind == "at_least":  # a mark to pass: it counts until it is safely reached
            track = state.money if arg["track"] == "money" else state.quality
            if track[player] < int(arg["space"]) + 2:
                if arg["track"] == "money":
                    dollar += pull
                else:
                    star += pull
        elif kind in ("ahead_of_half", "not_last"):
            star += pull / 2
            dollar += pull / 2
        return star, dollar, self.day


    def _offer(self, state: IronTriangleState, player: int) -> Offer:
        """Offer where the pick is likely: the boss sees only backs, so the card whose back
        is worth most to the boss (priced as the basic bot prices, with the boss's money and
        days) is the one picked.  Among those, the one that pays best; with none, the card
        least worth keeping (it will not be picked, so nothing good is spent on it)."""
        deck = state.deck
        assert state.job is not None
        boss, stars = state.boss, deck.cards[state.job].stars
        # the boss's role is secret: its tastes are guessed with the plain prices
        worth = {back: self._expected(state, boss, back, stars, (STAR, DOLLAR, DAY))
                 for back in BACK_FEATURES}
        best = max(worth[deck.cards[c].back] for c in state.hands[player])
        top = max(worth.values())
        star, dollar, _ = self.prices(state, player)

        def score(c: JobCard) -> float:
            keep = c.stars * star * KEEP_JOB
            if worth[c.back] < best or best < top - PICK_MARGIN:
                return -keep  # unlikely to be picked: spend the card least worth keeping
            return star + c.price * dollar - keep

        card = max((deck.cards[c] for c in state.hands[player]), key=lambda c: (score(c), c.index))
        return Offer(card.name)


KEEP_JOB = 0.5  # share of a card's job stars kept in view when it is offered instead
PICK_MARGIN = 0.3  # how far below the best back an offer may be and still hope to be picked


BOT_LEVELS: dict[str, type[Bot]] = {"standard": IronTriangleBot, "basic": IronTriangleBasicBot}
