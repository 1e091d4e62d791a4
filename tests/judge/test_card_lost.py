"""A cooperative Micro City game lost to the game, or won by the players together: the GM's
status and summary and the game's page give the result as the final mail does, and the last
result.json names no next phase (the game is over; so for every game the judge plays)."""

from __future__ import annotations

import json
import random

import pytest

from mobadj.cards.microcity.bot import MicroCityBot
from mobadj.judge.overview import status_text, summary_text
from mobadj.web.story import build

from .conftest import Table
from .helpers import mail
from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def result_json(m) -> dict:
    return json.loads(next(body for name, _, body in m.attachments if name == "result.json"))


def test_a_lost_cooperative_game_is_recorded_as_lost(judge) -> None:
    host = setup_game(judge, "microcity", 2)
    last: list = []
    while judge.store.game("cg").status == "active":
        seat = f"P{host._game(judge.store.game('cg').state).to_act()[0] + 1}"
        last = act(judge, seat, legal(judge, host, seat)[0])
    final = next(m for m in last if m.to == "gm@test.org" and "results" in m.subject)
    assert "Nobody wins: the city lost." in final.body
    data = result_json(final)
    assert data["result"]["over"] is True and data["deadline"] is None
    assert data["next_phase"] is None
    game = judge.store.game("cg")
    status = status_text(judge, game)
    assert ("Result: lost: everyone lost to the game (by the rules: the Time marker reached 0 "
            "before the Building was finished)") in status, status
    summary = summary_text(judge.store, game, gm_view=True)
    assert ("Result: lost (everyone), by the rules: the Time marker reached 0 before the "
            "Building was finished, in M") in summary, summary
    story = build(game, judge.store.results("cg"), host, judge.store.ending("cg"))
    assert story.outcome == ("Lost: everyone lost to the game (the Time marker reached 0 "
                             "before the Building was finished).")


def test_a_won_cooperative_game_is_recorded_as_won_together(judge) -> None:
    """The city built (the bot plays both seats of a deal it wins): a shared win of both
    players, as the final mail says it, not a draw between them."""
    host = setup_game(judge, "microcity", 2, seed=8)
    bot = MicroCityBot()
    last: list = []
    while judge.store.game("cg").status == "active":
        played = host._game(judge.store.game("cg").state)
        seat = played.to_act()[0]
        last = act(judge, f"P{seat + 1}", str(bot.choose(played, seat, random.Random(0))))
    final = next(m for m in last if m.to == "gm@test.org" and "results" in m.subject)
    assert "Winner: P1 and P2 (together)." in final.body
    data = result_json(final)
    assert data["result"]["together"] is True and data["result"]["winners"] == ["P1", "P2"]
    assert data["next_phase"] is None
    game = judge.store.game("cg")
    status = status_text(judge, game)
    assert "Result: won together by P1, P2 (by the rules)" in status, status
    summary = summary_text(judge.store, game, gm_view=True)
    assert "Result: won together (P1, P2), by the rules, in M" in summary, summary
    story = build(game, judge.store.results("cg"), host, judge.store.ending("cg"))
    assert story.outcome == "Won together by P1, P2."
    assert "draw" not in status + summary + story.outcome


def test_a_won_diplomacy_game_names_no_next_phase(judge) -> None:
    """A solo: the result mail says the game is over, and result.json names no phase to come
    (the deadline none either)."""
    t = Table(judge, "standard")
    state = judge.store.game("g1").state
    centers = state["position"]["centers"]  # power -> its centres
    owned = sorted(sc for held in centers.values() for sc in held)
    centers.clear()  # France holds 18 centres: it wins when the phase is adjudicated
    centers["FRANCE"] = owned[:18]
    with judge.store.transaction():
        judge.store.update_game("g1", state=state)
    out = judge.handle_mail(mail("gm@test.org", f"GM g1 {t.gm_password}\nPROCESS"))
    final = next(m for m in out if m.to == t.emails["FRANCE"] and "results" in m.subject)
    assert "The game is over." in final.body
    data = result_json(final)
    assert data["phase"] == "S1901M" and data["next_phase"] is None and data["deadline"] is None
    assert "FRANCE wins (by the rules)" in status_text(judge, judge.store.game("g1"))
