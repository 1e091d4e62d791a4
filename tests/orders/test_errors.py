"""Every error kind: line, column, friendly expected words, did-you-mean; never a traceback."""

from __future__ import annotations

import random

import pytest

from mobadj.board import AmbiguousNameError
from mobadj.orders.errors import (
    OrderError,
    OrderSyntaxError,
    UnknownPowerError,
    UnknownProvinceError,
)
from mobadj.orders.parser import parse_order, parse_orders, parser_for


def only_error(text, game_map):
    result = parse_orders(text, game_map)
    assert len(result.errors) == 1, result.errors
    return result.errors[0]


def test_unknown_province_did_you_mean(std):
    err = only_error("England:\nF LON - NTH, A LVP - Yorkshrie", std)
    assert isinstance(err, UnknownProvinceError)
    assert (err.line, err.column) == (2, 22)
    assert "unknown province 'Yorkshrie'" in err.message
    assert err.suggestion.startswith("Yorkshire (YOR)")
    assert str(err).startswith(
        "line 2, column 22: unknown province 'Yorkshrie'; did you mean Yorkshire")


def test_misspelt_full_name(std):
    err = only_error("A Paris - Burgandy", std)
    assert err.column == 11 and err.suggestion == "Burgundy (BUR)"


def test_unknown_coast(std):
    err = only_error("F SPA/EC - MAO", std)
    assert isinstance(err, UnknownProvinceError)
    assert "no such coast: 'SPA/EC'" in err.message and err.suggestion == "SPA/NC or SPA/SC"


def test_incomplete_order(std):
    err = only_error("Germany: A MUN S", std)
    assert isinstance(err, OrderSyntaxError)
    assert err.column == 17 and "stops too early after 'A MUN S'" in err.message
    assert err.expected == ("a unit type (A, F)", "a province")


def test_unexpected_character(std):
    err = only_error("A PAR ! BUR", std)
    assert err.column == 7 and "unexpected '!' after 'A PAR'" in err.message
    assert err.expected == ("H (hold)", "'-' (move)", "S (support)", "C (convoy)", "Disband",
                            "R (retreat)")


def test_unexpected_word_after_order(std):
    err = only_error("A PAR S A MAR H H", std)
    assert err.column == 17 and err.expected == ("the end of the order",)


def test_stray_word_after_name(std):
    err = only_error("A PAR XX", std)
    assert isinstance(err, OrderSyntaxError)
    assert err.column == 7 and "unexpected 'XX' after 'PAR'" in err.message
    assert "H (hold)" in err.expected and "a province" not in err.expected


@pytest.mark.parametrize(("line", "name", "column", "meant"), [
    ("F Mid Atlantik - BRE", "Mid Atlantik", 3, "Mid-Atlantic Ocean (MAO)"),
    ("F Ionian See - TUN", "Ionian See", 3, "Ionian Sea (ION)"),
    ("F BRE - Mid Atlantic Ocen", "Mid Atlantic Ocen", 9, "Mid-Atlantic Ocean (MAO)"),
    ("F LON - Engl Channel", "Engl Channel", 9, "English Channel (ENG)"),
])
def test_misspelt_name_of_several_words(std, line, name, column, meant):
    """The first word is a name of its own ("Mid" is MAO), yet the words together are a
    misspelt name: that is the error, not a stray second word (not Livonia for "Ionian
    See": only a close match counts)."""
    err = only_error(f"England:\n{line}", std)
    assert isinstance(err, UnknownProvinceError)
    assert (err.line, err.column) == (2, column)
    assert f"unknown province {name!r}" in err.message and err.suggestion == meant


@pytest.mark.parametrize("line", ["A PAR BUR", "A PAR XYZ", "A Mar Spain"])
def test_a_stray_word_stays_a_stray_word(std, line):
    err = only_error(line, std)
    assert isinstance(err, OrderSyntaxError) and err.message.startswith("unexpected")


def test_by_needs_convoy(std):
    """A bare trailing "via" is a via-convoy move (other judges' files); a bare "by" is not."""
    err = only_error("A PAR - BUR by", std)
    assert err.expected == ("convoy",) and "expected convoy" in err.message
    assert err.column == len("A PAR - BUR by") + 1


def test_after_via_convoy_or_end(std):
    err = only_error("A PAR - BUR via xyz", std)
    assert err.column == 17 and err.expected == ("convoy", "the end of the order")
    assert "unexpected 'xyz' after 'A PAR - BUR via'" in err.message


def test_short_disband_and_build_end_the_order(std):
    err = only_error("A PAR D H", std)
    assert err.column == 9 and err.expected == ("the end of the order",)
    err = only_error("A PAR B - BUR", std)
    assert err.column == 9 and err.expected == ("the end of the order",)


