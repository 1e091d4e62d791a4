"""Adjacency derived from a grid plan (rule 4 geometry, rule 5 subways)."""

from __future__ import annotations

import pytest

from mobadj.render.geometry import derive_edges, junction_points
from mobadj.render.layout import LayoutError, parse_layout

# A B C    highway H runs between the first two rows; a junction joins B and E;
# D E F    every inner corner is a point where four spaces meet (diagonals);
# G H I    subways A-I (underground only) and D-E (beside a ground border).
PLAN = {
    "grid": "A B C\nD E F\nG H I\n",
    "crossing": "highway", "roads": [{"name": "H", "points": [[0, 1], [3, 1]]}],
    "junctions": [["B", "E"]],
    "lines": {"route": "subway", "links": [["A", "I"], ["D", "E"]]},
}


def edges(plan: dict, impassable=()):
    return {tuple(sorted(k)): v for k, v in
            derive_edges(parse_layout(plan), impassable=impassable).items()}


def test_plain_highway_junction_and_diagonals():
    e = edges(PLAN)
    assert e[("A", "B")] == {"via": "plain"}
    assert e[("A", "D")] == {"via": "highway", "highway": "H"}  # rule 4: crossing
    assert e[("B", "E")] == {"via": "junction"}  # rule 4: a junction joins them
    assert e[("D", "H")] == {"via": "diagonal"}  # four spaces meet at (1, 2)
    assert e[("A", "E")] == {"via": "highway", "highway": "H", "diagonal": True}


def test_subways_alone_and_beside_ground():
    e = edges(PLAN)
    assert e[("A", "I")] == {"via": "subway"}
    assert e[("D", "E")] == {"via": "plain", "subway": True}


def test_straddling_space_is_never_across():
    plan = {"grid": "A B\nQ Q\nQ Q\nC D\n",
            "roads": [{"name": "H", "points": [[0, 2], [2, 2]]}], "straddle": {"Q": "H"}}
    e = edges(plan)
    assert e[("A", "Q")] == {"via": "plain"} and e[("C", "Q")] == {"via": "plain"}


def test_impassable_has_no_edges():  # rule 2: Bootleg Bay
    e = edges(PLAN, impassable={"C"})
    assert not any("C" in k for k in e) and ("B", "F") in e
    with pytest.raises(LayoutError, match="subway D-E runs into an impassable space"):
        edges(PLAN, impassable={"E"})


def test_junction_must_lie_on_a_highway():
    plan = {**PLAN, "junctions": [["A", "B"]]}
    with pytest.raises(LayoutError, match="junction A-B is not on a road"):
        junction_points(parse_layout(plan))


def test_bad_layouts_are_named():
    with pytest.raises(LayoutError, match="grid row 2 has 2 cells, expected 3"):
        parse_layout({"grid": "A B C\nD E\n"})
    with pytest.raises(LayoutError, match="bends off the grid"):
        derive_edges(parse_layout({"grid": "A B\nC D\n",
                                   "roads": [{"name": "H", "points": [[0, 0], [1, 1]]}]}))
    with pytest.raises(LayoutError, match="pair of space ids"):
        parse_layout({"grid": "A B\n", "lines": {"route": "subway", "links": [["A"]]}})
    with pytest.raises(LayoutError, match="lines needs the route kind"):
        parse_layout({"grid": "A B\n", "lines": [["A", "B"]]})


def test_plan_problems_found():
    from mobadj.render.geometry import plan_problems

    plan = {"grid": "A B A\nC C D\n", "roads": [{"name": "H", "points": [[0, 1], [3, 1]]}],
            "straddle": {"C": "H"}, "lines": {"route": "subway", "links": [["A", "Z"]]},
            "junctions": [["A", "B"]]}
    problems = plan_problems(parse_layout(plan))
    assert "A is split into pieces that do not touch" in problems
    assert "C is said to straddle H, but H does not cross it" in problems
    assert "subway A-Z names unknown space Z" in problems
    assert any("junction A-B is not on a road" in p for p in problems)
    cutting = {"grid": "A A\nA A\n", "roads": [{"name": "H", "points": [[0, 1], [2, 1]]}]}
    assert plan_problems(parse_layout(cutting)) == [
        "road H cuts through A, which is not listed under straddle"]


def test_mobtown_plan_is_sound():
    from mobadj.render.geometry import plan_problems
    from mobadj.render.layout import load_layout

    assert plan_problems(load_layout("mobtown2")) == []


def test_diagonal_through_a_highway_corner_names_the_one_it_must_cross():
    plan = {"grid": "A B\nC D\n", "crossing": "highway",
            "roads": [{"name": "H", "points": [[1, 0], [1, 1]]},
                      {"name": "V", "points": [[0, 1], [2, 1]]}]}
    e = edges(plan)
    assert e[("A", "B")] == {"via": "highway", "highway": "H"}
    assert e[("A", "D")] == {"via": "highway", "highway": "V", "diagonal": True}
    assert e[("B", "C")] == {"via": "highway", "highway": "V", "diagonal": True}


def test_every_label_sits_inside_its_space():
    from mobadj.render.geometry import label_point
    from mobadj.render.layout import load_layout

    layout = load_layout("mobtown2")
    for sid, cells in layout.cells().items():
        lx, ly = label_point(layout, sid, cells)
        near = {(int(lx + dx), int(ly + dy)) for dx in (-0.01, 0.01) for dy in (-0.01, 0.01)}
        assert near & set(cells), sid


def test_a_road_is_crossed_by_the_layouts_tag_for_it():
    """The ``via`` of a move across a road is the layout's ``crossing`` (Mobtown II:
    ``highway``, as its map writes it); a layout that names none says ``road``."""
    plain = {key: value for key, value in PLAN.items() if key != "crossing"}
    assert edges(plain)[("A", "D")] == {"via": "road", "road": "H"}
    assert edges(PLAN)[("A", "D")] == {"via": "highway", "highway": "H"}
