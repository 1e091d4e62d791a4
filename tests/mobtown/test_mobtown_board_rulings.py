"""Rulings that rest on the board's links, shown in play: Mic-P49 is a subway only
(docs/mobtown-map.md, ruling 5 about the map) and no gaol after an attack from under ground
(docs/mobtown-rulings.md, ruling 24)."""

from __future__ import annotations

from mobadj.board.loader import load_map
from mobadj.engine import position_from_data
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
