"""Balance figures of a map: how far each power is from each neutral supply centre.

The Mobtown II board is a reconstruction (docs/mobtown-map.md), so its balance has to be
shown, not assumed.  For every power with home centres:

* the distance in moves from its nearest home centre to each neutral centre.  Every edge is
  one move, except that a highway crossing where no junction is marked counts as
  ``crossing_moves`` (Mobtown II: two, since rule 4 makes it need an extra support; a subway
  passes under the highway and counts one).  Nobody moves *through* a gaol or an impassable
  space;
* the sum of those distances (its *total*) and how far that lies from the mean of all powers;
* how many neutral centres lie within 1, 2 and 3 moves;
* its *directions of expansion*: the most routes from its home centres to different neutral
  centres within 3 moves that share no space on the way (a max-flow with unit capacity on
  every space).  A power that can only grow through one bottleneck scores 1.

:func:`balance_problems` states the criteria a map is held to: :class:`BalanceBounds`, read
from the map file's optional ``balance:`` key (Mobtown II sets its own there), defaults
otherwise.  :func:`balance_lines` is what ``mobadj map check`` prints.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import networkx as nx

from mobadj.board.locations import province_of
from mobadj.board.model import GameMap
from mobadj.errors import MapError

BLOCKING_TERRAIN = ("gaol", "impassable")
"""Spaces a route may end in but never pass through."""

Costs = Mapping[str, Mapping[str, int]]  # province -> {neighbour: moves}


class BalanceError(MapError, ValueError):
    """A map file's ``balance:`` key that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class BalanceBounds:
    """What a map's balance is held to; a map file may set any field under ``balance:``."""

    crossing_moves: int = 1  # what a highway crossing without a junction costs, in moves
    min_directions: int = 3
    min_within_two: int = 2
    max_within_two: int | None = None
    min_within_three: int = 4
    total_tolerance: float | None = None  # each total within this fraction of the mean

    @classmethod
    def of(cls, game_map: GameMap) -> BalanceBounds:
        """The bounds the map file declares (its ``balance:`` mapping), defaults otherwise."""
        raw = game_map.extra.get("balance") or {}
        if not isinstance(raw, Mapping):
            raise BalanceError(f"{game_map.source}: balance: expected a mapping of bounds, "
                               f"got {raw!r}")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            key = str(key)
            if key not in known:
                raise BalanceError(f"{game_map.source}: balance: unknown key {key!r}; "
                                   f"expected one of {', '.join(sorted(known))}")
            kind = float if key == "total_tolerance" else int
            try:
                values[key] = kind(value)
            except (TypeError, ValueError):
                raise BalanceError(f"{game_map.source}: balance.{key}: expected "
                                   f"{'a number' if kind is float else 'a whole number'}, "
                                   f"got {value!r}") from None
        return cls(**values)


@dataclass(frozen=True)
class PowerBalance:
    """The figures of one power (see the module docstring)."""

    power: str
    distances: dict[str, int]  # neutral centre -> moves (missing: unreachable)
    within: tuple[int, int, int]  # neutral centres within 1, 2, 3 moves
    directions: int
    nearest: tuple[str, ...]  # neutral centres no other power reaches sooner

    @property
    def total(self) -> int:
        """The sum of the distances to every reachable neutral centre."""
        return sum(self.distances.values())


def move_cost(edge: Mapping[str, object], crossing_moves: int) -> int:
    """Moves one edge costs: a highway crossing without junction (and no subway under it)
    costs ``crossing_moves``, anything else one."""
    crossing = edge.get("via") == "highway" and str(edge.get("subway")).lower() != "true"
    return crossing_moves if crossing else 1


def province_costs(game_map: GameMap, crossing_moves: int = 1) -> dict[str, dict[str, int]]:
    """Province -> {province one edge away: fewest moves that edge costs}, any unit kind."""
    out: dict[str, dict[str, int]] = {pid: {} for pid in game_map.provinces}
    for src, dst, data in game_map.graph.edges(data=True):
        a, b = province_of(src), province_of(dst)
        if a != b:
            cost = move_cost(data, crossing_moves)
            out[a][b] = min(cost, out[a].get(b, cost))
    return out


def province_graph(game_map: GameMap) -> dict[str, set[str]]:
    """Province -> provinces one move away, by any unit kind, both ways as listed."""
    return {pid: set(n) for pid, n in province_costs(game_map).items()}


def _passable(game_map: GameMap, pid: str) -> bool:
    return game_map.provinces[pid].terrain not in BLOCKING_TERRAIN


def move_distances(game_map: GameMap, sources: Iterable[str],
                   adj: Costs | Mapping[str, Iterable[str]] | None = None) -> dict[str, int]:
    """Fewest moves from any of ``sources`` to every reachable province.  ``adj`` maps each
    province to its neighbours, either with their costs or as a plain set (one move each)."""
    adj = adj if adj is not None else province_costs(game_map)
    dist = {s: 0 for s in sources}
    queue = [(0, s) for s in dist]
    while queue:
        d, here = heapq.heappop(queue)
        if d > dist[here] or (d and not _passable(game_map, here)):
            continue
        nbrs = adj[here]
        for nxt in nbrs:
            step = nbrs[nxt] if isinstance(nbrs, Mapping) else 1
            if d + step < dist.get(nxt, d + step + 1):
                dist[nxt] = d + step
                heapq.heappush(queue, (d + step, nxt))
    return dist


