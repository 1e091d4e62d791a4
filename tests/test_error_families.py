"""Every exception class of mobadj descends from one root, ``MobadjError``, through the family
of its layer (mobadj/errors.py), and keeps the built-in base callers already catch."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from mobadj import errors
from mobadj.errors import MobadjError

PACKAGE = Path(__file__).resolve().parents[1] / "mobadj"

#: the first part of a module's path below mobadj -> the family of its errors
FAMILY = {
    "board": errors.MapError,
    "orders": errors.OrdersError,
    "engine": errors.EngineError,
    "mobtown": errors.EngineError,
    "render": errors.RenderError,
    "batch": errors.BatchError,
    "cli": errors.CommandLineError,
    "judge": errors.JudgeServiceError,
    "web": errors.WebError,
    "cards": errors.CardGameError,
}


def exception_classes() -> list[tuple[str, type]]:
    """(module, class) of every class defined in mobadj that is an exception."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        names = [node.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.ClassDef)]
        if not names:
            continue
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        loaded = importlib.import_module(module.removesuffix(".__init__"))
        for name in names:
            cls = getattr(loaded, name, None)
            if isinstance(cls, type) and issubclass(cls, BaseException):
                found.append((loaded.__name__, cls))
    return found


def _layer(module: str) -> str:
    part = module.split(".")[1]
    return "batch" if part.startswith("batch") else part


CLASSES = exception_classes()


def test_there_are_exceptions_to_check() -> None:
    assert len(CLASSES) > 30


@pytest.mark.parametrize(("module", "cls"), CLASSES,
                         ids=[f"{m}.{c.__name__}" for m, c in CLASSES])
def test_each_exception_is_of_its_layers_family(module: str, cls: type) -> None:
    if module == "mobadj.errors":
        assert issubclass(cls, MobadjError)
        return
    assert issubclass(cls, FAMILY[_layer(module)]), f"{module}.{cls.__name__}"


def test_the_old_bases_still_catch() -> None:
    from mobadj.board.model import UnknownNameError
    from mobadj.engine import PositionError, UnknownVariantError
    from mobadj.orders.errors import OrderError

    assert issubclass(UnknownNameError, LookupError)
    assert issubclass(UnknownVariantError, LookupError)
    assert issubclass(PositionError, ValueError) and issubclass(OrderError, ValueError)
