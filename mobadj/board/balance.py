"""Balance figures of a map: how far each power is from each neutral supply centre.

The Mobtown II board is a reconstruction (docs/mobtown-map.md), so its balance has to be
shown, not assumed.  For every power with home centres:

* the distance in moves from its nearest home centre to each neutral centre (every edge
  counts one move, highway crossings and subways included; nobody moves *through* a gaol
  or an impassable space);
* how many neutral centres lie within 1, 2 and 3 moves;
* whether its home centres lie together (each within 2 moves of another);
* its *directions of expansion*: the most routes from its home centres to different neutral
  centres within 3 moves that share no space on the way (a max-flow with unit capacity on
  every space).  A power that can only grow through one bottleneck scores 1.

:func:`balance_problems` states the criteria the tests hold the map to: homes that lie
together, at least three directions, and no power starved of nearby neutral centres.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx

from mobadj.board.model import GameMap, province_of

BLOCKING_TERRAIN = ("gaol", "impassable")
"""Spaces a route may end in but never pass through."""


@dataclass(frozen=True)
class PowerBalance:
    """The figures of one power (see the module docstring)."""

    power: str
    distances: dict[str, int]  # neutral centre -> moves (missing: unreachable)
    within: tuple[int, int, int]  # neutral centres within 1, 2, 3 moves
    directions: int
    nearest: tuple[str, ...]  # neutral centres no other power reaches sooner


def province_graph(game_map: GameMap) -> dict[str, set[str]]:
    """Province -> provinces one move away, by any unit kind, both ways as listed."""
    out: dict[str, set[str]] = {pid: set() for pid in game_map.provinces}
    for src, dst in game_map.graph.edges():
        a, b = province_of(src), province_of(dst)
        if a != b:
            out[a].add(b)
    return out


def _passable(game_map: GameMap, pid: str) -> bool:
    return game_map.provinces[pid].terrain not in BLOCKING_TERRAIN


def move_distances(game_map: GameMap, sources: Iterable[str],
                   adj: dict[str, set[str]] | None = None) -> dict[str, int]:
    """Fewest moves from any of ``sources`` to every reachable province."""
    adj = adj if adj is not None else province_graph(game_map)
    dist = {s: 0 for s in sources}
    queue = deque(dist)
    while queue:
        here = queue.popleft()
        if dist[here] and not _passable(game_map, here):
            continue
        for nxt in adj[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def neutral_centers(game_map: GameMap) -> list[str]:
    """Supply centres that are nobody's home, in map order."""
    homes = {c for p in game_map.powers.values() for c in p.home_centers}
    return [pid for pid in game_map.provinces if pid in game_map.supply_centers
            and pid not in homes]


def expansion_directions(game_map: GameMap, power: str, radius: int = 3,
                         adj: dict[str, set[str]] | None = None) -> int:
    """Space-disjoint routes from the power's homes to distinct neutral centres in ``radius``."""
    adj = adj if adj is not None else province_graph(game_map)
    homes = set(game_map.powers[power].home_centers)
    if not homes:
        return 0
    dist = move_distances(game_map, homes, adj)
    near = {p for p, d in dist.items() if d <= radius}
    targets = [n for n in neutral_centers(game_map) if n in near]
    flow: nx.DiGraph[object] = nx.DiGraph()
    for p in near:
        if p not in homes and _passable(game_map, p):
            flow.add_edge((p, "in"), (p, "out"), capacity=1)
    for p in near:
        tail = "source" if p in homes else (p, "out")
        if p not in homes and not _passable(game_map, p):
            continue
        for q in adj[p]:
            if q in near and q not in homes:
                flow.add_edge(tail, (q, "in"), capacity=1)
    for t in targets:
        flow.add_edge((t, "out"), "sink", capacity=1)
    if "source" not in flow or "sink" not in flow:
        return 0
    return int(nx.maximum_flow_value(flow, "source", "sink"))


def balance_report(game_map: GameMap, radius: int = 3) -> list[PowerBalance]:
    """The figures of every power that has home centres."""
    adj = province_graph(game_map)
    neutral = neutral_centers(game_map)
    dists = {pid: move_distances(game_map, p.home_centers, adj)
             for pid, p in game_map.powers.items() if p.home_centers}
    out = []
    for pid, dist in dists.items():
        d = {n: dist[n] for n in neutral if n in dist}
        one, two, three = (sum(1 for v in d.values() if v <= k) for k in (1, 2, 3))
        within = (one, two, three)
        nearest = tuple(n for n in neutral if n in d and all(
            d[n] <= other.get(n, 10**6) for other in dists.values()))
        out.append(PowerBalance(pid, d, within, expansion_directions(game_map, pid, radius, adj),
                                nearest))
    return out


def balance_problems(game_map: GameMap, min_directions: int = 3,
                     min_within2: int = 2, min_within3: int = 4) -> list[str]:
    """Which balance criteria the map misses (empty when balanced enough)."""
    problems = []
    adj = province_graph(game_map)
    for fig in balance_report(game_map):
        homes = list(game_map.powers[fig.power].home_centers)
        near = {h: move_distances(game_map, [h], adj) for h in homes}
        apart = [h for h in homes if not any(near[h].get(o, 99) <= 2 for o in homes if o != h)]
        if len(homes) > 1 and apart:
            problems.append(f"{fig.power}: home centre(s) {', '.join(apart)} lie apart "
                            f"from the other homes")
        if fig.directions < min_directions:
            problems.append(f"{fig.power}: only {fig.directions} direction(s) of expansion")
        if fig.within[1] < min_within2 or fig.within[2] < min_within3:
            problems.append(f"{fig.power}: starved: {fig.within[1]} neutral centre(s) within "
                            f"2 moves, {fig.within[2]} within 3")
    return problems


def balance_lines(game_map: GameMap) -> list[str]:
    """The figures as text for ``mobadj map check``: one table, then one line per power."""
    figures = balance_report(game_map)
    neutral = neutral_centers(game_map)
    if not figures or not neutral:
        return []
    width = max(len(n) for n in neutral) + 1
    name_w = max(len(f.power) for f in figures) + 1
    lines = ["balance: moves from each power's nearest home centre to each neutral centre",
             " " * name_w + "".join(f"{n:>{width}}" for n in neutral)]
    for f in figures:
        cells = "".join(f"{f.distances.get(n, '-'):>{width}}" for n in neutral)
        lines.append(f"{f.power:<{name_w}}{cells}")
    for f in figures:
        lines.append(f"  {f.power}: neutral centres within 1/2/3 moves: "
                     f"{f.within[0]}/{f.within[1]}/{f.within[2]}; directions of expansion: "
                     f"{f.directions}; nearest to: {', '.join(f.nearest) or '-'}")
    for problem in balance_problems(game_map):
        lines.append(f"  balance warning: {problem}")
    return lines
