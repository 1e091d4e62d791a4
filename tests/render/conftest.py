"""Render tests use a disk cache of their own, never the user's ~/.cache."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _render_cache(tmp_path_factory):
    old = os.environ.get("MOBADJ_RENDER_CACHE")
    os.environ["MOBADJ_RENDER_CACHE"] = str(tmp_path_factory.mktemp("render-cache"))
    yield
    if old is None:
        os.environ.pop("MOBADJ_RENDER_CACHE", None)
    else:
        os.environ["MOBADJ_RENDER_CACHE"] = old
