"""Turn a PhaseResult into what a GM mails out (text) or what a tool reads (JSON-ready dict).

One report for every map: the orders with their results (:func:`orders_section`), then the
body the map's rules give (``Rules.report_body``; the standard one is :func:`standard_body`),
then the next phase.  The sections are functions of their own so that a variant's body is
made of them, in its own words.  :func:`summary_report` is the short form the email judge
mails for the standard game (``Rules.mail_report`` picks the form for a map).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mobadj.engine.results import OrderResult, Outcome
from mobadj.engine.units import Dislodged

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.engine.pipeline import PhaseResult
    from mobadj.engine.rules import Rules

RESULT_WIDTH = 34


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
                   title: str = "") -> list[str]:
    """The heading, the unreadable orders and every power's orders with their results: the
    part of a report every map shares."""
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
        note = "no order" if r.outcome is Outcome.SUCCEEDS and r.reason is None else None
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
) -> list[str]:
    """The dislodged units disbanded at once, and the phases skipped with nothing to decide
    (docs/rulings.md, "Skipped phases")."""
    out: list[str] = []
    if result.destroyed:
        out.append(heading)
        out += [f"  {power_name(game_map, d.unit.power)} {d.unit}, attacked from "
                f"{d.attacker_from}" for d in result.destroyed]
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


def standard_body(result: PhaseResult, game_map: GameMap, rules: Rules) -> list[str]:
    """Dislodged units, standoffs, builds and removals, centre changes, the supply table."""
    after = result.position
    out = dislodged_section(result, game_map)
    out += settled_section(result, game_map)
    if after.standoffs and after.dislodged:
        out.append(f"Standoffs (no retreat there): {', '.join(sorted(after.standoffs))}")
        out.append("")
    if result.built or result.removed:
        out.append("Adjustments:")
        out += [f"  {power_name(game_map, u.power)} builds {u}" for u in result.built]
        out += [f"  {power_name(game_map, u.power)} removes {u}" for u in result.removed]
        out.append("")
    out += center_changes_section(result, game_map)
    if result.center_changes or result.next_phase.is_adjustment:
        out.append("Supply centres (units; builds + / removals -):")
        counts = rules.adjustment_counts(after)
        for pid in sorted({*after.centers.values(), *(u.power for u in after.units.values())}):
            n = len(after.centers_of(pid))
            units = len(after.units_of(pid))
            delta = counts.get(pid, 0)
            sign = f"{delta:+d}" if delta else "0"
            name = power_name(game_map, pid)
            out.append(f"  {name:<10} {n:>2} centres, {units:>2} units ({sign})")
        out.append("")
    return out


def format_report(
    result: PhaseResult,
    game_map: GameMap,
    errors: list[str] | None = None,
    title: str = "",
    rules: Rules | None = None,
) -> str:
    """The results of one phase as a GM would publish them (any map; ``rules`` default to the
    map's)."""
    if rules is None:
        from mobadj.engine.variants import default_rules

        rules = default_rules(game_map)
    out = orders_section(result, game_map, errors, title)
    out += rules.report_body(result, game_map)
    out.append(f"Next phase: {result.next_phase.long_name()} ({result.next_phase})")
    return "\n".join(out) + "\n"


def _short_line(r: OrderResult, default: bool = False) -> str:
    reason = f" ({r.reason.value})" if r.reason is not None else ""
    mark = "  [no order given]" if default else ""
    return f"  {r.order:<28} {r.outcome.value}{reason}{mark}"


def summary_report(result: PhaseResult, game_map: GameMap, rules: Rules) -> str:
    """The short report the email judge mails for the standard game: all orders with their
    outcomes, dislodgements with retreat options, builds, ownership, the winner."""
    lines = [f"{result.phase.long_name()}"]
    by_power: dict[str, list[str]] = {}
    for r in result.results:
        by_power.setdefault(r.power, []).append(_short_line(r))
    for r in result.defaults:
        by_power.setdefault(r.power, []).append(_short_line(r, default=True))
    for power in sorted(by_power):
        lines.append(f"\n{power_name(game_map, power)}:")
        lines += by_power[power]
    if result.dislodged:
        lines.append("\nDislodged units and where they may retreat:")
        for d in sorted(result.dislodged, key=lambda d: (d.unit.power, d.unit.location)):
            where = ", ".join(d.retreats) if d.retreats else "nowhere: it will be disbanded"
            lines.append(f"  {d.unit.power} {d.unit} (attacked from {d.attacker_from}): {where}")
    settled = settled_section(result, game_map)
    if settled:
        lines += ["", *settled[:-1]]
    if result.built:
        lines.append("\nBuilt: " + ", ".join(f"{u.power} {u}" for u in result.built))
    if result.removed:
        lines.append("\nRemoved: " + ", ".join(f"{u.power} {u}" for u in result.removed))
    counts: dict[str, int] = {}
    for owner in result.position.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    if result.center_changes:
        lines.append("\nSupply centre changes:")
        for prov, old, new in result.center_changes:
            lines.append(f"  {prov}: {old or 'neutral'} -> {new}")
        lines.append("Supply centres: " + ", ".join(
            f"{p} {n}" for p, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))))
    winner = rules.winner(result.position, game_map)
    if winner:
        lines.append(f"\n{winner} has {counts[winner]} supply centres and wins the game.")
    return "\n".join(lines)


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
