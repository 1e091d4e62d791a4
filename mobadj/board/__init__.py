"""Maps: YAML map files loaded into the location graph the resolver asks.

``from mobadj.board import load_map`` -> :class:`GameMap`; ``check_map`` validates a file;
``map_names`` lists the maps a name can mean (``maps/`` and ``MOBADJ_MAPS``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from mobadj.board.findings import Finding, MapFileError
from mobadj.board.loader import load_map, map_dirs, map_names, map_path
from mobadj.board.locations import province_of
from mobadj.board.model import (
    AmbiguousNameError,
    GameMap,
    Power,
    Province,
    UnknownCoastError,
    UnknownNameError,
    close_matches,
    fold,
)
from mobadj.board.names import names_text, parse_power_names, renamed
from mobadj.board.yamlines import MAX_DIGITS, YamlError, load_data

if TYPE_CHECKING:
    from mobadj.board.balance import balance_lines
    from mobadj.board.check import inspect_map

_TOOLS = {"balance_lines": "mobadj.board.balance", "inspect_map": "mobadj.board.check"}
"""The map tools, which need networkx: imported when first asked for, so that adjudicating
never loads it."""


def __getattr__(name: str) -> object:
    if name in _TOOLS:
        return getattr(importlib.import_module(_TOOLS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MAX_DIGITS",
    "AmbiguousNameError",
    "Finding",
    "GameMap",
    "MapFileError",
    "Power",
    "Province",
    "UnknownCoastError",
    "UnknownNameError",
    "YamlError",
    "balance_lines",
    "close_matches",
    "fold",
    "inspect_map",
    "load_data",
    "load_map",
    "map_dirs",
    "map_names",
    "map_path",
    "names_text",
    "parse_power_names",
    "province_of",
    "renamed",
]
