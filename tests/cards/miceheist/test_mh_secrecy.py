"""Sealed bets stay secret until the reveal: in views, renders, history and error texts.

The test is non-interference: from states met in whole simulated games, a bettor seals two
different bets in two copies of the game; everything any *other* player (or a spectator)
can read must be identical in both copies until the reveal.
"""

from __future__ import annotations

import copy
import random

import pytest
from mh_helpers import new

from mobadj.cards.miceheist.actions import Bet
from mobadj.cards.protocol import GameError
from mobadj.cards.record import GameRecord, undo_last

PROBES = ("bet 99", "bet 1", "select A", "test", "use scurry")


def readable(state, q) -> tuple:
    """Everything player ``q`` (None: a spectator) can read, including error texts."""
    errors = []
    if q is not None:
        for text in PROBES:
            try:
                copy.deepcopy(state).command(q, text)
                errors.append("ok")
            except GameError as err:
                errors.append(str(err))
    legal = [str(a) for a in state.legal_actions(q)] if q is not None else []
    return (state.view(q), state.render(q), state.history(q), errors, legal, state.to_act())


def bet_states(players: int, seed: int):
    """Yield (state, bettor) at each bet with at least two sealed choices still to come."""
    state = new(players, seed)
    rng = random.Random(seed)
    while not state.is_over():
        acts = state.to_act()
        if state.phase == "bet":
            for p in acts:
                yield state, p
        p = rng.choice(acts)
        state.apply(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (6, 13)])
def test_other_players_cannot_tell_sealed_bets_apart(players: int, seed: int) -> None:
    checked = 0
    for i, (state, p) in enumerate(bet_states(players, seed)):
        if i % 3 or checked >= 12:  # a spread of states through the whole game
            continue
        options = state.legal_actions(p)
        low, high = options[0], options[-1]
        if str(low) == str(high):
            continue
        a, b = copy.deepcopy(state), copy.deepcopy(state)
        a.apply(p, low)
        b.apply(p, high)
        if a.phase != "bet":  # that bet was the last one: it is revealed, as it should be
            continue
        for q in [None, *(x for x in range(players) if x != p)]:
            assert readable(a, q) == readable(b, q), f"P{p + 1}'s bet leaks to {q}"
        # the bettor sees their own bet
        assert a.view(p)["your_bet"] == a.bet_text(p, low) and b.view(p)["your_bet"] == \
            b.bet_text(p, high)
        checked += 1
    assert checked >= 5


def test_private_bet_events_only_to_the_bettor_and_one_public_reveal() -> None:
    state = new(4, 5)
    rng = random.Random(5)
    while not state.is_over():
        p = rng.choice(state.to_act())
        state.apply(p, rng.choice(state.legal_actions(p)))
    seals = [e for e in state.events if e.text.startswith("You seal")]
    assert seals and all(e.visible_to is not None and len(e.visible_to) == 1 for e in seals)
    public = state.history(None)
    assert not any("seal a bet:" in e for e in public)
    reveals = [e for e in public if "Bets revealed" in e]
    selects = [e for e in public if " selects " in e]
    assert len(reveals) == len(selects)  # one reveal per test


def test_deck_order_is_never_shown() -> None:
    # the face-down upgrade deck is the only other hidden thing: no view names its cards
    state = new(4, 8)
    hidden = [state.data.skills[k].name for k in state.deck]
    for q in [None, 0, 1, 2, 3]:
        text = state.render(q) + "\n".join(state.history(q)) + str(state.view(q))
        assert not [n for n in hidden if n in text]


def test_undo_cannot_reveal_a_bet() -> None:
    # undo of a sealed bet is allowed while others are still betting (ruling R13), and the
    # rebuilt state shows the others nothing new; the bet that completes the reveal is final
    state = new(3, 4)
    t = state.tester
    state.command(t, "select A")
    first, last = state.to_act()
    before = {q: readable(state, q) for q in (None, t, last)}
    state.command(first, "bet 2")
    back = undo_last("miceheist", state, first)
    assert {q: readable(back, q) for q in (None, t, last)} == before
    state.command(last, "bet 1")
    with pytest.raises(GameError):
        undo_last("miceheist", state, last)
    assert GameRecord.of("miceheist", state).actions[-1] == (last, str(Bet(1)))
