"""Seeded corpora of order lines as GMs really get them, for the fuzz test and the benchmark.

Nothing is stored: every line comes from a seeded :class:`random.Random`, so a failure is
reproduced by its seed.  :func:`fuzz_lines` mixes

- good orders of random positions (:mod:`mobadj.engine.scenarios`) in the spellings players
  use (full names, lower case, Unicode dashes, ``--``, trailing full stops, power prefixes);
- mutations of good orders: characters inserted (control characters, lone surrogates,
  accents, byte-order marks, right-to-left marks, emoji), deleted, doubled or swapped, words
  repeated hundreds of times, lines joined;
- noise: random words of the notation and random characters;

and :func:`broken_batch_lines` gives the bytes a broken tool or editor writes into a
``mobadj batch`` file (not UTF-8, not JSON, nested thousands deep, ``NaN``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from mobadj.board import GameMap
from mobadj.engine.scenarios import BatchCase, random_case, random_orders, random_position
from mobadj.engine.topology import topology_for

ODD_CHARACTERS = (
    "\t", "\x0b", "\x0c", "\x00", "\x1b", "\x7f", "\x85", "\xa0", "\u2028", "\u2029", "\ufeff",
    "\u200b", "\u202e", "\u0301", "\ud800", "\udfff", "\U0001f600", "\uff21", "\u0663", "é", "ß",
    "ü", "Ø", "\u2013", "\u2014", "\u2212", "\u2192", "\u21d2", "\u2011", "#", ":", ",", ";",
    "&", "+", "/", "(", ")", "-", ">", ".", "'", '"', "\\", "{", "}", "[", "]", "*", "!", "?",
    "0", "1", "9", " ", "  ",
)
"""Characters a mutation inserts: whitespace of every kind, controls, marks, surrogates."""

WORDS = (
    "A", "F", "G", "D", "S", "C", "H", "R", "B", "M", "W", "U", "-", "--", "->", "=>", "to",
    "via", "convoy", "by", "hold", "support", "supports", "move", "build", "remove", "disband",
    "waive", "retreat", "&", "(nc)", "/sc", "(via convoy)", "(hold)", "PAR", "BUR", "MAR",
    "STP/NC", "Spain", "north", "coast", "Mid-Atlantic", "St.", "Petersburg", "England:",
    "FRANCE", "Russia (Ann):", "En:", "Germnay:", "G+D", "Lex", "5th", "cement", "overcoat",
    "Mosc", "Bohem", "Gulf", "of", "Lyons", "#", ",", ";", ":", ".",
)
"""Words of the notation (and of Mobtown's) that noise lines are made of."""


def good_lines(game_map: GameMap, rng: random.Random, count: int) -> list[str]:
    """``count`` readable orders of random positions, each in a random everyday spelling."""
    topo = topology_for(game_map)
    lines: list[str] = []
    while len(lines) < count:
        pos = random_position(game_map, rng, rng.randint(20, 34))
        for power, text in random_orders(pos, topo, rng):
            lines.append(_respell(text, power, game_map, rng))
    return lines[:count]


def _respell(text: str, power: str, game_map: GameMap, rng: random.Random) -> str:
    """One of the ways a player writes ``text`` (which is in canonical form)."""
    r = rng.random()
    if r < 0.15:
        words = text.split()
        text = " ".join(game_map.provinces[w.split("/")[0]].name if w.split("/")[0] in
                        game_map.provinces and "/" not in w else w for w in words)
    elif r < 0.25:
        text = text.lower()
    elif r < 0.35:
        text = text.replace(" - ", rng.choice(("--", " \u2013 ", "\u2192", " -- ", "-", " m ")))
    elif r < 0.42:
        text += "."
    elif r < 0.5:
        text = f"{game_map.powers[power].name}: {text}"
    return text


def mutate(line: str, rng: random.Random) -> str:
    """``line`` changed by one to three random edits."""
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        i = rng.randint(0, len(line))
        if r < 0.3:
            line = line[:i] + rng.choice(ODD_CHARACTERS) + line[i:]
        elif r < 0.45 and line:
            j = rng.randint(i, min(len(line), i + 6))
            line = line[:i] + line[j:]
        elif r < 0.55 and line:
            j = rng.randint(i, min(len(line), i + 8))
            line = line[:i] + line[i:j] * rng.randint(2, 5) + line[j:]
        elif r < 0.6:  # one word many times: the long, repetitive lines
            line = line[:i] + (rng.choice(WORDS) + " ") * rng.randint(20, 400) + line[i:]
        elif r < 0.7:
            words = line.split(" ")
            if len(words) > 1:
                a, b = rng.randrange(len(words)), rng.randrange(len(words))
                words[a], words[b] = words[b], words[a]
            line = " ".join(words)
        elif r < 0.8:
            line = line.swapcase() if rng.random() < 0.5 else line.upper()
        elif r < 0.9:
            line = line[:i] + " " + rng.choice(WORDS) + " " + line[i:]
        else:
            line = line[:i]
    return line


def noise_line(rng: random.Random) -> str:
    """Words of the notation in random order, or random characters."""
    if rng.random() < 0.6:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10)))
    return "".join(rng.choice(ODD_CHARACTERS + tuple("AFSHCparbu")) for _ in
                   range(rng.randint(1, 30)))


