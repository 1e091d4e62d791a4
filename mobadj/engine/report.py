"""Turn a PhaseResult into what a GM mails out (text) or what a tool reads (JSON-ready dict)."""

from __future__ import annotations

from typing import Any

from mobadj.engine.adjustments import adjustment_counts
from mobadj.engine.pipeline import PhaseResult
from mobadj.engine.results import OrderResult, Outcome

RESULT_WIDTH = 34


def power_name(game_map: Any, pid: str) -> str:
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


def orders_section(result: Any, game_map: Any, errors: list[str] | None = None,
                   title: str = "") -> list[str]:
    """The heading, the unreadable orders and every power's orders with their results: the
    part of a report every map shares (``result`` needs ``phase``, ``results``, ``defaults``)."""
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


def format_report(
    result: PhaseResult, game_map: Any, errors: list[str] | None = None, title: str = ""
) -> str:
    """The results of one phase as a GM would publish them."""
    out = orders_section(result, game_map, errors, title)
    after = result.position
    if after.dislodged:
        out.append("Dislodged units:")
        for d in sorted(after.dislodged.values(), key=lambda d: (d.unit.power, str(d.unit))):
            how = " by convoy" if d.convoyed else ""
            where = ", ".join(d.retreats) if d.retreats else "none: the unit must disband"
            out.append(
                f"  {power_name(game_map, d.unit.power)} {d.unit}, attacked from "
                f"{d.attacker_from}{how}; may retreat to: {where}"
            )
        out.append("")
    if after.standoffs and after.dislodged:
        out.append(f"Standoffs (no retreat there): {', '.join(sorted(after.standoffs))}")
        out.append("")
    if result.built or result.removed:
        out.append("Adjustments:")
        out += [f"  {power_name(game_map, u.power)} builds {u}" for u in result.built]
        out += [f"  {power_name(game_map, u.power)} removes {u}" for u in result.removed]
        out.append("")
    if result.centre_changes:
        out.append("Supply centre changes:")
        for prov, old, new in result.centre_changes:
            was = f"from {power_name(game_map, old)}" if old else "unowned before"
            out.append(f"  {power_name(game_map, new)} takes {prov} ({was})")
        out.append("")
    if result.centre_changes or result.next_phase.is_adjustment:
        out.append("Supply centres (units; builds + / removals -):")
        counts = adjustment_counts(after)
        for pid in sorted({*after.centers.values(), *(u.power for u in after.units.values())}):
            n = len(after.centers_of(pid))
            units = len(after.units_of(pid))
            delta = counts.get(pid, 0)
            sign = f"{delta:+d}" if delta else "0"
            name = power_name(game_map, pid)
            out.append(f"  {name:<10} {n:>2} centres, {units:>2} units ({sign})")
        out.append("")
    out.append(f"Next phase: {result.next_phase.long_name()} ({result.next_phase})")
    return "\n".join(out) + "\n"


def result_to_json(result: PhaseResult, errors: list[str] | None = None) -> dict[str, Any]:
    """The ``--json`` shape: the batch output keys plus ``centre_changes`` and ``defaults``."""
    data = result.position.to_data()
    return {
        "phase": str(result.phase),
        "next_phase": str(result.next_phase),
        "orders": [r.as_dict() for r in result.results],
        "defaults": [r.as_dict() for r in result.defaults],
        "units": data["units"],
        "dislodged": data["dislodged"],
        "standoffs": data["standoffs"],
        "centers": data["centers"],
        "centre_changes": [
            {"province": p, "from": old, "to": new} for p, old, new in result.centre_changes
        ],
        "errors": list(errors or []),
    }
