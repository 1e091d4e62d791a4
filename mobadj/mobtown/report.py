"""What a Mobtown GM publishes after a phase (text), and the picture of the new position."""

from __future__ import annotations

from typing import Any

from mobadj.engine.report import orders_section, power_name
from mobadj.mobtown.rules import MobtownRules
from mobadj.mobtown.turn import MobtownResult
from mobadj.mobtown.weekend import balance


def format_report(result: MobtownResult, game_map: Any, errors: list[str] | None = None,
                  rules: MobtownRules | None = None) -> str:
    """The results of one phase, as a GM mails them out."""
    rules = rules or MobtownRules()
    out = orders_section(result, game_map, errors)
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
            out.append(f"  {power_name(game_map, d.unit.power)} {d.unit}, attacked from "
                       f"{d.attacker_from} {how}; may retreat to: {where}")
        out.append("")
    if result.centre_changes:
        out.append("Supply centre changes (end of week 2/4, rule 6):")
        for prov, old, new in result.centre_changes:
            was = f"from {power_name(game_map, old)}" if old else "neutral before"
            out.append(f"  {power_name(game_map, new)} takes {prov} ({was})")
        out.append("")
    out.append("Position:")
    for pid, units in after.unit_lists().items():
        n = sum(1 for o in after.centers.values() if o == pid)
        delta = balance(after, pid, rules)
        name = power_name(game_map, pid)
        out.append(f"  {name:<20} {n:>2} centres ({delta:+d})  {', '.join(units)}")
    if after.disorder:
        names = ", ".join(power_name(game_map, p) for p in sorted(after.disorder))
        out.append(f"  In civil disorder next movement: {names}")
    out.append("")
    if after.winner:
        out.append(f"The game is won by {power_name(game_map, after.winner)} (rule 8).")
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
