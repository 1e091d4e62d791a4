"""One test (or more) per ruling of docs/mobtown-rulings.md, options included."""

from __future__ import annotations

import pytest

from mobadj.engine import adjudicate, adjustments_due, format_report, position_from_data
from mobadj.engine.rules import coerce_options, rules_for
from mobadj.engine.topology import topology_for
from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.mobtown.rules import MobtownReason as R
from mobadj.mobtown.rules import MobtownRules


def test_ruling1_don_plus_one_counts_in_a_bounce(play):
    # ruling 1: the Don's +1 is in his Gang's prevent strength: G+D beats a lone rival
    p = play({"capone": ["G Lex", "D Lex"], "lepke": ["G Ext"]},
             "Al Capone: G+D(Lex)-Col\nLepke: G(Ext)-Col")
    assert p.ok("G+D Lex - Col") and not p.ok("G Ext - Col")


def test_ruling2_all_dons_in_the_space_go_along(play):
    p = play({"capone": ["G Col", "D Col"], "lepke": ["D Col captive"]},
             "Al Capone: G+D(Col)-Lex")
    assert p.after.dons == {"capone": "Lex", "lepke": "Lex"}


def test_ruling3_captive_don_gives_nothing_by_default(play):
    units = {"capone": ["G Col"], "lepke": ["D Col captive", "G Lex"]}
    p = play(units, "Al Capone: G+D(Col)-Lex")
    assert not p.ok("G+D Col - Lex")
    q = play(units, "Al Capone: G+D(Col)-Lex", rules=MobtownRules(captive_don_helps=True))
    assert q.ok("G+D Col - Lex")


@pytest.mark.parametrize(("helps", "crosses", "empty", "held"), [
    (False, True, True, False),   # the defaults: a captive lets his captor cross (rule 4)
    (False, False, False, False),
    (True, True, True, True),
    (True, False, True, False),   # his +1 pays for the crossing's extra support
])
def test_ruling3_captive_crossing_and_help_are_separate_options(play, helps, crosses, empty,
                                                                 held):
    # Bro-Bur crosses the Ness Turnpike where no junction is (rule 4)
    rules = MobtownRules(captive_don_helps=helps, captive_don_crosses=crosses)
    into_empty = play({"capone": ["G Bro"], "lepke": ["D Bro captive"]},
                      "Al Capone: G+D(Bro)-Bur", rules=rules)
    assert into_empty.ok("G+D Bro - Bur") is empty
    if not empty:
        assert into_empty.outcome("G+D Bro - Bur") == ("fails", R.HIGHWAY.value)
    into_held = play({"capone": ["G Bro"], "lepke": ["D Bro captive"], "diamond": ["G Bur"]},
                     "Al Capone: G+D(Bro)-Bur", rules=rules)
    assert into_held.ok("G+D Bro - Bur") is held


def test_ruling3_own_don_always_crosses_and_helps(play):
    for rules in (MobtownRules(), MobtownRules(captive_don_crosses=False)):
        p = play({"capone": ["G Bro", "D Bro"], "diamond": ["G Bur"]},
                 "Al Capone: G+D(Bro)-Bur", rules=rules)
        assert p.ok("G+D Bro - Bur")


def test_ruling3_captive_is_freed_by_his_own_gang(play):
    p = play({"capone": ["G Lex"], "lepke": ["D Lex captive", "G Col", "G DAN"]},
             "Lepke: G(Col)-Lex\nLepke: G(DAN) S G(Col)-Lex")
    assert p.after.captor("lepke") is None and p.units["lepke"][0] == "D Lex"


def test_ruling4_lone_don_is_captured_by_any_gang_moving_in(play):
    p = play({"capone": ["G Col"], "lepke": ["D Lex"]}, "Al Capone: G(Col)-Lex")
    assert p.ok("G Col - Lex") and p.after.captor("lepke") == "capone"
    assert p.result.events == ["Lepke's Don in Lex is captured by Al Capone (rule 3)"]


def test_ruling4_own_don_left_alone_in_water_survives_unless_option(play):
    units = {"lepke": ["G Har", "D Har"]}
    p = play(units, "Lepke: G(Har)-Str")
    assert p.after.dons == {"lepke": "Har"}
    q = play(units, "Lepke: G(Har)-Str", rules=MobtownRules(lone_don_drowns=True))
    assert q.after.dons == {} and q.after.disorder == {"lepke"}


