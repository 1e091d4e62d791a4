"""What the renderer draws on top of the board: units, centre owners, dislodged units, moves.

:func:`as_view` accepts several shapes so every part of the program can ask for a picture:

* ``None``: the starting position of the map (starting units, home centres owned);
* a mapping, e.g. a position YAML file (documented in docs/mobtown-map.md)::

      caption: July 1919, week 1
      units: {capone: ["G DAN", "D DAN"], lepke: ["G Que", "D Har captive"]}
      centers: {capone: [DAN, DAS, Bnx]}
      dislodged: {lepke: [{unit: G Pie, from: Doc, via: subway}]}   # via: ground or a route
      moves: [{power: capone, from: DAN, to: Lex, via: plain, result: succeeds}]
      supports: [{power: capone, from: DAS, unit: DAN, to: Lex, result: succeeds}]
      names: {capone: Scarface}      # the names this game gives the powers

  (``dislodged`` may also be a list of ``{power, unit, from, via}``);
* an object with ``to_data()`` returning such a mapping (the Mobtown II position), or
* an engine position object with ``units`` as ``{province: unit}`` where each unit has
  ``power``, ``kind`` and ``location``, ``centers`` as ``{province: power}`` and
  ``dislodged`` as ``{province: d}`` with ``d.unit`` and ``d.attacker_from``.

Names are resolved through the map (any spelling the map accepts); mistakes raise
:class:`ViewError` naming the entry and, where possible, a suggestion.
"""

from __future__ import annotations

import functools
import re
import reprlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mobadj.board import GameMap
from mobadj.errors import RenderError

if TYPE_CHECKING:
    from mobadj.orders import OrderParser

_SUCCESS_WORDS = {"succeeds", "success", "succeeded", "ok", "moved", "true", "yes"}


class ViewError(RenderError, ValueError):
    """A position that cannot be drawn; the message names the entry at fault."""


_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 60
_SHOWN.maxlist = _SHOWN.maxdict = 4
_SHOWN.maxlevel = 2
_shown = _SHOWN.repr
"""An entry as an error message shows it: short, however big (a file's aliases may make a
list of a million)."""


def _mapping(value: object, where: str, of: str) -> Mapping[Any, Any]:
    """``value`` when it maps each power to ``of`` (None: nothing); else a ViewError."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ViewError(f"{where}: a mapping of each power to its {of}, got {_shown(value)}")
    return value


def _listed(value: object, where: str, what: str = "a list") -> list[Any]:
    """``value`` when it is a list (None: empty); else a ViewError saying ``what`` it must be."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ViewError(f"{where}: {what}, got {_shown(value)}")
    return value


@dataclass(frozen=True)
class UnitMark:
    """A unit to draw: its mob, kind (``G``/``D``) and province."""

    power: str
    kind: str
    province: str
    held: bool = False  # held by another power (the layout's ``held`` piece)
    coast: str = ""  # a fleet on a split coast (standard map: "NC", "SC", "EC")


@dataclass(frozen=True)
class DislodgedMark:
    """A dislodged unit, where the attack came from and how (``ground``, or a route kind of
    the map's ``routes``)."""

    unit: UnitMark
    attacker_from: str | None = None
    via: str | None = None


@dataclass(frozen=True)
class MoveMark:
    """An arrow of the last turn: solid when the move succeeded, dashed when it failed."""

    power: str | None
    src: str
    dst: str
    via: str = "ground"
    succeeded: bool = True


@dataclass(frozen=True)
class SupportMark:
    """A support of the last turn: from the supporter to the supported unit's space, or to
    the middle of its move when it supported a move (``to``)."""

    power: str | None
    src: str
    unit: str
    to: str | None = None
    succeeded: bool = True


@dataclass(frozen=True)
class AdjustmentMark:
    """A unit built (``built``) or removed in an adjustment phase."""

    power: str | None
    kind: str
    province: str
    coast: str
    built: bool


@dataclass(frozen=True)
class ConvoyMark:
    """A fleet's convoy of the army at ``army`` to ``to``."""

    power: str | None
    fleet: str
    army: str
    to: str
    succeeded: bool


