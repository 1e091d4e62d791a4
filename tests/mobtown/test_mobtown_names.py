"""Rule 1: "The names may be altered by the GM to ridicule the particular contestants."
The names a GM writes, read and checked (mobadj.board.names), and a turn played on the map
with them: the report names the mobs so, the orders take every name the mob had."""

from __future__ import annotations

import pytest

from mobadj.board import names_text, parse_power_names, renamed
from mobadj.engine import adjudicate, format_report, position_from_data
from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.mobtown.rules import MobtownRules


@pytest.mark.parametrize("text", [
    "capone=Big Al; lepke=Louis the Lip",
    "capone = Big Al ,lepke=  Louis   the Lip",
    "Al Capone=Big Al\nLepke Buchalter=Louis the Lip",
    "capone=Big Al lepke=Louis the Lip",  # a mail's commas are lost: still two names
])
def test_the_names_a_gm_writes(mt, text):
    names = parse_power_names(mt, text)
    assert names == {"capone": "Big Al", "lepke": "Louis the Lip"}
    assert names_text(names) == "capone=Big Al; lepke=Louis the Lip"


@pytest.mark.parametrize(("text", "error"), [
    ("capone", "'capone' gives no name; write power=new name"),
    ("caponi=Big Al", "unknown power 'caponi'; did you mean capone?"),
    ("capone=Big Al; capone=Al", "'capone' is named twice"),
    ("capone=", "'capone' is given no name"),
    ("capone=Nelson", "'Nelson' is already a name of \"Baby Face\" Nelson"),
    ("capone=Big; lepke=big", "'big' is given to both capone and lepke"),
    ("capone=" + "x" * 41, "is too long (at most 40 characters)"),
    ("capone=<b>Al</b>", "may hold no '=', ';', '<', '>' or control characters"),
])
def test_names_that_cannot_be_used_say_why(mt, text, error):
    with pytest.raises(ValueError, match="names: ") as exc:
        parse_power_names(mt, text)
    assert error in str(exc.value)


def test_no_names_and_the_same_names(mt):
    assert parse_power_names(mt, "none") == {} and parse_power_names(mt, "") == {}
    assert parse_power_names(mt, "lepke=Lepke") == {}  # its own name: nothing to change
    assert renamed(mt, {}) is mt


def test_a_turn_on_the_renamed_map(mt):
    board = renamed(mt, {"capone": "Big Al", "lepke": "Louis the Lip"})
    assert renamed(mt, {"lepke": "Louis the Lip", "capone": "Big Al"}) is board  # kept
    assert board.powers["capone"].name == "Big Al" and mt.powers["capone"].name == "Al Capone"
    for spelling in ("Big Al", "big al", "Al Capone", "Capone", "capone"):
        assert board.power_id(spelling) == "capone"
    pos = position_from_data({"phase": "1919-07-W1-M",
                              "units": {"Big Al": ["G Col"], "Lepke": ["G Lex", "G DAN"]},
                              "centers": {}}, board)
    parsed = parse_mobtown_orders("Louis the Lip: G(Lex)-Col\nLepke G(DAN) S G(Lex)-Col\n"
                                  "Al Capone: G(Col) H", board)
    assert not parsed.errors, parsed.errors
    result = adjudicate(pos, parsed.orders, board, MobtownRules())
    report = format_report(result, board, rules=MobtownRules())
    assert "Louis the Lip:" in report and "Big Al:" in report
    assert "Al Capone" not in report and "Lepke:" not in report
    assert result.position.unit_lists() == {"lepke": ["G Col", "G DAN"]}  # ids, as ever
