"""Order files: sections, prefixes, separators, comments, and the DATC files' own forms."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mobadj.orders.parser import parse_orders

#: shared/ stands beside the repository (or beside the folder of its worktrees)
SHARED = next(p / "shared" for p in Path(__file__).resolve().parents if (p / "shared").is_dir())
DATC = SHARED / "reference" / "datc"


def test_sections_and_prefixes(std):
    text = """# Spring 1901
England:
  F LON - NTH   # the channel can wait
  F EDI - NWG, A LVP - YOR
France: A PAR - BUR; A MAR S A PAR - BUR
  F BRE - MAO
Italy F NAP - ION
GER: A MUN H
"""
    result = parse_orders(text, std)
    assert not result.errors
    got = [(p.power, str(p.order), p.line, p.column) for p in result.orders]
    assert got == [
        ("ENGLAND", "F LON - NTH", 3, 3),
        ("ENGLAND", "F EDI - NWG", 4, 3),
        ("ENGLAND", "A LVP - YOR", 4, 16),
        ("FRANCE", "A PAR - BUR", 5, 9),
        ("FRANCE", "A MAR S A PAR - BUR", 5, 22),
        ("ENGLAND", "F BRE - MAO", 6, 3),  # an inline prefix sets the power for its line only
        ("ITALY", "F NAP - ION", 7, 7),
        ("GERMANY", "A MUN H", 8, 6),
    ]
    assert result.by_power()["FRANCE"][1].__class__.__name__ == "SupportMove"


def test_default_power(std):
    result = parse_orders("A PAR H", std, power="france")
    assert result.orders[0].power == "FRANCE"
    assert parse_orders("A PAR H", std).orders[0].power is None


def test_blank_pieces_and_trailing_separators(std):
    result = parse_orders("A PAR H;; A MAR H ,\n\n   \n# only a comment", std)
    assert [str(p.order) for p in result.orders] == ["A PAR H", "A MAR H"] and result.ok


def test_province_name_is_not_a_power_prefix(std):
    """'ENG' is England's alias and the English Channel's id: a move from ENG is a move."""
    result = parse_orders("F ENG - NTH\nENG F ENG - NTH", std)
    assert [(p.power, str(p.order)) for p in result.orders] == [
        (None, "F ENG - NTH"), ("ENGLAND", "F ENG - NTH")]


def godip_order_lines() -> list[str]:
    lines, block = [], None
    for line in (DATC / "datc_v2.4_06.godip.txt").read_text().splitlines():
        head = line.split("#")[0].strip().split(" ")[0]
        if re.match(r"^(CASE|PRESTATE|ORDERS|POSTSTATE|END|VARIANT)", head):
            block = head
            lines.append("")
        else:
            lines.append(line if block == "ORDERS" else "")
    return lines


def test_every_godip_datc_order_parses(std):
    result = parse_orders("\n".join(godip_order_lines()), std)
    assert result.errors == []
    assert len(result.orders) == 649
    # the deliberate irregularities: "Italy F gol" (no colon), "France f mid", "Germnay"
    assert any(p.power == "ITALY" and str(p.order).startswith("F LYO") for p in result.orders)
    assert [str(w) for w in result.warnings] == [
        w for w in (str(x) for x in result.warnings) if "Germnay" in w]
    assert len(result.warnings) == 1


def test_every_json_datc_order_parses(std):
    cases = json.loads((DATC / "datc_v3.0.teddriggs.json").read_text())["cases"]
    lines = []
    for case in cases:
        lines += list(case.get("orders", {}))
        lines += list(case.get("preceding_main_phase", {}).get("orders", {}))
    result = parse_orders("\n".join(lines), std)
    assert result.errors == [] and len(result.orders) == len(lines)
