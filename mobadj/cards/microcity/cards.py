"""The Micro City card data, read once from ``mobadj/cards/data/micro_city.yaml``.

Cards are plain frozen records; effects stay as the YAML mappings (see the vocabulary at
the top of the data file) and are interpreted by :mod:`mobadj.cards.microcity.effects`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parent.parent / "data" / "micro_city.yaml"

MATERIALS: tuple[str, ...] = ("coal", "steel", "wood")
RESOURCES: tuple[str, ...] = ("coal", "steel", "wood", "money")
RES_INDEX: dict[str, int] = {r: i for i, r in enumerate(RESOURCES)}
MAX_RESOURCE = 5  # "You can never have more than 5 of any Resource."

Effect = dict[str, Any]


@dataclass(frozen=True, slots=True)
class QuarterSpec:
    """One Quarter printed on a District card: its type, Material and dice per side."""

    type: str  # industrial, commercial, residential, logistics, garden
    material: str | None
    dice: dict[str, tuple[int, ...]]  # side "A"/"B" -> die values allowing the advanced action


@dataclass(frozen=True, slots=True)
class District:
    """A district tile: its id, name and four quarters."""

    id: int
    name: str
    quarters: tuple[QuarterSpec, ...]  # top-left, top-right, bottom-left, bottom-right


@dataclass(frozen=True, slots=True)
class Project:
    """A project card: its die, its move and its basic and advanced effects."""

    id: str
    name: str
    die: int
    move: int
    basic: Effect
    advanced: Effect


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a building: its cost (coal, steel, wood, money) and its bonus."""

    cost: tuple[int, int, int, int]  # coal, steel, wood, money
    bonus: Effect | None = None


@dataclass(frozen=True, slots=True)
class BuildingSide:
    """One side of a building card: its stages, whether they are built in order, and its
    rounds."""

    name: str
    ordered: bool
    stages: tuple[Stage, ...]
    rounds: dict[str, int]


@dataclass(frozen=True, slots=True)
class Contract:
    """A seaport contract: its cost, its bonus and its victory points."""

    cost: tuple[int, int, int, int]
    bonus: Effect | None
    vp: int


@dataclass(frozen=True, slots=True)
class Seaport:
    """A seaport card: its dice and its contracts."""

    id: str
    name: str
    dice: dict[str, tuple[int, ...]]
    contracts: tuple[Contract, ...]


@dataclass(frozen=True, slots=True)
class GoalArea:
    """A goal area: its cost and its victory points."""

    cost: tuple[int, int, int, int]
    vp: int


@dataclass(frozen=True, slots=True)
class Advantage:
    """An advantage card: the condition that scores its victory points."""

    id: int
    condition: dict[str, Any]
    vp: int


@dataclass(frozen=True, slots=True)
class Deck:
    """Every card of the game as authored in the YAML file."""

    version: str
    districts: tuple[District, ...]
    logistics_districts: tuple[District, ...]
    garden_district: District
    logistics_actions: tuple[Effect, ...]
    garden_bonus: tuple[int, int, int, int]
    seaports: tuple[Seaport, ...]
    seaport_basic: dict[str, Effect]
    seaport_extra_rounds: int
    seaport_markers: int
    projects: tuple[Project, ...]
    x_project: Project
    basic_building: dict[str, BuildingSide]
    extended_rounds: dict[str, int]
    challenge: dict[str, BuildingSide]
    goals: tuple[tuple[GoalArea, ...], ...]
    advantages: tuple[Advantage, ...]
    competitive: dict[str, int]


def cost_tuple(mapping: dict[str, int] | None) -> tuple[int, int, int, int]:
    """A resource mapping as a (coal, steel, wood, money) tuple."""
    mapping = mapping or {}
    unknown = set(mapping) - set(RESOURCES)
    if unknown:
        raise ValueError(f"unknown resources {sorted(unknown)} in card data")
    return tuple(int(mapping.get(r, 0)) for r in RESOURCES)  # type: ignore[return-value]


def _district(raw: dict[str, Any]) -> District:
    quarters = []
    for q in raw["quarters"]:
        dice = {side: tuple(q.get(side, ())) for side in ("A", "B")}
        quarters.append(QuarterSpec(q["type"], q.get("material"), dice))
    if len(quarters) != 4:
        raise ValueError(f"District {raw['id']} must have 4 Quarters")
    return District(int(raw["id"]), raw["name"], tuple(quarters))


def _project(raw: dict[str, Any]) -> Project:
    return Project(
        str(raw["id"]), raw["name"], int(raw["die"]), int(raw["move"]), raw["basic"],
        raw["advanced"],
    )


def _side(name: str, raw: dict[str, Any], rounds: dict[str, int]) -> BuildingSide:
    stages = tuple(Stage(cost_tuple(s["cost"]), s.get("bonus")) for s in raw["stages"])
    return BuildingSide(name, bool(raw.get("ordered", False)), stages, dict(rounds))


@cache
def load_deck(path: str = str(DATA)) -> Deck:
    """Read and check the card data (cached: every game shares one immutable deck)."""
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    basic = raw["basic_building"]
    rounds = raw["basic_rounds"]
    return Deck(
        version=str(raw["deck_version"]),
        districts=tuple(_district(d) for d in raw["districts"]),
        logistics_districts=tuple(_district(d) for d in raw["logistics_districts"]),
        garden_district=_district(raw["garden_district"]),
        logistics_actions=tuple(raw["logistics_actions"]),
        garden_bonus=cost_tuple(raw["garden_bonus"]),
        seaports=tuple(
            Seaport(
                s["id"], s["name"], {"A": tuple(s["A"]), "B": tuple(s["B"])},
                tuple(
                    Contract(cost_tuple(c["cost"]), c.get("bonus"), int(c["vp"]))
                    for c in s["contracts"]
                ),
            )
            for s in raw["seaports"]
        ),
        seaport_basic=dict(raw["seaport_basic"]),
        seaport_extra_rounds=int(raw["seaport_extra_rounds"]),
        seaport_markers=int(raw["seaport_markers"]),
        projects=tuple(_project(p) for p in raw["projects"]),
        x_project=_project(raw["x_project"]),
        basic_building={
            side: _side(basic["name"], basic[side], rounds[side]) for side in "AB"
        },
        extended_rounds=dict(raw["extended_rounds"]),
        challenge={
            b["id"]: _side(b["name"], b, b["rounds"]) for b in raw["challenge_buildings"]
        },
        goals=tuple(
            tuple(GoalArea(cost_tuple(a["cost"]), int(a["vp"])) for a in g["areas"])
            for g in raw["goals"]
        ),
        advantages=tuple(
            Advantage(int(a["id"]), dict(a["condition"]), int(a["vp"])) for a in raw["advantages"]
        ),
        competitive={k: int(v) for k, v in raw["competitive"].items()},
    )