@dataclass
class BoardView:
    """Everything drawn over the board, with names already resolved to province ids."""

    units: list[UnitMark] = field(default_factory=list)
    centers: dict[str, str] = field(default_factory=dict)  # province -> owning power
    dislodged: list[DislodgedMark] = field(default_factory=list)
    moves: list[MoveMark] = field(default_factory=list)
    supports: list[SupportMark] = field(default_factory=list)
    caption: str = ""
    #: power id -> the name this game gives it (a GM's own names, Mobtown rule 1)
    names: dict[str, str] = field(default_factory=dict)
    #: units built and removed (drawn on top: mobadj.render.marks)
    adjustments: list[AdjustmentMark] = field(default_factory=list)
    #: convoys ordered, each fleet's (drawn as the route of each convoyed army)
    convoys: list[ConvoyMark] = field(default_factory=list)


def _province(game_map: GameMap, text: object, where: str) -> str:
    return _location(game_map, text, where)[0]


def _location(game_map: GameMap, text: object, where: str) -> tuple[str, str]:
    """(province, coast) of a location the map knows; coast "" where there is none."""
    try:
        loc = game_map.lookup(str(text).strip())
    except LookupError as exc:
        raise ViewError(f"{where}: {exc}") from None
    prov, _, coast = loc.partition("/")
    return prov, coast


def _split(loc: object) -> tuple[str, str]:
    prov, _, coast = str(loc).partition("/")
    return prov, coast


def _power(game_map: GameMap, text: object, where: str) -> str:
    try:
        return game_map.power_id(str(text))
    except LookupError as exc:
        raise ViewError(f"{where}: {exc}") from None


_UNIT_RE = re.compile(r"^\s*(?P<kind>[A-Za-z])\s*[( ]\s*(?P<loc>[^()\s]+)\s*\)?"
                      r"\s*(?P<word>[A-Za-z]+)?\s*$")


@functools.lru_cache(maxsize=16)
def _held_words(map_name: str) -> tuple[str, ...]:
    """The words a position of the map writes after a held piece: its layout's ``held``
    (none for a map without a layout, or whose layout holds no piece)."""
    from mobadj.render.layout import load_layout

    try:
        held = load_layout(map_name).held
    except (OSError, ValueError):  # no layout, or a broken one: nothing is held
        return ()
    return held.words if held is not None else ()


def parse_unit(game_map: GameMap, power: str, text: object, where: str) -> UnitMark:
    """``"G DAN"``, ``"G(DAN)"`` or ``"D Har captive"`` -> a :class:`UnitMark` of ``power``."""
    m = _UNIT_RE.match(str(text))
    if not m:
        raise ViewError(f"{where}: a unit is written 'G Lex' (kind, space), not {_shown(text)}")
    kind = m.group("kind").upper()
    kinds = getattr(game_map, "unit_kinds", {}) or {}
    if kinds and kind not in kinds:
        raise ViewError(f"{where}: unknown unit kind {kind!r} in {_shown(text)} "
                        f"(expected one of {', '.join(kinds)})")
    prov, coast = _location(game_map, m.group("loc"), where)
    word = (m.group("word") or "").lower()
    if word and word not in (known := _held_words(str(getattr(game_map, "name", "")))):
        raise ViewError(f"{where}: unexpected {m.group('word')!r} after the unit in "
                        f"{_shown(text)}" + (f" (expected {' or '.join(known)})" if known
                                             else " (a unit is written 'G Lex')"))
    return UnitMark(power, kind, prov, bool(word), coast)


def start_view(game_map: GameMap) -> BoardView:
    """The map's starting position: starting units, every home centre owned."""
    view = BoardView(caption="starting position")
    for pid, power in game_map.powers.items():
        for kind, loc in power.starting_units:
            prov, coast = _split(loc)
            view.units.append(UnitMark(pid, kind, prov, coast=coast))
        for center in power.home_centers:
            view.centers[center] = pid
    return view


def _is_success(value: object) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in _SUCCESS_WORDS


