"""Load a YAML map file into a :class:`GameMap`, collecting findings with line numbers.

``load_map("standard")`` finds ``maps/standard.yaml``; a path loads that file.  Loaded maps
are cached by resolved path, so every caller shares one read-only instance.  The builder
is tolerant: it skips what it cannot use, records a :class:`Finding` for it and goes on,
so ``mobadj map check`` can report every problem in one run.  :func:`load_map` raises
:class:`MapFileError` when any finding is an error.
"""

from __future__ import annotations

import os
from pathlib import Path

from mobadj import diskcache
from mobadj.board.findings import Finding, MapFileError
from mobadj.board.model import Edge, GameMap, Node, Power, Province, close_matches, fold
from mobadj.board.yamlines import LDict, LList, LStr, YamlError, as_bool, load_lines

TERRAINS = ("land", "coast", "sea", "water", "impassable", "gaol")
#: the ways an edge may go on every map; a map adds its variant's route kinds (``routes:``)
VIAS = ("plain", "highway", "junction", "diagonal")
_PACKAGE = Path(__file__).resolve().parents[1]
#: the maps that come with mobadj: the checkout's maps/ folder, which an installed mobadj
#: carries inside the package (setup.py)
MAPS_DIR = _PACKAGE / "maps" if (_PACKAGE / "maps").is_dir() else _PACKAGE.parent / "maps"

_CACHE: dict[str, GameMap] = {}


def map_dirs() -> list[Path]:
    """Where map names are looked up: the directories of ``MOBADJ_MAPS`` (separated like
    PATH), then the maps that come with mobadj."""
    extra = os.environ.get("MOBADJ_MAPS", "")
    return [Path(d) for d in extra.split(os.pathsep) if d] + [MAPS_DIR]


def map_names() -> list[str]:
    """The name of every map file in :func:`map_dirs` (``standard``, ``mobtown2``, ...)."""
    names: set[str] = set()
    for folder in map_dirs():  # listed directly: a glob costs a batch's start a millisecond
        try:
            names.update(n.removesuffix(".yaml") for n in os.listdir(folder)
                         if n.endswith(".yaml"))
        except OSError:  # a folder of MOBADJ_MAPS that is not there (or not a folder)
            continue
    return sorted(n for n in names if not n.endswith(".layout"))


def map_path(name_or_path: str | os.PathLike[str]) -> Path:
    """The file a map name or path refers to (``"standard"`` -> ``maps/standard.yaml``)."""
    text = os.fspath(name_or_path)
    path = Path(text)
    if path.suffix in (".yaml", ".yml") or path.is_file() or os.sep in text:
        return path
    for folder in map_dirs():
        found = folder / f"{text}.yaml"
        if found.is_file():
            return found
    return MAPS_DIR / f"{text}.yaml"


def load_map(name_or_path: str | os.PathLike[str]) -> GameMap:
    """Load (once) and return a map by name or path; raises MapFileError / FileNotFoundError."""
    path = map_path(name_or_path)
    key = str(path.resolve())
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    if not path.exists():
        known = map_names()
        wanted = os.fspath(name_or_path)
        raise FileNotFoundError(f"no map {wanted!r} (known maps: {', '.join(known)})")
    data = path.read_bytes()
    # a map that loaded without errors is kept on disk, named by its path, its text and the
    # code that reads it (mobadj.diskcache): the next process unpickles it instead
    digest = diskcache.fingerprint(str(path), data, _reader_source())
    game_map = diskcache.load("maps", digest)
    if not isinstance(game_map, GameMap):
        game_map, findings = _read_bytes(data, str(path))
        if game_map is None or any(f.severity == "error" for f in findings):
            raise MapFileError(str(path), findings)
        diskcache.store("maps", digest, game_map)
    _CACHE[key] = game_map
    return game_map


