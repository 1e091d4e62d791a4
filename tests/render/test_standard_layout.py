"""The standard map's picture: a schematic Europe whose borders are exactly the map's
adjacencies, every province named, seas blue, centres marked, split coasts labelled."""

from __future__ import annotations

import math
import struct
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from mobadj.board.loader import load_map
from mobadj.cli import main
from mobadj.render import load_layout, render_png, render_svg
from mobadj.render.geometry import shared_borders
from mobadj.render.ink import WATER, Style
from mobadj.render.legend import key_items

NS = "{http://www.w3.org/2000/svg}"

POSITION = {
    "caption": "Autumn 1902",
    "units": {"RUSSIA": ["F STP/NC", "A MOS"], "FRANCE": ["F SPA/SC", "A PAR"],
              "TURKEY": ["F BUL/EC", "A CON"], "ENGLAND": ["F NTH"]},
    "centers": {"RUSSIA": ["STP", "MOS"], "FRANCE": ["SPA", "PAR"], "TURKEY": ["BUL"]},
    "moves": [{"power": "ENGLAND", "from": "LON", "to": "NTH", "result": "succeeds"}],
}


@pytest.fixture(scope="module")
def gm():
    return load_map("standard")


@pytest.fixture(scope="module")
def layout():
    return load_layout("standard")


def _adjacent_provinces(gm) -> set[frozenset[str]]:
    out = set()
    for a, b in gm.graph.edges():
        pa, pb = a.split("/")[0], b.split("/")[0]
        if pa != pb:
            out.add(frozenset((pa, pb)))
    return out


def test_every_province_drawn_and_switzerland_named(gm, layout):
    assert layout.is_grid and not layout.diagonals
    assert set(gm.provinces) | {"SWI"} == layout.space_ids()
    assert layout.names == {"SWI": "Switzerland"}
    assert len(gm.provinces) == 75


def test_borders_in_the_picture_are_the_maps_adjacencies(gm, layout):
    """A player reads moves off the picture: no border the map lacks, none missing."""
    drawn = {pair for pair in shared_borders(layout) if "SWI" not in pair}
    adjacent = _adjacent_provinces(gm)
    assert sorted(map(sorted, drawn - adjacent)) == []
    assert sorted(map(sorted, adjacent - drawn)) == []
    swiss = {next(iter(pair - {"SWI"})) for pair in shared_borders(layout) if "SWI" in pair}
    assert swiss == {"MAR", "BUR", "PIE", "TYR"}


def test_split_coasts_face_their_seas(gm, layout):
    """Each coast tag sits on the border of its province with a sea that coast reaches."""
    assert set(layout.coasts) == {"SPA/NC", "SPA/SC", "STP/NC", "STP/SC", "BUL/EC", "BUL/SC"}
    cells = layout.cells()
    for loc, (x, y) in layout.coasts.items():
        prov = loc.split("/")[0]
        seas = {n.split("/")[0] for n in gm.graph.successors(loc)
                if gm.provinces[n.split("/")[0]].terrain == "sea"}
        near = {(int(x + dx), int(y + dy)) for dx in (-0.5, 0, 0.5) for dy in (-0.5, 0, 0.5)}
        owners = {sid for sid, cs in cells.items() for c in cs if c in near}
        assert prov in owners and owners & seas, (loc, owners, seas)


def test_svg_start_position(gm, layout):
    root = ET.fromstring(render_svg(gm, layout))
    groups = {el.get("id"): el for el in root.iter(f"{NS}g") if el.get("id")}
    texts = {el.text for el in root.iter(f"{NS}text") if el.text}
    for pid, prov in gm.provinces.items():
        assert f"space-{pid}" in groups and pid in texts
        fills = {r.get("fill") for r in groups[f"space-{pid}"].iter(f"{NS}rect")}
        if prov.terrain == "sea":
            assert WATER in fills
        else:
            assert WATER not in fills
    assert "Switzerland" in texts and "impassable" in texts
    centres = [el for el in root.iter() if el.get("class") == "centre"]
    assert len(centres) == 34
    assert len([el for el in root.iter() if el.get("class") == "coast"]) == 6
    assert {"NC", "SC", "EC"} <= texts
    units = [el for el in root.iter() if (el.get("class") or "").startswith("unit-")]
    assert len(units) == 22
    assert not [el for el in root.iter() if el.get("class") == "diagonal"]
    assert "Powers" in texts and "Mobs" not in texts
    assert "Army" in texts and "Fleet" in texts and "Gang" not in texts


def test_fleets_on_split_coasts_stand_at_their_coast(gm, layout):
    root = ET.fromstring(render_svg(gm, layout, POSITION))
    where = {}
    for g in root.iter(f"{NS}g"):
        if g.get("class") == "unit":
            badge = next(c for c in g.iter(f"{NS}circle"))
            label = next(t.text for t in g.iter(f"{NS}text"))
            where[(g.get("data-space"), label)] = (float(badge.get("cx")),
                                                   float(badge.get("cy")))
    style = Style()
    for loc in ("STP/NC", "SPA/SC", "BUL/EC"):
        gx, gy = layout.coasts[loc]
        tag = (style.margin + gx * layout.cell, style.margin + style.title_h + gy * layout.cell)
        x, y = where[(loc.split("/")[0], "F")]
        assert math.hypot(x - tag[0], y - tag[1]) < 20, loc  # beside its coast's tag
    assert ("BUL", "F") in where and ("CON", "A") in where
    assert [el for el in root.iter() if el.get("class") == "move-ok"]


def test_png(gm, layout):
    data = render_png(gm, layout, POSITION, scale=0.5)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (912, 825)


def test_key_lists_only_what_the_map_uses(gm, layout):
    keys = dict(key_items(gm, layout))
    assert keys["unit:A"] == "Army" and keys["unit:F"] == "Fleet"
    assert "held" not in keys and "line" not in keys and "diag" not in keys
    assert not any(k.startswith(("stop:", "route-move:")) for k in keys)
    mob = load_map("mobtown2")
    assert [k for k, _ in key_items(mob, load_layout("mobtown2"))] == [
        "unit:G", "unit:D", "centre", "home", "terrain:water", "terrain:gaol", "road",
        "straddle", "junction", "stop:U", "line", "diag", "ok", "fail", "route-move:U", "sup",
        "dis", "held"]
    words = dict(key_items(mob, load_layout("mobtown2")))  # the layout's words for its route
    assert (words["stop:U"], words["route-move:U"]) == ("subway: order G(X)-U-Y",
                                                          "move by subway")
    assert dict(key_items(mob, load_layout("mobtown2")))["straddle"] == (
        "Queens: both sides, no crossing")


def test_cli_renders_the_standard_map(tmp_path):
    out = tmp_path / "standard.svg"
    res = CliRunner().invoke(main, ["map", "render", "--map", "standard", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "space-PAR" in out.read_text(encoding="utf-8")


def test_engine_positions_keep_the_coast(gm):
    """The engine keys units by province and keeps the coast in ``location``."""
    from types import SimpleNamespace

    from mobadj.render import as_view

    fleet = SimpleNamespace(power="RUSSIA", kind="F", location="STP/NC")
    view = as_view(gm, SimpleNamespace(units={"STP": fleet}, centers={}, dislodged={},
                                       phase="Spring 1901"))
    assert [(u.province, u.coast) for u in view.units] == [("STP", "NC")]
    army = SimpleNamespace(power="RUSSIA", kind="A", location="MOS")
    view = as_view(gm, SimpleNamespace(units={"MOS": army}, centers={}, dislodged={}))
    assert [(u.province, u.coast) for u in view.units] == [("MOS", "")]
