"""The fast path never changes a result: on a large random corpus it agrees with the grammar."""

from __future__ import annotations

import random

import pytest

from mobadj.orders.errors import OrderError
from mobadj.orders.parser import OrderParser, parser_for


def outcome(parser, text):
    try:
        return parser.parse_group(text)
    except OrderError as exc:
        return (type(exc).__name__, exc.message, exc.column)


def corpus(game_map, seed: int, count: int):
    rng = random.Random(seed)
    names = []
    for pid, prov in game_map.provinces.items():
        names += [pid, pid.lower(), prov.name, *prov.aliases]
        names += [f"{pid}/{c.lower()}" for c in prov.coasts] + [f"{prov.name} ({c})" for c in
                                                                prov.coasts]
    kinds = [*game_map.unit_kinds] * 4 + ["army", "Fleet", "Gang", ""]
    glue = ["-", " - ", "->", " to ", " S ", " supports ", " C ", " convoys ", " H", " hold",
            " via convoy", " by convoy", " & ", " R ", "(", ")", " ", "  ",
            # other judges' short forms (docs/crosscheck.md): bare VIA, D, B
            " VIA", " via", " by", " D", " d", " B", " b", " disband", " build", " retreats to "]
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 7)):
            parts.append(rng.choice(kinds) + " " + rng.choice(names))
            parts.append(rng.choice(glue))
        text = "".join(parts[: rng.randint(1, len(parts))])
        if rng.random() < 0.5:  # well-formed shapes too, so both paths answer often
            a, b, c = (rng.choice(names) for _ in range(3))
            k = rng.choice(kinds)
            text = rng.choice([f"{k} {a} - {b}", f"{k} {a} S {k} {b} - {c}", f"{k} {a} H",
                               f"{k} {a} C {k} {b} - {c}", f"{k} {a} S {b}",
                               f"{k} {a}-{b} via convoy", f"{k} {a} supports {b} H",
                               f"{k} {a} S {k} {b} - {c} H", f"{k} {a} H H",
                               f"{k} {a} C {b} - {c} via convoy", f"{k} {a} - {b} - {c}",
                               f"{k} {a} - {b} VIA", f"{k} {a} D", f"{k} {a} B",
                               f"{k} {a} R {b}", f"{k} {a} - {b} - {c} VIA",
                               f"{k} {a} - {b} by", f"{k} {a} D H", f"{k} {a} B - {b}",
                               f"{k} {a} retreat to {b}", f"{k} {a} disband",
                               f"Build {k} {a}", f"remove {k} {a}", f"builds {k} {a} H",
                               f"Remove {k} {a} - {b}", "Waive", f"waive {a}"])
        yield text


EDGE_CASES = [
    "A PAR S A BUR - MAR H", "A PAR S A BUR H H", "A PAR - BUR via convoy via convoy",
    "A PAR to to BUR", "A PAR-BUR-MAR", "A PAR S BUR", "A PAR S A BUR-MAR", "F NTH C LON - NWY",
    "A PAR -> BUR", "A PAR => BUR", "A St. Petersburg - Moscow", "F Spain (nc) - MAO",
    "F SPA/NC - MAO", "A PAR - BUR VIA CONVOY", "A PAR H H", "A A - PAR", "A PAR S A",
    "F NTH C A LON", "F North Sea - Norwegian Sea", "A North - Sea", "A Gulf of Lyon H",
    "F MAO S F Mid-Atlantic Ocean", "A PAR S F S - BUR", "a par s a bur hold",
    # other judges' short forms (docs/crosscheck.md, "Parser leniency")
    "A ALB - APU VIA", "A alb - apu via", "A LON - NTH - NWY VIA", "A PAR - BUR by",
    "A PAR - BUR VIA VIA", "A PAR - BUR VIA convoy", "A PAR - BUR via xyz", "F ADR D",
    "A par d", "F Spain (nc) D", "F Mid-Atlantic Ocean D", "A PAR D H", "A PAR D D", "D A PAR",
    "F STP/NC B", "A PAR B", "A St. Petersburg b", "PAR B", "BRE B", "A PAR B D", "B A PAR",
    "A PAR R BUR", "A PAR r to BUR", "A PAR R U BUR", "A PAR R", "A PAR disband",
    "F STP build", "A PAR - D", "A D - PAR", "A PAR S A BUR D",
    "Build A PAR", "build f stp/nc", "Build F St. Petersburg (nc)", "Build A", "Build PAR",
    "Build X PAR", "Build A XYZ", "Builds Army Paris", "Remove F KIE", "removes a mun",
    "Remove A", "Remove KIE", "Waive", "waives", "Waived", "W", "Build Waive", "Waive A PAR",
    "Build A PAR & A MAR", "Build A PAR.", "Build A STP/NC", "Remove A PAR H",
    "Retreat A PAR - BUR", "retreat a par to bur", "R A PAR - BUR", "R A PAR", "Retreat A PAR",
    "Retreats F STP/SC -> BOT", "R A PAR - BUR via", "Retreat A PAR - BUR - GAS", "R PAR - BUR",
    "Retreat A PAR R BUR", "R R PAR - BUR", "Retreat Retreat A PAR - BUR",
]


