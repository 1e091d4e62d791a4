"""Reading positions from their text form (YAML file or batch JSON line).

A batch reads the same names line after line: each unit text (per power) and each centre
name is looked up once per map and remembered.  Kept apart from :mod:`mobadj.engine.position`
so that the optional compiled build can compile it while ``Position`` and its friends stay
classes a variant may subclass (docs/performance.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Final

from mobadj.board import GameMap, UnknownNameError, province_of
from mobadj.engine.position import STANDARD, PhaseCalendar, Position, PositionError, PositionT
from mobadj.engine.units import Dislodged, UnitState

if TYPE_CHECKING:
    from mobadj.engine.rules import Rules

_UNIT_RE: Final = re.compile(r"^\s*([A-Za-z])\s*[ (]?\s*([^)]*?)\s*\)?\s*$")


class _Names:
    """Per-map caches of names already read (batches repeat the same strings)."""

    def __init__(self) -> None:
        self.units: dict[tuple[str, str], UnitState] = {}
        self.powers: dict[str, str] = {}
        self.provinces: dict[str, str] = {}
        #: power -> unit text -> (unit, its province), as read_position reads them
        self.placed: dict[str, dict[str, tuple[UnitState, str]]] = {}
        #: supply centre as written -> its province (only names of supply centres)
        self.centers: dict[str, str] = {}


@functools.lru_cache(maxsize=32)
def _names(game_map: GameMap) -> _Names:
    """The name caches of one map (maps hash by identity)."""
    return _Names()


def parse_unit(text: object, power: str, game_map: GameMap) -> UnitState:
    """``"F STP/SC"`` -> UnitState; the location is looked up on the map (any spelling)."""
    if not isinstance(text, str):
        return _parse_unit(text, power, game_map)
    cache = _names(game_map).units
    key = (power, text)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _parse_unit(text, power, game_map)
    return got


def _parse_unit(text: object, power: str, game_map: GameMap) -> UnitState:
    m = _UNIT_RE.match(str(text))
    if not m or not m.group(2):
        raise PositionError(f"bad unit {text!r}: expected e.g. 'A PAR' or 'F STP/SC'")
    kind = m.group(1).upper()
    if kind not in game_map.unit_kinds:
        kinds = ", ".join(sorted(game_map.unit_kinds))
        raise PositionError(f"bad unit {text!r}: unit kind must be one of {kinds}")
    try:
        location = game_map.lookup(m.group(2))
    except UnknownNameError as exc:  # it carries suggestions in its text
        raise PositionError(f"bad unit {text!r}: {exc}") from None
    if not game_map.can_occupy(kind, location):
        # An army named with a coast (A SPA/NC) stands on the province.
        prov = province_of(location)
        if prov != location and game_map.can_occupy(kind, prov):
            location = prov
        else:
            raise PositionError(f"bad unit {text!r}: {kind} cannot stand on {location}")
    return UnitState(power, kind, location)


def _cached(cache: dict[str, str], name: object, look: Callable[[str], str]) -> str:
    """``look(name)`` remembered in ``cache``; an unknown name is a PositionError."""
    key = name if type(name) is str else str(name)
    got = cache.get(key)
    if got is None:
        try:
            got = cache[key] = look(key)
        except UnknownNameError as exc:
            raise PositionError(str(exc)) from None
    return got


def _power(game_map: GameMap, name: object) -> str:
    return _cached(_names(game_map).powers, name, game_map.power_id)


def _province(game_map: GameMap, name: object) -> str:
    return _cached(_names(game_map).provinces, name, lambda t: province_of(game_map.lookup(t)))


def _per_power(data: object, what: str) -> Mapping[object, object]:
    """``data`` as power -> its list (any keys: YAML may write them as numbers)."""
    if type(data) is dict:
        return data
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise PositionError(f"{what} must map each power to a list")
    return dict(data)


def read_position(
    data: Mapping[str, object], game_map: GameMap, calendar: PhaseCalendar | None = None
) -> Position:
    """Build a standard Position from the YAML/JSON shape; raises :class:`PositionError`.

    Batches read the same names over and over: each unit text (per power) and each centre
    name is looked up once per map and remembered (``_Names``)."""
    if type(data) is not dict and not isinstance(data, Mapping):  # (dict: no ABC check)
        raise PositionError("a position must be a mapping with phase, units, centers, ...")
    if "phase" not in data:
        raise PositionError("missing 'phase' (e.g. S1901M)")
    pos = Position((calendar or STANDARD).parse(data["phase"]))
    names = _names(game_map)
    power_cache = names.powers
    placed = names.placed
    units = pos.units
    for pname, items in _per_power(data.get("units"), "units").items():
        power = power_cache.get(pname) if type(pname) is str else None
        if power is None:
            power = _power(game_map, pname)
        mine = placed.get(power)
        if mine is None:
            mine = placed[power] = {}
        listed: list[object] = (items if type(items) is list
                                else as_list(items, f"units of {pname}"))
        for text in listed:
            got = mine.get(text) if type(text) is str else None
            if got is None:
                unit = parse_unit(text, power, game_map)
                got = (unit, province_of(unit.location))
                if type(text) is str:
                    mine[text] = got
            prov = got[1]
            if prov in units:
                raise PositionError(f"two units in {prov}")
            units[prov] = got[0]
    centers = pos.centers
    center_cache = names.centers
    for pname, provs in _per_power(data.get("centers"), "centers").items():
        power = power_cache.get(pname) if type(pname) is str else None
        if power is None:
            power = _power(game_map, pname)
        listed = provs if type(provs) is list else as_list(provs, f"centers of {pname}")
        for text in listed:
            known = center_cache.get(text) if type(text) is str else None
            if known is not None:
                prov = known
            else:
                prov = _province(game_map, text)
                if prov not in game_map.supply_centers:
                    raise PositionError(f"{text!r} is not a supply centre")
                if type(text) is str:
                    center_cache[text] = prov
            if centers.setdefault(prov, power) != power:
                raise PositionError(f"centre {prov} owned by two powers")
    for pname, entries in _per_power(data.get("dislodged"), "dislodged").items():
        power = _power(game_map, pname)
        for entry in as_list(entries, f"dislodged of {pname}"):
            if not isinstance(entry, Mapping) or "unit" not in entry:
                raise PositionError(
                    f"dislodged entry {entry!r}: expected {{unit: 'A MUN', from: 'BOH'}}"
                )
            unit = parse_unit(entry["unit"], power, game_map)
            convoyed = entry.get("convoyed")
            if convoyed is not None and type(convoyed) is not bool:  # "false" is no False
                raise PositionError(f"dislodged {unit.kind} {unit.location}: 'convoyed' must "
                                    f"be true or false, not {convoyed!r}")
            attacker_from = _attacker_from(entry, unit, game_map)
            pos.dislodged[unit.province] = Dislodged(
                unit, attacker_from, bool(convoyed), via=entry.get("via")
            )
    standoffs = data.get("standoffs")
    if standoffs:
        pos.standoffs = frozenset(
            _province(game_map, s) for s in as_list(standoffs, "standoffs")
        )
    return pos


def position_with_retreats(data: Mapping[str, object], game_map: GameMap,
                           rules: Rules[PositionT]) -> Position:
    """The standard rules' ``position_from_data`` (mobadj.engine.rules): the position
    written as YAML/JSON, each dislodged unit given its legal retreats by ``rules``
    (``retreat_options``).  Compiled with the engine: a batch reads a position per line."""
    pos = read_position(data, game_map, rules.calendar)
    if pos.dislodged:
        from mobadj.engine.retreats import retreat_options  # (which imports the rules)
        from mobadj.engine.topology import topology_for

        topo = topology_for(game_map)
        for prov, d in list(pos.dislodged.items()):
            pos.dislodged[prov] = d.with_retreats(
                retreat_options(rules, d, topo, pos.units, pos.standoffs))
    return pos


def _attacker_from(entry: Mapping[str, object], unit: UnitState, game_map: GameMap) -> str:
    """The province a dislodged unit's attacker came from: it must be given, and (unless
    the attacker came by convoy) be next to the unit's province for some unit kind."""
    origin = entry.get("from")
    if not origin:
        raise PositionError(f"dislodged {unit.kind} {unit.location}: 'from' is missing "
                            "(the province its attacker came from)")
    prov = _province(game_map, origin)
    if not entry.get("convoyed") and not any(
            game_map.reaches_province(kind, loc, unit.province)
            for kind in game_map.unit_kinds for loc in game_map.locations(prov)):
        raise PositionError(f"dislodged {unit.kind} {unit.location}: its attacker cannot have "
                            f"come from {prov}, which is not next to {unit.province}")
    return prov


def as_list(value: object, what: str) -> list[object]:
    """A list from YAML/JSON input: a list, None, "A, B; C" text or any other iterable."""
    if type(value) is list:
        return value
    if value is None:
        return []
    if isinstance(value, str):
        return [s for s in re.split(r"\s*[,;]\s*", value) if s]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return list(value)
    raise PositionError(f"{what} must be a list")
