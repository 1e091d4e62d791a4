"""Rule 6: the Mobtown calendar."""

from __future__ import annotations

import pytest

from mobadj.engine.position import PositionError
from mobadj.mobtown.calendar import MPhase, next_movement, next_phase, scores_after


def test_phase_names_round_trip():
    for text in ["1919-06-START", "1919-07-W1-M", "1919-07-W1-R", "1919-07-W2-A",
                 "1920-12-W4-A"]:
        assert str(MPhase.parse(text)) == text


@pytest.mark.parametrize("bad", ["S1901M", "1919-07-W5-M", "1919-07-W1-A", "1919-13-W1-M"])
def test_bad_phases(bad):
    with pytest.raises(PositionError):
        MPhase.parse(bad)


def test_rule6_sequence_weeks_and_months():
    # rule 6: June 1919 weekend, then Week 1 of July; four weeks to a month
    assert str(next_movement(MPhase.parse("1919-06-START"))) == "1919-07-W1-M"
    assert str(next_movement(MPhase.parse("1919-07-W3-M"))) == "1919-07-W4-M"
    assert str(next_movement(MPhase.parse("1919-07-W4-A"))) == "1919-08-W1-M"
    assert str(next_movement(MPhase.parse("1919-12-W4-M"))) == "1920-01-W1-M"


def test_rule6_retreats_every_weekend_adjustments_every_other():
    w1 = MPhase.parse("1919-07-W1-M")
    assert str(next_phase(w1, True, lambda: True)) == "1919-07-W1-R"
    assert str(next_phase(w1, False, lambda: True)) == "1919-07-W2-M"
    w2 = MPhase.parse("1919-07-W2-M")
    assert str(next_phase(w2, False, lambda: True)) == "1919-07-W2-A"
    assert str(next_phase(w2, False, lambda: False)) == "1919-07-W3-M"
    assert str(next_phase(MPhase.parse("1919-07-W2-R"), False, lambda: True)) == "1919-07-W2-A"


def test_rule6_possession_at_end_of_week_2_or_4():
    assert not scores_after(MPhase.parse("1919-07-W1-M"), False)
    assert scores_after(MPhase.parse("1919-07-W2-M"), False)
    assert not scores_after(MPhase.parse("1919-07-W4-M"), True)
    assert scores_after(MPhase.parse("1919-07-W4-R"), False)
    assert MPhase.parse("1919-07-W1-M").long_name() == "Week 1, July 1919: movement"


def test_phases_compare_in_playing_order():
    order = ["1919-06-START", "1919-07-W1-M", "1919-07-W1-R", "1919-07-W2-M", "1919-07-W2-R",
             "1919-07-W2-A", "1919-07-W3-M", "1920-01-W1-M"]
    phases = [MPhase.parse(t) for t in order]
    assert sorted(reversed(phases)) == phases


def test_a_phase_has_its_place_in_the_game_pages_calendar():
    assert MPhase.parse("1919-06-START").place() == ("June 1919", "Don placement")
    assert MPhase.parse("1919-07-W2-M").place() == ("July 1919", "Week 2")
    assert MPhase.parse("1920-01-W4-R").place() == ("January 1920", "Week 4 retreats")
    assert MPhase.parse("1919-12-W2-A").place() == ("December 1919", "Week 2 adjustments")