def test_ruling5_don_crossing_options(play):
    units = {"diamond": ["G Bro", "D Bro"], "capone": ["G Bur"]}
    free = play(units, "Legs Diamond: G+D(Bro)-Bur")
    assert free.ok("G+D Bro - Bur")
    paid = play(units, "Legs Diamond: G+D(Bro)-Bur", rules=MobtownRules(don_crossing="support"))
    assert not paid.ok("G+D Bro - Bur")


def test_ruling6_gaol_holds_several_gangs(play):
    dis = {"luciano": [{"unit": "G Tim", "from": "42nd"}],
           "capone": [{"unit": "G Riv", "from": "BoR"}]}
    p = play({"luciano": ["G MTPD"]}, "Lucky Luciano: G(Tim)-MTPD\nAl Capone: G(Riv)-MTPD",
             phase="1919-07-W1-R", dislodged=dis)
    assert p.after.gaol == ["capone", "luciano", "luciano"]


def test_ruling7_subway_retreat_option(play):
    dis = {"babyface": [{"unit": "G Mem", "from": "WCP", "via": "subway"}]}
    p = play({}, "Baby Face: G(Mem)-PPL", phase="1919-07-W1-R", dislodged=dis,
             rules=MobtownRules(subway_retreats="any"))
    assert p.ok("G Mem - PPL")


def test_ruling8_gaoled_gang_counts_against_supply(play):
    units = {"luciano": ["G MTPD", "G 5th", "G Wch"]}
    centers = {"luciano": ["5th", "WCP", "Wch"]}
    p = play(units, "Lucky Luciano: Build G WCP", phase="1919-07-W2-A", centers=centers)
    assert p.outcome("Build G WCP")[0] == "invalid"
    q = play(units, "Lucky Luciano: Build G WCP", phase="1919-07-W2-A", centers=centers,
             rules=MobtownRules(gaol_counts_for_supply=False))
    assert q.ok("Build G WCP")
    r = play(units, "Lucky Luciano: Remove G MTPD", phase="1919-07-W2-A",
             centers={"luciano": ["5th", "Wch"]})
    assert r.outcome("Remove G MTPD") == ("invalid", R.GAOL_STAYS.value)
    assert r.units["luciano"].count("G MTPD") == 1  # a free Gang was removed instead


def test_ruling8_the_notice_counts_only_the_removals_that_can_be_made(play, mt):
    # Capone: 1 centre, his Don, G DAN and two Gangs in gaol: 2 over, 1 can be removed
    units = {"capone": ["D DAN", "G DAN", "G MTPD", "G MTPD"]}
    pos = position_from_data({"phase": "1919-07-W2-A", "units": units,
                              "centers": {"capone": ["DAN"]}}, mt)
    assert adjustments_due(pos, mt, MobtownRules()) == [
        "  Al Capone: 1 centre, 3 units: must remove 1 unit (else the rules choose): 2 over, "
        "but gaoled Gangs stay (rule 7, ruling 8)"]
    p = play(units, "Al Capone: Remove G MTPD", phase="1919-07-W2-A",
             centers={"capone": ["DAN"]})
    report = format_report(p.result, mt, rules=MobtownRules())
    assert ("  Al Capone: 2 removals due; G DAN removed by the rules (no removal ordered); "
            "1 not made: gaoled Gangs stay (rule 7, ruling 8)") in report
    assert "  Al Capone             1 centre  (-1)  D DAN, G MTPD, G MTPD" in report
    after = position_from_data({"phase": "1919-07-W4-A", "units": {
        "capone": ["D DAN", "G MTPD", "G MTPD"]}, "centers": {"capone": ["DAN"]}}, mt)
    assert adjustments_due(after, mt, MobtownRules()) == [
        "  Al Capone: 1 centre, 2 units: 1 over, but gaoled Gangs stay (rule 7, ruling 8): "
        "nothing to remove"]
    assert MobtownRules().adjusting(after, topology_for(mt)) == []  # nothing to order


def test_ruling9_original_don_is_free_and_cannot_be_removed(play):
    p = play({"lepke": ["G Que", "G P45", "G Pie", "D Pie"]}, "Lepke: Remove D Pie",
             phase="1919-07-W2-A", centers={"lepke": ["Que", "P45"]})
    assert p.outcome("Remove D Pie") == ("invalid", R.DON_FREE.value)
    assert p.after.units_count("lepke") == 2


