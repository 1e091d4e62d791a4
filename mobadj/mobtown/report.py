"""What a Mobtown GM publishes after a phase (text), and the picture of the new position."""

from __future__ import annotations

from typing import Any

from mobadj.engine.results import OrderResult, Outcome
from mobadj.mobtown.rules import MobtownRules
from mobadj.mobtown.turn import MobtownResult
from mobadj.mobtown.weekend import balance

WIDTH = 34


def _name(game_map: Any, pid: str) -> str:
    power = game_map.powers.get(pid)
    return power.name if power is not None else pid


def _line(r: OrderResult, note: str | None = None) -> str:
    reason = r.reason.value if r.reason is not None else None
    if r.outcome is Outcome.SUCCEEDS:
        verdict = reason or "succeeds"
    else:
        verdict = r.outcome.value + (f": {reason}" if reason else "")
    if note:
        verdict += f" ({note})"
    return f"  {r.order:<{WIDTH}} {verdict}"


def format_report(result: MobtownResult, game_map: Any, errors: list[str] | None = None,
                  rules: MobtownRules | None = None) -> str:
    """The results of one phase, as a GM mails them out."""
    rules = rules or MobtownRules()
    head = f"{game_map.title}: {result.phase.long_name()} ({result.phase})"
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
        out.append(f"{_name(game_map, pid)}:")
        out += by_power[pid]
        out.append("")
    after = result.position
    if result.events:
        out.append("News from the underworld:")
        out += [f"  {e}" for e in result.events]
        out.append("")
    if after.dislodged:
        out.append("Dislodged Gangs (retreats at the weekend):")
        for d in sorted(after.dislodged.values(), key=lambda d: (d.unit.power, str(d.unit))):
            where = ", ".join(d.retreats) or "none: the Gang disbands"
            how = "under ground" if d.via == "subway" else "over ground"
            out.append(f"  {_name(game_map, d.unit.power)} {d.unit}, attacked from "
                       f"{d.attacker_from} {how}; may retreat to: {where}")
        out.append("")
    if result.centre_changes:
        out.append("Supply centre changes (end of week 2/4, rule 6):")
        for prov, old, new in result.centre_changes:
            was = f"from {_name(game_map, old)}" if old else "neutral before"
            out.append(f"  {_name(game_map, new)} takes {prov} ({was})")
        out.append("")
    out.append("Position:")
    for pid, units in after.unit_lists().items():
        n = sum(1 for o in after.centers.values() if o == pid)
        delta = balance(after, pid, rules)
        out.append(f"  {_name(game_map, pid):<20} {n:>2} centres ({delta:+d})  {', '.join(units)}")
    if after.disorder:
        names = ", ".join(_name(game_map, p) for p in sorted(after.disorder))
        out.append(f"  In civil disorder next movement: {names}")
    out.append("")
    if after.winner:
        out.append(f"The game is won by {_name(game_map, after.winner)} (rule 8).")
    out.append(f"Next phase: {result.next_phase.long_name()} ({result.next_phase})")
    return "\n".join(out) + "\n"


def picture_data(result: MobtownResult) -> dict[str, Any]:
    """The mapping render_svg draws: the new position with the moves of the phase."""
    data = result.position.to_data()
    return {
        "units": data["units"],  # "D Har captive" and "G MTPD" are drawn as such
        "centers": data["centers"],
        "dislodged": {p: [{k: e[k] for k in ("unit", "from", "via")} for e in lst]
                      for p, lst in data["dislodged"].items()},
        "moves": result.moves,
        "caption": f"{result.phase.long_name()} ({result.phase})",
    }


def write_picture(result: MobtownResult, game_map: Any, path: str) -> None:
    """Draw the new position with the move arrows to ``path`` (.svg or .png)."""
    from mobadj.render import load_layout, render_png, render_svg

    data = picture_data(result)
    layout = load_layout(game_map.name)
    if str(path).lower().endswith(".png"):
        with open(path, "wb") as fh:
            fh.write(render_png(game_map, layout, data))
    else:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(render_svg(game_map, layout, data))
