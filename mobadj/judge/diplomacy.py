"""Map games (Diplomacy, Mobtown II, any variant) for the judge: the glue between
:class:`~mobadj.judge.hosts.DiplomacyHost` and the engine.

Everything a map does differently comes from its rules (``host.rules_of(state)``, the map's
:class:`~mobadj.engine.Rules` with the game's rule options: how orders are written, the
position, who must order, the report, the picture, the winner), so this module names no
variant.  The judge's state for these games is ``{"position": <the position's to_data()>,
"over": bool}``, and ``"rules": {name: value}`` when the GM chose rule options (taken from
the game's options when it starts; a state without it is played by the defaults).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import yaml

from mobadj.batch import judge_result
from mobadj.engine import (
    OrderChoice,
    Outcome,
    Position,
    PositionError,
    Reason,
    Rules,
    adjudicate,
    adjustments_due,
    power_name,
    topology_for,
)
from mobadj.judge.hosts import Check, DiplomacyHost, HostError, Resolution, State, Unordered
from mobadj.orders.duplicates import ReplacedOrder, last_order_wins
from mobadj.orders.errors import or_list
from mobadj.orders.model import Build, Remove, Waive
from mobadj.orders.prose import set_aside_remarks

log = logging.getLogger("mobadj.judge")

_POSITIONS: dict[tuple[str, str, str], Position] = {}
_PICTURES: dict[tuple[str, str, str, str, str], list[tuple[str, str, bytes]]] = {}
K = TypeVar("K")
T = TypeVar("T")


def cached_position(cache: dict[K, T], key: K, build: Callable[[], T]) -> T:
    """``build()`` remembered under ``key`` (a few recent positions are kept: one mail asks
    several times, and the engine never changes its input position)."""
    pos = cache.get(key)
    if pos is None:
        if len(cache) > 64:
            cache.clear()
        pos = cache[key] = build()
    return pos


def _position(host: DiplomacyHost, state: State) -> Position:
    """The engine position of a state (the rules decide, e.g., where dislodged units may
    retreat, so positions are kept per set of rule options too)."""
    chosen = host.chosen(state)
    key = (host.kind, json.dumps(chosen, sort_keys=True),
           json.dumps(state["position"], sort_keys=True))
    rules: Rules = host.rules_of(state)
    return cached_position(_POSITIONS, key,
                           lambda: rules.position_from_data(state["position"],
                                                            host.map_of(state)))


def new_state(host: DiplomacyHost, seats: list[str], seed: int,
              options: dict[str, Any]) -> State:
    """The opening position: the rules' set-up (powers without a player are in civil
    disorder from the start), with the rule options among the game's ``options``.  Option
    ``start_year`` for calendars that count years."""
    chosen = host.read_options(options)
    state: State = {"rules": chosen} if chosen else {}
    try:
        pos = host.rules_of(state).initial_position(host.game_map,
                                                    int(options.get("start_year", 1901)))
    except (ValueError, PositionError) as exc:
        raise HostError(f"{host.title} cannot be played here yet: {exc}") from None
    return {"position": pos.to_data(), "over": False, **state}


def phase_label(host: DiplomacyHost, state: State) -> str:
    return str(host.rules_of(state).calendar.parse(state["position"]["phase"]).long_name())


def due(host: DiplomacyHost, state: State) -> list[str]:
    """Powers that have something to order this phase."""
    if state.get("over"):
        return []
    return host.rules_of(state).due(_position(host, state), topology_for(host.game_map))


def _error_text(err: Any) -> str:
    text = str(err)
    expected = getattr(err, "expected", ())
    if expected and "expected" not in text:
        text += f"; expected {or_list(tuple(expected))}"
    raw = getattr(err, "text", "")
    if raw:
        text += f"\n      {raw.strip()}"
    return text


def _pairs(host: DiplomacyHost, state: State, seat: str,
           text: str) -> tuple[list[tuple[str, Any]], list[str], list[str]]:
    """The orders of ``seat`` in ``text`` (as the map's notation reads them), every error
    explained (line, column, expected, did-you-mean), and a note for each order a later one
    for the same unit replaced (unless the game's ``duplicate_orders`` is ``first``: then
    every order is kept and the adjudicator uses the first legal one); orders for another
    power are refused.  Remarks around the orders ("thanks", "Carla") are set aside
    (:mod:`mobadj.orders.prose`)."""
    game_map = host.map_of(state)
    rules: Rules = host.rules_of(state)
    result = rules.parse_orders(text, game_map, power=seat)
    set_aside_remarks(result, text, game_map)
    if host.duplicates(state) == "last":
        result = result.last_order_wins()
    replaced = _few([str(w) for w in result.warnings if isinstance(w, ReplacedOrder)])
    pairs, errors = [], []
    for parsed in result.orders:
        if parsed.power not in (None, seat):
            errors.append(f"line {parsed.line}, column {parsed.column}: you can only order "
                          f"for {seat}, not {parsed.power}")
            continue
        pairs.append((seat, parsed.order))
    phase = rules.calendar.parse(state["position"]["phase"])
    errors += [_error_text(rules.phase_error(e, phase)) for e in result.errors]
    return pairs, errors, replaced


REPLACED_SHOWN = 10
"""The most orders replaced by later ones that an answer names one by one."""


def _few(replaced: list[str]) -> list[str]:
    """``replaced`` (a note per order a later one replaced), the first few of many named and
    the rest counted: a mail that gives one order a thousand times (a paste gone wrong)
    gets a short answer, not a thousand lines that say the same."""
    if len(replaced) <= REPLACED_SHOWN:
        return replaced
    rest = len(replaced) - REPLACED_SHOWN + 1
    return [*replaced[:REPLACED_SHOWN - 1],
            f"{rest:,} more orders are replaced by later orders for the same units: the last "
            "order for a unit counts"]


def check(host: DiplomacyHost, state: State, seat: str, text: str) -> Check:
    """Read a player's orders: the canonical text of each good order, each error explained;
    impossible orders are said at once, not only at the deadline."""
    pairs, errors, replaced = _pairs(host, state, seat, text)
    out = Check(accepted=[str(o) for _, o in pairs], errors=errors, notes=replaced)
    if pairs:
        pos = _position(host, state)
        trial = adjudicate(pos, pairs, host.map_of(state), host.rules_of(state))
        for r in trial.results:
            if r.power == seat and r.outcome is Outcome.INVALID and r.reason is not None:
                fate = ("; its owner's orders stand" if r.reason is Reason.NOT_OWNER
                        else "; the first order for the unit counts"
                        if r.reason is Reason.DUPLICATE else _hold(pos, r, pairs))
                out.notes.append(f"{r.order}: impossible ({_why(pos, r, pairs)}){fate}")
                out.impossible.append(str(r.order))
        chosen = [r.order.removeprefix("Remove ") for r in trial.defaults
                  if r.power == seat and r.order.startswith("Remove ")]
        if pos.phase.is_adjustment and chosen:
            n = len(chosen)
            out.notes.append(f"{n} removal{'s' if n > 1 else ''} still due: unless you order "
                             f"{'it' if n == 1 else 'them'} (Remove and the unit), the rules "
                             f"remove {', '.join(chosen)}")
    return out


def unordered(host: DiplomacyHost, state: State, seat: str, before: str,
              after: str) -> Unordered | None:
    """The units ``before`` (earlier accepted orders) ordered and ``after`` (the orders
    that replace them) does not, and what becomes of them in this phase: they hold, or are
    disbanded in a retreat phase; in an adjustment phase the earlier builds and removals
    that are not given again (a build not ordered is waived, a removal the rules choose).
    None when none is left out."""
    game_map, rules = host.map_of(state), host.rules_of(state)
    old = rules.parse_orders(before, game_map, power=seat)
    new = rules.parse_orders(after, game_map, power=seat)
    phase = _position(host, state).phase
    if phase.is_adjustment:
        given = {str(p.order) for p in new.orders}
        gone = [p.order for p in old.orders if str(p.order) not in given]
        if not gone:
            return None
        fates = ["it no longer stands" if len(gone) == 1 else "they no longer stand"]
        if any(isinstance(o, (Build, Waive)) for o in gone):
            fates.append("a build not ordered is waived")
        if any(isinstance(o, Remove) for o in gone):
            fates.append("a removal due and not ordered is chosen by the rules")
        return Unordered([str(o) for o in gone], False, "; ".join(fates))
    kept, _ = last_order_wins([*old.orders, *new.orders], apart=old.escorts | new.escorts)
    earlier = {id(p) for p in old.orders}
    units = list(dict.fromkeys(str(p.order.unit) for p in kept
                               if id(p) in earlier and hasattr(p.order, "unit")))
    if not units:
        return None
    one = len(units) == 1
    fate = ("that unit has no order now" if one else "those units have no orders now") + (
        " and will hold" if phase.is_movement else
        " and will be disbanded" if phase.is_retreat else ": the rules' defaults apply")
    return Unordered(units, True, fate)


def merged(host: DiplomacyHost, state: State, seat: str, before: str, after: str) -> str | None:
    """``before`` without its orders for the units ``after`` orders, then ``after`` (each
    of its orders as given, duplicates too, for the game's ``duplicate_orders``); None in an
    adjustment phase, whose builds and removals are no units' orders."""
    if _position(host, state).phase.is_adjustment:
        return None
    game_map, rules = host.map_of(state), host.rules_of(state)
    old = rules.parse_orders(before, game_map, power=seat)
    new = rules.parse_orders(after, game_map, power=seat)
    earlier = {id(p) for p in old.orders}
    _, replaced = last_order_wins([*old.orders, *new.orders], apart=old.escorts | new.escorts)
    gone = {id(w.replaced) for w in replaced if id(w.replaced) in earlier}
    return "\n".join([*(str(p.order) for p in old.orders if id(p) not in gone),
                      *(str(p.order) for p in new.orders)])


def _hold(pos: Position, r: Any, pairs: Sequence[tuple[str, Any]]) -> str:
    """What becomes of the unit of an impossible order in a movement phase: it holds, when
    the order commands a unit on the board (a build, a removal or a waive commands none:
    it is simply not taken)."""
    if not pos.phase.is_movement:
        return ""
    given = next((o for _, o in pairs if str(o) == r.order), r.given)
    unit = getattr(given, "unit", None)
    if isinstance(given, (Build, Remove, Waive)) or getattr(unit, "province", None) not in (
            pos.units):
        return "; not taken"
    return "; the unit will hold"


def _why(pos: Position, r: Any, pairs: Sequence[tuple[str, Any]]) -> str:
    """An invalid order's reason in the player's words: the adjudicator's reason, except a
    build refused as "province occupied" on a centre no unit stands on, which is a second
    build in the same centre (the batch output keeps the adjudicator's reason).  ``pairs``:
    the orders adjudicated (a result may give its order as text only)."""
    reason = r.reason
    if reason is Reason.OCCUPIED:
        given = next((o for _, o in pairs if str(o) == r.order), r.given)
        unit = getattr(given, "unit", None)
        prov = getattr(unit, "province", None)
        if prov is not None and prov not in pos.units:
            return f"a second build in {prov}: one unit per centre, the first build there counts"
    return str(reason.value)


def _attachments(host: DiplomacyHost, drawn: Position | Mapping[str, Any],
                 caption: str, results: Sequence[Mapping[str, Any]] = (),
                 names: Mapping[str, str] | None = None) -> list[tuple[str, str, bytes]]:
    """The map picture (SVG and PNG) when this installation can draw the map (a renderer
    and a layout file for it), with what ``results`` (the published orders) draw on it (the
    moves, supports and convoys, the units built and removed) and the powers called
    ``names`` (the game's own); results go out without it otherwise (and the log says
    why)."""
    if getattr(host, "picture", "both") == "none":
        return []
    try:
        from mobadj import render

        layout = render.load_layout(host.kind)
        view = render.results_view(host.game_map, drawn, results, names)
        svg = render.render_svg(host.game_map, layout, view, title=caption or None)
    except (ImportError, OSError, ValueError, yaml.YAMLError) as exc:  # no renderer or layout
        log.info("%s: results go out without a picture: %s", host.kind, exc)
        return []
    except Exception:  # a drawing bug must not hold the results back; the log has it
        log.exception("%s: the picture could not be drawn", host.kind)
        return []
    out = [("map.svg", "image/svg+xml", svg.encode())]
    if getattr(host, "picture", "both") != "both":
        return out
    from mobadj.render.png import PngUnavailableError

    try:
        out.append(("map.png", "image/png", render.svg_to_png(svg)))
    except (PngUnavailableError, OSError) as exc:  # PNG needs libcairo; SVG serves
        log.warning("%s: results go out without the PNG picture: %s", host.kind, exc)
    return out


def can_draw(kind: str) -> bool:
    """Is there a renderer and a layout for this map here?"""
    try:
        from mobadj.render import load_layout

        load_layout(kind)
    except (ImportError, OSError, ValueError):
        return False
    return True


def resolve(host: DiplomacyHost, state: State, orders: dict[str, str],
            missing: list[str]) -> Resolution:
    """Adjudicate the phase; the report is the one the map's rules mail."""
    rules: Rules = host.rules_of(state)
    pairs: list[tuple[str, Any]] = []
    for power, text in sorted(orders.items()):
        pairs += _pairs(host, state, power, text)[0]
    game_map = host.map_of(state)
    result = adjudicate(_position(host, state), pairs, game_map, rules)
    after = result.position
    winner = rules.winner(after, game_map)
    data = judge_result(result, winner)
    drawn = rules.picture_data(result)
    caption = "" if drawn is not None else f"{host.title}: after {result.phase.long_name()}"
    text = rules.mail_report(result, game_map)
    new: dict[str, Any] = {"position": after.to_data(), "over": winner is not None}
    if "rules" in state:  # the game goes on by the rules it started with
        new["rules"] = state["rules"]
    return Resolution(new, text, data,
                      attachments=_attachments(host, drawn or after, caption,
                                               [r.as_dict() for r in (*result.results,
                                                                      *result.defaults)],
                                               host.names_of(state)),
                      over=winner is not None, summary=f"{result.phase.long_name()} resolved")


def preview(host: DiplomacyHost, state: State, seat: str, text: str) -> str:
    """Adjudicate ``seat``'s orders with every other unit holding; list each order's fate,
    marking the void ones (the rules' ``void_reasons``: supports of units that are not there,
    convoys of no one, moves that cannot get there)."""
    pairs = _pairs(host, state, seat, text)[0]
    if not pairs:
        return "You have no orders for this phase yet."
    rules: Rules = host.rules_of(state)
    pos = _position(host, state)
    result = adjudicate(pos, pairs, host.map_of(state), rules)
    void_reasons = rules.void_reasons
    lines, void = [], 0
    for r in result.results:
        if r.power != seat:
            continue
        is_void = r.outcome is Outcome.INVALID or r.reason in void_reasons
        void += is_void
        reason = f" ({_why(pos, r, pairs)})" if r.reason is not None else ""
        lines.append(f"  {r.order:<28} {r.outcome.value}{reason}"
                     + ("   <- VOID" if is_void else ""))
    head = f"{void} order(s) would be void." if void else "No order would be void."
    return head + "\n" + "\n".join(lines)


def idle_reason(host: DiplomacyHost, state: State, seat: str) -> str:
    """The rules' words for why ``seat`` owes no orders now (``Rules.idle_words``)."""
    if state.get("over") or seat in due(host, state):
        return ""
    return host.rules_of(state).idle_words(_position(host, state), seat, host.map_of(state))


def missed_orders_done(host: DiplomacyHost, state: State, count: int) -> str:
    """What the rules did for ``count`` powers that sent no orders for the phase of
    ``state``, as a newcomer understands it: their units held (movement), their dislodged
    units were disbanded (retreats), builds were waived and removals chosen (adjustments)."""
    its = "its" if count == 1 else "their"
    phase = _position(host, state).phase
    if phase.is_retreat:
        return f"{its} dislodged units were disbanded"
    if phase.is_adjustment:
        return (f"{its} builds not ordered were waived, and {its} removals due were chosen by "
                "the rules")
    return f"{its} units held"


def choices(host: DiplomacyHost, state: State, seat: str) -> list[OrderChoice]:
    """What ``seat`` may order now as picks (the rules' ``order_choices``): none when nothing
    is due from it, and only lines the judge reads as it reads a mail's."""
    if seat not in due(host, state):
        return []
    picks = host.rules_of(state).order_choices(_position(host, state), seat,
                                               topology_for(host.game_map))
    out = []
    for pick in picks:
        read = tuple(o for o in pick.options if not _pairs(host, state, seat, o[0])[1])
        if read:
            out.append(OrderChoice(pick.label, read))
    return out


def first_orders(host: DiplomacyHost, state: State, seat: str) -> str:
    """For the mail that starts a game: what ``seat`` has to send for the first phase, its
    home centres, and an example of orders as the map writes them (Mobtown II's first
    weekend: where its Don starts)."""
    pos = _position(host, state)
    rules: Rules = host.rules_of(state)
    power = host.game_map.powers.get(seat)
    homes = ", ".join(sorted(power.home_centers)) if power is not None else ""
    label = pos.phase.long_name()
    example = rules.sample_orders(pos, seat, topology_for(host.game_map),
                                  random.Random(f"{host.kind}:{seat}"))
    if not example or seat not in due(host, state):
        return f"Nothing is due from you in {label}."
    lines = [f"What to send first: your orders for {label}, under your SIGNON line."]
    if homes:
        lines.append(f"Your home centres: {homes}.")
    lines.append("For example:")
    lines += [f"  {line}" for line in example]
    lines.append("Order notation: send HELP, or see the player's guide.")
    return "\n".join(lines)


def pictures(host: DiplomacyHost, state: State) -> list[tuple[str, str, bytes]]:
    """The board of ``state`` as the results draw it (SVG and PNG, as the game's
    ``picture`` option says), for the mail that starts a game (every game of a map starts
    on the same board: its pictures are drawn once)."""
    caption = f"{host.title}: {phase_label(host, state)}"
    names = host.names_of(state)
    key = (host.kind, str(host.picture), caption, json.dumps(state["position"], sort_keys=True),
           json.dumps(names, sort_keys=True))
    drawn: list[tuple[str, str, bytes]] = cached_position(
        _PICTURES, key, lambda: _attachments(host, state["position"], caption, (), names))
    return list(drawn)


def status(host: DiplomacyHost, state: State, seat: str | None) -> str:
    """The board (public): units and supply centres of every power; in an adjustment
    phase what each power has to do, in words."""
    pos = _position(host, state)
    game_map = host.map_of(state)
    data = pos.to_data()
    lines = []
    for power in pos.powers():
        units = data["units"].get(power, [])
        centers = data["centers"].get(power, [])
        lines.append(f"{power_name(game_map, power)}: units {', '.join(units) or '-'}; "
                     f"centres ({len(centers)}) {', '.join(centers) or '-'}")
    if pos.phase.is_adjustment:
        due = adjustments_due(pos, game_map, host.rules_of(state), examples=True)
        if due:
            lines += [f"Adjustments due in {pos.phase.long_name()}:", *due]
    if pos.dislodged:
        lines.append("Dislodged: " + ", ".join(
            f"{power_name(game_map, d.unit.power)} {d.unit} may retreat to "
            f"{', '.join(d.retreats) or 'nowhere'}"
            for d in pos.dislodged.values()))
    lines += host.rules_of(state).status_notes(pos, game_map)
    return "\n".join(lines)


def picture(host: DiplomacyHost, state: State, caption: str) -> list[tuple[str, str, bytes]]:
    """The position of a state drawn (a new player's first mail): as on results."""
    return _attachments(host, _position(host, state), caption, (), host.names_of(state))
