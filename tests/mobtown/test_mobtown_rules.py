"""Every numbered rule of the Mobtown II rulebook (../shared/rules/mobtown2.md)."""

from __future__ import annotations

import pytest

from mobadj.engine import adjustments_due, format_report, position_from_data
from mobadj.engine.position import PositionError
from mobadj.mobtown.rules import MobtownReason as R
from mobadj.mobtown.rules import MobtownRules

# ---- rule 0: the regular rules apply ---------------------------------------------------------


def test_rule0_regular_rules_bounce_and_support(play):
    # rule 0: standard Diplomacy rules for everything not changed (a bounce; support wins)
    p = play({"capone": ["G Col"], "lepke": ["G Lex", "G DAN"]},
             "Lepke: G(Lex)-Col\nLepke: G(DAN) S G(Lex)-Col")
    assert p.ok("G Lex - Col")
    assert p.after.dislodged["Col"].attacker_from == "Lex"


# ---- rule 1: six mobs ----------------------------------------------------------------------


def test_rule1_six_mobs_by_id_and_name(mt):
    # rule 1: Al Capone, "Baby Face" Nelson, Legs Diamond, Lepke, Lucky Luciano, Murder Inc.
    assert sorted(mt.powers) == ["babyface", "capone", "diamond", "lepke", "luciano",
                                 "murderinc"]
    for text, pid in [("CAPONE", "capone"), ("Al Capone", "capone"),
                      ('"Baby Face" Nelson', "babyface"), ("murder inc.", "murderinc"),
                      ("Lucky Luciano", "luciano"), ("legs diamond", "diamond")]:
        assert mt.power_id(text) == pid


# ---- rule 2: Gangs are amphibious ----------------------------------------------------------


def test_rule2_gangs_enter_water(play):
    # rule 2: a Gang may enter any water area
    p = play({"capone": ["G Str", "G PPU"]}, "Al Capone: G(Str)-Har\nG(PPU)-Mem")
    assert p.ok("G Str - Har") and p.ok("G PPU - Mem")


def test_rule2_bootleg_bay_is_impassable(play, mt):
    # rule 2: Bootleg Bay is impassable: no edges, no unit can stand there
    assert not mt.neighbours("G", "Bay")
    with pytest.raises(PositionError, match="impassable"):
        position_from_data({"phase": "1919-07-W1-M", "units": {"capone": ["G Bay"]}}, mt)
    p = play({"capone": ["G Har"]}, "Al Capone: G(Har)-Bay")
    assert p.outcome("G Har - Bay")[0] == "invalid"


def test_rule2_no_convoys(play):
    # rule 2: Gangs are armies that swim; nobody convoys
    p = play({"capone": ["G Har", "G Str"]}, "Al Capone: G(Har) C G(Str)-PPU")
    assert p.outcome("G Har C G Str - PPU")[0] == "invalid"


# ---- rule 3: the Don -------------------------------------------------------------------------


def test_rule3_don_adds_one_support_to_his_gangs_move(play):
    p = play({"capone": ["G Lex", "D Lex"], "lepke": ["G Col"]}, "Al Capone: G+D(Lex)-Col")
    assert p.ok("G+D Lex - Col")
    assert p.units["capone"] == ["D Col", "G Col"]  # he travels with his Gang
    plain = play({"capone": ["G Lex", "D Lex"], "lepke": ["G Col"]}, "Al Capone: G(Lex)-Col")
    assert not plain.ok("G Lex - Col")


def test_rule3_don_support_is_uncuttable(play):
    # rule 3: an attack on the Gang's space does not cut the Don's support
    p = play({"capone": ["G Lex", "D Lex"], "lepke": ["G Col", "G 42nd"]},
             "Al Capone: G+D(Lex)-Col\nLepke: G(42nd)-Lex")
    assert p.ok("G+D Lex - Col")


def test_rule3_don_adds_nothing_to_a_hold(play):
    # rule 3: "but not to a stand or support order"
    p = play({"capone": ["G DAS", "G DAN"], "lepke": ["G Col", "D Col"]},
             "Al Capone: G(DAS)-Col\nG(DAN) S G(DAS)-Col\nLepke: G(Col) H")
    assert p.ok("G DAS - Col")
    assert "Col" in p.after.dislodged


