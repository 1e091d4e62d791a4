"""Helpers for the Micro City tests: states in a chosen situation without long scripts."""

from __future__ import annotations

from typing import Any

from mobadj.cards.microcity.board import CELL_NAMES
from mobadj.cards.microcity.engine import MicroCityState


def new(seed: int = 1, players: int = 1, **options: Any) -> MicroCityState:
    return MicroCityState.new(players, seed, options)


def started(seed: int = 1, where: str = "b2", **options: Any) -> MicroCityState:
    """A solo game with the Engineer placed: preparation phase of round 1."""
    st = new(seed, **options)
    st.command(0, f"start {where}")
    return st


def cell_of(st: MicroCityState, kind: str, material: str | None = None) -> str:
    """The first Quarter of a type (and Material) in this game's city."""
    for c in st.city.cells():
        spec = st.city.specs[c]
        if spec and spec.type == kind and (material is None or spec.material == material):
            return CELL_NAMES[c]
    raise LookupError(kind)


def neighbour(st: MicroCityState, name: str) -> str:
    """Some Quarter one step from ``name``."""
    return CELL_NAMES[st.city.adjacent[st.cell(name)][0]]


def put(st: MicroCityState, player: int, name: str) -> None:
    """Place an Engineer directly (tests of a given Quarter)."""
    st.engineer[player] = st.cell(name)
    st.__dict__["_cache"] = None


def set_res(st: MicroCityState, player: int, coal=0, steel=0, wood=0, money=0) -> None:
    st.res[player] = [coal, steel, wood, money]
    st.__dict__["_cache"] = None


def set_dice(st: MicroCityState, *values: int) -> None:
    st.dice = list(values)
    st.used = [False] * len(values)
    st.__dict__["_cache"] = None


def at_invest(st: MicroCityState, name: str, *dice: int) -> MicroCityState:
    """Jump to the investment phase with the Engineer on ``name`` (solo)."""
    put(st, 0, name)
    if dice:
        set_dice(st, *dice)
    st.step = "invest"
    st.__dict__["_cache"] = None
    return st


def texts(st: MicroCityState, player: int = 0) -> list[str]:
    return [str(a) for a in st.legal_actions(player)]
