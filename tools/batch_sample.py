"""A seeded sample of ``mobadj batch`` input lines on both maps, to prove refactors change nothing.

Standard and Mobtown II games are played from their starting positions with random but
plausible orders (moves, supports, convoys, ``&`` groups, Dons, the cement overcoat, subway
moves, retreats, builds, removals, waives), each phase advanced through ``mobadj batch``
itself; standard phases on dense random positions, rule options, and lines with mistakes
(unknown names, unreadable orders, bad phases) are mixed in.  The same seed always gives the
same lines, and only the public batch contract (docs/adjudication.md) is used, so the tool
keeps working while the code underneath changes::

    python -m tools.batch_sample --seed 1 --count 10000 > sample.jsonl
    mobadj batch sample.jsonl > after.jsonl     # compare with the output of the old code
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from mobadj.batch import run_case
from mobadj.board import GameMap, load_map

#: DATC rule options (docs/rulings.md) given to some standard lines.
STANDARD_OPTIONS: tuple[dict[str, Any], ...] = (
    {"paradox": "1982"}, {"paradox": "2000"}, {"paradox": "1971"}, {"paradox": "all_hold"},
    {"adjacent_convoy": "fallback"}, {"adjacent_convoy": "dptg"}, {"adjacent_convoy": "1971"},
    {"convoy_disruption": "any_route"}, {"dislodged_bounce": "never"},
    {"convoy_attack": "cuts"}, {"convoy_retreat": False}, {"support_coast": "required"},
    {"support_coast": "same_power"}, {"missing_coast": "fail"}, {"impossible_coast": "ignore"},
    {"unit_coast": "fail"}, {"irrelevant_coast": "fail"}, {"too_many": "last"},
    {"too_many": "all_invalid"}, {"civil_disorder": "home_centres"},
)
#: Mobtown II game options (docs/mobtown-rulings.md) given to some Mobtown lines.
MOBTOWN_OPTIONS: tuple[dict[str, Any], ...] = (
    {"captive_don_helps": True}, {"don_crossing": "support"}, {"subway_retreats": "any"},
    {"subway_support": True}, {"gaol_counts_for_supply": False},
    {"don_needs_empty_home": True}, {"lone_don_drowns": True},
    {"captive_don_helps": True, "lone_don_drowns": True},
)
GARBAGE = ("", "H", "xyzzy", "A - ", "S S S", "Build", "F NOWHERE - ATLANTIS", "A PAR -- BUR",
           "G(Zzz)-Qqq", "G+D(", "Remove", "D(Lex) cement", "Waive now")


def _units(block: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """(power, kind, location) of every unit in an output's ``units`` block."""
    out = []
    for power, items in sorted(block.items()):
        for text in items:
            kind, _, loc = text.partition(" ")
            out.append((power, kind, loc.replace(" captive", "")))
    return out


def _province(loc: str) -> str:
    return loc.split("/", 1)[0]


# ---- standard ------------------------------------------------------------------------------


