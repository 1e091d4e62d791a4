"""``mobadj batch``: the JSON-lines contract, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.batch import KEYS, run_case

CASES = [
    {"id": "spring", "map": "standard", "phase": "S1901M",
     "units": {"England": ["F LON", "A YOR"], "france": ["A PAR", "A MAR"],
               "GERMANY": ["A MUN"]},
     "centers": {"England": ["LON"], "France": ["PAR", "MAR"], "GERMANY": ["MUN"]},
     "orders": {"England": ["F LON - NTH", "A YOR - LON"],
                "France": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                "germany": ["A MUN - BUR"]}},
    {"id": "fall", "map": "standard", "phase": "F1901M",
     "units": {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["A HOL"]},
     "centers": {"ENGLAND": ["LON"], "GERMANY": ["HOL"]},
     "orders": {"ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY"]}},
    {"id": "dislodge", "map": "standard", "phase": "F1901M",
     "units": {"FRANCE": ["A PIC", "A BUR"], "ENGLAND": ["A BEL"]},
     "centers": {"ENGLAND": ["BEL"], "FRANCE": ["PAR"]},
     "orders": {"FRANCE": ["A BUR - BEL", "A PIC S A BUR - BEL"]}},
    {"id": "retreat", "phase": "F1901R",
     "units": {"FRANCE": ["A PIC", "A BEL"]},
     "centers": {"ENGLAND": ["BEL"], "FRANCE": ["PAR"]},
     "dislodged": {"ENGLAND": [{"unit": "A BEL", "from": "BUR"}]},
     "standoffs": [], "orders": {"ENGLAND": ["A BEL - HOL"]}},
    {"id": "winter", "phase": "W1901A",
     "units": {"FRANCE": ["A PIC", "A BEL"]}, "centers": {"FRANCE": ["PAR", "BEL", "BRE"]},
     "orders": {"FRANCE": ["Build F BRE", "Build A PAR"]}},
    {"id": "bad-order", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
     "orders": {"FRANCE": ["A PAR - XYZ", "A PAR H"]}},
    {"id": "bad-power", "phase": "S1901M", "units": {"Narnia": ["A PAR"]}},
    {"id": "bad-map", "map": "atlantis", "phase": "S1901M", "units": {}},
]


@pytest.fixture(scope="module")
def output(tmp_path_factory) -> list[dict]:
    path = Path(tmp_path_factory.mktemp("batch")) / "cases.jsonl"
    lines = [json.dumps(c) for c in CASES]
    lines.insert(3, "this is not json")
    lines.insert(4, "")
    path.write_text("\n".join(lines) + "\n")
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", str(path)],
                          capture_output=True, text=True, check=True, timeout=120)
    assert proc.stderr == ""
    return [json.loads(line) for line in proc.stdout.splitlines()]


def by_id(output: list[dict], case_id: str) -> dict:
    [found] = [o for o in output if o["id"] == case_id]
    return found


def test_one_output_line_per_input_line_in_order(output) -> None:
    assert len(output) == len(CASES) + 2
    ids = [o["id"] for o in output]
    assert ids == ["spring", "fall", "dislodge", None, None, "retreat", "winter",
                   "bad-order", "bad-power", "bad-map"]


def test_every_output_has_exactly_the_contract_keys(output) -> None:
    for o in output:
        assert tuple(o) == KEYS == ("id", "phase", "next_phase", "orders", "units",
                                    "dislodged", "centers", "errors")


def test_spring_results(output) -> None:
    o = by_id(output, "spring")
    assert (o["phase"], o["next_phase"], o["errors"]) == ("S1901M", "F1901M", [])
    assert o["orders"][0] == {"power": "England", "order": "F LON - NTH",
                              "result": "succeeds", "reason": None}
    assert o["orders"][4] == {"power": "GERMANY", "order": "A MUN - BUR",
                              "result": "fails", "reason": "bounced"}
    # each power is spelt as the input first spelt it
    assert o["units"] == {"England": ["A LON", "F NTH"], "france": ["A BUR", "A MAR"],
                          "GERMANY": ["A MUN"]}
    assert o["centers"]["England"] == ["LON"]  # no change after a spring turn
    assert o["dislodged"] == {}


def test_centres_change_after_fall_movement_without_retreats(output) -> None:
    o = by_id(output, "fall")
    assert o["centers"] == {"ENGLAND": ["LON", "NWY"], "GERMANY": ["HOL"]}
    assert o["next_phase"] == "S1902M"  # two centres, two units: no winter phase


def test_dislodgement_with_retreats_and_no_centre_change_yet(output) -> None:
    o = by_id(output, "dislodge")
    assert o["dislodged"] == {"ENGLAND": [{"unit": "A BEL", "from": "BUR",
                                           "retreats": ["HOL", "RUH"]}]}
    assert "A BEL" not in o["units"]["ENGLAND"]
    assert o["centers"]["ENGLAND"] == ["BEL"]
    assert o["next_phase"] == "F1901R"


def test_fall_retreat_completes_the_turn(output) -> None:
    o = by_id(output, "retreat")
    assert o["orders"][0]["result"] == "succeeds"
    assert o["units"] == {"FRANCE": ["A BEL", "A PIC"], "ENGLAND": ["A HOL"]}
    assert o["centers"] == {"ENGLAND": ["HOL"], "FRANCE": ["BEL", "PAR"]}


def test_winter_builds(output) -> None:
    o = by_id(output, "winter")
    assert [x["result"] for x in o["orders"]] == ["succeeds", "invalid"]
    assert o["units"] == {"FRANCE": ["A BEL", "A PIC", "F BRE"]}
    assert o["next_phase"] == "S1902M"


def test_bad_lines_give_errors_not_crashes(output) -> None:
    o = by_id(output, "bad-order")
    assert o["orders"][0]["result"] == "invalid" and "XYZ" in o["orders"][0]["reason"]
    assert o["orders"][1]["result"] == "succeeds"
    assert len(o["errors"]) == 1 and "XYZ" in o["errors"][0]
    assert "unknown power" in by_id(output, "bad-power")["errors"][0]
    assert "unknown map" in by_id(output, "bad-map")["errors"][0]
    assert "not JSON" in output[3]["errors"][0]


def test_run_case_accepts_non_objects() -> None:
    assert run_case([1, 2])["errors"] == ["each line must be a JSON object"]
    assert run_case({"id": 7, "phase": "S1901M", "units": {"FRANCE": "A PAR"}})["units"] == {
        "FRANCE": ["A PAR"]}


def test_remembered_order_errors_keep_no_frames_alive() -> None:
    """A batch remembers what each bad order text reads as; it must not keep the parser's
    frames alive through it (memory over a long batch): it keeps the error's text."""
    from mobadj.batch import map_context

    ctx = map_context("standard")
    for text in ["A PAR - XYZ", "A PAR S", "A PAR - BUR - MAR - - x", "F STP/XX - BOT"]:
        reading = ctx.read(text)
        assert reading.order is None and reading.group is None, text
        assert type(reading.error) is str and reading.error, text
        assert ctx.read(text) is reading, text


