"""Helpers for micro mob tests: games past the draft, and hand-arranged positions.

Rule references (``# rules L<n>``) are line numbers of /work/shared/rules/micromob.md.
"""

from __future__ import annotations

from mobadj.cards.micromob.engine import MicroMobState

DECK = MicroMobState.deck


def with_power(power: str, n: int = 1) -> list[str]:
    """The first ``n`` card ids (in deck order) whose ally power is ``power``."""
    ids = [c.id for c in DECK.cards.values() if c.power == power]
    assert len(ids) >= n, power
    return ids[:n]


def drafted(players: int = 2, seed: int = 1, **options: object) -> MicroMobState:
    """A game just after the goon draft (each drafter takes the first card of the pool)."""
    state = MicroMobState.new(players, seed, options)
    while state.phase == "draft":
        state.command(state.current, f"draft {state.pool[0]}")
    return state


def zones_of(state: MicroMobState) -> list[list[str]]:
    return [state.pile, state.pool, state.city, *state.hand, *state.fatigue,
            *state.allies, *state.hits]


def put(state: MicroMobState, zone: list[str], *ids: str) -> None:
    """Move cards (wherever they are) into ``zone``, keeping every card in one zone."""
    for cid in ids:
        for z in zones_of(state):
            if cid in z:
                z.remove(cid)
                break
        else:  # a card of a module not in the game
            state.total_cards += 1
        zone.append(cid)


def clear(state: MicroMobState, player: int) -> None:
    """Empty ``player``'s hand, fatigue, allies and hits into the bottom of the pile."""
    for zone in (state.hand[player], state.fatigue[player], state.allies[player],
                 state.hits[player]):
        state.pile[:0] = zone
        zone.clear()


def cheap_goons(n: int, exclude: tuple[str, ...] = ()) -> list[str]:
    """Goons worth 1-2 on every side (for exact-threshold tests)."""
    out = [c.id for c in DECK.cards.values() if c.id not in exclude
           and all(1 <= v <= 2 for v in (c.goon_hit, c.goon_money, c.goon_ally))]
    return out[:n]
