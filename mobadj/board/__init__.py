"""Maps: YAML map files loaded into the location graph the resolver asks.

``from mobadj.board import load_map`` -> :class:`GameMap`; ``check_map`` validates a file;
``map_names`` lists the maps a name can mean (``maps/`` and ``MOBADJ_MAPS``).
"""

from mobadj.board.findings import Finding, MapFileError
from mobadj.board.loader import load_map, map_dirs, map_names, map_path
from mobadj.board.model import GameMap, Power, Province, UnknownNameError, province_of

__all__ = [
    "Finding",
    "GameMap",
    "MapFileError",
    "Power",
    "Province",
    "UnknownNameError",
    "load_map",
    "map_dirs",
    "map_names",
    "map_path",
    "province_of",
]
