"""The standard map: counts, symmetry, split coasts and the 1901 position (rulebook map)."""

from __future__ import annotations

import pytest

from mobadj.board.loader import load_map, read_map
from mobadj.board.model import UnknownCoastError, UnknownNameError


@pytest.fixture(scope="module")
def std():
    return load_map("standard")


def test_file_has_no_findings():
    _, findings = read_map(load_map("standard").source)
    assert findings == []


def test_counts(std):
    terrains = [p.terrain for p in std.provinces.values()]
    assert len(std.provinces) == 75
    assert terrains.count("sea") == 19
    assert terrains.count("coast") == 42
    assert terrains.count("land") == 14  # inland
    assert len(std.supply_centers) == 34
    assert len(std.powers) == 7
    neutral = std.supply_centers - {c for p in std.powers.values() for c in p.home_centers}
    expected = "BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN"
    assert neutral == set(expected.split())


def test_every_edge_is_symmetric(std):
    for src, dst, key in std.graph.edges(keys=True):
        assert std.graph.has_edge(dst, src, key=key), (src, dst, key)


def test_armies_never_at_sea_fleets_never_inland(std):
    for pid, prov in std.provinces.items():
        if prov.terrain == "sea":
            assert not std.can_occupy("A", pid) and std.can_occupy("F", pid)
        if prov.terrain == "land":
            assert std.can_occupy("A", pid) and not std.can_occupy("F", pid)
            assert not std.neighbours("F", pid)


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        ("BUL/EC", "BLA CON RUM"),
        ("BUL/SC", "AEG CON GRE"),
        ("STP/NC", "BAR NWY"),
        ("STP/SC", "BOT FIN LVN"),
        ("SPA/NC", "GAS MAO POR"),
        ("SPA/SC", "LYO MAO MAR POR WES"),
        ("CON", "AEG ANK BLA BUL/EC BUL/SC SMY"),
        ("KIE", "BAL BER DEN HEL HOL"),
        ("DEN", "BAL HEL KIE NTH SKA SWE"),
        ("MAO", "BRE ENG GAS IRI NAF NAO POR SPA/NC SPA/SC WES"),
        ("NTH", "BEL DEN EDI ENG HEL HOL LON NWG NWY SKA YOR"),
        ("ION", "ADR AEG ALB APU EAS GRE NAP TUN TYS"),
        ("GAS", "BRE MAO SPA/NC"),
        ("MAR", "LYO PIE SPA/SC"),
        ("POR", "MAO SPA/NC SPA/SC"),
        ("RUM", "BLA BUL/EC SEV"),
        ("SYR", "EAS SMY"),
        ("LVN", "BAL BOT PRU STP/SC"),
    ],
)
def test_fleet_neighbours(std, loc, expected):
    assert std.neighbours("F", loc) == frozenset(expected.split())


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        ("SPA", "GAS MAR POR"),
        ("STP", "FIN LVN MOS NWY"),
        ("BUL", "CON GRE RUM SER"),
        ("MUN", "BER BOH BUR KIE RUH SIL TYR"),
        ("SER", "ALB BUD BUL GRE RUM TRI"),
        ("ARM", "ANK SEV SMY SYR"),
        ("NAF", "TUN"),
        ("BUR", "BEL GAS MAR MUN PAR PIC RUH"),
        ("GAL", "BOH BUD RUM SIL UKR VIE WAR"),
    ],
)
def test_army_neighbours(std, loc, expected):
    assert std.neighbours("A", loc) == frozenset(expected.split())


def test_adjacency_helpers(std):
    assert std.adjacent("F", "MAO", "SPA/NC") and not std.adjacent("F", "MAO", "SPA")
    assert std.adjacent("A", "PAR", "BUR") and not std.adjacent("A", "PAR", "MUN")
    assert std.reaches_province("F", "LYO", "SPA")
    assert std.coasts_to("F", "MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert std.coasts_to("F", "GAS", "SPA") == ("SPA/NC",)
    assert std.edge("F", "NTH", "LON")["via"] == "plain"
    assert std.edge("A", "NTH", "LON") is None
    assert std.locations("SPA") == ("SPA", "SPA/NC", "SPA/SC")
    assert std.locations("PAR") == ("PAR",)
    assert not std.can_occupy("A", "SPA/NC") and not std.can_occupy("F", "SPA")


def test_starting_position(std):
    units = {p: sorted(f"{k} {loc}" for k, loc in pw.starting_units)
             for p, pw in std.powers.items()}
    assert units["RUSSIA"] == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert units["ENGLAND"] == ["A LVP", "F EDI", "F LON"]
    assert sum(len(u) for u in units.values()) == 22
    for pw in std.powers.values():
        for kind, loc in pw.starting_units:
            assert std.can_occupy(kind, loc)
        assert all(std.provinces[c].home_of == pw.id for c in pw.home_centers)


@pytest.mark.parametrize(
    ("text", "loc"),
    [
        ("par", "PAR"), ("Paris", "PAR"), ("St. Petersburg", "STP"), ("stp/nc", "STP/NC"),
        ("STP (nc)", "STP/NC"), ("spa nc", "SPA/NC"), ("Spain north coast", "SPA/NC"),
        ("Spain (South Coast)", "SPA/SC"), ("bul/ec", "BUL/EC"), ("BULEC", "BUL/EC"),
        ("mid", "MAO"), ("nat", "NAO"), ("NRG", "NWG"), ("gol", "LYO"),
        ("Mid-Atlantic Ocean", "MAO"), ("gulf of lyon", "LYO"), ("English Channel", "ENG"),
        ("nor", "NWY"), ("north sea", "NTH"),
    ],
)
def test_lookup(std, text, loc):
    assert std.lookup(text) == loc


def test_lookup_errors(std):
    with pytest.raises(UnknownNameError) as err:
        std.lookup("Burgandy")
    assert err.value.suggestions[0] == "BUR"
    assert "did you mean BUR" in str(err.value)
    with pytest.raises(UnknownCoastError) as err:
        std.lookup("PAR/NC")
    assert err.value.what == "coast" and isinstance(err.value, UnknownNameError)
    with pytest.raises(UnknownNameError):
        std.lookup("qqq")


def test_power_id(std):
    assert std.power_id("england") == "ENGLAND"
    assert std.power_id("ENG") == "ENGLAND"
    assert std.power_id("Austria-Hungary") == "AUSTRIA"
    with pytest.raises(UnknownNameError) as err:
        std.power_id("Germnay")
    assert err.value.suggestions == ("GERMANY",)
