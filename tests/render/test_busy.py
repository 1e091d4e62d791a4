"""A busy turn stays readable: on generated turns of some forty Gangs and forty orders,
drawn at the size the judge mails (scale 1, the docs' picture), no move arrow or support
line crosses a name or passes under a unit, no arrow head hides under a unit, every move
by subway carries its U tag in the open, and every order is drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from busy import busy_pictures
from svgread import crossings, head, lines, marker_boxes, tag_boxes, text_boxes

from mobadj.render import render_svg

SEEDS = range(1, 7)
STROKE = 1.8  # half the width of a move arrow (the widest line)


@pytest.fixture(scope="module")
def drawn(gm, layout):
    out = {}
    for seed in SEEDS:
        turn = busy_pictures(gm, seed)
        for when in ("before", "after"):
            out[(seed, when)] = (turn[when], ET.fromstring(render_svg(gm, layout, turn[when])))
        out[(seed, "result")] = turn["result"]
    return out


CASES = [(seed, when) for seed in SEEDS for when in ("before", "after")]
IDS = [f"seed{seed}-{when}" for seed, when in CASES]


@pytest.mark.parametrize(("seed", "when"), CASES, ids=IDS)
def test_every_order_is_drawn(drawn, seed, when):
    view, root = drawn[(seed, when)]
    result = drawn[(seed, "result")]
    arrows = lines(root, "move-ok", "move-failed")
    supports = lines(root, "support-ok", "support-failed")
    moves = view["moves"] if isinstance(view, dict) else view.moves
    helps = view["supports"] if isinstance(view, dict) else view.supports
    assert len(arrows) == len(moves) == len(result.moves) >= 15
    assert len(supports) == len(helps) >= 8
    unders = [m for m in result.moves if m["via"] == "subway"]
    assert len(tag_boxes(root, "subway-move-tag")) == len(unders)
    ok = {(m["from"], m["to"]) for m in result.moves if m["result"] == "succeeds"}
    assert {(el.get("data-from"), el.get("data-to")) for el, _p in arrows
            if el.get("class") == "move-ok"} == ok


@pytest.mark.parametrize(("seed", "when"), CASES, ids=IDS)
def test_no_line_crosses_a_name_or_passes_under_a_unit(drawn, seed, when):
    _view, root = drawn[(seed, when)]
    names = [(what, box.grow(STROKE)) for what, box in text_boxes(root)]
    markers = [(what, box.grow(STROKE)) for what, box in marker_boxes(root)]
    assert len(names) > 280 and len(markers) > 40
    crossed = []
    for el, pts in lines(root, "move-ok", "move-failed", "support-ok", "support-failed"):
        who = f"{el.get('class')} {el.get('data-from')}->{el.get('data-to') or el.get('data-unit')}"
        crossed += [(who, what) for what in crossings(pts, names + markers)]
    assert crossed == []


@pytest.mark.parametrize(("seed", "when"), CASES, ids=IDS)
def test_arrow_heads_and_tags_lie_in_the_open(drawn, seed, when):
    _view, root = drawn[(seed, when)]
    names = text_boxes(root)
    markers = marker_boxes(root)
    hidden = []
    for el, pts in lines(root, "move-ok", "move-failed"):
        corners = head(pts)
        for what, box in names + markers:
            if any(box.contains(x, y) for x, y in corners):
                hidden.append((el.get("data-from"), el.get("data-to"), what))
    assert hidden == []
    for tag in tag_boxes(root, "subway-move-tag"):
        assert not [what for what, box in names + markers if tag.overlaps(box)]


def test_two_ways_between_the_same_spaces_take_two_lanes(gm, layout):
    """Example c's clash: Mic-Mem over ground against Mem-Mic under it, both heads seen."""
    view = {"units": {"murderinc": ["G Mem"], "babyface": ["G Mem", "G Bgt"]},
            "moves": [{"power": "murderinc", "from": "Mic", "to": "Mem", "result": "succeeds"},
                      {"power": "babyface", "from": "Mem", "to": "Mic", "via": "subway",
                       "result": "fails"}],
            "dislodged": {"babyface": [{"unit": "G Mem", "from": "Mic"}]}}
    view["units"]["babyface"] = ["G Bgt"]
    root = ET.fromstring(render_svg(gm, layout, view))
    (one, a), (two, b) = lines(root, "move-ok", "move-failed")
    assert {one.get("data-from"), two.get("data-from")} == {"Mic", "Mem"}
    gap = min(((x - u) ** 2 + (y - v) ** 2) ** 0.5 for x, y in a[len(a) // 3: -len(a) // 3]
              for u, v in b)
    assert gap > 8  # apart in the middle: two lanes, not one line drawn over the other
    for _el, pts in ((one, a), (two, b)):
        assert not [w for w, box in marker_boxes(root) if any(box.contains(*p)
                                                              for p in head(pts))]
