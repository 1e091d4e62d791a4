"""Diplomacy and Mobtown II for the judge: the glue between :class:`DiplomacyHost` and the
engine (:func:`mobadj.engine.pipeline.adjudicate`) and order parser
(:func:`mobadj.orders.parser.parse_orders`).

The judge's state for these games is ``{"position": <Position.to_data()>, "over": bool}``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from typing import Any

from mobadj.engine.adjustments import adjustment_counts
from mobadj.engine.pipeline import PhaseResult, adjudicate
from mobadj.engine.position import Phase, Position, UnitState, calendar_for, position_from_data
from mobadj.engine.results import Outcome, Reason
from mobadj.judge.hosts import Check, HostError, Resolution
from mobadj.orders.errors import or_list
from mobadj.orders.parser import parse_orders

# Reasons that make an order *void* in a preview: it would do nothing whatever the others do.
VOID = {Reason.VOID_SUPPORT, Reason.VOID_CONVOY, Reason.NO_CONVOY}


VARIANT_MODULES: dict[str, str] = {}  # kind -> module registering calendar and rule hooks


def load_variant(kind: str) -> None:
    """Import the variant's module so it registers its calendar and rules with the engine."""
    module = VARIANT_MODULES.get(kind)
    if module:
        importlib.import_module(module)


_POSITIONS: dict[tuple[str, str], Position] = {}


def cached_position(cache: dict[Any, Any], key: Any, build: Any, data: Any, game_map: Any) -> Any:
    """``build(data, game_map)`` remembered under ``key`` (a few recent positions are kept:
    one mail asks several times, and the engines never change their input position)."""
    pos = cache.get(key)
    if pos is None:
        if len(cache) > 64:
            cache.clear()
        pos = cache[key] = build(data, game_map)
    return pos


def _position(host: Any, state: dict[str, Any]) -> Position:
    """The engine position of a state."""
    key = (host.kind, json.dumps(state["position"], sort_keys=True))
    return cached_position(_POSITIONS, key, position_from_data, state["position"], host.game_map)


