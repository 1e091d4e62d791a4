"""Phases with nothing to decide (docs/rulings.md, "Skipped phases"): a dislodged unit with
no retreat is disbanded at once with the movement, a retreat phase is played only for the
units that have a choice, and only the powers with a choice are due; option
``forced_retreats=retreat_phase`` keeps the retreat phase for them, as before."""

from __future__ import annotations

from mobadj.engine import Rules, adjudicate, topology_for

from .helpers import STANDARD, play, units_after

KEEP = Rules(forced_retreats="retreat_phase")
TOPO = topology_for(STANDARD)

#: France takes Paris with two supports; its German army has nowhere to go (Brest is held)
SURROUNDED = {"FRANCE": ["A BUR", "A PIC", "A GAS"], "GERMANY": ["A PAR"],
              "ENGLAND": ["A BRE", "F ENG"]}
TAKE_PARIS = "FRANCE: A BUR - PAR\nA PIC S A BUR - PAR\nA GAS S A BUR - PAR"
CENTRES = {"FRANCE": ["MAR"], "GERMANY": ["PAR", "MUN"], "ENGLAND": ["BRE", "LON"]}


def test_a_unit_with_no_retreat_is_disbanded_at_once_and_spring_retreats_are_skipped() -> None:
    res = play(SURROUNDED, TAKE_PARIS, phase="S1901M", centers=CENTRES)
    assert [(d.unit.power, str(d.unit), d.attacker_from) for d in res.destroyed] == [
        ("GERMANY", "A PAR", "BUR")]
    assert res.position.dislodged == {} and res.dislodged == []
    assert "GERMANY A PAR" not in units_after(res)
    assert str(res.next_phase) == "F1901M"
    assert [str(p) for p in res.skipped] == ["S1901R"]
    assert res.center_changes == []  # spring: nobody takes a centre


def test_in_the_fall_centres_change_at_once_and_the_winter_follows() -> None:
    res = play(SURROUNDED, TAKE_PARIS, phase="F1901M", centers=CENTRES)
    assert str(res.next_phase) == "W1901A" and [str(p) for p in res.skipped] == ["F1901R"]
    assert ("PAR", "GERMANY", "FRANCE") in res.center_changes
    assert res.position.centers["PAR"] == "FRANCE"


def test_the_result_is_that_of_the_old_retreat_phase_without_orders() -> None:
    """At once or after a retreat phase of its own, the game comes to the same board."""
    now = play(SURROUNDED, TAKE_PARIS, phase="F1901M", centers=CENTRES)
    kept = play(SURROUNDED, TAKE_PARIS, phase="F1901M", centers=CENTRES, rules=KEEP)
    assert str(kept.next_phase) == "F1901R" and kept.destroyed == [] and kept.skipped == []
    (d,) = kept.dislodged
    assert str(d.unit) == "A PAR" and d.retreats == ()
    after = adjudicate(kept.position, [], STANDARD, KEEP)
    assert after.position.units == now.position.units
    assert after.position.centers == now.position.centers
    assert after.next_phase == now.next_phase


def test_a_mixed_retreat_phase_keeps_only_the_units_with_a_choice() -> None:
    units = {**SURROUNDED, "GERMANY": ["A PAR", "A SIL"], "RUSSIA": ["A WAR", "A PRU"]}
    orders = TAKE_PARIS + "\nRUSSIA: A WAR - SIL\nA PRU S A WAR - SIL"
    res = play(units, orders, phase="F1901M", centers=CENTRES)
    assert [str(d.unit) for d in res.destroyed] == ["A PAR"]
    assert list(res.position.dislodged) == ["SIL"]
    assert res.position.dislodged["SIL"].retreats == ("BER", "BOH", "GAL", "MUN")
    assert str(res.next_phase) == "F1901R" and res.skipped == []
    assert res.center_changes == []  # after the fall retreats
    assert Rules().due(res.position, TOPO) == ["GERMANY"]
    # the retreat phase: only Silesia's unit is left to order
    after = adjudicate(res.position, [("GERMANY", _order("A SIL - BOH"))], STANDARD)
    assert "GERMANY A BOH" in units_after(after)
    assert after.position.centers["PAR"] == "FRANCE" and str(after.next_phase) == "W1901A"


def test_due_in_a_retreat_phase_read_from_data_counts_only_choices() -> None:
    """A position stored before this rule (or played with the option): the powers whose
    units can only disband are not due; with nobody due the judge resolves at once."""
    pos = play(SURROUNDED, TAKE_PARIS, phase="F1901M", centers=CENTRES, rules=KEEP).position
    assert Rules().due(pos, TOPO) == []
    res = adjudicate(pos, [], STANDARD)
    assert res.defaults[0].order == "A PAR Disband" and str(res.next_phase) == "W1901A"


def test_the_option_keeps_the_old_phase_flow() -> None:
    res = play(SURROUNDED, TAKE_PARIS, phase="S1901M", centers=CENTRES, rules=KEEP)
    assert str(res.next_phase) == "S1901R" and res.settled == []
    assert res.position.dislodged["PAR"].retreats == ()


def test_a_winter_where_only_some_powers_have_a_choice() -> None:
    """England is short of units but its home centres are all occupied: it has nothing to
    order and is not due; France must remove; Germany can build in Munich."""
    units = {"ENGLAND": ["F LON", "F EDI", "A LVP"], "FRANCE": ["A PAR", "A MAR", "A BUR"],
             "GERMANY": ["A BER"]}
    centers = {"ENGLAND": ["LON", "EDI", "LVP", "NWY"], "FRANCE": ["PAR", "MAR"],
               "GERMANY": ["BER", "MUN"]}
    res = play(units, "", phase="F1901R", centers=centers)
    assert str(res.next_phase) == "W1901A" and res.skipped == []
    assert Rules().due(res.position, TOPO) == ["FRANCE", "GERMANY"]
    assert Rules().adjustment_counts(res.position)["ENGLAND"] == 1


def test_a_winter_where_nobody_can_build_or_must_remove_is_skipped() -> None:
    units = {"ENGLAND": ["F LON", "F EDI", "A LVP"], "GERMANY": ["A BER", "A MUN", "F KIE"]}
    centers = {"ENGLAND": ["LON", "EDI", "LVP", "NWY"], "GERMANY": ["BER", "MUN", "KIE"]}
    res = play(units, "", phase="F1901R", centers=centers)
    assert str(res.next_phase) == "S1902M"
    assert [str(p) for p in res.skipped] == ["W1901A"]
    moved = play({**units, "FRANCE": ["A BUR"]}, "FRANCE: A BUR - PIC", phase="F1901M",
                 centers={**centers, "FRANCE": ["PAR"]})
    assert [str(p) for p in moved.skipped] == ["W1901A"]  # a fall retreat is no news


def _order(text: str):
    from mobadj.orders.parser import parser_for

    return parser_for(STANDARD).parse_order(text)
