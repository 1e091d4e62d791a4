"""The examples in docs/orders.md are true: every notation parses to its row's order type
(and to the canonical text where it names the same unit), and every error example gives
the documented message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mobadj.orders.parser import parse_order, parse_orders

DOC = Path(__file__).resolve().parents[2] / "docs" / "orders.md"


def table_rows(heading: str) -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("| ---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # without the header row


def notation_examples():
    for kind, examples, canonical in table_rows("## Orders"):
        canonical = re.findall(r"`([^`]+)`", canonical)[0]
        for example in re.findall(r"`([^`]+)`", examples):
            if kind == "retreat" and example == "A PAR - BUR":
                continue  # a Move; the engine makes it a retreat (see the doc)
            yield pytest.param(example, canonical, id=example)


@pytest.mark.parametrize(("example", "canonical"), list(notation_examples()))
def test_notation_table(std, example, canonical):
    order, model = parse_order(example, std), parse_order(canonical, std)
    assert type(order) is type(model)
    if getattr(order, "unit", None) == getattr(model, "unit", None):
        assert str(order) == canonical


def error_examples():
    for _what, example, message in table_rows("## Error messages"):
        text = re.findall(r"`([^`]+)`", example)[0]
        expected = re.findall(r"`([^`]+)`", message)[0].split("...")[0]
        yield pytest.param(text, expected, id=text)


@pytest.mark.parametrize(("text", "message"), list(error_examples()))
def test_error_table(std, mini, text, message):
    game_map = mini if re.match(r"G[ +(]", text) else std
    from mobadj.mobtown.notation import mobtown_parser

    parser = mobtown_parser(mini) if game_map is mini else None
    result = parse_orders(text, game_map, parser=parser)
    said = [e.message + (f"; did you mean {e.suggestion}?" if e.suggestion else "")
            for e in result.errors + result.warnings]
    assert any(message in s for s in said), said


@pytest.mark.parametrize(("text", "canonical"), [
    ("Capone:\nG(Tam)-U-Ext", "G Tam - U - Ext"),
    ("Capone:\nG+D(PPU)-Har", "G+D PPU - Har"),
    ("Lepke:\nD(Har) cement overcoat", "D Har cement overcoat"),
    ("Lepke G(Cit)-U-Mic", "G Cit - U - Mic"),
])
def test_parse_orders_from_python_reads_a_variants_notation(text, canonical):
    """"From Python": ``parse_orders(text, load_map("mobtown2"))`` reads what ``mobadj
    adjudicate --map mobtown2`` reads, never saying that no piece travels with a unit."""
    from mobadj.board.loader import load_map

    result = parse_orders(text, load_map("mobtown2"))
    assert not result.errors, [str(e) for e in result.errors]
    assert [str(p.order) for p in result.orders] == [canonical]


def test_parse_orders_from_python_names_a_misspelt_keyword(std):
    result = parse_orders("England:\nBiuld F LON\n", std)
    (error,) = result.errors
    assert str(error).startswith("line 2, column 1: unknown word 'Biuld'; did you mean Build?")
