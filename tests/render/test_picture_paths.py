"""Every way a picture is made shows the whole turn, each order once: ``mobadj adjudicate
--picture`` (both maps), ``mobadj map render --orders`` with the results ``mobadj adjudicate
--json`` prints, and the judge's results mail; a PNG asked for without the render extra
gets one line saying how to have it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from svgread import NS, crossings, head, lines, marker_boxes, tag_boxes, text_boxes

ROOT = Path(__file__).resolve().parents[2]
MOB = ROOT / "orders" / "mobtown2"
STD = ROOT / "orders" / "standard"


def mobadj(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mobadj", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env=env)


def drawn(svg: str) -> dict[str, list[tuple[str | None, ...]]]:
    root = ET.fromstring(svg)
    out: dict[str, list[tuple[str | None, ...]]] = {}
    for el in root.iter(f"{NS}path"):
        cls = el.get("class") or ""
        if cls.startswith(("move-", "support-")):
            out.setdefault(cls, []).append(
                (el.get("data-from"), el.get("data-to") or el.get("data-unit")))
    out["U tags"] = [("U",)] * len(tag_boxes(root, "subway-move-tag"))
    return out


EXAMPLE_C = {  # rule 5, example c, as drawn after adjudication
    "move-ok": [("Mic", "Mem")], "move-failed": [("Mem", "Mic")],
    "support-ok": [("PPU", "Mem"), ("Pel", "Mem"), ("Bgt", "Mic")], "U tags": [("U",)]}


def picture(tmp_path: Path, map_name: str, position: Path, orders: Path) -> str:
    """The SVG ``mobadj adjudicate --picture`` draws."""
    pic = tmp_path / "p.svg"
    run = mobadj("adjudicate", "--map", map_name, str(position), str(orders), "--picture",
                 str(pic))
    assert run.returncode == 0, run.stderr
    return pic.read_text(encoding="utf-8")


def test_adjudicate_picture_draws_supports_on_mobtown(tmp_path):
    got = drawn(picture(tmp_path, "mobtown2", MOB / "example-c.yaml", MOB / "example-c.txt"))
    assert {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in
                                                       EXAMPLE_C.items()}


def test_adjudicate_picture_draws_supports_on_the_standard_map(tmp_path):
    got = drawn(picture(tmp_path, "standard", STD / "position-s1901.yaml", STD / "s1901.txt"))
    assert got["support-ok"] == [("MAR", "BUR")]
    assert ("PAR", "BUR") in got["move-ok"] and ("VIE", "GAL") in got["move-failed"]
    assert len(got["move-ok"]) + len(got["move-failed"]) == 18  # every move ordered


def rendered(tmp_path: Path, map_name: str, position: Path, orders: Path) -> str:
    """The SVG ``mobadj map render --orders`` draws from what ``mobadj adjudicate --json``
    prints."""
    run = mobadj("adjudicate", "--map", map_name, "--json", str(position), str(orders))
    assert run.returncode == 0, run.stderr
    results = tmp_path / "results.json"
    results.write_text(run.stdout, encoding="utf-8")
    pic = tmp_path / "rendered.svg"
    run = mobadj("map", "render", "--map", map_name, "--orders", str(results), "-o", str(pic))
    assert run.returncode == 0, run.stderr
    return pic.read_text(encoding="utf-8")


def test_map_render_draws_each_move_of_adjudicate_json_once(tmp_path):
    got = drawn(rendered(tmp_path, "mobtown2", MOB / "example-c.yaml", MOB / "example-c.txt"))
    assert {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in
                                                       EXAMPLE_C.items()}


def test_the_judges_results_picture_draws_moves_and_supports():
    from mobadj.judge.hosts import host_for

    std, mob = host_for("standard"), host_for("mobtown2")
    kept = std.picture, mob.picture
    std.picture = mob.picture = "svg"  # as the judge sets it from the game's options
    try:
        _results_pictures(std, mob)
    finally:
        std.picture, mob.picture = kept


def _results_pictures(std, mob):
    state = std.new_state(sorted(std.game_map.powers), 7, {})
    done = std.resolve(state, {"FRANCE": "A PAR - BUR\nA MAR S A PAR - BUR",
                               "GERMANY": "A MUN - BUR"}, [])
    svg = next(data for name, _t, data in done.attachments if name == "map.svg").decode()
    got = drawn(svg)
    assert got["move-ok"] == [("PAR", "BUR")] and got["move-failed"] == [("MUN", "BUR")]
    assert got["support-ok"] == [("MAR", "BUR")]
    state = mob.new_state(sorted(mob.game_map.powers), 7, {})
    state = mob.resolve(state, {}, sorted(mob.game_map.powers)).state  # the Dons placed
    done = mob.resolve(state, {"murderinc": "G(Man)-Lak\nG(MaE) S G(Man)-Lak",
                               "capone": "G(DAS) S G(DAN)"}, [])
    got = drawn(next(data for name, _t, data in done.attachments if name == "map.svg").decode())
    assert got["move-ok"] == [("Man", "Lak")]
    assert sorted(got["support-ok"]) == [("DAS", "DAN"), ("MaE", "Lak")]


WINTER = """\
phase: W1901A
units:
  FRANCE: [A BUR, F MAO, A SPA]
  ENGLAND: [F LON, F NTH, A NWY]
  ITALY: [A VEN, A ROM, F NAP, A TYR]
