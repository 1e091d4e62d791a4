"""Which maps the engine can adjudicate: a registry from map name to map and rules.

A variant is data (its map YAML) plus a few rule overrides (a :class:`Rules` subclass).
The registry holds lazy ``"module:attribute"`` references so that importing the engine does
not import every variant.  Mobtown II registers itself with one line::

    VARIANTS["mobtown2"] = "mobadj.mobtown.rules:MobtownRules"

or at run time with :func:`register_variant`.
"""

from __future__ import annotations

import importlib
from typing import Any

from mobadj.engine.rules import Rules

#: map name -> Rules subclass, or a lazy "module:attribute" reference to one
VARIANTS: dict[str, type[Rules] | str] = {
    "standard": Rules,
    "mobtown2": "mobadj.mobtown.rules:MobtownRules",
}


class UnknownVariantError(LookupError):
    """A map name no variant is registered for."""

    def __str__(self) -> str:
        return f"unknown map {self.args[0]!r}; known maps: {', '.join(sorted(VARIANTS))}"


def register_variant(name: str, rules: type[Rules] | str) -> None:
    """Make ``name`` adjudicable with ``rules`` (a Rules subclass or "module:attribute")."""
    VARIANTS[name] = rules


def rules_class(name: str) -> type[Rules]:
    """The Rules class registered for a map name."""
    try:
        entry = VARIANTS[name]
    except KeyError:
        raise UnknownVariantError(name) from None
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        entry = getattr(importlib.import_module(module), attr)
        VARIANTS[name] = entry
    return entry


def load_variant(name: str, **options: Any) -> tuple[Any, Rules]:
    """The map and a Rules instance for a registered map name."""
    from mobadj.board.loader import load_map

    cls = rules_class(name)
    return load_map(name), cls(**options)