def _reader_source() -> bytes:
    """The code a cached map depends on: this module and the ones it builds maps with."""
    global _READER
    if _READER is None:
        _READER = diskcache.source_of(__name__, "mobadj.board.model", "mobadj.board.yamlines",
                                      "mobadj.board.findings", "mobadj.board.locations")
    return _READER


_READER: bytes | None = None


def read_map(path: str | os.PathLike[str]) -> tuple[GameMap | None, list[Finding]]:
    """Read a map file; returns the map (None if unusable) and every finding."""
    return _read_bytes(Path(path).read_bytes(), str(path))


def _read_bytes(data: bytes, source: str) -> tuple[GameMap | None, list[Finding]]:
    try:
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text
    except UnicodeDecodeError as exc:
        return None, [Finding(1, "yaml", f"not UTF-8 text: {exc.reason} at byte {exc.start}")]
    try:
        tree = load_lines(text)
    except YamlError as exc:
        return None, [Finding(exc.line, "yaml", f"not valid YAML: {exc.message}")]
    return MapBuilder(tree, source).build()


class MapBuilder:
    """Turns the line-annotated YAML tree into a GameMap, noting every problem."""

    def __init__(self, tree: object, source: str) -> None:
        self.tree = tree
        self.source = source
        self.findings: list[Finding] = []

    def note(self, line: int, kind: str, message: str, severity: str = "error") -> None:
        self.findings.append(Finding(line, kind, message, severity))

    # -- helpers ----------------------------------------------------------------------------
    def _mapping(self, value: object, line: int, what: str) -> LDict:
        if isinstance(value, LDict):
            for key, dup_line in value.duplicates:
                self.note(dup_line, "duplicate-id", f"{what}: {key!r} is defined twice "
                          f"(first on line {value.key_lines[key]})")
            return value
        if value is not None and not (isinstance(value, LStr) and value.null):
            self.note(getattr(value, "line", line), "schema", f"{what} must be a mapping")
        return LDict(line)

    def _list(self, value: object, line: int, what: str) -> LList:
        if isinstance(value, LList):
            return value
        if value is None or (isinstance(value, LStr) and value.null):
            return LList(line)
        if isinstance(value, LStr):  # a single item written without brackets
            out = LList(value.line)
            out.append(value)
            return out
        self.note(getattr(value, "line", line), "schema", f"{what} must be a list")
        return LList(line)

    def _str(self, value: object, line: int, what: str, default: str = "") -> str:
        if value is None or (isinstance(value, LStr) and value.null):
            return default
        if isinstance(value, LStr):
            return str(value)
        self.note(getattr(value, "line", line), "schema", f"{what} must be a plain value")
        return default

    def _bool(self, value: object, line: int, what: str) -> bool:
        if value is None:
            return False
        result = as_bool(value)
        if result is None:
            self.note(getattr(value, "line", line), "schema", f"{what} must be true or false")
            return False
        return result

    # -- the build --------------------------------------------------------------------------
    def build(self) -> tuple[GameMap | None, list[Finding]]:
        top = self._mapping(self.tree, 1, "the map file")
        name = self._str(top.get("name"), top.line_of("name"), "name") or Path(self.source).stem
        title = self._str(top.get("title"), top.line_of("title"), "title", name)
        calendar = self._str(top.get("calendar"), top.line_of("calendar"), "calendar", "standard")
        variant = self._str(top.get("variant"), top.line_of("variant"), "variant")
        self.case_sensitive = self._bool(
            top.get("case_sensitive_ids"), top.line_of("case_sensitive_ids"), "case_sensitive_ids"
        )
        kinds_raw = top.get("unit_kinds")
        if kinds_raw is None:
            self.unit_kinds = {"A": "Army", "F": "Fleet"}
        else:
            kinds = self._mapping(kinds_raw, top.line_of("unit_kinds"), "unit_kinds")
            self.unit_kinds = {k: self._str(v, kinds.line_of(k), f"unit kind {k}", k)
                               for k, v in kinds.items()}
        self.kinds_by_terrain = self._read_kinds_by_terrain(top)
        self.routes = self._read_routes(top)
        provinces_raw = self._mapping(top.get("provinces"), top.line_of("provinces"), "provinces")
        if not provinces_raw:
            self.note(top.line_of("provinces"), "schema", "the map has no provinces")
        powers_raw = self._mapping(top.get("powers"), top.line_of("powers"), "powers")

        self.provinces: dict[str, Province] = {}
        self.prov_adj: dict[str, tuple[LDict, int]] = {}
        for pid, entry in provinces_raw.items():
            self._read_province(pid, entry, provinces_raw.line_of(pid))
        self._check_names()
        self.powers: dict[str, Power] = {}
        self._power_lookup: dict[str, str] = {}
        for pid, entry in powers_raw.items():
            self._read_power_names(pid, entry, powers_raw.line_of(pid))
        nodes, graph_edges = self._build_graph()
        for pid, entry in powers_raw.items():
            self._read_power(pid, entry, powers_raw.line_of(pid))
        self._check_homes()
        extra = {k: v for k, v in top.items() if k not in _TOP_KEYS}
        game_map = GameMap(
            name=name, title=title, calendar=calendar, variant=variant,
            unit_kinds=self.unit_kinds,
            provinces=self.provinces, powers=self.powers, nodes=nodes, edges=graph_edges,
            case_sensitive_ids=self.case_sensitive, source=self.source, extra=extra,
            routes=self.routes,
        )
        self._check_starting_units(game_map)
        return game_map, self.findings

    def _read_routes(self, top: LDict) -> dict[str, str]:
        """``routes: {name: mark}``: the route kinds of the map's variant, each with the mark
        its orders write (an edge's ``via``, or a flag beside a ground link)."""
        raw = top.get("routes")
        if raw is None:
            return {}
        routes = self._mapping(raw, top.line_of("routes"), "routes")
        out: dict[str, str] = {}
        for name, mark in routes.items():
            if name in VIAS:
                self.note(routes.line_of(name), "schema",
                          f"routes: {name!r} is a way every map has; name the variant's own")
                continue
            out[str(name)] = self._str(mark, routes.line_of(name), f"route {name}", str(name))
        return out

    def _read_kinds_by_terrain(self, top: LDict) -> dict[str, frozenset[str]] | None:
        raw = top.get("kinds_by_terrain")
        if raw is None:
            return None
        table = self._mapping(raw, top.line_of("kinds_by_terrain"), "kinds_by_terrain")
        out: dict[str, frozenset[str]] = {}
        for terrain, kinds in table.items():
            line = table.line_of(terrain)
            if terrain not in TERRAINS:
                self.note(line, "schema", f"kinds_by_terrain: unknown terrain {terrain!r}")
            items = self._list(kinds, line, f"kinds_by_terrain.{terrain}")
            for k in items:
                if str(k) not in self.unit_kinds:
                    self.note(getattr(k, "line", line), "unknown-name",
                              f"kinds_by_terrain.{terrain}: unknown unit kind {str(k)!r}")
            out[terrain] = frozenset(str(k) for k in items)
        return out

    def _read_province(self, pid: str, entry: object, line: int) -> None:
        if "/" in pid or not pid.strip() or pid != pid.strip():
            self.note(line, "schema", f"province id {pid!r} must be a plain name without '/'")
            return
        data = self._mapping(entry, line, f"province {pid}")
        name = self._str(data.get("name"), data.line_of("name"), f"{pid}.name", pid)
        terrain = self._str(data.get("terrain"), data.line_of("terrain"), f"{pid}.terrain", "land")
        if terrain not in TERRAINS:
            self.note(data.line_of("terrain"), "schema",
                      f"{pid}: terrain {terrain!r} is not one of {', '.join(TERRAINS)}")
        supply = self._bool(data.get("supply"), data.line_of("supply"), f"{pid}.supply")
        home = self._str(data.get("home"), data.line_of("home"), f"{pid}.home") or None
        coasts = tuple(str(c).upper() for c in
                       self._list(data.get("coasts"), data.line_of("coasts"), f"{pid}.coasts"))
        aliases = tuple(str(a) for a in
                        self._list(data.get("aliases"), data.line_of("aliases"), f"{pid}.aliases"))
        self.provinces[pid] = Province(pid, name, terrain, supply, home, coasts, aliases, line)
        adj = self._mapping(data.get("adj"), data.line_of("adj"), f"{pid}.adj")
        self.prov_adj[pid] = (adj, data.line_of("adj"))
        if home is not None and not supply:
            self.note(data.line_of("home"), "home-not-supply",
                      f"{pid} is a home centre of {home} but not a supply centre")

    def _check_names(self) -> None:
        """Ids, aliases and full names must not collide (ids may differ by case only
        on maps that declare ``case_sensitive_ids: true``, as Mobtown's LOP and Lop)."""
        owners: dict[str, tuple[str, str, int]] = {}
        for pid, prov in self.provinces.items():
            spellings = [(pid, "id")] + [(a, "alias") for a in prov.aliases] + [(prov.name, "name")]
            for spelling, what in spellings:
                key = fold(spelling)
                if not key:
                    self.note(prov.line, "schema", f"{pid}: empty {what}")
                    continue
                if key in owners:
                    other, other_what, other_line = owners[key]
                    if other == pid:
                        continue
                    if what == "id" and other_what == "id" and self.case_sensitive and pid != other:
                        continue
                    self.note(prov.line, "duplicate-id",
                              f"{what} {spelling!r} of {pid} collides with the {other_what} of "
                              f"{other} (line {other_line})")
                    continue
                owners[key] = (pid, what, prov.line)
        self._case_map: dict[str, list[str]] = {}
        for pid in self.provinces:
            self._case_map.setdefault(pid.upper(), []).append(pid)

    def _resolve_location(self, text: str) -> str | None:
        """A location id exactly as written, or case-blind on case-insensitive maps."""
        prov, _, coast = text.partition("/")
        if prov not in self.provinces:
            if self.case_sensitive:
                return None
            cands = self._case_map.get(prov.upper(), [])
            if len(cands) != 1:
                return None
            prov = cands[0]
        if not coast:
            return prov
        coast = coast.upper()
        return f"{prov}/{coast}" if coast in self.provinces[prov].coasts else None

    def _did_you_mean(self, text: str) -> str:
        choices = list(self.provinces)
        close = close_matches(text.split("/")[0], choices, n=2, cutoff=0.5)
        if not close:
            upper = {c.upper(): c for c in choices}
            close = [upper[c] for c in close_matches(text.upper(), list(upper), n=2)]
        return f"; did you mean {' or '.join(close)}?" if close else ""

    def _build_graph(self) -> tuple[dict[str, Node], list[Edge]]:
        """The locations with their attributes, and the edges (GameMap.nodes and .edges)."""
        nodes: dict[str, Node] = {}
        occupy: dict[str, set[str]] = {}
        edges: list[tuple[str, str, str, dict[str, object], int]] = []
        for pid, prov in self.provinces.items():
            nodes[pid] = {"province": pid, "terrain": prov.terrain, "coast": None}
            for coast in prov.coasts:
                nodes[f"{pid}/{coast}"] = {"province": pid, "terrain": prov.terrain,
                                           "coast": coast}
        for pid, (adj, _adj_line) in self.prov_adj.items():
            prov = self.provinces[pid]
            for key, targets in adj.items():
                kline = adj.line_of(key)
                kind, _, coast = key.partition("/")
                if kind not in self.unit_kinds:
                    self.note(kline, "unknown-name", f"{pid}.adj: unknown unit kind {kind!r} "
                              f"(the map declares {', '.join(self.unit_kinds)})")
                    continue
                src = pid
                if coast:
                    coast = coast.upper()
                    if coast not in prov.coasts:
                        self.note(kline, "unknown-name",
                                  f"{pid}.adj: {key}: {pid} has no coast {coast!r}")
                        continue
                    src = f"{pid}/{coast}"
                self._check_terrain(pid, prov, kind, coast, kline)
                occupy.setdefault(src, set()).add(kind)
                for item in self._list(targets, kline, f"{pid}.adj.{key}"):
                    edge = self._read_edge(pid, key, item, kline)
                    if edge is not None:
                        dst_text, attrs, line = edge
                        edges.append((src, dst_text, kind, attrs, line))
        for loc, kinds in occupy.items():
            nodes[loc]["kinds"] = frozenset(kinds)
        self._occupied = set(occupy)
        self._check_coasts(occupy)
        return nodes, self._add_edges(edges, occupy)

    def _check_coasts(self, occupy: dict[str, set[str]]) -> None:
        """A declared coast with no adjacency list: no unit can ever stand on it."""
        for pid, prov in self.provinces.items():
            adj, adj_line = self.prov_adj[pid]
            for coast in prov.coasts:
                if f"{pid}/{coast}" in occupy:
                    continue
                kind = next((k for k in self.unit_kinds if k in (self.kinds_by_terrain or {})
                             .get("sea", ())), next(iter(self.unit_kinds), "F"))
                self.note(adj_line or prov.line, "dead-coast",
                          f"{pid}: coast {coast} is declared but has no adjacency, so no unit "
                          f"can stand on {pid}/{coast} (add '{kind}/{coast}: [...]' under "
                          f"{pid}'s adj)")

    def _check_terrain(self, pid: str, prov: Province, kind: str, coast: str, line: int) -> None:
        if prov.coasts and not coast and self.kinds_by_terrain is not None:
            sea_kinds = self.kinds_by_terrain.get("sea", frozenset())
            if kind in sea_kinds:
                self.note(line, "schema", f"{pid} has coasts {', '.join(prov.coasts)}: "
                          f"give {kind} adjacencies per coast ({kind}/{prov.coasts[0]}: ...)")
        if self.kinds_by_terrain is None or prov.terrain not in self.kinds_by_terrain:
            return
        if kind not in self.kinds_by_terrain[prov.terrain]:
            self.note(line, "impossible-unit", f"{pid}: {_a(self.unit_kinds[kind])} ({kind}) "
                      f"cannot stand on {prov.terrain} terrain, so it can have no adjacencies "
                      "there")

    def _read_edge(self, pid: str, key: str, item: object,
                   kline: int) -> tuple[str, dict[str, object], int] | None:
        if isinstance(item, LStr):
            return str(item), {"via": "plain"}, item.line
        if isinstance(item, LDict):
            to = item.get("to")
            if not isinstance(to, LStr) or to.null:
                self.note(item.line, "schema", f"{pid}.adj.{key}: an edge mapping needs 'to'")
                return None
            attrs: dict[str, object] = {"via": "plain"}
            for k, v in item.items():
                if k != "to":
                    attrs[k] = str(v) if isinstance(v, LStr) else v
            via = attrs["via"]
            if via not in VIAS and via not in self.routes:
                known = ", ".join((*VIAS, *self.routes))
                self.note(item.line_of("via"), "schema", f"{pid}.adj.{key}: via {via!r} is not "
                          f"one of {known} (a variant's own route kind is declared at the "
                          f"top of the map: routes: {{{via}: MARK}})")
            return str(to), attrs, item.line
        self.note(getattr(item, "line", kline), "schema",
                  f"{pid}.adj.{key}: an edge is a name or a mapping {{to: ..., via: ...}}")
        return None

    def _add_edges(self, edges: list[tuple[str, str, str, dict[str, object], int]],
                   occupy: dict[str, set[str]]) -> list[Edge]:
        resolved: dict[tuple[str, str, str], tuple[dict[str, object], int]] = {}
        out: list[Edge] = []
        keys: set[tuple[str, str, str]] = set()
        for src, dst_text, kind, attrs, line in edges:
            dst = self._resolve_location(dst_text)
            if dst is None:
                self.note(line, "dangling", f"{src}: {kind} adjacency to unknown location "
                          f"{dst_text!r}{self._did_you_mean(dst_text)}")
                continue
            if kind not in occupy.get(dst, ()):
                coasts = self.provinces[dst.split("/")[0]].coasts
                hint = (f" (name a coast: {', '.join(f'{dst}/{c}' for c in coasts)})"
                        if coasts and "/" not in dst else "")
                if "/" in dst and dst not in occupy:  # the root cause: a coast nothing touches
                    hint = f" (because {dst} has no adjacency list of its own: see above)"
                self.note(line, "dangling", f"{src}: {kind} adjacency to {dst}, where "
                          f"{_a(self.unit_kinds[kind])} cannot stand{hint}")
                continue
            if dst == src:
                self.note(line, "dangling", f"{src}: {kind} adjacency to itself")
                continue
            if (src, dst, kind) in resolved:
                self.note(line, "duplicate-id", f"{src}: {kind} adjacency to {dst} is listed twice "
                          f"(first on line {resolved[(src, dst, kind)][1]})", "warning")
                continue
            resolved[(src, dst, kind)] = (attrs, line)
            key = kind if (src, dst, kind) not in keys else f"{kind}:{attrs['via']}"
            keys.add((src, dst, key))
            out.append((src, dst, key, {"kind": kind, "line": line, **attrs}))
        for (src, dst, kind), (attrs, line) in resolved.items():
            back = resolved.get((dst, src, kind))
            if back is None:
                self.note(line, "asymmetric", f"{kind} adjacency {src} -> {dst} is not listed "
                          f"back from {dst} (add {src} to {dst}'s {kind} list)")
            elif back[0] != attrs and src < dst:
                self.note(line, "asymmetric", f"{kind} adjacency {src} -> {dst} has attributes "
                          f"{attrs} but {dst} -> {src} (line {back[1]}) has {back[0]}")
        return out

    def _read_power_names(self, pid: str, entry: object, line: int) -> None:
        data = self._mapping(entry, line, f"power {pid}")
        name = self._str(data.get("name"), data.line_of("name"), f"{pid}.name", pid.title())
        aliases = tuple(str(a) for a in
                        self._list(data.get("aliases"), data.line_of("aliases"), f"{pid}.aliases"))
        for spelling in (pid, name, *aliases):
            other = self._power_lookup.get(fold(spelling))
            if other is not None and other != pid:
                self.note(line, "duplicate-id",
                          f"power {pid}: {spelling!r} is also a name of {other}")
            self._power_lookup.setdefault(fold(spelling), pid)
        self.powers[pid] = Power(pid, name, aliases, line=line)

    def _read_power(self, pid: str, entry: object, line: int) -> None:
        data = entry if isinstance(entry, LDict) else LDict(line)
        colour = self._str(data.get("colour", data.get("color")), data.line_of("colour"), "colour")
        homes: list[str] = []
        for item in self._list(data.get("home"), data.line_of("home"), f"{pid}.home"):
            iline = getattr(item, "line", line)
            loc = self._resolve_location(str(item))
            if loc is None or "/" in loc:
                self.note(iline, "unknown-name", f"{pid}: home centre {str(item)!r} is not a "
                          f"province{self._did_you_mean(str(item))}")
                continue
            if not self.provinces[loc].supply_center:
                self.note(iline, "home-not-supply",
                          f"{pid}: home centre {loc} is not a supply centre (add 'supply: true')")
            homes.append(loc)
        units: list[tuple[str, str]] = []
        self._unit_lines: dict[tuple[str, str, str], int] = getattr(self, "_unit_lines", {})
        for item in self._list(data.get("units"), data.line_of("units"), f"{pid}.units"):
            iline = getattr(item, "line", line)
            parts = str(item).split()
            if len(parts) != 2:
                self.note(iline, "schema", f"{pid}: a unit is written 'KIND LOCATION', "
                          f"not {str(item)!r}")
                continue
            kind, where = parts
            if kind not in self.unit_kinds:
                self.note(iline, "unknown-name", f"{pid}: unknown unit kind {kind!r} in "
                          f"{str(item)!r} (the map declares {', '.join(self.unit_kinds)})")
                continue
            loc = self._resolve_location(where)
            if loc is None:
                self.note(iline, "unknown-name", f"{pid}: unit {str(item)!r} names an unknown "
                          f"location{self._did_you_mean(where)}")
                continue
            first = self._unit_lines.get((pid, kind, loc))
            if first is not None:
                where = "" if first == iline else f" (first on line {first})"
                self.note(iline, "duplicate-unit", f"{pid}: the unit {kind} {loc} is listed "
                          f"twice{where}")
                continue
            units.append((kind, loc))
            self._unit_lines[(pid, kind, loc)] = iline
        self.powers[pid] = Power(pid, self.powers[pid].name, self.powers[pid].aliases, colour,
                                 tuple(homes), tuple(units), line)

    def _check_homes(self) -> None:
        by_power: dict[str, set[str]] = {}
        for pid, prov in self.provinces.items():
            if prov.home_of is None:
                continue
            owner = self._power_lookup.get(fold(prov.home_of))
            if owner is None:
                self.note(prov.line, "unknown-name",
                          f"{pid}: home of unknown power {prov.home_of!r}")
                continue
            if owner != prov.home_of:
                self.provinces[pid] = Province(pid, prov.name, prov.terrain, prov.supply_center,
                                               owner, prov.coasts, prov.aliases, prov.line)
            by_power.setdefault(owner, set()).add(pid)
        for pid, power in self.powers.items():
            listed = set(power.home_centers)
            marked = by_power.get(pid, set())
            for home in sorted(listed - marked):
                other = self.provinces[home].home_of
                note = f" (it says home: {other})" if other else ""
                self.note(self.provinces[home].line, "home-mismatch",
                          f"{home} is listed as a home of {pid} but has no 'home: {pid}'{note}")
            for home in sorted(marked - listed):
                self.note(self.provinces[home].line, "home-mismatch",
                          f"{home} says 'home: {pid}' but {pid}'s home list lacks it")

    def _check_starting_units(self, game_map: GameMap) -> None:
        seen: dict[str, tuple[str, int]] = {}
        for (pid, kind, loc), line in getattr(self, "_unit_lines", {}).items():
            if not game_map.can_occupy(kind, loc):
                options = [x for x in game_map.locations(loc) if game_map.can_occupy(kind, x)]
                hint = f" (try {' or '.join(options)})" if options else ""
                if "/" in loc and loc not in self._occupied:
                    hint = f" (because {loc} has no adjacency list of its own: see above)"
                self.note(line, "impossible-unit", f"{pid}: {_a(self.unit_kinds[kind])} cannot "
                          f"stand on {loc}{hint}")
            prov = loc.split("/")[0]
            if prov in seen:
                self.note(line, "impossible-unit", f"{pid}: {kind} {loc} shares {prov} with the "
                          f"unit of {seen[prov][0]} on line {seen[prov][1]}")
            seen[prov] = (pid, line)


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "an Army", "a Fleet"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


_TOP_KEYS = {"name", "title", "calendar", "variant", "unit_kinds", "case_sensitive_ids",
             "kinds_by_terrain", "provinces", "powers", "routes"}
