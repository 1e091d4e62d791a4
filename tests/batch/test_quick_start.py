"""The ``mobadj`` program runs a plain batch command line without click
(mobadj/batch/command.py), and hands every other command line to click, which reads it as
before.  Run as real processes: the console script and ``python -m mobadj``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.batch import defer, quick_arguments

LINE = (b'{"id": 1, "phase": "S1901M", "units": {"France": ["A PAR"]}, '
        b'"orders": {"France": ["A PAR - BUR"]}}\n')
CLICK_PROGRAM = "import sys; sys.argv[0] = 'mobadj'; from mobadj.cli import run; run()"
"""The ``mobadj`` program as it was: the command line read by click alone."""


@pytest.mark.parametrize(("args", "read"), [
    (["cases.jsonl"], ("cases.jsonl", None)),
    (["-"], ("-", None)),
    (["--jobs", "2", "-"], ("-", 2)),
    (["--jobs=3", "c"], ("c", 3)),
    (["-j", "1", "c"], ("c", 1)),
    (["-j4", "c"], ("c", 4)),
    (["c", "--jobs", "1"], ("c", 1)),
    (["-j", "2", "c", "-j", "007"], ("c", 7)),  # the last count wins, as in click
])
def test_plain_command_lines_are_read(args, read) -> None:
    assert quick_arguments(args) == read


@pytest.mark.parametrize("args", [
    [], ["--help"], ["-h"], ["--jobs", "2"], ["a", "b"], ["--", "c"], [""], ["-x", "c"],
    ["--jobs", "0", "c"], ["--jobs", "-1", "c"], ["--jobs", "+2", "c"], ["--jobs", " 2", "c"],
    ["--jobs", "\u0662", "c"], ["--jobs", "2_0", "c"], ["-j=2", "c"], ["--job", "2", "c"],
    ["--jobs"], ["c", "-j"], ["--jobs=", "c"], ["-j", "-", "c"], ["--jobs", "257", "c"],
])
def test_anything_else_is_left_to_click(args) -> None:
    assert quick_arguments(args) is None


def _program(how: str, args: list[str], stdin: bytes = b"", cwd: Path | None = None
             ) -> subprocess.CompletedProcess:
    """Run the program with ``-X importtime`` (its report tells whether click was loaded):
    ``script`` (the console script), ``module`` (``python -m mobadj``) or ``click`` (the
    command line read by click alone)."""
    if how == "script":
        head = [sys.executable, "-X", "importtime", str(Path(sys.executable).with_name("mobadj"))]
    elif how == "module":
        head = [sys.executable, "-X", "importtime", "-m", "mobadj"]
    else:
        head = [sys.executable, "-X", "importtime", "-c", CLICK_PROGRAM]
    return subprocess.run([*head, "batch", *args], input=stdin, capture_output=True,
                          timeout=120, cwd=cwd)


def _loaded_click(run: subprocess.CompletedProcess, module: bytes = b"click") -> bool:
    return any(line.startswith(b"import time:") and line.rsplit(b"|", 1)[-1].strip() == module
               for line in run.stderr.splitlines())


def _messages(run: subprocess.CompletedProcess) -> bytes:
    """Standard error without the import report."""
    return b"".join(line for line in run.stderr.splitlines(keepends=True)
                    if not line.startswith(b"import time:"))


@pytest.mark.parametrize("how", ["script", "module"])
@pytest.mark.parametrize("args", [["cases.jsonl"], ["--jobs", "1", "cases.jsonl"],
                                  ["cases.jsonl", "-j2"], ["--jobs=1", "-"]])
def test_a_plain_batch_starts_without_click_and_answers_as_click_did(tmp_path, how,
                                                                      args) -> None:
    (tmp_path / "cases.jsonl").write_bytes(LINE * 3 + b"{not json\n" + LINE)
    stdin = LINE * 3 + b"{not json\n" + LINE if "-" in args else b""
    quick = _program(how, args, stdin, cwd=tmp_path)
    before = _program("click", args, stdin, cwd=tmp_path)
    assert _loaded_click(before) and not _loaded_click(quick)
    assert quick.returncode == before.returncode == 0
    assert quick.stdout == before.stdout and quick.stdout.count(b"\n") == 5
    assert b'"next_phase":"F1901M"' in quick.stdout
    assert _messages(quick) == _messages(before) == b""


@pytest.mark.parametrize("how", ["script", "module"])
def test_a_plain_batch_leaves_inspect_unloaded(tmp_path, how) -> None:
    """dataclasses imports inspect only to leave it unused here (mobadj.batch.command.DEFERRED);
    difflib writes did-you-mean messages, which good lines never need."""
    (tmp_path / "cases.jsonl").write_bytes(LINE)
    quick = _program(how, ["--jobs", "1", "cases.jsonl"], cwd=tmp_path)
    assert b'"next_phase":"F1901M"' in quick.stdout
    assert _loaded_click(quick, b"dataclasses") and not _loaded_click(quick, b"inspect")
    assert not _loaded_click(quick, b"difflib")
    (tmp_path / "cases.jsonl").write_bytes(LINE.replace(b"A PAR - BUR", b"A PAR - BRU"))
    quick = _program(how, ["--jobs", "1", "cases.jsonl"], cwd=tmp_path)
    assert b"did you mean" in quick.stdout and _loaded_click(quick, b"difflib")
    assert _loaded_click(_program("click", ["cases.jsonl"], cwd=tmp_path), b"inspect")


def test_a_deferred_module_is_imported_when_first_used(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    defer(("colorsys", "sys"))  # a module already imported stays as it is
    stand_in = sys.modules["colorsys"]
    assert type(stand_in).__name__ == "_Deferred" and sys.modules["sys"] is sys
    import colorsys

    assert colorsys is stand_in
    assert colorsys.rgb_to_hls(1.0, 0.0, 0.0) == (0.0, 0.5, 1.0)  # imported here
    real = sys.modules["colorsys"]
    assert real is not stand_in and real.rgb_to_hls is stand_in.rgb_to_hls
    from colorsys import hls_to_rgb

    assert hls_to_rgb(0.0, 0.5, 1.0) == (1.0, 0.0, 0.0)
    monkeypatch.delitem(sys.modules, "colorsys")


@pytest.mark.parametrize("args", [
    ["--help"], ["--jobs", "0", "cases.jsonl"], ["--jobs", "two", "cases.jsonl"],
    ["missing.jsonl"], ["cases.jsonl", "cases.jsonl"], ["--jobz", "1", "cases.jsonl"],
    ["--jobs", "+1", "cases.jsonl"],
])
def test_other_command_lines_are_clicks(tmp_path, args) -> None:
    """Help, usage errors, a file that cannot be opened, a count click reads its own way:
    click answers them, as before."""
    (tmp_path / "cases.jsonl").write_bytes(LINE)
    run = _program("script", args, cwd=tmp_path)
    before = _program("click", args, cwd=tmp_path)
    assert _loaded_click(run)
    assert run.returncode == before.returncode
    assert run.stdout == before.stdout
    assert _messages(run) == _messages(before)
    assert b"Traceback" not in run.stderr


def test_a_stopped_batch_says_why_as_click_did(tmp_path) -> None:
    """A full disk (/dev/full): one line, status 1, whichever way the command line is read."""
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(LINE * 50)
    runs = []
    for how in ("script", "click"):
        with open("/dev/full", "wb") as full:
            head = ([str(Path(sys.executable).with_name("mobadj"))] if how == "script"
                    else [sys.executable, "-c", CLICK_PROGRAM])
            runs.append(subprocess.run([*head, "batch", "-j1", str(cases)], stdout=full,
                                       stderr=subprocess.PIPE, timeout=120))
    assert [r.returncode for r in runs] == [1, 1]
    assert runs[0].stderr == runs[1].stderr == (
        b"Error: the batch stopped: cannot write the answers: No space left on device\n")
