"""The names a game gives its powers: Mobtown II's rule 1, "The names may be altered by the
GM to ridicule the particular contestants", for any map.

A GM writes them as one text, ``capone=Big Al; lepke=Louis the Lip`` (each power by
its id or any name the map knows it by; ``;``, a comma or a new line between them, or none
at all: ``capone=Big Al lepke=Louis``); :func:`parse_power_names` checks it and
:func:`names_text` writes it back the same way every time.  :func:`renamed` is the map
with those names: every report, event and page that names a power reads them from it,
and since each power keeps its map names as aliases, orders, positions and seats still
accept the map's names and ids.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from mobadj.board.model import GameMap, UnknownNameError, fold

MAX_NAME = 40  # characters of a power's new name
_NONE = {"", "none", "standard", "default"}
_SEPARATORS = re.compile(r"[;\n]")


def parse_power_names(game_map: GameMap, text: str) -> dict[str, str]:
    """Power id -> the new name, in the map's order of powers, from a GM's text (module
    docstring); a ValueError that names the entry at fault and what was expected."""
    if fold(text) in _NONE or text.strip().lower() in _NONE:
        return {}
    chosen: dict[str, str] = {}
    for piece in _SEPARATORS.split(text.replace(",", ";")):
        if not piece.strip():
            continue
        if "=" not in piece:
            raise ValueError(f"names: {piece.strip()!r} gives no name; write "
                             "power=new name, e.g. capone=Big Al; lepke=Louis the Lip")
        for who, name in _pairs(game_map, piece):
            pid = _power(game_map, who)
            if pid in chosen:
                raise ValueError(f"names: {who.strip()!r} is named twice")
            chosen[pid] = _checked(name, who)
    _distinct(game_map, chosen)
    return {pid: chosen[pid] for pid in game_map.powers if pid in chosen
            and chosen[pid] != game_map.powers[pid].name}


def _pairs(game_map: GameMap, piece: str) -> list[tuple[str, str]]:
    """``who=name`` pairs of one piece; without separators between pairs (a mail's commas
    are lost) each ``=`` after the first takes the longest run of words before it that
    names a power."""
    parts = piece.split("=")
    out: list[tuple[str, str]] = []
    who = parts[0]
    for k, part in enumerate(parts[1:], start=1):
        if k == len(parts) - 1:
            out.append((who, part))
            break
        words = part.split()
        cut = next((i for i in range(len(words)) if _is_power(game_map, " ".join(words[i:]))),
                   None)
        if cut is None:
            raise ValueError(f"names: {part.strip()!r} ends with no power before its '='; "
                             "separate the names with ';'")
        out.append((who, " ".join(words[:cut])))
        who = " ".join(words[cut:])
    return out


def _is_power(game_map: GameMap, text: str) -> bool:
    try:
        game_map.power_id(text)
    except UnknownNameError:
        return False
    return True


def _power(game_map: GameMap, who: str) -> str:
    try:
        return game_map.power_id(who.strip())
    except UnknownNameError as exc:
        raise ValueError(f"names: {exc}") from None


def _checked(name: str, who: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValueError(f"names: {who.strip()!r} is given no name")
    if len(name) > MAX_NAME:
        raise ValueError(f"names: {name[:MAX_NAME]!r}... is too long (at most {MAX_NAME} "
                         "characters)")
    if not name.isprintable() or any(c in name for c in "=;<>"):
        raise ValueError(f"names: {name!r} may hold no '=', ';', '<', '>' or control "
                         "characters")
    return name


def _distinct(game_map: GameMap, chosen: Mapping[str, str]) -> None:
    """Every power must still be told apart by every name it answers to."""
    taken: dict[str, str] = {}
    for pid, power in game_map.powers.items():
        for spelling in (pid, power.name, *power.aliases):
            taken.setdefault(fold(spelling), pid)
    seen: dict[str, str] = {}
    for pid, name in chosen.items():
        key = fold(name)
        other = taken.get(key, pid)
        if other != pid:
            raise ValueError(f"names: {name!r} is already a name of "
                             f"{game_map.powers[other].name}")
        if key in seen:
            raise ValueError(f"names: {name!r} is given to both {seen[key]} and {pid}")
        seen[key] = pid


def names_text(names: Mapping[str, str]) -> str:
    """The names as one text (``capone=Big Al; lepke=Louis the Lip``)."""
    return "; ".join(f"{pid}={name}" for pid, name in names.items())


_RENAMED: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[GameMap, GameMap]] = {}


def renamed(game_map: GameMap, names: Mapping[str, str]) -> GameMap:
    """``game_map`` with its powers called ``names`` (the map's own names kept as aliases);
    the map itself when there are none.  Kept: one copy per map and set of names."""
    if not names:
        return game_map
    key = (id(game_map), tuple(sorted(names.items())))
    got = _RENAMED.get(key)
    if got is not None and got[0] is game_map:
        return got[1]
    powers = {pid: dataclasses.replace(p, name=names[pid], aliases=(p.name, *p.aliases))
              if pid in names else p for pid, p in game_map.powers.items()}
    copy = dataclasses.replace(game_map, powers=powers)
    if len(_RENAMED) > 64:
        _RENAMED.clear()
    _RENAMED[key] = (game_map, copy)
    return copy
