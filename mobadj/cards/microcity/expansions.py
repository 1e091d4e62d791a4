"""The expansions' Quarters and bonus: Logistics, Seaport and Garden (rulebook sections)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mobadj.cards.microcity.actions import Do, Table, put
from mobadj.cards.microcity.board import position_of
from mobadj.cards.microcity.cards import RESOURCES
from mobadj.cards.microcity.effects import options
from mobadj.cards.microcity.operations import capped, gain

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState


def logistics_options(st: MicroCityState, player: int, table: Table) -> None:
    """LOGISTICS: "2 basic actions but requires using a die of ANY value" (the die is named:
    ``basic die2 ...``; equal dice give one set of options)."""
    seen: set[int] = set()
    for i in st.own_dice(player):
        if st.dice[i] in seen:
            continue
        seen.add(st.dice[i])
        for eff in st.deck.logistics_actions:
            for words, ops in options(st, player, eff):
                put(table, Do("basic", (f"die{i + 1}", *words)), [("use", i), *ops])


def seaport_actions(st: MicroCityState, cell: int) -> tuple[dict[str, Any], dict[str, Any],
                                                            tuple[str, ...]]:
    """SEAPORT: the side's basic action; advanced completes one of this Seaport's Contracts."""
    basic = st.deck.seaport_basic[st.sides[position_of(cell)]]
    return basic, {"build": True}, (f"contract:{cell - 16}",)


def garden_bonus(st: MicroCityState, player: int) -> None:
    """GARDEN: "2 or more investment markers on quarters surrounding it orthogonally in the
    Final phase" pay 1 money (solo/cooperative: every marker is the player's)."""
    g = st.city.garden
    if g is None:
        return
    col = g % 4
    around = [g - 4, g + 4] + ([g - 1] if col > 0 else []) + ([g + 1] if col < 3 else [])
    if sum(1 for c in around if 0 <= c < 16 and st.inv[c] == st.pool_of(player)) >= 2:
        told = [capped(RESOURCES[i], n, gain(st, player, i, n))
                for i, n in enumerate(st.deck.garden_bonus) if n]
        st.log(f"P{player + 1} gains the Garden bonus: {', '.join(told)}")
