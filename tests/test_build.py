"""The two builds: pure Python, and the optional compiled build (setup.py, ``make compiled``).

``make test`` runs the suite once in each and says which with ``MOBADJ_BUILD``; these tests
check that the run really has the build it says, whole (never some modules compiled and
others stale or missing), and that what is compiled is type-checked strictly."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import mobadj

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
COMPILED = PYPROJECT["tool"]["mobadj"]["compiled"]


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _is_compiled(module: str) -> bool:
    origin = importlib.import_module(module).__file__
    assert origin is not None
    return not origin.endswith(".py")


def test_the_run_has_the_build_it_says_and_all_of_it() -> None:
    states = {_module(path): _is_compiled(_module(path)) for path in COMPILED}
    assert len(set(states.values())) == 1, f"a partial build: {states}"
    build = "compiled" if next(iter(states.values())) else "pure"
    assert mobadj.build() == build
    asked = os.environ.get("MOBADJ_BUILD")
    if asked is not None:  # make test says which build each run is for
        assert asked == build, f"MOBADJ_BUILD={asked} but the modules are {build}"


def test_the_compiled_modules_exist_and_are_checked_strictly() -> None:
    """mypyc compiles by the types: each compiled module is under mypy's --strict overrides."""
    strict = next(o["module"] for o in PYPROJECT["tool"]["mypy"]["overrides"]
                  if o.get("disallow_untyped_defs"))
    for path in COMPILED:
        assert (ROOT / path).is_file(), path
        module = _module(path)
        assert any(module == m or (m.endswith(".*") and module.startswith(m[:-1]))
                   for m in strict), f"{module} is compiled but not checked with --strict"


def test_the_version_says_which_build() -> None:
    proc = subprocess.run([sys.executable, "-m", "mobadj", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True)
    assert proc.stdout == f"mobadj, version {mobadj.__version__} ({mobadj.build()} build)\n"


def test_an_installed_mobadj_carries_its_maps(tmp_path: Path) -> None:
    """The package as a wheel holds it (setup.py's build of the Python files and their
    data): the maps and layouts come along, and it finds them without the checkout."""
    lib = tmp_path / "lib"
    subprocess.run([sys.executable, "setup.py", "--quiet", "build_py", "--build-lib", str(lib)],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    assert sorted(p.name for p in (lib / "mobadj" / "maps").iterdir()) == [
        "mobtown2.layout.yaml", "mobtown2.yaml", "standard.layout.yaml", "standard.yaml"]
    probe = (
        "import mobadj, mobadj.board.loader as loader\n"
        "from mobadj.board import load_map\n"
        "from mobadj.render.layout import load_layout\n"
        "print(mobadj.__file__, loader.MAPS_DIR, sep='\\n')\n"
        "for name in ('standard', 'mobtown2'):\n"
        "    print(name, len(load_map(name).provinces), type(load_layout(name)).__name__)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(lib), "MOBADJ_MAPS": ""}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    where, maps, standard, mobtown = proc.stdout.splitlines()
    assert where == str(lib / "mobadj" / "__init__.py")
    assert maps == str(lib / "mobadj" / "maps")
    assert standard == "standard 75 Layout" and mobtown.startswith("mobtown2 ")