def test_ruling9_rebuilt_don_may_be_removed(play):
    p = play({"lepke": ["G Que", "D Pie"]}, "Lepke: Remove D Pie", phase="1919-07-W2-A",
             centers={"lepke": ["Que"]}, rebuilt_dons=["lepke"])
    assert p.ok("Remove D Pie") and "lepke" not in p.after.dons


def test_ruling10_a_don_alone_takes_no_centre(play):
    p = play({"capone": ["G Col", "D Col"]}, "Al Capone: G(Col)-Lex", phase="1919-07-W2-M")
    assert "Col" not in p.after.centers


def test_ruling11_dons_take_no_retreat_orders(play):
    dis = {"lepke": [{"unit": "G Col", "from": "DAS"}]}
    p = play({"capone": ["G Col"], "lepke": ["D Col captive"]}, "Lepke: D(Col)-Lex",
             phase="1919-07-W1-R", dislodged=dis)
    assert p.outcome("D Col - Lex") == ("invalid", R.DON_ALONE.value)
    assert p.after.dons == {"lepke": "Col"}


def test_ruling12_no_support_through_a_subway(play):
    units = {"capone": ["G Tam", "G Col"], "lepke": ["G Ext"]}
    orders = "Al Capone: G(Tam) S G(Col)-Ext\nAl Capone: G(Col)-Ext"
    p = play(units, orders)
    assert p.outcome("G Tam S G Col - Ext") == ("invalid", R.SUPPORT_BY_SUBWAY.value)
    assert not p.ok("G Col - Ext")
    q = play(units, orders, rules=MobtownRules(subway_support=True))
    assert q.ok("G Col - Ext")


def test_ruling12_no_hold_support_through_a_subway(play):
    p = play({"capone": ["G Tam", "G Ext"]}, "Al Capone: G(Tam) S G(Ext)")
    assert p.outcome("G Tam S G Ext") == ("invalid", R.SUPPORT_BY_SUBWAY.value)


def test_ruling12_support_must_name_the_route(play):
    p = play({"babyface": ["G Bgt", "G Mem"]}, "Baby Face: G(Bgt) S G(Mem)-Mic\nG(Mem)-U-Mic")
    assert p.outcome("G Bgt S G Mem - Mic") == ("fails", "supported unit did not make that order")


def test_ruling13_disorder_is_spent_after_one_movement_not_by_weekends(play):
    dis = {"lepke": [{"unit": "G Col", "from": "DAS"}]}
    p = play({"capone": ["G Col"]}, "Lepke: G(Col)-Lex", phase="1919-07-W1-R", dislodged=dis,
             disorder=["lepke"])
    assert p.ok("G Col - Lex")  # the weekend's retreat is ordered normally
    assert p.after.disorder == {"lepke"}  # still due at the next movement


def test_ruling13_the_new_don_is_created_after_the_election(play):
    # rule 3: civil disorder "while a new Don is 'elected'. A new Don is then created"
    units, centers = {"lepke": ["G Que"]}, {"lepke": ["Pie", "Que", "P45"]}
    p = play(units, "Lepke: Build D Pie", phase="1919-07-W2-A", centers=centers,
             disorder=["lepke"])
    assert p.outcome("Build D Pie") == ("invalid", R.DON_ELECTED_LATER.value)
    q = play(units, "Lepke: Build D Pie", phase="1919-07-W2-A", centers=centers,
             disorder=["lepke"], rules=MobtownRules(don_election="next_adjustment"))
    assert q.ok("Build D Pie") and q.after.dons == {"lepke": "Pie"}


