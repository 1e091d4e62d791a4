"""The rulebook notation: every printed form parses, round-trips, and bad input is explained."""

from __future__ import annotations

import pytest

from mobadj.mobtown.notation import (
    CementOvercoat,
    PlaceDon,
    parse_mobtown_order,
    parse_mobtown_orders,
    rulebook_text,
)
from mobadj.orders.errors import OrderError
from mobadj.orders.model import Build, Hold, Move, Remove, Retreat, SupportHold, SupportMove, Unit

G = lambda loc: Unit("G", loc)  # noqa: E731

PRINTED = [  # exactly as the rulebook prints them
    ("G(Lex)-Col", [Move(G("Lex"), "Col")]),
    ("G+D(PPU)-Har", [Move(G("PPU"), "Har", escort="D")]),
    ("G(Har)-Str", [Move(G("Har"), "Str")]),
    ("D(Har) cement overcoat", [CementOvercoat(Unit("D", "Har"))]),
    ("G(P22) S G(Gon)-Bur", [SupportMove(G("P22"), G("GoG"), "Bur")]),
    ("G(Tam)-U-Ext", [Move(G("Tam"), "Ext", route="subway")]),
    ("G(WCP)-U-Mem", [Move(G("WCP"), "Mem", route="subway")]),
    ("G(Mic)-U-P49", [Move(G("Mic"), "P49", route="subway")]),
    ("G(RoE)-Cat", [Move(G("RoE"), "Cat")]),
    ("G(PPU) & G(Pel) S G(Mic)-Mem", [SupportMove(G("PPU"), G("Mic"), "Mem"),
                                      SupportMove(G("Pel"), G("Mic"), "Mem")]),
    ("G(Bgt) S G(Mem)-U-Mic", [SupportMove(G("Bgt"), G("Mem"), "Mic", route="subway")]),
]

OTHER = [
    ("Gang Lexington - Columbus", Move(G("Lex"), "Col")),
    ("G(Lex) H", Hold(G("Lex"))),
    ("G(Lex) S G(Col)", SupportHold(G("Lex"), G("Col"))),
    ("G(Mem) R U WCP", Retreat(G("Mem"), "WCP", route="subway")),
    ("Build G(Pie)", Build(G("Pie"))),
    ("Build D Pie", Build(Unit("D", "Pie"))),
    ("Remove D Pie", Remove(Unit("D", "Pie"))),
    ("D Lex", PlaceDon(Unit("D", "Lex"))),
    ("Don starts in Lexington", PlaceDon(Unit("D", "Lex"))),
    ("Don in Lexington", PlaceDon(Unit("D", "Lex"))),  # as a player writes it
    ("don at Lex", PlaceDon(Unit("D", "Lex"))),
    ("D on Lex", PlaceDon(Unit("D", "Lex"))),
    ("G ECP - Lop", Move(G("LOP"), "Lop")),
    ("G LOP - Lop", Move(G("LOP"), "Lop")),
    ("G 5th - Pla", Move(G("5th"), "Pla")),
    ("G(42nd) S G(110)", SupportHold(G("42nd"), G("110"))),
    # the rulebook's spellings, and the usual ones a player writes
    ("G DAS - Manhattan", Move(G("DAS"), "Man")),
    ("G Man - Manhattan East", Move(G("Man"), "MaE")),
    ("Gang Tammany Hall H", Hold(G("Tam"))),
    ("G Tam S G Staten Island", SupportHold(G("Tam"), G("Str"))),
]


@pytest.mark.parametrize(("text", "orders"), PRINTED)
def test_rulebook_printed_orders(mt, text, orders):
    assert parse_mobtown_order(text, mt) == orders


@pytest.mark.parametrize(("text", "order"), OTHER)
def test_other_forms(mt, text, order):
    assert parse_mobtown_order(text, mt) == [order]


@pytest.mark.parametrize("text", [t for t, _ in PRINTED] + [t for t, _ in OTHER])
def test_round_trips(mt, text):
    for order in parse_mobtown_order(text, mt):
        assert parse_mobtown_order(str(order), mt) == [order]
        assert parse_mobtown_order(rulebook_text(order), mt) == [order]


def test_rulebook_text_is_compact(mt):
    (order,) = parse_mobtown_order("Gang Tamany Hall - U - Extortion Alley", mt)
    assert rulebook_text(order) == "G(Tam)-U-Ext"
    assert str(order) == "G Tam - U - Ext"


@pytest.mark.parametrize(("text", "needle"), [
    ("G Lex", "stops too early"),
    ("G(Lex)-Xyz", "unknown province 'Xyz'"),
    ("D(Har) cement", "expected overcoat"),
    ("G(Tam)-U", "stops too early"),
    ("G+D(Har) cement overcoat", "for the Don alone"),
    ("Gang starts in Lex", "only a Don is placed"),
    ("Gang in Lex", "only a Don is placed"),
])
def test_errors_are_explained(mt, text, needle):
    with pytest.raises(OrderError) as info:
        parse_mobtown_order(text, mt)
    assert needle in str(info.value)
    assert info.value.column >= 1


def test_case_sensitive_ids_first(mt):
    assert parse_mobtown_order("G(LOP) H", mt)[0].unit.location == "LOP"
    assert parse_mobtown_order("G(Lop) H", mt)[0].unit.location == "Lop"


def test_file_with_sections_and_errors(mt):
    text = "Al Capone:\nG(DAN)-Col\nG(Bnx)-Zzz  # typo\nMurder Inc.: G(MaE)-Lak\n"
    result = parse_mobtown_orders(text, mt)
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("capone", "G DAN - Col"), ("murderinc", "G MaE - Lak")]
    (err,) = result.errors
    assert err.line == 3 and "Zzz" in err.message


def test_mob_name_prefixes_never_eat_a_section(mt):
    from mobadj.mobtown.notation import split_mob

    assert split_mob("Legs Diamond:", mt) == (None, "Legs Diamond:")
    assert split_mob("Legs Diamond G(RoE)-Cat", mt) == ("diamond", "G(RoE)-Cat")
    assert split_mob("Lepke Don starts in Pie", mt) == ("lepke", "Don starts in Pie")
    assert split_mob("G(Lex)-Col", mt) == (None, "G(Lex)-Col")
    result = parse_mobtown_orders("Legs Diamond:\nG(Bro)-Bur\nLegs G(P37)-Bgt", mt)
    assert [p.power for p in result.orders] == ["diamond", "diamond"] and not result.errors


def test_garbage_gives_order_errors_not_tracebacks(mt):
    import random

    rng = random.Random(7)
    pieces = ["G", "D", "(", ")", "+", "-", "U", "S", "H", "&", "Lex", "Col", "5th", "cement",
              "overcoat", "Don", "starts", "in", "Build", "Remove", "R", "Har", ":", "xyz", "42"]
    for _ in range(300):
        text = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        try:
            parse_mobtown_order(text, mt)
        except OrderError as exc:
            assert exc.column >= 1 and str(exc)
