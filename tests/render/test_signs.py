"""The signs that say what joins what: subway lines told apart by number and colour with the
number at both stops, junctions drawn from one joined space into the other, and a key that
counts each mob's units as its centres pay for them (the Don apart)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from busy import busy_pictures
from svgread import NS, marker_boxes, path_points, tag_boxes, text_boxes

from mobadj.render import render_svg
from mobadj.render.ink import Style
from mobadj.render.placement import frame_of, polyline_hits


@pytest.fixture(scope="module")
def start(gm, layout):
    return ET.fromstring(render_svg(gm, layout))


def _paths(root, cls):
    return [el for el in root.iter(f"{NS}path") if el.get("class") == cls]


def test_every_subway_line_has_its_number_at_both_stops(start, layout):
    lines = {el.get("data-link"): el for el in _paths(start, "subway")}
    assert sorted(lines) == sorted(f"{a}-{b}" for a, b in layout.links)
    numbers = [int(el.get("data-line")) for el in lines.values()]
    assert sorted(numbers) == list(range(1, len(layout.links) + 1))
    tags = [el for el in start.iter(f"{NS}rect") if el.get("class") == "line-tag"]
    stops = {el.get("data-space"): (float(el.get("x")) + 7, float(el.get("y")) + 7)
             for el in start.iter(f"{NS}rect") if el.get("class") == "station"}
    texts = [(float(t.get("x")), float(t.get("y")), t.text) for t in start.iter(f"{NS}text")]
    for link, el in lines.items():
        a, b = link.split("-")
        mine = [t for t in tags if t.get("data-line") == el.get("data-line")]
        assert sorted(t.get("data-space") for t in mine) == sorted([a, b])
        pts = path_points(el.get("d"))
        for tag in mine:
            x, y = float(tag.get("x")), float(tag.get("y"))
            w, h = float(tag.get("width")), float(tag.get("height"))
            cx, cy = x + w / 2, y + h / 2
            near = min(math.hypot(px - cx, py - cy) for px, py in pts)
            assert near <= 10  # on its line (or just beside it)
            own, other = tag.get("data-space"), b if tag.get("data-space") == a else a
            assert math.dist((cx, cy), stops[own]) < math.dist((cx, cy), stops[other])
            written = [text for tx, ty, text in texts if abs(tx - cx) < 0.2
                       and abs(ty - (y + h - 3)) < 0.2]
            assert written == [el.get("data-line")]


def test_line_tags_keep_off_names_and_units(start, gm, layout):
    names = [(w, b) for w, b in text_boxes(start) if not w.startswith("line")]
    tags = tag_boxes(start, "line-tag")
    assert len(tags) == 2 * len(layout.links)
    assert [(w, t) for t in tags for w, b in names if t.overlaps(b)] == []
    assert [(i, j) for i, t in enumerate(tags) for j, u in enumerate(tags)
            if i < j and t.overlaps(u)] == []
    for seed in (1, 2, 3):  # busy boards: no unit stands on a tag
        root = ET.fromstring(render_svg(gm, layout, busy_pictures(gm, seed)["after"]))
        assert [(w, t) for t in tags for w, b in marker_boxes(root) if t.overlaps(b)] == []


def test_crossing_lines_differ_in_colour(start):
    lines = [(el.get("data-link"), el.get("stroke"), path_points(el.get("d"), 3.0))
             for el in _paths(start, "subway")]
    assert len({colour for _l, colour, _p in lines}) >= 3
    for i, (a, ca, pa) in enumerate(lines):
        for b, cb, pb in lines[i + 1:]:
            touch = any(math.dist(p, q) < 6 for p in pa[::2] for q in pb[::2])
            shared = set(a.split("-")) & set(b.split("-"))
            if touch or shared:
                assert ca != cb, (a, b)


def test_junctions_run_from_one_joined_space_into_the_other(start, layout):
    frame = frame_of(layout, Style())
    bars = {el.get("data-join"): path_points(el.get("d"), 1.0)
            for el in _paths(start, "junction")}
    assert sorted(bars) == sorted(f"{a}-{b}" for a, b in layout.junctions)

    def space_at(x, y):
        gx, gy = (x - frame.ox) / frame.cell, (y - frame.oy) / frame.cell
        return layout.grid[int(gy)][int(gx)]

    for join, pts in bars.items():
        a, b = join.split("-")
        assert space_at(*pts[0]) == a and space_at(*pts[-1]) == b, join
        mid = pts[len(pts) // 2]
        # off its very middle (on the highway) it lies in the two spaces it joins only: a
        # corner junction cannot be read as joining the other two spaces at that corner
        assert {space_at(*p) for p in pts if math.dist(p, mid) > 2} == {a, b}, join
    corner = bars["42nd-Chi"]
    (x0, y0), (x1, y1) = corner[0], corner[-1]
    assert abs(abs(x1 - x0) - abs(y1 - y0)) < 1  # diagonal, from 42nd's quarter to Chi's
    names = text_boxes(start)
    assert [(j, w) for j, pts in bars.items() for w, b in names if polyline_hits(pts, b)] == []


def test_the_key_counts_units_without_the_don(gm, layout):
    view = {"units": {"capone": ["G DAN", "G DAS", "D DAN", "G MTPD"],
                      "lepke": ["G Que", "D Har captive"], "murderinc": ["G Har"]},
            "centers": {"capone": ["DAN", "DAS", "Bnx"], "lepke": ["Que", "Pie"]},
            "dislodged": {"lepke": [{"unit": "G Pie", "from": "RoW"}]}}
    root = ET.fromstring(render_svg(gm, layout, view))
    counts = {el.get("data-power"): el.text for el in root.iter(f"{NS}text")
              if el.get("class") == "mob-count"}
    assert counts["capone"] == "3 centres, 3 Gangs + Don"  # the gaoled Gang counts
    assert counts["lepke"] == "2 centres, 2 Gangs + Don (captive)"
    assert counts["murderinc"] == "0 centres, 1 Gang"
    assert counts["luciano"] == "0 centres, 0 Gangs"


def test_the_key_counts_units_on_the_standard_map():
    from mobadj.board.loader import load_map
    from mobadj.render import load_layout

    std = load_map("standard")
    root = ET.fromstring(render_svg(std, load_layout("standard")))
    counts = {el.get("data-power"): el.text for el in root.iter(f"{NS}text")
              if el.get("class") == "mob-count"}
    assert counts["RUSSIA"] == "4 centres, 4 units"
