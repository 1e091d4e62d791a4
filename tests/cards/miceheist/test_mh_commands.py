"""The command language (commands.lark): canonical text round-trips, friendly errors."""

from __future__ import annotations

import random

import pytest
from mh_helpers import new, select

from mobadj.cards.miceheist.actions import Bet, Learn, Select, Test, Use
from mobadj.cards.protocol import CommandError, IllegalAction


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("select a", Select("A")),
        ("  SELECT B. ", Select("B")),
        ("attempt d", Select("D")),
        ("test", Test()),
        ("done", Test()),
        ("go", Test()),
        ("learn nothing", Learn()),
        ("skip", Learn()),
    ],
)
def test_simple_commands(text: str, action) -> None:
    s = new(4, 1)
    assert s.parse(s.tester, text) == action


def test_skill_names_are_forgiving() -> None:
    s = new(4, 1)
    t = s.tester
    key = s.skills[t][1]  # e.g. long-jump
    name = s.data.skills[key].name
    for text in (key, name, name.upper(), key.replace("-", " "), key[:5]):
        assert s.parse(t, f"use {text}") == Use(key)
    assert s.parse(t, f"use {key} on 2") == Use(key, 2)
    assert s.parse(t, f"use {name} on chip 1") == Use(key, 1)
    market = s.market[0]
    assert s.parse(t, f"learn {s.data.skills[market].name}") == Learn(market)


def test_bet_forms() -> None:
    s = new(4, 1)
    p = (s.tester + 1) % 4
    a = s.skills[p][0]
    assert s.parse(p, "bet 2") == Bet(2)
    assert s.parse(p, "pass") == Bet(0)
    s.covered[p].add(a)
    # an abstainer names the covered skill to uncover, the first one by default (ruling R5)
    assert s.parse(p, "pass") == Bet(0, (a,))
    assert s.parse(p, f"bet 1 uncover {a}") == Bet(1, (a,))
    assert s.parse(p, f"abstain from {a}") == Bet(0, (a,))


def test_every_legal_action_roundtrips_through_its_text() -> None:
    # the log stores str(action); parse must give the action back (replay depends on it)
    for seed in range(4):
        state = new(3 + seed % 3, seed)
        rng = random.Random(seed)
        while not state.is_over():
            for p in state.to_act():
                for act in state.legal_actions(p):
                    assert state.parse(p, str(act)) == act
            p = rng.choice(state.to_act())
            state.apply(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize(
    ("text", "column", "expected", "suggestion"),
    [
        ("slect A", 1, "select", "select"),
        ("select", 7, "a job letter", "select A"),
        ("select 3", 8, "a job letter", "select A"),
        ("bet two", 5, "a number", "bet 1"),
        ("test now", 6, "end of command", None),
    ],
)
def test_syntax_errors_are_friendly(text, column, expected, suggestion) -> None:
    s = new(4, 1)
    with pytest.raises(CommandError) as err:
        s.parse(s.tester, text)
    e = err.value
    assert e.column == column and expected in e.expected and e.suggestion == suggestion
    assert f"column {column}" in str(e)


def test_unknown_job_and_skill_errors() -> None:
    s = new(4, 1)
    t = s.tester
    with pytest.raises(CommandError) as err:
        s.parse(t, "select Z")
    assert err.value.expected == ("A", "B", "C", "D")
    key = s.skills[t][0]
    typo = key[:-1] + "x" + "q"
    select(s, "A")
    with pytest.raises(CommandError) as err:
        s.parse(t, f"use {typo}")
    assert err.value.suggestion == key and err.value.column == 5
    assert s.data.skills[key].name in err.value.expected


def test_empty_command() -> None:
    s = new(4, 1)
    with pytest.raises(CommandError, match="empty command"):
        s.parse(s.tester, "   ")


def test_illegal_but_well_formed_commands() -> None:
    s = new(4, 1)
    t = s.tester
    with pytest.raises(IllegalAction, match="cannot test now"):
        s.command(t, "test")
    select(s, "A")
    with pytest.raises(IllegalAction, match="not one of your skills"):
        s.apply(t, Use("sprint-nope"))
    with pytest.raises(IllegalAction, match="cannot select"):
        s.command(t, "select B")


def test_a_skill_named_at_the_wrong_time_is_refused_for_the_time() -> None:
    # a name is looked up where the command looks for it only when it is the command's time
    s = new(3, 1)
    t = s.tester
    mine = s.skills[t][0]
    with pytest.raises(IllegalAction, match="^you cannot learn a skill now: you are selecting "
                                            "an obstacle \\(select A, select B, select C, "
                                            "select D\\)$"):
        s.command(t, f"learn {mine}")  # one's own skill, not in the market
    with pytest.raises(IllegalAction, match="^you cannot bet now: you are selecting"):
        s.command(t, "bet 2")
    select(s, "A")
    with pytest.raises(IllegalAction, match="^you cannot learn a skill now: you are "
                                            "activating skills \\(use a skill, then test\\)$"):
        s.command(t, f"learn {mine}")
    with pytest.raises(IllegalAction, match=f"^you cannot bet now: P{t + 1} is activating"):
        s.command((t + 1) % 3, "bet 1 uncover nothing-such")


def test_learning_a_seventh_skill_points_at_the_discard_and_suggests_a_legal_learn() -> None:
    # "a player may have a maximum of 6 skills" (discard one first): the error's column is the
    # discarded name's, and the did-you-mean a learn that names a discard
    s = new(3, 1)
    t = s.tester
    s.skills[t] = [k for k in s.data.upgrades if k not in s.market][:6]
    s.deck = [k for k in s.deck if k not in s.skills[t]]
    select(s, "A")
    s.command(t, "test")
    while s.phase != "learn":  # a success moves on: fail the next test of the same seat
        for p in list(s.to_act()):
            s.command(p, "select A" if s.phase == "select" else "bet 0" if s.phase == "bet"
                      else "test" if s.phase == "activate" else "learn nothing")
    assert s.tester == t and len(s.skills[t]) == 6
    market = s.market[0]
    with pytest.raises(CommandError) as err:
        s.command(t, f"learn {market} discard {market}")
    assert err.value.column == len(f"learn {market} discard ") + 1
    with pytest.raises(CommandError) as err:
        s.command(t, f"learn {market}, discard {s.skills[t][0]}")
    assert err.value.suggestion == f"learn {market} discard {s.skills[t][0]}"