class Standard:
    """Standard games and random dense positions."""

    def __init__(self, game_map: GameMap, rng: random.Random) -> None:
        self.map = game_map
        self.rng = rng
        self.powers = sorted(game_map.powers)
        self.sea = {p for p, prov in game_map.provinces.items() if prov.terrain == "sea"}
        self.coastal = {p for p, prov in game_map.provinces.items() if prov.terrain == "coast"}

    def start(self) -> dict[str, Any]:
        units: dict[str, list[str]] = {}
        centers: dict[str, list[str]] = {}
        for pid, power in self.map.powers.items():
            units[pid] = [f"{k} {loc}" for k, loc in power.starting_units]
            centers[pid] = list(power.home_centers)
        return {"phase": "S1901M", "units": units, "centers": centers}

    def dense(self) -> dict[str, Any]:
        """20-34 units on random provinces, centres owned at random; any phase kind."""
        rng = self.rng
        units: dict[str, list[str]] = {}
        taken: set[str] = set()
        provs = sorted(self.map.provinces)
        rng.shuffle(provs)
        want = rng.randint(20, 34)
        for prov in provs:
            if len(taken) >= want:
                break
            spots = [(k, loc) for k in ("A", "F") for loc in self.map.locations(prov)
                     if self.map.can_occupy(k, loc)]
            if not spots:
                continue
            kind, loc = rng.choice(spots)
            units.setdefault(rng.choice(self.powers), []).append(f"{kind} {loc}")
            taken.add(prov)
        centers: dict[str, list[str]] = {}
        for sc in sorted(self.map.supply_centers):
            if rng.random() < 0.8:
                centers.setdefault(rng.choice(self.powers), []).append(sc)
        year = 1901 + rng.randrange(10)
        roll = rng.random()
        case: dict[str, Any] = {"units": units, "centers": centers}
        if roll < 0.75:
            case["phase"] = f"{rng.choice('SF')}{year}M"
        elif roll < 0.88:
            case["phase"] = f"{rng.choice('SF')}{year}R"
            dislodged: dict[str, list[dict[str, Any]]] = {}
            for power, kind, loc in rng.sample(_units(units), 2):
                nb = sorted(self.map.neighbour_provinces(kind, loc))
                if not nb:
                    continue
                units[power].remove(f"{kind} {loc}")
                entry: dict[str, Any] = {"unit": f"{kind} {loc}", "from": rng.choice(nb)}
                if rng.random() < 0.2:
                    entry["convoyed"] = True
                dislodged.setdefault(power, []).append(entry)
            case["dislodged"] = dislodged
            case["standoffs"] = rng.sample(provs, rng.randint(0, 2))
        else:
            case["phase"] = f"W{year}A"
        return case

    def orders(self, case: dict[str, Any]) -> dict[str, list[str]]:
        kind = case["phase"][-1]
        if kind == "M":
            return self._movement(case)
        if kind == "R":
            return self._retreats(case)
        return self._adjustments(case)

    def _movement(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng, gm = self.rng, self.map
        units = _units(case["units"])
        at = {_province(loc): (power, kind, loc) for power, kind, loc in units}
        out: dict[str, list[str]] = {}
        moves: list[tuple[str, str, str]] = []  # (unit text, from province, to location)
        order = list(units)
        rng.shuffle(order)
        for power, kind, loc in order:
            me = f"{kind} {loc}"
            nb = sorted(gm.neighbours(kind, loc))
            roll = rng.random()
            text = f"{me} H"
            if roll < 0.45 and nb:
                dest = rng.choice(nb)
                if "/" in dest and rng.random() < 0.3:
                    dest = _province(dest)  # the coast left out
                text = f"{me} - {dest}"
                moves.append((me, _province(loc), dest))
            elif roll < 0.62:
                reach = set(gm.neighbour_provinces(kind, loc))
                friends = [at[p] for p in sorted(reach) if p in at]
                if friends:
                    _, k2, l2 = rng.choice(friends)
                    text = f"{me} S {k2} {l2}"
            elif roll < 0.8:
                reach = set(gm.neighbour_provinces(kind, loc))
                cands = [m for m in moves if _province(m[2]) in reach and m[1] != _province(loc)]
                if cands:
                    unit, _, dest = rng.choice(cands)
                    if rng.random() < 0.3:
                        dest = _province(dest)
                    text = f"{me} S {unit} - {dest}"
                else:
                    near = [at[p] for p in at if p != _province(loc)]
                    _, k2, l2 = rng.choice(near) if near else (power, kind, loc)
                    goals = sorted(reach & set(gm.neighbour_provinces(k2, l2)))
                    if goals:
                        text = f"{me} S {k2} {l2} - {rng.choice(goals)}"
            elif roll < 0.92:
                text = self._convoy(me, power, kind, loc, at, moves) or text
            elif roll < 0.96:
                text = rng.choice((f"{me} - {rng.choice(sorted(gm.provinces))}",
                                   f"{me} S {me}", f"{me} C {me} - PAR",
                                   f"{me} - {rng.choice(sorted(gm.provinces))} via convoy"))
            else:
                text = rng.choice(GARBAGE + (f"{me} R BUR", f"Build {me}", f"{me} D"))
            who = power if rng.random() > 0.02 else rng.choice(self.powers)
            out.setdefault(who, []).append(text)
        return out

    def _convoy(self, me: str, power: str, kind: str, loc: str,
                at: dict[str, tuple[str, str, str]], moves: list) -> str | None:
        rng, gm = self.rng, self.map
        prov = _province(loc)
        if kind == "F" and prov in self.sea:
            armies = [at[p] for p in sorted(gm.neighbour_provinces("F", loc))
                      if p in at and at[p][1] == "A"]
            if armies:
                _, _, aloc = rng.choice(armies)
                dests = sorted(p for p in gm.neighbour_provinces("F", loc)
                               if p in self.coastal and p != aloc)
                if dests:
                    return f"{me} C A {aloc} - {rng.choice(dests)}"
        if kind == "A" and prov in self.coastal:
            seas = sorted(p for p in gm.neighbour_provinces("F", prov) if p in self.sea)
            if seas:
                s = rng.choice(seas)
                far = sorted(p for t in gm.neighbour_provinces("F", s) if t in self.sea
                             for p in gm.neighbour_provinces("F", t) if p in self.coastal)
                dests = sorted(set(far) | {p for p in gm.neighbour_provinces("F", s)
                                           if p in self.coastal} - {prov})
                if dests:
                    dest = rng.choice(dests)
                    moves.append((me, prov, dest))
                    return f"{me} - {dest}" + (" via convoy" if rng.random() < 0.4 else "")
        return None

    def _retreats(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng, gm = self.rng, self.map
        out: dict[str, list[str]] = {}
        for power, entries in sorted((case.get("dislodged") or {}).items()):
            for entry in entries:
                unit = entry["unit"]
                kind, _, loc = unit.partition(" ")
                roll = rng.random()
                options = entry.get("retreats") or sorted(gm.neighbours(kind, loc))
                if roll < 0.6 and options:
                    text = f"{unit} - {rng.choice(options)}"
                elif roll < 0.75:
                    text = f"{unit} R {rng.choice(sorted(gm.neighbours(kind, loc)) or [loc])}"
                elif roll < 0.88:
                    text = f"{unit} Disband"
                elif roll < 0.94:
                    text = f"{unit} H"
                else:
                    continue
                out.setdefault(power, []).append(text)
        if rng.random() < 0.2 and case["units"]:
            power = rng.choice(sorted(case["units"]))
            if case["units"][power]:
                out.setdefault(power, []).append(f"{case['units'][power][0]} - BUR")
        return out

    def _adjustments(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng, gm = self.rng, self.map
        out: dict[str, list[str]] = {}
        units = case.get("units") or {}
        centers = case.get("centers") or {}
        occupied = {_province(loc) for _, _, loc in _units(units)}
        for power in self.powers:
            n = len(centers.get(power, [])) - len(units.get(power, []))
            lines: list[str] = []
            if n > 0:
                homes = list(gm.powers[power].home_centers)
                rng.shuffle(homes)
                for home in homes[: n + rng.randint(0, 1)]:
                    kind = rng.choice("AF")
                    locs = [x for x in gm.locations(home) if gm.can_occupy(kind, x)]
                    where = rng.choice(locs) if locs and rng.random() < 0.8 else home
                    lines.append(f"Build {kind} {where}" if home not in occupied
                                 else f"Build A {home}")
                if rng.random() < 0.2:
                    lines.append("Waive")
            elif n < 0:
                mine = list(units.get(power, []))
                rng.shuffle(mine)
                for text in mine[: max(0, -n + rng.randint(-1, 1))]:
                    lines.append(f"Remove {text}" if rng.random() < 0.8 else f"{text} Disband")
            elif rng.random() < 0.05:
                lines.append("Build A " + gm.powers[power].home_centers[0])
            if lines:
                out[power] = lines
        return out


# ---- Mobtown II ------------------------------------------------------------------------------


class Mobtown:
    """Mobtown II games from June 1919, in the rulebook's notation."""

    def __init__(self, game_map: GameMap, rng: random.Random) -> None:
        self.map = game_map
        self.rng = rng
        self.mobs = sorted(game_map.powers)

    def start(self) -> dict[str, Any]:
        units: dict[str, list[str]] = {}
        centers: dict[str, list[str]] = {}
        for pid, power in self.map.powers.items():
            units[pid] = [f"{k} {loc}" for k, loc in power.starting_units]
            centers[pid] = list(power.home_centers)
        return {"phase": "1919-06-START", "units": units, "centers": centers}

    def _spell(self, mob: str) -> str:
        """A mob as a player might spell it (id, full name, alias)."""
        power = self.map.powers[mob]
        return self.rng.choice((mob, mob, power.name, *power.aliases))

    def orders(self, case: dict[str, Any]) -> dict[str, list[str]]:
        phase = case["phase"]
        if phase.endswith("START"):
            out = self._placement(case)
        elif phase.endswith("M"):
            out = self._movement(case)
        elif phase.endswith("R"):
            out = self._retreats(case)
        else:
            out = self._adjustments(case)
        if self.rng.random() < 0.15:
            mob = self.rng.choice(self.mobs)
            out.setdefault(mob, []).append(self.rng.choice(GARBAGE))
        return out

    def _placement(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng = self.rng
        out: dict[str, list[str]] = {}
        for mob in self.mobs:
            if rng.random() < 0.1:
                continue
            home = rng.choice(self.map.powers[mob].home_centers)
            out[mob] = [rng.choice((f"D {home}", f"D({home})", f"Don starts in {home}",
                                    f"Build D {home}"))]
            if rng.random() < 0.05:
                out[mob].append(f"D {rng.choice(sorted(self.map.provinces))}")
        return out

    def _movement(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng, gm = self.rng, self.map
        units = _units(case["units"])
        gangs = {loc: mob for mob, kind, loc in units if kind == "G" and loc != "MTPD"}
        dons = {}
        for mob, kind, loc in units:
            if kind == "D":
                dons.setdefault(loc, []).append(mob)
        water = {p for p, prov in gm.provinces.items() if prov.terrain == "water"}
        out: dict[str, list[str]] = {}
        moves: list[tuple[str, str, bool]] = []
        order = sorted(gangs.items())
        rng.shuffle(order)
        for loc, mob in order:
            nb = sorted(n for n in gm.neighbours("G", loc) if n != "MTPD")
            roll = rng.random()
            text = f"G({loc}) H"
            if roll < 0.55 and nb:
                dest = rng.choice(nb)
                edge = gm.edge("G", loc, dest) or {}
                subway = edge.get("via") == "subway" or (
                    str(edge.get("subway")).lower() == "true" and rng.random() < 0.5)
                if rng.random() < 0.04:
                    subway = not subway  # a wrongly written link
                head = f"G+D({loc})" if loc in dons and rng.random() < 0.75 else f"G({loc})"
                text = f"{head}-{'U-' if subway else ''}{dest}"
                moves.append((loc, dest, subway))
            elif roll < 0.75:
                friends = [n for n in nb if n in gangs]
                if friends:
                    text = f"G({loc}) S G({rng.choice(friends)})"
            elif roll < 0.9:
                cands = [m for m in moves if m[1] in nb and m[0] != loc]
                if cands:
                    src, dest, subway = rng.choice(cands)
                    text = f"G({loc}) S G({src})-{'U-' if subway else ''}{dest}"
                    partner = [n for n in nb if n in gangs and gangs[n] == mob and n != src
                               and dest in gm.neighbours("G", n)]
                    if partner and rng.random() < 0.4:
                        p = partner[0]
                        text = f"G({loc}) & G({p}) S G({src})-{'U-' if subway else ''}{dest}"
            elif roll < 0.95:
                text = rng.choice((f"Gang {gm.provinces[loc].name} holds",
                                   f"G {loc} - {rng.choice(nb) if nb else loc}",
                                   f"G({loc})-{rng.choice(sorted(gm.provinces))}",
                                   f"G({loc})-MTPD"))
            else:
                text = f"G({loc}) H"
            key = mob if rng.random() > 0.03 else rng.choice(self.mobs)
            if rng.random() < 0.1:
                text = f"{self.map.powers[mob].name} {text}"  # the rulebook's mob prefix
            out.setdefault(key, []).append(text)
        for loc, owners in sorted(dons.items()):
            for owner in owners:
                roll = rng.random()
                captor = gangs.get(loc)
                if captor and captor != owner and loc in water and roll < 0.5:
                    out.setdefault(captor, []).append(f"D({loc}) cement overcoat")
                elif roll < 0.06:
                    out.setdefault(owner, []).append(f"D({loc}) H")
                elif roll < 0.09 and gm.neighbours("G", loc):
                    dest = rng.choice(sorted(gm.neighbours("G", loc)))
                    out.setdefault(owner, []).append(f"D({loc})-{dest}")
        return out

    def _retreats(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng, gm = self.rng, self.map
        out: dict[str, list[str]] = {}
        for mob, entries in sorted((case.get("dislodged") or {}).items()):
            for entry in entries:
                loc = entry["unit"].split()[-1]
                options = entry.get("retreats") or []
                roll = rng.random()
                if roll < 0.65 and options:
                    opt = rng.choice(options)
                    if opt.startswith("U-"):
                        text = rng.choice((f"G({loc}) R U {opt[2:]}", f"G({loc})-U-{opt[2:]}"))
                    else:
                        text = rng.choice((f"G({loc}) R {opt}", f"G({loc})-{opt}"))
                elif roll < 0.75:
                    nb = sorted(gm.neighbours("G", loc)) or [loc]
                    text = f"G({loc})-{rng.choice(nb)}"
                elif roll < 0.88:
                    text = f"G({loc}) Disband"
                else:
                    continue
                out.setdefault(mob, []).append(text)
        return out

    def _adjustments(self, case: dict[str, Any]) -> dict[str, list[str]]:
        rng, gm = self.rng, self.map
        units = _units(case["units"])
        occupied = {loc for _, kind, loc in units if kind == "G"}
        has_don = {mob for mob, kind, _ in units if kind == "D"}
        out: dict[str, list[str]] = {}
        centers = case.get("centers") or {}
        for mob in self.mobs:
            mine = [loc for m, kind, loc in units if m == mob and kind == "G" and loc != "MTPD"]
            n = len(centers.get(mob, [])) - len(mine)
            lines: list[str] = []
            homes = [h for h in gm.powers[mob].home_centers if h in centers.get(mob, [])]
            if mob not in has_don and homes and rng.random() < 0.8:
                lines.append(f"Build D {rng.choice(homes)}")
            if n > 0:
                free = [h for h in homes if h not in occupied]
                for h in free[: n + rng.randint(0, 1)]:
                    lines.append(f"Build G {h}")
                if rng.random() < 0.2:
                    lines.append("Waive")
            elif n < 0:
                rng.shuffle(mine)
                for loc in mine[: -n + rng.randint(-1, 1)]:
                    lines.append(rng.choice((f"Remove G {loc}", f"G({loc}) Disband")))
                if mob in case.get("rebuilt_dons", []) and rng.random() < 0.3:
                    don = next((loc for m, k, loc in units if m == mob and k == "D"), None)
                    if don:
                        lines.append(f"Remove D {don}")
            if lines:
                out[mob] = lines
        return out


# ---- the sample ------------------------------------------------------------------------------


def _next(case: dict[str, Any], out: dict[str, Any], mobtown: bool) -> dict[str, Any] | None:
    """The following phase of a game from a batch output line (None: the game is over)."""
    if out["errors"] and not out["next_phase"] or out.get("winner"):
        return None
    nxt: dict[str, Any] = {"phase": out["next_phase"], "units": out["units"],
                           "centers": out["centers"]}
    if out["dislodged"]:
        nxt["dislodged"] = {p: [{k: e[k] for k in ("unit", "from", "via", "convoyed")
                                 if k in e} | {"retreats": e["retreats"]} for e in lst]
                            for p, lst in out["dislodged"].items()}
    if mobtown:
        for key in ("standoffs", "disorder", "rebuilt_dons"):
            if out.get(key):
                nxt[key] = out[key]
    if "options" in case:
        nxt["options"] = case["options"]
    return nxt


def games(maker: Any, name: str, rng: random.Random, mobtown: bool,
          length: tuple[int, int]) -> Iterator[dict[str, Any]]:
    """Endless batch input lines of one map: games from the start, dense positions between."""
    n = 0
    while True:
        options = None
        if rng.random() < 0.15:
            options = rng.choice(MOBTOWN_OPTIONS if mobtown else STANDARD_OPTIONS)
        case: dict[str, Any] | None = maker.start()
        if options:
            case["options"] = options
        for _ in range(rng.randint(*length)):
            if case is None:
                break
            case = {"id": f"{name}-{n}", "map": name, **case}
            if rng.random() < 0.05 and not mobtown:
                case["map"] = "Standard"  # map names match case-insensitively
            case["orders"] = maker.orders(case)
            n += 1
            yield case
            out = run_case(case)
            case = _next(case, out, mobtown)
        if not mobtown:
            for _ in range(rng.randint(3, 8)):
                case = {"id": f"{name}-{n}", "map": name, **maker.dense()}
                if rng.random() < 0.2:
                    case["options"] = rng.choice(STANDARD_OPTIONS)
                case["orders"] = maker.orders(case)
                n += 1
                yield case


def mistakes(rng: random.Random, n: int) -> dict[str, Any] | str:
    """A line a user got wrong."""
    pick = rng.randrange(9)
    base: dict[str, Any] = {"id": f"bad-{n}", "phase": "S1901M",
                            "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR H"]}}
    if pick == 0:
        return "not json"
    if pick == 1:
        return "[1, 2]"
    if pick == 2:
        base["phase"] = rng.choice(("X1901M", "S19O1M", "S1901Q", "1919-07-W1-M", ""))
    elif pick == 3:
        base["units"] = {"FRANCE": ["A PAR", "A PAR"], "NARNIA": ["A BUR"]}
    elif pick == 4:
        base["map"] = rng.choice(("atlantis", "mobtown2", "MOBTOWN2"))
    elif pick == 5:
        base["options"] = rng.choice(({"paradox": "1066"}, {"paradx": "1982"}, "1982",
                                      {"captive_don_helps": True}))
    elif pick == 6:
        base["orders"] = {"FRANCE": "A PAR - BUR", "GERMANY": 7}
    elif pick == 7:
        base["map"] = "mobtown2"
        base["phase"] = "1919-07-W1-M"
        base["units"] = {"capone": ["G DAN", "D DAN captive"], "lepke": ["D Xyz"]}
    else:
        base["centers"] = {"FRANCE": ["PAR", "NTH"], "ENGLAND": ["PAR"]}
    return base


def sample(seed: int, count: int) -> Iterator[str]:
    """``count`` batch input lines, about half of each map, a few mistakes among them."""
    rng = random.Random(seed)
    standard = games(Standard(load_map("standard"), random.Random(f"{seed}:standard")),
                     "standard", random.Random(f"{seed}:standard-games"), False, (10, 40))
    mobtown = games(Mobtown(load_map("mobtown2"), random.Random(f"{seed}:mobtown2")),
                    "mobtown2", random.Random(f"{seed}:mobtown2-games"), True, (20, 80))
    for n in range(count):
        roll = rng.random()
        if roll < 0.01:
            line = mistakes(rng, n)
            yield line if isinstance(line, str) else json.dumps(line)
        else:
            yield json.dumps(next(standard if roll < 0.505 else mobtown))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=10000)
    args = ap.parse_args(argv)
    for line in sample(args.seed, args.count):
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()
