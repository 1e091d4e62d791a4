"""bench/versus.py times mobadj as an installed mobadj starts: a Python that sees mobadj's
dependencies but not the checkout's editable install (whose import hook a user's install
never loads), answering from the package of the run's working directory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.versus import _mobadj, installed_python  # noqa: E402


def test_the_bench_python_answers_a_line_without_the_editable_hook(tmp_path) -> None:
    python = installed_python(tmp_path / "venv")
    probe = subprocess.run(
        [str(python), "-c", "import sys, orjson, mobadj; print(mobadj.__file__); "
         "print(sorted(m for m in sys.modules if m.startswith('__editable__')))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()
    assert probe == [str(ROOT / "mobadj" / "__init__.py"), "[]"]
    line = json.dumps({"id": "s1901", "phase": "S1901M",
                       "units": {"FRANCE": ["A PAR", "F BRE"]},
                       "orders": {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]}}) + "\n"
    run = subprocess.run(_mobadj(python, "--jobs", "1", "-"), input=line, cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60)
    answer = json.loads(run.stdout)
    assert answer["units"] == {"FRANCE": ["A BUR", "F MAO"]}
    assert answer["next_phase"] == "F1901M"



def test_the_batch_layer_is_timed_directly_and_counted(tmp_path) -> None:
    """The two runs callgrind counts go through the same movement lines (run here as plain
    Python), the direct timing takes every line both ways, and the report's batch layer row
    is that timing, not the difference of the steps timed apart."""
    from bench.games import write
    from bench.versus import _answer_repeatedly, layer, split_section

    source = write(tmp_path / "phases.jsonl", 1, 40)
    for mode in ("line", "engine"):
        _answer_repeatedly(source, 5, 1, mode)
    calls: list[tuple[str, int]] = []
    timed = layer([b"1", b"2", b"3"], [[], [], []],
                  lambda line: calls.append(("whole", int(line))),
                  lambda line, given: calls.append(("steps", int(line))), 2)
    assert sorted(calls) == sorted([(what, n) for what in ("whole", "steps") for n in (1, 2, 3)]
                                   * 2)
    assert calls[:4] == [("steps", 1), ("whole", 1), ("whole", 2), ("steps", 2)]
    assert timed["layer_line"] >= 0 and set(timed) == {"layer", "layer_line"}
    steps = ("read", "position", "validation", "resolution", "results", "rest")
    figures = {**dict.fromkeys(steps, 1e-6), "batch": 50e-6, "whole": 100e-6, "phases": 5,
               "layer": 21e-6, "layer_line": 90e-6}
    counts = {"lines": 5, "per_line": 1_000_000.0, "engine": 800_000.0, "batch": 200_000.0}
    report = split_section({"split": figures, "compiled_split": figures,
                            "instructions": {"pure": counts, "compiled": counts}})
    assert "| the batch layer: power names, order texts, the output line written as JSON " \
           "| 21.0 | 21.0 |" in report
    assert "200 k pure (20%)" in report
