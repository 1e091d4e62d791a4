"""Per-player views and their plain-text rendering."""

from __future__ import annotations

import json

from mh_helpers import new, random_game, select


def test_view_is_json_and_shows_the_public_table() -> None:
    s = new(4, 1)
    v = s.view(None)
    json.dumps(v)
    assert v["you"] is None and v["phase"] == "select" and len(v["jobs"]) == 4
    assert v["deck"] == 33 and v["bag"] == 11 and v["supply"] == 28
    assert [j["top"].split()[0] for j in v["jobs"]] == ["A1", "B1", "C1", "D1"]
    text = s.render(None)
    assert "Market:" in text and "A The Pantry" in text and "P1" in text


def test_render_during_a_test() -> None:
    s = new(3, 2)
    t = s.tester
    s.command(t, "select C")
    bettor = s.to_act()[0]
    s.command(bettor, "bet 1")
    mine = s.render(bettor)
    assert "Your sealed bet: 1 cheese" in mine and "(has bet)" in mine
    assert "To act: " in mine and f"P{bettor + 1}" not in mine.split("To act: ")[1].split("\n")[0]
    assert "Your skills: " in mine and s.data.skills[s.skills[bettor][0]].name in mine
    other = s.render(t)
    assert "Your sealed bet" not in other and "(has bet)" in other
    for p in list(s.to_act()):
        s.command(p, "bet 0")
    text = s.render(t)
    assert "Obstacle: C1" in text and "Chips: #1" in text and "rating" in text
    assert f"P{bettor + 1}" in text and "bet 1" in text


def test_final_view_has_scores_and_winners() -> None:
    s = random_game(4, 3)
    v = s.view(2)
    assert set(v["scores"]) == {"P1", "P2", "P3", "P4"} and v["winners"]
    assert "Final:" in s.render(2)


def test_select_logs_the_obstacle_publicly() -> None:
    s = new(4, 1)
    select(s, "A")
    assert any("selects A1 Latched Cupboard" in e for e in s.history(None))
