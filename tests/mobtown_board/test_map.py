"""maps/mobtown2.yaml honours every fact of the rulebook (../shared/rules/mobtown2.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mobadj.board.check import check_map
from mobadj.board.loader import load_map, map_path
from mobadj.render.geometry import derive_edges
from mobadj.render.layout import load_layout
from mobadj.render.plan import plan_differences

#: shared/ stands beside the repository (or beside the folder of its worktrees)
SHARED = next(p / "shared" for p in Path(__file__).resolve().parents if (p / "shared").is_dir())
RULEBOOK = SHARED / "rules" / "mobtown2.md"

HOMES = {  # the rulebook's home centre lists, per mob
    "capone": {"DAN": "Dope Avenue North", "DAS": "Dope Avenue South", "Bnx": "Bronx"},
    "babyface": {"Wal": "Wall Street", "DtB": "Downtown Bushwick", "Sun": "Sunset Boulevard"},
    "diamond": {"P37": "Precinct 37", "Brk": "Brooklyn", "Bro": "Broadway"},
    "lepke": {"Pie": "Pierpoint", "Que": "Queens", "P45": "Precinct 45"},
    "luciano": {"5th": "Fifth Avenue", "WCP": "West Central Park", "Wch": "Westchester"},
    "murderinc": {"MaE": "Manhatten East", "Man": "Manhatten", "Sho": "Shore"},
}
NEUTRAL = {
    "Lib": "Liberty", "P22": "Precinct 22", "Con": "Coney", "Cas": "Casino",
    "Col": "Columbus", "Riv": "Riverside", "Cap": "Capitol", "Mon": "Monument",
    "Chi": "Chinatown", "Lak": "Lakeside", "Sou": "Southside", "Cat": "Cathedral Parkway",
    "Pla": "Plaza", "Yon": "Yonkers",
}


OTHERS = {  # the rulebook's "Non Supply Centre Spaces", as printed
    "Ast": "Astoria", "Bac": "Backstreet", "Bgt": "Bogart", "BoR": "Bootleg River",
    "Bur": "Burbank", "Cag": "Cagney", "Can": "Canal", "Cem": "Cement Canyon",
    "Cen": "Central Pool", "Chc": "Chicane", "Cit": "City Hall", "DtH": "Downtown Harlem",
    "Doc": "Dockland", "DSt": "Downstream", "Eas": "Eastside", "LOP": "East Central Park",
    "Ext": "Extortion Alley", "Fla": "Flatbush", "GoG": "Golden Gate",
    "GCS": "Grand Central Station", "Gre": "Greenwich Village", "HaE": "Harlem East",
    "Har": "Harbour", "HaW": "Harlem West", "Hoo": "Hooker Alley", "Kin": "Kings",
    "Len": "Lennox", "Lex": "Lexington", "Lin": "Lincoln Park", "Lit": "Little Italy",
    "Lop": "Loop", "Lon": "Long Island", "Mad": "Madison", "Mem": "Memorial",
    "Mic": "Michael Street", "MTT": "Mobtown Tribune", "MTU": "Mobtown University",
    "Mur": "Murphy Green", "Pac": "Pacific Bar", "Pel": "Pelham", "Pen": "Pentagon",
    "Poi": "Point", "Pol": "Pollution Pier", "Por": "Portland", "PPL": "Protection Pool Lower",
    "PPU": "Protection Pool Upper", "P49": "Precinct 49", "P55": "Precinct 55",
    "PSq": "Pennsylvania Square", "Raf": "Raft", "Rob": "Robinson", "RoE": "Rockaway East",
    "Roo": "Roosevelt Drive", "RoW": "Rockaway West", "Str": "Straten", "Sur": "Surf",
    "Syn": "Syndicate Square", "Tam": "Tamany Hall", "Tem": "Temple", "Tim": "Times Square",
    "UtB": "Uptown Bushwick", "UtH": "Uptown Harlem", "UCP": "Uptown Central Park",
    "Web": "Webster", "Wes": "West Side", "Whi": "Whitestone", "Yan": "Yankees",
    "42nd": "42nd Street", "110": "110th Street", "325": "Third and Twenty Fifth",
}


def flag(edge: dict, key: str) -> bool:
    """An edge flag such as ``subway: true`` (the loader keeps extra attributes as text)."""
    return str(edge.get(key, "")).lower() == "true"


def attrs(edge: dict) -> dict:
    """Edge attributes as the plan derives them: flags as booleans, bookkeeping dropped."""
    out = {k: v for k, v in edge.items() if k not in ("line", "kind")}
    for key in ("subway", "diagonal"):
        if key in out:
            out[key] = flag(out, key)
    return out


@pytest.fixture(scope="module")
def gm():
    return load_map("mobtown2")


def test_other_spaces_count():
    assert len(OTHERS) == 70  # the printed list has 70 names


def _rulebook_other_spaces() -> dict[str, str]:
    """The 'Non Supply Centre Spaces' list, read from the rulebook itself."""
    text = RULEBOOK.read_text(encoding="utf-8")
    block = text[text.index("Non Supply Centre Spaces") + len("Non Supply Centre Spaces"):]
    block = " ".join(block.split())
    pairs = re.findall(r"(\w+)\s*(?:=|-)?\s*([A-Z0-9][\w ]+?)(?=,|\.\s*$)", block.strip())
    return dict(pairs)


def test_list_matches_the_rulebook():
    assert _rulebook_other_spaces() == OTHERS
    text = RULEBOOK.read_text(encoding="utf-8")
    for sid, name in [*NEUTRAL.items(), *(kv for h in HOMES.values() for kv in h.items())]:
        assert f"{sid} = {name}" in text


def test_map_file_is_clean():
    assert check_map(map_path("mobtown2")) == []


@pytest.mark.parametrize("sid,name", [(k, v) for h in HOMES.values() for k, v in h.items()]
                         + sorted(NEUTRAL.items()) + sorted(OTHERS.items()))
def test_every_rulebook_space_with_exact_name(gm, sid, name):
    prov = gm.provinces[sid]
    assert prov.name == name


def test_space_count_and_extras(gm):
    assert len(gm.provinces) == 18 + 14 + 70 + 2
    assert gm.provinces["MTPD"].terrain == "gaol"
    assert gm.provinces["MTPD"].name == "Mobtown Police Department"
    assert gm.provinces["Bay"].terrain == "impassable"
    assert gm.provinces["Bay"].name == "Bootleg Bay"


def test_thirty_two_centres(gm):  # rule 8
    assert len(gm.supply_centers) == 32
    assert gm.supply_centers == set(NEUTRAL) | {c for h in HOMES.values() for c in h}


def test_homes_and_starting_gangs(gm):  # rule 6: Dons are placed in the June 1919 turn
    for pid, homes in HOMES.items():
        power = gm.powers[pid]
        assert set(power.home_centers) == set(homes)
        assert sorted(power.starting_units) == sorted(("G", c) for c in homes)
        for c in homes:
            assert gm.provinces[c].home_of == pid


def test_powers_names_and_colours(gm):  # rule 1
    names = {p.name for p in gm.powers.values()}
    assert names == {"Al Capone", '"Baby Face" Nelson', "Legs Diamond", "Lepke",
                     "Lucky Luciano", "Murder Incorporated"}
    assert len({p.colour.lower() for p in gm.powers.values()}) == 6
    assert gm.power_id("Baby Face") == "babyface"
    assert gm.power_id("murder inc.") == "murderinc"


def test_unit_kinds_and_case_sensitive_ids(gm):
    assert gm.unit_kinds == {"G": "Gang", "D": "Don"}
    assert gm.case_sensitive_ids
    assert gm.lookup("LOP") == "LOP" and gm.lookup("Lop") == "Lop"
    assert gm.lookup("ECP") == "LOP"
    assert gm.lookup("East Central Park") == "LOP" and gm.lookup("Loop") == "Lop"
    assert gm.lookup("Gon") == "GoG"  # rule 4's "Gon"


def test_water_and_bay(gm):  # rule 2
    water = {p for p, v in gm.provinces.items() if v.terrain == "water"}
    assert water == {"BoR", "DSt", "Can", "Cen", "Har", "PPU", "PPL"}
    for w in water:
        assert gm.can_occupy("G", w)
    assert not gm.can_occupy("G", "Bay")
    assert not any(dst == "Bay" for _src, dst in gm.graph.edges())


def test_symmetry_with_same_attributes(gm):
    for src, dst, data in gm.graph.edges(data=True):
        back = gm.edge("G", dst, src)
        assert back is not None, (src, dst)
        strip = {k: v for k, v in data.items() if k != "line"}
        assert strip == {k: v for k, v in back.items() if k != "line"}


PLAIN = [("Lex", "Col"), ("PPU", "Har"), ("Har", "Str"), ("PPU", "Mem"), ("Pel", "Mem"),
         ("Mic", "Mem"), ("Bgt", "Mic"), ("RoE", "Cat"), ("P22", "Bur"), ("Pla", "Sun")]


@pytest.mark.parametrize("a,b", PLAIN)
def test_example_ground_moves_are_plain(gm, a, b):
    """Rules 3-5 examples: these moves and supports need no highway crossing."""
    assert gm.edge("G", a, b)["via"] == "plain"


SUBWAYS = [("Tam", "Ext"), ("WCP", "Mem"), ("Mic", "P49"), ("Cit", "Mic"), ("Mem", "Mic"),
           ("Pla", "Sun"), ("RoE", "Cat")]


@pytest.mark.parametrize("a,b", SUBWAYS)
def test_example_subways(gm, a, b):  # rule 5 and its examples a, b, c
    e = gm.edge("G", a, b)
    assert e["via"] == "subway" or flag(e, "subway")


def test_rule5_example_b_and_c_ground_and_subway(gm):
    for a, b in [("Pla", "Sun"), ("RoE", "Cat"), ("Mic", "Mem")]:
        e = gm.edge("G", a, b)
        assert e["via"] == "plain" and flag(e, "subway")


def test_wcp_mem_is_far_over_ground(gm):  # "even G(WCP)-U-Mem is legal"
    assert gm.edge("G", "WCP", "Mem")["via"] == "subway"


@pytest.mark.parametrize("a,b", [("Tam", "Ext"), ("Mic", "P49"), ("Cit", "Mic")])
def test_subway_only_links(gm, a, b):
    """Rule 5's example a and Tam-Ext: links under ground only (Mic-P49: map ruling 7)."""
    assert gm.edge("G", a, b)["via"] == "subway"


