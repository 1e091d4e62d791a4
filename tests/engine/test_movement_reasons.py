"""Every movement result and reason, each on the smallest position that shows it.

Rule references: DATC 3.0 section numbers (the rules they test are quoted there).
"""

from __future__ import annotations

import pytest

from mobadj.engine import Outcome, Reason

from .helpers import play, result_of, units_after

S, F, I = Outcome.SUCCEEDS, Outcome.FAILS, Outcome.INVALID

CASES = [
    # (units, orders, order prefix, outcome, reason)   -- the rule
    ({"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
     "FRANCE: A PAR - BUR\nGERMANY: A MUN - BUR", "A PAR", F, Reason.BOUNCED),  # 6.A.11
    ({"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
     "FRANCE: A PAR - BUR", "A PAR", F, Reason.HELD),  # equal strength, no dislodgement
    ({"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
     "FRANCE: A PAR - BUR\nFRANCE: A MAR S A PAR - BUR\nGERMANY: A BUR - PAR",
     "A BUR", F, Reason.LOST_HEAD_TO_HEAD),  # 6.E.*
    ({"FRANCE": ["A PAR", "A MAR", "A BUR"]},
     "FRANCE: A PAR - BUR\nFRANCE: A MAR S A PAR - BUR", "A PAR", F, Reason.OWN_UNIT),  # 6.D.10
    ({"ENGLAND": ["A YOR"]},
     "ENGLAND: A YOR - HOL", "A YOR", I, Reason.NO_CONVOY),  # 6.D.32
    ({"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F ENG", "F BEL"]},
     "ENGLAND: A LON - HOL\nENGLAND: F NTH C A LON - HOL\n"
     "FRANCE: F ENG - NTH\nFRANCE: F BEL S F ENG - NTH",
     "A LON", F, Reason.CONVOY_DISRUPTED),  # 6.F.6-ish
    ({"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN", "A GAS"]},
     "FRANCE: A MAR S A PAR - BUR\nFRANCE: A PAR - BUR\nGERMANY: A GAS - MAR",
     "A MAR", F, Reason.CUT),  # support cut (DATC 5.B.2)
    ({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]},
     "FRANCE: A BUR H\nGERMANY: A MUN - BUR\nGERMANY: A RUH S A MUN - BUR",
     "A BUR", F, Reason.DISLODGED),
    ({"FRANCE": ["A PAR", "A MAR"]},
     "FRANCE: A MAR S A PAR - BUR\nFRANCE: A PAR - GAS", "A MAR", F, Reason.VOID_SUPPORT),
    ({"ENGLAND": ["A LON", "F NTH"]},
     "ENGLAND: F NTH C A LON - BEL\nENGLAND: A LON - WAL", "F NTH", F, Reason.VOID_CONVOY),
    ({"FRANCE": ["A PAR"]}, "GERMANY: A MUN - BUR", "A MUN", I, Reason.NO_UNIT),
    ({"FRANCE": ["A PAR"]}, "GERMANY: A PAR - BUR", "A PAR", I, Reason.NOT_OWNER),  # 6.A.6
    ({"FRANCE": ["A PAR"]}, "FRANCE: A PAR - MUN", "A PAR", I, Reason.NOT_ADJACENT),
    ({"FRANCE": ["A PAR"]}, "FRANCE: A PAR - PAR", "A PAR", I, Reason.OWN_PROVINCE),  # 6.A.4
    ({"ENGLAND": ["A LVP"]}, "ENGLAND: A LVP - IRI", "A LVP", I, Reason.WRONG_TERRAIN),  # 6.A.2
    ({"FRANCE": ["F GAS"]}, "FRANCE: F GAS - SPA/SC", "F GAS", I, Reason.BAD_COAST),  # 6.B.3
    ({"FRANCE": ["F MAO"]}, "FRANCE: F MAO - SPA", "F MAO", I, Reason.AMBIGUOUS_COAST),  # 6.B.1
    ({"FRANCE": ["A PAR"]}, "FRANCE: A PAR S A PAR", "A PAR", I, Reason.SUPPORT_SELF),  # 6.A.8
    ({"ITALY": ["F ROM", "A VEN"]},
     "ITALY: F ROM S A VEN - TUS\nITALY: A VEN - TUS", "F ROM", S, None),  # 6.A.9-ish
    ({"ITALY": ["F ROM", "A APU"]},
     "ITALY: F ROM S A APU - VEN", "F ROM", I, Reason.SUPPORT_UNREACHABLE),  # 6.A.10
    ({"FRANCE": ["A PAR"]}, "FRANCE: A PAR S A BUR", "A PAR", I, Reason.NO_SUPPORTED_UNIT),
    ({"ENGLAND": ["F NTH"]},
     "ENGLAND: F NTH C A LON - BEL", "F NTH", I, Reason.NO_CONVOYED_UNIT),
    ({"ENGLAND": ["F NTH", "F LON"]},
     "ENGLAND: F NTH C F LON - BEL", "F NTH", I, Reason.NOT_CONVOYABLE),  # 6.A.7
    ({"TURKEY": ["F CON", "A BUL"]},
     "TURKEY: F CON C A BUL - SMY", "F CON", I, Reason.CANNOT_CONVOY),  # 6.F.1
    ({"RUSSIA": ["A SWE", "F BOT"]},
     "RUSSIA: A SWE - NWY\nRUSSIA: F BOT C A SWE - NWY", "F BOT", I, Reason.NO_ROUTE),  # 6.G.7
    ({"FRANCE": ["A PAR"]},
     "FRANCE: A PAR - BUR\nFRANCE: A PAR - GAS", "A PAR - GAS", I, Reason.DUPLICATE),
    ({"FRANCE": ["A PAR"]}, "FRANCE: Build A MAR", "Build", I, Reason.WRONG_PHASE),
]


