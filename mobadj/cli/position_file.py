"""Writing a position file (YAML, docs/adjudication.md) that ``mobadj adjudicate`` reads back:
the next phase's position after ``adjudicate --next``, a map's start from ``map start``."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

_NAMED_MAP = re.compile(r"^#.* on the (\S+) map:?\s*$")


_WORD_PROCESSOR = re.compile(
    "(?P<space>[\u00a0\u2000-\u200a\u202f\u205f])"
    "|(?P<dash>(?<![^ \t\n])[\u2012-\u2015\u2212](?=[ \t\n]))"
    "|(?P<quotes>[\u201c\u201d\u201e]|(?<![^ \t\n\\[,{:])\u2018|\u2019(?=[ \t\n\\],}:]|$))",
    re.M)
_SAID = {"space": "non-breaking spaces as spaces", "dash": "dashes that begin a list item "
         "('\u2013 F BRE') as '-'", "quotes": "curly quotes as straight ones"}


def plain_yaml(text: str, name: str) -> tuple[str, str | None]:
    """A position file as Word or Excel leave it, read as typed: non-breaking spaces as
    spaces, an en or em dash that begins a list item as ``-`` and curly quotes as straight
    ones (an apostrophe inside a word stays), one character for one so that every line
    and column stays; and a note saying what was read so, or None."""
    kinds: set[str] = set()

    def plain(match: re.Match[str]) -> str:
        kind = match.lastgroup or "space"
        kinds.add(kind)
        return {"space": " ", "dash": "-"}.get(kind, "'" if match.group() in "\u2018\u2019"
                                                else '"')

    if not _WORD_PROCESSOR.search(text):
        return text, None
    text = _WORD_PROCESSOR.sub(plain, text)
    said = ", ".join(_SAID[kind] for kind in _SAID if kind in kinds)
    return text, f"{name}: read {said} (as a word processor writes them)"


def position_yaml(data: dict[str, Any], header: list[str]) -> str:
    """``data`` (``Position.to_data()``) as a position file: ``header`` as comment lines, then
    one key a line, each power's units and centres on one line (``ENGLAND: [F LON, A YOR]``)."""
    import yaml

    data = {key: _by_power(value) if key in _PER_POWER else value for key, value in data.items()}
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True,
                          width=100)
    return "".join(f"# {line}\n" for line in header) + body


_PER_POWER = ("units", "centers", "dislodged")


def _by_power(value: Any) -> Any:
    """A per-power block in the powers' order (a position lists centres by province)."""
    return dict(sorted(value.items())) if isinstance(value, dict) else value


def write_position(path: Path, data: dict[str, Any], header: list[str]) -> None:
    """Write the position file at ``path`` whole or not at all (a new file renamed over the
    old one), so that a game advanced in place (``--next`` naming the position read) never
    keeps half a position."""
    text = position_yaml(data, header)
    target = path.resolve()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o644 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def named_map(text: str) -> str | None:
    """The map a position file's header names ("# Spring 1901 Movement (S1901M) on the
    standard map:", as ``map start`` and ``adjudicate --next`` write it), or None: the
    comment lines before the first key are read, nothing else."""
    for line in text.lstrip("\ufeff").splitlines():
        if not line.startswith("#"):
            if line.strip():
                return None
            continue
        found = _NAMED_MAP.match(line.rstrip())
        if found is not None:
            return found.group(1)
    return None


def map_hint(data: object, tried: str, done: str = "read") -> str:
    """What a GM whose position file was ``done`` (read, drawn) on the map ``tried`` (not
    named on the command line) is told beside the error: the map whose powers the file's
    ``units`` and ``centers`` name, if one does, else ``--map`` in general."""
    from mobadj.board import MapFileError, UnknownNameError, load_map
    from mobadj.engine import known_maps

    powers = set()
    for key in ("units", "centers"):
        block = data.get(key) if isinstance(data, dict) else None
        if isinstance(block, dict):
            powers |= {str(p) for p in block}
    for name in known_maps() if powers else ():
        if name == tried:
            continue
        try:
            game_map = load_map(name)
            for power in powers:
                game_map.power_id(power)
        except (UnknownNameError, MapFileError, OSError, ValueError):
            continue
        return f"{done} on the {tried} map; its powers are the {name} map's: give --map {name}"
    return f"{done} on the {tried} map; for another map give --map NAME"
