"""Secrets stay secret: roles, hands, face-down offers and the draw pile never reach another
player's view, rendering, history or error messages, at any step of whole games."""

from __future__ import annotations

import json
import random

import pytest

from mobadj.cards.irontriangle.actions import Offer, PlayJob
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.protocol import GameError

Viewer = int | None


def hidden_cards(s: IronTriangleState, viewer: Viewer) -> set[int]:
    """Cards ``viewer`` may not know: others' hands and face-down offers, the draw pile."""
    hidden = set(s.draw_pile)
    for p in range(s.players):
        if p == viewer:
            continue
        hidden.update(s.hands[p])
        if p in s.offers:
            hidden.add(s.offers[p])
        if s.last and p in s.last["offers"] and p not in s.last["revealed"]:
            hidden.add(s.last["offers"][p])
    own = set(s.hands[viewer]) if viewer is not None else set()  # once others' offers
    return hidden - known_from_last_round(s, viewer) - own


def known_from_last_round(s: IronTriangleState, viewer: Viewer) -> set[int]:
    """The last round's Job, picked and revealed offers (shown to all) and the viewer's own
    offer: known to the viewer wherever they went since (discarded, then maybe shuffled and
    drawn at once), so naming them says nothing of where they are now."""
    last = s.last
    if not last:
        return set()
    known = {last["job"], *(last["offers"][p] for p in last["revealed"])}
    if viewer in last["offers"]:
        known.add(last["offers"][viewer])
    return known


def hidden_roles(s: IronTriangleState, viewer: Viewer) -> set[str]:
    if s.is_over():
        return set()
    return {s.deck.roles[r].name for p, r in enumerate(s.roles) if p != viewer}


def leaks(s: IronTriangleState, viewer: Viewer, text: str) -> list[str]:
    names = [s.deck.cards[c].name for c in hidden_cards(s, viewer)]
    return [n for n in [*names, *hidden_roles(s, viewer)] if n in text]


def probe_errors(s: IronTriangleState, viewer: int, rng: random.Random) -> list[str]:
    """Error messages a player can provoke now (wrong turn, a card held by someone else, a
    bad pick, typos); every probe fails before changing anything."""
    attempts = ["pick P9", "job Nothing fast", "offer 7", "ofer 1", "job 1 fsat", "say", "pick"]
    if not s._may_reveal(viewer):
        attempts.append("reveal")
    messages = []
    for text in attempts:
        with pytest.raises(GameError) as info:
            s.command(viewer, text)
        messages.append(str(info.value))
    foreign = [s.deck.cards[c].name for c in hidden_cards(s, viewer)]
    if foreign:
        name = rng.choice(foreign)
        for action in (Offer(name), PlayJob(name, "fast")):
            with pytest.raises(GameError) as info:
                s.apply(viewer, action)
            messages.append(str(info.value).replace(name, "<the name typed>"))
    return messages


def random_game(players: int, seed: int, check_errors: bool) -> int:
    """Play a random game checking every viewer after every step; returns the steps."""
    s = IronTriangleState.new(players, seed)
    rng = random.Random(seed)
    viewers: list[Viewer] = [None, *range(players)]
    seen = 0
    steps = 0
    while True:
        new_events = s.events[seen:]  # what each viewer reads is history(v), filtered so
        seen = len(s.events)
        for v in viewers:
            for e in new_events:
                if e.visible(v):
                    assert not leaks(s, v, e.text), (v, e)
            view = s.view(v)
            assert not leaks(s, v, json.dumps(view)), (v, view)
            assert not leaks(s, v, s.render(v)), v
            assert "\"hand\"" not in json.dumps(view.get("seats"))
            if check_errors and v is not None and steps % 6 == 0:
                for msg in probe_errors(s, v, rng):
                    assert not leaks(s, v, msg), (v, msg)
        if s.is_over():
            return steps
        # out-of-turn talk and reveals, now and then
        if s.phase == "negotiate" and rng.random() < 0.3:
            s.command(rng.randrange(players), "say my offer is the best, trust me")
        if s.last and s.last.get("open") and rng.random() < 0.3:
            candidates = [p for p in s.last["offers"] if p not in s.last["revealed"]]
            if candidates:
                s.command(rng.choice(candidates), "reveal")
        actors = s.to_act()
        p = rng.choice(actors)
        s.apply(p, rng.choice(s.legal_actions(p)))
        steps += 1


def test_the_leak_detector_sees_a_hand_shown_to_the_wrong_player() -> None:
    s = IronTriangleState.new(4, 5)
    assert leaks(s, 1, s.render(0))  # P1's own hand, as P2 would see it
    assert leaks(s, None, json.dumps(s.view(2)))
    assert not leaks(s, 0, s.render(0))


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (6, 4)])
def test_no_secret_reaches_another_player_in_a_whole_game(players: int, seed: int) -> None:
    assert random_game(players, seed, check_errors=True) > 20


@pytest.mark.parametrize("seed", range(10, 14))
def test_no_secret_leaks_across_more_games(seed: int) -> None:
    random_game(3 + seed % 4, seed, check_errors=False)


def test_the_seed_and_the_initial_state_do_not_show_in_views() -> None:
    s = IronTriangleState.new(5, 987654)
    for v in [None, *range(5)]:
        assert "987654" not in json.dumps(s.view(v)) and "987654" not in s.render(v)
        assert "draw_order" not in json.dumps(s.view(v))
