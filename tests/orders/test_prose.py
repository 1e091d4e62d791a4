"""Remarks around the orders ("thanks", "Carla", "Here are my orders:") are set aside; a
line that looks like an order keeps its error, with a did-you-mean for a misspelt keyword."""

from __future__ import annotations

import pytest

from mobadj.board.loader import load_map
from mobadj.orders.parser import parse_orders
from mobadj.orders.prose import is_remark, set_aside_remarks

REMARKS = ["thanks", "Thanks!", "Dave", "Carla", "Cheers, Carla", "ok", "PS: I'll be away",
           "Here are my orders for spring:", "My moves:", "See you in Berlin",
           "Let me know if you want a DMZ in the Channel.", "I'm moving to war",
           "A quick note: away next week", "Good luck everyone, especially Russia",
           "Hold the line, everyone!", "Regards from Vienna"]
ATTEMPTS = ["A LVP - YOK", "A PAR-YOK", "Paris will hold", "Yorkshire", "Burgandy",
            "Biuld F LON", "Armee Paris - Burgund", "F Lon  North Sea", "A Mid-Atlantic - Spain"]


@pytest.mark.parametrize("line", REMARKS)
def test_prose_is_a_remark(std, line):
    assert is_remark(line, std)


@pytest.mark.parametrize("line", ATTEMPTS)
def test_what_looks_like_an_order_is_not(std, line):
    assert not is_remark(line, std)


@pytest.mark.parametrize(("line", "remark"), [
    ("thanks", True), ("Sun is shining", True), ("Man, what a week", True),
    ("Meet me in Harlem", True), ("Biuld G Que", False), ("G(Que) - Pie", False),
    ("The Don goes to Que", False)])
def test_mobtown_remarks(line, remark):
    assert is_remark(line, load_map("mobtown2")) is remark


def test_remarks_before_the_first_order_and_after_the_last_are_set_aside(std):
    text = ("Here are my orders:\nA PAR - BUR\nthis one is a feint\nA MAR - SPA\nthanks\n"
            "Dave")
    result = parse_orders(text, std, power="FRANCE")
    assert [e.line for e in result.errors] == [1, 3, 5, 6]
    assert set_aside_remarks(result, text, std) == [1, 5, 6]
    assert [e.line for e in result.errors] == [3]  # between two orders: still an error
    assert [str(p.order) for p in result.orders] == ["A PAR - BUR", "A MAR - SPA"]


def test_a_text_of_remarks_alone_has_no_error(std):
    text = "Thanks for the game!\nSee you in Berlin"
    result = parse_orders(text, std)
    assert set_aside_remarks(result, text, std) == [1, 2] and result.errors == []


def test_a_misspelt_keyword_gets_a_did_you_mean(std):
    text = "A PAR - BUR\nBiuld F LON\nA MAR Suport A PAR - BUR"
    result = parse_orders(text, std, power="FRANCE")
    set_aside_remarks(result, text, std)
    messages = [str(e) for e in result.errors]
    assert messages[0] == "line 2, column 1: unknown word 'Biuld'; did you mean Build?"
    assert messages[1] == "line 3, column 7: unknown word 'Suport'; did you mean Support?"
