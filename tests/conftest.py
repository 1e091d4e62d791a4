"""Every test session keeps its disk caches (maps, grammars: mobadj.diskcache; the board
pictures' layers: mobadj.render.raster) in directories of its own, never the user's ~/.cache;
the CLI processes the tests start inherit them."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _disk_caches(tmp_path_factory):
    names = ("MOBADJ_CACHE", "MOBADJ_RENDER_CACHE")
    old = {name: os.environ.get(name) for name in names}
    for name in names:
        os.environ[name] = str(tmp_path_factory.mktemp(name.lower()))
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
