"""Orders in everyday words, as a newcomer writes them: the small words around an order
("in", "the", "my", "from", "please", "a fleet", a leading "move") are read as nothing when
the order does not read with them; an order that reads as written is read as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.board.loader import load_map
from mobadj.orders.parser import parse_orders
from mobadj.orders.prose import set_aside_remarks

NEWCOMER = [
    ("Fleet London to the North Sea", "F LON - NTH"),
    ("F LON - the North Sea", "F LON - NTH"),
    ("Fleet in Edinburgh moves to Norwegian Sea", "F EDI - NWG"),
    ("army in Liverpool moves to Yorkshire", "A LVP - YOR"),
    ("army in Paris moves to Burgundy", "A PAR - BUR"),
    ("A Edi - in Edinburgh", "A EDI - EDI"),
    ("Build army in Berlin", "Build A BER"),
    ("build a fleet in sevastopol", "Build F SEV"),
    ("move my army from Vienna to Galicia please", "A VIE - GAL"),
    ("my fleet at Trieste holds", "F TRI H"),
    ("F NTH supports the army from Holland to Belgium", "F NTH S A HOL - BEL"),
]


def read(text, game_map):
    result = parse_orders(text, game_map)
    set_aside_remarks(result, text, game_map)
    return [str(p.order) for p in result.orders], [str(e) for e in result.errors]


@pytest.mark.parametrize(("line", "order"), NEWCOMER)
def test_the_small_words_of_a_sentence_are_read_as_nothing(std, line, order):
    assert read(line, std) == ([order], [])


def test_a_whole_mail_of_them_is_read(std):
    text = ("Here are my orders:\nFleet London to the North Sea\n"
            "Fleet in Edinburgh moves to Norwegian Sea\narmy in Liverpool moves to Yorkshire\n"
            "Thanks, Ann")
    assert read(text, std) == (["F LON - NTH", "F EDI - NWG", "A LVP - YOR"], [])


def test_the_error_names_the_word_that_is_the_trouble(std):
    """Not "unknown province 'in moscow'; did you mean Moscow?": Moscow was spelt right."""
    assert read("army in moscow", std) == ([], [
        "line 1, column 15: the order stops too early after 'army in moscow': expected "
        "H (hold), '-' (move), S (support), C (convoy), Disband or R (retreat)"])
    assert read("Build army in Berlin\nFleet London to the Nort Sea", std)[1] == [
        "line 2, column 21: unknown province 'Nort Sea'; did you mean North Sea (NTH) or "
        "Norwegian Sea (NWG) or Norway (NWY)?"]


def test_move_is_no_slip_of_remove(std):
    """A newcomer who wants to move is shown how a move is written, not Remove."""
    orders, errors = read("A BUD H\nmove Vienna Galicia please!", std)
    assert "Remove" not in errors[0]
    assert read("A BUD H\nMove to Galicia", std)[1] == [
        "line 2, column 1: unknown word 'Move': a move names its unit first, then '-' and "
        "where it goes: A PAR - BUR"]
    assert read("A BUD H\nMoves: Vienna - Galicia!", std)[1] == [
        "line 2, column 1: unknown word 'Moves': a move names its unit first, then '-' and "
        "where it goes: A VIE - GAL"]


@pytest.mark.parametrize("line", ["A PAR - BUR", "Army Paris moves to Burgundy",
                                  "F LON - NTH", "Build A BER", "A Paris to Burgundy"])
def test_orders_that_read_are_read_as_before(std, line):
    plain = read(line, std)
    assert plain[1] == [] and len(plain[0]) == 1


def test_remarks_stay_remarks(std):
    text = "A PAR - BUR\nSee you in Berlin\nRegards from Vienna\nHold the line, everyone!"
    assert read(text, std) == (["A PAR - BUR"], [])


def test_mobtown_gangs_too_but_in_places_a_don_there():
    """On Mobtown II "in" and "at" are words of its orders ("Don in Lex", rule 6)."""
    mob = load_map("mobtown2")
    assert read("my Gang Bnx moves to the Westchester please", mob) == (["G Bnx - Wch"], [])
    assert read("Build a gang Que", mob) == (["Build G Que"], [])
    assert "only a Don is placed" in read("Gang in Lex", mob)[1][0]


def test_adjudicate_reads_a_newcomers_order_file(tmp_path):
    """The GM's ``mobadj adjudicate`` reads the file the newcomer sent as the judge does."""
    position = Path(__file__).resolve().parents[2] / "orders" / "standard" / "position-s1901.yaml"
    orders = tmp_path / "ann.txt"
    orders.write_text("England:\nFleet London to the North Sea\n"
                      "Fleet in Edinburgh moves to Norwegian Sea\n"
                      "army in Liverpool moves to Yorkshire\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", str(position),
                           str(orders)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    england = proc.stdout.split("England:\n", 1)[1].split("\n\n", 1)[0]
    assert [line.split("  ")[1] for line in england.splitlines()[:3]] == [
        "F LON - NTH", "F EDI - NWG", "A LVP - YOR"], england


def test_a_sentence_after_the_orders_replaces_none_of_them(std):
    """A part of a sentence that reads as an order only without its everyday words ("My
    army from Paris to Picardy", beside "in my last mail" and "was a typo") is the
    sentence's: the line is a remark, and the order above it stands."""
    text = "A Par-Bur\n\nMy army from Paris to Picardy, in my last mail, was a typo.\n"
    assert read(text, std) == (["A PAR - BUR"], [])
    text = "F Bre-Eng\nmy fleet in Brest to the Mid-Atlantic, then Portugal\n"
    assert read(text, std) == (["F BRE - ENG"], [  # as before orders in everyday words
        "line 2, column 1: unknown province 'my fleet in Brest'",
        "line 2, column 40: unknown unit type 'then'"])
    # orders in everyday words side by side on one line are still orders
    assert read("army in Paris to Burgundy, fleet in Brest to the Channel", std) == (
        ["A PAR - BUR", "F BRE - ENG"], [])


def test_a_remark_about_a_unit_gets_no_did_you_mean(std):
    """'The army in Moscow is bored.' is no slip of 'Moscow is': the error (a line between
    orders is read as one) does not invite the player to make an order of it."""
    orders, errors = read("A MOS H\nThe army in Moscow is bored.\nA WAR H", std)
    assert orders == ["A MOS H", "A WAR H"] and len(errors) == 1
    assert "Moscow is'" not in errors[0] and "did you mean" not in errors[0], errors