def test_ruling13_election_timing_over_a_month(mt):
    """The Don drowns in week 2; the weekend's adjustment may not rebuild him (only Gangs);
    week 3 is the civil-disorder move; the weekend after week 4 creates him."""
    from mobadj.engine import adjudicate, position_from_data
    from mobadj.mobtown.notation import parse_mobtown_orders
    from mobadj.mobtown.weekend import adjusting

    def turn(pos, text, rules):
        parsed = parse_mobtown_orders(text, mt)
        assert not parsed.errors
        return adjudicate(pos, parsed.orders, mt, rules)

    start = {"phase": "1919-07-W2-M",
             "units": {"lepke": ["G Har", "D Har", "G Que"], "capone": ["G Str", "G PPU"]},
             "centers": {"lepke": ["Pie", "Que", "P45"]}}
    for rules, at_once in ((MobtownRules(), False),
                           (MobtownRules(don_election="next_adjustment"), True)):
        w2 = turn(position_from_data(start, mt), "Al Capone: G(Str)-Har\nG(PPU) S G(Str)-Har",
                  rules)
        assert w2.position.disorder == {"lepke"} and "lepke" not in w2.position.dons
        pos = w2.position
        if pos.phase.is_retreat:
            pos = turn(pos, "Lepke: G(Har) Disband", rules).position
        assert str(pos.phase) == "1919-07-W2-A"
        rebuilt = turn(pos, "Lepke: Build D Pie\nBuild G P45", rules)
        assert rebuilt.results[0].outcome.value == ("succeeds" if at_once else "invalid")
        assert rebuilt.results[1].outcome.value == "succeeds"  # Gangs are built as usual
        if at_once:
            continue
        w3 = turn(rebuilt.position, "Lepke: G(Que)-Pie", rules)  # civil disorder: all hold
        assert w3.results[0].reason.value == R.CIVIL_DISORDER.value
        assert not w3.position.disorder
        w4 = turn(w3.position, "", rules)
        assert str(w4.position.phase) == "1919-07-W4-A"
        assert adjusting(w4.position, mt, rules) == ["lepke"]  # due for his Don alone
        done = turn(w4.position, "Lepke: Build D Pie", rules)
        assert done.results[0].outcome.value == "succeeds"
        assert done.position.dons == {"lepke": "Pie"}


def test_ruling14_default_placement_is_first_home_centre(play, mt):
    p = play({}, "", phase="1919-06-START")
    assert p.after.dons == {pid: power.home_centers[0] for pid, power in mt.powers.items()}
    assert p.after.dons["babyface"] == "Wal"


def test_ruling15_highway_crosser_still_bounces_others(play):
    p = play({"diamond": ["G GoG"], "capone": ["G P22"]},
             "Legs Diamond: G(GoG)-Bur\nAl Capone: G(P22)-Bur")
    assert not p.ok("G GoG - Bur") and not p.ok("G P22 - Bur")


def test_ruling15_subway_under_a_highway_pays_nothing(play, mt):
    assert mt.edge("G", "DtB", "Lin")["via"] == "subway"
    p = play({"babyface": ["G DtB"], "capone": ["G Lin"]},
             "Baby Face: G(DtB)-U-Lin\nAl Capone: G(Lin)-Kin")
    assert p.ok("G DtB - U - Lin")


def test_ruling16_no_valid_retreat_next_to_mtpd_means_gaol(play):
    dis = {"luciano": [{"unit": "G Tim", "from": "42nd"}],
           "capone": [{"unit": "G Riv", "from": "BoR"}]}
    p = play({}, "Lucky Luciano: G(Tim)-Hoo\nAl Capone: G(Riv)-Hoo", phase="1919-07-W1-R",
             dislodged=dis)
    assert p.outcome("G Tim - Hoo") == ("fails", R.CLASH_GAOL.value)
    assert sorted(p.after.gaol) == ["capone", "luciano"]
    q = play({}, "", phase="1919-07-W1-R", dislodged=dis)
    assert [r.reason.value for r in q.result.defaults] == [R.TO_GAOL.value] * 2


def test_ruling16_a_blocked_retreat_next_to_mtpd_says_gaol_not_disbanded(play):
    """The invalid retreat's reason names where the Gang goes: gaol, not disbanded."""
    dis = {"luciano": [{"unit": "G Tim", "from": "Hoo"}]}
    p = play({"capone": ["G Riv", "G 42nd", "G Lex", "G Lop"]}, "Lucky Luciano: G(Tim)-Hoo",
             phase="1919-07-W1-R", dislodged=dis)
    assert p.outcome("G Tim - Hoo") == ("invalid", R.RETREAT_BLOCKED_GAOL.value)
    assert "disbanded" not in R.RETREAT_BLOCKED_GAOL.value
    assert p.after.gaol == ["luciano"]