def fuzz_lines(game_map: GameMap, seed: int, count: int) -> list[str]:
    """``count`` lines: about 35 % good orders, 50 % mutated ones, 15 % noise."""
    rng = random.Random(seed)
    good = good_lines(game_map, rng, max(count // 2, 1))
    out: list[str] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.35:
            out.append(rng.choice(good))
        elif r < 0.85:
            out.append(mutate(rng.choice(good), rng))
        else:
            out.append(noise_line(rng))
    return out


def batch_cases(game_map: GameMap, seed: int, lines: list[str], per_case: int = 20
                ) -> list[BatchCase]:
    """Batch input objects of random phases whose orders are ``lines`` (``per_case`` each,
    split among the powers with units)."""
    rng = random.Random(seed)
    cases = []
    for start in range(0, len(lines), per_case):
        case = random_case(game_map, rng, f"fuzz-{start // per_case}")
        powers = sorted(case["units"]) or sorted(game_map.powers)
        orders: dict[str, list[str]] = {}
        for text in lines[start:start + per_case]:
            orders.setdefault(rng.choice(powers), []).append(text)
        case["orders"] = orders
        cases.append(case)
    return cases


def broken_batch_lines(seed: int, count: int) -> list[bytes]:
    """``count`` batch input lines that are not a readable JSON object."""
    rng = random.Random(seed)
    shapes: list[Callable[[], bytes]] = [
        lambda: b"\xff\xfe" + b"x" * rng.randint(0, 20),                         # not UTF-8
        lambda: b'{"id": "caf\xe9", "phase": "S1901M"}',                        # Latin-1
        lambda: b"[" * rng.randint(1000, 100_000) + b"]" * rng.randint(0, 10),  # deep
        lambda: b'{"id": ' + b"{" * rng.randint(2000, 5000),
        lambda: b'{"id": NaN, "phase": "S1901M"}',
        lambda: b'{"id": 1e999, "phase": "S1901M"}',
        lambda: b'{"id": "x", "phase": "S1901M"',                               # cut short
        lambda: b"",
        lambda: b"null",
        lambda: b'"a string"',
        lambda: bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))).replace(b"\n", b"?"),
        lambda: json.dumps({"id": "\ud800", "phase": "\udfff"}).encode(),        # surrogates
        lambda: json.dumps({"id": "zero", "phase": "S0M"}).encode(),
        lambda: json.dumps({"id": "arabic", "phase": "S\u0661\u0669\u0660\u0661M"},
                           ensure_ascii=False).encode(),
        lambda: json.dumps({"id": "from", "phase": "F1901R", "units": {},
                            "dislodged": {"FRANCE": [{"unit": "A PAR", "from": "MOS"}]}}).encode(),
        lambda: json.dumps({"id": "nofrom", "phase": "F1901R", "units": {},
                            "dislodged": {"FRANCE": [{"unit": "A PAR"}]}}).encode(),
        lambda: json.dumps({"id": [[[]]], "map": {"x": 1}, "phase": 7, "units": [1],
                            "orders": "A PAR H"}).encode(),
    ]
    return [rng.choice(shapes)() for _ in range(count)]
