"""Build Anywhere: a power builds in any supply centre it owns and that is vacant."""

from __future__ import annotations

from collections.abc import Collection

from mobadj.engine import Position, Rules, Topology


class BuildAnywhereRules(Rules):
    """The standard rules with one adjustment hook changed."""

    def build_sites(self, position: Position, power: str, topology: Topology
                    ) -> Collection[str]:
        """Every supply centre the power owns (the engine checks that it is vacant)."""
        return position.centers_of(power)
