"""A YAML reader that remembers the line of every key and list item.

Map files are written by hand, so every complaint about them must name a line.  PyYAML's
composer already knows each node's position; this module walks the node tree into plain
dicts/lists/strings that carry their 1-based line numbers.  Scalars stay *raw strings*
(``NO`` is Norway, not ``False``); fields that are really booleans are converted by the
loader with :func:`as_bool`.  Duplicate mapping keys are recorded, not silently dropped.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from mobadj.errors import MapError

if TYPE_CHECKING:  # imported when a file is read: a map from the disk cache needs no YAML
    import yaml
    from yaml import SafeLoader


class LStr(str):
    """A scalar from the file: its raw text plus ``line`` and whether it was quoted/null."""

    line: int
    null: bool

    def __new__(cls, value: str, line: int, null: bool = False) -> LStr:
        obj = super().__new__(cls, value)
        obj.line = line
        obj.null = null
        return obj

    def __getnewargs__(self) -> tuple[str, int, bool]:  # type: ignore[override]
        """Pickled with its line (maps are kept pickled: mobadj.diskcache)."""
        return str(self), self.line, self.null


class LDict(dict[str, object]):
    """A mapping with ``line`` (its own), ``key_lines`` and ``duplicates`` [(key, line)]."""

    line: int

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line
        self.key_lines: dict[str, int] = {}
        self.duplicates: list[tuple[str, int]] = []

    def line_of(self, key: str) -> int:
        """The line of ``key`` (or of the mapping itself when the key is absent)."""
        return self.key_lines.get(key, self.line)


class LList(list[object]):
    """A sequence with its ``line``; items carry their own lines."""

    line: int

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line


class YamlError(MapError, ValueError):
    """The file is not valid YAML; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column


_NULLS = {"", "~", "null", "Null", "NULL"}


def _walk(node: yaml.Node, path: frozenset[int] = frozenset()) -> object:
    import yaml

    line = node.start_mark.line + 1
    if id(node) in path:
        raise YamlError("a YAML alias refers to itself", line, node.start_mark.column + 1)
    if not isinstance(node, yaml.ScalarNode):
        path = path | {id(node)}
    if isinstance(node, yaml.ScalarNode):
        null = node.style is None and node.value in _NULLS
        return LStr(node.value, line, null)
    if isinstance(node, yaml.SequenceNode):
        items = LList(line)
        items.extend(_walk(item, path) for item in node.value)
        return items
    if isinstance(node, yaml.MappingNode):
        out = LDict(line)
        for key_node, value_node in node.value:
            key = _walk(key_node, path)
            if not isinstance(key, str):
                raise YamlError("a mapping key must be a plain name", key_node.start_mark.line + 1,
                                key_node.start_mark.column + 1)
            key = str(key)
            key_line = key_node.start_mark.line + 1
            if key in out:
                out.duplicates.append((key, key_line))
                continue
            out[key] = _walk(value_node, path)
            out.key_lines[key] = key_line
        return out
    column = node.start_mark.column + 1
    raise YamlError(f"unsupported YAML node {type(node).__name__}", line, column)


MAX_VALUES = 1_000_000
"""The most values (scalars, lists, mappings) a file may stand for once its aliases are
read as copies: far beyond any map, far below what ten aliases of ten aliases of ... make."""


MAX_DIGITS = 4_300
"""The longest integer read (Python's own limit for turning text into a number)."""

_INT_TAG = "tag:yaml.org,2002:int"


def _expanded_size(node: yaml.Node, sizes: dict[int, int]) -> int:
    """How many values ``node`` stands for, its aliases counted as copies (each node is
    counted once: a "billion laughs" file is measured, not expanded); raises
    :class:`YamlError` at the first node that stands for more than :data:`MAX_VALUES`, or
    that is an integer of more than :data:`MAX_DIGITS` digits."""
    import yaml

    known = sizes.get(id(node))
    if known is not None:
        return known
    sizes[id(node)] = 0  # a node within itself: _walk reports it
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(item, sizes) for item in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(_expanded_size(k, sizes) + _expanded_size(v, sizes) for k, v in node.value)
    elif node.tag == _INT_TAG and len(node.value) > MAX_DIGITS:
        raise YamlError(f"a number of {len(node.value):,} digits (at most {MAX_DIGITS:,})",
                        node.start_mark.line + 1, node.start_mark.column + 1)
    if size > MAX_VALUES:
        raise YamlError(f"its aliases repeat more than {MAX_VALUES:,} values (each alias is read "
                        "as a copy of what it names)", node.start_mark.line + 1,
                        node.start_mark.column + 1)
    sizes[id(node)] = size
    return size


def load_lines(text: str) -> object:
    """Parse YAML ``text`` into LDict/LList/LStr trees; raises :class:`YamlError`."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C composer keeps marks too
    try:
        node = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlError(str(exc.problem or exc), line, col) from None
    except yaml.YAMLError as exc:  # pragma: no cover - defensive: unmarked errors are rare
        raise YamlError(str(exc), 1, 1) from None
    if node is None:
        return LDict(1)
    _expanded_size(node, {})
    return _walk(node)


@functools.cache
def _plain_loader() -> type[SafeLoader]:
    """YAML's safe loader, with dates left as the text they are written as: no file read by
    :func:`load_data` has dates, and ``phase: 1919-07-01`` is a phase written wrong."""
    import yaml

    class PlainLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    PlainLoader.add_constructor("tag:yaml.org,2002:timestamp",
                                yaml.SafeLoader.construct_yaml_str)
    return PlainLoader


def load_data(text: str) -> Any:
    """Plain data from a person's YAML ``text``, as ``yaml.safe_load`` reads it (no tag
    makes an object; ``NO`` is ``False``), for files that may come from anyone (positions,
    pictures): raises :class:`YamlError` with a line and column for text that is not YAML,
    nested too deeply, aliases repeating more than :data:`MAX_VALUES` values, integers
    of more than :data:`MAX_DIGITS` digits and a key given twice in one mapping (YAML
    would keep the last: ``England:`` written twice loses the first one's units)."""
    import yaml

    loader = _plain_loader()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, {})
        _no_key_twice(node)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlError(str(exc.problem or exc), line, col) from None
    except RecursionError:
        raise YamlError("nested too deeply", 1, 1) from None
    except yaml.YAMLError as exc:
        raise YamlError(str(exc), 1, 1) from None
    finally:
        loader.dispose()


def _no_key_twice(root: yaml.Node) -> None:
    """Raise :class:`YamlError` at the second of two equal keys of a mapping in ``root``
    (each node looked at once, so aliases cost nothing)."""
    import yaml

    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            lines: dict[object, int] = {}
            for key, value in node.value:
                todo.append(value)
                if not isinstance(key, yaml.ScalarNode) or key.value == "<<":
                    continue
                name = (key.tag, key.value)
                if name in lines:
                    raise YamlError(f"{key.value!r} is given twice (first at line "
                                    f"{lines[name]}): write its entries under one "
                                    f"{key.value!r}", key.start_mark.line + 1,
                                    key.start_mark.column + 1)
                lines[name] = key.start_mark.line + 1


def as_bool(value: object) -> bool | None:
    """YAML 1.1 truth words -> bool; anything else -> None (the caller reports it)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"true", "yes", "on", "y"}:
        return True
    if text in {"false", "no", "off", "n", ""}:
        return False
    return None