centers:
  FRANCE: [PAR, MAR, BRE, SPA, POR]
  ENGLAND: [LON, EDI, LVP, NWY]
  ITALY: [VEN, ROM, NAP]
"""


def _marks(svg: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<g class="(build|removal|convoy-route|convoy-failed)"'
                      r'(?: data-space="(\w+)")? data-power="(\w*)">', svg)


def _centre(svg: str, kind: str, space: str) -> tuple[str, str]:
    """The centre of the first circle of the group of ``kind`` (unit, build, removal) in
    ``space``."""
    found = re.search(rf'<g class="{kind}" data-space="{space}"[^>]*>\s*<circle '
                      r'cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert found, (kind, space)
    return found.group(1), found.group(2)


def test_every_way_a_picture_is_made_draws_builds_removals_and_convoys(tmp_path):
    """The marks the game pages draw are on the pictures of the command line too: ``mobadj
    adjudicate --picture``, ``mobadj map render --orders`` (a PNG has them as well:
    tests/render/test_raster.py)."""
    turn = picture(tmp_path, "standard", STD / "position-s1901.yaml", STD / "s1901.txt")
    assert _marks(turn) == [("convoy-route", "", "ENGLAND")]  # F NTH carries A YOR
    # the key says what the marks of this picture mean, and no others
    assert "convoy: the army's route" in turn
    assert "unit built" not in turn and "unit removed" not in turn
    position = tmp_path / "w1901.yaml"
    position.write_text(WINTER, encoding="utf-8")
    orders = tmp_path / "w1901.txt"
    orders.write_text("France:\nBuild A PAR\nBuild F BRE\nItaly:\nRemove A TYR\n",
                      encoding="utf-8")
    marked = [("build", "BRE", "FRANCE"), ("build", "PAR", "FRANCE"),
              ("removal", "TYR", "ITALY")]
    winter = picture(tmp_path, "standard", position, orders)
    assert sorted(_marks(winter)) == marked
    assert "unit built" in winter and "unit removed" in winter and "convoy:" not in winter
    # the picture is of the position after the phase: each unit built is there, ringed
    for space in ("PAR", "BRE"):
        assert _centre(winter, "build", space) == _centre(winter, "unit", space)
    assert sorted(_marks(rendered(tmp_path, "standard", position, orders))) == marked


def test_removals_by_civil_disorder_are_drawn_as_the_pages_draw_them(tmp_path):
    """Italy owes a removal and orders none: the unit the rules remove is crossed out on
    ``mobadj adjudicate --picture``, on ``mobadj map render --orders`` and on the judge's
    results picture, as the game's pages draw it."""
    import json

    import yaml

    from mobadj.judge.hosts import host_for

    position = tmp_path / "w1901.yaml"
    position.write_text(WINTER, encoding="utf-8")
    orders = tmp_path / "w1901.txt"
    orders.write_text("France:\nBuild A PAR\n", encoding="utf-8")
    run = mobadj("adjudicate", "--json", str(position), str(orders))
    [removal] = json.loads(run.stdout)["defaults"]
    assert removal["power"] == "ITALY" and removal["reason"] == "civil disorder removal"
    gone = removal["order"].split()[-1]  # "Remove A TYR" -> TYR
    marked = [("build", "PAR", "FRANCE"), ("removal", gone, "ITALY")]
    winter = picture(tmp_path, "standard", position, orders)
    assert sorted(_marks(winter)) == marked and "unit removed" in winter
    assert sorted(_marks(rendered(tmp_path, "standard", position, orders))) == marked
    std = host_for("standard")
    kept = std.picture
    std.picture = "svg"
    try:
        state = std.new_state(sorted(std.game_map.powers), 7, {})
        state["position"] = yaml.safe_load(WINTER)
        done = std.resolve(state, {"FRANCE": "Build A PAR"}, ["ITALY"])
        svg = next(data for name, _t, data in done.attachments if name == "map.svg").decode()
        assert sorted(_marks(svg)) == marked
    finally:
        std.picture = kept


def test_the_judges_results_picture_draws_convoys_and_builds():
    """A convoy in autumn, a build in winter: the results mail's map shows both."""
    from mobadj.judge.hosts import host_for

    std = host_for("standard")
    kept = std.picture
    std.picture = "svg"
    try:
        state = std.new_state(sorted(std.game_map.powers), 7, {})
        state = std.resolve(state, {"ENGLAND": "F LON - NTH\nA LVP - YOR"}, []).state
        done = std.resolve(state, {"ENGLAND": "F NTH C A YOR - NWY\nA YOR - NWY"}, [])
        svg = next(data for name, _t, data in done.attachments if name == "map.svg").decode()
        assert _marks(svg) == [("convoy-route", "", "ENGLAND")]
        done = std.resolve(done.state, {"ENGLAND": "Build F LON"}, [])
        svg = next(data for name, _t, data in done.attachments if name == "map.svg").decode()
        assert _marks(svg) == [("build", "LON", "ENGLAND")]
        assert _centre(svg, "build", "LON") == _centre(svg, "unit", "LON")
    finally:
        std.picture = kept