def _from_mapping(game_map: GameMap, data: Mapping[str, Any]) -> BoardView:
    view = BoardView(caption=str(data.get("caption") or data.get("phase") or ""))
    for ptext, units in _mapping(data.get("units"), "units", "units").items():
        power = _power(game_map, ptext, f"units: {ptext}")
        for i, text in enumerate(_listed(units, f"units: {ptext}", "a list of units")):
            view.units.append(parse_unit(game_map, power, text, f"units: {ptext}[{i}]"))
    centers = data.get("centers", data.get("centres"))
    if centers is None:
        view.centers = start_view(game_map).centers
    else:
        for ptext, provs in _mapping(centers, "centers", "provinces").items():
            power = _power(game_map, ptext, f"centers: {ptext}")
            for text in _listed(provs, f"centers: {ptext}", "a list of provinces"):
                view.centers[_province(game_map, text, f"centers: {ptext}")] = power
    view.dislodged = list(_dislodged(game_map, data.get("dislodged")))
    for ptext, name in _mapping(data.get("names"), "names", "name").items():
        if name is not None:
            view.names[_power(game_map, ptext, f"names: {ptext}")] = str(name)
    for i, mv in enumerate(_listed(data.get("moves"), "moves")):
        view.moves.append(_move(game_map, mv, f"moves[{i}]"))
    for i, sp in enumerate(_listed(data.get("supports"), "supports")):
        view.supports.append(_support(game_map, sp, f"supports[{i}]"))
    return view


def _support(game_map: GameMap, sp: object, where: str) -> SupportMark:
    if not isinstance(sp, Mapping) or "from" not in sp or "unit" not in sp:
        raise ViewError(f"{where}: a support is {{power, from, unit, to, result}}, "
                        f"got {_shown(sp)}")
    power = _power(game_map, sp["power"], where) if sp.get("power") else None
    to = _province(game_map, sp["to"], where) if sp.get("to") else None
    return SupportMark(power, _province(game_map, sp["from"], where),
                       _province(game_map, sp["unit"], where), to,
                       _is_success(sp.get("result", "succeeds")))


def _dislodged(game_map: GameMap, raw: object) -> Iterable[DislodgedMark]:
    if not raw:
        return
    entries: list[tuple[str, object]] = []
    if isinstance(raw, Mapping):
        for ptext, items in raw.items():
            entries.extend((str(ptext), item) for item in _listed(items, f"dislodged: {ptext}"))
    elif isinstance(raw, list):
        for item in raw:
            power = item.get("power", "") if isinstance(item, Mapping) else ""
            entries.append((str(power), item))
    else:
        raise ViewError(f"dislodged: a list, or units by power, got {_shown(raw)}")
    for ptext, item in entries:
        where = f"dislodged: {ptext}"
        power = _power(game_map, ptext, where)
        if not isinstance(item, Mapping) or "unit" not in item:
            raise ViewError(f"{where}: write each dislodged unit as {{unit: G Lex, from: Col}}")
        unit = parse_unit(game_map, power, item["unit"], where)
        src = item.get("from")
        yield DislodgedMark(unit, _province(game_map, src, where) if src else None,
                            str(item["via"]) if item.get("via") else None)


def _move(game_map: GameMap, mv: object, where: str) -> MoveMark:
    if not isinstance(mv, Mapping) or "from" not in mv or "to" not in mv:
        raise ViewError(f"{where}: a move is {{power, from, to, via, result}}, got {_shown(mv)}")
    power = _power(game_map, mv["power"], where) if mv.get("power") else None
    return MoveMark(power, _province(game_map, mv["from"], where),
                    _province(game_map, mv["to"], where), str(mv.get("via") or "ground"),
                    _is_success(mv.get("result", "succeeds")))


def _map_parser(game_map: GameMap) -> OrderParser | None:
    """The parser of one order as the map's own rules read it (Mobtown II's notation, with
    its ``Build G 5th``), as ``parse_orders`` and ``mobadj adjudicate`` read orders; None
    for a map the registry does not know (a stand-in)."""
    from mobadj.engine import VariantError, rules_class

    try:
        rules = rules_class(game_map)()
    except (VariantError, AttributeError, TypeError):  # not a registered map (a stand-in)
        return None
    return rules.order_parser(game_map)


