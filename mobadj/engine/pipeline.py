"""One readable turn: validate -> defaults -> resolve -> execute -> next phase.

:func:`adjudicate` is the engine's entry point for every front end (CLI, batch, email judge,
Mobtown II).  Each step is a named function of its own; the phase kind picks the movement,
retreat or adjustment rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mobadj.engine import adjustments, movement, retreats, validation
from mobadj.engine.position import (
    Dislodged,
    Phase,
    Position,
    UnitState,
    calendar_for,
    province_of,
    unit_state,
)
from mobadj.engine.results import OrderResult
from mobadj.engine.rules import Rules, rules_for
from mobadj.engine.topology import Topology, topology_for

OrderInput = tuple[str | None, Any]


@dataclass
class PhaseResult:
    """Everything one adjudicated phase produced.

    ``results`` are the orders as given (in order) with their outcomes; ``defaults`` what the
    engine did for units without orders (holds, disbands, civil-disorder removals);
    ``position`` is the board after the phase, already set to ``next_phase`` and carrying the
    dislodged units with their legal retreats and the standoff provinces.
    """

    phase: Phase
    results: list[OrderResult]
    defaults: list[OrderResult]
    position: Position
    centre_changes: list[tuple[str, str | None, str]] = field(default_factory=list)
    moved: dict[str, str] = field(default_factory=dict)
    built: list[UnitState] = field(default_factory=list)
    removed: list[UnitState] = field(default_factory=list)

    @property
    def next_phase(self) -> Phase:
        return self.position.phase

    @property
    def dislodged(self) -> list[Dislodged]:
        return list(self.position.dislodged.values())


def normalise_orders(orders: Iterable[Any]) -> list[OrderInput]:
    """Accept ``(power, order)`` pairs or parser ``ParsedOrder``s (``.power``, ``.order``)."""
    if isinstance(orders, list) and all(type(item) is tuple for item in orders):
        return orders
    out: list[OrderInput] = []
    for item in orders:
        if isinstance(item, tuple):
            out.append((item[0], item[1]))
        else:
            out.append((getattr(item, "power", None), item.order))
    return out


def adjudicate(
    position: Position,
    orders: Iterable[Any],
    game_map: Any,
    rules: Rules | None = None,
) -> PhaseResult:
    """Adjudicate one phase of ``position`` with ``orders``; the input position is not changed."""
    topo = topology_for(game_map)
    rules = rules or rules_for(topo.name)
    pairs = normalise_orders(orders)
    phase = position.phase
    if phase.is_movement:
        validated = validate_movement(position, pairs, topo, rules)
        validated = add_defaults(validated, position)
        outcome = resolve_movement(validated, topo, rules)
        after = execute_movement(position, outcome)
        result = PhaseResult(phase, outcome.results, outcome.defaults, after, moved=outcome.moves)
    elif phase.is_retreat:
        r_out = retreats.resolve_retreats(position, pairs, topo, rules)
        after = execute_retreats(position, r_out)
        result = PhaseResult(phase, r_out.results, r_out.defaults, after)
    else:
        a_out = adjustments.resolve_adjustments(
            position, pairs, topo, rules.too_many, rules.civil_disorder
        )
        after = execute_adjustments(position, a_out)
        result = PhaseResult(
            phase, a_out.results, a_out.defaults, after, built=a_out.built, removed=a_out.removed
        )
    advance(result, topo)
    return result


# ---- the named steps ---------------------------------------------------------------------------


def validate_movement(
    position: Position, orders: list[OrderInput], topo: Topology, rules: Rules
) -> validation.Validated:
    """Step 1: check every order against the board (impossible orders become holds)."""
    return validation.validate(position, orders, topo, rules)


def add_defaults(validated: validation.Validated, position: Position) -> validation.Validated:
    """Step 2: every unit without an order holds."""
    return validation.add_defaults(validated, position)


def resolve_movement(
    validated: validation.Validated, topo: Topology, rules: Rules
) -> movement.MovementOutcome:
    """Step 3: decide every order (DATC 5) and read the outcome back."""
    r = (rules.resolver_cls or movement.Resolver)(validated.orders, topo, rules)
    r.run()
    return movement.outcome(r, validated)


def execute_movement(position: Position, outcome: movement.MovementOutcome) -> Position:
    """Step 4: move the units; dislodged units wait for the retreat phase."""
    after = position.copy()
    units: dict[str, UnitState] = {}
    gone = {d.unit.province for d in outcome.dislodged}
    for prov, u in position.units.items():
        if prov in outcome.moves or prov in gone:
            continue
        units[prov] = u
    for src, dest in outcome.moves.items():
        u = position.units[src]
        units[province_of(dest)] = unit_state(u.power, u.kind, dest)
    after.units = units
    after.dislodged = {d.unit.province: d for d in outcome.dislodged}
    after.standoffs = outcome.standoffs if outcome.dislodged else frozenset()
    return after


def execute_retreats(position: Position, outcome: retreats.RetreatOutcome) -> Position:
    """Step 4: retreated units take their places; the rest are gone."""
    after = position.copy()
    after.units.update(outcome.retreated)
    after.dislodged = {}
    after.standoffs = frozenset()
    return after


def execute_adjustments(position: Position, outcome: adjustments.AdjustmentOutcome) -> Position:
    """Step 4: new units appear, removed ones leave."""
    after = position.copy()
    for u in outcome.removed:
        after.units.pop(u.province, None)
    for u in outcome.built:
        after.units[u.province] = u
    after.dislodged = {}
    after.standoffs = frozenset()
    return after


def advance(result: PhaseResult, topo: Topology) -> None:
    """Step 5: centres change owner when a scoring turn is complete; pick the next phase."""
    after = result.position
    calendar = calendar_for(getattr(topo.game_map, "calendar", "standard") or "standard")
    has_dislodged = bool(after.dislodged)
    if calendar.scores_after(result.phase, has_dislodged and result.phase.is_movement):
        result.centre_changes = update_centres(after, topo)
    after.phase = calendar.next_phase(
        result.phase, has_dislodged, lambda: adjustments.needs_adjustment(after, topo)
    )


def update_centres(position: Position, topo: Topology) -> list[tuple[str, str | None, str]]:
    """A unit standing in a supply centre takes it (after the fall turn); returns the changes."""
    changes: list[tuple[str, str | None, str]] = []
    for prov, u in position.units.items():
        if prov in topo.supply_centers and position.centers.get(prov) != u.power:
            changes.append((prov, position.centers.get(prov), u.power))
            position.centers[prov] = u.power
    changes.sort()
    return changes
