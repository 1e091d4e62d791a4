"""What a power may order in a phase with few legal orders, as picks for a form: a dislodged
unit's retreats or disband, each build's site and unit (or a waive), each removal's unit.

The default of the rules' ``order_choices`` hook; a variant with orders of its own (a Don
placed or rebuilt, a retreat that may not disband) overrides the hook and builds on these
pieces.  Every line is written as a player writes it in a mail, so the judge reads a pick
exactly as it reads the same line typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mobadj.engine.position import PositionT
    from mobadj.engine.rules import Rules
    from mobadj.engine.topology import Topology
    from mobadj.engine.units import Dislodged

#: a build's pick that builds nothing
WAIVE = ("WAIVE", "waive (build nothing)")


@dataclass(frozen=True)
class OrderChoice:
    """One pick: what it is about, and the order lines it may give as (line, its words)."""

    label: str
    options: tuple[tuple[str, str], ...]


def order_choices(position: PositionT, power: str, topology: Topology,
                  rules: Rules[PositionT]) -> list[OrderChoice]:
    """The standard game's picks: retreats in a retreat phase, builds or removals in an
    adjustment phase; none in a movement phase (too many orders to offer)."""
    if position.phase.is_retreat:
        return retreat_choices(position, power, rules)
    if position.phase.is_adjustment:
        return adjustment_choices(position, power, topology, rules)
    return []


def retreat_line(d: Dislodged, where: str) -> tuple[str, str]:
    """A retreat as a player writes it, and its words."""
    return f"{d.unit} - {where}", f"retreat to {where}"


def retreat_choices(position: PositionT, power: str, rules: Rules[PositionT],
                    line: Callable[[Dislodged, str], tuple[str, str]] = retreat_line,
                    may_disband: Callable[[Dislodged], bool] = lambda d: True
                    ) -> list[OrderChoice]:
    """One pick for each of ``power``'s dislodged units with a choice (``retreat_choice``):
    its retreats (``line`` writes one) and, if ``may_disband``, disbanding."""
    mine = sorted((d for d in position.dislodged.values()
                   if d.unit.power == power and rules.retreat_choice(d)), key=lambda d: str(d.unit))
    return [OrderChoice(f"{d.unit} (dislodged)", tuple(
        [line(d, r) for r in d.retreats]
        + ([(f"{d.unit} disband", "disband")] if may_disband(d) else [])))
        for d in mine]


def adjustment_choices(position: PositionT, power: str, topology: Topology,
                       rules: Rules[PositionT],
                       kinds: Iterable[str] | None = None, removable: Iterable[str] = ()
                       ) -> list[OrderChoice]:
    """As many removal picks as ``power`` must remove (each offering every unit of its own,
    and ``removable``: more lines a variant allows), or as many build picks as it may build
    on its vacant build sites (``build_sites``; units of ``kinds``, all by default)."""
    delta = rules.adjustment_counts(position).get(power, 0)
    if delta < 0:
        units = removal_options(position, power, removable)
        return [OrderChoice(f"Removal {i + 1} of {-delta}", units) for i in range(-delta)]
    if delta == 0:
        return []
    game_map = topology.game_map
    owned = set(position.centers_of(power))
    free = [s for s in sorted(rules.build_sites(position, power, topology))
            if s in owned and s not in position.units]
    allowed = set(game_map.unit_kinds if kinds is None else kinds)
    builds = tuple((f"Build {kind} {where}", f"{name.lower()} in {where}")
                   for site in free
                   for where in [site, *(f"{site}/{c}" for c in game_map.provinces[site].coasts)]
                   for kind, name in game_map.unit_kinds.items()
                   if kind in allowed and game_map.can_occupy(kind, where))
    count = min(delta, len(free))
    return [OrderChoice(f"Build {i + 1} of {count}", (WAIVE, *builds)) for i in range(count)]


def removal_options(position: PositionT, power: str, removable: Iterable[str] = ()
                    ) -> tuple[tuple[str, str], ...]:
    """Every unit of ``power`` as a removal line, and ``removable`` after them."""
    lines = [f"Remove {u}" for u in sorted(position.units_of(power), key=str)]
    return tuple((line, line.replace("Remove", "remove", 1)) for line in [*lines, *removable])
