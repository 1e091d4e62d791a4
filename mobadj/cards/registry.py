"""Games found by name (and alias): the judge, the terminal and ``--simulate`` look here."""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mobadj.cards.protocol import Bot, GameState

# name -> (state class, bot class), as "module:Class"; imported lazily so one broken game
# cannot break the others.
GAMES: dict[str, tuple[str, str]] = {
    name: (f"mobadj.cards.{name}.engine:{cls}State", f"mobadj.cards.{name}.bot:{cls}Bot")
    for name, cls in (
        ("micromob", "MicroMob"),
        ("miceheist", "MiceHeist"),
        ("irontriangle", "IronTriangle"),
        ("microcity", "MicroCity"),
    )
}
ALIASES: dict[str, str] = {
    "micro-mob": "micromob",
    "mice-heist": "miceheist",
    "iron-triangle": "irontriangle",
    "mobsters": "irontriangle",
    "micro-city": "microcity",
}


def canonical_name(name: str) -> str:
    """Registry name for ``name`` or an alias; raises KeyError listing the known games."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise KeyError(f"unknown game '{name}'; known games: {', '.join(sorted(GAMES))}")
    return key


@functools.cache
def _load(spec: str) -> type:
    """The class named by ``spec`` (imported once: the judge asks for it at every mail)."""
    module, attr = spec.split(":")
    return getattr(importlib.import_module(module), attr)


def game_class(name: str) -> type[GameState]:
    return _load(GAMES[canonical_name(name)][0])


def bot_class(name: str) -> type[Bot]:
    return _load(GAMES[canonical_name(name)][1])


DEFAULT_BOT_LEVEL = "standard"


def bot_levels(name: str) -> dict[str, type[Bot]]:
    """A game's bots by level name (its bot module's ``BOT_LEVELS``): "standard" is the
    default bot; "basic" the first one, kept so the two can be compared."""
    module = importlib.import_module(_bot_module(name))
    levels = getattr(module, "BOT_LEVELS", None)
    return dict(levels) if levels else {DEFAULT_BOT_LEVEL: bot_class(name)}


def bot_of_level(name: str, level: str) -> type[Bot]:
    """The game's bot of ``level`` (any case); raises KeyError naming the game's levels."""
    levels = bot_levels(name)
    key = level.strip().lower()
    if key not in levels:
        title = game_class(name).info.title
        raise KeyError(f"{title} has no bot level '{level}' (its levels: "
                       f"{', '.join(sorted(levels))})")
    return levels[key]


def _bot_module(name: str) -> str:
    return GAMES[canonical_name(name)][1].split(":")[0]