def test_rule3_don_adds_nothing_to_a_support(play):
    p = play({"capone": ["G Lex", "G DAS"], "lepke": ["G Col", "G DAN", "D DAN"]},
             "Al Capone: G(Lex)-Col\nG(DAS) S G(Lex)-Col\n"
             "Lepke: G(DAN) S G(Col)")
    assert p.ok("G Lex - Col") is False  # 2 against 1 + 1 support; the Don adds nothing


def test_rule3_don_moves_only_with_a_gang(play):
    p = play({"capone": ["G Lex", "D Lex"]}, "Al Capone: D(Lex)-Col\nD(Lex) H")
    assert p.outcome("D Lex - Col") == ("invalid", R.DON_ALONE.value)
    assert p.units["capone"] == ["D Lex", "G Lex"]
    nodon = play({"capone": ["G Lex"]}, "Al Capone: G+D(Lex)-Col")
    assert nodon.outcome("G+D Lex - Col") == ("invalid", R.NO_DON.value)


def test_rule3_dislodged_gang_leaves_don_behind_captured(play):
    # rule 3: "if the Gang is forced to retreat he is left behind"; the enemy Gang then in
    # his space has captured him
    p = play({"capone": ["G DAS", "G DAN"], "lepke": ["G Col", "D Col"]},
             "Al Capone: G(DAS)-Col\nG(DAN) S G(DAS)-Col")
    assert p.units["lepke"] == ["D Col captive"]
    assert p.after.captor("lepke") == "capone"
    assert any("captured" in e for e in p.result.events)


def test_rule3_captor_may_move_with_the_captured_don(play):
    p = play({"capone": ["G Col"], "lepke": ["D Col captive"]}, "Al Capone: G+D(Col)-Lex")
    assert p.ok("G+D Col - Lex")
    assert p.units["lepke"] == ["D Lex captive"]


def test_rule3_cement_overcoat(play):
    # rule 3: a captured Don left on his own in water by his captor drowns
    p = play({"capone": ["G Har"], "lepke": ["D Har captive", "G Pie"]},
             "Al Capone: G(Har)-Str\nD(Har) cement overcoat")
    assert p.ok("D Har cement overcoat")
    assert "lepke" not in p.after.dons and p.after.disorder == {"lepke"}


def test_rule3_don_drowns_when_his_gang_is_dislodged_from_water(play):
    p = play({"capone": ["G PPU", "G Str"], "lepke": ["G Har", "D Har"]},
             "Al Capone: G(PPU) S G(Str)-Har\nG(Str)-Har")
    assert "Har" in p.after.dislodged
    assert "lepke" not in p.after.dons
    assert p.after.disorder == {"lepke"}
    assert any("drowned" in e for e in p.result.events)


def test_rule3_civil_disorder_for_the_next_move(play):
    # rule 3: "that mob's units stand in civil disorder for the next move"
    p = play({"lepke": ["G Pie", "G Que"], "capone": ["G Lex"]},
             "Lepke: G(Pie)-RoE\nG(Que) H\nAl Capone: G(Lex)-Col", disorder=["lepke"])
    assert p.outcome("G Pie - RoE") == ("invalid", R.CIVIL_DISORDER.value)
    assert p.units["lepke"] == ["G Pie", "G Que"]  # all its units hold
    assert p.ok("G Lex - Col")
    assert p.after.disorder == frozenset()  # only for one move
    unnamed = play({"lepke": ["G Pie"]}, "G(Pie)-RoE", disorder=["lepke"])
    assert unnamed.outcome("G Pie - RoE") == ("invalid", R.CIVIL_DISORDER.value)


