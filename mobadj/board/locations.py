"""Location ids: a province (``PAR``) or a province's coast (``STP/NC``).

A module of its own because everything asks it, often: the optional compiled build compiles
it, so that compiled callers reach it without a Python call (docs/performance.md).
"""

from __future__ import annotations

from typing import Final

_PROVINCE: Final[dict[str, str]] = {}


def province_of(location: str) -> str:
    """The province part of a location id (``"STP/NC"`` -> ``"STP"``); memoised, because
    locations are few and the resolver asks often."""
    got = _PROVINCE.get(location)
    if got is None:
        got = _PROVINCE[location] = location.split("/", 1)[0]
    return got
