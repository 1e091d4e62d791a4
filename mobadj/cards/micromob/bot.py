"""MicroMobBot: greedy on points, with a little sense for the kingpin and for tempo.

Each legal action gets a value: the v.p. it adds now (a hit's number, 2 per ally plus what
its power is worth, 1 per hired goon), minus a small price for the goon strength it
fatigues.  Abilities that add points are used first; payroll when nothing pays well.
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


class MicroMobBot(Bot):
    """Greedy on immediate points, avoiding the probable kingpin's family near the end."""

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
