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


def code_names(source: str) -> Iterator[tuple[int, str]]:
    """(line, name) of every name the code defines or reads: variables, attributes, functions,
    classes, arguments and keywords."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.value.lineno, node.arg


#: the core: what every map is played and drawn with
CORE = ("engine", "orders", "board", "render")


def test_the_core_knows_route_tags_not_subways():
    """Mobtown's subways are its own extension: the engine and the order grammar know that a
    move may carry a variant's route tag (and an escort), the board that a map declares its
    route kinds (``routes:``), the renderer that a layout draws one as lines between stops
    (``lines:``); none of them knows the word "subway", in its strings or its names."""
    core = [path for folder in CORE for path in sorted((PACKAGE / folder).rglob("*.py"))]
    assert {path.parent.name for path in core} == set(CORE)
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}" for path in core
             for source in [path.read_text(encoding="utf-8")]
             for line, text in [*code_strings(source), *code_names(source)]
             if "subway" in text.lower()]
    assert found == []
    grammar = (PACKAGE / "orders" / "grammar.lark").read_text(encoding="utf-8")
    assert "SUBWAY" not in grammar and "subway" not in grammar.lower()
    # the check itself sees a name and a string
    assert [t for _, t in code_names("by_subway = f(subway=1)\n")] == ["by_subway", "f", "subway"]


#: the words of Mobtown's own things (its pieces, its gaol, its roads, its places)
MOBTOWN_WORDS = ("don", "dons", "gang", "gangs", "mtpd", "gaol", "highway", "highways",
                 "mobtown", "captive", "captured", "queens")


def _words_of(text: str) -> set[str]:
    """The lowercase words of a string or a name (``small_don`` and ``smallDon`` have
    "don"; "done" and "don't" do not)."""
    import re

    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text.replace("'", ""))
    return {w.lower() for w in re.split(r"[^A-Za-z]+", spaced) if w}


def test_the_renderer_speaks_only_of_the_map_it_draws():
    """The picture's words for a variant's own things (its key's labels, a terrain's tag, a
    held piece, the leader, the escorts of an order) come from the map, its layout and its
    rules; the renderer names none of Mobtown's things in its strings or its names."""
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
             for path in sorted((PACKAGE / "render").rglob("*.py"))
             for source in [path.read_text(encoding="utf-8")]
             for line, text in [*code_strings(source), *code_names(source)]
             if _words_of(text) & set(MOBTOWN_WORDS)]
    assert found == []
    # the check itself sees a name and a string, and no word inside another
    assert _words_of("small_don(x, 'Gangs swim')") & set(MOBTOWN_WORDS) == {"don", "gangs"}
    assert not _words_of("done: don't abandon") & set(MOBTOWN_WORDS)


def test_the_renderer_draws_no_unit_kind_of_its_own():
    """A piece is drawn by what the layout says of its kind (its ``leader`` is a star), never
    by the letter: no string of the renderer is a map's unit kind (Mobtown's G and D, the
    standard A and F)."""
    from mobadj.board import load_map

    kinds = set(load_map("standard").unit_kinds) | set(load_map("mobtown2").unit_kinds)
    assert kinds >= {"A", "F", "G", "D"}
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
             for path in sorted((PACKAGE / "render").rglob("*.py"))
             for line, text in code_strings(path.read_text(encoding="utf-8"))
             if text in kinds]
    assert found == []