@pytest.mark.parametrize(("units", "orders", "prefix", "outcome", "reason"), CASES,
                         ids=[f"{c[3].value}-{c[4].name if c[4] else 'ok'}" for c in CASES])
def test_reason(units, orders, prefix, outcome, reason) -> None:
    got = result_of(play(units, orders), prefix)
    assert (got.outcome, got.reason) == (outcome, reason)


def test_invalid_order_means_the_unit_holds_and_can_be_supported() -> None:
    # DATC 4.E.1: an illegal order is a hold; hold support still counts (6.D.32).
    res = play({"ENGLAND": ["A YOR", "F LON"], "FRANCE": ["A WAL", "A LVP"]},
               "ENGLAND: A YOR - HOL\nENGLAND: F LON S A YOR\n"
               "FRANCE: A WAL - YOR\nFRANCE: A LVP S A WAL - YOR")
    assert "ENGLAND A YOR" in units_after(res)
    assert result_of(res, "A WAL").reason is Reason.HELD


def test_first_legal_order_of_a_unit_is_used_and_illegal_ones_ignored() -> None:
    # DATC 4.D.3 / 4.E.1: the illegal order before the legal one does not count.
    res = play({"FRANCE": ["A PAR"]}, "FRANCE: A PAR - MUN\nFRANCE: A PAR - BUR")
    assert result_of(res, "A PAR - MUN").reason is Reason.NOT_ADJACENT
    assert result_of(res, "A PAR - BUR").outcome is Outcome.SUCCEEDS
    assert "FRANCE A BUR" in units_after(res)


def test_unordered_units_hold_and_are_reported_as_defaults() -> None:
    res = play({"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}, "FRANCE: A PAR - BUR")
    assert [str(r.order) for r in res.defaults] == ["A MUN H"]
    assert res.defaults[0].outcome is Outcome.SUCCEEDS


def test_order_without_power_belongs_to_the_units_owner() -> None:
    res = play({"FRANCE": ["A PAR"]}, "A PAR - BUR")
    assert result_of(res, "A PAR").power == "FRANCE"
    assert "FRANCE A BUR" in units_after(res)


def test_convoy_paradox_fleet_result_names_the_szykman_rule() -> None:
    # DATC 6.F.14: the simple convoy paradox; the convoy fails, so the fleet is dislodged.
    res = play({"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]},
               "ENGLAND: F LON S F WAL - ENG\nENGLAND: F WAL - ENG\n"
               "FRANCE: A BRE - LON\nFRANCE: F ENG C A BRE - LON")
    assert result_of(res, "F ENG").reason is Reason.PARADOX
    assert result_of(res, "F WAL").outcome is Outcome.SUCCEEDS
    assert [str(d.unit) for d in res.dislodged] == ["F ENG"]


def test_circular_movement_succeeds() -> None:
    # DATC 6.C.1
    res = play({"TURKEY": ["F ANK", "A CON", "A SMY"]},
               "TURKEY: F ANK - CON\nTURKEY: A CON - SMY\nTURKEY: A SMY - ANK")
    assert units_after(res) == {"TURKEY F CON", "TURKEY A SMY", "TURKEY A ANK"}


def test_dislodged_unit_gets_its_retreats_and_standoffs_are_excluded() -> None:
    res = play({"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A RUH", "A MUN"],
                "ITALY": ["A PIE"], "ENGLAND": ["A BEL"]},
               "FRANCE: A PAR - BUR\nFRANCE: A MAR S A PAR - BUR\n"
               "ENGLAND: A BEL - PIC\nITALY: A PIE - TYR\nGERMANY: A MUN - TYR")
    [d] = res.dislodged
    assert str(d.unit) == "A BUR" and d.attacker_from == "PAR"
    # not PAR (attacker), not MAR/RUH (occupied), not MUN (held), PIC taken, GAS, BEL free
    assert d.retreats == ("BEL", "GAS")
    assert res.position.standoffs == frozenset({"TYR"})
    assert str(res.next_phase) == "S1901R"
