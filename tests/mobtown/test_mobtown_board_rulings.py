"""Rulings that rest on the board's links, shown in play: Mic-P49 is a subway only
(docs/mobtown-map.md, ruling 7 about the map), no gaol after an attack from under ground
(docs/mobtown-rulings.md, ruling 24), and weekends with nothing to decide (ruling 25)."""

from __future__ import annotations

from mobadj.board.loader import load_map
from mobadj.engine import adjudicate, position_from_data, topology_for
from mobadj.mobtown.rules import MobtownReason as R
from mobadj.mobtown.rules import MobtownRules
from mobadj.mobtown.weekend import retreat_options


def test_mic_p49_is_a_subway_only_link(mt):
    assert mt.edge("G", "Mic", "P49")["via"] == "subway"
    assert "P49" in mt.neighbours("G", "Mic") and "Mic" in mt.neighbours("G", "P49")


def test_mic_p49_over_against_under_is_no_swap(play):
    # G(P49)-Mic is no ground move, so it cannot pass G(Mic)-U-P49 under ground
    p = play({"capone": ["G Mic"], "lepke": ["G P49"]},
             "Al Capone: G(Mic)-U-P49\nLepke: G(P49)-Mic")
    assert p.outcome("G P49 - Mic")[0] == "invalid"
    assert not p.ok("G Mic - U - P49")
    assert p.units == {"capone": ["G Mic"], "lepke": ["G P49"]}


def test_mic_p49_both_under_ground_is_an_equal_subway_swap(play):
    p = play({"capone": ["G Mic"], "lepke": ["G P49"]},
             "Al Capone: G(Mic)-U-P49\nLepke: G(P49)-U-Mic")
    assert not p.ok("G Mic - U - P49") and not p.ok("G P49 - U - Mic")
    assert p.outcome("G Mic - U - P49")[1] == (
        "equally supported Gangs cannot exchange places by subway (rule 5)")
    assert p.units == {"capone": ["G Mic"], "lepke": ["G P49"]}


SUBWAY_ATTACK = {"capone": [{"unit": "G Tam", "from": "Ext", "via": "subway"}]}


def test_ruling24_a_subway_attack_next_to_mtpd_leaves_no_retreat(play, mt):
    assert "MTPD" in mt.neighbours("G", "Tam")
    p = play({"lepke": ["G Ext", "G P49"], "capone": ["G Tam"]},
             "Lepke: G(Ext)-U-Tam\nLepke: G(P49) S G(Ext)-U-Tam")
    (d,) = p.result.destroyed  # disbanded at once: no retreat phase for it (ruling 25)
    assert d.unit.location == "Tam" and d.via == "subway" and d.attacker_from == "Ext"
    assert d.retreats == ()  # no ground retreat (ruling 7), so no gaol; U-Ext is the origin
    assert p.after.dislodged == {} and p.after.gaol == [] and str(p.after.phase) == "1919-07-W2-M"


def test_ruling24_the_gang_disbands_rather_than_going_to_gaol(play):
    p = play({}, "Al Capone: G(Tam) Disband", phase="1919-07-W1-R", dislodged=SUBWAY_ATTACK)
    assert p.ok("G Tam Disband") and p.after.gaol == []
    q = play({}, "Al Capone: G(Tam)-MTPD", phase="1919-07-W1-R", dislodged=SUBWAY_ATTACK)
    assert not q.ok("G Tam - MTPD") and q.after.gaol == []
    silent = play({}, "", phase="1919-07-W1-R", dislodged=SUBWAY_ATTACK)
    assert silent.after.gaol == [] and silent.units.get("capone", []) == []
    assert [r.reason.value for r in silent.result.defaults] != [R.TO_GAOL.value]


def test_ruling24_with_subway_retreats_any_the_gaol_is_open(play):
    rules = MobtownRules(subway_retreats="any")
    p = play({}, "Al Capone: G(Tam) Disband", phase="1919-07-W1-R", dislodged=SUBWAY_ATTACK,
             rules=rules)
    assert not p.ok("G Tam Disband")  # rule 7: may not disband while MTPD is open
    assert p.after.gaol == ["capone"]  # ruling 16: forced to retreat to MTPD


def test_ruling24_retreat_options_directly():
    mt = load_map("mobtown2")
    pos = position_from_data({"phase": "1919-07-W1-R", "units": {}, "centers": {},
                              "dislodged": SUBWAY_ATTACK}, mt)
    (d,) = pos.dislodged.values()
    assert retreat_options(d, pos.units, pos.standoffs, mt, MobtownRules()) == ()
    opened = retreat_options(d, pos.units, pos.standoffs, mt, MobtownRules(subway_retreats="any"))
    assert "MTPD" in opened and "U-Ext" not in opened and "Lop" in opened
    ground = position_from_data({"phase": "1919-07-W1-R", "units": {}, "centers": {},
                                 "dislodged": {"capone": [{"unit": "G Tam", "from": "Lop",
                                                           "via": "ground"}]}}, mt)
    (g,) = ground.dislodged.values()
    ordinary = retreat_options(g, ground.units, ground.standoffs, mt, MobtownRules())
    assert "MTPD" in ordinary  # the ordinary case


# ---- ruling 25: weekends with nothing to decide ------------------------------------------------