def test_rule3_rebuild_don_on_free_home_centre_costs_a_centre(play):
    # rule 3: a new Don on a free home centre; the mob is one short permanently
    p = play({"lepke": ["G Que", "G P45"]}, "Lepke: Build D Pie", phase="1919-07-W2-A",
             centers={"lepke": ["Pie", "Que", "P45"]})
    assert p.ok("Build D Pie")
    assert p.after.dons == {"lepke": "Pie"} and p.after.rebuilt == {"lepke"}
    assert p.after.units_count("lepke") == 3  # two Gangs and the new Don


def test_rule3_rebuild_results_in_the_order_given(play):
    p = play({"lepke": ["G Que"]}, "Lepke: Build G P45\nLepke: Build D Pie",
             phase="1919-07-W2-A", centers={"lepke": ["Pie", "Que", "P45"]})
    assert [r.order for r in p.result.results] == ["Build G P45", "Build D Pie"]
    assert all(r.outcome.value == "succeeds" for r in p.result.results)


def test_rule3_rebuilt_don_is_made_out_of_a_gang(play):
    # rule 3: "created out of one of the gangs already existing": at full supply the mob
    # loses a Gang for him
    p = play({"lepke": ["G Que", "G P45"]}, "Lepke: Build D Pie", phase="1919-07-W2-A",
             centers={"lepke": ["Pie", "Que"]})
    assert p.ok("Build D Pie")
    assert len([u for u in p.units["lepke"] if u.startswith("G")]) == 1
    assert p.result.defaults[0].reason.value == "removed by the rules: no removal ordered"


def test_rule3_rebuild_only_if_the_don_died(play):
    p = play({"lepke": ["G Que", "D P45"]}, "Lepke: Build D Pie", phase="1919-07-W2-A",
             centers={"lepke": ["Pie", "Que", "P45"]})
    assert p.outcome("Build D Pie") == ("invalid", R.DON_ALIVE.value)


def test_rule3_rebuild_needs_a_free_home_centre(play):
    # rule 3: "If none are free then the Don is not built until one is recaptured"
    p = play({"lepke": ["G Que"], "capone": ["G Pie"]}, "Lepke: Build D Pie\nLepke: Build D DAN",
             phase="1919-07-W2-A", centers={"lepke": ["Pie", "Que", "P45"]})
    assert p.outcome("Build D Pie") == ("invalid", R.NOT_FREE.value)
    assert p.outcome("Build D DAN") == ("invalid", R.NOT_HOME.value)


def test_rule3_the_notice_offers_the_rebuild_and_says_what_it_costs(mt):
    # rule 3: "The rebuilding of a Don is optional", "one supply centre is needed for the new
    # Don" (ruling 9): the notice says how to order it and that it uses a build
    pos = position_from_data({"phase": "1919-09-W4-A",
                              "units": {"lepke": ["G Cat", "G Pie", "G Wes"]},
                              "centers": {"lepke": ["Cat", "P45", "Pie", "Que"]}}, mt)
    due = adjustments_due(pos, mt, MobtownRules())
    assert due == ["  Lepke: 4 centres, 3 units: may build 1 (vacant home centres: P45, Que), "
                   "or waive; may rebuild its Don (Build D X on a free home centre: P45, Pie, "
                   "Que); he counts as a unit, so he uses one of its builds (rule 3, ruling 9)"]
    full = position_from_data({"phase": "1919-08-W4-A",
                               "units": {"lepke": ["G P45", "G Pie", "G Que"]},
                               "centers": {"lepke": ["P45", "Pie", "Que"]}}, mt)
    assert adjustments_due(full, mt, MobtownRules()) == [
        "  Lepke: 3 centres, 3 units: may rebuild its Don (Build D X on a free home centre: "
        "P45, Pie, Que); he counts as a unit, so a Gang must go for him: Remove G X, else the "
        "rules choose (rule 3, ruling 9)"]


