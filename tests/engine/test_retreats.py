"""Retreat phases (2023 rules; DATC 6.H)."""

from __future__ import annotations

from mobadj.engine import Outcome, Reason

from .helpers import play, result_of, units_after

BASE = {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN"]}


def retreat(orders: str, dislodged=None, standoffs=(), units=None, phase="S1901R"):
    return play(
        units or BASE,
        orders,
        phase=phase,
        dislodged=dislodged or {"GERMANY": [{"unit": "A PAR", "from": "BUR"}]},
        standoffs=list(standoffs),
        centers={"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
    )


def test_retreat_to_empty_neighbour_succeeds() -> None:
    res = retreat("GERMANY: A PAR - PIC")
    assert result_of(res, "A PAR").outcome is Outcome.SUCCEEDS
    assert "GERMANY A PIC" in units_after(res)
    assert str(res.next_phase) == "F1901M"


def test_no_retreat_to_the_attackers_origin() -> None:  # rules; DATC 6.H.10
    res = retreat("GERMANY: A PAR - BUR")
    assert result_of(res, "A PAR").reason is Reason.RETREAT_BLOCKED
    assert "GERMANY A BUR" not in units_after(res)


def test_retreat_to_attackers_origin_allowed_after_a_convoy() -> None:  # DATC 4.A.5 b, 6.H.11
    res = retreat("GERMANY: A PAR - BUR", units={"FRANCE": ["A PIC"]},
                  dislodged={"GERMANY": [{"unit": "A PAR", "from": "BUR", "convoyed": True}]})
    assert result_of(res, "A PAR").outcome is Outcome.SUCCEEDS


def test_no_retreat_to_a_standoff_province() -> None:  # DATC 6.H.6
    res = retreat("GERMANY: A PAR - GAS", standoffs=["GAS"])
    assert result_of(res, "A PAR").reason is Reason.RETREAT_BLOCKED


def test_no_retreat_to_an_occupied_province() -> None:
    res = retreat("GERMANY: A PAR - GAS", units={**BASE, "ITALY": ["A GAS"]},
                  dislodged={"GERMANY": [{"unit": "A PAR", "from": "PIC"}]})
    assert result_of(res, "A PAR").reason is Reason.RETREAT_BLOCKED


def test_two_retreats_to_one_province_both_disband() -> None:  # DATC 6.H.7
    dislodged = {"GERMANY": [{"unit": "A PAR", "from": "BUR"}],
                 "ITALY": [{"unit": "A BRE", "from": "MAO"}]}
    res = retreat("GERMANY: A PAR - PIC\nITALY: A BRE - PIC", dislodged=dislodged)
    assert result_of(res, "A PAR").reason is Reason.RETREAT_CLASH
    assert result_of(res, "A BRE").reason is Reason.RETREAT_CLASH
    assert not any("PIC" in u for u in units_after(res))


def test_unordered_dislodged_unit_disbands() -> None:
    res = retreat("")
    assert [(r.order, r.reason) for r in res.defaults] == [
        ("A PAR Disband", Reason.NO_ORDER_DISBANDED)
    ]
    assert units_after(res) == {"FRANCE A BUR", "FRANCE A MAR", "GERMANY A MUN"}


def test_disband_and_remove_in_a_retreat_phase() -> None:
    res = retreat("GERMANY: A PAR Disband")
    assert result_of(res, "A PAR").outcome is Outcome.SUCCEEDS
    res = retreat("GERMANY: Remove A PAR")
    assert result_of(res, "Remove").outcome is Outcome.SUCCEEDS


def test_orders_to_units_not_dislodged_are_invalid() -> None:  # DATC 6.H.1-6.H.4
    res = retreat("GERMANY: A MUN - TYR\nFRANCE: A MAR S A BUR")
    assert result_of(res, "A MUN").reason is Reason.NOT_DISLODGED
    assert result_of(res, "A MAR").reason is Reason.WRONG_PHASE


def test_no_retreat_by_convoy() -> None:  # DATC 6.H.3
    res = retreat("ENGLAND: A HOL - YOR", units={"ENGLAND": ["F NTH"], "GERMANY": ["A KIE"]},
                  dislodged={"ENGLAND": [{"unit": "A HOL", "from": "RUH"}]})
    assert result_of(res, "A HOL").reason is Reason.RETREAT_BLOCKED


def test_fleet_retreat_picks_the_only_reachable_coast() -> None:
    res = retreat("FRANCE: F MAO - SPA", units={"ENGLAND": ["F POR"]},
                  dislodged={"FRANCE": [{"unit": "F MAO", "from": "BRE"}]})
    assert "FRANCE F SPA/NC" not in units_after(res)  # two coasts reachable: ambiguous
    res = retreat("FRANCE: F GAS - SPA", units={"ENGLAND": ["F BRE"]},
                  dislodged={"FRANCE": [{"unit": "F GAS", "from": "BRE"}]})
    assert "FRANCE F SPA/NC" in units_after(res)


def test_fall_retreats_complete_the_turn_and_move_centres() -> None:
    res = retreat("GERMANY: A PAR - PIC", phase="F1901R")
    # France's A BUR and A MAR stand in MAR (owned) and BUR (not a centre); PAR is now empty
    assert res.position.centers["PAR"] == "FRANCE"
    assert str(res.next_phase) == "W1901A"  # Germany has 1 centre and 2 units
