"""The command language: keywords, forgiving spellings, clear errors, order lines left alone."""

import pytest

from mobadj.judge.commands import BadCommandLine, parse_body, parse_duration, parse_line


def test_signon_and_orders_and_press():
    body = """Sign on  mygame England  tulip
F LON - NTH
A LVP - YOR
press to France, Germany
Let us be friends.
Really.
end press
broadcast grey
Hello all
ENDPRESS
ready
"""
    m = parse_body(body)
    names = [c.name for c in m.commands]
    assert names == ["signon", "press", "broadcast", "ready"]
    assert m.commands[0].args == {"game": "mygame", "power": "England", "password": "tulip"}
    assert "tulip" not in m.commands[0].text  # never echoed
    assert m.order_lines == [(2, "F LON - NTH"), (3, "A LVP - YOR")]
    assert m.press[0].targets == ["France", "Germany"] and not m.press[0].grey
    assert m.press[0].text == "Let us be friends.\nReally."
    assert m.press[1].targets == ["ALL"] and m.press[1].grey and m.press[1].text == "Hello all"
    assert m.errors == []


def test_signoff_stops_reading():
    m = parse_body("list\nsignoff\nA PAR - BUR\n")
    assert [c.name for c in m.commands] == ["list"] and m.order_lines == []


def test_misspelt_command_gets_did_you_mean():
    m = parse_body("SINGON g england pw\n")
    assert m.near_commands == {1: "signon"}


def test_bad_command_says_what_was_expected():
    r = parse_line("signon onlygame", 4)
    assert isinstance(r, BadCommandLine)
    assert r.line == 4 and "SIGNON <game> <power> <password>" in str(r)


def test_gm_commands():
    m = parse_body(
        "gm g secret\naddplayer a@b.org ENGLAND\nextend 2 days\ndeadline 2026-12-01 18:00 UTC\n"
        "pause\nset press grey\nreplace FRANCE new@x.org\ncreate g2 mobtown2 pw press=none\n"
    )
    args = {c.name: c.args for c in m.commands}
    assert args["extend"] == {"seconds": 2 * 86400}
    assert args["deadline"] == {"when": "2026-12-01 18:00 UTC"}
    assert args["pause"] == {"seconds": None}
    assert args["set"] == {"option": "press", "value": "grey"}
    assert args["replace"] == {"power": "FRANCE", "email": "new@x.org"}
    assert args["create"]["options"] == {"press": "none"} and args["create"]["kind"] == "mobtown2"
    assert m.errors == []


def test_press_without_end_runs_to_the_end():
    m = parse_body("press to all\nhi\nthere")
    assert m.press[0].text == "hi\nthere" and m.order_lines == []


@pytest.mark.parametrize(
    "text, seconds", [("24", 86400), ("24 hours", 86400), ("2d", 172800), ("90 min", 5400)]
)
def test_durations(text, seconds):
    assert parse_duration(text) == seconds


def test_bad_duration():
    with pytest.raises(ValueError, match="expected"):
        parse_duration("soon")


@pytest.mark.parametrize("line", [
    "Orders for spring, as promised.", "Orders for this turn:", "Resign? Never!",
    "Summary of my plans for the year", "Orders for you? Ask the GM!",
])
def test_sentences_that_begin_like_new_commands_are_not_commands(line):
    assert parse_line(line, 1) is None


def test_orders_for_a_power_and_resign_are_commands():
    become, resign = parse_line("Orders for Murder Inc.", 1), parse_line("resign", 2)
    assert become is not None and not isinstance(become, BadCommandLine)
    assert become.name == "become" and resign is not None and resign.name == "resign"
