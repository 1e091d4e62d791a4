"""Shared fixtures: the standard map and a small Mobtown-like map (case-sensitive ids)."""

from __future__ import annotations

import textwrap

import pytest

from mobadj.board.loader import load_map

MINI_MOBTOWN = """\
name: minimob
title: A Mobtown-like test map
unit_kinds: {G: Gang, D: Don}
case_sensitive_ids: true
routes: {subway: U}
powers:
  SHARKS: {name: Sharks, aliases: [SHA], home: [LOP], units: [G LOP]}
provinces:
  LOP:
    name: Lower Oak Park
    aliases: [ECP]
    terrain: land
    supply: true
    home: SHARKS
    adj: {G: [Lop, Lex], D: [Lop, Lex]}
  Lop:
    name: Loop
    terrain: land
    adj: {G: [LOP, Lex], D: [LOP, Lex]}
  Lex:
    name: Lexington
    terrain: land
    adj:
      G: [LOP, Lop, Col, {to: Ext, via: subway}]
      D: [LOP, Lop, Col]
  Col:
    name: Columbus
    terrain: land
    adj: {G: [Lex], D: [Lex]}
  Ext:
    name: Exeter Street
    terrain: land
    adj: {G: [{to: Lex, via: subway}], D: []}
"""


@pytest.fixture(scope="session")
def std():
    return load_map("standard")


@pytest.fixture(scope="session")
def mini(tmp_path_factory):
    path = tmp_path_factory.mktemp("maps") / "minimob.yaml"
    path.write_text(textwrap.dedent(MINI_MOBTOWN))
    return load_map(path)