def test_rule3_the_notice_of_a_mob_in_civil_disorder_says_when_its_don_comes(mt):
    # rule 3: the units stand in civil disorder "for the next move while a new Don is
    # 'elected'. A new Don is then created" (ruling 13): not at this weekend, and the notice
    # says so rather than nothing
    pos = position_from_data({"phase": "1919-09-W2-A",
                              "units": {"lepke": ["G Cat", "G Pie", "G Wes"]},
                              "centers": {"lepke": ["Cat", "P45", "Pie", "Que"]},
                              "disorder": ["lepke"]}, mt)
    assert adjustments_due(pos, mt, MobtownRules()) == [
        "  Lepke: 4 centres, 3 units: may build 1 (vacant home centres: P45, Que), or waive; "
        "its new Don is still being elected: he may be rebuilt at the first weekend after its "
        "civil-disorder move (rule 3, ruling 13)"]


def test_rule3_a_gang_build_refused_beside_the_rebuild_says_the_don_took_it(play, mt):
    for orders in ("Lepke: Build G Que\nLepke: Build D P45",
                   "Lepke: Build D P45\nLepke: Build G Que"):
        p = play({"lepke": ["G Cat", "G Pie", "G Wes"]}, orders, phase="1919-09-W4-A",
                 centers={"lepke": ["Cat", "P45", "Pie", "Que"]})
        assert p.ok("Build D P45")
        assert p.outcome("Build G Que") == ("invalid", R.BUILD_USED_BY_DON.value)
        report = format_report(p.result, mt, rules=MobtownRules())
        assert "Build G Que                        invalid: no build left: the new Don counts " \
               "as a unit and used the mob's build (rule 3, ruling 9)" in report
    short = play({"lepke": ["G Cat", "G Pie", "G Wes"]}, "Lepke: Build G Que",
                 phase="1919-09-W4-A", centers={"lepke": ["Cat", "Pie", "Que"]},
                 rebuilt_dons=[])
    assert short.outcome("Build G Que") == ("invalid", "no builds allowed")


def test_rule3_never_more_than_six_dons(mt):
    # rule 3: at most 6 Dons: one per mob, a second Don for a mob is refused
    with pytest.raises(PositionError, match="two Dons"):
        position_from_data({"phase": "1919-07-W1-M",
                            "units": {"capone": ["D Lex", "D Col"]}}, mt)


# ---- rule 4: highways ------------------------------------------------------------------------


def test_rule4_highway_crossing_needs_an_extra_support(play):
    alone = play({"diamond": ["G Bro"]}, "Legs Diamond: G(Bro)-Bur")
    assert alone.outcome("G Bro - Bur") == ("fails", R.HIGHWAY.value)
    one = play({"diamond": ["G Bro", "G 325"]}, "Legs Diamond: G(Bro)-Bur\nG(325) S G(Bro)-Bur")
    assert one.ok("G Bro - Bur")


def test_rule4_gang_with_its_don_crosses_freely(play):
    p = play({"diamond": ["G Bro", "D Bro"]}, "Legs Diamond: G+D(Bro)-Bur")
    assert p.ok("G+D Bro - Bur") and p.units["diamond"] == ["D Bur", "G Bur"]


def test_rule4_junction_is_plain_adjacency(play):
    p = play({"diamond": ["G Bro", "G Brk"]}, "Legs Diamond: G(Bro)-325")
    assert p.ok("G Bro - 325")
    q = play({"diamond": ["G Brk"]}, "Legs Diamond: G(Brk)-325")
    assert not q.ok("G Brk - 325")


def test_rule4_queens_straddles_its_highway(play, mt):
    assert all(mt.edge("G", "Que", n)["via"] != "highway" for n in mt.neighbours("G", "Que"))
    p = play({"lepke": ["G Que"]}, "Lepke: G(Que)-Sur")
    assert p.ok("G Que - Sur")
    q = play({"lepke": ["G Pie"]}, "Lepke: G(Pie)-Sur")
    assert not q.ok("G Pie - Sur")


def test_rule4_diagonal_movement_subject_to_highways(play):
    p = play({"babyface": ["G Sun"]}, "Baby Face: G(Sun)-MTU")
    assert p.ok("G Sun - MTU")
    q = play({"capone": ["G Lex"]}, "Al Capone: G(Lex)-Tim")  # a diagonal across a highway
    assert q.outcome("G Lex - Tim") == ("fails", R.HIGHWAY.value)


# ---- rule 5: subways -------------------------------------------------------------------------