def neutral_centers(game_map: GameMap) -> list[str]:
    """Supply centres that are nobody's home, in map order."""
    homes = {c for p in game_map.powers.values() for c in p.home_centers}
    return [pid for pid in game_map.provinces if pid in game_map.supply_centers
            and pid not in homes]


def expansion_directions(game_map: GameMap, power: str, radius: int = 3,
                         adj: Costs | None = None) -> int:
    """Space-disjoint routes from the power's homes to distinct neutral centres in ``radius``."""
    adj = adj if adj is not None else province_costs(game_map)
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


def balance_report(game_map: GameMap, radius: int = 3,
                   bounds: BalanceBounds | None = None) -> list[PowerBalance]:
    """The figures of every power that has home centres."""
    bounds = bounds or BalanceBounds.of(game_map)
    adj = province_costs(game_map, bounds.crossing_moves)
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


def mean_total(figures: list[PowerBalance]) -> float:
    """The mean of the powers' totals (0 when there are none)."""
    return sum(f.total for f in figures) / len(figures) if figures else 0.0


def balance_problems(game_map: GameMap, bounds: BalanceBounds | None = None) -> list[str]:
    """Which balance criteria the map misses (empty when balanced enough)."""
    bounds = bounds or BalanceBounds.of(game_map)
    problems = []
    adj = province_graph(game_map)
    figures = balance_report(game_map, bounds=bounds)
    mean = mean_total(figures)
    for fig in figures:
        homes = list(game_map.powers[fig.power].home_centers)
        near = {h: move_distances(game_map, [h], adj) for h in homes}
        apart = [h for h in homes if not any(near[h].get(o, 99) <= 2 for o in homes if o != h)]
        if len(homes) > 1 and apart:
            problems.append(f"{fig.power}: home centre(s) {', '.join(apart)} lie apart "
                            f"from the other homes")
        if fig.directions < bounds.min_directions:
            problems.append(f"{fig.power}: only {fig.directions} direction(s) of expansion")
        if fig.within[1] < bounds.min_within_two or fig.within[2] < bounds.min_within_three:
            problems.append(f"{fig.power}: starved: {fig.within[1]} neutral centre(s) within "
                            f"2 moves, {fig.within[2]} within 3")
        if bounds.max_within_two is not None and fig.within[1] > bounds.max_within_two:
            problems.append(f"{fig.power}: {fig.within[1]} neutral centres within 2 moves, "
                            f"more than {bounds.max_within_two}")
        tol = bounds.total_tolerance
        if tol is not None and mean and abs(fig.total - mean) > tol * mean:
            problems.append(f"{fig.power}: distance total {fig.total} is "
                            f"{_percent(fig.total, mean)} from the mean {mean:.1f} "
                            f"(allowed {tol:.0%})")
    return problems


def _percent(total: int, mean: float) -> str:
    return f"{100 * (total - mean) / mean:+.1f}%" if mean else "-"


def balance_lines(game_map: GameMap) -> list[str]:
    """The figures as text for ``mobadj map check``: one table, then one line per power."""
    try:
        bounds = BalanceBounds.of(game_map)
    except BalanceError as exc:
        return [f"balance warning: {exc}"]
    figures = balance_report(game_map, bounds=bounds)
    neutral = neutral_centers(game_map)
    if not figures or not neutral:
        return []
    width = max(len(n) for n in neutral) + 1
    name_w = max(len(f.power) for f in figures) + 1
    mean = mean_total(figures)
    head = "balance: moves from each power's nearest home centre to each neutral centre"
    if bounds.crossing_moves != 1:
        head += f" (a highway crossing without a junction counts {bounds.crossing_moves})"
    lines = [head, " " * name_w + "".join(f"{n:>{width}}" for n in neutral)
             + "  total  vs mean"]
    for f in figures:
        cells = "".join(f"{f.distances.get(n, '-'):>{width}}" for n in neutral)
        lines.append(f"{f.power:<{name_w}}{cells}  {f.total:>5}  {_percent(f.total, mean):>7}")
    lines.append(f"{'mean':<{name_w}}{'':>{width * len(neutral)}}  {mean:>5.1f}")
    for f in figures:
        lines.append(f"  {f.power}: neutral centres within 1/2/3 moves: "
                     f"{f.within[0]}/{f.within[1]}/{f.within[2]}; directions of expansion: "
                     f"{f.directions}; nearest to: {', '.join(f.nearest) or '-'}")
    lines.append("  bounds: " + _describe(bounds))
    for problem in balance_problems(game_map, bounds):
        lines.append(f"  balance warning: {problem}")
    return lines


def _describe(bounds: BalanceBounds) -> str:
    within2 = (f"{bounds.min_within_two} to {bounds.max_within_two}"
               if bounds.max_within_two is not None else f"at least {bounds.min_within_two}")
    parts = [f"{within2} neutral centres within 2 moves",
             f"at least {bounds.min_within_three} within 3",
             f"at least {bounds.min_directions} directions"]
    if bounds.total_tolerance is not None:
        parts.append(f"totals within {bounds.total_tolerance:.0%} of the mean")
    return "; ".join(parts)