def new_state(host: Any, seats: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The opening position: every power's starting units and home centres (the rules' set-up;
    powers without a player are in civil disorder from the start)."""
    load_variant(host.kind)
    gm = host.game_map
    try:
        cal = calendar_for(getattr(gm, "calendar", "standard") or "standard")
    except ValueError as exc:
        raise HostError(f"{host.title} cannot be played here yet: {exc}") from None
    season, kind = cal.cycle[0]
    year = int(options.get("start_year", 1901))
    pos = Position(Phase(year, season, kind))
    for pid, power in gm.powers.items():
        for ukind, loc in power.starting_units:
            u = UnitState(pid, ukind, loc)
            pos.units[u.province] = u
        for c in power.home_centers:
            pos.centers[c] = pid
    return {"position": pos.to_data(), "over": False}


def phase_label(host: Any, state: dict[str, Any]) -> str:
    return Phase.parse(state["position"]["phase"]).long_name()


def due(host: Any, state: dict[str, Any]) -> list[str]:
    """Powers that have something to order this phase."""
    if state.get("over"):
        return []
    pos = _position(host, state)
    if pos.phase.is_movement:
        return sorted({u.power for u in pos.units.values()})
    if pos.phase.is_retreat:
        return sorted({d.unit.power for d in pos.dislodged.values()})
    return sorted(p for p, n in adjustment_counts(pos).items() if n != 0)


def _error_text(err: Any) -> str:
    text = str(err)
    expected = getattr(err, "expected", ())
    if expected and "expected" not in text:
        text += f"; expected {or_list(tuple(expected))}"
    raw = getattr(err, "text", "")
    if raw:
        text += f"\n      {raw.strip()}"
    return text


def check(host: Any, state: dict[str, Any], seat: str, text: str) -> Check:
    """Read a player's orders: the canonical text of each good order, each error explained
    (line, column, expected, did-you-mean); orders for another power are refused."""
    result = parse_orders(text, host.game_map, power=seat)
    out = Check()
    mine = []
    for parsed in result.orders:
        if parsed.power not in (None, seat):
            out.errors.append(f"line {parsed.line}, column {parsed.column}: you can only order "
                              f"for {seat}, not {parsed.power}")
            continue
        out.accepted.append(str(parsed.order))
        mine.append((seat, parsed.order))
    out.errors += [_error_text(e) for e in result.errors]
    if mine:  # impossible orders: say so now, not only at the deadline
        pos = _position(host, state)
        trial = adjudicate(pos, mine, host.game_map)
        for r in trial.results:
            if r.power == seat and r.outcome is Outcome.INVALID and r.reason is not None:
                fate = ("its owner's orders stand" if r.reason is Reason.NOT_OWNER
                        else "the unit will hold")
                out.notes.append(f"{r.order}: impossible ({r.reason.value}); {fate}")
    return out


def _orders(host: Any, orders: dict[str, str]) -> list[tuple[str, Any]]:
    pairs = []
    for power, text in sorted(orders.items()):
        for parsed in parse_orders(text, host.game_map, power=power).orders:
            pairs.append((power, parsed.order))
    return pairs


def _line(r: Any, default: bool = False) -> str:
    word = r.outcome.value if hasattr(r.outcome, "value") else str(r.outcome)
    reason = r.reason.value if r.reason is not None else ""
    tail = f" ({reason})" if reason else ""
    mark = "  [no order given]" if default else ""
    return f"  {r.order:<28} {word}{tail}{mark}"


def report(host: Any, result: PhaseResult, before: Position) -> str:
    """All orders with their outcomes, dislodgements with retreat options, ownership."""
    gm = host.game_map
    lines = [f"{result.phase.long_name()}"]
    by_power: dict[str, list[str]] = {}
    for r in result.results:
        by_power.setdefault(r.power, []).append(_line(r))
    for r in result.defaults:
        by_power.setdefault(r.power, []).append(_line(r, default=True))
    for power in sorted(by_power):
        lines.append(f"\n{gm.powers[power].name if power in gm.powers else power}:")
        lines += by_power[power]
    if result.dislodged:
        lines.append("\nDislodged units and where they may retreat:")
        for d in sorted(result.dislodged, key=lambda d: (d.unit.power, d.unit.location)):
            where = ", ".join(d.retreats) if d.retreats else "nowhere: it will be disbanded"
            lines.append(f"  {d.unit.power} {d.unit} (attacked from {d.attacker_from}): {where}")
    if result.built:
        lines.append("\nBuilt: " + ", ".join(f"{u.power} {u}" for u in result.built))
    if result.removed:
        lines.append("\nRemoved: " + ", ".join(f"{u.power} {u}" for u in result.removed))
    if result.centre_changes:
        lines.append("\nSupply centre changes:")
        for prov, old, new in result.centre_changes:
            lines.append(f"  {prov}: {old or 'neutral'} -> {new}")
        counts: dict[str, int] = {}
        for owner in result.position.centers.values():
            counts[owner] = counts.get(owner, 0) + 1
        lines.append("Supply centres: " + ", ".join(
            f"{p} {n}" for p, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))))
    return "\n".join(lines)


def _attachments(host: Any, position: Position, caption: str) -> list[tuple[str, str, bytes]]:
    """The map picture (SVG and PNG) when this installation can draw the map (a renderer
    and a layout file for it); results go out without it otherwise."""
    if getattr(host, "picture", "both") == "none":
        return []
    try:
        render = importlib.import_module("mobadj.render")
        layout = render.load_layout(host.kind)
        svg = render.render_svg(host.game_map, layout, position, title=caption)
    except Exception:  # no renderer, no layout for this map, or a drawing bug: no picture
        return []
    out = [("map.svg", "image/svg+xml", svg.encode())]
    if getattr(host, "picture", "both") != "both":
        return out
    with contextlib.suppress(Exception):  # PNG needs libcairo; the SVG alone still serves
        out.append(("map.png", "image/png", render.svg_to_png(svg)))
    return out


def can_draw(kind: str) -> bool:
    """Is there a renderer and a layout for this map here?"""
    try:
        importlib.import_module("mobadj.render").load_layout(kind)
    except Exception:
        return False
    return True


def resolve(host: Any, state: dict[str, Any], orders: dict[str, str],
            missing: list[str]) -> Resolution:
    before = _position(host, state)
    result = adjudicate(before, _orders(host, orders), host.game_map)
    after = result.position
    victory = int(host_option(state, "victory_centres", len(host.game_map.supply_centers) // 2 + 1))
    counts: dict[str, int] = {}
    for owner in after.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    winner = next((p for p, n in counts.items() if n >= victory), None)
    text = report(host, result, before)
    if winner:
        text += f"\n\n{winner} has {counts[winner]} supply centres and wins the game."
    data = {
        "phase": str(result.phase),
        "results": [r.as_dict() for r in result.results],
        "defaults": [r.as_dict() for r in result.defaults],
        "centre_changes": [list(c) for c in result.centre_changes],
        "position": after.to_data(),
        "winner": winner,
    }
    new = {"position": after.to_data(), "over": winner is not None}
    return Resolution(new, text, data, attachments=_attachments(
                          host, after, f"{host.title}: after {result.phase.long_name()}"),
                      over=winner is not None, summary=f"{result.phase.long_name()} resolved")


def host_option(state: dict[str, Any], key: str, default: Any) -> Any:
    return state.get("options", {}).get(key, default)


def preview(host: Any, state: dict[str, Any], seat: str, text: str) -> str:
    """Adjudicate ``seat``'s orders with every other unit holding; list each order's fate,
    marking the void ones (supports of units that are not there, convoys of no one, moves
    that cannot get there)."""
    if not text.strip():
        return "You have no orders for this phase yet."
    pos = _position(host, state)
    result = adjudicate(pos, _orders(host, {seat: text}), host.game_map)
    lines = []
    void = 0
    for r in result.results:
        if r.power != seat:
            continue
        is_void = r.outcome is Outcome.INVALID or r.reason in VOID
        void += is_void
        lines.append(_line(r) + ("   <- VOID" if is_void else ""))
    head = (f"{void} order(s) would be void." if void else "No order would be void.")
    return head + "\n" + "\n".join(lines)


def status(host: Any, state: dict[str, Any], seat: str | None) -> str:
    """The board (public): units and supply centres of every power."""
    pos = _position(host, state)
    lines = []
    for power in pos.powers():
        units = ", ".join(str(u) for u in sorted(pos.units_of(power), key=lambda u: u.location))
        centres = ", ".join(pos.centers_of(power))
        lines.append(f"{power}: units {units or '-'}; centres ({len(pos.centers_of(power))}) "
                     f"{centres or '-'}")
    if pos.dislodged:
        lines.append("Dislodged: " + ", ".join(
            f"{d.unit.power} {d.unit} may retreat to {', '.join(d.retreats) or 'nowhere'}"
            for d in pos.dislodged.values()))
    return "\n".join(lines)
