"""The command language (commands.lark): forgiving input, canonical text, friendly errors."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from it_helpers import give, new

from mobadj.cards.irontriangle.actions import REVEAL, Offer, Pick, PlayJob, Say
from mobadj.cards.protocol import CommandError, GameError
from mobadj.cli import main


@pytest.fixture
def state():
    s = new(4, seed=11)
    give(s, s.boss, ["Mayor's Favour", "Card Game", "Bank Robbery"])
    return s


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("job Mayor's Favour good", PlayJob("Mayor's Favour", "good")),
        ("JOB mayors favour GOOD", PlayJob("Mayor's Favour", "good")),
        ("job mayor cheap", PlayJob("Mayor's Favour", "cheap")),  # a unique start of a name
        ("job 2 want fast", PlayJob("Card Game", "fast")),  # hand slot
        ("job Card Game, wants fast", PlayJob("Card Game", "fast")),
        ("hire bank robbery for good", PlayJob("Bank Robbery", "good")),
        ("offer Card-Game", Offer("Card Game")),
        ("offer 3", Offer("Bank Robbery")),
        ("say  I'll do it for a song, boss!", Say("I'll do it for a song, boss!")),
        ("press cheap and good, honest", Say("cheap and good, honest")),
        ("pick P2", Pick(1)),
        ("pick player 3", Pick(2)),
        ("accept p4", Pick(3)),
        ("pick 1", Pick(0)),
        ("reveal", REVEAL),
        ("  Show ", REVEAL),
    ],
)
def test_commands_parse(state, text: str, action) -> None:
    assert state.parse(state.boss, text) == action


@pytest.mark.parametrize(
    "action",
    [PlayJob("Mayor's Favour", "good"), Offer("Bank Robbery"), Say("hello there"), Pick(2),
     REVEAL],
)
def test_canonical_text_parses_back_to_the_same_action(state, action) -> None:
    assert state.parse(state.boss, str(action)) == action


def test_every_legal_action_round_trips_through_its_text() -> None:
    s = new(5, seed=3)
    for _ in range(12):
        for p in s.to_act():
            for a in s.legal_actions(p):
                assert s.parse(p, str(a)) == a
        p = s.to_act()[0]
        s.apply(p, s.legal_actions(p)[0])


@pytest.mark.parametrize(
    ("text", "column", "suggestion", "expected_part"),
    [
        ("jbo 1 fast", 1, "job", "a command"),
        ("ofer 2", 1, "offer", "a command"),
        ("job 1 fsat", 7, "job 1 fast", "feature"),
        ("job 1", 6, None, "feature"),
        ("pick", 5, None, "a player such as P2"),
        ("pick Q2", 6, None, "a player such as P2"),
        ("job Card Gme cheap", 5, "Card Game", "card name"),
        ("job 4 fast", 5, None, "slot"),
        ("job fast", 5, None, "card name"),
        ("job 1 2 fast", 7, None, "feature"),
        ("pick P2 now", 9, None, "the end of the command"),
    ],
)
def test_errors_name_column_expected_and_did_you_mean(state, text, column, suggestion,
                                                      expected_part) -> None:
    with pytest.raises(CommandError) as info:
        state.parse(state.boss, text)
    err = info.value
    assert err.column == column, str(err)
    assert err.suggestion == suggestion, str(err)
    assert any(expected_part in e for e in err.expected), str(err)
    assert f"at column {column}" in str(err)


def test_an_empty_command_is_a_clear_error(state) -> None:
    with pytest.raises(CommandError, match="empty command"):
        state.parse(state.boss, "   ")


def test_errors_do_not_tell_where_a_card_is() -> None:
    # a card held by another player and a card in the draw pile give the same kind of error,
    # and suggestions come from one's own hand or the public card list only
    s = new(4, seed=11)
    boss = s.boss
    other = next(p for p in range(4) if p != boss)
    give(s, boss, ["Card Game", "Speakeasy", "Shakedown"])
    give(s, other, ["Truck Heist"])
    in_pile = next(s.deck.cards[c].name for c in s.draw_pile)
    s.command(boss, "job 1 fast")
    offerer = next(p for p in s.to_act() if p != other)
    errors = []
    for name in ("Truck Heist", in_pile):
        with pytest.raises(GameError) as info:
            s.apply(offerer, Offer(name))
        errors.append(str(info.value).replace(name, "X"))
    assert errors[0] == errors[1] and "do not hold" in errors[0]
    with pytest.raises(CommandError) as err:
        s.parse(boss, "offer Speakesy")
    assert err.value.suggestion == "Speakeasy"


def test_an_ambiguous_start_of_a_name_lists_the_candidates_in_hand() -> None:
    s = new(4, seed=11)
    give(s, s.boss, ["Smuggling Ring", "Shakedown", "Speakeasy"])
    with pytest.raises(CommandError, match="could be"):
        s.parse(s.boss, "job s fast")


def test_any_input_gives_a_game_error_never_a_traceback() -> None:
    # working agreement: bad input gets a clear error, never a traceback
    import random

    rng = random.Random(3)
    words = ["job", "offer", "say", "pick", "reveal", "fast", "cheap", "good", "P2", "p0", "0",
             "3", "99", "Card", "Game", "want", "for", "player", ",", ":", "!", "'", "-", "é",
             "\t", "job job", "P", "pick P", "#1", "Mayor's", "Favour", "", "  "]
    s = new(4, seed=2)
    for _ in range(600):
        text = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 5)))
        player = rng.randrange(4)
        try:
            action = s.parse(player, text)
            before = len(s.actions)
            s.apply(player, action)
            assert len(s.actions) == before + 1
        except GameError as err:
            assert str(err)
        if s.is_over():
            s = new(4, seed=rng.randrange(100))


def test_columns_count_from_the_line_as_sent(state) -> None:
    with pytest.raises(CommandError) as info:
        state.parse(state.boss, "  jbo 1 fast")
    assert info.value.column == 3 and info.value.suggestion == "job"
    assert state.parse(state.boss, "\tjob 2 fast\n") == PlayJob("Card Game", "fast")


def test_reveal_while_the_offers_lie_face_down_says_the_rule() -> None:
    # rulebook: Gangsters "may not reveal the front of their card until the Mob Boss
    # chooses one of the offers"; the refusal says so, not that there is no offer
    typed = "offer 2\n\nreveal\nquit\n"
    result = CliRunner().invoke(main, ["play", "irontriangle", "-p", "3", "--seed", "1",
                                       "--bot", "2", "--bot", "3"], input=typed)
    assert "You offer Shakedown ($1, 1d, -1*) face down." in result.output
    assert "! you may not show your offer until the Mob Boss picks one (rulebook, 'When " \
           "playing as one of the Gangsters'); you may describe it with 'say'" in result.output
    assert "no face-down offer" not in result.output


def test_help_role_reads_as_one_sentence() -> None:
    result = CliRunner().invoke(main, ["play", "irontriangle", "-p", "3", "--seed", "1",
                                       "--bot", "2", "--bot", "3"], input="help role\nquit\n")
    assert "Your secret role, The Fixer: On both the Money and the Quality track some cube " \
           "is behind yours. If it holds at the end you score 2 more Notoriety." in result.output
