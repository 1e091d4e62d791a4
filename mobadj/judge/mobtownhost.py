"""Mobtown II for the judge: the glue between :class:`~mobadj.judge.hosts.DiplomacyHost` and
the Mobtown II variant (:mod:`mobadj.mobtown`: its positions with Dons and the gaol, its
calendar of weeks and weekends, its notation ``G(Lex)-U-Ext``, its rules and reports).

The judge's state is ``{"position": MobtownPosition.to_data(), "over": bool}``.  The same
functions as :mod:`mobadj.judge.diplomacy`, so the host picks one module or the other.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from typing import Any

from mobadj.engine.results import Outcome, Reason
from mobadj.judge.diplomacy import _error_text, cached_position
from mobadj.judge.hosts import Check, HostError, Resolution
from mobadj.mobtown.calendar import MPhase
from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.mobtown.report import format_report, picture_data
from mobadj.mobtown.rules import MobtownReason, MobtownRules
from mobadj.mobtown.state import MobtownPosition, initial_position, position_from_data
from mobadj.mobtown.turn import adjudicate
from mobadj.mobtown.weekend import balance

# An order is void in a preview when it would do nothing whatever the others do.
VOID = {Reason.VOID_SUPPORT, Reason.VOID_CONVOY, Reason.NO_CONVOY, MobtownReason.HIGHWAY,
        MobtownReason.SUBWAY_NOT_MARKED, MobtownReason.NO_SUBWAY}
_POSITIONS: dict[str, MobtownPosition] = {}


def _rules(options: dict[str, Any] | None = None) -> MobtownRules:
    return MobtownRules()


def _position(host: Any, state: dict[str, Any]) -> MobtownPosition:
    key = json.dumps(state["position"], sort_keys=True)
    return cached_position(_POSITIONS, key, position_from_data, state["position"], host.game_map)


def new_state(host: Any, seats: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The June 1919 weekend: a Gang on each home centre, Dons to be placed (rule 6)."""
    return {"position": initial_position(host.game_map).to_data(), "over": False}


def phase_label(host: Any, state: dict[str, Any]) -> str:
    return MPhase.parse(state["position"]["phase"]).long_name()


def due(host: Any, state: dict[str, Any]) -> list[str]:
    """Mobs with something to order: Don placement, movement (not in civil disorder),
    retreats of dislodged Gangs, weekend builds or removals."""
    if state.get("over"):
        return []
    pos = _position(host, state)
    if pos.phase.is_start:
        return sorted({u.power for u in pos.gangs.values()} - set(pos.dons))
    if pos.phase.is_movement:
        return sorted({u.power for u in pos.gangs.values()} - set(pos.disorder))
    if pos.phase.is_retreat:
        return sorted({d.unit.power for d in pos.dislodged.values()})
    rules = _rules()
    return sorted(p for p in pos.powers() if balance(pos, p, rules) != 0)


def _pairs(host: Any, seat: str, text: str) -> tuple[list[tuple[str, Any]], list[str], Any]:
    result = parse_mobtown_orders(text, host.game_map, power=seat)
    pairs, errors = [], []
    for parsed in result.orders:
        if parsed.power not in (None, seat):
            errors.append(f"line {parsed.line}, column {parsed.column}: you can only order "
                          f"for {seat}, not {parsed.power}")
            continue
        pairs.append((seat, parsed.order))
    errors += [_error_text(e) for e in result.errors]
    return pairs, errors, result


def check(host: Any, state: dict[str, Any], seat: str, text: str) -> Check:
    pairs, errors, _ = _pairs(host, seat, text)
    out = Check(accepted=[str(o) for _, o in pairs], errors=errors)
    if pairs:
        trial = adjudicate(_position(host, state), pairs, host.game_map, _rules())
        for r in trial.results:
            if r.power == seat and r.outcome is Outcome.INVALID and r.reason is not None:
                out.notes.append(f"{r.order}: impossible ({r.reason.value})")
    return out


def _attachments(host: Any, result: Any) -> list[tuple[str, str, bytes]]:
    if getattr(host, "picture", "both") == "none":
        return []
    try:
        render = importlib.import_module("mobadj.render")
        svg = render.render_svg(host.game_map, render.load_layout(host.kind),
                                picture_data(result))
    except Exception:  # no renderer or layout here: results go out without a picture
        return []
    out = [("map.svg", "image/svg+xml", svg.encode())]
    if getattr(host, "picture", "both") != "both":
        return out
    with contextlib.suppress(Exception):  # PNG needs libcairo
        out.append(("map.png", "image/png", render.svg_to_png(svg)))
    return out


def resolve(host: Any, state: dict[str, Any], orders: dict[str, str],
            missing: list[str]) -> Resolution:
    pairs: list[tuple[str, Any]] = []
    errors: list[str] = []
    for power, text in sorted(orders.items()):
        got, errs, _ = _pairs(host, power, text)
        pairs += got
        errors += [f"{power}: {e}" for e in errs]
    result = adjudicate(_position(host, state), pairs, host.game_map, _rules())
    after = result.position
    data = {
        "phase": str(result.phase),
        "results": [r.as_dict() for r in result.results],
        "defaults": [r.as_dict() for r in result.defaults],
        "centre_changes": [list(c) for c in result.centre_changes],
        "events": list(result.events),
        "position": after.to_data(),
        "winner": after.winner,
    }
    over = after.winner is not None
    return Resolution({"position": after.to_data(), "over": over},
                      format_report(result, host.game_map).rstrip(), data,
                      attachments=_attachments(host, result), over=over,
                      summary=f"{result.phase.long_name()} resolved")


def preview(host: Any, state: dict[str, Any], seat: str, text: str) -> str:
    """Adjudicate ``seat``'s orders with every other unit holding; mark the void ones
    (supports of units that are not there, highway crossings without the extra support)."""
    pairs, _, _ = _pairs(host, seat, text)
    if not pairs:
        return "You have no orders for this phase yet."
    result = adjudicate(_position(host, state), pairs, host.game_map, _rules())
    lines, void = [], 0
    for r in result.results:
        if r.power != seat:
            continue
        is_void = r.outcome is Outcome.INVALID or r.reason in VOID
        void += is_void
        reason = f" ({r.reason.value})" if r.reason is not None else ""
        lines.append(f"  {r.order:<28} {r.outcome.value}{reason}" + ("   <- VOID" if is_void
                                                                      else ""))
    head = f"{void} order(s) would be void." if void else "No order would be void."
    return head + "\n" + "\n".join(lines)


def status(host: Any, state: dict[str, Any], seat: str | None) -> str:
    pos = _position(host, state)
    lines = []
    for pid, units in pos.unit_lists().items():
        centres = sorted(c for c, o in pos.centers.items() if o == pid)
        lines.append(f"{pid}: units {', '.join(units) or '-'}; centres ({len(centres)}) "
                     f"{', '.join(centres) or '-'}")
    if pos.disorder:
        lines.append("In civil disorder: " + ", ".join(sorted(pos.disorder)))
    return "\n".join(lines)


def load_variant(kind: str) -> None:  # the variant is this module's import
    if kind != "mobtown2":
        raise HostError(f"{kind} is not Mobtown II")
