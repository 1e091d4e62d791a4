"""Turn a PhaseResult into what a GM mails out (text) or what a tool reads (JSON-ready dict).

One report for every map: the orders with their results (:func:`orders_section`), then the
body the map's rules give (``Rules.report_body``; the standard one is :func:`standard_body`),
then the adjustments in words (:func:`adjustments_made`, :func:`adjustments_due`), then the
next phase.  The sections are functions of their own so that a variant's body is made of
them, in its own words.  The email judge mails the same report for every map.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mobadj.engine.position import PositionT
from mobadj.engine.results import OrderResult, Outcome
from mobadj.engine.units import Dislodged
from mobadj.orders.model import Waive

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.engine.pipeline import PhaseResult
    from mobadj.engine.position import Position
    from mobadj.engine.rules import Rules

RESULT_WIDTH = 34
WAIVE = str(Waive())  # results carry the orders as written: "Waive"


def power_name(game_map: GameMap, pid: str) -> str:
    power = game_map.powers.get(pid)
    return power.name if power is not None else pid


def _line(r: OrderResult, note: str | None = None) -> str:
    if r.outcome is Outcome.SUCCEEDS:
        verdict = "succeeds" if r.reason is None else r.reason.value
    else:
        verdict = r.outcome.value + (f": {r.reason.value}" if r.reason is not None else "")
    if note:
        verdict += f" ({note})"
    return f"  {r.order:<{RESULT_WIDTH}} {verdict}"


def orders_section(result: PhaseResult, game_map: GameMap, errors: list[str] | None = None,
                   title: str = "", rules: Rules[Any] | None = None) -> list[str]:
    """The heading, the unreadable orders and every power's orders with their results: the
    part of a report every map shares (``rules`` word the note beside a default order)."""
    head = f"{title or game_map.title}: {result.phase.long_name()} ({result.phase})"
    out = [head, "=" * len(head), ""]
    if errors:
        out.append("Orders that could not be read (ignored):")
        out += [f"  {e}" for e in errors]
        out.append("")
    by_power: dict[str, list[str]] = {}
    for r in result.results:
        by_power.setdefault(r.power, []).append(_line(r))
    for r in result.defaults:
        note = None
        if r.outcome is Outcome.SUCCEEDS and r.reason is None:
            note = "no order given" if rules is None else rules.default_note(str(r.order))
        by_power.setdefault(r.power, []).append(_line(r, note))
    for pid in sorted(by_power):
        out.append(f"{power_name(game_map, pid)}:")
        out += by_power[pid]
        out.append("")
    return out


def news_section(result: PhaseResult, heading: str) -> list[str]:
    """The variant's news of the phase (``result.events``), if any."""
    if not result.events:
        return []
    return [heading, *(f"  {e}" for e in result.events), ""]


def dislodged_section(
    result: PhaseResult,
    game_map: GameMap,
    heading: str = "Dislodged units:",
    how: Callable[[Dislodged], str] = lambda d: " by convoy" if d.convoyed else "",
    nowhere: str = "none: the unit must disband",
) -> list[str]:
    """Each dislodged unit, where the attack came from and where it may retreat."""
    after = result.position
    if not after.dislodged:
        return []
    out = [heading]
    for d in sorted(after.dislodged.values(), key=lambda d: (d.unit.power, str(d.unit))):
        where = ", ".join(d.retreats) if d.retreats else nowhere
        out.append(f"  {power_name(game_map, d.unit.power)} {d.unit}, attacked from "
                   f"{d.attacker_from}{how(d)}; may retreat to: {where}")
    out.append("")
    return out


def settled_section(
    result: PhaseResult,
    game_map: GameMap,
    heading: str = "Disbanded at once (dislodged, with no retreat open):",
    retreat_why: str = "no dislodged unit can retreat",
    adjust_why: str = "no power can build or must remove",
    how: Callable[[Dislodged], str] = lambda d: "",
) -> list[str]:
    """The dislodged units disbanded at once, and the phases skipped with nothing to decide
    (docs/rulings.md, "Skipped phases").  ``how(unit)`` follows "attacked from X": why a
    variant's rules left it no retreat where the board alone does not show it."""
    out: list[str] = []
    if result.destroyed:
        out.append(heading)
        out += [f"  {power_name(game_map, d.unit.power)} {d.unit}, attacked from "
                f"{d.attacker_from}{how(d)}" for d in result.destroyed]
        out.append("")
    if result.skipped:
        out.append("Skipped, with nothing to decide:")
        out += [f"  {p.long_name()} ({p}): {retreat_why if p.is_retreat else adjust_why}"
                for p in result.skipped]
        out.append("")
    return out