def test_ruling16_far_from_mtpd_a_gang_still_disbands(play):
    dis = {"lepke": [{"unit": "G Col", "from": "DAS"}]}
    p = play({"capone": ["G Col"]}, "Lepke: G(Col) Disband", phase="1919-07-W1-R",
             dislodged=dis)
    assert p.ok("G Col Disband") and p.after.gaol == []


def test_ruling17_rebuild_only_on_owned_free_home(play):
    p = play({"capone": ["G Pie"], "lepke": ["G Que"]}, "Lepke: Build D Pie\nLepke: Build D P45",
             phase="1919-07-W2-A", centers={"lepke": ["Que", "Pie"], "capone": ["P45"]})
    assert p.outcome("Build D Pie") == ("invalid", R.NOT_FREE.value)
    assert p.outcome("Build D P45") == ("invalid", R.NOT_HOME.value)


def test_ruling17_new_don_may_join_his_own_gang_unless_option(play):
    units, centers = {"lepke": ["G Que", "G Pie"]}, {"lepke": ["Pie", "Que", "P45"]}
    p = play(units, "Lepke: Build D Pie", phase="1919-07-W2-A", centers=centers)
    assert p.ok("Build D Pie") and p.units["lepke"] == ["D Pie", "G Pie", "G Que"]
    q = play(units, "Lepke: Build D Pie", phase="1919-07-W2-A", centers=centers,
             rules=MobtownRules(don_needs_empty_home=True))
    assert q.outcome("Build D Pie") == ("invalid", R.NOT_FREE.value)


def test_ruling19_equal_over_under_swap_with_supports(play):
    p = play({"diamond": ["G RoE", "G Pie"], "lepke": ["G Cat", "G P45"]},
             "Legs Diamond: G(RoE)-Cat\nG(Pie) S G(RoE)-Cat\n"
             "Lepke: G(Cat)-U-RoE\nG(P45) S G(Cat)-U-RoE")
    assert p.ok("G RoE - Cat") and p.ok("G Cat - U - RoE")


def test_ruling20_captive_drowns_with_his_captor_in_water(play):
    p = play({"capone": ["G Har"], "lepke": ["D Har captive", "G PPU", "G Str"]},
             "Lepke: G(Str)-Har\nLepke: G(PPU) S G(Str)-Har")
    assert "Har" in p.after.dislodged and "lepke" not in p.after.dons
    assert p.after.disorder == {"lepke"}
    assert p.result.events == [
        "Lepke's Don drowned in Har: the Gang that held him was dislodged from the water; "
        "Lepke stands in civil disorder next week (rule 3)"]


def test_ruling20_option_a_captive_left_behind_is_freed_or_captured_again(play):
    rules = MobtownRules(captive_don_drowns=False)
    freed = play({"capone": ["G Har"], "lepke": ["D Har captive", "G PPU", "G Str"]},
                 "Lepke: G(Str)-Har\nLepke: G(PPU) S G(Str)-Har", rules=rules)
    assert freed.after.dons == {"lepke": "Har"} and freed.after.captor("lepke") is None
    assert not freed.after.disorder
    taken = play({"capone": ["G Har"], "lepke": ["D Har captive"],
                  "diamond": ["G PPU", "G Str"]},
                 "Legs Diamond: G(Str)-Har\nG(PPU) S G(Str)-Har", rules=rules)
    assert taken.after.dons == {"lepke": "Har"} and taken.after.captor("lepke") == "diamond"
    # his own Gang dislodged from the water: he drowns whatever the option says
    own = play({"lepke": ["G Har", "D Har"], "diamond": ["G PPU", "G Str"]},
               "Legs Diamond: G(Str)-Har\nG(PPU) S G(Str)-Har", rules=rules)
    assert own.after.dons == {} and own.after.disorder == {"lepke"}


def test_ruling21_cement_overcoat_conditions(play):
    land = play({"capone": ["G Col"], "lepke": ["D Col captive"]},
                "Al Capone: D(Col) cement overcoat\nAl Capone: G(Col)-Lex")
    assert land.outcome("D Col cement overcoat") == ("invalid", R.CEMENT_NOT_WATER.value)
    stay = play({"capone": ["G Har"], "lepke": ["D Har captive"]},
                "Al Capone: D(Har) cement overcoat")
    assert stay.outcome("D Har cement overcoat") == ("fails", R.CEMENT_NOT_ALONE.value)
    other = play({"capone": ["G Har"], "lepke": ["D Har captive"]},
                 "Murder Inc.: D(Har) cement overcoat")
    assert other.outcome("D Har cement overcoat") == ("invalid", R.NO_CAPTIVE.value)
    along = play({"capone": ["G Har"], "lepke": ["D Har captive"]},
                 "Al Capone: D(Har) cement overcoat\nAl Capone: G+D(Har)-Str")
    assert along.outcome("D Har cement overcoat")[0] == "fails"


