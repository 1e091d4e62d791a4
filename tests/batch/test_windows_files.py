"""Order files and batch inputs as Windows programs (Notepad, Word, Excel) save them, and
reports written where Windows writes them, run through ``mobadj`` as a real process: what
the GM finds in the report file and reads on the screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "orders" / "standard" / "position-s1901.yaml"


def mobadj(*args: str, cwd: Path, encoding: str = "utf-8",
           stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``mobadj ARGS`` run in ``cwd`` with standard output in ``encoding`` (``cp1252``: a
    Windows ``> results.txt``); the output as bytes."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run([sys.executable, "-m", "mobadj", *args], cwd=cwd, env=env,
                          capture_output=True, check=False, timeout=120, input=stdin)


def test_a_report_redirected_to_a_cp1252_file_is_written_with_question_marks(
        tmp_path: Path) -> None:
    """An emoji pasted into an order, and a Cyrillic file name, cannot be written in
    cp1252: the report is still written whole, each such character as ``?``."""
    (tmp_path / "t2.txt").write_bytes("France:\n\tA Par – Bux\n😀 A Mar - Spx\n".encode())
    (tmp_path / "Россия.txt").write_text("France:\nA Par - Bux\n", encoding="utf-8")
    run = mobadj("adjudicate", str(POSITION), "t2.txt", "Россия.txt", cwd=tmp_path,
                 encoding="cp1252")
    assert run.returncode == 1, run.stderr
    assert b"Traceback" not in run.stderr
    out = run.stdout.decode("cp1252")
    assert "t2.txt: line 3, column 1: unexpected '?'" in out
    assert "??????.txt: line 2, column 9: unknown province 'Bux'" in out
    assert "Next phase: Fall 1901 Movement (F1901M)" in out
    clean = mobadj("adjudicate", str(POSITION), str(ROOT / "orders" / "standard" /
                                                    "s1901.txt"), cwd=tmp_path,
                   encoding="cp1252")
    same = mobadj("adjudicate", str(POSITION), str(ROOT / "orders" / "standard" /
                                                   "s1901.txt"), cwd=tmp_path)
    assert clean.returncode == same.returncode == 0, clean.stderr
    assert clean.stdout == same.stdout
