"""The command language: canonical round trips, forgiving forms, and friendly errors."""

from __future__ import annotations

import random

import pytest
from mm_helpers import DECK, clear, drafted, put, with_power

from mobadj.cards.micromob.actions import Done, Draft, Pass, Payroll, Take, Use
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import CommandError, GameError, IllegalAction


def test_every_legal_action_round_trips_through_its_text():
    # the log stores str(action); parse(str(action)) must give the action back
    for seed in range(6):
        state = MicroMobState.new(3, seed)
        rng = random.Random(seed)
        while not state.is_over():
            p = state.current
            legal = state.legal_actions(p)
            for action in legal:
                assert state.parse(p, str(action)) == action
            state.apply(p, rng.choice(legal))


def test_forgiving_forms():
    state = drafted(2, seed=5)
    p = state.current
    clear(state, p)
    goons = [c for c in state.pile if DECK.cards[c].goon_hit >= 2][:3]
    put(state, state.hand[p], *goons)
    target = state.city[0]
    a, b, c = (g.lower() for g in goons)
    want = Take("hit", target, tuple(goons))
    assert state.parse(p, f"  HIT {target.lower()} using {a}, {b} and {c} ") == want
    assert state.parse(p, f"hit {target} {a} + {b} {c}") == want
    assert state.parse(p, "pay") == Payroll()
    assert state.parse(p, "END") == Done()
    assert state.parse(p, "pass") == Pass()


def test_goons_left_out_get_the_thrifty_payment():
    state = drafted(2, seed=5)
    p = state.current
    target = next(t for t in state.city if state.payment(p, "hire", t))
    assert state.parse(p, f"hire {target}") == Take("hire", target,
                                                    state.payment(p, "hire", target))
    broke = next(t for t in state.city if state.payment(p, "ally", t) is None)
    with pytest.raises(IllegalAction, match=f"^ally {broke} needs \\d+; your whole hand "
                                            "makes \\d+$"):
        state.parse(p, f"ally {broke}")


def test_use_forms():
    state = drafted(2, seed=5)
    p = state.current
    rest, expand, swap = with_power("rest")[0], with_power("expand")[0], with_power("swap")[0]
    put(state, state.allies[p], rest, expand, swap)
    goon = next(c for c in state.pile if c not in (rest, expand, swap))
    put(state, state.fatigue[p], goon)
    hand = state.hand[p][0]
    assert state.parse(p, f"use {expand}") == Use(expand)
    assert state.parse(p, f"use {rest} on {goon}") == Use(rest, goon)
    city = state.city[1]
    assert state.parse(p, f"use {swap} take {city} give {hand}") == Use(swap, city, hand)
    with pytest.raises(GameError, match="take CARD give CARD"):
        state.parse(p, f"use {swap} on {city}")
    with pytest.raises(GameError, match="takes no target"):
        state.parse(p, f"use {expand} on {city}")
    bonus = with_power("goon_bonus")[0]
    put(state, state.allies[p], bonus)
    with pytest.raises(GameError, match="works by itself"):
        state.parse(p, f"use {bonus}")


@pytest.mark.parametrize(
    ("text", "column", "suggestion"),
    [
        ("drfat D3", 1, "draft"),
        ("payrol", 1, "payroll"),
        ("hti D1 with D2", 1, "hit"),
        ("hit D1 wiht D2", 8, "with"),
    ],
)
def test_syntax_errors_give_column_expected_and_did_you_mean(text, column, suggestion):
    state = drafted(2, seed=5)
    with pytest.raises(CommandError) as err:
        state.parse(state.current, text)
    assert err.value.column == column
    assert err.value.suggestion == suggestion
    assert err.value.expected
    assert f"did you mean '{suggestion}'" in str(err.value)


def test_command_that_stops_early_or_runs_on():
    state = drafted(2, seed=5)
    with pytest.raises(CommandError, match="stops too early.*column 4.*card id"):
        state.parse(state.current, "hit")
    with pytest.raises(CommandError, match="column 9.*end of command"):
        state.parse(state.current, "payroll D3")
    with pytest.raises(CommandError, match="empty command"):
        state.parse(state.current, "   ")
    with pytest.raises(CommandError, match="one command per line: line 2"):
        state.parse(state.current, "payroll\nhit D3")


def test_unknown_cards_are_matched_in_the_right_zone():
    state = drafted(2, seed=5)
    p = state.current
    target = state.city[0]
    typo = target[0] + target[1:] + "9" if len(target) < 4 else target[:-1]
    with pytest.raises(CommandError) as err:
        state.parse(p, f"hit {typo}")
    assert err.value.column == 5
    assert "not in the city" in str(err.value)
    assert all(c in err.value.expected[0] for c in state.city)
    with pytest.raises(CommandError, match="not in your hand"):
        state.parse(p, f"hit {target} with {state.city[1]}")


def test_never_a_traceback_for_junk():
    state = drafted(2, seed=5)
    rng = random.Random(1)
    alphabet = "abcdhiltrwuy DUCMHR0123456789,+-!?"
    errors = 0
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 18)))
        try:
            state.parse(state.current, text)
        except CommandError as err:  # a syntax error always says where
            assert err.column is not None and 1 <= err.column <= len(text.strip()) + 1
            errors += 1
        except GameError:
            errors += 1
    assert errors > 450


def test_draft_command_and_illegal_states():
    state = MicroMobState.new(2, 1)
    first = state.pool[0]
    assert state.parse(0, f"draft {first.lower()}") == Draft(first)
    with pytest.raises(IllegalAction, match="not your turn"):
        state.command(1, f"draft {first}")


def test_the_pages_examples_match_the_shipped_deck_and_the_command_line():
    """docs/cards/micromob.md: every 'use' example is of a card with that form of power,
    every card named with its goon numbers in an event example has them, and no
    'mobadj ...' in backticks is a command the CLI lacks."""
    import re
    from pathlib import Path

    from mobadj.cards.micromob.legal import GOON_TEXT, POWER

    page = (Path(__file__).resolve().parents[3] / "docs" / "cards" / "micromob.md").read_text()
    forms = {"take": {"swap"}, "on": {"fatigue_to_hit", "rest", "ally_to_hit", "ally_to_hand"},
             "": {"expand"}}
    uses = re.findall(r"`use ([A-Z]\d+)(?: (take|on)\b[^`]*)?`", page)
    assert len(uses) >= 6
    for card, form in uses:
        assert POWER[card] in forms[form], (card, form, POWER[card])
    named = re.findall(r"(?:drafts|hires|uses \w+:) ([A-Z]\d+ \(\d/\d/\d\))", page)
    assert len(named) >= 3
    for text in named:
        assert GOON_TEXT[text.split()[0]] == text
    assert "`mobadj rulings" not in page