def test_options_through_rules_for():
    rules = rules_for("mobtown2", captive_don_helps=True, don_crossing="support")
    assert isinstance(rules, MobtownRules)
    assert rules.options()["captive_don_helps"] is True
    assert rules.options()["don_crossing"] == "support"


_SIXTEEN = ["5th", "Bnx", "Brk", "Bro", "Cap", "Cas", "Cat", "Chi", "Con", "DAN", "DAS", "DtB",
            "Lak", "Lib", "MaE", "Man"]


def test_ruling18_victory_after_the_weekend_retreats(play):
    # centres change (and victory is checked) after week 2's retreats when some follow
    moved = play({"capone": ["G Lex", "G DAS", "G Cem"], "lepke": ["G Ext"]},
                 "Al Capone: G(Lex)-Col\nG(DAS)-Ext\nG(Cem) S G(DAS)-Ext",
                 centers={"capone": _SIXTEEN}, phase="1919-07-W2-M")
    assert str(moved.result.next_phase) == "1919-07-W2-R"
    assert moved.after.winner is None and "Col" not in moved.after.centers
    after = play(moved.after.to_data()["units"], "Lepke: G(Ext) Disband", phase="1919-07-W2-R",
                 centers={"capone": _SIXTEEN}, dislodged=moved.after.to_data()["dislodged"])
    assert after.after.centers["Col"] == "capone" and after.after.winner == "capone"


def test_ruling22_any_death_means_disorder_and_a_rebuild(play):
    dead = play({"lepke": ["G Har", "D Har"]}, "Lepke: G(Har)-Str",
                rules=MobtownRules(lone_don_drowns=True), phase="1919-07-W2-M",
                centers={"lepke": ["Pie", "Que"]})
    assert dead.after.disorder == {"lepke"}
    assert str(dead.result.next_phase) == "1919-07-W2-A"  # the rebuild is due


def test_ruling23_lone_don_does_not_block_a_retreat(play):
    dis = {"capone": [{"unit": "G Col", "from": "DAS"}]}
    p = play({"lepke": ["G Col", "D Lex"]}, "Al Capone: G(Col)-Lex", phase="1919-07-W1-R",
             dislodged=dis)
    assert p.ok("G Col - Lex") and p.after.captor("lepke") == "capone"
    assert p.result.events == ["Lepke's Don in Lex is captured by Al Capone (rule 3)"]


def test_datc_options_reach_the_weekend(play):
    units = {"capone": ["G Lex", "G Col"]}
    centers = {"capone": ["DAN", "DAS", "Bnx"]}  # one build
    orders = "Al Capone: Build G DAN\nAl Capone: Build G DAS"
    first = play(units, orders, "1919-07-W2-A", centers)
    last = play(units, orders, "1919-07-W2-A", centers, rules=MobtownRules(too_many="last"))
    assert "G DAN" in first.units["capone"] and "G DAS" not in first.units["capone"]
    assert "G DAS" in last.units["capone"] and "G DAN" not in last.units["capone"]
    # civil disorder: nearest owned centre (2023) or nearest home centre (DATC 2.4)
    units = {"capone": ["G Mem", "G HaE"]}
    owned = {"capone": ["Sou"]}  # next to Mem, far from the home centres
    nearest_owned = play(units, "", "1919-07-W2-A", owned)
    nearest_home = play(units, "", "1919-07-W2-A", owned,
                        rules=MobtownRules(civil_disorder="home_centres"))
    assert nearest_owned.result.defaults[0].order == "Remove G HaE"
    assert nearest_home.result.defaults[0].order == "Remove G Mem"


def test_datc_options_with_nothing_to_act_on_are_refused():
    with pytest.raises(ValueError, match="unknown Mobtown option 'paradox'"):
        coerce_options({"paradox": "1982"}, MobtownRules)
    assert coerce_options({"captive_don_helps": "yes"}, MobtownRules) == {
        "captive_don_helps": True}


