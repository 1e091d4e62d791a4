"""Render tests share the maps and layouts they draw (the disk caches are tests/conftest.py's)."""

from __future__ import annotations

import pytest

from mobadj.board.loader import load_map
from mobadj.render import load_layout


@pytest.fixture(scope="module")
def gm():
    """The Mobtown II map (the standard map's tests override it)."""
    return load_map("mobtown2")


@pytest.fixture(scope="module")
def layout():
    return load_layout("mobtown2")
