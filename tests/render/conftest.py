"""Render tests use a disk cache of their own, never the user's ~/.cache."""

from __future__ import annotations

import os

import pytest

from mobadj.board.loader import load_map
from mobadj.render import load_layout


@pytest.fixture(scope="session", autouse=True)
def _render_cache(tmp_path_factory):
    old = os.environ.get("MOBADJ_RENDER_CACHE")
    os.environ["MOBADJ_RENDER_CACHE"] = str(tmp_path_factory.mktemp("render-cache"))
    yield
    if old is None:
        os.environ.pop("MOBADJ_RENDER_CACHE", None)
    else:
        os.environ["MOBADJ_RENDER_CACHE"] = old


@pytest.fixture(scope="module")
def gm():
    """The Mobtown II map (the standard map's tests override it)."""
    return load_map("mobtown2")


@pytest.fixture(scope="module")
def layout():
    return load_layout("mobtown2")
