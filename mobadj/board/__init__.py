"""Maps: YAML map files loaded into a networkx graph the resolver asks.

``from mobadj.board import load_map`` -> :class:`GameMap`; ``check_map`` validates a file.
"""

from mobadj.board.loader import load_map
from mobadj.board.model import GameMap, Power, Province, UnknownNameError, province_of

__all__ = ["GameMap", "Power", "Province", "UnknownNameError", "load_map", "province_of"]
