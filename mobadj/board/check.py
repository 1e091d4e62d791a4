"""The map checker behind ``mobadj map check``: every finding, with its line, plus a summary.

The loader already notes what it meets while reading (unknown names, dangling or
asymmetric adjacencies, duplicate ids, homes that are not centres, impossible units);
this module adds whole-graph checks (unreachable provinces) and the summary figures.
Variants add their own figures by extending :class:`MapReport` (e.g. Mobtown balance).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from mobadj.board.findings import Finding, cause_first
from mobadj.board.loader import read_map
from mobadj.board.locations import province_of
from mobadj.board.model import GameMap

NOT_REACHABLE_BY_DESIGN = ("impassable", "gaol")
"""Terrains that need not be connected to the rest of the board."""


@dataclass
class MapReport:
    """The outcome of checking one file: the map (None if unreadable) and all findings."""

    path: str
    game_map: GameMap | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    def summary_lines(self) -> list[str]:
        """Human figures: provinces by terrain, centres, powers with homes and units."""
        m = self.game_map
        if m is None:
            return [f"{self.path}: not readable as a map"]
        terrains = Counter(p.terrain for p in m.provinces.values())
        by_terrain = ", ".join(f"{n} {t}" for t, n in sorted(terrains.items()))
        homes = {c for p in m.powers.values() for c in p.home_centers}
        neutral = len(m.supply_centers - homes)
        lines = [
            f"map {m.name}: {m.title}",
            f"provinces: {len(m.provinces)} ({by_terrain}); locations: {m.graph.number_of_nodes()}",
            f"supply centres: {len(m.supply_centers)} ({len(homes)} home, {neutral} neutral)",
            f"powers: {len(m.powers)}",
        ]
        for pid, power in m.powers.items():
            units = ", ".join(f"{k} {loc}" for k, loc in power.starting_units)
            lines.append(f"  {pid} ({power.name}): home {', '.join(power.home_centers) or '-'}; "
                         f"units {units or '-'}")
        lines.append(f"{len(self.errors)} error(s), {len(self.warnings)} warning(s)")
        return lines


def inspect_map(path: str | os.PathLike[str]) -> MapReport:
    """Read and check a map file; never raises for problems inside the file."""
    game_map, findings = read_map(path)
    if game_map is not None:
        findings = findings + graph_findings(game_map) + variant_findings(game_map, path)
    findings.sort(key=cause_first)
    return MapReport(os.fspath(path), game_map, findings)


def check_map(path: str | os.PathLike[str]) -> list[Finding]:
    """All findings for a map file, root causes first (empty means the map is clean)."""
    return inspect_map(path).findings


_VARIANT_KEY = re.compile(r"^variant\s*:", re.MULTILINE)


def variant_findings(game_map: GameMap, path: str | os.PathLike[str]) -> list[Finding]:
    """The map's ``variant:`` if its rules cannot be imported (no such module or class, or
    no ``module:Class`` at all), as the adjudicator would refuse it."""
    if not game_map.variant:
        return []
    from mobadj.engine.variants import VariantError, rules_class

    try:
        rules_class(game_map)
    except VariantError as exc:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        found = _VARIANT_KEY.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        return [Finding(line, "variant", str(exc))]
    return []


def graph_findings(game_map: GameMap) -> list[Finding]:
    """Whole-graph checks: provinces outside the main strongly connected part."""
    graph: nx.DiGraph[str] = nx.DiGraph()
    relevant = [pid for pid, p in game_map.provinces.items()
                if p.terrain not in NOT_REACHABLE_BY_DESIGN]
    graph.add_nodes_from(relevant)
    for src, dst in game_map.graph.edges():
        a, b = province_of(src), province_of(dst)
        if a in graph and b in graph and a != b:
            graph.add_edge(a, b)
    if graph.number_of_nodes() < 2:
        return []
    parts = sorted(nx.strongly_connected_components(graph), key=len, reverse=True)
    main = parts[0]
    findings = []
    for pid in relevant:
        if pid in main:
            continue
        prov = game_map.provinces[pid]
        if graph.degree(pid) == 0:
            why = "it has no adjacencies at all"
        elif not any(p in main for p in graph.predecessors(pid)):
            why = "no unit can move into it from the rest of the board"
        else:
            why = "a unit that moves in cannot get back to the rest of the board"
        findings.append(Finding(prov.line, "unreachable", f"{pid} is unreachable: {why}"))
    return findings
