"""Helpers for the Mice Heist tests: build states and put chosen chips in a test."""

from __future__ import annotations

import random

from mobadj.cards.miceheist.engine import MiceHeistState
from mobadj.cards.protocol import RandomBot

# chip ids of the bundled deck (mice_heist.yaml order)
BLUE, GREEN, GREEN2 = 0, 1, 2
YELLOW = (3, 4, 5, 6)
ORANGE, ORANGE2, RED, PURPLE = 7, 8, 9, 10


def new(players: int = 4, seed: int = 1) -> MiceHeistState:
    return MiceHeistState.new(players, seed)


def select(state: MiceHeistState, job: str, bets: dict[int, str] | None = None) -> None:
    """Tester selects ``job``; each other player bets (``"bet 0"`` unless given)."""
    state.command(state.tester, f"select {job}")
    bets = bets or {}
    for p in list(state.to_act()):
        state.command(p, bets.get(p, "bet 0"))


def set_chips(state: MiceHeistState, chips: list[tuple[int, int]]) -> None:
    """Replace this test's chips with ``chips`` ((id, face) pairs), keeping all 11 chips."""
    for c in state.test_chips:
        state.bag.append(c[0])
    state.test_chips = []
    for chip, face in chips:
        if chip in state.bag:
            state.bag.remove(chip)
        else:
            state.center.remove(chip)
        state.test_chips.append([chip, face, 0])
    assert not state.check_invariants()


def give_skill(state: MiceHeistState, player: int, key: str, index: int = 0) -> None:
    """Replace the player's skill at ``index`` with ``key`` (taken from deck or market)."""
    if key in state.deck:
        state.deck.remove(key)
    elif key in state.market:
        state.market.remove(key)
        state.market.append(state.deck.pop())
    state.skills[player][index] = key


def random_game(players: int, seed: int, upto: int | None = None) -> MiceHeistState:
    """A game played with random legal actions (seeded), stopped after ``upto`` actions."""
    state = new(players, seed)
    rng = random.Random(seed)
    bot = RandomBot()
    steps = 0
    while not state.is_over() and (upto is None or steps < upto):
        acts = state.to_act()
        p = acts[0] if len(acts) == 1 else rng.choice(acts)
        state.apply(p, bot.choose(state, p, rng))
        steps += 1
    return state