def _escorts(game_map: GameMap) -> tuple[str, ...]:
    """The kinds of piece that may travel with a unit on this map (``G+D``), as its order
    parser learns them from the map's rules; none for a map the registry does not know."""
    parser = _map_parser(game_map)
    return tuple(sorted(parser.builder.escorts)) if parser is not None else ()


def _patterns(game_map: GameMap) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The move and the support as results write them on ``game_map``."""
    return _order_patterns(tuple(game_map.routes.values()), _escorts(game_map))


@functools.cache
def _order_patterns(marks: tuple[str, ...],
                    escorts: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The move and the support as results write them on a map whose route kinds are
    written with ``marks`` (``G(Tam)-U-Ext``: Mobtown's subway) and whose units may travel
    with a piece of the kinds ``escorts`` (``G+D(Mic)-Cit``)."""
    mark = "|".join(re.escape(m) for m in marks) or "(?!)"
    escort = "|".join(re.escape(e) for e in escorts) or "(?!)"
    move = re.compile(
        rf"^\s*(?:[A-Za-z])(?:\s*\+\s*(?:{escort}))?\s*\(?\s*(?P<src>[^()\s\-]+)\s*\)?\s*-\s*"
        rf"(?:(?P<mark>{mark})\s*-\s*)?(?P<dst>[^()\s\-]+)\s*$"
    )
    support = re.compile(
        rf"^\s*(?P<supporters>.+?)\s+S\s+(?:[A-Za-z])(?:\s*\+\s*(?:{escort}))?\s*\(?\s*"
        r"(?P<unit>[^()\s\-]+)"
        rf"\s*\)?\s*(?:-\s*(?:(?:{mark})\s*-\s*)?(?P<to>[^()\s\-]+))?\s*$"
    )
    return move, support


_SUPPORTER = re.compile(r"[A-Za-z]\s*[( ]\s*([^()\s&]+)\s*\)?")


def _results(results: object) -> list[Mapping[str, Any]]:
    """Adjudication results, each checked to be a mapping; else a ViewError."""
    items = list(results) if isinstance(results, (list, tuple)) else _listed(
        results, "orders", "a list of results")
    for i, res in enumerate(items):
        if not isinstance(res, Mapping):
            raise ViewError(f"results[{i}]: a result is {{power, order, result}}, got "
                            f"{_shown(res)}")
    return items


def supports_from_results(game_map: GameMap,
                          results: Iterable[Mapping[str, Any]]) -> list[SupportMark]:
    """Support lines from results: ``A MUN S A BER - SIL``, ``G(PPU) & G(Pel) S G(Mic)-Mem``."""
    out = []
    support_order = _patterns(game_map)[1]
    for i, res in enumerate(_results(results)):
        m = support_order.match(str(res.get("order", "")))
        if not m:
            continue
        where = f"results[{i}] {res.get('order')!r}"
        power = _power(game_map, res["power"], where) if res.get("power") else None
        unit = _province(game_map, m.group("unit"), where)
        to = _province(game_map, m.group("to"), where) if m.group("to") else None
        for src in _SUPPORTER.findall(m.group("supporters")):
            out.append(SupportMark(power, _province(game_map, src, where), unit, to,
                                   _is_success(res.get("result", "succeeds"))))
    return out


def moves_from_results(game_map: GameMap, results: Iterable[Mapping[str, Any]]) -> list[MoveMark]:
    """Arrows from adjudication results ``[{power, order, result}]`` (non-moves are skipped).

    Orders may be written ``A PAR - BUR``, ``G(Lex)-Col``, ``G+D(PPU)-Har`` or
    ``G(Tam)-U-Ext`` (a move by a route kind of the map's, written with its mark: Mobtown's
    subway).
    """
    move_order = _patterns(game_map)[0]
    route_of = {mark: route for route, mark in game_map.routes.items()}
    out = []
    for i, res in enumerate(_results(results)):
        m = move_order.match(str(res.get("order", "")))
        if not m:
            continue
        where = f"results[{i}] {res.get('order')!r}"
        power = _power(game_map, res["power"], where) if res.get("power") else None
        out.append(MoveMark(power, _province(game_map, m.group("src"), where),
                            _province(game_map, m.group("dst"), where),
                            route_of[m.group("mark")] if m.group("mark") else "ground",
                            _is_success(res.get("result", "succeeds"))))
    return out


