"""Balance figures for the Iron Triangle deck: who wins, by seat, role and starting circle.

Run ``mobadj cards balance irontriangle [--games N] [--players N] [--report random|bot|mixed|
strategies]``; the figures in docs/cards/irontriangle.md come from here.  ``mixed`` seats the
bot as P1 and random players elsewhere.  ``strategies`` seats, in turn, one player who always
picks one kind of offer among random players: a back (what a boss can see), or, seeing the
fronts, the most stars, the lowest price, the fewest or the most days.  An even deck gives each
about a fair share of wins.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from mobadj.cards.irontriangle.actions import Pick
from mobadj.cards.irontriangle.bot import IronTriangleBot
from mobadj.cards.irontriangle.cards import JobCard
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.irontriangle.scoring import role_met
from mobadj.cards.protocol import Bot, RandomBot


def play_out(state: IronTriangleState, seats: list[Bot], rng: random.Random) -> None:
    """Play ``state`` to the end with one chooser per seat."""
    while not state.is_over():
        actors = state.to_act()
        p = actors[0] if len(actors) == 1 else rng.choice(actors)
        state.apply(p, seats[p].choose(state, p, rng))


def balance(games: int, players: int, mode: str = "random", seed: int = 0) -> dict[str, Any]:
    """Play ``games`` games and gather the figures (win shares are fractions of games)."""
    rng = random.Random(seed ^ 0xBA1)
    bot, rnd = IronTriangleBot(), RandomBot()
    by_mode: dict[str, list[Bot]] = {"random": [rnd] * players, "bot": [bot] * players,
                                      "mixed": [bot, *[rnd] * (players - 1)]}
    seats = by_mode[mode]
    wins: Counter[str] = Counter()
    role_wins: Counter[str] = Counter()
    role_dealt: Counter[str] = Counter()
    role_met_n: Counter[str] = Counter()
    circle_wins: Counter[int] = Counter()
    totals: Counter[str] = Counter()
    scores: list[float] = []
    for i in range(games):
        state = IronTriangleState.new(players, seed + i)
        play_out(state, seats, rng)
        deck = state.deck
        for p in range(players):
            name = deck.roles[state.roles[p]].name
            role_dealt[name] += 1
            role_met_n[name] += role_met(deck, deck.roles[state.roles[p]], p, state.money,
                                         state.quality)
        for p in state.winners():
            wins[f"P{p + 1}"] += 1
            role_wins[deck.roles[state.roles[p]].name] += 1
            circle_wins[sorted(state.circle).index(state.circle[p]) + 1] += 1
        scores.extend(state.scores())
        for key, value in state.stats.items():
            totals[key] += value
        totals["steps"] += len(state.actions)
    rounds = totals["rounds"] or 1
    return {
        "games": games, "players": players, "mode": mode,
        "mean_rounds": round(totals["rounds"] / games, 2),
        "mean_actions": round(totals["steps"] / games, 2),
        "mean_score": round(sum(scores) / len(scores), 2),
        "win_share_by_seat": {k: round(v / games, 3) for k, v in sorted(wins.items())},
        "win_share_by_start_order": {f"circle {k}": round(v / games, 3)
                                     for k, v in sorted(circle_wins.items())},
        "role_met_rate": {k: round(role_met_n[k] / role_dealt[k], 3) for k in sorted(role_dealt)},
        "role_win_rate": {k: round(role_wins[k] / role_dealt[k], 3) for k in sorted(role_dealt)},
        "picks_by_back": {k[5:]: round(v / rounds, 3) for k, v in totals.items()
                          if k.startswith("pick_")},
        "too_poor_per_game": round(totals["too_poor"] / games, 3),
        "shortfall_per_game": round(totals["shortfall"] / games, 3),
    }


class PickBy(Bot):
    """Random everywhere, except that as boss it picks the offer with the highest ``key``."""

    def __init__(self, key: Callable[[JobCard], float]) -> None:
        self.key = key

    def choose(self, state: Any, player: int, rng: random.Random) -> Any:
        if state.phase == "negotiate":
            best = max(self.key(state.deck.cards[c]) for c in state.offers.values())
            return Pick(rng.choice([p for p, c in sorted(state.offers.items())
                                    if self.key(state.deck.cards[c]) == best]))
        return rng.choice(state.legal_actions(player))


STRATEGIES: dict[str, Callable[[JobCard], float]] = {
    "back cheap_fast": lambda c: c.back == "cheap_fast",
    "back fast_good": lambda c: c.back == "fast_good",
    "back good_cheap": lambda c: c.back == "good_cheap",
    "front: most stars": lambda c: c.modifier,
    "front: lowest price": lambda c: -c.price,
    "front: fewest days": lambda c: -c.days,
    "front: most days": lambda c: c.days,
}


def strategies(games: int, players: int, seed: int = 2000) -> dict[str, float]:
    """Win share of one always-pick-X player (each seat in turn) among random players."""
    result = {}
    for name, key in STRATEGIES.items():
        rng = random.Random(5)
        wins = 0
        for i in range(games):
            seat = i % players
            seats: list[Bot] = [RandomBot()] * players
            seats[seat] = PickBy(key)
            state = IronTriangleState.new(players, seed + i)
            play_out(state, seats, rng)
            wins += seat in state.winners()
        result[name] = round(wins / games, 3)
    return result


#: The reports of ``mobadj cards balance irontriangle`` (the first is the default): each takes
#: the number of games, of players and the game options.
REPORTS: dict[str, Callable[[int, int, dict[str, Any]], object]] = {
    "random": lambda games, players, _options: balance(games, players, "random"),
    "bot": lambda games, players, _options: balance(games, players, "bot"),
    "mixed": lambda games, players, _options: balance(games, players, "mixed"),
    "strategies": lambda games, players, _options: strategies(games, players),
}
DEFAULT_GAMES = 1000
DEFAULT_PLAYERS = 5
OPTIONS: tuple[str, ...] = ()