def test_a_game_written_again_with_other_spellings_keeps_each_lines_spelling(tmp_path) -> None:
    """A batch remembers each order entry and each board's centres once written; a later line
    that gives the same orders and centres with its powers spelt otherwise is still written
    with its own spelling, and a line given again is written as the first time."""
    spring = {"id": "a", "phase": "S1901M",
              "units": {"France": ["A PAR", "A MAR"], "Germany": ["A MUN"]},
              "centers": {"France": ["PAR", "MAR"], "Germany": ["MUN"]},
              "orders": {"France": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                         "Germany": ["A MUN - BUR"]}}
    shouted = {**spring, "id": "b",
               "units": {"FRANCE": ["A PAR", "A MAR"], "germany": ["A MUN"]},
               "centers": {"FRANCE": ["PAR", "MAR"], "germany": ["MUN"]},
               "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                          "germany": ["A MUN - BUR"]}}
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in (spring, shouted, spring, shouted)))
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", str(path)],
                          capture_output=True, text=True, check=True, timeout=120)
    first, second, third, fourth = proc.stdout.splitlines()
    assert (third, fourth) == (first, second)
    a, b = json.loads(first), json.loads(second)
    assert [(o["power"], o["result"]) for o in a["orders"]] == [
        ("France", "succeeds"), ("France", "succeeds"), ("Germany", "fails")]
    assert [o["power"] for o in b["orders"]] == ["FRANCE", "FRANCE", "germany"]
    assert a["centers"] == {"France": ["MAR", "PAR"], "Germany": ["MUN"]}
    assert b["centers"] == {"FRANCE": ["MAR", "PAR"], "germany": ["MUN"]}
    assert b["units"] == {"FRANCE": ["A BUR", "A MAR"], "germany": ["A MUN"]}


