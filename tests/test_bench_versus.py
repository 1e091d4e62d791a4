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
