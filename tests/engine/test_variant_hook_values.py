"""A variant's hooks written as a hobbyist writes Python (docs/maps.md, "What a hook may
return"): ``sorted()`` where a tuple is annotated, a set where a list is, a truthy value or
``None`` for yes and no, a float that is a whole number.  ``mobadj batch`` and ``mobadj
adjudicate`` take them on either build (``make test`` runs this file on the compiled build
too, where the engine is compiled), and refuse a number that is not whole with one clear
message naming the hook.  A variant option with numeric choices is set by its number."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mobadj
from mobadj.engine import option

#: the tree whose mobadj the subprocesses run: this checkout, or the compiled copy on PYTHONPATH
TREE = Path(mobadj.__file__).resolve().parents[1]

HOOKS = '''
from dataclasses import dataclass

from mobadj.engine import Rules, option


class SortedRetreats(Rules):
    def retreat_options(self, dislodged, topology, occupied, standoffs):
        return sorted(super().retreat_options(dislodged, topology, occupied, standoffs))


class ChoiceIfRetreats(Rules):
    def retreat_choice(self, dislodged):
        return dislodged.retreats          # truthy when there is somewhere to go


class EastOnly(Rules):
    def retreat_allowed(self, dislodged, destination, via):
        if destination in ("BER", "KIE"):
            return True                    # anything else falls through to None


class SetSeas(Rules):
    def convoy_seas(self, topology, units):
        return {p for p, u in units.items() if u.kind == "F" and p in topology.sea}


class CountedNeeds(Rules):
    def needs_adjustment(self, position, topology):
        return sum(abs(n) for n in self.adjustment_counts(position).values())


class FloatCounts(Rules):
    def adjustment_counts(self, position):
        return {p: float(n) for p, n in super().adjustment_counts(position).items()}


class FrenchPush(Rules):
    def move_bonus(self, order):
        return 1.0 if order.power == "FRANCE" else 0
    def required_margin(self, order):
        return 0.0


class HalfBonus(Rules):
    def move_bonus(self, order):
        return 0.5 if order.unit_kind == "F" else 0


@dataclass
class NumberBonus(Rules):
    bonus: int = option(1, (1, 0, 2))
    def move_bonus(self, order):
        return self.bonus if order.unit_kind == "A" else 0
'''

VARIANTS = ("SortedRetreats", "ChoiceIfRetreats", "EastOnly", "SetSeas", "CountedNeeds",
            "FloatCounts", "FrenchPush", "HalfBonus", "NumberBonus")

#: France dislodges Germany's A MUN, which may retreat to BER, BOH, KIE, SIL or TYR
DISLODGE = {"phase": "S1901M", "units": {"France": ["A RUH", "A BUR"], "Germany": ["A MUN"]},
            "centers": {}, "orders": {"France": ["A BUR - MUN", "A RUH S A BUR - MUN"]}}
#: an unsupported attack on a unit that holds
ATTACK = {"phase": "S1901M", "units": {"France": ["A BUR"], "Germany": ["A MUN"]},
          "centers": {}, "orders": {"France": ["A BUR - MUN"]}}
#: England convoys an army to Norway
CONVOY = {"phase": "S1901M", "units": {"England": ["A YOR", "F NTH"]}, "centers": {},
          "orders": {"England": ["A YOR - NWY", "F NTH C A YOR - NWY"]}}
#: France has one build after the autumn: a winter follows
BUILD = {"phase": "W1901A", "units": {"France": ["A PAR", "A MAR"]},
         "centers": {"France": ["PAR", "MAR", "BRE"]}, "orders": {"France": ["Build F BRE"]}}
AUTUMN = {"phase": "F1901M", "units": {"France": ["A PAR", "A MAR"]},
          "centers": {"France": ["PAR", "MAR", "BRE"]}, "orders": {"France": ["A PAR H"]}}
FLEET_MOVE = {"phase": "S1901M", "units": {"France": ["F BRE"]}, "centers": {},
              "orders": {"France": ["F BRE - MAO"]}}

LINES = {
    "sorted": ("sortedretreats", DISLODGE, None),
    "choice": ("choiceifretreats", DISLODGE, None),
    "east": ("eastonly", DISLODGE, None),
    "seas": ("setseas", CONVOY, None),
    "counted": ("countedneeds", AUTUMN, None),
    "floatcounts": ("floatcounts", BUILD, None),
    "push": ("frenchpush", ATTACK, None),
    "half": ("halfbonus", FLEET_MOVE, None),
    "bonus0": ("numberbonus", ATTACK, {"bonus": 0}),
    "bonus2": ("numberbonus", ATTACK, {"bonus": "2"}),
    "bonus5": ("numberbonus", ATTACK, {"bonus": 5}),
}


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[str, str]:
    """A hooks module and one map file per variant (the standard map with its own name and
    ``variant:``), in directories of their own; the environment that finds them."""
    home = tmp_path_factory.mktemp("hobby")
    (home / "maps").mkdir()
    (home / "hooks").mkdir()
    (home / "hooks" / "hobby.py").write_text(HOOKS, encoding="utf-8")
    standard = (TREE / "maps" / "standard.yaml").read_text(encoding="utf-8")
    body = re.sub(r"^(name|title|variant):.*\n", "", standard, flags=re.M)
    for cls in VARIANTS:
        (home / "maps" / f"{cls.lower()}.yaml").write_text(
            f"name: {cls.lower()}\ntitle: {cls}\nvariant: hobby:{cls}\n{body}", encoding="utf-8")
    return {"MOBADJ_MAPS": str(home / "maps"),
            "PYTHONPATH": os.pathsep.join([str(home / "hooks"), str(TREE)])}


def _mobadj(variants: dict[str, str], *args: str, stdin: str | None = None
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobadj", *args], input=stdin,
                          env={**os.environ, **variants}, capture_output=True, text=True,
                          cwd=TREE, timeout=120)


@pytest.fixture(scope="module")
def answers(variants) -> dict[str, dict]:
    """Every line of :data:`LINES` through one ``mobadj batch``: its answer by id."""
    lines = [json.dumps({"id": key, "map": name, **case, **({"options": opts} if opts else {})})
             for key, (name, case, opts) in LINES.items()]
    proc = _mobadj(variants, "batch", "-", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return {a["id"]: a for a in map(json.loads, proc.stdout.splitlines())}


def _result(answer: dict, order: str) -> tuple[str, str | None]:
    found = next(o for o in answer["orders"] if o["order"] == order)
    return found["result"], found["reason"]


def test_a_sorted_list_of_retreats_and_a_truthy_choice_are_taken(answers):
    for key in ("sorted", "choice"):
        answer = answers[key]
        assert answer["errors"] == [], key
        assert answer["next_phase"] == "S1901R", key
        assert answer["dislodged"]["Germany"] == [
            {"unit": "A MUN", "from": "BUR", "retreats": ["BER", "BOH", "KIE", "SIL", "TYR"]}]


def test_a_retreat_rule_that_falls_through_to_none_says_no(answers):
    answer = answers["east"]
    assert answer["errors"] == []
    assert answer["dislodged"]["Germany"][0]["retreats"] == ["BER", "KIE"]


def test_convoying_seas_as_a_set_carry_the_army(answers):
    answer = answers["seas"]
    assert answer["errors"] == []
    assert _result(answer, "A YOR - NWY") == ("succeeds", None)
    assert answer["units"]["England"] == ["A NWY", "F NTH"]


def test_a_count_for_needs_adjustment_and_float_counts_play_the_winter(answers):
    assert answers["counted"]["errors"] == []
    assert answers["counted"]["next_phase"] == "W1901A"
    answer = answers["floatcounts"]
    assert answer["errors"] == []
    assert _result(answer, "Build F BRE") == ("succeeds", None)
    assert answer["units"]["France"] == ["A MAR", "A PAR", "F BRE"]


def test_whole_floats_count_and_a_half_is_refused_by_name(answers):
    assert answers["push"]["errors"] == []
    assert _result(answers["push"], "A BUR - MUN") == ("succeeds", None)
    half = answers["half"]
    assert half["next_phase"] is None
    assert half["errors"] == ["variant hook move_bonus must return a whole number, not 0.5"]


def test_a_numeric_option_is_set_by_its_number(answers):
    assert answers["bonus0"]["errors"] == []
    assert _result(answers["bonus0"], "A BUR - MUN") == ("fails", "destination held")
    assert answers["bonus2"]["errors"] == []
    assert _result(answers["bonus2"], "A BUR - MUN") == ("succeeds", None)
    assert answers["bonus5"]["errors"] == ["unknown bonus rule '5'; choose from 1, 0, 2"]


def _files(tmp_path: Path, case: dict) -> tuple[str, str]:
    position = tmp_path / "position.yaml"
    position.write_text(json.dumps({k: v for k, v in case.items() if k != "orders"}))
    orders = tmp_path / "orders.txt"
    orders.write_text("".join(f"{power}:\n" + "".join(f"{o}\n" for o in lines)
                              for power, lines in case["orders"].items()))
    return str(position), str(orders)


def test_mobadj_adjudicate_plays_a_sorted_retreat_list(variants, tmp_path):
    proc = _mobadj(variants, "adjudicate", "--map", "sortedretreats",
                   *_files(tmp_path, DISLODGE))
    assert proc.returncode == 0, proc.stderr
    assert "Next phase: Spring 1901 Retreats (S1901R)" in proc.stdout


def test_mobadj_adjudicate_refuses_half_a_point_in_one_line(variants, tmp_path):
    proc = _mobadj(variants, "adjudicate", "--map", "halfbonus", *_files(tmp_path, FLEET_MOVE))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "Error: variant hook move_bonus must return a whole number, not 0.5\n"


def test_option_choices_that_are_no_words_switches_or_numbers_are_refused():
    with pytest.raises(TypeError, match="option choices must be all words, all switches or "
                                        "all numbers of one type"):
        option(1, (1, "two"))
