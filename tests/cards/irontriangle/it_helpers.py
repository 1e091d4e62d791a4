"""Helpers that put an Iron Triangle game into a chosen position (keeping every card once)."""

from __future__ import annotations

from mobadj.cards.irontriangle.engine import IronTriangleState


def new(players: int = 4, seed: int = 1) -> IronTriangleState:
    return IronTriangleState.new(players, seed)


def idx(state: IronTriangleState, name: str) -> int:
    card = state.deck.card_named(name)
    assert card is not None, name
    return card.index


def give(state: IronTriangleState, player: int, names: list[str]) -> None:
    """Make ``names`` part of ``player``'s hand by swapping cards, wherever they are."""
    wanted = [idx(state, n) for n in names]
    hand = state.hands[player]
    for c in wanted:
        if c in hand:
            continue
        spare = next(x for x in hand if x not in wanted)
        for pile in [state.draw_pile, state.discard, *state.hands]:
            if c in pile:
                pile[pile.index(c)] = spare
                break
        else:
            raise AssertionError(f"card {c} is not in a hand or pile")
        hand[hand.index(spare)] = c


def place_time(state: IronTriangleState, stacks: dict[int, list[int]]) -> None:
    """Put the Time cubes in ``stacks`` (position -> players bottom to top) and find the
    Mob Boss again, as at the start of a round."""
    state.stacks = [[] for _ in range(state.deck.finish + 1)]
    for pos, players in stacks.items():
        for p in players:
            state.stacks[pos].append(p)
            state.time_pos[p] = pos
    assert sorted(state.time_order()) == list(range(state.players))
    state._start_round()


def play_round(state: IronTriangleState, job: str, feature: str, offers: dict[int, str],
               pick: int) -> None:
    """One whole round through commands: job, every offer, the pick."""
    boss = state.boss
    give(state, boss, [job])
    state.command(boss, f"job {job} {feature}")
    for p, name in offers.items():
        give(state, p, [name])
        state.command(p, f"offer {name}")
    state.command(boss, f"pick P{pick + 1}")
