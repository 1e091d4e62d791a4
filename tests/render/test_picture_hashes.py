"""Every picture stays as it was drawn: the SVG of a set of pictures of both maps (openings,
turns with moves, supports, a convoy, dislodgements, gaoled Gangs, captive Dons, subway and
highway moves, and the key under each) hashed and held to the hashes in
``data/picture_hashes.yaml``.  A change that means to alter a picture records the new hashes
(``python tests/render/test_picture_hashes.py --record``) and says why in its commit."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mobadj.board.loader import load_map
from mobadj.render import load_layout, render_svg
from mobadj.render.layout import parse_layout

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
HASHES = DATA / "picture_hashes.yaml"
ORDERS = ROOT / "orders"

#: name -> (map, position file, orders file): drawn by ``mobadj adjudicate --picture``
ADJUDICATED = {
    "standard-s1901-turn": ("standard", "standard/position-s1901.yaml", "standard/s1901.txt"),
    "mobtown2-september-turn": ("mobtown2", "mobtown2/september.yaml",
                                "mobtown2/september.txt"),
    "mobtown2-example-a": ("mobtown2", "mobtown2/example-a.yaml", "mobtown2/example-a.txt"),
    "mobtown2-example-b": ("mobtown2", "mobtown2/example-b.yaml", "mobtown2/example-b.txt"),
    "mobtown2-example-c": ("mobtown2", "mobtown2/example-c.yaml", "mobtown2/example-c.txt"),
}

STANDARD_AUTUMN = {
    "caption": "Autumn 1902",
    "units": {"RUSSIA": ["F STP/NC", "A MOS"], "FRANCE": ["F SPA/SC", "A PAR"],
              "TURKEY": ["F BUL/EC", "A CON"], "ENGLAND": ["F NTH", "A NWY"],
              "GERMANY": ["A DEN"]},
    "centers": {"RUSSIA": ["STP", "MOS"], "FRANCE": ["SPA", "PAR"], "TURKEY": ["BUL"]},
    "dislodged": {"GERMANY": [{"unit": "A NWY", "from": "SWE", "via": "ground"}]},
    "moves": [{"power": "ENGLAND", "from": "LON", "to": "NTH", "result": "succeeds"},
              {"power": "ENGLAND", "from": "YOR", "to": "NWY", "via": "convoy",
               "result": "succeeds"},
              {"power": "FRANCE", "from": "GAS", "to": "SPA", "result": "fails"}],
    "supports": [{"power": "RUSSIA", "from": "MOS", "unit": "STP", "result": "succeeds"}],
}


def _highway_turn() -> dict:
    """A Mobtown II week of highway crossings (one supported, one not), a junction move, a
    gaoled Gang and a captive Don."""
    return {
        "caption": "October 1919, week 1",
        "units": {"capone": ["G Yan", "D Yan", "G Len", "G MTPD"],
                  "lepke": ["G HaE", "D Chi captive", "G Tim"],
                  "luciano": ["G Chi", "G Que"]},
        "centers": {"capone": ["Yan"], "lepke": ["Chi"]},
        "moves": [{"power": "capone", "from": "Yan", "to": "HaE", "via": "highway",
                   "result": "succeeds"},
                  {"power": "lepke", "from": "Tim", "to": "42nd", "via": "junction",
                   "result": "succeeds"},
                  {"power": "luciano", "from": "Que", "to": "Lin", "via": "ground",
                   "result": "fails"}],
        "supports": [{"power": "capone", "from": "Len", "unit": "Yan", "to": "HaE",
                      "result": "succeeds"}],
        "dislodged": {"lepke": [{"unit": "G HaE", "from": "Yan", "via": "highway"}]},
    }


def _api_pictures() -> dict[str, str]:
    standard, mobtown = load_map("standard"), load_map("mobtown2")
    std_layout, mob_layout = load_layout("standard"), load_layout("mobtown2")
    position = yaml.safe_load((DATA / "position.yaml").read_text(encoding="utf-8"))
    polygons = {pid: {"polygon": [[(i % 10) * 60, (i // 10) * 60], [(i % 10) * 60 + 58,
                                  (i // 10) * 60], [(i % 10) * 60 + 58, (i // 10) * 60 + 58],
                                  [(i % 10) * 60, (i // 10) * 60 + 58]]}
                for i, pid in enumerate(standard.provinces)}
    bare = parse_layout({"map": "standard", "spaces": polygons})
    return {
        "standard-opening": render_svg(standard, std_layout),
        "standard-autumn-convoy": render_svg(standard, std_layout, STANDARD_AUTUMN),
        "standard-bare-polygons": render_svg(standard, bare, STANDARD_AUTUMN),
        "mobtown2-opening": render_svg(mobtown, mob_layout),
        "mobtown2-august-week2": render_svg(mobtown, mob_layout, position),
        "mobtown2-highway-turn": render_svg(mobtown, mob_layout, _highway_turn()),
    }


def _adjudicated(name: str, tmp: Path) -> str:
    map_name, position, orders = ADJUDICATED[name]
    pic = tmp / f"{name}.svg"
    run = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", "--map", map_name,
                          str(ORDERS / position), str(ORDERS / orders), "--picture", str(pic)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    return pic.read_text(encoding="utf-8")


def _digest(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()


def _recorded() -> dict[str, str]:
    return yaml.safe_load(HASHES.read_text(encoding="utf-8"))


def test_pictures_drawn_by_the_api_are_unchanged():
    got = {name: _digest(svg) for name, svg in _api_pictures().items()}
    want = {name: h for name, h in _recorded().items() if name not in ADJUDICATED}
    assert got == want


@pytest.mark.parametrize("name", sorted(ADJUDICATED))
def test_pictures_of_adjudicated_turns_are_unchanged(tmp_path, name):
    assert _digest(_adjudicated(name, tmp_path)) == _recorded()[name]


def test_the_pictures_show_what_they_are_meant_to():
    """The recorded pictures hold what they stand for (a hash alone would hold a blank)."""
    pictures = _api_pictures()
    assert 'class="dislodged' in pictures["standard-autumn-convoy"]
    assert "move-ok" in pictures["mobtown2-highway-turn"]
    assert "captive" in pictures["mobtown2-august-week2"]
    assert ">Key<" in pictures["mobtown2-opening"] and ">Key<" in pictures["standard-opening"]


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        hashes = {name: _digest(svg) for name, svg in _api_pictures().items()}
        hashes |= {name: _digest(_adjudicated(name, Path(tmp))) for name in ADJUDICATED}
    HASHES.write_text("# sha256 of each picture's SVG (tests/render/test_picture_hashes.py)\n"
                      + yaml.safe_dump(dict(sorted(hashes.items()))), encoding="utf-8")
