"""One readable turn for every map: validate -> defaults -> resolve -> execute -> settle what
nobody decides -> next phase.

:func:`adjudicate` is the engine's entry point for every front end (CLI, batch, email judge)
and every map.  Each step is a named function of its own; the phase kind picks the movement,
retreat or adjustment rules, and the map's rules (mobadj.engine.rules: its hooks) say what a
variant does differently at each step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic

from mobadj.board import province_of
from mobadj.engine import adjustments, movement, retreats, validation
from mobadj.engine.hooks import standard, untyped
from mobadj.engine.options import resolver_class
from mobadj.engine.position import (
    PhaseCalendar,
    PhaseLike,
    Position,
    PositionT,
    ResultPositionT,
)
from mobadj.engine.results import OrderResult, Outcome
from mobadj.engine.rules import ASIDE, Rules
from mobadj.engine.topology import Topology, topology_for
from mobadj.engine.units import Dislodged, UnitState, unit_state
from mobadj.engine.variants import VariantError, default_rules
from mobadj.orders.model import AnyOrder

if TYPE_CHECKING:
    from mobadj.board import GameMap

OrderInput = tuple[str | None, AnyOrder]


class PhaseResult(Generic[ResultPositionT]):
    """Everything one adjudicated phase produced.

    ``results`` are the orders as given (in order) with their outcomes; ``defaults`` what the
    engine did for units without orders (holds, disbands, civil-disorder removals);
    ``position`` is the board after the phase, already set to ``next_phase`` and carrying the
    dislodged units with their legal retreats and the standoff provinces; ``events`` is the
    news a variant adds (a Don captured, a Gang in gaol, the winner).  ``settled`` are the
    dislodged units that had nothing to decide and were settled at once with the movement
    (``destroyed``: those disbanded, having no retreat open); ``skipped`` the phases passed
    over because nobody had anything to decide in them.

    Generic over the position, as the rules are: a variant's hooks get a
    ``PhaseResult[MyPosition]`` whose ``position`` is a ``MyPosition``, and the engine, the
    reports and the front ends read it as the result of any map (``PhaseResult``).
    """

    phase: PhaseLike
    results: list[OrderResult]
    defaults: list[OrderResult]
    position: ResultPositionT
    center_changes: list[tuple[str, str | None, str]]
    moved: dict[str, str]
    built: list[UnitState]
    removed: list[UnitState]
    events: list[str]
    settled: list[Dislodged]
    skipped: list[PhaseLike]
    #: the movement orders as the resolver decided them (empty in other phases)
    _records: list[validation.MOrder]

    def __init__(
        self,
        phase: PhaseLike,
        results: list[OrderResult],
        defaults: list[OrderResult],
        position: ResultPositionT,
        center_changes: list[tuple[str, str | None, str]] | None = None,
        moved: dict[str, str] | None = None,
        built: list[UnitState] | None = None,
        removed: list[UnitState] | None = None,
        events: list[str] | None = None,
        settled: list[Dislodged] | None = None,
        skipped: list[PhaseLike] | None = None,
        _records: list[validation.MOrder] | None = None,
    ) -> None:
        # written out (None for an empty list; no dataclass, which the compiled build cannot
        # make generic): the compiled build then makes a result without a Python call
        self.phase = phase
        self.results = results
        self.defaults = defaults
        self.position = position
        self.center_changes = [] if center_changes is None else center_changes
        self.moved = {} if moved is None else moved
        self.built = [] if built is None else built
        self.removed = [] if removed is None else removed
        self.events = [] if events is None else events
        self.settled = [] if settled is None else settled
        self.skipped = [] if skipped is None else skipped
        self._records = [] if _records is None else _records

    def _fields(self) -> tuple[object, ...]:
        return (self.phase, self.results, self.defaults, self.position, self.center_changes,
                self.moved, self.built, self.removed, self.events, self.settled, self.skipped,
                self._records)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, PhaseResult)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # changed in place, as a dataclass's is

    def __repr__(self) -> str:
        names = ("phase", "results", "defaults", "position", "center_changes", "moved",
                 "built", "removed", "events", "settled", "skipped")
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=False))
        return f"PhaseResult({shown})"

    @property
    def next_phase(self) -> PhaseLike:
        return self.position.phase

    @property
    def dislodged(self) -> list[Dislodged]:
        return list(self.position.dislodged.values())

    @property
    def destroyed(self) -> list[Dislodged]:
        """The dislodged units disbanded at once: no retreat was open to them."""
        return [d for d in self.settled if not d.retreats]

    @property
    def moves(self) -> list[dict[str, str]]:
        """Every legal move of the phase for a picture: power, from, to, via, result."""
        return [
            {"power": o.power, "from": o.prov, "to": o.dprov,
             "via": o.route or "ground",
             "result": "succeeds" if o.res else "fails"}
            for o in self._records
            if o.code == validation.MOVE and o.invalid is None
        ]

    @property
    def supports(self) -> list[dict[str, str]]:
        """Every legal support of the phase for a picture: power, from, unit (the supported
        unit's province), to (where the supported move goes; absent for a hold), result
        (fails: cut, or no such order to support)."""
        out: list[dict[str, str]] = []
        for o in self._records:
            if o.code == validation.SUPPORT and o.invalid is None:
                entry = {"power": o.power, "from": o.prov, "unit": o.target,
                         "result": "succeeds" if o.res else "fails"}
                if o.dprov:
                    entry["to"] = o.dprov
                out.append(entry)
        return out


def normalise_orders(orders: Iterable[Any]) -> list[OrderInput]:
    """Accept ``(power, order)`` pairs or parser ``ParsedOrder``s (``.power``, ``.order``)."""
    if type(orders) is list and all(type(item) is tuple for item in orders):  # pairs already
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
    game_map: GameMap,
    rules: Rules | None = None,
) -> PhaseResult:
    """Adjudicate one phase of ``position`` with ``orders``; the input position is not changed.
    ``rules`` defaults to the map's rules with default options."""
    topo = topology_for(game_map)
    rules = rules or default_rules(game_map)
    pairs = normalise_orders(orders)
    phase = position.phase
    if phase.is_movement:
        result = movement_phase(position, pairs, topo, rules)
        settle_forced(result, topo, rules)
    elif phase.is_retreat:
        result = (retreat_phase(position, pairs, topo, rules) if standard(rules, "retreat_phase")
                  else rules.retreat_phase(position, pairs, topo))
    elif phase.is_adjustment:
        result = adjustment_phase(position, pairs, topo, rules)
    else:
        result = rules.other_phase(position, pairs, topo)
    advance(position, result, topo, rules)
    return result


# ---- the phases --------------------------------------------------------------------------------


def movement_phase(
    position: Position, pairs: list[OrderInput], topo: Topology, rules: Rules
) -> PhaseResult:
    """Screen, validate, add defaults, resolve, execute; then the variant's own effects."""
    slots: list[OrderResult | int | None] = []  # per order given: a result, or an engine index
    aside: list[tuple[int, str | None, AnyOrder]] = []
    if not standard(rules, "screen"):
        pairs = screen_orders(position, pairs, topo, rules, slots, aside)
    bound = rules if standard(rules, "bind") else rules.bind(position, topo.game_map)
    validated = validate_movement(position, pairs, topo, bound)
    validated = add_defaults(validated, position)
    outcome = resolve_movement(validated, topo, bound)
    after = execute_movement(position, outcome)
    given: Sequence[OrderResult | None] = outcome.results
    if slots:  # back in the order given; the orders kept aside have no result yet
        given = [slot if isinstance(slot, OrderResult) else None if slot is None
                 else outcome.results[slot] for slot in slots]
    extra: dict[int, OrderResult] = {}
    events: list[str] = []
    if not standard(bound, "after_movement"):
        got, news = untyped(bound).after_movement(position, after, outcome, given, aside, topo)
        extra, events = dict(got), list(news)  # (any mapping and iterable, on both builds)
    results = outcome.results
    if extra or slots:
        results = []
        for i, r in enumerate(given):
            r = extra.get(i, r)
            assert r is not None, "after_movement must settle the orders kept aside"
            results.append(r)
    defaults = _unrefused_defaults(outcome, slots) if slots else outcome.defaults
    return PhaseResult(position.phase, results, defaults, after, moved=outcome.moves,
                       events=events, _records=outcome._records)


def _unrefused_defaults(outcome: movement.MovementOutcome,
                        slots: Sequence[OrderResult | int | None]) -> list[OrderResult]:
    """The default holds, less those of units whose order the variant's ``screen`` refused:
    such a unit is listed once, by its order (``invalid: ...``, the unit holds), as a unit
    with an impossible order is on every map, not again as a hold with no order given."""
    refused: set[tuple[str, str]] = set()
    for slot in slots:
        if isinstance(slot, OrderResult) and slot.outcome is Outcome.INVALID:
            unit = getattr(slot.given, "unit", None)
            if unit is not None:
                refused.add((slot.power, province_of(unit.location)))
    if not refused:
        return outcome.defaults
    held = [o for o in outcome._records if o.defaulted]  # in the order of the defaults
    return [r for o, r in zip(held, outcome.defaults, strict=True)
            if (o.power, o.prov) not in refused]


def screen_orders(
    position: Position,
    pairs: list[OrderInput],
    topo: Topology,
    rules: Rules,
    slots: list[OrderResult | int | None],
    aside: list[tuple[int, str | None, AnyOrder]],
) -> list[OrderInput]:
    """Step 0: the variant refuses some orders or keeps them aside; the rest go on."""
    passed: list[OrderInput] = []
    for i, (power, order) in enumerate(pairs):
        verdict = untyped(rules).screen(position, power, order, topo.game_map)
        if not verdict:  # None, or another "no" as Python reads it: the order goes on
            slots.append(len(passed))
            passed.append((power, order))
        elif verdict == ASIDE:
            slots.append(None)
            aside.append((i, power, order))
        elif isinstance(verdict, OrderResult):
            slots.append(verdict)
        else:
            raise VariantError(f"variant hook screen must return an OrderResult, ASIDE or "
                               f"None, not {verdict!r}")
    return passed


def retreat_phase(
    position: PositionT, pairs: list[OrderInput], topo: Topology, rules: Rules[PositionT]
) -> PhaseResult:
    """Retreats and disbands (the standard ``Rules.retreat_phase``)."""
    r_out = retreats.resolve_retreats(position, pairs, topo, rules)
    after = execute_retreats(position, r_out)
    return PhaseResult(position.phase, r_out.results, r_out.defaults, after)


def adjustment_phase(
    position: Position, pairs: list[OrderInput], topo: Topology, rules: Rules
) -> PhaseResult:
    """Builds, removals and waives (the variant's hooks may change the board first)."""
    after = position.copy()
    events: list[str] = []
    a_out = adjustments.resolve_adjustments(after, pairs, topo, rules, events)
    execute_adjustments(after, a_out)
    return PhaseResult(position.phase, a_out.results, a_out.defaults, after,
                       built=a_out.built, removed=a_out.removed, events=events)


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
    r = resolver_class(rules)(validated.orders, topo, rules)
    r.run()
    return movement.outcome(r, validated)


def execute_movement(position: Position, outcome: movement.MovementOutcome) -> Position:
    """Step 4: move the units; dislodged units wait for the retreat phase."""
    after = position.copy()  # its dicts are its own: the units move in place
    units = after.units
    moves = outcome.moves
    for src in moves:
        del units[src]
    for d in outcome.dislodged:
        del units[d.unit.province]
    before = position.units
    for src, dest in moves.items():
        u = before[src]
        units[province_of(dest)] = unit_state(u.power, u.kind, dest)
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


def execute_adjustments(after: Position, outcome: adjustments.AdjustmentOutcome) -> None:
    """Step 4: new units appear, removed ones leave (``after`` is changed)."""
    for u in outcome.removed:
        after.units.pop(u.province, None)
    for u in outcome.built:
        after.units[u.province] = u
    after.dislodged = {}
    after.standoffs = frozenset()


def settle_forced(result: PhaseResult, topo: Topology, rules: Rules) -> None:
    """Step 5: a dislodged unit with nothing to decide (``rules.retreat_choice``) is settled
    now, as the rules' own retreat phase settles a unit without orders (disbanded; in
    Mobtown II perhaps sent to gaol), so that a retreat phase is played only for the units
    that have a choice (option ``forced_retreats``; docs/rulings.md, "Skipped phases").
    Nothing else changes: such a unit can neither retreat nor stop another's retreat."""
    after = result.position
    if not after.dislodged or rules.forced_retreats != "at_once":
        return
    if standard(rules, "retreat_choice"):  # the standard hook: a retreat open
        forced = {p: d for p, d in after.dislodged.items() if not d.retreats}
    else:  # a variant's yes or no, as Python reads it (mobadj.engine.hooks)
        choice = untyped(rules).retreat_choice
        forced = {p: d for p, d in after.dislodged.items() if not choice(d)}
    if not forced:
        return
    board = after.copy()
    board.dislodged = forced
    done = rules.retreat_phase(board, [], topo)
    now = done.position
    now.dislodged = {p: d for p, d in after.dislodged.items() if p not in forced}
    now.standoffs = after.standoffs
    result.position = now
    result.settled = sorted(forced.values(), key=lambda d: (d.unit.power, d.unit.location))
    result.events += done.events


def advance(before: Position, result: PhaseResult, topo: Topology, rules: Rules) -> None:
    """Step 6: centres change owner when a scoring turn is complete; the variant adds its
    news; the calendar gives the next phase (the phases it passes over with nothing to
    decide are ``result.skipped``)."""
    after = result.position
    calendar = rules.calendar
    has_dislodged = bool(after.dislodged)
    scored = calendar.scores_after(result.phase, has_dislodged and result.phase.is_movement)
    if scored:
        result.center_changes = update_centers(after, topo)
    if not standard(rules, "after_phase"):
        untyped(rules).after_phase(before, result, topo, scored)
    asked: list[bool] = []  # what the calendar asked of needs_adjustment, if anything
    plain = standard(rules, "needs_adjustment")

    def needs_adjustment() -> bool:
        asked.append(adjustments.needs_adjustment(after, topo, rules) if plain
                     else bool(untyped(rules).needs_adjustment(after, topo)))
        return asked[-1]

    after.phase = calendar.next_phase(result.phase, has_dislodged, needs_adjustment)
    if not after.phase.is_retreat:
        after.dislodged = {}
        after.standoffs = frozenset()
    if (result.settled and not has_dislodged) or (asked and not any(asked)):
        result.skipped = skipped_phases(result, calendar)


def _always() -> bool:
    return True


def skipped_phases(result: PhaseResult, calendar: PhaseCalendar) -> list[PhaseLike]:
    """The phases between ``result.phase`` and the next phase to play that had nothing to
    decide: an adjustment phase where nobody could build or had to remove, and a retreat
    phase whose dislodged units were all settled at once.  (A retreat phase after a turn
    that dislodged nobody is no news, and is not listed.)"""
    target = result.position.phase
    here = calendar.next_phase(result.phase, True, _always)  # the calendar, skipping nothing
    passed: list[PhaseLike] = []
    for _ in range(8):  # a calendar skips at most a few phases in a row
        if here == target:
            return [p for p in passed
                    if p.is_adjustment or (p.is_retreat and result.settled)]
        passed.append(here)
        here = calendar.next_phase(here, True, _always)
    return []


def update_centers(position: Position, topo: Topology) -> list[tuple[str, str | None, str]]:
    """A unit standing in a supply centre takes it (after the fall turn); returns the changes."""
    changes: list[tuple[str, str | None, str]] = []
    centers, supply_centers = position.centers, topo.supply_centers
    for prov, u in position.units.items():
        if prov in supply_centers and centers.get(prov) != u.power:
            changes.append((prov, centers.get(prov), u.power))
            centers[prov] = u.power
    changes.sort()
    return changes
