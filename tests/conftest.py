"""Every test session keeps its disk caches (maps, grammars: mobadj.diskcache) in a directory
of its own, never the user's ~/.cache; the CLI processes the tests start inherit it."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _disk_cache(tmp_path_factory):
    old = os.environ.get("MOBADJ_CACHE")
    os.environ["MOBADJ_CACHE"] = str(tmp_path_factory.mktemp("mobadj-cache"))
    yield
    if old is None:
        os.environ.pop("MOBADJ_CACHE", None)
    else:
        os.environ["MOBADJ_CACHE"] = old
