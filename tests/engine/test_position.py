"""Positions, phases, the standard calendar and when supply centres change owner."""

from __future__ import annotations

import pytest

from mobadj.engine import Phase, PositionError, adjudicate, initial_position, position_from_data
from mobadj.orders.parser import parse_orders

from .helpers import STANDARD, play


def test_phase_names_round_trip() -> None:
    for text in ("S1901M", "S1901R", "F1901M", "F1901R", "W1901A"):
        assert str(Phase.parse(text)) == text
    assert Phase.parse("w1901a").long_name() == "Winter 1901 Adjustments"


@pytest.mark.parametrize(("text", "phase"), [
    ("Spring 1901 Movement", "S1901M"), ("fall 1901 retreats", "F1901R"),
    ("Winter 1901 Adjustments", "W1901A"), ("Winter 1901", "W1901A"), ("Autumn 1902", "F1902M"),
    ("Spring 1901 Movement (S1901M)", "S1901M"), ("Fall 1903 Retreats (f1903r)", "F1903R"),
    ("WINTER 1905 BUILDS", "W1905A"),
])
def test_a_phase_as_a_report_names_it(text: str, phase: str) -> None:
    """What the GM copies from a report's heading is read as its phase."""
    assert str(Phase.parse(text)) == phase
    assert str(position_from_data({"phase": text}, STANDARD).phase) == phase


@pytest.mark.parametrize("bad", ["Spring 1901 Retreats (F1901R)", "Winter 1901 Movement",
                                 "Spring 0 Movement", "Summer 1901", "Spring 1901 Moves (S)"])
def test_a_long_name_that_contradicts_itself_is_refused(bad: str) -> None:
    with pytest.raises(PositionError, match="or Spring 1901 Movement"):
        Phase.parse(bad)


def test_a_phase_has_its_place_in_the_game_pages_calendar() -> None:
    assert Phase.parse("S1901M").place() == ("1901", "Spring")
    assert Phase.parse("F1902R").place() == ("1902", "Fall retreats")
    assert Phase.parse("W1903A").place() == ("1903", "Winter adjustments")


@pytest.mark.parametrize("bad", ["1901", "S1901", "S1901X", "X1901M", "S1901A"])
def test_bad_phases_are_refused_with_the_expected_shape(bad: str) -> None:
    with pytest.raises(PositionError, match="phase"):
        position_from_data({"phase": bad}, STANDARD)


def test_initial_position() -> None:
    pos = initial_position(STANDARD)
    assert str(pos.phase) == "S1901M"
    assert len(pos.units) == 22 and len(pos.centers) == 22
    assert str(pos.units["STP"]) == "F STP/SC"


def test_position_round_trip_and_spellings() -> None:
    data = {"phase": "F1902R", "units": {"england": ["f north sea", "A Liverpool"]},
            "centers": {"ENG": ["lon"]},
            "dislodged": {"France": [{"unit": "A PIC", "from": "BEL", "convoyed": True}]},
            "standoffs": ["Burgundy"]}
    pos = position_from_data(data, STANDARD)
    out = pos.to_data()
    assert out["units"] == {"ENGLAND": ["A LVP", "F NTH"]}
    assert out["centers"] == {"ENGLAND": ["LON"]}
    assert out["dislodged"]["FRANCE"][0]["convoyed"] is True
    assert out["standoffs"] == ["BUR"]
    assert position_from_data(out, STANDARD).to_data() == out


@pytest.mark.parametrize(("data", "message"), [
    ({"phase": "S1901M", "units": {"Narnia": ["A PAR"]}}, "unknown power"),
    ({"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}, "bad unit"),
    ({"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}, "cannot stand"),
    ({"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A PAR"]}}, "two units"),
    ({"phase": "S1901M", "centers": {"FRANCE": ["BUR"]}}, "not a supply centre"),
    ({"units": {}}, "missing 'phase'"),
])
def test_bad_positions_say_what_is_wrong(data, message) -> None:
    with pytest.raises(PositionError, match=message):
        position_from_data(data, STANDARD)


def test_centres_do_not_change_after_spring() -> None:
    res = play({"FRANCE": ["A BUR"]}, "FRANCE: A BUR - BEL", centers={"FRANCE": ["PAR"]})
    assert "BEL" not in res.position.centers and not res.center_changes
    assert str(res.next_phase) == "F1901M"


def test_centres_change_after_fall_movement_without_retreats() -> None:
    res = play({"FRANCE": ["A BUR"]}, "FRANCE: A BUR - BEL", phase="F1901M",
               centers={"FRANCE": ["PAR"]})
    assert res.center_changes == [("BEL", None, "FRANCE")]
    assert str(res.next_phase) == "W1901A"  # two centres, one unit: a build


def test_centres_wait_for_fall_retreats() -> None:
    res = play({"FRANCE": ["A BUR", "A PIC"], "ENGLAND": ["A BEL"]},
               "FRANCE: A BUR - BEL\nFRANCE: A PIC S A BUR - BEL", phase="F1901M",
               centers={"ENGLAND": ["BEL"]})
    assert res.center_changes == [] and res.position.centers["BEL"] == "ENGLAND"
    assert str(res.next_phase) == "F1901R"
    after = play(res.position.to_data()["units"], "ENGLAND: A BEL - HOL", phase="F1901R",
                 centers={"ENGLAND": ["BEL"]}, dislodged=res.position.to_data()["dislodged"])
    assert after.position.centers == {"BEL": "FRANCE", "HOL": "ENGLAND"}


def test_winter_is_skipped_when_nobody_adjusts() -> None:
    res = play({"FRANCE": ["A PAR"]}, "FRANCE: A PAR H", phase="F1901M",
               centers={"FRANCE": ["PAR"]})
    assert str(res.next_phase) == "S1902M"


def test_input_position_is_not_modified() -> None:
    data = {"phase": "F1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    pos = position_from_data(data, STANDARD)
    res = adjudicate(pos, parse_orders("FRANCE: A PAR - PIC", STANDARD).orders, STANDARD)
    assert pos.to_data()["units"] == {"FRANCE": ["A PAR"]} and str(pos.phase) == "F1901M"
    assert res.position.to_data()["units"] == {"FRANCE": ["A PIC"]}


def test_winter_is_skipped_when_builds_have_no_free_home_centre() -> None:
    # France gains Belgium but its home centres are all occupied: nothing to do in winter.
    res = play({"FRANCE": ["A BUR", "A PAR", "F BRE", "A MAR"]}, "FRANCE: A BUR - BEL",
               phase="F1901M", centers={"FRANCE": ["PAR", "BRE", "MAR", "SPA"]})
    assert res.center_changes == [("BEL", None, "FRANCE")]
    assert len(res.position.centers_of("FRANCE")) == 5  # one build due, nowhere to build
    assert str(res.next_phase) == "S1902M"