def _batch_lines(cases: list[dict]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], check=True,
                          input="".join(json.dumps(c) + "\n" for c in cases),
                          capture_output=True, text=True, timeout=120)
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_a_lines_output_reads_back_as_the_next_lines_input_after_a_convoyed_attack() -> None:
    """A unit dislodged by a convoyed army is written with ``"convoyed": true`` (its attacker
    came from a province it does not touch): the output of the movement phase, given back
    with the retreat, is read and played."""
    [spring] = _batch_lines([{
        "id": "convoyed", "phase": "S1901M",
        "units": {"ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["A BEL"]},
        "orders": {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"]}}])
    assert spring["errors"] == [] and spring["next_phase"] == "S1901R"
    assert spring["dislodged"] == {"FRANCE": [
        {"unit": "A BEL", "from": "LON", "convoyed": True,
         "retreats": ["BUR", "HOL", "PIC", "RUH"]}]}
    again = {key: spring[key] for key in ("units", "centers", "dislodged")}
    [retreat] = _batch_lines([{"id": "retreat", "phase": spring["next_phase"], **again,
                               "orders": {"FRANCE": ["A BEL - PIC"]}}])
    assert retreat["errors"] == []
    assert retreat["orders"][0]["result"] == "succeeds"
    assert "A PIC" in retreat["units"]["FRANCE"]


def test_a_lines_output_keeps_the_standoffs_the_retreat_phase_needs() -> None:
    """France dislodges A MUN while Austria and Russia bounce in BOH: the line carries
    ``"standoffs": ["BOH"]``, and given back with the retreat, the retreat into the empty
    standoff province is refused.  A line with no retreat phase after it has no
    ``standoffs``."""
    movement = {"id": "m", "phase": "S1901M",
                "units": {"Germany": ["A MUN"], "France": ["A BUR", "A RUH"],
                          "Austria": ["A VIE"], "Russia": ["A SIL"]}, "centers": {},
                "orders": {"France": ["A BUR - MUN", "A RUH S A BUR - MUN"],
                           "Austria": ["A VIE - BOH"], "Russia": ["A SIL - BOH"]}}
    bounce_only = {**movement, "id": "b", "units": {"Austria": ["A VIE"], "Russia": ["A SIL"]},
                   "orders": {"Austria": ["A VIE - BOH"], "Russia": ["A SIL - BOH"]}}
    spring, bounce = _batch_lines([movement, bounce_only])
    assert list(spring) == ["id", "phase", "next_phase", "orders", "units", "dislodged",
                            "centers", "standoffs", "errors"]
    assert spring["standoffs"] == ["BOH"] and spring["next_phase"] == "S1901R"
    assert tuple(bounce) == KEYS
    again = {key: spring[key] for key in spring if key not in ("id", "orders", "errors")}
    again["phase"] = again.pop("next_phase")
    [retreat] = _batch_lines([{"id": "r", **again, "orders": {"Germany": ["A MUN - BOH"]}}])
    assert retreat["errors"] == []
    assert retreat["orders"] == [{"power": "Germany", "order": "A MUN - BOH", "result": "invalid",
                                  "reason": "cannot retreat there (disbanded)"}]
    assert retreat["units"]["Germany"] == [] and tuple(retreat) == KEYS


def test_the_line_of_the_phase_that_wins_names_the_winner() -> None:
    """France takes Paris in the fall for her 18th centre: the line says ``"winner"``; a
    line where nobody wins is written as before, without the key."""
    fall = {"id": "w", "phase": "F1905M",
            "units": {"France": ["A BUR", "A PIC", "A GAS"], "Germany": ["A PAR"],
                      "England": ["A BRE"]},
            "centers": {"France": ["MAR", "BEL", "HOL", "SPA", "POR", "TUN", "NAP", "ROM",
                                   "VEN", "MUN", "KIE", "BER", "DEN", "SWE", "NWY", "LON",
                                   "LVP"],
                        "Germany": ["PAR"], "England": ["BRE", "EDI"]},
            "orders": {"France": ["A BUR - PAR", "A PIC S A BUR - PAR", "A GAS S A BUR - PAR"]}}
    held = {**fall, "id": "h", "orders": {}}
    won, not_yet = _batch_lines([fall, held])
    assert list(won) == ["id", "phase", "next_phase", "orders", "units", "dislodged",
                         "destroyed", "centers", "winner", "errors"]
    assert won["winner"] == "France" and len(won["centers"]["France"]) == 18
    assert "winner" not in not_yet and len(not_yet["centers"]["France"]) == 17


def test_a_mobtown_gang_with_an_invalid_retreat_has_no_default_entry() -> None:
    [line] = _batch_lines([{
        "id": "r", "map": "mobtown2", "phase": "1919-07-W1-R",
        "units": {"diamond": ["G Bgt"], "murderinc": ["G Mem", "G PPU", "G Pel"]},
        "dislodged": {"diamond": [{"unit": "G Mem", "from": "Mic", "via": "ground"}]},
        "orders": {"diamond": ["G(Mem)-Mic"]}}])
    assert line["orders"] == [{"power": "diamond", "order": "G(Mem)-Mic", "result": "invalid",
                               "reason": "cannot retreat there (disbanded)"}]
    assert line["defaults"] == [] and line["errors"] == []
