"""Mobtown II through the judge: Don placement and a week of movement by mail, with the
rulebook notation, Mobtown's reasons, and the map picture attached to the results."""

from __future__ import annotations

import re

import pytest

from mobadj.judge.hosts import host_for

from .conftest import Table
from .helpers import mail


@pytest.fixture
def mob(judge):
    return Table(judge, "mobtown2", picture="svg")  # PNG is tested once, in test_e2e


def say(judge, t, seat, text):
    return judge.handle_mail(mail(t.emails[seat], t.signon(seat) + text))


def test_a_weekend_and_a_week_by_mail(judge, mob, clock):
    game_map = host_for("mobtown2").game_map
    seats = list(mob.emails)
    assert len(seats) == 6
    assert judge.store.game("g1").phase == "1919-06-START"
    r = say(judge, mob, "capone", "Don starts in Lex")[0].body
    assert "Weekend at the end of June 1919: Don placement" in r
    assert "the Don starts in one of his own mob's home centres (rule 6)" in r  # said at once
    for seat in seats:
        home = game_map.powers[seat].home_centers[0]
        out = say(judge, mob, seat, f"Don starts in {home}\nready")
    assert judge.store.game("g1").phase == "1919-07-W1-M"
    res = next(m for m in out if m.to == mob.emails["capone"] and "results" in m.subject)
    assert "D DAN" in res.body and "Next phase: Week 1, July 1919: movement" in res.body
    names = [a[0] for a in res.attachments]
    assert names == ["result.json", "map.svg"]  # picture=svg: no PNG

    r = say(judge, mob, "capone", "G+D(DAN)-Bnx\nG(Bnx) S G(DAS) - Mahn\npreview")[0].body
    assert "unknown province 'Mahn'" in r and "did you mean" in r
    assert "Preview (the others all hold):" in r
    clock.advance(hours=49)
    judge.tick()  # first NMR for the other mobs: one extension
    clock.advance(hours=25)
    out = judge.tick()
    assert judge.store.game("g1").phase.startswith("1919-07-W2")
    res = next(m for m in out if m.to == mob.emails["capone"] and "results" in m.subject)
    assert "Al Capone:" in res.body and "G+D DAN - Bnx" in res.body
    assert "No orders received from:" in res.body and "capone" not in res.body.split(
        "No orders received from:")[1].split("\n")[0]


def test_a_don_placed_as_a_player_writes_it(judge, mob):
    """'Don in Bronx' in a reply with a greeting, a sign-off and the judge's mail quoted."""
    body = (f"Hello judge,\n\n{mob.signon('capone')}Don in Bronx\n\nBest,\nAnn\n\n"
            "On Sat, Nov 28, 2026 at 10:04 PM Judge <judge@test.org> wrote:\n"
            "> mob1 has started. You play Al Capone (capone).\n> Don starts in DtB\n")
    reply = judge.handle_mail(mail(mob.emails["capone"], body))[0].body
    assert "D Bnx" in reply.split("as the judge reads them:")[1].split("\n")[1]
    assert "Errors" not in reply


def test_a_win_ends_the_results_and_the_game(judge, mob):
    """Rule 8: 17 centres at the end of week 2 win; the results end with the win (no
    adjustments due, no next phase) and the game is over."""
    sixteen = ["DAN", "DAS", "Bnx", "Wal", "DtB", "Sun", "P37", "Brk", "Bro", "Pie", "Que",
               "P45", "MaE", "Man", "Sho", "Lib"]
    with judge.store.transaction():
        game = judge.store.game("g1")
        game.state["position"] = {
            "phase": "1919-09-W2-M",
            "units": {"capone": ["G DAS", "D DAS", "G Bnx"],
                      "luciano": ["G Len", "G BoR", "G Riv"]},
            "centers": {"capone": sixteen, "luciano": ["5th", "WCP", "Wch"]}}
        judge.store.update_game("g1", state=game.state, phase="1919-09-W2-M")
    say(judge, mob, "luciano", "G(Len) H\nready")
    out = say(judge, mob, "capone", "G+D(DAS)-Col\nready")
    res = next(m for m in out if m.to == mob.emails["capone"] and "results" in m.subject)
    body = res.body.split("\n-----")[0].rstrip()
    assert body.endswith("The game is won by Al Capone (rule 8).\n\nThe game is over.")
    assert not any("Adjustments due" in m.body or "Next phase" in m.body for m in out)
    assert judge.store.game("g1").status == "ended"
    assert judge.store.ending("g1")["result"] == "win"


def test_a_don_given_no_order_is_not_reported_as_a_missed_order(judge, mob, tmp_path):
    """Rule 3: a Don has no power of his own and moves only with a Gang. Al Capone orders
    his Gangs and nothing for his Don, who stays beside the holding Gang: the results by
    mail and the game's page say he needed no order, where a Gang without one is marked
    "no order given"."""
    from mobadj.judge.store import Store
    from mobadj.web.pages import Site

    with judge.store.transaction():
        game = judge.store.game("g1")
        game.state["position"] = {
            "phase": "1919-07-W1-M",
            "units": {"capone": ["G DAN", "D DAN", "G DAS"], "luciano": ["G WCP", "D WCP"]},
            "centers": {"capone": ["DAN", "DAS", "Bnx"], "luciano": ["5th", "WCP", "Wch"]}}
        judge.store.update_game("g1", state=game.state, phase="1919-07-W1-M")
    say(judge, mob, "luciano", "ready")
    out = say(judge, mob, "capone", "G(DAN) H\nG(DAS)-Col\nready")
    res = next(m for m in out if m.to == mob.emails["capone"] and "results" in m.subject)
    assert "  D DAN H" + " " * 28 + "succeeds (no order needed: a Don moves only with a Gang)\n" \
        in res.body
    assert "  G WCP H" + " " * 28 + "succeeds (no order given)\n" in res.body
    assert "  D WCP H" + " " * 28 + "succeeds (no order needed: a Don moves only" in res.body
    assert "D DAN H" + " " * 28 + "succeeds (no order given)" not in res.body
    store = Store(judge.config.db_path, readonly=True)
    try:
        page = Site(store).game_html("g1", "1919-07-W1-M")
    finally:
        store.close()
    assert page is not None
    assert re.search(r'<span class="order">D DAN H</span> <span class="result">succeeds</span>'
                     r' <span class="default">no order needed: a Don moves only with a Gang'
                     r"</span>", page)
    assert re.search(r'<span class="order">G WCP H</span> <span class="result">succeeds</span>'
                     r' <span class="default">no order given</span>', page)
