"""The rulebook's own examples, with exactly the outcomes it states."""

from __future__ import annotations

from pathlib import Path

import yaml

from mobadj.engine import adjudicate, position_from_data
from mobadj.mobtown.notation import parse_mobtown_orders

ORDERS = Path(__file__).resolve().parents[2] / "orders" / "mobtown2"


def _example(mt, name):
    pos = position_from_data(yaml.safe_load((ORDERS / f"{name}.yaml").read_text()), mt)
    parsed = parse_mobtown_orders((ORDERS / f"{name}.txt").read_text(), mt)
    assert not parsed.errors
    return adjudicate(pos, parsed.orders, mt)


def test_example_a_all_subway_moves_succeed(mt):
    # rule 5, example a: "All moves succeed."
    result = _example(mt, "example-a")
    assert [r.outcome.value for r in result.results] == ["succeeds"] * 3
    assert result.position.unit_lists() == {
        "capone": ["G P49"], "lepke": ["G Mic"], "murderinc": ["G WCP"]}


def test_example_b_first_two_fail_latter_two_succeed(mt):
    # rule 5, example b: equally supported Gangs both by subway cannot exchange places;
    # one over ground and one under ground swap.
    result = _example(mt, "example-b")
    assert [r.outcome.value for r in result.results] == [
        "fails", "fails", "succeeds", "succeeds"]
    assert result.results[0].reason.value == (
        "equally supported Gangs cannot exchange places by subway (rule 5)")
    assert result.position.unit_lists() == {
        "babyface": ["G Pla"], "luciano": ["G Sun"], "diamond": ["G Cat"], "lepke": ["G RoE"]}


def test_example_c_mic_mem_succeeds_and_mem_is_dislodged(mt):
    # rule 5, example c: unequal over/under swap: the stronger succeeds, the weaker is
    # dislodged and cannot retreat to the province the attack came from.
    result = _example(mt, "example-c")
    outcome = {r.order: r.outcome.value for r in result.results}
    assert outcome["G Mic - Mem"] == "succeeds"
    assert outcome["G Mem - U - Mic"] == "fails"
    (d,) = result.position.dislodged.values()
    assert str(d.unit) == "G Mem" and d.unit.power == "babyface" and d.attacker_from == "Mic"
    assert "Mic" not in d.retreats and "U-Mic" not in d.retreats
    assert str(result.next_phase) == "1919-07-W1-R"


def test_rule3_example_cement_overcoat_sequence(play):
    # rule 3's example: G+D(PPU)-Har, G(Har)-Str and D(Har) cement overcoat.
    first = play({"capone": ["G PPU"], "lepke": ["D PPU captive", "G Pie"]},
                 "Al Capone: G+D(PPU)-Har")
    assert first.ok("G+D PPU - Har")
    assert first.units["lepke"] == ["D Har captive", "G Pie"]
    second = play(first.after.to_data()["units"],
                  "Al Capone: G(Har)-Str\nAl Capone: D(Har) cement overcoat",
                  phase="1919-07-W2-M")
    assert second.ok("G Har - Str") and second.ok("D Har cement overcoat")
    assert "lepke" not in second.after.dons
    assert second.after.disorder == {"lepke"}


def test_rule4_example_highway_crossing_needs_the_extra_support(play):
    # rule 4's example: G(P22) S G(Gon)-Bur; "Gon" is Golden Gate (docs/mobtown-map.md).
    alone = play({"diamond": ["G GoG"]}, "Legs Diamond: G(Gon)-Bur")
    assert alone.outcome("G GoG - Bur")[0] == "fails"
    assert "extra support" in alone.outcome("G GoG - Bur")[1]
    helped = play({"diamond": ["G GoG", "G P22"]},
                  "Legs Diamond: G(P22) S G(Gon)-Bur\nG(Gon)-Bur")
    assert helped.ok("G GoG - Bur")


RULEBOOK_A = """Al Capone G(Mic)-U-P49
Murder Inc. G(Mem)-U-WCP
Lepke G(Cit)-U-Mic"""


def test_example_a_as_printed_with_the_mob_names(mt):
    # the rulebook prints each mob's name before its orders, with no colon
    parsed = parse_mobtown_orders(RULEBOOK_A, mt)
    assert not parsed.errors
    assert [(p.power, str(p.order)) for p in parsed.orders] == [
        ("capone", "G Mic - U - P49"), ("murderinc", "G Mem - U - WCP"),
        ("lepke", "G Cit - U - Mic")]
    assert [p.column for p in parsed.orders] == [11, 13, 7]


def test_opening_files_read_cleanly_and_play(mt):
    # the files `make demo` uses: June 1919 placement, then Week 1 of July
    start = _example_files(mt, "position-1919-06-START", "don-placement")
    assert str(start.next_phase) == "1919-07-W1-M" and not start.defaults
    assert start.position.dons["babyface"] == "DtB"
    week1 = _example_files(mt, "position-1919-07-W1-M", "opening")
    assert all(r.outcome.value != "invalid" for r in week1.results)
    assert week1.position.dons["capone"] == "Hoo"  # G+D(DAN)-Hoo crossed the highway
    assert not week1.defaults  # every Gang and every Don has an order
    outcome = {r.order: r.outcome.value for r in week1.results}
    assert outcome["G 5th - Pla"] == outcome["G Sun - Pla"] == "fails"  # a standoff
    assert week1.position.dons["luciano"] == "Mem"  # G+D(WCP)-U-Mem: the Don rode along


def _example_files(mt, position, orders):
    pos = position_from_data(yaml.safe_load((ORDERS / f"{position}.yaml").read_text()), mt)
    parsed = parse_mobtown_orders((ORDERS / f"{orders}.txt").read_text(), mt)
    assert not parsed.errors, [str(e) for e in parsed.errors]
    return adjudicate(pos, parsed.orders, mt)