def center_changes_section(
    result: PhaseResult,
    game_map: GameMap,
    heading: str = "Supply centre changes:",
    unowned: str = "unowned before",
) -> list[str]:
    """Which centres changed owner."""
    if not result.center_changes:
        return []
    out = [heading]
    for prov, old, new in result.center_changes:
        was = f"from {power_name(game_map, old)}" if old else unowned
        out.append(f"  {power_name(game_map, new)} takes {prov} ({was})")
    out.append("")
    return out


def standard_body(result: PhaseResult[PositionT], game_map: GameMap, rules: Rules[PositionT]
                  ) -> list[str]:
    """Dislodged units, standoffs, centre changes and every power's position."""
    after = result.position
    out = dislodged_section(result, game_map)
    out += settled_section(result, game_map)
    if after.standoffs and after.dislodged:
        out.append(f"Standoffs (no retreat there): {', '.join(sorted(after.standoffs))}")
        out.append("")
    out += center_changes_section(result, game_map)
    out += position_section(after, game_map)
    winner = rules.winner(after, game_map)
    if winner:
        out += [f"{power_name(game_map, winner)} has {len(after.centers_of(winner))} supply "
                "centres and wins the game.", ""]
    return out


def position_section(after: Position, game_map: GameMap) -> list[str]:
    """Every power's centres and units after the phase."""
    out = ["Position:"]
    for pid in after.powers():
        units = ", ".join(str(u) for u in sorted(after.units_of(pid), key=str)) or "no unit"
        n = len(after.centers_of(pid))
        out.append(f"  {power_name(game_map, pid):<20} {n:>2} centre{'s' if n != 1 else ' '}  "
                   f"{units}")
    out.append("")
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def adjustments_due(position: PositionT, game_map: GameMap, rules: Rules[PositionT],
                    examples: bool = False) -> list[str]:
    """What each power has to do in the adjustment phase of ``position``, in words: how many
    builds it may make, where, or how many units it must remove (none: nothing due).
    ``examples``: under each power's line, how to write the order (``Build A BUD``), as
    the judge mails it to players who may never have written one."""
    from mobadj.engine.hooks import standard
    from mobadj.engine.topology import topology_for

    counts = rules.adjustment_counts(position)
    topology = topology_for(game_map)
    acting = set(rules.adjusting(position, topology))
    occupied = {u.province for u in position.units.values()}
    out = []
    for pid in sorted(counts):
        n = counts[pid]
        name = power_name(game_map, pid)
        own = rules.adjustment_words(position, pid, game_map)
        if own is not None:
            out += [f"  {name}: {own}"] if own else []
            continue
        centres = len(position.centers_of(pid))
        units = centres - n  # the units that count against supply
        if n > 0:
            homes = sorted(h for h in rules.build_sites(position, pid, topology)
                           if position.centers.get(h) == pid and h not in occupied)
            where = "home centre" if standard(rules, "build_sites") else "centre to build in"
            if pid in acting and homes:
                out.append(f"  {name}: {_plural(centres, 'centre')}, {_plural(units, 'unit')}: "
                           f"may build {min(n, len(homes))} (vacant {where}s: "
                           f"{', '.join(homes)}), or waive")
                if examples:
                    out.append(f"    orders, e.g.: {_build_example(game_map, homes)}, or Waive")
            else:
                out.append(f"  {name}: {_plural(centres, 'centre')}, {_plural(units, 'unit')}: "
                           f"no vacant {where} of its own, so no build")
        elif n < 0:
            out.append(f"  {name}: {_plural(centres, 'centre')}, {_plural(units, 'unit')}: "
                       f"must remove {_plural(-n, 'unit')} (else the rules choose)")
            mine = sorted(str(u) for u in position.units.values() if u.power == pid)
            if examples and mine:
                out.append(f"    orders, e.g.: Remove {mine[0]}")
        elif pid in acting:  # a variant's own adjustment (Mobtown: a Don to rebuild)
            out.append(f"  {name}: has an adjustment to make")
    return out


def _build_example(game_map: GameMap, homes: list[str]) -> str:
    """A build order in one of ``homes`` (``Build A BUD``): the first kind of unit that
    may stand there."""
    home = homes[0]
    kind = next((k for k in game_map.unit_kinds if game_map.can_occupy(k, home)),
                next(iter(game_map.unit_kinds), "A"))
    return f"Build {kind} {home}"


