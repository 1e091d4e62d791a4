"""The Commands table of docs/player-guide.md and the HELP a signed-on player gets by mail
name the same commands (HELP also names the other spellings the guide gives)."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import Table
from .helpers import mail

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "player-guide.md"


def _first_words(forms: list[str]) -> set[str]:
    """``READY / NOT READY`` -> READY, NOT; ``<orders>`` -> ORDERS."""
    words = set()
    for form in forms:
        for part in form.split(" / "):
            if part.split():
                words.add(part.split()[0].strip("<>").upper())
    return words


def _table() -> set[str]:
    text = GUIDE.read_text(encoding="utf-8").split("\n## Commands\n", 1)[1].split("\n## ")[0]
    rows = [line.split(" | ")[0] for line in text.splitlines() if line.startswith("| `")]
    return _first_words([f for row in rows for f in re.findall(r"`([^`]+)`", row)])


def _help(judge) -> tuple[str, set[str]]:
    t = Table(judge, "standard")
    body = judge.handle_mail(mail(t.emails["ENGLAND"], t.signon("ENGLAND") + "HELP"))[0].body
    player = body.split("Commands (one per line; upper or lower case):\n", 1)[1]
    player, rest = player.split("Without a sign-on:", 1)
    forms = [re.split(r"\s{3,}", line.strip())[0] for line in player.splitlines()]
    unsigned = rest.split("GM commands", 1)[0].replace("\n", " ")
    forms += [f.strip(" .") for f in re.sub(r"\([^)]*\)", "", unsigned).split(",")]
    return body, _first_words(forms)


def test_the_guides_commands_table_and_help_name_the_same_commands(judge):
    body, helped = _help(judge)
    table = _table() - {"ENDPRESS"}  # "PRESS TO ... ENDPRESS": HELP says "then ENDPRESS"
    assert table == helped, (sorted(table - helped), sorted(helped - table))
    assert "then ENDPRESS" in body
    assert {"PHASE", "SUMMARY", "RESIGN", "TAKEOVER", "CONFIRM", "JOIN"} <= helped
    # the other spellings the guide gives are in HELP too
    assert "SIGN ON, LOGIN" in body and "PASSWORD <new>" in body