def test_rule4_example_gon_crosses_a_highway(gm):
    e = gm.edge("G", "GoG", "Bur")
    assert e["via"] == "highway" and e["highway"]
    assert gm.edge("G", "P22", "Bur")["via"] == "plain"


def test_queens_straddles_its_highway(gm):  # rule 4
    assert all(gm.edge("G", "Que", n)["via"] in ("plain", "subway", "diagonal")
               for n in gm.neighbours("G", "Que"))
    layout = load_layout("mobtown2")
    assert "Que" in layout.straddle


def test_highway_features_exist(gm):
    vias = [d["via"] for _s, _d, d in gm.graph.edges(data=True)]
    assert vias.count("highway") >= 40 and vias.count("junction") >= 10
    assert vias.count("diagonal") >= 20
    assert any(flag(d, "diagonal") and d["via"] == "highway"
               for *_x, d in gm.graph.edges(data=True))
    subways = [(s, d) for s, d, e in gm.graph.edges(data=True)
               if e["via"] == "subway" or flag(e, "subway")]
    assert len(subways) // 2 >= 15


def test_mtpd_is_reachable_for_retreats(gm):  # rule 7
    assert len(gm.neighbours("G", "MTPD")) >= 5


def test_map_agrees_with_city_plan(gm):
    """The rules graph is exactly what the drawing shows (no edge exists in one only)."""
    layout = load_layout("mobtown2")
    derived = derive_edges(layout, impassable={"Bay"})
    assert layout.space_ids() == set(gm.provinces)
    listed = {}
    for src, dst, data in gm.graph.edges(data=True):
        listed[frozenset((src, dst))] = attrs(data)
    assert listed == derived
    assert plan_differences(gm, layout) == []
