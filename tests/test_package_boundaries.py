"""What crosses a package boundary: nothing private, and only what the package's ``__init__``
exports (its ``__all__``).  The packages are the folders of mobadj (board, orders, engine,
mobtown, judge, render, cli, web, cards) and its top-level modules (batch, ...); the tools
and benchmarks beside it may use no private name either."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mobadj"


def _package(path: Path) -> str:
    """The package a file belongs to: ``board`` for mobadj/board/x.py, ``batch`` for
    mobadj/batch.py, the top folder (tools, bench) outside mobadj."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[0] != "mobadj":
        return parts[0]
    return parts[1] if len(parts) > 1 else "mobadj"


def imports(folder: Path) -> Iterator[tuple[str, int, str, str, str]]:
    """(file, line, importing package, imported package, name) of every ``from mobadj...``
    import of a name that crosses a package boundary."""
    for path in sorted(folder.rglob("*.py")):
        here = _package(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            parts = node.module.split(".")
            if parts[0] != "mobadj" or len(parts) < 2 or parts[1] == here:
                continue
            for alias in node.names:
                yield str(path.relative_to(ROOT)), node.lineno, here, parts[1], alias.name


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@pytest.mark.parametrize("folder", ["mobadj", "tools", "bench"])
def test_no_private_name_crosses_a_package(folder):
    crossing = [f"{f}:{line}: {name} from mobadj.{pkg}"
                for f, line, _here, pkg, name in imports(ROOT / folder) if _private(name)]
    assert crossing == []


def test_what_crosses_a_package_is_what_its_init_exports():
    missing = []
    for f, line, _here, pkg, name in imports(PACKAGE):
        if not (PACKAGE / pkg).is_dir():
            continue  # a top-level module: its public names are its interface
        exported = getattr(importlib.import_module(f"mobadj.{pkg}"), "__all__", ())
        if name not in exported:
            missing.append(f"{f}:{line}: {name} (mobadj.{pkg}.__all__)")
    assert missing == []


def test_every_exported_name_is_there():
    for folder in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()):
        module = importlib.import_module(f"mobadj.{folder.name}")
        for name in getattr(module, "__all__", ()):
            assert hasattr(module, name), f"mobadj.{folder.name}.__all__ names {name}"