def marks_from_results(game_map: GameMap, results: Iterable[Mapping[str, Any]]
                       ) -> tuple[list[AdjustmentMark], list[ConvoyMark]]:
    """The builds and removals that took place, and every convoy ordered, in ``results``
    (read by the map's own parser, as its orders are; orders it cannot read are left out:
    they are drawn as nothing)."""
    from mobadj.orders import Build, Convoy, Disband, OrderError, Remove, parser_for

    parser = _map_parser(game_map) or parser_for(game_map)
    adjustments: list[AdjustmentMark] = []
    convoys: list[ConvoyMark] = []
    for res in _results(results):
        try:
            order = parser.parse_order(str(res.get("order", "")))
        except (OrderError, ValueError, LookupError):
            continue
        power = str(res["power"]) if res.get("power") else None
        power = power if power in game_map.powers else None
        ok = _is_success(res.get("result", "succeeds"))
        if isinstance(order, (Build, Remove, Disband)) and ok:
            prov, _, coast = order.unit.location.partition("/")
            adjustments.append(AdjustmentMark(power, order.unit.kind, prov, coast,
                                              isinstance(order, Build)))
        elif isinstance(order, Convoy):
            convoys.append(ConvoyMark(power, order.unit.province, order.convoyed.province,
                                      order.destination.partition("/")[0], ok))
    return adjustments, convoys


def results_view(game_map: GameMap, position: object, results: Iterable[Mapping[str, Any]],
                 names: Mapping[str, str] | None = None) -> BoardView:
    """The view of ``position`` (any shape :func:`as_view` reads) with what ``results``
    (``[{power, order, result}]``, the published orders) draw over it: the arrows of the
    moves, the lines of the supports, the routes of the convoys, the units built and
    removed; the powers called ``names`` (a game's own).  A position that lists its own
    ``moves`` or ``supports`` (a variant's ``picture_data``: Mobtown's, with each move's
    route) keeps them, and the results add only their marks.  Every picture of a phase
    (the pages, the judge's mail, the command line) is drawn from this view."""
    results = _results(results)
    view = as_view(game_map, position)
    if not (isinstance(position, Mapping) and ("moves" in position or "supports" in position)):
        view.moves.extend(moves_from_results(game_map, results))
        view.supports.extend(supports_from_results(game_map, results))
    adjustments, convoys = marks_from_results(game_map, results)
    view.adjustments.extend(adjustments)
    view.convoys.extend(convoys)
    view.names.update(names or {})
    return view


def _from_engine(game_map: GameMap, pos: Any) -> BoardView:
    view = BoardView(caption=str(getattr(pos, "phase", "") or ""))
    for prov, unit in (pos.units or {}).items():
        where, coast = _split(prov)
        if not coast and str(getattr(unit, "location", "")).startswith(where + "/"):
            coast = _split(unit.location)[1]
        view.units.append(UnitMark(unit.power, unit.kind, where, coast=coast))
    view.centers = dict(getattr(pos, "centers", {}) or {})
    for prov, d in (getattr(pos, "dislodged", {}) or {}).items():
        unit = UnitMark(d.unit.power, d.unit.kind, str(prov).split("/", 1)[0])
        view.dislodged.append(DislodgedMark(unit, getattr(d, "attacker_from", None),
                                            getattr(d, "via", None)))
    return view


def as_view(game_map: GameMap, position: object = None) -> BoardView:
    """Normalise any supported position shape to a :class:`BoardView` (see module doc)."""
    if position is None:
        return start_view(game_map)
    if isinstance(position, BoardView):
        return position
    if isinstance(position, Mapping):
        return _from_mapping(game_map, position)
    to_data = getattr(position, "to_data", None)
    if callable(to_data):  # an engine position (Mobtown's too)
        return _from_mapping(game_map, to_data())
    if hasattr(position, "units"):
        return _from_engine(game_map, position)
    raise ViewError(f"cannot draw a position of type {type(position).__name__}")
