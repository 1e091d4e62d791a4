"""Other judges' short forms (docs/crosscheck.md, "Parser leniency"): a trailing bare
``VIA`` (via convoy), ``D`` after a unit (disband; a removal in an adjustment phase), ``B``
after a unit (build), ``R`` between unit and destination (retreat), ``WAIVE`` in any case.

Each form is read the same by the fast path and the grammar, its canonical text reads back
to the same order by both routes, and the engine does with it what the long form does."""

from __future__ import annotations

import pytest

from mobadj.board.loader import load_map
from mobadj.engine import Outcome, adjudicate, position_from_data
from mobadj.mobtown.notation import CementOvercoat, PlaceDon, mobtown_parser
from mobadj.orders.errors import OrderError
from mobadj.orders.model import Build, Disband, Move, Remove, Retreat, Unit, Waive
from mobadj.orders.parser import OrderParser, parse_orders, parser_for

FORMS = [
    # (text, the order, its canonical text, does the fast path answer?)
    ("A ALB - APU VIA", Move(Unit("A", "ALB"), "APU", via_convoy=True),
     "A ALB - APU via convoy", True),
    ("a alb - apu via", Move(Unit("A", "ALB"), "APU", via_convoy=True),
     "A ALB - APU via convoy", True),
    ("A LON - NTH - NWY VIA", Move(Unit("A", "LON"), "NWY", via_convoy=True),
     "A LON - NWY via convoy", False),
    ("A London -> Norway via", Move(Unit("A", "LON"), "NWY", via_convoy=True),
     "A LON - NWY via convoy", True),
    ("F ADR D", Disband(Unit("F", "ADR")), "F ADR Disband", True),
    ("A ALB d", Disband(Unit("A", "ALB")), "A ALB Disband", True),
    ("A PAR D", Disband(Unit("A", "PAR")), "A PAR Disband", True),
    ("F Spain (nc) D", Disband(Unit("F", "SPA/NC")), "F SPA/NC Disband", True),
    ("F Mid-Atlantic Ocean D", Disband(Unit("F", "MAO")), "F MAO Disband", False),
    ("PAR D", Disband(Unit("A", "PAR")), "A PAR Disband", False),
    ("F STP/NC B", Build(Unit("F", "STP/NC")), "Build F STP/NC", True),
    ("A ANK B", Build(Unit("A", "ANK")), "Build A ANK", True),
    ("A PAR b", Build(Unit("A", "PAR")), "Build A PAR", True),
    ("F St. Petersburg (north coast) B", Build(Unit("F", "STP/NC")), "Build F STP/NC", True),
    ("A PAR R BUR", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR", True),
    ("A PAR r to BUR", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR", True),
    ("A Paris retreats to Burgundy", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR", True),
    ("Retreat A PAR - BUR", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR", True),
    ("retreats a par to bur", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR", True),
    ("R A PAR - BUR", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR", True),
    ("R F STP/SC -> BOT", Retreat(Unit("F", "STP/SC"), "BOT"), "F STP/SC R BOT", True),
    ("Retreat Army Paris moves to Burgundy", Retreat(Unit("A", "PAR"), "BUR"), "A PAR R BUR",
     False),
    ("Retreat F Mid-Atlantic Ocean - Brest", Retreat(Unit("F", "MAO"), "BRE"), "F MAO R BRE",
     False),
    ("WAIVE", Waive(), "Waive", True),
    ("waive", Waive(), "Waive", True),
    ("wAiVe", Waive(), "Waive", True),
    ("Build A PAR", Build(Unit("A", "PAR")), "Build A PAR", True),
    ("build f stp/nc", Build(Unit("F", "STP/NC")), "Build F STP/NC", True),
    ("Build F St. Petersburg (nc)", Build(Unit("F", "STP/NC")), "Build F STP/NC", False),
    ("Remove F KIE", Remove(Unit("F", "KIE")), "Remove F KIE", True),
]


@pytest.fixture(scope="module")
def grammar_only(std):
    return OrderParser(std, fast=False)


@pytest.mark.parametrize(("text", "order", "canonical", "fast"), FORMS,
                         ids=[f[0] for f in FORMS])
def test_short_form_both_routes(std, grammar_only, text, order, canonical, fast):
    parser = parser_for(std)
    assert parser.parse_group(text) == [order]
    assert grammar_only.parse_group(text) == [order]
    assert (parser._fast.parse(text) is not None) is fast  # which route answered
    assert str(order) == canonical
    assert parser.parse_group(canonical) == [order]  # round trip, both routes
    assert grammar_only.parse_group(canonical) == [order]


@pytest.mark.parametrize("text", ["A PAR - BUR by", "A PAR D H", "A PAR B - BUR", "D A PAR D",
                                  "B A PAR B", "A PAR D D", "BRE B", "B BRE", "Retreat A PAR",
                                  "Retreat A PAR BUR", "R A PAR R BUR", "Retreat A PAR - BUR via",
                                  "Retreat A PAR H", "Build STP", "STP B", "B Spain"])
def test_not_short_forms(std, grammar_only, text):
    """A bare "by", words after D/B, both a letter before and after, a build with no kind:
    errors."""
    for parser in (parser_for(std), grammar_only):
        with pytest.raises(OrderError):
            parser.parse_group(text)


def test_oracle_file_reads_whole(std):
    """A file in the other judge's notation loses no order (docs/crosscheck.md)."""
    result = parse_orders("TURKEY: A ANK B\nRUSSIA: F STP/NC B\nFRANCE: A PAR D\n"
                          "ITALY: F ADR D\nENGLAND: WAIVE\nAUSTRIA: A ALB - APU VIA", std)
    assert not result.errors
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("TURKEY", "Build A ANK"), ("RUSSIA", "Build F STP/NC"), ("FRANCE", "A PAR Disband"),
        ("ITALY", "F ADR Disband"), ("ENGLAND", "Waive"), ("AUSTRIA", "A ALB - APU via convoy")]


# -- the engine does with a short form what it does with the long one --------------------

def _play(std, units, orders, phase, **extra):
    position = position_from_data({"phase": phase, "units": units, **extra}, std)
    parsed = parse_orders(orders, std)
    assert not parsed.errors, parsed.errors
    result = adjudicate(position, parsed.orders, std)
    return result, {f"{u.power} {u}" for u in result.position.units.values()}


@pytest.mark.parametrize("order", ["A PAR D", "A PAR disband", "Remove A PAR"])
def test_d_in_an_adjustment_phase_removes(std, order):
    """An adjustment phase reads a Disband as a removal (model.py), so "A PAR D" removes."""
    result, units = _play(std, {"FRANCE": ["A PAR", "A MAR"]}, f"FRANCE: {order}", "W1901A",
                          centers={"FRANCE": ["MAR"]})
    assert units == {"FRANCE A MAR"}
    assert [r.outcome for r in result.results] == [Outcome.SUCCEEDS]


def test_d_in_a_retreat_phase_disbands(std):
    result, units = _play(std, {"FRANCE": ["A BUR"]}, "GERMANY: A PAR D", "S1901R",
                          dislodged={"GERMANY": [{"unit": "A PAR", "from": "BUR"}]},
                          centers={"FRANCE": ["PAR"], "GERMANY": ["MUN"]})
    assert units == {"FRANCE A BUR"}
    assert [r.order for r in result.results] == ["A PAR Disband"]


def test_b_builds(std):
    _result, units = _play(std, {"RUSSIA": ["A WAR"]}, "RUSSIA: F STP/NC B", "W1901A",
                           centers={"RUSSIA": ["STP", "WAR"]})
    assert units == {"RUSSIA A WAR", "RUSSIA F STP/NC"}


def test_bare_via_is_a_convoyed_move(std):
    _result, units = _play(std, {"ENGLAND": ["A LON", "F NTH"]},
                           "ENGLAND: A LON - NWY VIA\nENGLAND: F NTH C A LON - NWY", "S1901M")
    assert units == {"ENGLAND A NWY", "ENGLAND F NTH"}


# -- Mobtown II: "D" that begins an order is a Don --------------------------------------

@pytest.fixture(scope="module")
def mobtown():
    return mobtown_parser(load_map("mobtown2"))


def test_mobtown_d_first_is_a_don(mobtown):
    assert mobtown.parse_group("D Lex") == [PlaceDon(Unit("D", "Lex"))]
    assert mobtown.parse_group("D(Har) cement overcoat") == [CementOvercoat(Unit("D", "Har"))]
    assert mobtown.parse_group("D Lex - Col") == [Move(Unit("D", "Lex"), "Col")]


def test_mobtown_trailing_d_disbands(mobtown):
    assert mobtown.parse_group("G Lex D") == [Disband(Unit("G", "Lex"))]
    assert mobtown.parse_group("G(Lex) D") == [Disband(Unit("G", "Lex"))]
    assert mobtown.parse_group("D(Lex) D") == [Disband(Unit("D", "Lex"))]
    assert mobtown.parse_group("G(Lex) B") == [Build(Unit("G", "Lex"))]


def test_mobtown_escort_cannot_disband(mobtown):
    with pytest.raises(OrderError, match="can only move"):
        mobtown.parse_group("G+D(Lex) D")
