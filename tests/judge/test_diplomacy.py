"""A standard Diplomacy game through the judge, in memory: the real order parser and engine."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import Table
from .helpers import mail


@pytest.fixture
def dip(judge):
    return Table(judge, "standard")


def orders(judge, t, seat, text, ready=True):
    body = t.signon(seat) + text + ("\nready" if ready else "")
    return judge.handle_mail(mail(t.emails[seat], body))


def test_orders_read_back_with_did_you_mean_and_warnings(judge, dip):
    out = orders(judge, dip, "ENGLAND", "F LON - NTH\nA LVP - YOK\nF EDI S A YOR\nFrance: A PAR H",
                 ready=False)
    r = out[0].body
    assert "Orders for ENGLAND, Spring 1901 Movement, as the judge reads them:" in r
    assert "  F LON - NTH" in r
    assert "line 3, column 9: unknown province 'YOK'; did you mean Yorkshire (YOR)" in r
    assert "you can only order for ENGLAND, not FRANCE" in r
    assert "F EDI S A YOR: impossible (no unit to support)" in r
    assert "Deadline for Spring 1901 Movement:" in r


def test_preview_lists_void_orders(judge, dip):
    r = orders(judge, dip, "ENGLAND", "F LON - NTH\nA LVP S F EDI - NWG\npreview", ready=False)
    text = r[0].body
    assert "Preview (the others all hold):" in text
    assert "1 order(s) would be void." in text
    assert "A LVP S F EDI - NWG" in text and "<- VOID" in text


def test_a_year_with_a_dislodgement_retreat_and_builds(judge, dip):
    orders(judge, dip, "FRANCE", "A PAR - BUR\nA MAR H\nF BRE - MAO")
    orders(judge, dip, "GERMANY", "A MUN - RUH\nA BER - MUN\nF KIE - DEN")
    orders(judge, dip, "ENGLAND", "F LON - NTH\nF EDI - NWG\nA LVP - YOR")
    for seat in ("ITALY", "AUSTRIA", "RUSSIA"):
        orders(judge, dip, seat, "")
    out = orders(judge, dip, "TURKEY", "")
    assert judge.store.game("g1").phase == "F1901M"
    res = next(m for m in out if m.to == dip.emails["ENGLAND"] and "results" in m.subject)
    assert "F LON - NTH" in res.body and "succeeds" in res.body
    assert "Next phase: Fall 1901 Movement" in res.body
    data = json.loads(res.attachments[0][2])
    assert data["phase"] == "S1901M" and data["next_phase"] == "F1901M"
    assert {"power": "FRANCE", "order": "A PAR - BUR", "result": "succeeds",
            "reason": None} in data["result"]["results"]

    orders(judge, dip, "GERMANY", "A RUH - BUR\nA MUN S A RUH - BUR\nF DEN H")
    orders(judge, dip, "FRANCE", "A BUR H\nA MAR H\nF MAO - SPA/NC")
    orders(judge, dip, "ENGLAND", "F NTH - NWY\nF NWG H\nA YOR H")
    for seat in ("ITALY", "AUSTRIA", "RUSSIA"):
        orders(judge, dip, seat, "")
    out = orders(judge, dip, "TURKEY", "")
    g = judge.store.game("g1")
    assert g.phase == "F1901R"
    res = next(m for m in out if m.to == dip.emails["FRANCE"] and "results" in m.subject)
    assert "Dislodged units:" in res.body
    assert "France A BUR, attacked from RUH; may retreat to: " in res.body and "PAR" in res.body
    # only France has something to do; the others are told nothing is due
    r = orders(judge, dip, "ENGLAND", "F NWY H", ready=False)[0].body
    assert "No orders are needed from ENGLAND" in r
    out = orders(judge, dip, "FRANCE", "A BUR - PAR")
    assert judge.store.game("g1").phase == "W1901A"
    res = next(m for m in out if m.to == dip.emails["ENGLAND"] and "results" in m.subject)
    assert "Supply centre changes:" in res.body and "England takes NWY (unowned before)" in \
        res.body
    assert "Winter 1901 Adjustments" in res.body
    assert "Position:\n" in res.body  # every map: orders, then the position, the next phase
    assert "Adjustments due in Winter 1901 Adjustments:\n" in res.body
    assert "England: 4 centres, 3 units: may build 1 (vacant home centres: " in res.body


def test_missed_deadline_defaults_are_stated(judge, dip, clock):
    orders(judge, dip, "ENGLAND", "F LON - NTH", ready=False)
    with judge.store.transaction():
        judge.set_option(judge.store.game("g1"), "extend_first_nmr_hours", "0")
    clock.advance(hours=49)
    out = judge.tick()
    res = next(m for m in out if m.to == dip.emails["ENGLAND"])
    assert "No orders received from: AUSTRIA, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY" in res.body
    assert re.search(r"A PAR H\s+succeeds \(no order given\)", res.body)


def test_the_store_replays_every_phase_exactly(judge, dip):
    """Results keep the state before, the orders and the state after: re-adjudicating from
    the store gives the same board, phase by phase."""
    from mobadj.judge.hosts import host_for

    orders(judge, dip, "FRANCE", "A PAR - BUR\nA MAR - SPA")
    orders(judge, dip, "GERMANY", "A MUN - BUR")
    for seat in ("ENGLAND", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"):
        orders(judge, dip, seat, "")
    orders(judge, dip, "FRANCE", "A MAR - BUR\nA PAR - PIC")
    for seat in ("ENGLAND", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY", "GERMANY"):
        orders(judge, dip, seat, "")
    results = judge.store.results("g1")
    assert [r["phase"] for r in results] == ["S1901M", "F1901M"]
    host = host_for("standard")
    for r in results:
        again = host.resolve(r["state_before"], r["orders"], [])
        assert again.state == r["state_after"]
    assert results[1]["state_before"] == results[0]["state_after"]
    events = [e["kind"] for e in judge.store.events("g1")]
    assert events[:2] == ["created", "player added"] and events.count("resolved") == 2
    assert judge.export("g1")["seed"] == judge.store.game("g1").seed


def test_map_picture_follows_the_picture_option():
    """Mobtown II has a layout file: results carry map.svg (and map.png, tested by mail in
    test_e2e); a map without a layout gets its results without a picture, not a failure."""
    from mobadj.engine.position import Phase, Position
    from mobadj.engine.units import UnitState
    from mobadj.judge.diplomacy import _attachments, can_draw
    from mobadj.judge.hosts import DiplomacyHost

    host = DiplomacyHost("mobtown2")
    pos = Position(Phase(1931, "S", "M"))
    for pid, power in host.game_map.powers.items():
        for kind, loc in power.starting_units:
            unit = UnitState(pid, kind, loc)
            pos.units[unit.province] = unit
    assert can_draw("mobtown2")
    host.picture = "svg"
    files = {name: data for name, _, data in _attachments(host, pos, "after S1931M")}
    assert list(files) == ["map.svg"] and b"<svg" in files["map.svg"][:300]
    host.picture = "none"
    assert _attachments(host, pos, "x") == []
    assert not can_draw("nosuchmap")
    assert _attachments(DiplomacyHost("nosuchmap"), pos, "x") == []


def test_process_with_the_phase_does_nothing_once_every_player_was_ready(judge, dip):
    """A GM who mails PROCESS S1901M as the last player's READY arrives gets a refusal, not
    a Fall 1901 adjudicated with no orders in."""
    for seat in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA"):
        orders(judge, dip, seat, "")
    orders(judge, dip, "TURKEY", "A CON - BUL")
    assert judge.store.game("g1").phase == "F1901M"
    out = judge.handle_mail(mail("gm@test.org", "Hi judge,\n\nGM g1 gm-secret\n"
                                 "process s1901m\n\nThanks, Pat"))
    body = out[0].body
    assert "PROCESS s1901m: S1901M was adjudicated at " in body
    assert ("the game is at F1901M now. Nothing was adjudicated (PROCESS F1901M adjudicates "
            "it; ROLLBACK undoes the last adjudicated phase).") in body
    assert judge.store.game("g1").phase == "F1901M"
    assert [r["phase"] for r in judge.store.results("g1")] == ["S1901M"]
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS Spring"))
    assert "PROCESS Spring: the game is not at Spring; the game is at F1901M now." in out[0].body
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS F1901M"))
    assert "F1901M resolved" in out[0].body
    assert [r["phase"] for r in judge.store.results("g1")] == ["S1901M", "F1901M"]


def test_a_build_a_removal_or_a_waive_in_spring_is_not_taken_and_moves_no_unit(judge, dip):
    """A winter's orders sent in spring: the answer says they are not taken (a build names
    no unit that could hold); a unit's impossible order still says the unit will hold."""
    r = orders(judge, dip, "ENGLAND", "Hi all,\nBuild F LON\nRemove A LVP\nWaive\n"
               "F EDI R NWG\nF LON - NTH\n\nCheers, Ed", ready=False)[0].body
    for order in ("Build F LON", "Remove A LVP", "Waive"):
        assert f"{order}: impossible (order not allowed in this phase); not taken" in r, r
    assert ("F EDI R NWG: impossible (order not allowed in this phase); the unit will hold"
            in r), r
    assert "F LON - NTH" in r and "Build F LON: impossible (order not allowed in this phase); " \
        "the unit will hold" not in r
