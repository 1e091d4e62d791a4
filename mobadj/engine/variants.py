"""Which rules a map is played by: the one registry every front end asks.

A variant is data plus one module of hooks.  Its map file names the module and the
:class:`~mobadj.engine.rules.Rules` subclass in it::

    name: mobtown2
    variant: mobadj.mobtown.rules:MobtownRules

A map without ``variant:`` is played by the standard rules.  The classes are imported only
when a map asks for them, so importing the engine imports no variant.  Known maps are the map
files (docs/maps.md: ``maps/`` and the directories in ``MOBADJ_MAPS``); a variant's
``aliases`` are other names for its map.  :func:`register_variant` puts rules on a map name
at run time (tests, tools).
"""

from __future__ import annotations

import functools
import importlib
import os
import re
from typing import TYPE_CHECKING, Any

from mobadj.engine.rules import Rules
from mobadj.errors import EngineError

if TYPE_CHECKING:
    from mobadj.board import GameMap

#: map name -> Rules subclass put there at run time (it wins over the map file)
_REGISTERED: dict[str, type[Rules]] = {}


class UnknownVariantError(EngineError, LookupError):
    """A map name no map file or variant is known by; ``known``: the maps known when it
    was looked for (None: the maps known when the message is made)."""

    def __init__(self, name: str, known: list[str] | None = None) -> None:
        super().__init__(name)
        self.known = known

    def __str__(self) -> str:
        known = known_maps() if self.known is None else self.known
        return f"unknown map {self.args[0]!r}; known maps: {', '.join(known)}"


class VariantError(EngineError, ValueError):
    """A map file whose ``variant:`` cannot be used (no such module or class), or a variant
    hook's answer the engine cannot use (mobadj.engine.hooks: a number that is not whole)."""


def register_variant(name: str, rules: type[Rules]) -> None:
    """Play the map ``name`` by ``rules`` (a Rules subclass), whatever its map file says."""
    _REGISTERED[name] = rules
    default_rules.cache_clear()


def known_maps() -> list[str]:
    """The names of every map file that can be played, sorted."""
    from mobadj.board import map_names

    return sorted(set(map_names()) | set(_REGISTERED))


def canonical_name(name: str) -> str:
    """The map a name means: a map file's name, or one of a variant's ``aliases``; raises
    :class:`UnknownVariantError`."""
    key = name.strip()
    maps = known_maps()
    if key in maps:
        return key
    for candidate in maps:
        try:
            aliases = rules_class(candidate).aliases
        except ValueError:  # a map file with errors (MapFileError, VariantError) has no
            continue  # aliases to offer: it is named only when asked for by its own name
        if key.lower() in (a.lower() for a in aliases):
            return candidate
    raise UnknownVariantError(name, maps)


_REFERENCE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*)?", re.ASCII)
"""``package.module:Class`` (or only the module: its class ``Rules``)."""


@functools.cache
def _import(reference: str) -> type[Rules]:
    if not _REFERENCE.fullmatch(reference):
        raise VariantError(f"variant {reference!r} cannot be loaded: expected module:Class, "
                           "e.g. mobadj.mobtown.rules:MobtownRules")
    module, _, attr = reference.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr or "Rules")
    except (ImportError, AttributeError, TypeError, SyntaxError) as exc:  # (TypeError: a
        # bad option(); SyntaxError: its file, line and what, as Python words it)
        raise VariantError(f"variant {reference!r} cannot be loaded: {exc}") from None
    except Exception as exc:  # the variant's own module failed as it was run: say how
        raise VariantError(f"variant {reference!r} cannot be loaded: its module raised "
                           f"{type(exc).__name__}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Rules)):
        raise VariantError(f"variant {reference!r} is not a mobadj.engine.rules.Rules class")
    return cls


def rules_class(map_or_name: GameMap | str) -> type[Rules]:
    """The Rules class of a map (a loaded map, or a map name); raises
    :class:`UnknownVariantError` for a name no map file has."""
    if isinstance(map_or_name, str):
        name = map_or_name
        if name in _REGISTERED:
            return _REGISTERED[name]
        if os.sep in name or name.endswith((".yaml", ".yml")):
            return rules_class(_load(name))
        if name not in known_maps():
            raise UnknownVariantError(name)
        return rules_class(_load(name))
    if map_or_name.name in _REGISTERED:
        return _REGISTERED[map_or_name.name]
    return _import(map_or_name.variant) if map_or_name.variant else Rules


def _load(name: str) -> GameMap:
    from mobadj.board import load_map

    return load_map(name)


@functools.lru_cache(maxsize=32)
def default_rules(game_map: GameMap) -> Rules:
    """The map's rules with every option at its default (shared: treat it as read-only)."""
    return rules_class(game_map)()


def load_variant(name: str, **options: Any) -> tuple[GameMap, Rules]:
    """The map and a Rules instance for a known map name (or alias)."""
    game_map = _load(canonical_name(name))
    return game_map, rules_class(game_map)(**options)
