"""The competitive mode's Advantage cards and its end (rulebook 2 PLAYER COMPETITIVE MODE)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState


def claimable(st: MicroCityState, player: int) -> list[int]:
    """Face-up Advantage cards whose condition ``player`` meets (one per round)."""
    if st.claimed:
        return []
    return [a for a in st.adv_row if meets(st, player, st.deck.advantages[a - 1].condition)]


def meets(st: MicroCityState, player: int, cond: dict[str, Any]) -> bool:
    ((kind, arg),) = cond.items()
    r = st.res[player]
    mine = [c for c in range(18) if st.inv[c] == player]
    if kind == "money":
        return r[3] >= arg
    if kind == "each_material":
        return min(r[:3]) >= arg
    if kind == "materials":
        return sum(r[:3]) >= arg
    if kind == "board_markers":
        return len(mine) >= arg
    if kind == "type_markers":
        specs = st.city.specs
        return sum(1 for c in mine if (spec := specs[c]) is not None
                   and spec.type == arg["type"]) >= arg["count"]
    if kind == "goals":
        return sum(row.count(player) for row in st.goal_marks) >= arg
    if kind == "upgraded":
        return st.sides.count("B") >= arg
    if kind == "discards":
        return len(st.discards[player]) >= arg
    if kind == "empty_pool":
        return st.pools[player] == 0
    raise ValueError(f"unknown Advantage condition '{kind}'")


def take_advantage(st: MicroCityState, player: int, adv: int) -> None:
    card = st.deck.advantages[adv - 1]
    st.adv_row.remove(adv)
    st.adv_taken[player].append(adv)
    st.vp[player] += card.vp
    st.claimed = True
    st.log(f"P{player + 1} takes Advantage {adv}: +{card.vp} points")
    if st.adv_deck:
        new = st.adv_deck.pop(0)
        st.adv_row.append(new)
        st.log(f"Advantage {new} is turned face up")


def end_competitive(st: MicroCityState) -> None:
    st.result = "over"
    st.step = "over"
    ws = st.winners()
    who = " and ".join(f"P{p + 1}" for p in ws)
    st.log(f"Game over: {st.vp[0]} to {st.vp[1]} points; winner {who}")
