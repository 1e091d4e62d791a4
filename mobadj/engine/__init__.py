"""Adjudication: positions, the movement resolver, retreats, adjustments, the turn pipeline.

The public API (see docs/adjudication.md)::

    from mobadj.engine import adjudicate, position_from_data, initial_position
    result = adjudicate(position, parsed_orders, game_map)      # -> PhaseResult
    result.results, result.position, result.next_phase, result.centre_changes
"""

from mobadj.engine.pipeline import PhaseResult, adjudicate
from mobadj.engine.position import (
    CALENDARS,
    Calendar,
    Dislodged,
    Phase,
    Position,
    PositionError,
    UnitState,
    initial_position,
    position_from_data,
)
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.rules import BATTLE, BATTLE_UNLESS_EQUAL, PASS, Rules, rules_for
from mobadj.engine.variants import VARIANTS, load_variant, register_variant

__all__ = [
    "BATTLE",
    "BATTLE_UNLESS_EQUAL",
    "CALENDARS",
    "PASS",
    "VARIANTS",
    "Calendar",
    "Dislodged",
    "OrderResult",
    "Outcome",
    "Phase",
    "PhaseResult",
    "Position",
    "PositionError",
    "Reason",
    "Rules",
    "UnitState",
    "adjudicate",
    "initial_position",
    "load_variant",
    "position_from_data",
    "register_variant",
    "rules_for",
]
