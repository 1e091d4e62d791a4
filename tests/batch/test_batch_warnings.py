"""A batch line with a key no line has (``"orderz"``, ``"unitz"``): the line is adjudicated
without it, and its output's ``warnings`` names it with the key it most resembles, in the
words ``mobadj adjudicate`` uses for a position file (docs/adjudication.md).  Lines without
such a key are written as before, without ``warnings``."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from mobadj.batch import KEYS
from mobadj.cli import main

ENGLAND = {"England": ["F LON"]}
MOVE = {"England": ["F LON - NTH"]}


def _lines(*cases: dict) -> str:
    return "".join(json.dumps(case) + "\n" for case in cases)


def _batch(tmp_path, text: str) -> list[dict]:
    """``mobadj batch --jobs 1 FILE`` on ``text``: its output lines, read."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text(text)
    result = CliRunner().invoke(main, ["batch", "--jobs", "1", str(cases)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def test_a_misspelt_key_is_named_in_the_lines_warnings(tmp_path) -> None:
    """The archive a person adjudicates, run as the program: a misspelt ``orders`` left
    every unit holding and a misspelt ``units`` emptied the board, both with no word."""
    cases = tmp_path / "archive.jsonl"
    cases.write_text(_lines(
        {"id": "typo", "phase": "S1901M", "units": ENGLAND, "orderz": MOVE},
        {"id": "typo2", "phase": "S1901M", "unitz": ENGLAND, "orders": MOVE},
        {"id": "clean", "phase": "S1901M", "units": ENGLAND, "orders": MOVE},
    ))
    run = subprocess.run([sys.executable, "-m", "mobadj", "batch", str(cases)],
                         capture_output=True, timeout=120)
    assert run.returncode == 0 and run.stderr == b""
    typo, typo2, clean = run.stdout.splitlines()
    assert typo.endswith(b',"warnings":["unknown key \'orderz\' ignored (did you mean '
                         b'\'orders\'?)"],"errors":[]}')
    assert json.loads(typo)["units"] == ENGLAND  # adjudicated without it, as before
    assert json.loads(typo2)["warnings"] == [
        "unknown key 'unitz' ignored (did you mean 'units'?)"]
    assert tuple(json.loads(clean)) == KEYS and b"warnings" not in clean


def test_an_error_line_names_the_misspelt_key_that_caused_it(tmp_path) -> None:
    [out] = _batch(tmp_path, _lines({"id": "p", "phse": "S1901M", "units": ENGLAND}))
    assert out["errors"] == ["missing 'phase' (e.g. S1901M)"]
    assert out["warnings"] == ["unknown key 'phse' ignored (did you mean 'phase'?)"]
    assert list(out)[-2:] == ["warnings", "errors"]


def test_a_key_like_none_lists_the_keys_there_are_and_several_are_named_in_order(
        tmp_path) -> None:
    [out] = _batch(tmp_path, _lines(
        {"id": "t", "turn": 3, "phase": "S1901M", "units": ENGLAND, "Orders": MOVE}))
    assert out["warnings"] == [
        "unknown key 'turn' ignored (known: id, map, phase, units, centers, dislodged, "
        "standoffs, orders, options)",
        "unknown key 'Orders' ignored (did you mean 'orders'?)"]


def test_a_variants_keys_and_an_output_read_back_are_no_unknown_keys(tmp_path) -> None:
    first = {"id": "s", "map": "standard", "phase": "S1901M", "units": ENGLAND,
             "centers": {"England": ["LON"]}, "dislodged": {}, "standoffs": [],
             "orders": MOVE, "options": {"paradox": "1982"}}
    mob = {"id": "m", "map": "mobtown2", "phase": "1919-07-W1-M",
           "units": {"capone": ["G Mic", "D Mic"]}, "disorder": [], "rebuilt_dons": [],
           "winner": None, "orders": {"capone": ["G(Mic)-Mem"]}}
    out, mob_out = _batch(tmp_path, _lines(first, mob))
    again = {**out, "phase": out["next_phase"], "orders": {}}  # the output, fed back in
    mob_again = {**mob_out, "map": "mobtown2", "phase": mob_out["next_phase"], "orders": {},
                 "mapp": "x"}  # (an output line names no map)
    outputs = _batch(tmp_path, _lines(again, mob_again))
    assert [("warnings" in o, o["errors"]) for o in [out, mob_out, outputs[0]]] == [
        (False, [])] * 3
    assert outputs[1]["warnings"] == ["unknown key 'mapp' ignored (did you mean 'map'?)"]


def test_options_that_are_no_object_are_an_error_even_when_empty(tmp_path) -> None:
    lines = [{"id": str(options), "phase": "S1901M", "units": ENGLAND, "orders": MOVE,
              "options": options} for options in ([], "", 0, {}, None)]
    outs = _batch(tmp_path, _lines(*lines))
    assert [o["errors"] for o in outs[:3]] == [["'options' must map option names to values"]] * 3
    assert [o["orders"][0]["result"] for o in outs[3:]] == ["succeeds", "succeeds"]