def test_a_mobtown_weekend_picture_rings_the_gang_and_the_don_built(tmp_path):
    """Mobtown's picture lists its own moves (with their routes); the results still add
    their marks: a Gang recruited and a Don rebuilt (rule 3), each ringed where it now
    stands."""
    position = tmp_path / "weekend.yaml"
    position.write_text("phase: 1919-07-W2-A\nunits:\n  lepke: [G Que]\ncenters:\n"
                        "  lepke: [Pie, Que, P45]\n", encoding="utf-8")
    orders = tmp_path / "weekend.txt"
    orders.write_text("Lepke: Build G P45\nLepke: Build D Pie\n", encoding="utf-8")
    svg = picture(tmp_path, "mobtown2", position, orders)
    assert sorted(_marks(svg)) == [("build", "P45", "lepke"), ("build", "Pie", "lepke")]
    assert _centre(svg, "build", "P45") == _centre(svg, "unit", "P45")
    star = re.search(r'<g class="unit" data-space="Pie"[^>]*>\s*<polygon points="([^"]+)"',
                     svg).group(1)  # the Don: a star around (x, y + 1)
    points = [tuple(map(float, p.split(","))) for p in star.split()]
    x, y = (sum(c) / len(points) for c in zip(*points, strict=True))
    bx, by = map(float, _centre(svg, "build", "Pie"))
    assert abs(bx - x) < 0.2 and abs(by - (y - 1)) < 0.2
    assert ">unit built<" in svg


def test_png_without_the_render_extra_says_how_to_get_it(tmp_path):
    fake = tmp_path / "site" / "cairosvg"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'cairosvg'\", name='cairosvg')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    run = mobadj("adjudicate", "--map", "mobtown2", str(MOB / "example-c.yaml"),
                 str(MOB / "example-c.txt"), "--picture", str(tmp_path / "c.png"), env=env)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        f"Error: cannot write {tmp_path / 'c.png'}: PNG pictures need the optional render "
        "extra: pip install 'mobadj[render]' (with the system library libcairo2); or write "
        ".svg"]
    assert "G Mic - Mem" in run.stdout  # the results are printed all the same
    again = mobadj("map", "render", "--map", "mobtown2", "-o", str(tmp_path / "m.png"), env=env)
    assert again.returncode == 1 and "Traceback" not in again.stderr
    assert "pip install 'mobadj[render]'" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1


def test_the_docs_busy_week_through_the_command_line(tmp_path):
    """docs/img/mobtown2-turn.png as the docs make it: 41 Gangs, 41 orders, at scale 1."""
    svg = picture(tmp_path, "mobtown2", MOB / "september.yaml", MOB / "september.txt")
    root = ET.fromstring(svg)
    assert root.get("width") == "1952" and root.get("height") == "1314"
    got = drawn(svg)
    assert len(got["move-ok"]) + len(got["move-failed"]) == 24
    assert len(got["support-ok"]) + len(got.get("support-failed", [])) == 13
    walls = [(w, b.grow(1.8)) for w, b in text_boxes(root) + marker_boxes(root)]
    paths = lines(root, "move-ok", "move-failed", "support-ok", "support-failed")
    assert [(el.get("data-from"), w) for el, pts in paths for w in crossings(pts, walls)] == []
    assert [(el.get("data-from"), w) for el, pts in paths if el.get("class").startswith("move")
            for w, box in walls if any(box.contains(*p) for p in head(pts))] == []


def test_a_mobtown_weekend_picture_marks_builds_and_removals_in_the_rulebook_notation(tmp_path):
    """Builds and removals are read as the variant reads them (``Remove G 5th``: a name
    that begins with a digit, which the standard notation does not read): each is marked on
    the picture ``mobadj adjudicate --picture`` draws and on the one ``mobadj map render
    --orders`` draws from the results."""
    position = tmp_path / "weekend.yaml"
    position.write_text("phase: 1919-07-W2-A\nunits:\n  luciano: [G WCP]\n"
                        "  capone: [G DAN, D DAN, G DAS, G Bnx, G 110]\ncenters:\n"
                        "  luciano: [5th, WCP, Wch]\n  capone: [DAN, DAS]\n", encoding="utf-8")
    orders = tmp_path / "weekend.txt"
    orders.write_text("Luciano: Build G 5th\nLuciano: Build D(WCP)\n"
                      "Capone: Remove G(110)\nCapone: Remove G Bnx\n", encoding="utf-8")
    marked = [("build", "5th", "luciano"), ("build", "WCP", "luciano"),
              ("removal", "110", "capone"), ("removal", "Bnx", "capone")]
    svg = picture(tmp_path, "mobtown2", position, orders)
    assert sorted(_marks(svg)) == marked
    assert ">unit built<" in svg and ">unit removed<" in svg
    assert sorted(_marks(rendered(tmp_path, "mobtown2", position, orders))) == marked