def adjustments_made(result: PhaseResult[PositionT], game_map: GameMap, rules: Rules[PositionT]
                     ) -> list[str]:
    """An adjustment phase in words: for each power what was due, what it built or removed,
    what it waived, and what the rules did for it (builds not ordered are waived; removals
    not ordered are chosen by the civil-disorder rule)."""
    after = result.position
    counts = rules.adjustment_counts(after)
    built: dict[str, list[str]] = {}
    removed: dict[str, list[str]] = {}
    for u in sorted(result.built, key=str):
        built.setdefault(u.power, []).append(str(u))
    by_rules = {(r.power, str(r.order).removeprefix("Remove ")) for r in result.defaults}
    for u in sorted(result.removed, key=str):
        removed.setdefault(u.power, []).append(str(u))
    waived: dict[str, int] = {}
    for r in result.results:
        if str(r.order) == WAIVE and r.outcome is Outcome.SUCCEEDS:
            waived[r.power] = waived.get(r.power, 0) + 1
    out = []
    for pid in sorted(set(counts) | set(built) | set(removed)):
        b, rm = built.get(pid, []), removed.get(pid, [])
        due = counts.get(pid, 0) + len(b) - len(rm)
        if not (due or b or rm):
            continue
        parts = []
        if due > 0:
            parts.append(f"{_plural(due, 'build')} due")
            if b:
                parts.append("built " + ", ".join(b))
            if waived.get(pid):
                parts.append(f"{waived[pid]} waived")
            left = due - len(b) - waived.get(pid, 0)
            if left > 0:
                parts.append(f"{left} not made: waived (no build order that could be carried "
                             "out)")
        elif due < 0:
            parts.append(f"{_plural(-due, 'removal')} due")
            own = [u for u in rm if (pid, u) not in by_rules]
            chosen = [u for u in rm if (pid, u) in by_rules]
            if own:
                parts.append("removed " + ", ".join(own))
            if chosen:
                parts.append(", ".join(chosen) + f" removed by the rules "
                             f"({rules.rules_removal_note})")
            if len(rm) < -due:
                parts.append(f"{-due - len(rm)} not made: {rules.unremoved_note}")
        else:
            own = [u for u in rm if (pid, u) not in by_rules]
            chosen = [u for u in rm if (pid, u) in by_rules]
            parts += [f"built {', '.join(b)}"] if b else []
            parts += [f"removed {', '.join(own)}"] if own else []
            parts += [", ".join(chosen) + f" removed by the rules ({rules.rules_removal_note})"
                      ] if chosen else []
        out.append(f"  {power_name(game_map, pid)}: " + "; ".join(parts))
    return out


def format_report(
    result: PhaseResult[PositionT],
    game_map: GameMap,
    errors: list[str] | None = None,
    title: str = "",
    rules: Rules[PositionT] | None = None,
    examples: bool = False,
) -> str:
    """The results of one phase as a GM would publish them (any map; ``rules`` default to the
    map's).  ``examples``: the adjustments due say how to write their orders (the judge's
    mail, see :func:`adjustments_due`)."""
    if rules is None:
        from mobadj.engine.variants import default_rules

        any_map: PhaseResult = result  # the map's own rules read it as any map's result
        return _report(any_map, game_map, errors, title, default_rules(game_map), examples)
    return _report(result, game_map, errors, title, rules, examples)


def _report(result: PhaseResult[PositionT], game_map: GameMap, errors: list[str] | None,
            title: str, rules: Rules[PositionT], examples: bool = False) -> str:
    out = orders_section(result, game_map, errors, title, rules)
    if result.phase.is_adjustment:
        made = adjustments_made(result, game_map, rules)
        if made:
            out += ["Adjustments (what was due, and what was done):", *made, ""]
    out += rules.report_body(result, game_map)
    if rules.winner(result.position, game_map):  # the game is over: the report ends with it
        return "\n".join(out).rstrip("\n") + "\n"
    if result.next_phase.is_adjustment:
        due = adjustments_due(result.position, game_map, rules, examples)
        if due:
            out += [f"Adjustments due in {result.next_phase.long_name()}:", *due, ""]
    out.append(f"Next phase: {result.next_phase.long_name()} ({result.next_phase})")
    return "\n".join(out) + "\n"


def destroyed_data(
    result: PhaseResult, spell: Callable[[str], str] = lambda p: p
) -> dict[str, list[str]]:
    """Power -> the units it lost at once (dislodged with no retreat open), sorted: the
    ``destroyed`` key of ``--json``, ``mobadj batch`` and the judge's result data."""
    out: dict[str, list[str]] = {}
    for d in result.destroyed:
        out.setdefault(spell(d.unit.power), []).append(str(d.unit))
    for units in out.values():
        units.sort()
    return dict(sorted(out.items()))
