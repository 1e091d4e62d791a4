"""micro mob bots: ``MicroMobBot`` (level "standard", the default) and the first bot,
``MicroMobBasicBot`` (level "basic"), kept so that the two can be compared.

The basic bot is greedy on points: each legal action gets a value (the v.p. it adds now,
minus a small price for the goon strength it fatigues) and it takes the best, abilities
included, so an ability is used only when nothing else is worth more.  It flips its own
fatigued goons into its hit area until it has nothing left to act with and must pass, and
never moves an ally (``ally_to_hit``, ``ally_to_hand``) or swaps.

The standard bot values a position as its v.p. now plus what its goons and allies are still
worth for the turns it has left (a goon in hand more than one in fatigue, and too few goons
cost dearly), and judges every action by the change it makes: abilities first, each one
used whenever it gains something (they do not take the turn's action), then the action that
gains most.  An ally is worth its v.p. and its power; an ``ally_to_hit`` ally at least its own
hit (it can move itself there), a ``swap`` ally the goon upgrades it offers.  It reads only
its own seat's view (the city and public areas, its hand).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mobadj.cards.micromob.actions import Done, Draft, Pass, Payroll, Take, Use
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import Bot, GameState

# What an ally's power is worth to the bot beyond its 2 v.p. (a rough guess per group).
POWER_WORTH = {
    "hit_plus": 1.0, "hire_plus": 1.0, "ally_plus": 1.0, "action_plus": 2.0,
    "fatigue_to_hit": 1.5, "ally_to_hit": 1.0, "ally_to_hand": 0.5, "rest": 1.5,
    "expand": 0.5, "swap": 0.5,
    "extra_hit": 1.5, "extra_hire": 1.0, "extra_ally": 1.5, "extra_action": 2.5,
    "goon_bonus": 3.0, "ally_bonus": 2.5, "hit_bonus": 2.0, "recolour": 1.5,
}
SPEND_PRICE = 0.15  # v.p. per point of goon strength sent to fatigue


class MicroMobBasicBot(Bot):
    """The first bot (level "basic"): greedy on immediate points, avoiding the probable
    kingpin's family near the end."""

    def choose(self, state: GameState, player: int, rng: random.Random) -> Any:
        assert isinstance(state, MicroMobState)
        actions = state.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        scored = [(self.value(state, player, a), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        return actions[rng.choice([i for v, i in scored if v == best])]

    def value(self, state: MicroMobState, player: int, action: Any) -> float:
        cards = state.deck.cards
        powers = Counter(state.powers(player))
        if isinstance(action, Draft):
            c = cards[action.card]
            return c.goon_hit + c.goon_money + c.goon_ally
        if isinstance(action, Use):
            return self._use_value(state, player, action, powers)
        if isinstance(action, Take):
            c = cards[action.target]
            spent = sum(cards[g].value(action.kind) for g in action.goons)
            cost = SPEND_PRICE * spent
            if action.kind == "hit":
                gain = c.boss_hit * self._colour_risk(state, c.colour, action.target)
                gain += powers["hit_bonus"]
            elif action.kind == "ally":
                gain = 2 + powers["ally_bonus"] + POWER_WORTH[c.power] * self._time_left(state)
            else:
                gain = 1 + powers["goon_bonus"]
                gain += 0.4 * (c.goon_hit + c.goon_money + c.goon_ally) * self._time_left(state)
            return gain - cost
        if isinstance(action, Payroll):
            return 0.5 + 0.1 * len(state.fatigue[player])
        if isinstance(action, Done | Pass):
            return 0.0
        return 0.0

    def _use_value(self, state: MicroMobState, player: int, use: Use, powers: Counter) -> float:
        cards = state.deck.cards
        power = cards[use.card].power
        if power == "rest":
            return 1.0
        if power == "fatigue_to_hit" and use.target:
            c = cards[use.target]
            gain = c.boss_hit * self._colour_risk(state, c.colour, None) + powers["hit_bonus"]
            return gain - 1 - powers["goon_bonus"]
        if power == "ally_to_hit" and use.target:
            c = cards[use.target]
            gain = c.boss_hit * self._colour_risk(state, c.colour, None) + powers["hit_bonus"]
            keep = 2 + powers["ally_bonus"] + POWER_WORTH[c.power] * self._time_left(state)
            return gain - keep
        if power == "expand":
            return 0.3
        return -1.0  # ally_to_hand and swap: rarely worth it for a greedy player

    @staticmethod
    def _time_left(state: MicroMobState) -> float:
        """1 early in the game, falling to 0 as the city runs out."""
        left = len(state.pile) + len(state.city)
        return min(1.0, left / (state.total_cards / 2))

    @staticmethod
    def _colour_risk(state: MicroMobState, colour: str, taking: str | None) -> float:
        """Chance-ish that a hit of ``colour`` still scores, judged from the city's families."""
        if state.pile:
            return 1.0 if len(state.pile) > 3 else 0.85
        rest = [state.card(c).colour for c in state.city if c != taking]
        if not rest:
            return 1.0
        return 1.0 - rest.count(colour) / len(rest)


# The standard bot's prices, in v.p. per point of goon strength (hit + money + ally) per turn
# it has left: in hand, in the fatigue area (it needs a payroll first); and what each goon
# under MIN_GOONS (hand and fatigue) costs per turn left.  Tuned in bot-against-bot games.
IN_HAND = 0.014
IN_FATIGUE = 0.010
MIN_GOONS = 5
SHORT_GOON = 0.8
CARDS_PER_TURN = 0.65  # cards that leave the city in an average turn (4 players, 4 modules)
SWAP_COST = 0.1  # what the goon given to the city is worth to the others
SWAP_USES = 3.0  # swaps worth making in the turns a new swap ally has left (a guess)


class MicroMobBot(MicroMobBasicBot):
    """Level "standard": every action judged by the change in position value it makes."""

    def choose(self, state: GameState, player: int, rng: random.Random) -> Any:
        assert isinstance(state, MicroMobState)
        actions = state.legal_actions(player)
        if len(actions) == 1 or isinstance(actions[0], Draft):
            return super().choose(state, player, rng)
        turns = self._turns_left(state)
        uses = [a for a in actions if isinstance(a, Use)]
        if uses:  # abilities do not take the action: use each one that gains anything
            scored = [(self._use_gain(state, player, a, turns, actions), i)
                      for i, a in enumerate(uses)]
            best, i = max(scored)
            if best > 0.05:
                return uses[i]
        rest = [a for a in actions if not isinstance(a, Use)]
        scored = [(self._gain(state, player, a, turns), i) for i, a in enumerate(rest)]
        best = max(v for v, _ in scored)
        return rest[rng.choice([i for v, i in scored if v == best])]

    # -- what the position is worth --------------------------------------------------------
    @staticmethod
    def _turns_left(state: MicroMobState) -> float:
        """About how many more turns this player gets."""
        cards = len(state.pile) + len(state.city) - 1
        return max(0.0, cards / CARDS_PER_TURN / state.players)

    @staticmethod
    def _strength(state: MicroMobState, cid: str) -> int:
        c = state.deck.cards[cid]
        return c.goon_hit + c.goon_money + c.goon_ally

    def _short(self, goons: int, turns: float) -> float:
        """The price of having fewer than MIN_GOONS goons for the turns left."""
        return SHORT_GOON * min(turns, 6.0) * max(0, MIN_GOONS - goons)

    def _hit_worth(self, state: MicroMobState, player: int, cid: str, taking: str | None,
                   powers: Counter) -> float:
        c = state.deck.cards[cid]
        return c.boss_hit * self._colour_risk(state, c.colour, taking) + powers["hit_bonus"]

    def _ally_worth(self, state: MicroMobState, cid: str, powers: Counter, turns: float) -> float:
        """What keeping ``cid`` in the ally area is worth (its v.p. and its power)."""
        power = state.deck.cards[cid].power
        return 2 + powers["ally_bonus"] + POWER_WORTH[power] * min(1.0, turns / 6)

    def _new_ally_worth(self, state: MicroMobState, player: int, cid: str, powers: Counter,
                        turns: float) -> float:
        """What allying with city boss ``cid`` is worth.  An ``ally to hits`` card can move
        itself to the hit area later, so it is worth at least its own hit (cheaper to ally
        than to hit, and its power serves until then); a ``swap with city`` card is a
        goon upgrade each turn (the best one the city offers now, for its turns left)."""
        worth = self._ally_worth(state, cid, powers, turns)
        power = state.deck.cards[cid].power
        if power == "ally_to_hit":
            worth = max(worth, self._hit_worth(state, player, cid, cid, powers))
        elif power == "swap":
            worth += SWAP_USES * self._best_swap(state, player, cid, turns)
        return worth

    def _best_swap(self, state: MicroMobState, player: int, taking: str, turns: float) -> float:
        """The gain of swapping the weakest goon in hand for the strongest city card (but
        ``taking``, the card leaving the city)."""
        city = [self._strength(state, c) for c in state.city if c != taking]
        if not city or not state.hand[player]:
            return 0.0
        weakest = min(self._strength(state, g) for g in state.hand[player])
        return max(0.0, IN_HAND * turns * (max(city) - weakest) - SWAP_COST)

    # -- what an action changes ------------------------------------------------------------
    def _gain(self, state: MicroMobState, player: int, action: Any, turns: float) -> float:
        powers = Counter(state.powers(player))
        goons = len(state.hand[player]) + len(state.fatigue[player])
        if isinstance(action, Payroll):
            back = sum(self._strength(state, g) for g in state.fatigue[player])
            return (IN_HAND - IN_FATIGUE) * turns * back
        if not isinstance(action, Take):
            return 0.0  # done, pass
        spent = sum(self._strength(state, g) for g in action.goons)
        gain = -(IN_HAND - IN_FATIGUE) * turns * spent
        target = action.target
        if action.kind == "hit":
            gain += self._hit_worth(state, player, target, target, powers)
        elif action.kind == "ally":
            gain += self._new_ally_worth(state, player, target, powers, turns)
        else:
            gain += 1 + powers["goon_bonus"] + IN_HAND * turns * self._strength(state, target)
            gain += self._short(goons, turns) - self._short(goons + 1, turns)
        return gain

    def _use_gain(self, state: MicroMobState, player: int, use: Use, turns: float,
                  actions: list[Any]) -> float:
        cards = state.deck.cards
        power = cards[use.card].power
        powers = Counter(state.powers(player))
        goons = len(state.hand[player]) + len(state.fatigue[player])
        target = use.target or ""
        if power == "rest":
            return (IN_HAND - IN_FATIGUE) * turns * self._strength(state, target)
        if power == "fatigue_to_hit":
            return (self._hit_worth(state, player, target, None, powers)
                    - 1 - powers["goon_bonus"] - IN_FATIGUE * turns * self._strength(state, target)
                    - (self._short(goons - 1, turns) - self._short(goons, turns)))
        if power == "ally_to_hit":
            after = Counter(powers)
            after[cards[target].power] -= 1
            return (self._hit_worth(state, player, target, None, after)
                    - self._ally_worth(state, target, powers, turns))
        if power == "ally_to_hand":
            return (1 + powers["goon_bonus"] + IN_HAND * turns * self._strength(state, target)
                    - self._ally_worth(state, target, powers, turns)
                    + self._short(goons, turns) - self._short(goons + 1, turns))
        if power == "swap":
            return IN_HAND * turns * (self._strength(state, target)
                                      - self._strength(state, use.give or "")) - SWAP_COST
        # expand: one more card to choose from, worth it only when nothing pays now
        takes = [self._gain(state, player, a, turns) for a in actions if isinstance(a, Take)]
        return 0.1 if not takes or max(takes) <= 0 else -1.0


BOT_LEVELS: dict[str, type[Bot]] = {"standard": MicroMobBot, "basic": MicroMobBasicBot}
