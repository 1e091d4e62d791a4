"""Adjustment phases: builds, removals, waives, civil disorder (2023 rules; DATC 6.I, 6.J)."""

from __future__ import annotations

from mobadj.engine import Outcome, Reason

from .helpers import play, result_of, units_after

HOME = {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR"]}


def winter(units, orders, centers=None):
    return play(units, orders, phase="W1901A", centers=centers or HOME)


def test_build_in_vacant_owned_home_centre() -> None:
    res = winter({"FRANCE": ["A PAR", "A SPA"]}, "FRANCE: Build F BRE\nFRANCE: Build A MAR")
    assert units_after(res) >= {"FRANCE F BRE", "FRANCE A MAR"}
    assert str(res.next_phase) == "S1902M"


def test_build_refusals() -> None:
    res = winter({"FRANCE": ["A PAR"]},
                 "FRANCE: Build A POR\nFRANCE: Build A PAR\nFRANCE: Build A BUR")
    assert result_of(res, "Build A POR").reason is Reason.NOT_HOME  # 6.I.4
    assert result_of(res, "Build A PAR").reason is Reason.OCCUPIED  # 6.I.3
    assert result_of(res, "Build A BUR").reason is Reason.NOT_HOME


def test_build_in_home_centre_owned_by_another_power_fails() -> None:  # 6.I.5
    res = winter({"FRANCE": ["A GAS"]}, "FRANCE: Build A PAR",
                 centers={"FRANCE": ["SPA", "POR"], "GERMANY": ["PAR"]})
    assert result_of(res, "Build").reason is Reason.NOT_OWNED


def test_fleet_builds_need_a_coast_and_the_sea() -> None:  # 6.B.14, 6.I.2 (4.C.4 a)
    res = play({"RUSSIA": ["A WAR"]}, "RUSSIA: Build F STP\nRUSSIA: Build F MOS",
               phase="W1901A", centers={"RUSSIA": ["STP", "MOS", "WAR", "SEV"]})
    assert result_of(res, "Build F STP").reason is Reason.AMBIGUOUS_COAST
    assert result_of(res, "Build F MOS").reason is Reason.WRONG_TERRAIN
    res = play({"RUSSIA": ["A WAR"]}, "RUSSIA: Build F STP/NC",
               phase="W1901A", centers={"RUSSIA": ["STP", "MOS"]})
    assert "RUSSIA F STP/NC" in units_after(res)


def test_too_many_builds_first_legal_ones_count() -> None:  # 4.D.4 b, 6.I.1, 6.I.7
    res = winter({"FRANCE": ["A GAS", "A SPA", "A POR"]},
                 "FRANCE: Build A PAR\nFRANCE: Build A PAR\nFRANCE: Build A MAR\n"
                 "FRANCE: Build A BRE")
    outcomes = [(r.order, r.outcome, r.reason) for r in res.results]
    assert outcomes[0][1] is Outcome.SUCCEEDS
    assert outcomes[1][2] is Reason.OCCUPIED
    assert outcomes[2][1] is Outcome.SUCCEEDS
    assert outcomes[3][2] is Reason.TOO_MANY


def test_waive_uses_a_build() -> None:  # 4.D.7 a
    res = winter({"FRANCE": ["A GAS", "A SPA", "A POR", "A PIC"]},
                 "FRANCE: Waive\nFRANCE: Build A PAR")
    assert result_of(res, "Waive").outcome is Outcome.SUCCEEDS
    assert result_of(res, "Build").reason is Reason.TOO_MANY


def test_no_builds_allowed_without_spare_centres() -> None:
    res = winter({"FRANCE": ["A GAS", "A SPA", "A POR", "A PIC", "A BUR"]}, "FRANCE: Build A PAR")
    assert result_of(res, "Build").reason is Reason.NO_BUILDS


def test_removals_and_their_refusals() -> None:  # 6.J.1, 6.J.2
    res = winter({"FRANCE": ["A PAR", "A PIC"]},
                 "FRANCE: Remove F LYO\nFRANCE: Remove A PIC\nFRANCE: Remove A PAR",
                 centers={"FRANCE": ["PAR"]})
    assert result_of(res, "Remove F LYO").reason is Reason.NO_UNIT
    assert result_of(res, "Remove A PIC").outcome is Outcome.SUCCEEDS
    assert result_of(res, "Remove A PAR").reason is Reason.TOO_MANY
    assert units_after(res) == {"FRANCE A PAR"}


def test_disband_in_winter_is_a_removal() -> None:
    res = winter({"FRANCE": ["A PAR", "A PIC"]}, "FRANCE: A PIC Disband",
                 centers={"FRANCE": ["PAR"]})
    assert units_after(res) == {"FRANCE A PAR"}


def test_civil_disorder_removes_the_farthest_unit() -> None:  # 2023 rules, 6.J.3-6.J.11
    res = winter({"FRANCE": ["A PAR", "A MUN", "F NAO"]}, "", centers={"FRANCE": ["PAR"]})
    removed = sorted(r.order for r in res.defaults)
    assert removed == ["Remove A MUN", "Remove F NAO"]
    assert all(r.reason is Reason.CIVIL_DISORDER for r in res.defaults)


def test_civil_disorder_tie_fleet_first_then_alphabetical() -> None:  # 6.J.7
    res = winter({"RUSSIA": ["A BOH", "F SKA", "F NTH"]}, "",
                 centers={"RUSSIA": ["STP", "WAR"]})
    assert [r.order for r in res.defaults] == ["Remove F NTH"]
