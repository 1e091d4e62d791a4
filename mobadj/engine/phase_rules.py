"""The phase calendar of a game's rules: its phases, a phase of a variant's own, what follows
a phase, and who has won.

One of the three concerns of :class:`mobadj.engine.rules.Rules` (the rules of play,
this one, and the presentation in :mod:`mobadj.engine.presentation`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Generic

from mobadj.engine.position import STANDARD, PhaseCalendar, PositionT

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.engine.pipeline import OrderInput, PhaseResult
    from mobadj.engine.topology import Topology


class PhaseRules(Generic[PositionT]):
    """The standard game's calendar: spring and fall movement, retreats, winter
    adjustments; victory at more than half of the supply centres."""

    #: where the variant's phases come from (parse, order, scoring)
    calendar: ClassVar[PhaseCalendar] = STANDARD

    def other_phase(
        self, position: PositionT, orders: list[OrderInput], topology: Topology
    ) -> PhaseResult:
        """A phase that is neither movement, retreats nor adjustments (none in the standard
        game)."""
        raise ValueError(f"no rules for the phase {position.phase}")

    def after_phase(
        self, before: PositionT, result: PhaseResult, topology: Topology, scored: bool
    ) -> None:
        """Once a phase is adjudicated and, if ``scored``, centres changed owner: news and
        end-of-game state go into ``result``."""

    def winner(self, position: PositionT, game_map: GameMap) -> str | None:
        """The power that has won: more than half of the supply centres (rulebook)."""
        victory = len(game_map.supply_centers) // 2 + 1
        counts: dict[str, int] = {}
        for owner in position.centers.values():
            counts[owner] = counts.get(owner, 0) + 1
        return next((p for p, n in counts.items() if n >= victory), None)
