"""The bot: always legal, and it beats random players."""

from __future__ import annotations

import random

from mh_helpers import RED, YELLOW, new, select, set_chips

from mobadj.cards.miceheist.bot import MiceHeistBot
from mobadj.cards.protocol import RandomBot


def play(players: int, seed: int, bot_seats: set[int]):
    state = new(players, seed)
    rng = random.Random(seed * 31 + 7)
    bot, rnd = MiceHeistBot(), RandomBot()
    steps = 0
    while not state.is_over() and steps < 5000:
        acts = state.to_act()
        p = acts[0] if len(acts) == 1 else rng.choice(acts)
        action = (bot if p in bot_seats else rnd).choose(state, p, rng)
        if p in bot_seats:
            assert action in state.legal_actions(p), (action, state.phase)
        state.apply(p, action)
        steps += 1
    assert state.is_over() and not state.check_invariants()
    return state


def test_bot_beats_random() -> None:
    # one bot against three random players, rotating its seat, 240 seeded games
    games, share = 240, 0.0
    for g in range(games):
        seat = g % 4
        w = play(4, 500 + g, {seat}).winners()
        share += (seat in w) / len(w)
    assert share / games > 0.5  # fair share would be 0.25


def test_all_bot_games_finish_in_reasonable_length() -> None:
    turns = [play(n, 900 + n, set(range(n))).turn for n in (2, 3, 4, 5, 6) for _ in range(4)]
    assert max(turns) < 60


def test_bot_skips_chip_skills_when_every_chip_is_set_aside() -> None:
    s = new(4, 1)
    t = s.tester
    s.skills[t][:2] = ["shrug-off", "second-glance"]
    select(s, "A")
    set_chips(s, [(RED, 1), (YELLOW[0], 1)])
    for c in s.test_chips:
        c[2] = 1  # both set aside
    action = MiceHeistBot().choose(s, t, random.Random(1))
    assert action in s.legal_actions(t)