#: Lepke takes Riverside (a centre) from Hoover Dam, supported from Lenox; Diamond's Gangs
#: stand on Riverside's other neighbours: only MTPD is left to Capone's Gang.
CORNERED = {"capone": ["G Riv"], "lepke": ["G Hoo", "G Len"],
            "diamond": ["G BoR", "G DSt", "G Tim"]}
TAKE_RIVERSIDE = "Lepke: G(Hoo)-Riv\nG(Len) S G(Hoo)-Riv"
#: ... and Capone's Gang in Tammany Hall is dislodged by a subway attack: no retreat at all
UNDER = "Lepke: G(Ext)-U-Tam\nG(P49) S G(Ext)-U-Tam"


def test_ruling25_mtpd_as_the_only_retreat_is_gaol_at_once(play, mt):
    p = play(CORNERED, TAKE_RIVERSIDE, phase="1919-07-W2-M", centers={"capone": ["Riv"]})
    (d,) = p.result.settled
    assert d.retreats == ("MTPD",) and p.result.destroyed == []  # gaoled, not disbanded
    assert p.after.gaol == ["capone"] and p.after.dislodged == {}
    assert any("goes to gaol in MTPD" in e for e in p.result.events)
    assert not str(p.after.phase).endswith("-R")
    assert [str(x) for x in p.result.skipped][:1] == ["1919-07-W2-R"]
    # week 2 is complete at once: Lepke holds Riverside at its end (rule 6)
    assert ("Riv", "capone", "lepke") in p.result.center_changes


def test_ruling25_a_gang_next_to_mtpd_with_another_retreat_has_a_choice(play, mt):
    units = {**CORNERED, "diamond": ["G BoR", "G DSt"]}  # Times Square is free
    p = play(units, TAKE_RIVERSIDE, phase="1919-07-W2-M", centers={"capone": ["Riv"]})
    assert p.result.settled == [] and p.after.dislodged["Riv"].retreats == ("MTPD", "Tim")
    assert str(p.after.phase) == "1919-07-W2-R" and p.result.center_changes == []
    assert MobtownRules().due(p.after, topology_for(mt)) == ["capone"]


def test_ruling25_a_mixed_weekend_keeps_only_the_gangs_with_a_choice(play, mt):
    units = {"capone": ["G Riv", "G Tam"], "lepke": ["G Hoo", "G Len", "G Ext", "G P49"],
             "diamond": ["G BoR", "G DSt"]}
    p = play(units, TAKE_RIVERSIDE + "\n" + UNDER, phase="1919-07-W1-M")
    assert [str(d.unit) for d in p.result.destroyed] == ["G Tam"]
    assert list(p.after.dislodged) == ["Riv"] and str(p.after.phase) == "1919-07-W1-R"
    assert p.result.skipped == []
    report = MobtownRules().report_body(p.result, mt)
    assert "Gangs disbanded at once (dislodged, with no retreat open):" in report
    assert any("Al Capone G Tam, attacked from Ext" in line for line in report)


def test_ruling25_with_forced_retreats_retreat_phase_the_weekend_is_played(play, mt):
    keep = MobtownRules(forced_retreats="retreat_phase")
    p = play(CORNERED, TAKE_RIVERSIDE, phase="1919-07-W2-M", centers={"capone": ["Riv"]},
             rules=keep)
    assert str(p.after.phase) == "1919-07-W2-R" and p.after.gaol == []
    assert keep.due(p.after, topology_for(mt)) == []  # nothing to decide: the judge goes on
    now = play(CORNERED, TAKE_RIVERSIDE, phase="1919-07-W2-M", centers={"capone": ["Riv"]})
    silent = adjudicate(p.after, [], mt, keep)
    assert silent.position.gaol == ["capone"]  # ruling 16: the same gaol a weekend later
    assert silent.position.centers == now.after.centers
    assert silent.next_phase == now.after.phase


def test_ruling25_weekend_adjustments_due_only_for_mobs_with_something_to_do(mt):
    """Lepke is short of Gangs but its home centres are taken: not due.  Capone's Don
    died: he may be rebuilt (rule 3), so Capone is due with no build or removal counted.
    Diamond must remove."""
    pos = position_from_data({
        "phase": "1919-07-W2-A",
        "units": {"lepke": ["G Pie", "G Que", "G P45", "D Pie"], "capone": ["G DAN", "G DAS"],
                  "diamond": ["G P37", "G Brk", "G Bro", "D P37"]},
        "centers": {"lepke": ["Pie", "Que", "P45", "Riv"], "capone": ["DAN", "DAS"],
                    "diamond": ["P37", "Brk"]}}, mt)
    rules = MobtownRules()
    counts = rules.adjustment_counts(pos)
    assert counts["lepke"] == 1 and counts["diamond"] == -1 and counts["capone"] == 0
    assert rules.due(pos, topology_for(mt)) == ["capone", "diamond"]


def test_ruling25_a_weekend_with_nothing_to_adjust_is_skipped(play, mt):
    p = play({"capone": ["G DAN", "D DAN"], "lepke": ["G Pie", "D Pie"]}, "",
             phase="1919-07-W2-M", centers={"capone": ["DAN"], "lepke": ["Pie"]})
    assert str(p.after.phase) == "1919-07-W3-M"
    assert [str(x) for x in p.result.skipped] == ["1919-07-W2-A"]
    again = adjudicate(p.after, [], mt, MobtownRules())  # week 3: no weekend adjustments
    assert again.skipped == []
