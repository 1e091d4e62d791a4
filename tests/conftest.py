"""Every test session keeps its disk caches (maps, grammars: mobadj.diskcache; the board
pictures' layers: mobadj.render.raster) in directories of its own, never the user's ~/.cache;
the CLI processes the tests start inherit them."""

from __future__ import annotations

import logging
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


@pytest.fixture
def kept_logging():
    """The root logger's handlers and level put back after a test that sets logging up as
    a program does (``mobadj serve``, ``mobadj web``)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        if h not in handlers:
            root.removeHandler(h)
            h.close()
    for h in handlers:
        if h not in root.handlers:
            root.addHandler(h)
    root.setLevel(level)
