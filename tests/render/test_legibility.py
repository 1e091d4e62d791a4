"""Every name on the Mobtown II picture stays readable: no subway line crosses a label, no
marker stands on one, labels keep apart and inside their spaces, and the type is big enough.

Checked on the drawn SVG (text boxes measured with DejaVu Sans's advance widths) for the
starting position and for the three examples of rule 5, before and after adjudication."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import svgread
import yaml
from svgread import marker_boxes

from mobadj.engine import adjudicate, position_from_data
from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.render import render_svg
from mobadj.render.ink import Style
from mobadj.render.placement import (
    NAME_MIN,
    Box,
    placement,
    polyline_hits,
)

NS = "{http://www.w3.org/2000/svg}"
ORDERS = Path(__file__).resolve().parents[2] / "orders" / "mobtown2"


def _example(gm, name):
    data = yaml.safe_load((ORDERS / f"{name}.yaml").read_text(encoding="utf-8"))
    pos = position_from_data(data, gm)
    parsed = parse_mobtown_orders((ORDERS / f"{name}.txt").read_text(encoding="utf-8"), gm)
    assert not parsed.errors
    return data, adjudicate(pos, parsed.orders, gm).position


def views(gm):
    out = {"start": None}
    for name in ("example-a", "example-b", "example-c"):
        before, after = _example(gm, name)
        out[name] = before
        out[f"{name}, adjudicated"] = after
    return out


def text_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """Box of every abbreviation, name line, centre disc and subway stop drawn (the subway
    lines' number tags stand on their lines: test_signs.py checks them)."""
    return [(what, box) for what, box in svgread.text_boxes(root)
            if not what.startswith("line ")]


def subway_lines(root: ET.Element) -> list[tuple[str, list[tuple[float, float]]]]:
    out = []
    for el in root.iter(f"{NS}path"):
        if el.get("class") == "subway":
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", el.get("d"))]
            out.append((el.get("data-link"), list(zip(nums[::2], nums[1::2], strict=True))))
    return out


@pytest.fixture(scope="module")
def pictures(gm, layout):
    return {name: ET.fromstring(render_svg(gm, layout, view))
            for name, view in views(gm).items()}


@pytest.mark.parametrize("name", ["start", "example-a", "example-a, adjudicated", "example-b",
                                  "example-b, adjudicated", "example-c",
                                  "example-c, adjudicated"])
def test_no_label_crossed_by_a_subway_line_or_hidden_by_a_marker(pictures, name):
    root = pictures[name]
    texts = text_boxes(root)
    lines = subway_lines(root)
    assert len(lines) == 16 and len(texts) > 250
    crossed = [(link, what) for link, path in lines for what, box in texts
               if not what.startswith("station") and polyline_hits(path, box)]
    assert crossed == []
    stops = []
    for link, path in lines:
        ends = {f"station {sid}" for sid in link.split("-")}
        for what, box in texts:  # a line meets its own two stops only at its ends
            if what.startswith("station") and polyline_hits(
                    path[1:-1] if what in ends else path, box):
                stops.append((link, what))
    assert stops == []
    markers = marker_boxes(root)
    assert markers or name == "start"
    hidden = [(m, what) for m, mbox in markers for what, box in texts if mbox.overlaps(box)]
    assert hidden == []


def test_the_examples_show_their_markers(pictures):
    c = marker_boxes(pictures["example-c, adjudicated"])
    assert [m for m, _box in c if m.startswith("dislodged")] == ["dislodged Mem"]
    assert len(marker_boxes(pictures["start"])) == 18


def test_labels_keep_apart_and_inside_their_spaces(gm, layout):
    place = placement(gm, layout, Style())
    boxes = [(sid, b) for sid, p in place.spaces.items() if p.kind != "impassable"
             for b in p.label_boxes()]
    clash = [(a, c) for i, (a, ba) in enumerate(boxes) for c, bc in boxes[i + 1:]
             if a != c and ba.overlaps(bc)]
    assert clash == []
    for sid, p in place.spaces.items():
        if p.kind == "impassable":
            continue
        e = p.extent()
        assert p.room.contains(e.x0, e.y0) and p.room.contains(e.x1, e.y1), sid
        ux, uy = p.unit_at
        assert p.room.contains(ux - 26, uy - 14.5) and p.room.contains(ux + 26, uy + 15.5), sid


def test_type_is_legible(gm, layout, pictures):
    place = placement(gm, layout, Style())
    assert min(p.name_size for p in place.spaces.values() if p.name_lines) >= 10.5  # px
    for el in pictures["start"].iter(f"{NS}text"):
        if el.get("class") in ("abbr", "name"):
            assert float(el.get("font-size")) >= NAME_MIN
    names = " ".join(el.text for el in pictures["start"].iter(f"{NS}text")
                     if el.get("class") == "name")
    for prov in gm.provinces.values():
        if prov.terrain != "impassable":
            assert all(word in names for word in prov.name.split()), prov.name
