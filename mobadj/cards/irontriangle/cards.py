"""The Iron Triangle deck, roles and board, loaded from YAML and checked once.

The rulebook prints no card texts; ``mobadj/cards/data/iron_triangle.yaml`` authors them (a GM
may transcribe a physical deck there).  Everything is turned into small frozen value types so
the engine never touches raw YAML.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "iron_triangle.yaml"

FEATURES = ("fast", "cheap", "good")
BACKS = {"cheap_fast": "Cheap and Fast", "fast_good": "Fast and Good",
         "good_cheap": "Good and Cheap"}
BACK_FEATURES = {"cheap_fast": ("cheap", "fast"), "fast_good": ("fast", "good"),
                 "good_cheap": ("good", "cheap")}
# words the command language reads as keywords: a card name must not contain them
RESERVED_WORDS = frozenset(
    ("fast", "cheap", "good", "want", "wants", "wanting", "for", "job", "hire", "offer", "say",
     "press", "pick", "accept", "choose", "reveal", "show", "player")
)
CONDITION_KINDS = ("most", "least", "balanced", "not_last", "ahead_of_half", "at_least")


class DeckError(ValueError):
    """The YAML deck is malformed (raised at load time, never during play)."""


@dataclass(frozen=True, slots=True)
class JobCard:
    """One job card: its job side (name, stars) and its offer side (price, days, modifier)."""

    index: int
    name: str
    stars: int
    back: str  # "pick two" category key, e.g. "cheap_fast"
    price: int
    days: int
    modifier: int

    @property
    def back_text(self) -> str:
        return BACKS[self.back]

    def offer_text(self) -> str:
        return f"{self.name} (${self.price}, {self.days}d, {self.modifier:+d}*)"


@dataclass(frozen=True, slots=True)
class Role:
    """A secret role: a condition on the final tracks and the Notoriety bonus it gives."""

    index: int
    name: str
    text: str
    condition: dict[str, Any]
    bonus: int


@dataclass(frozen=True, slots=True)
class Track:
    """A scoring track: spaces ``floor..last`` with Notoriety bands above them."""

    name: str
    start: int
    floor: int
    last: int
    band_starts: tuple[int, ...]
    band_values: tuple[int, ...]

    def notoriety(self, space: int) -> int:
        """The Notoriety value printed above ``space``."""
        return self.band_values[bisect.bisect_right(self.band_starts, space) - 1]


@dataclass(frozen=True, slots=True)
class Deck:
    """The whole authored data of one edition."""

    version: str
    cards: tuple[JobCard, ...]
    roles: tuple[Role, ...]
    money: Track
    quality: Track
    circles: int
    days: int
    by_name: dict[str, JobCard]  # normalized name -> card


    @property
    def finish(self) -> int:
        """Time track position of the finish space (0 = the starting circles)."""
        return self.days + 1

    def card_named(self, name: str) -> JobCard | None:
        card = self.by_name.get(name)  # canonical names are looked up at every step
        return card if card is not None else self.by_name.get(normalize(name))


def normalize(name: str) -> str:
    """Card names compare without case, spacing or punctuation differences."""
    return re.sub(r"[^a-z0-9]", "", name.lower().replace("’", "'"))


def _track(name: str, raw: dict[str, Any]) -> Track:
    bands = sorted((int(k), int(v)) for k, v in raw["notoriety"].items())
    floor = int(raw.get("floor", raw["start"]))
    if bands[0][0] > floor:
        raise DeckError(f"{name} track: Notoriety bands must start at space {floor}")
    return Track(name, int(raw["start"]), floor, int(raw["last"]),
                 tuple(b[0] for b in bands), tuple(b[1] for b in bands))


def parse_deck(raw: dict[str, Any]) -> Deck:
    """Build and check a :class:`Deck` from the YAML mapping."""
    cards = []
    seen: set[str] = set()
    for i, c in enumerate(raw["cards"]):
        card = JobCard(i, str(c["name"]), int(c["stars"]), str(c["back"]), int(c["price"]),
                       int(c["days"]), int(c["modifier"]))
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", card.name)}
        if words & RESERVED_WORDS or re.search(r"\bp\d+\b", card.name, re.I):
            raise DeckError(f"card name '{card.name}' uses a command word")
        if normalize(card.name) in seen:
            raise DeckError(f"duplicate card name '{card.name}'")
        if card.back not in BACKS or card.price < 0 or card.days < 1 or card.stars < 0:
            raise DeckError(f"card '{card.name}' has a bad back, price, days or stars")
        seen.add(normalize(card.name))
        cards.append(card)
    roles = []
    for i, r in enumerate(raw["roles"]):
        cond = dict(r["condition"])
        if len(cond) != 1 or next(iter(cond)) not in CONDITION_KINDS:
            raise DeckError(f"role '{r['name']}': unknown condition {cond}")
        roles.append(Role(i, str(r["name"]), str(r["text"]), cond, int(r["bonus"])))
    tracks = raw["tracks"]
    deck = Deck(
        version=str(raw["version"]),
        cards=tuple(cards),
        roles=tuple(roles),
        money=_track("money", tracks["money"]),
        quality=_track("quality", tracks["quality"]),
        circles=int(tracks["time"]["starting_circles"]),
        days=int(tracks["time"]["days"]),
        by_name={**{normalize(c.name): c for c in cards}, **{c.name: c for c in cards}},
    )
    if len(deck.roles) < deck.circles:
        raise DeckError("there must be a secret role for every starting circle")
    return deck


@cache
def load_deck(path: Path = DATA_FILE) -> Deck:
    """The deck in ``path`` (the authored one by default), parsed once per process."""
    with open(path, encoding="utf-8") as fh:
        return parse_deck(yaml.safe_load(fh))
