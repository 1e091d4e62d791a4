"""Iron Triangle bots: value stars, dollars and days in Notoriety and play greedily.

``IronTriangleBot`` (level "standard", the default) plays for its secret role by what the
role is worth and asks for what its job and role need; ``IronTriangleIntermediateBot``
(level "intermediate", the standard bot before it) prices dollars and stars by what its
role pays for being first, last or past a mark on a track; ``IronTriangleBasicBot`` (level
"basic") is the first bot, which ignores its role.  The earlier ones are kept so the bots
can be compared.  Both read only what their seat may see: the public
tracks, the job, the backs of offers, their own hand and role (the same facts
:meth:`IronTriangleState.view` gives that player).
"""

from __future__ import annotations

import math
import random
from typing import Any

from mobadj.cards.irontriangle.actions import Offer, Pick, PlayJob
from mobadj.cards.irontriangle.cards import BACK_FEATURES, FEATURES, JobCard
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.irontriangle.scoring import track_notoriety
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


class IronTriangleIntermediateBot(IronTriangleBasicBot):
    """Level "intermediate", the standard bot before :class:`IronTriangleBot`: the basic
    bot's play, with dollars and stars priced for its role."""

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


class IronTriangleBot(IronTriangleIntermediateBot):
    """Level "standard" (the default): plays for its secret role by what the role is worth,
    asks for what its job and role need, and picks, among offers worth the same, the one of
    the Gangster furthest behind.

    The earlier bot priced a role only as a pull on the price of a dollar or a star, so as
    Mob Boss the Hustler (who needs $15 at the end) still paid its way down to $1 for the
    stars of a Fast and Good offer, and every boss asked for FAST, the first of the two
    features that name the back it liked best.  This bot adds to those prices its role's
    bonus times the chance that the role's condition holds at the end, a smooth function of
    where its cubes stand against the mark or the other cubes (:func:`role_chance`): a step
    away from the mark costs what the bonus is worth, spending above it only the dollars.
    It asks for the feature whose offers give the best pick (of the two backs that name
    it, the better one, unless every Gangster offers the worse), and among offers within
    :data:`CLOSE` of the best it picks the Gangster with the least Notoriety, as a pick pays
    the Gangster: so it feeds no leader.
    """

    def _expected(self, state: IronTriangleState, player: int, back: str, stars: int,
                  prices: tuple[float, float, float] | None = None) -> float:
        if prices is not None:  # another seat's tastes, guessed with the plain prices
            return super()._expected(state, player, back, stars, prices)
        deck = state.deck
        days_left = deck.finish - state.time_pos[player]
        star, dollar, day = self.prices(state, player)
        money, quality = state.money[player], state.quality[player]
        before = role_worth(state, player, money, quality)
        total = 0.0
        cards = deck.by_back[back]
        for card in cards:
            paid = min(card.price, money - deck.money.floor)
            gained = stars + card.modifier - (card.price - paid)
            after = role_worth(state, player, money - paid, max(0, quality + gained))
            total += (gained * star - paid * dollar - min(card.days, days_left) * day
                      + after - before)
        return total / len(cards)

    def _job(self, state: IronTriangleState, player: int) -> PlayJob:
        deck = state.deck
        hand = [deck.cards[c] for c in state.hands[player]]
        star, dollar, _ = self.prices(state, player)
        card = max(hand, key=lambda c: (c.stars - 0.5 * c.price * dollar / star, c.index))
        worth = {b: self._expected(state, player, b, card.stars) for b in BACK_FEATURES}
        gangsters = max(1, state.players - 1)
        asked = {}
        for feature in FEATURES:
            backs = sorted((worth[b] for b, fs in BACK_FEATURES.items() if feature in fs),
                           reverse=True)
            best, worse = backs[0], backs[-1]
            asked[feature] = best - (best - worse) * 0.5 ** gangsters
        return PlayJob(card.name, max(FEATURES, key=lambda f: (asked[f], -FEATURES.index(f))))

    def _offer(self, state: IronTriangleState, player: int) -> Offer:
        """As the standard bot offers, with what a pick would pay its role."""
        deck = state.deck
        assert state.job is not None
        boss, stars = state.boss, deck.cards[state.job].stars
        worth = {back: IronTriangleBasicBot._expected(self, state, boss, back, stars,
                                                      (STAR, DOLLAR, DAY))
                 for back in BACK_FEATURES}
        best = max(worth[deck.cards[c].back] for c in state.hands[player])
        top = max(worth.values())
        star, dollar, _ = self.prices(state, player)
        money, quality = state.money[player], state.quality[player]
        before = role_worth(state, player, money, quality)

        def score(c: JobCard) -> float:
            keep = c.stars * star * KEEP_JOB
            if worth[c.back] < best or best < top - PICK_MARGIN:
                return -keep
            gain = min(c.price, deck.money.last - money)
            role = role_worth(state, player, money + gain, quality + 1) - before
            return star + gain * dollar + role - keep

        card = max((deck.cards[c] for c in state.hands[player]), key=lambda c: (score(c), c.index))
        return Offer(card.name)

    def _pick(self, state: IronTriangleState, player: int, rng: random.Random) -> Pick:
        assert state.job is not None
        deck = state.deck
        stars = deck.cards[state.job].stars
        value = {p: self._expected(state, player, deck.cards[c].back, stars)
                 for p, c in state.offers.items()}
        best = max(value.values())
        close = [p for p in sorted(value) if value[p] >= best - CLOSE]
        behind = {p: track_notoriety(deck, state.money[p], state.quality[p]) for p in close}
        least = min(behind.values())
        return Pick(rng.choice([p for p in close if behind[p] == least]))


