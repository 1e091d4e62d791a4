"""The picture's words for a map's own things come from its layout: a map that says nothing
gets the core's plain words, a layout's ``legend``, ``terrains``, ``leader`` and ``held``
change them, and the orders of results are read with the escorts of the map's rules."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mobadj.board.loader import load_map
from mobadj.render import ViewError, as_view, render_svg
from mobadj.render.layout import LayoutError, parse_layout
from mobadj.render.legend import key_items, unit_count
from mobadj.render.position import moves_from_results, supports_from_results

NS = "{http://www.w3.org/2000/svg}"
GRID = {"map": "mobtown2", "grid": "Tam Ext\nMTPD Mic\n"}


def test_a_layout_that_says_nothing_gets_the_cores_words(gm):
    words = dict(key_items(gm, parse_layout(GRID)))
    assert words["unit:G"] == "Gang" and words["unit:D"] == "Don"  # the map's kind names
    assert words["terrain:water"] == "water" and "terrain:gaol" not in words
    assert (words["centre"], words["ok"], words["dis"]) == (
        "supply centre", "move succeeded", "dislodged unit")
    assert "held" not in words


def test_the_layouts_legend_speaks_for_the_map(gm, layout):
    words = dict(key_items(gm, layout))
    assert words["unit:D"] == "Don (boss)" and words["terrain:gaol"] == "MTPD (gaol)"
    assert words["road"] == "highway: cross with +1 support"
    assert words["held"] == "captured Don"
    own = parse_layout({**GRID, "legend": {"ok": "it worked", "unit:G": "Crew"},
                        "terrains": {"gaol": {"fill": "#000000", "badge": "JAIL"}}})
    words = dict(key_items(gm, own))
    assert (words["ok"], words["unit:G"], words["terrain:gaol"]) == ("it worked", "Crew", "gaol")
    svg = render_svg(gm, own)
    assert ">JAIL<" in svg and ">GAOL<" not in svg and ">it worked<" in svg


def test_the_leader_and_the_held_piece_come_from_the_layout(gm, layout):
    view = as_view(gm, {"units": {"lepke": ["G Chi", "G Que", "D Chi captive"]}})
    assert unit_count(gm, view, "lepke", layout) == "2 Gangs + Don (captive)"
    assert unit_count(gm, view, "lepke", parse_layout(GRID)) == "3 units"
    root = ET.fromstring(render_svg(gm, layout, view))
    assert [el.get("class") for el in root.iter(f"{NS}circle")].count("captive") == 1


def test_only_the_layouts_words_may_follow_a_unit(gm):
    with pytest.raises(ViewError, match=r"unexpected 'jailed' after the unit .*"
                                        r"expected captive or captured"):
        as_view(gm, {"units": {"lepke": ["D Chi jailed"]}})
    standard = load_map("standard")
    with pytest.raises(ViewError, match="unexpected 'captive' after the unit"):
        as_view(standard, {"units": {"FRANCE": ["A PAR captive"]}})


def test_a_broken_legend_or_terrain_is_one_clear_error():
    with pytest.raises(LayoutError, match="legend maps each name to its words"):
        parse_layout({**GRID, "legend": ["ok"]})
    with pytest.raises(LayoutError, match="terrain gaol is drawn with fill, pattern"):
        parse_layout({**GRID, "terrains": {"gaol": {"colour": "red"}}})
    with pytest.raises(LayoutError, match="held needs the unit kind"):
        parse_layout({**GRID, "held": {"kind": "D"}})


def test_a_legend_symbol_the_key_does_not_have_is_refused_with_the_symbols_it_has():
    """A misspelt symbol would leave its line of the key with the core's words."""
    with pytest.raises(LayoutError, match=r"the legend has no symbol 'junktion' \(did you "
                                          r"mean 'junction'\?\); its symbols are blocked, "):
        parse_layout({**GRID, "legend": {"junktion": "joins its two ends"}})
    with pytest.raises(LayoutError, match="the legend has no symbol 'unit:'"):
        parse_layout({**GRID, "legend": {"unit:": "a piece"}})
    layout = parse_layout({**GRID, "legend": {"unit:G": "Gang", "terrain:gaol": "gaol",
                                              "stop:U": "stop", "held": "held", "ok": "won",
                                              "build": "recruited"}})
    assert layout.legend["ok"] == "won"


def test_the_key_says_the_marks_of_the_picture_in_the_layouts_words(gm):
    from pathlib import Path

    import yaml

    from mobadj.render import results_view

    maps = Path(__file__).resolve().parents[2] / "maps"
    data = yaml.safe_load((maps / "mobtown2.layout.yaml").read_text(encoding="utf-8"))
    data["legend"]["build"] = "Gang recruited"
    layout = parse_layout(data)
    position = {"units": {"capone": ["G DAN", "D DAN"]}}
    plain = render_svg(gm, layout, position)
    marked = render_svg(gm, layout, results_view(gm, position, [
        {"power": "capone", "order": "G DAN Disband", "result": "succeeds"},
        {"power": "capone", "order": "Build G DAS", "result": "succeeds"}]))
    assert ">Gang recruited<" in marked and ">unit removed<" in marked
    assert "Gang recruited" not in plain and "unit removed" not in plain


def test_the_legend_symbols_a_layout_may_name_are_those_the_key_draws():
    from mobadj.render.layout import LEGEND_KEYS
    from mobadj.render.legend import KEY_WORDS

    assert set(LEGEND_KEYS) == {k for k in KEY_WORDS if ":" not in k} | {"held"}


def test_escorts_are_read_as_the_maps_rules_allow(gm):
    results = [{"power": "babyface", "order": "G+D(Mic)-U-Cit", "result": "succeeds"},
               {"power": "capone", "order": "G(Lop) S G+D(P49)-P55", "result": "succeeds"}]
    (move,) = moves_from_results(gm, results)
    assert (move.src, move.dst, move.via) == ("Mic", "Cit", "subway")
    (support,) = supports_from_results(gm, results)
    assert (support.unit, support.to) == ("P49", "P55")
    standard = load_map("standard")  # no piece travels with a unit there
    assert moves_from_results(standard, [{"power": "FRANCE", "order": "A+F PAR - BUR"}]) == []
    assert len(moves_from_results(standard, [{"power": "FRANCE", "order": "A PAR - BUR"}])) == 1


def test_a_layout_with_a_key_it_does_not_know_is_refused_with_the_keys_it_knows() -> None:
    """A misspelt or renamed key (``highways:`` of older layouts, now ``roads:``) is never
    silently left undrawn."""
    import pytest

    from mobadj.render.layout import LayoutError, parse_layout

    with pytest.raises(LayoutError) as exc:
        parse_layout({"cell": 40, "highways": []}, "old.layout.yaml")
    assert str(exc.value).startswith("old.layout.yaml: unknown key 'highways'; a layout's keys")
    assert "roads" in str(exc.value)
    with pytest.raises(LayoutError, match=r"unknown key 'legnd' \(did you mean 'legend'\?\)"):
        parse_layout({"legnd": {}}, "typo.layout.yaml")
