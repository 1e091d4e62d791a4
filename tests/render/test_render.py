"""The picture: valid SVG with every space and unit, PNG output, the CLI, other maps."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mobadj.board.loader import load_map
from mobadj.cli import main
from mobadj.render import BoardView, ViewError, as_view, load_layout, render_png, render_svg
from mobadj.render.layout import parse_layout
from mobadj.render.position import moves_from_results, supports_from_results

DATA = Path(__file__).parent / "data"
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def position():
    return yaml.safe_load((DATA / "position.yaml").read_text(encoding="utf-8"))


def classes(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in (el.get("class") or "").split()]


def texts(root: ET.Element) -> set[str]:
    return {el.text for el in root.iter(f"{NS}text") if el.text}


def reading(root: ET.Element) -> str:
    """All visible text in drawing order (halos skipped), wrapped lines joined by spaces."""
    return " ".join(el.text for el in root.iter(f"{NS}text") if el.text and not el.get("stroke"))


def test_start_position_svg(gm, layout):
    root = ET.fromstring(render_svg(gm, layout))
    ids = {el.get("id") for el in root.iter(f"{NS}g")}
    assert {f"space-{sid}" for sid in gm.provinces} <= ids
    shown = texts(root)
    for sid, prov in gm.provinces.items():
        if prov.terrain != "impassable":
            assert sid in shown  # every space named by its abbreviation
    words = reading(root)
    for prov in gm.provinces.values():
        assert prov.name in words  # and by its full name (wrapped where narrow)
    assert len(classes(root, "unit-G")) == 18 and not classes(root, "unit-D")
    assert len(classes(root, "centre")) == 32
    assert len(classes(root, "junction")) == len(layout.junctions)
    assert len(classes(root, "subway")) == len(layout.links)
    assert classes(root, "diagonal")
    for hw in layout.roads:
        assert hw.name in shown


def test_position_with_dons_dislodged_and_moves(gm, layout, position):
    root = ET.fromstring(render_svg(gm, layout, position))
    assert len(classes(root, "unit-D")) == 6
    assert len(classes(root, "unit-G")) == 24 + 2 + 1  # on the board, in gaol, dislodged
    assert len(classes(root, "captive")) == 1  # Luciano's Don, held in Chinatown
    assert len(classes(root, "dislodged")) == 1
    assert len(classes(root, "move-ok")) == 4 and len(classes(root, "move-failed")) == 3
    assert len(classes(root, "support-ok")) == 2 and len(classes(root, "support-failed")) == 1
    assert "Mobtown II \u2014 August 1919, week 2" in texts(root)
    lepke = [el for el in classes(root, "unit") if el.get("data-power") == "lepke"]
    assert {el.get("data-space") for el in lepke} == {"Que", "Cat", "Mic", "Chi"}


def test_owner_colours_tint_centres(gm, layout, position):
    svg = render_svg(gm, layout, position)
    root = ET.fromstring(svg)
    rects = [el for el in root.iter(f"{NS}g") if el.get("id") == "space-Yon"][0]
    fills = {r.get("fill") for r in rects}
    start_fills = {r.get("fill") for r in [el for el in ET.fromstring(render_svg(gm, layout))
                                           .iter(f"{NS}g") if el.get("id") == "space-Yon"][0]}
    assert fills != start_fills  # Yonkers now Luciano's: tinted green


def test_png_written(gm, layout, position):
    data = render_png(gm, layout, position, scale=0.5)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (976, 657)
    assert len(data) > 50_000


def test_view_errors_name_the_entry(gm):
    with pytest.raises(ViewError, match=r"units: capone\[0\].*did you mean"):
        as_view(gm, {"units": {"capone": ["G Lexx"]}})
    with pytest.raises(ViewError, match="unknown unit kind 'A'"):
        as_view(gm, {"units": {"capone": ["A Lex"]}})
    with pytest.raises(ViewError, match="units: Capon"):
        as_view(gm, {"units": {"Capon": ["G Lex"]}})
    assert as_view(gm, {"units": {"Al Capone": ["G(ECP)"]}}).units[0].province == "LOP"


def test_moves_from_results_in_both_notations(gm):
    moves = moves_from_results(gm, [
        {"power": "capone", "order": "G(Mic)-U-P49", "result": "succeeds"},
        {"power": "murderinc", "order": "G+D(PPU)-Har", "result": "fails"},
        {"power": "lepke", "order": "G Lex - Col", "result": "succeeds"},
        {"power": "lepke", "order": "G(PPU) S G(Mic)-Mem", "result": "succeeds"},
    ])
    assert [(m.src, m.dst, m.via, m.succeeded) for m in moves] == [
        ("Mic", "P49", "subway", True), ("PPU", "Har", "ground", False),
        ("Lex", "Col", "ground", True)]


def test_supports_from_results(gm):
    sups = supports_from_results(gm, [
        {"power": "murderinc", "order": "G(PPU) & G(Pel) S G(Mic)-Mem", "result": "succeeds"},
        {"power": "babyface", "order": "G(Bgt) S G(Mem)-U-Mic", "result": "fails"},
        {"power": "capone", "order": "G Col S G Lex", "result": "succeeds"},
        {"power": "capone", "order": "G(Lex)-Col", "result": "succeeds"},
    ])
    assert [(s.src, s.unit, s.to, s.succeeded) for s in sups] == [
        ("PPU", "Mic", "Mem", True), ("Pel", "Mic", "Mem", True), ("Bgt", "Mem", "Mic", False),
        ("Col", "Lex", None, True)]


def test_engine_like_position_objects(gm, layout):
    class U:
        def __init__(self, power, kind, location):
            self.power, self.kind, self.location = power, kind, location

    class P:
        phase = "1919-07-W1-M"
        units = {"Lex": U("capone", "G", "Lex")}
        centers = {"Lex": "capone"}
        dislodged = {}

    view = as_view(gm, P())
    assert isinstance(view, BoardView) and view.caption == "1919-07-W1-M"

    class MobtownLike:  # anything with to_data() in the position file's shape
        def to_data(self):
            return {"phase": "1919-07-W2-M", "units": {"lepke": ["G Pie", "D Har captive"],
                                                       "capone": ["G Har"]}}

    view = as_view(gm, MobtownLike())
    assert [(u.kind, u.province, u.held) for u in view.units] == [
        ("G", "Pie", False), ("D", "Har", True), ("G", "Har", False)]
    root = ET.fromstring(render_svg(gm, layout, P()))
    assert len(classes(root, "unit-G")) == 1


def test_cli_render_svg_and_png(tmp_path):
    runner = CliRunner()
    out = tmp_path / "board.svg"
    res = runner.invoke(main, ["map", "render", str(DATA / "position.yaml"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    ET.fromstring(out.read_text(encoding="utf-8"))
    png = tmp_path / "board.png"
    res = runner.invoke(main, ["map", "render", "--map", "mobtown2", "-o", str(png),
                               "--scale", "0.4"])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_results_json_draws_arrows(tmp_path):
    results = {"phase": "1919-07-W1-M", "orders": [
        {"power": "capone", "order": "G(DAN)-Lex", "result": "succeeds", "reason": None},
        {"power": "capone", "order": "G(DAS) S G(DAN)-Lex", "result": "succeeds"}]}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    out = tmp_path / "r.svg"
    res = CliRunner().invoke(main, ["map", "render", "--orders", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert len(classes(root, "move-ok")) == 1 and len(classes(root, "support-ok")) == 1


def test_cli_errors_are_friendly(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("units:\n  capone: [G Lexx]\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["map", "render", str(bad), "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 1 and "did you mean" in res.output and "Traceback" not in res.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("units: [\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["map", "render", str(broken), "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 1 and "not valid YAML (line" in res.output
    res = CliRunner().invoke(main, ["map", "render", "-o", str(tmp_path / "x.gif")])
    assert res.exit_code == 2 and ".svg or .png" in res.output
    res = CliRunner().invoke(main, ["map", "render", "--map", "standard", "--layout",
                                    str(tmp_path / "none.layout.yaml"), "-o",
                                    str(tmp_path / "s.svg")])
    assert res.exit_code == 1 and "no layout file" in res.output


def test_polygon_layout_for_another_map(tmp_path):
    """Any map can be drawn once someone writes a polygon layout for it."""
    gm = load_map("standard")
    polygons = {}
    for i, pid in enumerate(gm.provinces):
        x, y = (i % 10) * 60, (i // 10) * 60
        polygons[pid] = {"polygon": [[x, y], [x + 58, y], [x + 58, y + 58], [x, y + 58]]}
    layout_file = tmp_path / "standard.layout.yaml"
    layout_file.write_text(yaml.safe_dump({"map": "standard", "spaces": polygons}),
                           encoding="utf-8")
    root = ET.fromstring(render_svg(gm, load_layout(layout_file)))
    assert len(classes(root, "unit-A")) == 13 and len(classes(root, "unit-F")) == 9
    assert "PAR" in texts(root)


def test_map_plan_command_in_step_and_out_of_step(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["map", "plan", "mobtown2"])
    assert res.exit_code == 0 and "0 difference(s)" in res.output
    text = (Path(__file__).resolve().parents[2] / "maps" / "mobtown2.layout.yaml").read_text()
    assert "  - [HaE, Yan]\n" in text
    moved = tmp_path / "moved.layout.yaml"
    moved.write_text(text.replace("  - [HaE, Yan]\n", ""), encoding="utf-8")
    res = runner.invoke(main, ["map", "plan", "mobtown2", "--layout", str(moved)])
    assert res.exit_code == 1
    assert ("HaE-Yan: the map has {via: junction}, the plan shows {via: highway, "
            "highway: Hoover Highway}") in res.output


def test_map_plan_emit_matches_the_map_file():
    res = CliRunner().invoke(main, ["map", "plan", "--emit"])
    assert res.exit_code == 0
    text = (Path(__file__).resolve().parents[2] / "maps" / "mobtown2.yaml").read_text()
    for block in res.output.split("\n  ")[1:]:
        body = block.split("\n", 1)[1] if "\n" in block else ""
        assert body.rstrip("\n") in text


def test_polygon_layout_draws_subways_straight(gm):
    """A free-polygon layout has no lattice to route on: its subway lines run straight."""
    polygons = {pid: {"polygon": [[(i % 12) * 80, (i // 12) * 80], [(i % 12) * 80 + 78,
                                  (i // 12) * 80], [(i % 12) * 80 + 78, (i // 12) * 80 + 78],
                                  [(i % 12) * 80, (i // 12) * 80 + 78]]}
                for i, pid in enumerate(gm.provinces)}
    layout = parse_layout({"map": "mobtown2", "spaces": polygons,
                           "lines": {"route": "subway", "links": [["Tam", "Ext"]]}})
    root = ET.fromstring(render_svg(gm, layout))
    (line,) = classes(root, "subway")
    assert line.get("data-link") == "Tam-Ext" and line.get("d").count("L") == 1


def _render(tmp_path, *args: str):
    return CliRunner().invoke(main, ["map", "render", "--map", "standard", *args,
                                     "-o", str(tmp_path / "x.svg")])


@pytest.mark.parametrize(("content", "message"), [
    (b"units: England\n", "p.yaml: units: a mapping of each power to its units, got 'England'"),
    (b"units: {England: F LON}\n", "p.yaml: units: England: a list of units, got 'F LON'"),
    (b"centers: {England: 5}\n", "p.yaml: centers: England: a list of provinces, got 5"),
    (b"centers: [LON]\n", "p.yaml: centers: a mapping of each power to its provinces, got ['LON']"),
    (b"moves: 3\n", "p.yaml: moves: a list, got 3"),
    (b"units: " + b"[" * 5000 + b"]" * 5000 + b"\n", "p.yaml: not valid YAML (line 1, column"),
    (b"units: {}\nx: " + b"9" * 5000 + b"\n",
     "p.yaml: not valid YAML (line 2, column 4): a number of 5,000 digits"),
    (b"x0: &a0 [A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR]\n"
     + b"".join(b"x%d: &a%d [%s]\n" % (i, i, b", ".join([b"*a%d" % (i - 1)] * 10))
                for i in range(1, 7)) + b"units: {France: *a6}\n",
     "p.yaml: not valid YAML (line 6, column 5): its aliases repeat more than 1,000,000 values"),
])
def test_a_bad_position_to_draw_is_one_clear_error(tmp_path, content, message):
    path = tmp_path / "p.yaml"
    path.write_bytes(content)
    res = _render(tmp_path, str(path))
    assert res.exit_code == 1 and message in res.output, res.output[:500]
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert len(res.output) < 1000


@pytest.mark.parametrize(("content", "message"), [
    (b'{"orders": "A PAR - BUR"}', "r.json: orders: a list of results, got 'A PAR - BUR'"),
    (b'{"orders": [1]}', "r.json: results[0]: a result is {power, order, result}, got 1"),
    (b'{"units": 5}', "r.json: units: a mapping of each power to its units, got 5"),
    (b"[" * 100_000 + b"]" * 100_000, "r.json: nested too deeply"),
    (b'{"orders": [], "x": 1' + b"0" * 5000 + b"}", "r.json: not valid JSON: a number of"),
])
def test_bad_results_to_draw_are_one_clear_error(tmp_path, content, message):
    path = tmp_path / "r.json"
    path.write_bytes(content)
    res = _render(tmp_path, "--orders", str(path))
    assert res.exit_code == 1 and message in res.output, res.output[:500]
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception


def test_files_to_draw_may_be_in_any_encoding(tmp_path):
    position = tmp_path / "p.yaml"
    position.write_bytes("# caf\u00e9\nunits: {England: [F LON]}\n".encode("utf-16"))
    results = tmp_path / "r.json"
    results.write_bytes('{"orders": [], "note": "caf\u00e9"}'.encode("latin-1"))
    res = _render(tmp_path, str(position), "--orders", str(results))
    assert res.exit_code == 0, res.output
    assert "note: p.yaml: read as UTF-16 (byte-order mark)" in res.output
    assert "note: r.json: not UTF-8 (byte 28); read as Windows-1252 (cp1252)" in res.output


@pytest.mark.parametrize("scale", ["0", "-1", "nan", "inf", "1e308", "100"])
def test_a_scale_out_of_range_is_refused(tmp_path, scale):
    res = CliRunner().invoke(main, ["map", "render", "--map", "standard", "--scale", scale,
                                    "-o", str(tmp_path / "x.png")])
    assert res.exit_code == 2 and "Invalid value for '--scale'" in res.output, res.output
