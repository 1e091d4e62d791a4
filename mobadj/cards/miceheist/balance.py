"""Balance figures of a Mice Heist deck, for the designer or a GM who transcribed a deck.

``mobadj cards balance miceheist --players 4 --games 400 [--report bots|random|versus]
[--option deck=F]`` prints game lengths, seat and colour win rates, winning margins, the test
success rate, and (``versus``) how often one bot beats random players.  The figures in
``docs/cards/miceheist.md`` come from this module.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from mobadj.cards.miceheist.bot import MiceHeistBot
from mobadj.cards.miceheist.engine import MiceHeistState
from mobadj.cards.protocol import Bot, RandomBot


def play(players: int, seed: int, seats: dict[int, Bot], options: dict[str, Any]) -> Any:
    """One game; ``seats`` maps seat -> chooser (random for seats not named)."""
    state = MiceHeistState.new(players, seed, options)
    rng = random.Random(seed * 7919 + 1)
    fallback = RandomBot()
    while not state.is_over():
        acts = state.to_act()
        p = acts[0] if len(acts) == 1 else rng.choice(acts)
        state.apply(p, seats.get(p, fallback).choose(state, p, rng))
    return state


def figures(players: int, games: int, bots: bool, options: dict[str, Any]) -> dict[str, Any]:
    """Lengths, seat/colour win shares, margins and test success over ``games`` games."""
    chooser: Bot = MiceHeistBot() if bots else RandomBot()
    seats = dict.fromkeys(range(players), chooser)
    wins: defaultdict[int, float] = defaultdict(float)  # shares of games won
    colour_games: Counter[str] = Counter()
    colour_wins: defaultdict[str, float] = defaultdict(float)
    held: Counter[str] = Counter()
    held_wins: defaultdict[str, float] = defaultdict(float)
    turns, actions, margins = [], [], []
    passed = tried = 0
    for g in range(games):
        s = play(players, 1000 + g, seats, options)
        w = s.winners()
        for p in range(players):
            share = (p in w) / len(w)
            wins[p] += share
            colour_games[s.colours[p]] += 1
            colour_wins[s.colours[p]] += share
            for k in s.skills[p]:
                if s.data.skills[k].colour is None:  # an upgrade held at the end
                    held[k] += 1
                    held_wins[k] += share
        turns.append(s.turn)
        actions.append(len(s.actions))
        top = sorted(s.scores(), reverse=True)
        margins.append(top[0] - top[1])
        history = s.history(None)
        passed += sum(" succeeds:" in e for e in history)
        tried += sum(" succeeds:" in e or " fails:" in e for e in history)
    upgrades = sorted(
        ((round(100 * held_wins[k] / held[k]), k) for k in held if held[k] >= 20), reverse=True
    )
    return {
        "players": players,
        "play": "bots" if bots else "random",
        "games": games,
        "turns": [round(statistics.mean(turns), 1), min(turns), max(turns)],
        "actions": round(statistics.mean(actions), 1),
        "seat_win_pct": [round(100 * wins[p] / games, 1) for p in range(players)],
        "colour_win_pct": {
            c: round(100 * colour_wins[c] / colour_games[c], 1) for c in sorted(colour_games)
        },
        "margin_mean": round(statistics.mean(margins), 2),
        "margin_median": statistics.median(margins),
        "close_pct": round(100 * sum(m <= 3 for m in margins) / games, 1),
        "tests_passed_pct": round(100 * passed / max(tried, 1), 1),
        "upgrade_holder_win_pct": {"best": upgrades[:3], "worst": upgrades[-3:]},
    }


def versus(players: int, games: int, options: dict[str, Any]) -> float:
    """Win share of one bot among random players, its seat rotating."""
    share = 0.0
    for g in range(games):
        seat = g % players
        w = play(players, 500 + g, {seat: MiceHeistBot()}, options).winners()
        share += (seat in w) / len(w)
    return share / games


def versus_report(players: int, games: int, options: dict[str, Any]) -> dict[str, float]:
    """:func:`versus` beside the fair share."""
    return {"bot_win_share": round(versus(players, games, options), 3),
            "fair_share": round(1 / players, 3)}


#: The reports of ``mobadj cards balance miceheist`` (the first is the default): each takes
#: the number of games, of players and the game options (``deck``: a GM's transcription).
REPORTS: dict[str, Callable[[int, int, dict[str, Any]], object]] = {
    "bots": lambda games, players, options: figures(players, games, True, options),
    "random": lambda games, players, options: figures(players, games, False, options),
    "versus": lambda games, players, options: versus_report(players, games, options),
}
DEFAULT_GAMES = 400
DEFAULT_PLAYERS = 4
OPTIONS = ("deck",)
