"""Mobtown positions: Dons with their Gangs, captives, the gaol; text form round trip."""

from __future__ import annotations

import pytest

from mobadj.engine import initial_position, position_from_data
from mobadj.engine.position import PositionError


def test_initial_position_has_gangs_and_no_dons(mt):
    pos = initial_position(mt)
    assert str(pos.phase) == "1919-06-START"
    assert len(pos.units) == 18 and pos.dons == {}
    assert len(pos.centers) == 18


def test_round_trip_with_captive_and_gaol(mt):
    data = {"phase": "1919-08-W3-M",
            "units": {"Al Capone": ["G Har", "D Lex", "G Lex"], "LEPKE": ["D(Har) captive"],
                      "luciano": ["G MTPD", "G MTPD"]},
            "centers": {"capone": ["DAN"]}, "disorder": ["murderinc"], "rebuilt_dons": ["lepke"]}
    pos = position_from_data(data, mt)
    assert pos.captor("lepke") == "capone" and pos.gaol == ["luciano", "luciano"]
    out = pos.to_data()
    assert out["units"] == {"capone": ["D Lex", "G Har", "G Lex"], "lepke": ["D Har captive"],
                            "luciano": ["G MTPD", "G MTPD"]}
    assert position_from_data(out, mt).to_data() == out


@pytest.mark.parametrize(("units", "needle"), [
    ({"capone": ["G Lex", "G Lex"]}, "two Gangs"),
    ({"capone": ["D Lex captive"]}, "marked captive"),
    ({"capone": ["D Lex", "D Col"]}, "two Dons"),
    ({"capone": ["G Xyz"]}, "unknown space"),
    ({"capone": ["F Lex"]}, "bad unit"),
    ({"zork": ["G Lex"]}, "unknown mob"),
    ({"capone": ["D MTPD"]}, "never in gaol"),
])
def test_bad_positions(mt, units, needle):
    with pytest.raises(PositionError, match=needle):
        position_from_data({"phase": "1919-07-W1-M", "units": units}, mt)


def test_dislodged_needs_via_ground_or_subway(mt):
    with pytest.raises(PositionError, match="via"):
        position_from_data({"phase": "1919-07-W1-R", "dislodged": {
            "capone": [{"unit": "G Mem", "from": "Mic", "via": "air"}]}}, mt)


def test_phase_is_required(mt):
    with pytest.raises(PositionError, match="missing 'phase'"):
        position_from_data({"units": {}}, mt)
