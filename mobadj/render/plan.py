"""Keep a rules map and its city plan in step (grid layouts such as Mobtown II).

The rules map's ``adj`` lists are meant to be exactly what the plan shows
(:func:`mobadj.render.geometry.derive_edges`).  :func:`plan_differences` says where they
disagree; :func:`adjacency_yaml` writes the ``adj`` block of each space in the map file's own
format, for a GM who redraws the city.
"""

from __future__ import annotations

import re

from mobadj.board import GameMap
from mobadj.render.geometry import Edge, derive_edges, plan_problems
from mobadj.render.layout import Layout

_BARE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_YAML_WORDS = {"yes", "no", "on", "off", "y", "n", "true", "false", "null"}


def _flag(value: object) -> bool:
    return str(value).lower() == "true"


def _first_kind(game_map: GameMap, kind: str | None) -> str:
    """``kind``, or the map's first unit kind (the one a city plan's adjacency is for)."""
    return kind if kind is not None else next(iter(game_map.unit_kinds), "")


def map_edges(game_map: GameMap, kind: str | None = None) -> dict[frozenset[str], Edge]:
    """The map's ``kind`` edges (default: its first unit kind's) as the plan would derive
    them (flags as booleans)."""
    kind = _first_kind(game_map, kind)
    out: dict[frozenset[str], Edge] = {}
    for src, dst, key, data in game_map.graph.edges(keys=True, data=True):
        if data.get("kind", key) != kind:
            continue
        attrs = {k: v for k, v in data.items() if k not in ("line", "kind")}
        for flag in ("diagonal", *game_map.routes):
            if flag in attrs:
                attrs[flag] = _flag(attrs[flag])
        out[frozenset((src, dst))] = attrs
    return out


def impassable_ids(game_map: GameMap) -> set[str]:
    return {pid for pid, p in game_map.provinces.items() if p.terrain == "impassable"}


def plan_differences(game_map: GameMap, layout: Layout, kind: str | None = None) -> list[str]:
    """Every disagreement between the map's adjacency and the plan (empty when in step)."""
    problems = plan_problems(layout, known=game_map.provinces)
    drawn, listed = layout.space_ids(), set(game_map.provinces)
    problems += [f"{sid} is in the map but not drawn in the plan" for sid in sorted(listed - drawn)]
    problems += [f"{sid} is drawn in the plan but not in the map" for sid in sorted(drawn - listed)]
    derived = derive_edges(layout, impassable=impassable_ids(game_map))
    have = map_edges(game_map, kind)
    for pair in sorted(set(derived) | set(have), key=sorted):
        a, b = sorted(pair)
        want, got = derived.get(pair), have.get(pair)
        if want == got:
            continue
        if got is None:
            problems.append(f"{a}-{b}: the plan shows {_describe(want)}, the map has no edge")
        elif want is None:
            problems.append(f"{a}-{b}: the map has {_describe(got)}, the plan shows none")
        else:
            problems.append(f"{a}-{b}: the map has {_describe(got)}, the plan shows "
                            f"{_describe(want)}")
    return problems


def _describe(edge: Edge | None) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in (edge or {}).items()) + "}"


def _q(text: str) -> str:
    if _BARE.fullmatch(text) and text.lower() not in _YAML_WORDS:
        return text
    return '"' + text.replace('"', '\\"') + '"'


def edge_entry(to: str, edge: Edge) -> str:
    """One adjacency entry in the map file's format (a bare id for a plain edge)."""
    if edge == {"via": "plain"}:
        return _q(to)
    parts = [f"to: {_q(to)}", f"via: {edge['via']}"]
    parts += [f"{key}: {value}" for key, value in edge.items()  # the road crossed
              if key not in ("to", "via") and isinstance(value, str)]
    if edge.get("diagonal"):
        parts.append("diagonal: true")
    parts += [f"{flag}: true" for flag, value in edge.items()  # a variant's route beside it
              if value is True and flag != "diagonal"]
    return "{" + ", ".join(parts) + "}"


def adjacency_yaml(game_map: GameMap, layout: Layout, kind: str | None = None) -> str:
    """The derived ``adj`` block of every space, in map order, ready to paste (``kind``:
    the unit kind it is for, default the map's first)."""
    kind = _first_kind(game_map, kind)
    derived = derive_edges(layout, impassable=impassable_ids(game_map))
    by_space: dict[str, list[tuple[str, Edge]]] = {}
    for pair, edge in derived.items():
        a, b = sorted(pair)
        by_space.setdefault(a, []).append((b, edge))
        by_space.setdefault(b, []).append((a, edge))
    lines = []
    for sid in game_map.provinces:
        entries = sorted(by_space.get(sid, []), key=lambda t: (t[1] != {"via": "plain"}, t[0]))
        lines.append(f"  {_q(sid)}:")
        if entries:
            lines.append(f"    adj:\n      {kind}:")
            lines.extend(f"        - {edge_entry(to, e)}" for to, e in entries)
    return "\n".join(lines) + "\n"
