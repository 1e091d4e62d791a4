"""``mobadj batch``: dislodged units with no retreat appear in ``destroyed`` and
``next_phase`` skips a retreat phase left with nothing to decide (docs/adjudication.md),
run as a real subprocess on both maps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.batch import KEYS

#: France takes Paris; the German army has nowhere to go (Brest is held by England)
SURROUNDED = {"France": ["A BUR", "A PIC", "A GAS"], "germany": ["A PAR"],
              "England": ["A BRE"]}
TAKE_PARIS = {"France": ["A BUR - PAR", "A PIC S A BUR - PAR", "A GAS S A BUR - PAR"]}
CENTRES = {"France": ["MAR"], "germany": ["PAR", "MUN"], "England": ["BRE", "LON"]}

CASES = [
    {"id": "spring", "phase": "S1901M", "units": SURROUNDED, "centers": CENTRES,
     "orders": TAKE_PARIS},
    {"id": "fall", "phase": "F1901M", "units": SURROUNDED, "centers": CENTRES,
     "orders": TAKE_PARIS},
    {"id": "mixed", "phase": "F1901M", "centers": CENTRES,
     "units": {**SURROUNDED, "germany": ["A PAR", "A SIL"], "Russia": ["A WAR", "A PRU"]},
     "orders": {**TAKE_PARIS, "Russia": ["A WAR - SIL", "A PRU S A WAR - SIL"]}},
    {"id": "kept", "phase": "F1901M", "units": SURROUNDED, "centers": CENTRES,
     "orders": TAKE_PARIS, "options": {"forced_retreats": "retreat_phase"}},
    {"id": "mobtown", "map": "mobtown2", "phase": "1919-07-W2-M",
     "units": {"capone": ["G Tam", "G Riv"], "lepke": ["G Ext", "G P49"]},
     "centers": {"capone": ["Riv"]},
     "orders": {"lepke": ["G(Ext)-U-Tam", "G(P49) S G(Ext)-U-Tam"]}},
]


@pytest.fixture(scope="module")
def output(tmp_path_factory) -> dict[str, dict]:
    path = Path(tmp_path_factory.mktemp("batch")) / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES))
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", str(path)],
                          capture_output=True, text=True, check=True, timeout=120)
    assert proc.stderr == ""
    return {o["id"]: o for o in map(json.loads, proc.stdout.splitlines())}


def test_destroyed_follows_dislodged_and_the_other_keys_stay(output) -> None:
    keys = list(KEYS)
    keys.insert(keys.index("dislodged") + 1, "destroyed")
    assert list(output["spring"]) == keys
    assert list(output["kept"]) == list(KEYS)  # no unit destroyed: no key


def test_spring_the_unit_is_destroyed_and_the_retreats_skipped(output) -> None:
    o = output["spring"]
    assert o["destroyed"] == {"germany": ["A PAR"]} and o["dislodged"] == {}
    assert o["next_phase"] == "F1901M" and o["errors"] == []
    assert o["units"]["germany"] == []
    assert o["centers"]["germany"] == ["MUN", "PAR"]  # no change after a spring turn


def test_fall_centres_are_updated_as_after_the_fall(output) -> None:
    o = output["fall"]
    assert o["destroyed"] == {"germany": ["A PAR"]} and o["next_phase"] == "W1901A"
    assert o["centers"] == {"France": ["MAR", "PAR"], "germany": ["MUN"],
                            "England": ["BRE", "LON"]}


def test_a_mixed_phase_keeps_the_retreat_phase_for_the_unit_with_a_choice(output) -> None:
    o = output["mixed"]
    assert o["destroyed"] == {"germany": ["A PAR"]}
    assert o["dislodged"] == {"germany": [{"unit": "A SIL", "from": "WAR",
                                           "retreats": ["BER", "BOH", "GAL", "MUN"]}]}
    assert o["next_phase"] == "F1901R"
    assert o["centers"]["germany"] == ["MUN", "PAR"]  # after the fall retreats


def test_the_option_keeps_the_old_output(output) -> None:
    o = output["kept"]
    assert o["dislodged"] == {"germany": [{"unit": "A PAR", "from": "BUR", "retreats": []}]}
    assert o["next_phase"] == "F1901R" and o["centers"]["germany"] == ["MUN", "PAR"]


def test_mobtown_a_gang_with_no_retreat_is_destroyed_and_week_2_ends(output) -> None:
    o = output["mobtown"]
    assert o["errors"] == [] and o["destroyed"] == {"capone": ["G Tam"]}
    assert o["dislodged"] == {} and o["next_phase"] == "1919-07-W2-A"  # Lepke must remove
    assert list(o)[list(o).index("dislodged") + 1] == "destroyed"
    assert o["centers"]["capone"] == ["Riv"] and "winner" in o
