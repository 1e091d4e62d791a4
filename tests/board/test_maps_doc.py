"""The example map in docs/maps.md is a clean map, and the documented look-ups hold."""

from __future__ import annotations

import re
from pathlib import Path

from mobadj.board.check import check_map
from mobadj.board.loader import load_map

DOC = Path(__file__).resolve().parents[2] / "docs" / "maps.md"


def test_example_map_is_clean(tmp_path):
    example = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)[0]
    path = tmp_path / "tiny.yaml"
    path.write_text(example)
    assert check_map(path) == []
    tiny = load_map(path)
    assert tiny.lookup("alf") == "AAA" and tiny.power_id("nor") == "NORTH"


def test_python_snippet():
    std = load_map("standard")
    snippet = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)[-1]
    for line in snippet.splitlines():
        if "#" in line and line.startswith("m."):
            code, want = (part.strip() for part in line.split("#", 1))
            assert eval(code, {"m": std}) == eval(want), code