REB1 = {"lepke": ["D Pie", "G P45", "G Que", "G Wes"],
        "murderinc": ["G Man", "D Man", "G MaE", "G Sho", "G Con"]}
REB1_CENTRES = {"lepke": ["Pie", "Que", "P45"], "murderinc": ["MaE", "Man", "Sho"]}


def test_ruling26_a_removed_don_is_in_the_summary_and_the_news(play, mt):
    p = play(REB1, "Lepke: Remove D Pie\nMurder Inc: Remove D Man", phase="1919-09-W2-A",
             centers=REB1_CENTRES, rebuilt_dons=["lepke"])
    report = format_report(p.result, mt, rules=MobtownRules())
    assert "  Lepke: 1 removal due; removed D Pie\n" in report
    assert ("  Lepke removes its Don from Pie: he is dead to the mob, which stands in civil "
            "disorder next week while a new Don is elected (rule 3, ruling 26)") in report
    assert "  In civil disorder next movement: Lepke" in report


def test_ruling26_a_rebuilt_don_is_in_the_summary(play, mt):
    p = play({"lepke": ["G Cat", "G Pie", "G Wes"]}, "Lepke: Build D P45",
             phase="1919-09-W4-A", centers={"lepke": ["Cat", "P45", "Pie", "Que"]})
    assert "  Lepke: 1 build due; built D P45\n" in format_report(p.result, mt,
                                                                 rules=MobtownRules())
    full = play({"lepke": ["G P45", "G Pie", "G Que"]}, "Lepke: Build D Pie",
                phase="1919-08-W4-A", centers={"lepke": ["P45", "Pie", "Que"]})
    assert ("  Lepke: built D Pie; G P45 removed by the rules (no removal ordered)\n"
            ) in format_report(full.result, mt, rules=MobtownRules())  # ruling 28


def test_ruling26_a_removed_don_dies_the_mob_is_elected_a_new_one_after_disorder(play, mt):
    """Rule 3: "If a mob's Don dies, by one way or another": removed, he is dead; civil
    disorder for the next move (week 3), the new Don at the weekend after week 4."""
    p = play(REB1, "Lepke: Remove D Pie", phase="1919-09-W2-A", centers=REB1_CENTRES,
             rebuilt_dons=["lepke"])
    assert p.after.disorder == {"lepke"} and "lepke" not in p.after.dons
    assert p.after.rebuilt == frozenset()
    w3 = adjudicate(p.after, parse_mobtown_orders("Lepke: G(Wes)-Pie", mt).orders, mt,
                    MobtownRules())
    assert w3.results[0].reason is R.CIVIL_DISORDER
    assert w3.position.disorder == frozenset()
    w4a = play({"lepke": ["G P45", "G Que", "G Wes"]}, "Lepke: Build D Pie",
               phase="1919-09-W4-A", centers=REB1_CENTRES)
    assert w4a.ok("Build D Pie") and w4a.after.rebuilt == {"lepke"}
    early = play({"lepke": ["G P45", "G Que", "G Wes"]}, "Lepke: Build D Pie",
                 phase="1919-09-W4-A", centers=REB1_CENTRES, disorder=["lepke"])
    assert early.outcome("Build D Pie") == ("invalid", R.DON_ELECTED_LATER.value)


def test_ruling26_option_gone_no_disorder_and_no_other_don(play, mt):
    gone = MobtownRules(removed_don="gone")
    p = play(REB1, "Lepke: Remove D Pie", phase="1919-09-W2-A", centers=REB1_CENTRES,
             rebuilt_dons=["lepke"], rules=gone)
    assert p.ok("Remove D Pie") and p.after.disorder == frozenset()
    assert p.after.rebuilt == {"lepke"} and "lepke" not in p.after.dons  # no Don, no other
    assert p.result.events == ["Lepke removes its Don from Pie; he was not drowned, so the "
                               "mob builds no other Don (rule 3, ruling 26)"]
    later = play({"lepke": ["G P45", "G Que"]}, "Lepke: Build D Pie", phase="1919-09-W4-A",
                 centers=REB1_CENTRES, rebuilt_dons=["lepke"], rules=gone)
    assert later.outcome("Build D Pie") == ("invalid", R.DON_REMOVED.value)
    pos = position_from_data({"phase": "1919-09-W4-A", "units": {"lepke": ["G P45", "G Que"]},
                              "centers": REB1_CENTRES, "rebuilt_dons": ["lepke"]}, mt)
    assert adjustments_due(pos, mt, gone)[0] == (
        "  Lepke: 3 centres, 2 units: may build 1 (vacant home centres: Pie), or waive")
    assert "may rebuild its Don" in adjustments_due(pos, mt, MobtownRules())[0]


