"""The rules' ``order_choices`` hook: what a power may order as picks, written as a mail writes
it, each line one the order reader takes and the adjudicator accepts; a variant's
``build_sites`` is followed with no hook of its own."""

from __future__ import annotations

from collections.abc import Collection

from mobadj.engine import Position, Rules, Topology, position_from_data, topology_for
from mobadj.orders.parser import parse_orders

from .helpers import STANDARD, play


def choices(data: dict, power: str, rules: Rules | None = None):
    rules = rules or Rules()
    position = position_from_data(data, STANDARD, rules)
    return rules.order_choices(position, power, topology_for(STANDARD))


def test_a_movement_phase_offers_no_picks():
    assert choices({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {}},
                   "FRANCE") == []


def test_each_dislodged_unit_with_a_choice_gets_its_retreats_and_disband():
    data = {"phase": "F1901R", "units": {"GERMANY": ["A BUR", "A MUN"], "FRANCE": ["A GAS"]},
            "centers": {}, "dislodged": {"FRANCE": [{"unit": "A BUR", "from": "RUH"}]}}
    [pick] = choices(data, "FRANCE")
    assert pick.label == "A BUR (dislodged)"
    assert dict(pick.options) == {"A BUR - PAR": "retreat to PAR", "A BUR - PIC": "retreat to PIC",
                                  "A BUR - MAR": "retreat to MAR", "A BUR - BEL": "retreat to BEL",
                                  "A BUR disband": "disband"}
    assert choices(data, "GERMANY") == []


def test_removals_offer_every_unit_once_per_unit_to_remove_and_each_is_carried_out():
    units = {"FRANCE": ["A PAR", "F BRE", "A BUR", "A PIC"]}
    data = {"phase": "W1901A", "units": units, "centers": {"FRANCE": ["PAR", "BRE"]}}
    picks = choices(data, "FRANCE")
    assert [p.label for p in picks] == ["Removal 1 of 2", "Removal 2 of 2"]
    lines = [line for line, _ in picks[0].options]
    assert lines == [
        "Remove A BUR", "Remove A PAR", "Remove A PIC", "Remove F BRE"]
    assert not parse_orders("\n".join(lines), STANDARD, power="FRANCE").errors
    done = play(units, "FRANCE: Remove A PIC\nFRANCE: Remove F BRE", phase="W1901A",
                centers={"FRANCE": ["PAR", "BRE"]})
    assert sorted(done.position.units) == ["BUR", "PAR"]


def test_builds_follow_the_variants_build_sites():
    class Anywhere(Rules):
        def build_sites(self, position: Position, power: str, topology: Topology
                        ) -> Collection[str]:
            return position.centers_of(power)

    data = {"phase": "W1901A", "units": {"RUSSIA": ["A MOS"]},
            "centers": {"RUSSIA": ["MOS", "STP", "SER"]}}
    standard = choices(data, "RUSSIA")
    assert [p.label for p in standard] == ["Build 1 of 1"]  # STP only: one vacant home
    assert [line for line, _ in standard[0].options] == [
        "WAIVE", "Build A STP", "Build F STP/NC", "Build F STP/SC"]
    anywhere = choices(data, "RUSSIA", Anywhere())
    assert [p.label for p in anywhere] == ["Build 1 of 2", "Build 2 of 2"]
    assert "Build A SER" in dict(anywhere[0].options) and "Build F SER" not in dict(
        anywhere[0].options)