def test_rule5_the_u_is_required(play):
    p = play({"capone": ["G Tam", "G Lex"]}, "Al Capone: G(Tam)-Ext\nG(Lex)-U-Col")
    assert p.outcome("G Tam - Ext") == ("invalid", R.SUBWAY_NOT_MARKED.value)
    assert p.outcome("G Lex - U - Col") == ("invalid", R.NO_SUBWAY.value)
    ok = play({"capone": ["G Tam"]}, "Al Capone: G(Tam)-U-Ext")
    assert ok.ok("G Tam - U - Ext")


def test_rule5_any_number_of_gangs_use_a_subway(play):
    p = play({"capone": ["G Mem", "G Mic"]}, "Al Capone: G(Mem)-U-Mic\nG(Mic)-U-Mem")
    # two Gangs of one mob exchanging under ground: equally supported, both fail
    assert not p.ok("G Mem - U - Mic") and not p.ok("G Mic - U - Mem")
    q = play({"capone": ["G Mic", "G Cit"], "lepke": ["G Mem"]},
             "Al Capone: G(Mic)-U-P49\nG(Cit)-U-Mic\nLepke: G(Mem)-U-WCP")
    assert all(r.outcome.value == "succeeds" for r in q.result.results)


def test_rule5_unequal_gangs_both_under_ground_fight(play):
    p = play({"babyface": ["G Pla"], "luciano": ["G Sun", "G 5th"]},
             "Baby Face: G(Pla)-U-Sun\nLucky Luciano: G(Sun)-U-Pla\nG(5th) S G(Sun)-U-Pla")
    assert p.ok("G Sun - U - Pla")
    # dislodged from under ground with no subway left but the origin: disbanded at once
    assert [str(d.unit) for d in p.result.destroyed] == ["G Pla"]


def test_rule5_retreat_through_a_subway_not_to_the_origin(play):
    p = play({}, "Baby Face: G(Mem)-U-WCP", phase="1919-07-W1-R",
             dislodged={"babyface": [{"unit": "G Mem", "from": "Mic", "via": "ground"}]})
    assert p.ok("G Mem - U - WCP") and p.units["babyface"] == ["G WCP"]
    back = play({}, "Baby Face: G(Mem)-U-Mic", phase="1919-07-W1-R",
                dislodged={"babyface": [{"unit": "G Mem", "from": "Mic", "via": "ground"}]})
    assert back.outcome("G Mem - U - Mic")[0] == "invalid"


def test_rule5_no_overground_retreat_after_an_attack_from_under_ground(play):
    dis = {"babyface": [{"unit": "G Mem", "from": "WCP", "via": "subway"}]}
    p = play({}, "Baby Face: G(Mem)-PPL", phase="1919-07-W1-R", dislodged=dis)
    assert p.outcome("G Mem - PPL") == ("invalid", R.RETREAT_OVERGROUND.value)
    q = play({}, "Baby Face: G(Mem)-U-Mic", phase="1919-07-W1-R", dislodged=dis)
    assert q.ok("G Mem - U - Mic")


def test_rule5_subway_attack_dislodges_and_records_via(play):
    p = play({"luciano": ["G WCP", "G Pel"], "babyface": ["G Mem"]},
             "Lucky Luciano: G(WCP)-U-Mem\nG(Pel) S G(WCP)-U-Mem")
    d = p.after.dislodged["Mem"]
    assert d.via == "subway" and d.retreats == ("U-Mic",)


# ---- rule 6: the calendar ----------------------------------------------------------------------


def test_rule6_june_1919_don_placement(play):
    p = play({"capone": ["G DAN", "G DAS", "G Bnx"]}, "Al Capone: Don starts in DAS",
             phase="1919-06-START")
    assert p.after.dons["capone"] == "DAS"
    assert p.after.dons["lepke"] == "Pie"  # no order: the first home centre (ruling 14)
    assert str(p.result.next_phase) == "1919-07-W1-M"


