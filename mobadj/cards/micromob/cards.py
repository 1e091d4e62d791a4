"""The micro mob deck: boss/goon cards and their ally powers, loaded from YAML.

The numbers live in ``mobadj/cards/data/micromob.yaml`` (authored, balanced by simulation;
a GM may transcribe a printed deck there).  This module only reads and checks that file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from mobadj.cards.protocol import DeckError

DATA = Path(__file__).resolve().parent.parent / "data" / "micromob.yaml"
MODULE_SIZE = 15  # rulebook: "Each module consists of 15 cards"

# The four groups of ally powers (rulebook, "ally powers").
STAT_BONUSES = ("hit_plus", "hire_plus", "ally_plus", "action_plus")
SPECIAL_ABILITIES = ("fatigue_to_hit", "ally_to_hit", "ally_to_hand", "rest", "expand", "swap")
ACTION_BONUSES = ("extra_hit", "extra_hire", "extra_ally", "extra_action")
SCORING_BONUSES = ("goon_bonus", "ally_bonus", "hit_bonus", "recolour")
POWERS = STAT_BONUSES + SPECIAL_ABILITIES + ACTION_BONUSES + SCORING_BONUSES

# The name of each power as players read it (the YAML's names are for the deck file).
POWER_NAME: dict[str, str] = {
    "hit_plus": "+1 to hit",
    "hire_plus": "+1 to hire",
    "ally_plus": "+1 to ally",
    "action_plus": "+1 to any take",
    "fatigue_to_hit": "fatigue to hits",
    "ally_to_hit": "ally to hits",
    "ally_to_hand": "ally to hand",
    "rest": "rest a goon",
    "expand": "add a city card",
    "swap": "swap with city",
    "extra_hit": "extra hit",
    "extra_hire": "extra hire",
    "extra_ally": "extra ally",
    "extra_action": "extra action",
    "goon_bonus": "+1 v.p. a goon",
    "ally_bonus": "+1 v.p. an ally",
    "hit_bonus": "+1 v.p. a hit",
    "recolour": "recolour a hit",
}

# One line per power, as shown to players (help, render, docs).
POWER_TEXT: dict[str, str] = {
    "hit_plus": "+1 to your total when you hit",
    "hire_plus": "+1 to your total when you hire",
    "ally_plus": "+1 to your total when you ally",
    "action_plus": "+1 to your total for any hit, hire or ally",
    "fatigue_to_hit": "once a turn: a goon from your fatigue area to your hit area",
    "ally_to_hit": "once a turn: a card from your ally area to your hit area",
    "ally_to_hand": "once a turn: a card from your ally area to your hand as a goon",
    "rest": "once a turn: a goon from your fatigue area back to your hand",
    "expand": ("once a turn: draw the top card of the pile into the city, a 5th card "
               "(a 7th with 4-6 players) and no more"),
    "swap": "once a turn: take a city card into your hand, put a goon from your hand in the city",
    "extra_hit": "after a hit, you may hit again",
    "extra_hire": "after a hire, you may hire again",
    "extra_ally": "after an ally, you may ally again",
    "extra_action": "after a hit, hire or ally, you may hit, hire or ally again",
    "goon_bonus": "game end: +1 v.p. per goon (hand and fatigue)",
    "ally_bonus": "game end: +1 v.p. per ally",
    "hit_bonus": "game end: +1 v.p. per card in your hit area, whatever its colour",
    "recolour": "game end: one card of your hit area does not match the kingpin's colour",
}

# Which power a special ability's target must come from (None: no target).
ABILITY_ZONE: dict[str, str | None] = {
    "fatigue_to_hit": "fatigue",
    "ally_to_hit": "allies",
    "ally_to_hand": "allies",
    "rest": "fatigue",
    "expand": None,
    "swap": "city",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One double-sided card: boss thresholds on one side, goon values on the other."""

    id: str
    name: str
    module: str
    colour: str
    boss_hit: int  # cost to hit, and the v.p. it scores in a hit area
    boss_hire: int
    boss_ally: int
    goon_hit: int
    goon_money: int
    goon_ally: int
    power: str

    def threshold(self, kind: str) -> int:
        """Boss-side number for ``kind`` (hit, hire, ally)."""
        return self.boss_hit if kind == "hit" else self.boss_hire if kind == "hire" else (
            self.boss_ally
        )

    def value(self, kind: str) -> int:
        """Goon-side number the goon adds when spent on ``kind``."""
        return self.goon_hit if kind == "hit" else self.goon_money if kind == "hire" else (
            self.goon_ally
        )


@dataclass(frozen=True)
class Deck:
    """All modules in file order; ``cards`` maps id -> card."""

    version: str
    colours: tuple[str, ...]
    modules: dict[str, tuple[Card, ...]]
    cards: dict[str, Card]


def _int(raw: object, where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise DeckError(f"{where}: expected a whole number >= 0, got {raw!r}")
    return raw


def parse_deck(data: dict) -> Deck:
    """Check and build a deck from the YAML mapping (clear errors, never a KeyError)."""
    if not isinstance(data, dict) or "modules" not in data:
        raise DeckError("deck file: expected a mapping with 'version', 'colours' and 'modules'")
    colours = tuple(data.get("colours") or ())
    modules: dict[str, tuple[Card, ...]] = {}
    cards: dict[str, Card] = {}
    for module, body in data["modules"].items():
        entries = (body or {}).get("cards") or []
        if len(entries) != MODULE_SIZE:
            raise DeckError(f"module {module}: {len(entries)} cards, expected {MODULE_SIZE}")
        built = []
        for raw in entries:
            cid = str(raw.get("id", "")).upper()
            where = f"module {module}, card {cid or '?'}"
            if not cid or cid in cards:
                raise DeckError(f"{where}: missing or duplicate id")
            if raw.get("colour") not in colours:
                raise DeckError(f"{where}: colour {raw.get('colour')!r} not in {colours}")
            if raw.get("power") not in POWERS:
                raise DeckError(f"{where}: unknown power {raw.get('power')!r}")
            boss, goon = raw.get("boss") or {}, raw.get("goon") or {}
            card = Card(
                id=cid,
                name=str(raw.get("name", cid)),
                module=str(module),
                colour=raw["colour"],
                boss_hit=_int(boss.get("hit"), f"{where} boss hit"),
                boss_hire=_int(boss.get("hire"), f"{where} boss hire"),
                boss_ally=_int(boss.get("ally"), f"{where} boss ally"),
                goon_hit=_int(goon.get("hit"), f"{where} goon hit"),
                goon_money=_int(goon.get("money"), f"{where} goon money"),
                goon_ally=_int(goon.get("ally"), f"{where} goon ally"),
                power=raw["power"],
            )
            cards[cid] = card
            built.append(card)
        modules[str(module)] = tuple(built)
    return Deck(str(data.get("version", "")), colours, modules, cards)


@cache
def load_deck(path: str | None = None) -> Deck:
    """The deck from ``path`` (default: the packaged micromob.yaml), read once."""
    with open(path or DATA, encoding="utf-8") as fh:
        return parse_deck(yaml.safe_load(fh))