def test_letter_first_forms_only_where_the_letter_is_no_unit_type(std, mini):
    """njudge's "D A PAR" (disband) is read on the standard map; where D is a unit type
    (the Don) a D that begins an order is the Don, so "D G Lex" is an error there."""
    assert [str(p.order) for p in parse_orders("D A PAR", std).orders] == ["A PAR Disband"]
    err = only_error("D G Lex", mini)
    assert err.column == 3


def test_convoy_needs_destination(std):
    err = only_error("F NTH C A LON", std)
    assert err.expected == ("'-' (move)",)


def test_unknown_unit_type(std):
    err = only_error("X PAR - BUR", std)
    assert "unknown unit type 'X'" in err.message and err.expected == ("a unit type (A, F)",)


def test_unknown_power(std):
    err = only_error("Zork: A PAR H", std)
    assert isinstance(err, UnknownPowerError) and (err.line, err.column) == (1, 1)
    assert "unknown power 'Zork'" in err.message and "England" in err.message


def test_orders_under_an_unknown_section_are_ignored(std):
    result = parse_orders("England:\nF LON H\nZork:\nA PAR H\nA MAR H\nFrance:\nF BRE H", std)
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("ENGLAND", "F LON H"), ("FRANCE", "F BRE H")]
    assert [e.line for e in result.errors] == [3, 4, 5]
    assert "section of the unknown power 'Zork' (line 3)" in result.errors[1].message


def test_unknown_power_suggestion(std):
    err = only_error("Englnd and Wales: A PAR H", std)
    assert isinstance(err, UnknownPowerError)


def test_misspelt_power_is_read_with_warning(std):
    result = parse_orders("Germnay: A MUN H", std)
    assert not result.errors and result.orders[0].power == "GERMANY"
    (warning,) = result.warnings
    assert "unknown power 'Germnay', read as Germany" in str(warning)


def test_ambiguous_case_sensitive_name(mini):
    err = only_error("G lop - Lex", mini)
    assert "ambiguous name 'lop'" in err.message and "LOP or Lop" in err.message
    with pytest.raises(AmbiguousNameError) as raised:  # the map's own error says which
        mini.lookup("lop")
    assert raised.value.suggestions == ("LOP", "Lop")


def test_escort_only_moves(mini):
    from mobadj.mobtown.notation import mobtown_parser

    result = parse_orders("G+D(Lex) H", mini, parser=mobtown_parser(mini))
    assert len(result.errors) == 1, result.errors
    err = result.errors[0]
    assert "can only move" in err.message


def test_build_needs_a_type_where_ambiguous(std):
    err = only_error("Build BRE", std)
    assert "a build needs a unit type (A, F)" in err.message
    assert str(parse_order("Build PAR", std)) == "Build A PAR"  # only armies stand inland


def test_empty_order(std):
    with pytest.raises(OrderSyntaxError) as exc:
        parse_order("   ", std)
    assert "empty order" in str(exc.value)


def test_parse_order_raises_subclasses(std):
    with pytest.raises(UnknownProvinceError):
        parse_order("A PAR - XYZZY", std)
    with pytest.raises(OrderSyntaxError):
        parse_order("A PAR -", std)
    with pytest.raises(OrderSyntaxError):
        parse_order("A PAR & A MAR H", std)  # two orders where one is expected
    assert issubclass(OrderError, ValueError)


def test_good_lines_still_parse(std):
    text = "England:\nF LON - NTH\nA LVP - Yorkshrie\nF EDI - NWG; F XX H; A LVP H\n"
    result = parse_orders(text, std)
    assert [str(p.order) for p in result.orders] == ["F LON - NTH", "F EDI - NWG", "A LVP H"]
    assert [(e.line, e.column) for e in result.errors] == [(3, 9), (4, 16)]


def test_pretty_points_at_column(std):
    err = only_error("A PAR - Burgandy", std)
    assert err.pretty().splitlines()[-1] == "  " + " " * 8 + "^"


def test_fuzz_never_raises(std):
    rng = random.Random(3)
    alphabet = "AFSHCaps -/()&+:;,#>\u2013XYZ\n" + "".join(std.provinces)
    words = ["A", "F", "S", "C", "H", "-", "->", "via", "convoy", "PAR", "BUR", "Build", "(nc)",
             "/sc", "England:", "&", "G+D", "U", "Remove", "Waive", "North", "Sea", "to", ";",
             "D", "B", "VIA", "by", "R"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        parse_orders(text, std)
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        result = parse_orders(line, std)
        for err in result.errors:
            assert err.line == 1 and 1 <= err.column <= len(line) + 1
            assert str(err)


def test_parser_is_built_once(std):
    assert parser_for(std) is parser_for(std)
