"""A typed line read as it was meant (mobadj/typed.py), by the judge and the card games."""

from __future__ import annotations

import pytest

from mobadj.cards.screen import clean_command
from mobadj.typed import as_meant


@pytest.mark.parametrize(("typed", "meant"), [
    ("A PAR - BUR", "A PAR - BUR"),
    ("\uff21 \uff30\uff21\uff32 - BUR", "A PAR - BUR"),  # fullwidth letters
    ("A\u00a0PAR\u2003-\u202fBUR", "A PAR - BUR"),  # no-break and other spaces
    ("A P\u200bAR\ufeff - BUR", "A PAR - BUR"),  # zero-width space, byte-order mark
    ("A PAR \u202e- BUR", "A PAR - BUR"),  # a right-to-left override
    ("A PAR\x1b[2J - BUR\x00", "A PAR[2J - BUR"),  # an escape sequence loses its ESC
    ("x\udcffy", "x\ufffdy"),  # a byte that was no UTF-8
    ("caf\u00e9 \u00fcber", "caf\u00e9 \u00fcber"),  # letters stay as they are
    ("", ""),
])
def test_a_line_is_read_as_meant(typed, meant) -> None:
    assert as_meant(typed) == meant
    assert clean_command(typed) == meant


def test_a_tab_is_kept_for_mail_and_a_space_at_the_terminal() -> None:
    assert as_meant("signon\tFRANCE") == "signon\tFRANCE"
    assert as_meant("\uff53ignon\tFRANCE") == "signon\tFRANCE"
    assert clean_command("signon\tFRANCE") == "signon FRANCE"
    assert as_meant("signon\tFRANCE", tabs=False) == "signon FRANCE"


def test_a_plain_line_is_the_same_string() -> None:
    line = "A PAR - BUR"
    assert as_meant(line) is line
