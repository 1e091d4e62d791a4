"""The examples in docs/adjudication.md work as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from mobadj.batch import run_case
from mobadj.engine import position_from_data

from .helpers import STANDARD

DOC = (Path(__file__).resolve().parents[2] / "docs" / "adjudication.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC, re.S)


def test_python_example_runs(capsys) -> None:
    [code] = blocks("python")
    exec(compile(code, "docs/adjudication.md", "exec"), {})  # noqa: S102 - our own doc
    out = capsys.readouterr().out
    assert "ENGLAND F LON - NTH succeeds" in out
    assert "Next phase: Fall 1901 Movement" in out


def test_yaml_position_example_reads() -> None:
    [text] = blocks("yaml")
    pos = position_from_data(yaml.safe_load(text), STANDARD)
    assert str(pos.phase) == "F1901R" and pos.standoffs == frozenset({"RUH"})
    assert pos.dislodged["DEN"].convoyed


def test_batch_input_examples_give_the_output_examples() -> None:
    examples = [json.loads(b) for b in blocks("json")]
    assert len(examples) == 4
    for given, expected in zip(examples[::2], examples[1::2], strict=True):
        out = run_case(given)
        assert json.loads(json.dumps(out)) == expected
        assert list(out) == list(expected)  # the keys in the documented order
