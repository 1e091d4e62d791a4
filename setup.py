"""The optional compiled build: with ``MOBADJ_COMPILE=1`` the modules listed under
``[tool.mobadj] compiled`` in pyproject.toml are compiled to C extensions with mypyc.

Everything else is in pyproject.toml; without the variable this file adds nothing and mobadj
is pure Python.  ``make compiled`` builds in place (the sources stay beside the extensions,
which Python then prefers); ``MOBADJ_COMPILE=1 pip install --no-build-isolation .``, with mypy
installed, builds and installs a compiled mobadj.  Both builds behave the same: ``make test``
runs the suite in each (docs/performance.md, "The compiled build").
"""

import os
import tomllib
from pathlib import Path

from setuptools import setup

ext_modules = []
if os.environ.get("MOBADJ_COMPILE") == "1":
    from mypyc.build import mypycify

    here = Path(__file__).resolve().parent
    compiled = tomllib.loads((here / "pyproject.toml").read_text())["tool"]["mobadj"]["compiled"]
    ext_modules = mypycify(
        # mypy reads pyproject.toml's settings, which also name modules not compiled here
        ["--no-warn-unused-configs", *compiled],
        opt_level="3",
        group_name="mobadj.native",  # the shared library lives in the package
        target_dir="build/mypyc",  # the C it writes (make pure removes it)
    )

setup(ext_modules=ext_modules)
