"""The seam between the engine and its variants: the front ends (judge, renderer, CLI, batch,
game pages) ask the registry and never name a variant, in code, in the modules they import or
in the pages' templates."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from mobadj.engine import Rules, known_maps, rules_class

PACKAGE = Path(__file__).resolve().parents[2] / "mobadj"
FRONT_ENDS = ("judge", "render", "cli", "web", "batch")


def variant_words() -> set[str]:
    """Every name a variant is known by: its map, its aliases, the package of its hooks."""
    words = set()
    for name in known_maps():
        cls = rules_class(name)
        if cls is Rules:
            continue
        words.add(name.lower())
        words.update(alias.lower() for alias in cls.aliases)
        words.add(cls.__module__.rsplit(".", 1)[0])
    return words


def code_strings(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string in the code and every module it imports; docstrings
    (prose for people) are left out."""
    tree = ast.parse(source)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs:
                yield node.lineno, node.value
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)


def front_end_files() -> Iterator[Path]:
    for part in FRONT_ENDS:
        path = PACKAGE / part
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_the_registry_knows_a_variant_to_look_for():
    words = variant_words()
    assert {"mobtown2", "mobadj.mobtown"} <= words
    found = [text for _, text in code_strings('"""mobtown2 in prose"""\nx = "mobtown2"\n'
                                              "import mobadj.mobtown.rules\n")]
    assert sorted(found) == ["mobadj.mobtown.rules", "mobtown2"]


def test_no_front_end_names_a_variant():
    words = variant_words()
    named = [f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
             for path in front_end_files()
             for line, text in code_strings(path.read_text(encoding="utf-8"))
             if any(word in text.lower() for word in words)]
    named += [f"{path.relative_to(PACKAGE.parent)}:{line}: {text.strip()!r}"  # the pages' HTML
              for path in sorted((PACKAGE / "web" / "templates").glob("*.html"))
              for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if any(word in text.lower() for word in words)]
    assert not named, "front ends must ask the registry (mobadj.engine.variants):\n" + "\n".join(
        named)


def _module_imports(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports at load time (imports inside functions
    and under TYPE_CHECKING are left out: they make no cycle when the package loads)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / package).glob("*.py")):
        name = f"mobadj.{package}.{path.stem}".removesuffix(".__init__")
        deps: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            deps.update(t for t in targets if t.startswith(f"mobadj.{package}."))
        graph[name] = deps - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return [*stack[stack.index(dep):], dep]
            if dep not in state and (found := visit(dep)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_no_import_cycle_inside_the_engine_or_mobtown():
    for package in ("engine", "mobtown"):
        graph = _module_imports(package)
        assert graph, package
        assert _cycle(graph) == [], f"mobadj/{package} imports itself in a circle"
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]  # the check itself works


def test_the_core_knows_route_tags_not_subways():
    """Mobtown's subways are its own extension: the engine and the order grammar know that a
    move may carry a variant's route tag (and an escort), never the word "subway"."""
    core = [path for folder in ("engine", "orders")
            for path in sorted((PACKAGE / folder).rglob("*.py"))]
    found = [f"{path.name}:{line}: {text!r}" for path in core
             for line, text in code_strings(path.read_text(encoding="utf-8"))
             if "subway" in text.lower()]
    assert found == []
    grammar = (PACKAGE / "orders" / "grammar.lark").read_text(encoding="utf-8")
    assert "SUBWAY" not in grammar and "subway" not in grammar.lower()