HW3 = {"diamond": ["G 325", "G GoG", "D GoG"], "babyface": ["G Bur", "D Bur"]}
HW3_ORDERS = "Diamond: G(325)-Bur\nDiamond: G(GoG) S G(325)-Bur"


def test_ruling27_a_support_across_a_highway_counts_by_default(play):
    # GoG and Bur lie across the Ness Turnpike with no junction: GoG may move there with an
    # extra support (rule 4), so it may support there
    p = play(HW3, HW3_ORDERS)
    assert p.ok("G GoG S G 325 - Bur") and p.ok("G 325 - Bur")
    assert "Bur" in p.after.dislodged


def test_ruling27_option_no_support_across_a_highway(play):
    off = MobtownRules(highway_support=False)
    p = play(HW3, HW3_ORDERS, rules=off)
    assert p.outcome("G GoG S G 325 - Bur") == ("invalid", R.SUPPORT_ACROSS_HIGHWAY.value)
    assert not p.ok("G 325 - Bur") and not p.after.dislodged
    hold = play({"diamond": ["G GoG"], "babyface": ["G Bur"]}, "Diamond: G(GoG) S G(Bur)",
                rules=off)
    assert hold.outcome("G GoG S G Bur") == ("invalid", R.SUPPORT_ACROSS_HIGHWAY.value)
    # the rulebook's own support, from Burbank's side, stands under the option
    book = play({"diamond": ["G P22", "G Gon", "G 325"]},
                "Diamond: G(P22) S G(Gon)-Bur\nDiamond: G(Gon)-Bur\nG(325) S G(Gon)-Bur",
                rules=off)
    assert book.ok("G P22 S G GoG - Bur") and book.ok("G GoG - Bur")


def _rebuild_at_full_supply(tmp_path, *options: str) -> str:
    """The report ``mobadj adjudicate`` prints for a mob at full supply that rebuilds its
    Don in Pie, where one of its Gangs stands, and orders no removal."""
    from click.testing import CliRunner

    from mobadj.cli import main

    position = tmp_path / "weekend.yaml"
    position.write_text("phase: 1919-08-W4-A\nunits:\n  lepke: [G P45, G Pie, G Que]\n"
                        "centers:\n  lepke: [P45, Pie, Que]\n", encoding="utf-8")
    orders = tmp_path / "orders.txt"
    orders.write_text("Lepke: Build D(Pie)\n", encoding="utf-8")
    run = CliRunner().invoke(main, ["adjudicate", "--map", "mobtown2", *options,
                                    str(position), str(orders)])
    assert run.exit_code == 0, run.output
    return run.output


def test_ruling28_the_rules_removal_never_strands_the_new_don(tmp_path):
    # rule 3: the new Don "can only move when accompanied by a Gang"; the Gang he costs
    # (ruling 9) is another one while the mob has another
    out = _rebuild_at_full_supply(tmp_path)
    assert "  Remove G P45                       removed by the rules: no removal ordered" in out
    assert "  Lepke                 3 centres (+0)  D Pie, G Pie, G Que" in out


def test_ruling28_option_the_civil_disorder_rule_alone_chooses(tmp_path):
    out = _rebuild_at_full_supply(tmp_path, "--option", "removal_spares_don=false")
    assert "  Remove G Pie                       removed by the rules: no removal ordered" in out
    assert "  Lepke                 3 centres (+0)  D Pie, G P45, G Que" in out


def test_ruling28_the_dons_gang_goes_when_no_other_can(play):
    p = play({"lepke": ["G Pie"]}, "Lepke: Build D Pie", phase="1919-08-W4-A",
             centers={"lepke": ["Pie"]})
    assert p.ok("Build D Pie")
    assert [r.order for r in p.result.defaults] == ["Remove G Pie"]
