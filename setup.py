"""What pyproject.toml cannot say: the packages with the maps, and the optional compiled build.

- The packages are ``mobadj`` and its folders (data folders included), and ``mobadj.maps``,
  which is the checkout's top-level ``maps/`` folder: an installed mobadj carries its maps.
- The compiled build: with ``MOBADJ_COMPILE=1`` the modules listed under
  ``[tool.mobadj] compiled`` in pyproject.toml are compiled to C extensions with mypyc;
  without it mobadj is pure Python.  ``make compiled`` builds in place (the sources stay
  beside the extensions, which Python then prefers); ``MOBADJ_COMPILE=1 pip install
  --no-build-isolation --no-deps --force-reinstall .``, after ``pip install mypy .``,
  builds and installs a compiled mobadj.  Both builds behave the same: ``make test`` runs
  the suite in each (docs/performance.md, "The compiled build").
"""

import os
import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, setup

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

setup(
    packages=[*find_namespace_packages(include=["mobadj", "mobadj.*"]), "mobadj.maps"],
    package_dir={"mobadj.maps": "maps"},
    ext_modules=ext_modules,
)