CLOSE = 0.3  # Notoriety: offers this close to the best are as good (tuned against the others)
SPREAD = 5.0  # how far (dollars or stars) the end may still be from where a cube stands


def _chance(margin: float) -> float:
    """The chance that a lead of ``margin`` (negative: a gap) still holds at the end."""
    return 1 / (1 + math.exp(-margin / SPREAD))


def role_chance(state: IronTriangleState, player: int, money: int, quality: int) -> float:
    """How likely ``player``'s role is met at the end with its cubes on ``money`` and
    ``quality`` (the others where they are): a smooth guess from the margins (ties count)."""
    role = state.deck.roles[state.roles[player]]
    kind, arg = next(iter(role.condition.items()))
    mine = {"money": money, "quality": quality}
    others = {"money": [m for p, m in enumerate(state.money) if p != player],
              "quality": [q for p, q in enumerate(state.quality) if p != player]}
    if kind == "most":
        return _chance(mine[arg] - max(others[arg]) + 0.5)
    if kind == "least":
        return _chance(min(others[arg]) - mine[arg] + 0.5)
    if kind == "at_least":
        return _chance(mine[arg["track"]] - int(arg["space"]) + 0.5)
    if kind == "not_last":
        return math.prod(_chance(mine[t] - min(others[t]) - 0.5) for t in arg)
    if kind == "ahead_of_half":
        chances = []
        for t in arg:
            ranked = sorted(others[t])
            need = ranked[(len(ranked) + 1) // 2 - 1]  # the cube half the others are behind
            chances.append(_chance(mine[t] - need - 0.5))
        return math.prod(chances)
    if kind == "balanced":
        deck = state.deck
        gap = abs(deck.money.notoriety(money) - deck.quality.notoriety(quality))
        return _chance(int(arg["within"]) - gap + 0.5)
    return 0.0


def role_worth(state: IronTriangleState, player: int, money: int, quality: int) -> float:
    """The role's bonus times the chance it is met (Notoriety to come, in expectation); a
    mark on the bot's own track (the Hustler's $15) counts :data:`DEFEND` times over, as
    keeping above it is the bot's own doing, not a race with the other cubes."""
    role = state.deck.roles[state.roles[player]]
    weight = DEFEND if "at_least" in role.condition else 1
    return weight * role.bonus * role_chance(state, player, money, quality)


DEFEND = 5  # tuned: the Hustler met its mark in 0.29 of games at 1, 0.55 at 4, 0.71 at 6


BOT_LEVELS: dict[str, type[Bot]] = {"standard": IronTriangleBot,
                                    "intermediate": IronTriangleIntermediateBot,
                                    "basic": IronTriangleBasicBot}
