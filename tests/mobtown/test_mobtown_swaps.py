"""Rule 5's over/under swap on every pair of the board where it can happen.

"It is possible for two gangs to swap places if one goes overground and the other
underground ... If two unequally supported gangs attempt to switch places, one using the
subway, the other overground, the one with the greater support succeeds and the one with
less support is dislodged and cannot move to the province from which the attack came."
The rule sets no limit to Gangs of different mobs, so it holds within one mob too, with
supports from either mob and with a Don (docs/mobtown-rulings.md, ruling 19).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.board.loader import load_map
from mobadj.mobtown.terms import ground_link, subway_link

ROOT = Path(__file__).resolve().parents[2]
#: (a, b, a supporter that reaches both over ground) for each over-and-under pair
PAIRS = [("Pla", "Sun", "MTU"), ("RoE", "Cat", "P45"), ("Mic", "Mem", "Pel")]
#: each pair both ways: the first Gang goes over ground, the second under
SIDES = [(a, b, s) for a, b, s in PAIRS] + [(b, a, s) for a, b, s in PAIRS]
IDS = [f"{a}-over-{b}-under" for a, b, _ in SIDES]


def test_the_pairs_are_every_over_and_under_link_of_the_board():
    mt = load_map("mobtown2")
    found = set()
    for a in mt.provinces:
        for b in mt.neighbours("G", a):
            edge = mt.edge("G", a, b)
            if ground_link(edge) and subway_link(edge):
                found.add(frozenset((a, b)))
    assert found == {frozenset((a, b)) for a, b, _ in PAIRS}
    for a, b, s in PAIRS:  # the supporter reaches both ends over ground
        assert ground_link(mt.edge("G", s, a)) and ground_link(mt.edge("G", s, b))


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_two_gangs_of_one_mob_swap(play, over, under, helper):
    p = play({"murderinc": [f"G {over}", f"G {under}"]},
             f"Murder Inc.: G({over})-{under}\nG({under})-U-{over}")
    assert p.ok(f"G {over} - {under}") and p.ok(f"G {under} - U - {over}")
    assert sorted(p.units["murderinc"]) == sorted([f"G {over}", f"G {under}"])
    assert not p.after.dislodged


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_one_mob_swaps_whoever_is_supported(play, over, under, helper):
    # a mob never dislodges its own Gang: supported or not, its two Gangs pass each other
    for supported in (f"G({over})-{under}", f"G({under})-U-{over}"):
        p = play({"murderinc": [f"G {over}", f"G {under}", f"G {helper}"]},
                 f"Murder Inc.: G({over})-{under}\nG({under})-U-{over}\n"
                 f"G({helper}) S {supported}")
        assert p.ok(f"G {over} - {under}") and p.ok(f"G {under} - U - {over}")
        assert not p.after.dislodged


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_one_mob_swaps_with_its_don(play, over, under, helper):
    for don_at, order_over, order_under in (
            (over, f"G+D({over})-{under}", f"G({under})-U-{over}"),
            (under, f"G({over})-{under}", f"G+D({under})-U-{over}")):
        p = play({"murderinc": [f"G {over}", f"G {under}", f"D {don_at}"]},
                 f"Murder Inc.: {order_over}\n{order_under}")
        assert all(r.outcome.value == "succeeds" for r in p.result.results), p.result.results
        assert p.after.dons["murderinc"] == (under if don_at == over else over)
        assert not p.after.dislodged


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_two_mobs_equally_supported_swap(play, over, under, helper):
    p = play({"capone": [f"G {over}"], "lepke": [f"G {under}"]},
             f"Al Capone: G({over})-{under}\nLepke: G({under})-U-{over}")
    assert p.ok(f"G {over} - {under}") and p.ok(f"G {under} - U - {over}")
    assert p.units == {"capone": [f"G {under}"], "lepke": [f"G {over}"]}


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_support_from_the_defenders_mob_does_not_dislodge_it(play, over, under, helper):
    # the attacked mob's own support counts for nothing against it: equal, so they swap
    for supported, owner in ((f"G({over})-{under}", "lepke"), (f"G({under})-U-{over}", "capone")):
        units = {"capone": [f"G {over}"], "lepke": [f"G {under}"]}
        units[owner] = [*units[owner], f"G {helper}"]
        p = play(units, f"Al Capone: G({over})-{under}\nLepke: G({under})-U-{over}\n"
                        f"{owner}: G({helper}) S {supported}")
        assert p.ok(f"G {over} - {under}") and p.ok(f"G {under} - U - {over}")
        assert not p.after.dislodged


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_the_better_supported_over_ground_wins(play, over, under, helper):
    p = play({"capone": [f"G {over}", f"G {helper}"], "lepke": [f"G {under}"]},
             f"Al Capone: G({over})-{under}\nG({helper}) S G({over})-{under}\n"
             f"Lepke: G({under})-U-{over}")
    assert p.ok(f"G {over} - {under}")
    assert p.outcome(f"G {under} - U - {over}") == ("fails", "lost head-to-head battle")
    d = p.after.dislodged[under]
    assert d.unit.power == "lepke" and d.attacker_from == over and d.via is None
    # "cannot move to the province from which the attack came", by either route
    assert over not in d.retreats and f"U-{over}" not in d.retreats


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_the_better_supported_under_ground_wins(play, over, under, helper):
    p = play({"capone": [f"G {over}"], "lepke": [f"G {under}", f"G {helper}"]},
             f"Al Capone: G({over})-{under}\n"
             f"Lepke: G({under})-U-{over}\nG({helper}) S G({under})-U-{over}")
    assert p.ok(f"G {under} - U - {over}")
    assert p.outcome(f"G {over} - {under}") == ("fails", "lost head-to-head battle")
    d = p.after.dislodged.get(over)
    if d is None:  # no subway left to retreat by (ruling 7): disbanded at once
        assert [str(x.unit) for x in p.result.destroyed] == [f"G {over}"]
    else:
        assert d.attacker_from == under and d.via == "subway"
        assert all(r.startswith("U-") and r != f"U-{under}" for r in d.retreats)


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_the_don_is_the_greater_support(play, over, under, helper):
    # rule 3: the Don adds an uncuttable support to his Gang's move, over or under ground
    p = play({"capone": [f"G {over}", f"D {over}"], "lepke": [f"G {under}"]},
             f"Al Capone: G+D({over})-{under}\nLepke: G({under})-U-{over}")
    assert p.ok(f"G+D {over} - {under}") and not p.ok(f"G {under} - U - {over}")
    assert p.after.dislodged[under].unit.power == "lepke"
    assert p.after.dons["capone"] == under
    q = play({"capone": [f"G {over}"], "lepke": [f"G {under}", f"D {under}"]},
             f"Al Capone: G({over})-{under}\nLepke: G+D({under})-U-{over}")
    assert q.ok(f"G+D {under} - U - {over}") and not q.ok(f"G {over} - {under}")
    assert q.after.dons["lepke"] == over


@pytest.mark.parametrize(("over", "under", "helper"), SIDES, ids=IDS)
def test_a_don_matched_by_a_support_swaps(play, over, under, helper):
    p = play({"capone": [f"G {over}", f"D {over}"], "lepke": [f"G {under}", f"G {helper}"]},
             f"Al Capone: G+D({over})-{under}\n"
             f"Lepke: G({under})-U-{over}\nG({helper}) S G({under})-U-{over}")
    assert p.ok(f"G+D {over} - {under}") and p.ok(f"G {under} - U - {over}")
    assert p.after.dons["capone"] == under and not p.after.dislodged


def test_swaps_within_a_mob_through_mobadj_batch():
    """The lines a GM would feed ``mobadj batch`` (a real subprocess), read as a person would."""
    cases = [
        {"units": {"murderinc": ["G Mic", "G Mem"]},
         "orders": {"murderinc": ["G(Mic)-Mem", "G(Mem)-U-Mic"]}},
        {"units": {"diamond": ["G RoE"], "lepke": ["G Cat", "G P45"]},
         "orders": {"diamond": ["G(RoE)-Cat"], "lepke": ["G(Cat)-U-RoE", "G(P45) S G(RoE)-Cat"]}},
        {"units": {"babyface": ["G Pla", "G Sun", "D Sun"]},
         "orders": {"babyface": ["G(Pla)-Sun", "G+D(Sun)-U-Pla"]}},
    ]
    text = "".join(json.dumps({"id": n, "map": "mobtown2", "phase": "1919-07-W1-M",
                               "centers": {}, **case}) + "\n" for n, case in enumerate(cases))
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    moves = [[o["result"] for o in line["orders"] if " S " not in o["order"]] for line in out]
    assert moves == [["succeeds", "succeeds"]] * 3
    assert out[0]["units"] == {"murderinc": ["G Mem", "G Mic"]}
    assert out[1]["units"] == {"diamond": ["G Cat"], "lepke": ["G P45", "G RoE"]}
    assert out[2]["units"] == {"babyface": ["D Pla", "G Pla", "G Sun"]}
    assert all(not line["dislodged"] and not line["errors"] for line in out)
