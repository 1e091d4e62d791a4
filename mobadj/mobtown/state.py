"""A Mobtown II position: Gangs, Dons (free, alone or captured), the gaol, the calendar.

Text form (YAML file or batch JSON; powers by id or full name, case-insensitive)::

    phase: 1919-07-W1-M
    units:
      capone: [G DAN, D DAN, G DAS, G Bnx]     # a Don with his Gang is listed as both
      lepke: [G Pie, D Har captive]            # a captured Don: listed under his own mob,
                                               # "captive"; the captor is whoever has the
                                               # Gang in his space
      luciano: [G MTPD]                        # a Gang in gaol (rule 7); several may be
    centers: {capone: [DAN, DAS, Bnx]}
    dislodged: {diamond: [{unit: G Mem, from: Mic, via: ground}]}   # via: ground | subway
    standoffs: [Bur]
    disorder: [lepke]        # mobs in civil disorder at the next movement (rule 3)
    rebuilt_dons: [lepke]    # mobs whose present Don was rebuilt and costs a centre (rule 3)

A :class:`MobtownPosition` is an engine :class:`~mobadj.engine.position.Position` whose
``units`` are the Gangs (what the engine resolves) with Mobtown's state beside them; Dons never
take part in resolution (they have no strength).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from mobadj.board import GameMap, UnknownNameError
from mobadj.engine import Dislodged, Position, PositionError, UnitState, as_list
from mobadj.mobtown.calendar import FIRST, MPhase
from mobadj.mobtown.terms import GAOL

_UNIT = re.compile(r"^\s*([GgDd])\s*\(?\s*([^()]*?)\s*\)?\s*(captive|captured)?\s*$",
                   re.IGNORECASE)


@dataclass(slots=True)
class MobtownPosition(Position):
    """Everything a Mobtown II phase is adjudicated from: ``units`` are the Gangs (province
    -> Gang), ``phase`` an :class:`MPhase`."""

    dons: dict[str, str] = field(default_factory=dict)  # mob -> province of its Don
    gaol: list[str] = field(default_factory=list)  # one mob id per gaoled Gang (rule 7)
    disorder: frozenset[str] = frozenset()  # mobs in civil disorder next movement (rule 3)
    rebuilt: frozenset[str] = frozenset()  # mobs whose Don was rebuilt (costs a centre)
    winner: str | None = None  # rule 8

    def copy(self) -> MobtownPosition:
        """A copy whose dicts and lists may be changed freely."""
        return MobtownPosition(self.phase, dict(self.units), dict(self.centers),
                               dict(self.dislodged), self.standoffs, dict(self.dons),
                               list(self.gaol), self.disorder, self.rebuilt, self.winner)

    # ---- questions ---------------------------------------------------------------------

    def dons_at(self) -> dict[str, tuple[str, ...]]:
        """Province -> the mobs whose Don stands there."""
        out: dict[str, list[str]] = {}
        for power, prov in sorted(self.dons.items()):
            out.setdefault(prov, []).append(power)
        return {p: tuple(v) for p, v in out.items()}

    def captor(self, power: str) -> str | None:
        """The mob holding ``power``'s Don captive: another mob's Gang in his space."""
        prov = self.dons.get(power)
        gang = self.units.get(prov) if prov else None
        return gang.power if gang is not None and gang.power != power else None

    def owner_of(self, power: str | None, kind: str, location: str) -> str:
        """Whose order this is: the mob named, else the owner of the piece it names (an
        order read with no mob heading goes to its unit's owner, docs/orders.md): the Gang
        there (or dislodged from there), the Don there, the one mob with Gangs in gaol;
        ``?`` when no piece tells."""
        if power is not None:
            return power
        if kind == "D":
            return next((p for p, prov in sorted(self.dons.items()) if prov == location), "?")
        if location == GAOL:
            mobs = set(self.gaol)
            return mobs.pop() if len(mobs) == 1 else "?"
        gang = self.units.get(location)
        if gang is None:
            d = self.dislodged.get(location)
            return d.unit.power if d is not None else "?"
        return gang.power

    def units_count(self, power: str, gaol_counts: bool = True) -> int:
        """Units that count against supply: Gangs, gaoled Gangs (ruling 8, an option) and a
        rebuilt Don (rule 3: he needs a centre; the original Don is free, ruling 9)."""
        n = sum(1 for u in self.units.values() if u.power == power)
        n += sum(1 for u in self.dislodged.values() if u.unit.power == power)
        if gaol_counts:
            n += self.gaol.count(power)
        if power in self.rebuilt and power in self.dons:
            n += 1
        return n

    def powers(self) -> list[str]:
        """Every mob with a Gang, a Don, a centre or a dislodged Gang, sorted."""
        seen = {u.power for u in self.units.values()} | set(self.dons) | set(self.gaol)
        seen |= set(self.centers.values())
        seen |= {d.unit.power for d in self.dislodged.values()}
        return sorted(seen)

    # ---- text form ---------------------------------------------------------------------

    def unit_lists(self) -> dict[str, list[str]]:
        """Power -> ["G Lex", "D Lex", "D Har captive", "G MTPD"] (sorted)."""
        units: dict[str, list[str]] = {}
        for u in self.units.values():
            units.setdefault(u.power, []).append(f"G {u.location}")
        for power in self.gaol:
            units.setdefault(power, []).append(f"G {GAOL}")
        for power, prov in self.dons.items():
            mark = " captive" if self.captor(power) else ""
            units.setdefault(power, []).append(f"D {prov}{mark}")
        for lst in units.values():
            lst.sort()
        return dict(sorted(units.items()))

    def dislodged_entry(self, d: Dislodged) -> dict[str, object]:
        """``{unit, from, via: ground|subway, retreats}`` (the batch shape)."""
        return {"unit": str(d.unit), "from": d.attacker_from, "via": d.via or "ground",
                "retreats": list(d.retreats)}

    def extra_data(self) -> dict[str, object]:
        """Mobs in civil disorder, rebuilt Dons, the winner (module docstring)."""
        data: dict[str, object] = {"disorder": sorted(self.disorder),
                                "rebuilt_dons": sorted(self.rebuilt)}
        if self.winner:
            data["winner"] = self.winner
        return data


# ---- reading ----------------------------------------------------------------------------


def initial_position(game_map: GameMap) -> MobtownPosition:
    """The June 1919 weekend: a Gang on each home centre, Dons not yet placed (rule 6)."""
    pos = MobtownPosition(MPhase.parse(FIRST))
    for pid, power in game_map.powers.items():
        for kind, loc in power.starting_units:
            pos.units[loc] = UnitState(pid, kind, loc)
        for home in power.home_centers:
            pos.centers[home] = pid
    return pos


def _power(game_map: GameMap, name: object) -> str:
    try:
        return game_map.power_id(str(name))
    except UnknownNameError as exc:
        raise PositionError(f"unknown mob {name!r}: {exc}") from None


def _where(game_map: GameMap, text: object) -> str:
    try:
        return game_map.lookup(str(text))
    except UnknownNameError as exc:
        raise PositionError(f"unknown space {text!r}: {exc}") from None


def parse_unit(text: object, game_map: GameMap) -> tuple[str, str, bool]:
    """``"G Lex"`` / ``"D(Har) captive"`` -> (kind, province, marked captive)."""
    m = _UNIT.match(str(text))
    if not m or not m.group(2):
        raise PositionError(f"bad unit {text!r}: expected e.g. 'G Lex', 'D Lex' or "
                            "'D Har captive'")
    kind = m.group(1).upper()
    prov = _where(game_map, m.group(2))
    terrain = game_map.provinces[prov].terrain
    if terrain == "impassable":
        raise PositionError(f"bad unit {text!r}: {prov} is impassable (rule 2)")
    if kind == "D" and terrain == "gaol":
        raise PositionError(f"bad unit {text!r}: a Don is never in gaol")
    if m.group(3) and kind != "D":
        raise PositionError(f"bad unit {text!r}: only a Don can be captive")
    return kind, prov, bool(m.group(3))


def _blocks(data: Mapping[str, object], key: str) -> Mapping[object, object]:
    block = data.get(key) or {}
    if not isinstance(block, Mapping):
        raise PositionError(f"{key!r} must map each mob to a list")
    return block


def read_position(data: Mapping[str, object], game_map: GameMap) -> MobtownPosition:
    """Read the YAML/JSON shape (module docstring); raises PositionError.  Dislodged Gangs
    come without their retreats (the rules work them out)."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a mapping with phase, units, centers, ...")
    if "phase" not in data:
        raise PositionError(f"missing 'phase' (e.g. {FIRST} or 1919-07-W1-M)")
    pos = MobtownPosition(MPhase.parse(data["phase"]))
    captives: list[tuple[str, str]] = []
    for name, items in _blocks(data, "units").items():
        power = _power(game_map, name)
        for text in as_list(items, f"units of {name}"):
            kind, prov, captive = parse_unit(text, game_map)
            if kind == "G":
                if prov == GAOL:
                    pos.gaol.append(power)
                elif prov in pos.units:
                    raise PositionError(f"two Gangs in {prov}")
                else:
                    pos.units[prov] = UnitState(power, "G", prov)
            else:
                if power in pos.dons:
                    raise PositionError(f"{name} has two Dons ({pos.dons[power]}, {prov})")
                pos.dons[power] = prov
                if captive:
                    captives.append((power, prov))
    for power, prov in captives:
        if pos.captor(power) is None:
            raise PositionError(f"D {prov} is marked captive but no other mob's Gang stands "
                                f"in {prov}")
    pos.gaol.sort()
    for name, provs in _blocks(data, "centers").items():
        power = _power(game_map, name)
        for text in as_list(provs, f"centers of {name}"):
            prov = _where(game_map, text)
            if prov not in game_map.supply_centers:
                raise PositionError(f"{text!r} is not a supply centre")
            if pos.centers.get(prov, power) != power:
                raise PositionError(f"centre {prov} owned by two mobs")
            pos.centers[prov] = power
    for name, entries in _blocks(data, "dislodged").items():
        power = _power(game_map, name)
        for entry in as_list(entries, f"dislodged of {name}"):
            if not isinstance(entry, Mapping) or "unit" not in entry:
                raise PositionError(f"dislodged entry {entry!r}: expected "
                                    "{unit: 'G Mem', from: 'Mic', via: 'ground'}")
            kind, prov, _ = parse_unit(entry["unit"], game_map)
            if kind != "G":
                raise PositionError(f"dislodged entry {entry!r}: only Gangs are dislodged "
                                    "(a Don is left behind, rule 3)")
            via = str(entry.get("via") or "ground").lower()
            if via not in ("ground", "subway"):
                raise PositionError(f"dislodged entry {entry!r}: via must be ground or subway")
            origin = _where(game_map, entry["from"]) if entry.get("from") else ""
            pos.dislodged[prov] = Dislodged(UnitState(power, "G", prov), origin, False,
                                            via=via)
    pos.standoffs = frozenset(_where(game_map, s) for s in as_list(data.get("standoffs"),
                                                                   "standoffs"))
    pos.disorder = frozenset(_power(game_map, p) for p in as_list(data.get("disorder"),
                                                                  "disorder"))
    pos.rebuilt = frozenset(_power(game_map, p) for p in as_list(data.get("rebuilt_dons"),
                                                                 "rebuilt_dons"))
    return pos
