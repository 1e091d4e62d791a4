"""Adjudication: positions, the movement resolver, retreats, adjustments, the turn pipeline,
and the hooks a variant overrides (one pipeline for every map).

The public API (see docs/adjudication.md; variants: docs/maps.md, "Adding a variant")::

    from mobadj.engine import adjudicate, position_from_data, initial_position, rules_for
    rules = rules_for(game_map, paradox="1982")                # the map's rules, options
    position = position_from_data(data, game_map, rules)
    result = adjudicate(position, parsed_orders, game_map, rules)   # -> PhaseResult
    result.results, result.position, result.next_phase, result.center_changes
    format_report(result, game_map, rules=rules)

Front ends import from here; the modules behind it are the engine's own business.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from mobadj.board import province_of
from mobadj.engine.hooks import standard, untyped
from mobadj.engine.movement import Decisions, MovementOutcome
from mobadj.engine.pipeline import OrderInput, PhaseResult, adjudicate
from mobadj.engine.position import (
    STANDARD,
    Calendar,
    Phase,
    PhaseCalendar,
    PhaseLike,
    Position,
    PositionError,
    initial_position,
    position_from_data,
    unknown_keys,
)
from mobadj.engine.presentation import PageTable
from mobadj.engine.reading import as_list, position_with_retreats
from mobadj.engine.report import (
    adjustments_due,
    adjustments_made,
    center_changes_section,
    destroyed_data,
    dislodged_section,
    format_report,
    news_section,
    power_name,
    settled_section,
)
from mobadj.engine.results import OrderResult, Outcome, Reason
from mobadj.engine.rules import (
    ASIDE,
    BATTLE,
    BATTLE_UNLESS_EQUAL,
    OPTIONS,
    PARADOX_RULES,
    PASS,
    Rules,
    coerce_options,
    option,
    rules_for,
    with_options,
)
from mobadj.engine.topology import Topology, topology_for
from mobadj.engine.units import Dislodged, UnitState
from mobadj.engine.validation import CONVOY, HOLD, MOVE, SUPPORT, MOrder
from mobadj.engine.variants import (
    UnknownVariantError,
    VariantError,
    canonical_name,
    default_rules,
    known_maps,
    load_variant,
    register_variant,
    rules_class,
)

if TYPE_CHECKING:
    from mobadj.engine.choices import (
        OrderChoice,
        adjustment_choices,
        removal_options,
        retreat_choices,
    )
    from mobadj.engine.scenarios import (
        BatchCase,
        plausible_orders,
        random_case,
        random_orders,
        random_position,
    )

_LATER = {**dict.fromkeys(("BatchCase", "plausible_orders", "random_case", "random_orders",
                           "random_position"), "mobadj.engine.scenarios"),
          **dict.fromkeys(("OrderChoice", "adjustment_choices", "removal_options",
                           "retreat_choices"), "mobadj.engine.choices")}
"""Imported when first asked for, as adjudicating never needs them: the random positions
and orders (tests, benchmarks, demonstrations) and the choices a player's page and mail
offer."""


def __getattr__(name: str) -> object:
    module = _LATER.get(name)
    if module is not None:
        return getattr(importlib.import_module(module), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ASIDE",
    "BATTLE",
    "BatchCase",
    "BATTLE_UNLESS_EQUAL",
    "CONVOY",
    "HOLD",
    "MOVE",
    "OPTIONS",
    "PARADOX_RULES",
    "PASS",
    "STANDARD",
    "SUPPORT",
    "Calendar",
    "Decisions",
    "Dislodged",
    "MOrder",
    "MovementOutcome",
    "OrderChoice",
    "OrderInput",
    "OrderResult",
    "Outcome",
    "PageTable",
    "Phase",
    "PhaseCalendar",
    "PhaseLike",
    "PhaseResult",
    "Position",
    "PositionError",
    "Reason",
    "Rules",
    "Topology",
    "UnitState",
    "UnknownVariantError",
    "VariantError",
    "adjudicate",
    "adjustment_choices",
    "adjustments_due",
    "adjustments_made",
    "as_list",
    "canonical_name",
    "center_changes_section",
    "destroyed_data",
    "coerce_options",
    "default_rules",
    "dislodged_section",
    "format_report",
    "initial_position",
    "known_maps",
    "load_variant",
    "news_section",
    "option",
    "plausible_orders",
    "position_from_data",
    "position_with_retreats",
    "power_name",
    "province_of",
    "random_case",
    "random_orders",
    "random_position",
    "register_variant",
    "removal_options",
    "retreat_choices",
    "rules_class",
    "rules_for",
    "settled_section",
    "standard",
    "untyped",
    "topology_for",
    "unknown_keys",
    "with_options",
]
