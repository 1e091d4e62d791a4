"""The city board: 2×2 District cards of 2×2 Quarters each, i.e. a 4×4 grid of Quarters
named a1..d4 (column letter, row number; a1 top-left), plus the Seaport Quarters s1/s2.

Ruling (the rulebook shows the layout only in pictures): a District card holds its four
Quarters as a 2×2 block, so the city is a 4×4 grid; cards are not rotated except the
Garden card, which is turned so its Garden faces the centre ("surrounded by other quarters
on all 4 sides").  Seaport s1 lies left of a1/a2, s2 left of a3/a4 (rule: "enter it from any
of the 2 neighbouring Quarters", "cannot move directly from one Seaport Quarter to the other").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mobadj.cards.microcity.cards import District, QuarterSpec, Seaport

POSITIONS: tuple[str, ...] = ("nw", "ne", "sw", "se")
CELL_NAMES: tuple[str, ...] = tuple(f"{'abcd'[c]}{r + 1}" for r in range(4) for c in range(4)) + (
    "s1",
    "s2",
)
CELL_INDEX: dict[str, int] = {n: i for i, n in enumerate(CELL_NAMES)}
SEAPORT_CELLS = (16, 17)
# Where each position's inner corner lies (slot index tl=0, tr=1, bl=2, br=3).
_INNER_SLOT = {0: 3, 1: 2, 2: 1, 3: 0}


def position_of(cell: int) -> int:
    """District position (0..3) of a grid cell; 4/5 for the Seaports."""
    if cell >= 16:
        return 4 + (cell - 16)
    row, col = divmod(cell, 4)
    return (row // 2) * 2 + col // 2


def cells_of(position: int) -> tuple[int, ...]:
    """The cells of a District position (tl, tr, bl, br) or the one Seaport cell."""
    if position >= 4:
        return (16 + position - 4,)
    r0, c0 = 2 * (position // 2), 2 * (position % 2)
    return (r0 * 4 + c0, r0 * 4 + c0 + 1, (r0 + 1) * 4 + c0, (r0 + 1) * 4 + c0 + 1)


def _rotate(quarters: tuple[QuarterSpec, ...]) -> tuple[QuarterSpec, ...]:
    """The card turned 90° clockwise: tl<-bl, tr<-tl, bl<-br, br<-tr."""
    tl, tr, bl, br = quarters
    return (bl, tl, br, tr)


@dataclass(frozen=True, slots=True)
class City:
    """The fixed layout of one game (District sides change and live in the state)."""

    district_ids: tuple[int, ...]  # per position 0..3
    specs: tuple[QuarterSpec | None, ...]  # per cell; None for absent Seaports
    adjacent: tuple[tuple[int, ...], ...]  # orthogonal neighbours a Engineer may step to
    garden: int | None  # the Garden cell, never entered
    seaports: tuple[Seaport, ...]
    _dest: dict[int, list[int]] = field(default_factory=dict, compare=False, repr=False)
    # per start cell: the legal-move entries per Project card (filled by the phases module)
    moves: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)

    def name(self, cell: int) -> str:
        return CELL_NAMES[cell]

    def cells(self) -> list[int]:
        """Every Quarter an Engineer may stand on."""
        return [i for i, s in enumerate(self.specs) if s is not None and i != self.garden]

    def destinations(self, start: int, steps: int) -> list[int]:
        """Cells reachable in exactly ``steps`` orthogonal steps (1 or 2), never ending on
        the start: a two-step move "cannot come back to the Quarter he began his round on".
        """
        key = start * 4 + steps
        found = self._dest.get(key)
        if found is None:
            found = self._dest[key] = self._destinations(start, steps)
        return found

    def _destinations(self, start: int, steps: int) -> list[int]:
        if steps == 1:
            return sorted(self.adjacent[start])
        ends: set[int] = set()
        for mid in self.adjacent[start]:
            ends.update(self.adjacent[mid])
        ends.discard(start)
        return sorted(ends)


def build_city(
    districts: tuple[District, ...], garden_at: int | None, seaports: tuple[Seaport, ...] = ()
) -> City:
    """Lay ``districts`` at positions nw, ne, sw, se; ``garden_at`` is the Garden's position."""
    specs: list[QuarterSpec | None] = [None] * 18
    garden_cell = None
    for pos, district in enumerate(districts):
        quarters = district.quarters
        if pos == garden_at:
            while quarters[_INNER_SLOT[pos]].type != "garden":
                quarters = _rotate(quarters)
            garden_cell = cells_of(pos)[_INNER_SLOT[pos]]
        for cell, spec in zip(cells_of(pos), quarters, strict=True):
            specs[cell] = spec
    for i, port in enumerate(seaports):
        specs[16 + i] = QuarterSpec("seaport", None, dict(port.dice))
    adjacent: list[tuple[int, ...]] = []
    for cell in range(18):
        if specs[cell] is None or cell == garden_cell:
            adjacent.append(())
            continue
        near: list[int] = []
        if cell < 16:
            row, col = divmod(cell, 4)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                r, c = row + dr, col + dc
                if 0 <= r < 4 and 0 <= c < 4:
                    near.append(r * 4 + c)
            if col == 0 and seaports:
                near.append(16 if row < 2 else 17)
        else:
            near.extend((0, 4) if cell == 16 else (8, 12))
        adjacent.append(tuple(n for n in near if n != garden_cell and specs[n] is not None))
    return City(
        tuple(d.id for d in districts), tuple(specs), tuple(adjacent), garden_cell,
        tuple(seaports),
    )