@pytest.fixture(scope="module")
def slow_std(std):
    return OrderParser(std, fast=False)


@pytest.mark.parametrize("text", EDGE_CASES)
def test_fast_and_grammar_agree_on_edge_cases(std, slow_std, text):
    assert outcome(parser_for(std), text) == outcome(slow_std, text)


@pytest.mark.parametrize("which", ["std", "mini"])
def test_fast_and_grammar_agree(which, request):
    game_map = request.getfixturevalue(which)
    fast = parser_for(game_map)
    slow = OrderParser(game_map, fast=False)
    assert fast._fast is not None and slow._fast is None
    answered = 0
    for text in corpus(game_map, seed=11, count=800):
        if fast._fast.parse(text) is not None:
            answered += 1
        assert outcome(fast, text) == outcome(slow, text), text
    assert answered > 120  # the fast path really was exercised


def test_fast_path_off_when_keyword_is_a_name(tmp_path):
    from mobadj.board.loader import load_map

    path = tmp_path / "m.yaml"
    path.write_text("provinces:\n  S:\n    name: Ess\n    adj: {A: [T]}\n"
                    "  T:\n    name: Tee\n    adj: {A: [S]}\n")
    game_map = load_map(path)
    assert parser_for(game_map)._fast is None


def _as_parser_reads(parser, text):
    try:
        return parser.parse_order(text, remember=False)
    except OrderError:
        return None


WRITTEN_ODDLY = [  # the parser rewrites these before its fast path sees them
    "A PAR - BUR.", "A PAR H.", "F MAO - SPA (nc)", "A PAR - BUR (via convoy)",
    "A PAR \u2013 BUR", "A PAR \u2192 BUR", "\uff21 PAR H", "A PAR\u200b- BUR",
    "F Mid-Atlantic Ocean - SPA", "F MAO S F mid-atlantic", "A PAR - BUR" + " " * 1000,
]


@pytest.mark.parametrize("text", WRITTEN_ODDLY)
def test_written_fast_path_declines_what_the_parser_rewrites(std, text):
    """mobadj batch asks FastPath.parse_written first: it must leave every text the parser
    normalises (or mends, or refuses as too long) to the parser."""
    assert parser_for(std).fast_path.parse_written(text) is None


@pytest.mark.parametrize("which", ["std", "mini"])
def test_written_fast_path_reads_as_the_parser(which, request):
    """Where FastPath.parse_written answers, the parser gives the same order."""
    game_map = request.getfixturevalue(which)
    parser = OrderParser(game_map)
    answered = 0
    texts = [*corpus(game_map, seed=12, count=800), *EDGE_CASES, *WRITTEN_ODDLY]
    for text in texts:
        got = parser.fast_path.parse_written(text)
        if got is not None:
            answered += 1
            assert got == _as_parser_reads(parser, text), text
    assert answered > 120  # the written path really was exercised


def _by_patterns(fast, text):
    """What the fast path's patterns alone make of ``text`` (None: they decline)."""
    match = fast.simple.match(text)
    if match is not None:
        return fast._build(match.groups())
    match = fast.adjustment.match(text)
    if match is not None:
        return fast._adjustment(*match.groups())
    return None


@pytest.mark.parametrize("which", ["std", "mini"])
def test_words_read_as_the_patterns(which, request):
    """The fast path reads the everyday shapes word by word (FastPath._words); wherever that
    reading answers, the patterns give the same order, and it answers most well-formed
    orders."""
    game_map = request.getfixturevalue(which)
    fast = parser_for(game_map).fast_path
    answered = 0
    texts = [*corpus(game_map, seed=13, count=3000), *EDGE_CASES,
             "A PAR - BUR VIA  CONVOY", "a par to bur", "A PAR -> BUR by convoy", "A PAR R to BUR",
             "A PAR retreats into BUR", "A PAR S F MAR H", "army par supports army mar - bur",
             "F NTH convoys A LON => NWY", "F STP/nc - BOT", "A PAR H", "A PAR hold",
             "A PAR S MAR", "A P1R - BUR", "A PAR - BUR via convoy ", "\tA PAR\t-\tBUR\n",
             "A PAR S A MAR - BUR H", "A PAR - BUR - MAR", "A PAR R", "A PAR C A MAR",
             "Build F STP/NC", "WAIVE", "Remove Army Munich", "Build A PAR H"]
    for text in texts:
        if not text.isascii():
            continue
        words = text.split()
        shape = fast._words(words)
        if shape is not None:
            answered += 1
            assert fast._build(shape) == _by_patterns(fast, text), text
        elif 0 < len(words) <= 3 and words[0].lower() in ("build", "builds", "remove",
                                                          "removes", "waive", "waives", "waived"):
            got = fast._adjustment_words(words)
            if got is not None:
                answered += 1
                assert got == _by_patterns(fast, text), text
    assert answered > 500