def test_rule6_a_don_placed_off_his_home_centres_cites_rule_6(play):
    # rule 6: "decide which of their home centres their Don will start in"
    p = play({}, "Al Capone: D Col\nLucky Luciano: D Mem\nLepke: D DAN", phase="1919-06-START")
    for order in ("D Col", "D Mem", "D DAN"):
        assert p.outcome(order) == (
            "invalid", "the Don starts in one of his own mob's home centres (rule 6)")
    assert p.after.dons["capone"] == "DAN" and p.after.dons["lepke"] == "Pie"  # ruling 14


def test_rule6_centres_change_only_at_end_of_week_2_or_4(play):
    w1 = play({"capone": ["G DAS"]}, "Al Capone: G(DAS)-Col", centers={"capone": ["DAS"]})
    assert w1.after.centers.get("Col") is None
    w2 = play({"capone": ["G DAS"]}, "Al Capone: G(DAS)-Col", centers={"capone": ["DAS"]},
              phase="1919-07-W2-M")
    assert w2.after.centers["Col"] == "capone"
    assert str(w2.result.next_phase) == "1919-07-W2-A"  # a build is due


# ---- rule 7: MTPD ------------------------------------------------------------------------------

_TIM = {"luciano": [{"unit": "G Tim", "from": "42nd", "via": "ground"}]}


def test_rule7_retreat_to_mtpd_is_gaol_for_the_rest_of_the_game(play):
    p = play({}, "Lucky Luciano: G(Tim)-MTPD", phase="1919-07-W1-R", dislodged=_TIM)
    assert p.ok("G Tim - MTPD") and p.after.gaol == ["luciano"]
    q = play({"luciano": ["G MTPD"]}, "Lucky Luciano: G(MTPD)-Tim")
    assert q.outcome("G MTPD - Tim") == ("invalid", R.IN_GAOL.value)
    assert q.units["luciano"] == ["G MTPD"]


def test_rule7_no_disband_while_mtpd_is_open(play):
    p = play({}, "Lucky Luciano: G(Tim) Disband", phase="1919-07-W1-R", dislodged=_TIM)
    assert p.outcome("G Tim Disband") == ("invalid", R.NO_DISBAND_GAOL.value)
    assert p.after.gaol == ["luciano"]  # sent to gaol instead (ruling 16)


def test_rule7_gangs_do_not_move_into_mtpd(play):
    p = play({"capone": ["G Tim"]}, "Al Capone: G(Tim)-MTPD")
    assert p.outcome("G Tim - MTPD") == ("invalid", R.GAOL_ENTRY.value)


# ---- rule 8: victory ---------------------------------------------------------------------------

_SIXTEEN = ["5th", "Bnx", "Brk", "Bro", "Cap", "Cas", "Cat", "Chi", "Con", "DAN", "DAS", "DtB",
            "Lak", "Lib", "MaE", "Man"]


def test_rule8_seventeen_centres_at_end_of_week_2_wins(play):
    w2 = play({"capone": ["G Lex"]}, "Al Capone: G(Lex)-Col", centers={"capone": _SIXTEEN},
              phase="1919-07-W2-M")
    assert w2.after.winner == "capone"
    w1 = play({"capone": ["G Lex"]}, "Al Capone: G(Lex)-Col", centers={"capone": _SIXTEEN})
    assert w1.after.winner is None


def test_rule8_the_report_ends_with_the_win(play, mt):
    # rule 8: the game is won; no adjustments are announced and no next phase
    p = play({"capone": ["G DAS", "D DAS", "G Bnx"], "luciano": ["G Len", "G BoR", "G Riv"]},
             "Capone: G+D(DAS)-Col", phase="1919-09-W2-M",
             centers={"capone": _SIXTEEN, "luciano": ["WCP", "Wch"]})
    report = format_report(p.result, mt, rules=MobtownRules())
    assert report.endswith("\nThe game is won by Al Capone (rule 8).\n")
    assert "Adjustments due" not in report and "Next phase" not in report
    assert str(p.result.next_phase) == "1919-09-W2-A"  # the JSON's next_phase, as before


def test_rules_options_are_validated():
    with pytest.raises(ValueError):
        MobtownRules(don_crossing="maybe")
