"""``mobadj batch`` against the ``diplomacy`` package (MILA) on the same standard phases.

Part of ``make bench`` (``python -m bench --oracle-python PY``): the package runs in its own
virtualenv (the Makefile makes it, as for ``make crosscheck``), driven phase by phase from
the same JSON lines by ``tools/crosscheck/mila_driver.py``; it is never installed for mobadj
or its tests.  The phases come from ``bench/phases.py`` (movement phases of the
cross-checker's generator, the retreat phases they lead to, adjustments).

Measured, each side in a fresh process over the whole file:

- whole process: wall clock from start to the last output line (best of ``RUNS``), and the
  CPU time of that run; mobadj with ``--jobs 1`` and ``--jobs 2``;
- start-up: the time to the first output line for a one-line input (median of 7 runs);
- per phase: (whole process - start-up) / phases, and mobadj's mean in one warm process
  (:func:`mobadj.batch.answer_line`, JSON in and out included).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.phases import write as write_phases

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tools" / "crosscheck" / "mila_driver.py"
SEED = 1
PHASES = 3000
RUNS = 5
"""Runs of each whole-process measurement of mobadj, the best kept (the machine's speed
drifts by 10-20 % from run to run)."""
ORACLE_RUNS = 2
GOAL = 30


def _mobadj(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("mobadj")
    if exe.exists():
        return [str(exe), "batch", *args]
    return [sys.executable, "-m", "mobadj", "batch", *args]


def _whole(cmd: list[str], source: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, output lines) of ``cmd`` reading ``source`` on stdin."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with source.open("rb") as stdin:
        t0 = time.perf_counter()
        out = subprocess.run(cmd, stdin=stdin, capture_output=True, check=True).stdout
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.count(b"\n")


def _best(cmd: list[str], source: Path, runs: int = RUNS) -> tuple[float, float, int]:
    return min((_whole(cmd, source) for _ in range(runs)), key=lambda run: run[0])


def first_result(cmd: list[str], line: bytes, runs: int = 7) -> float:
    """Median seconds from starting ``cmd`` to reading its answer to ``line``."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(line)
        proc.stdin.flush()
        proc.stdout.readline()
        times.append(time.perf_counter() - t0)
        proc.stdin.close()
        proc.wait()
    return statistics.median(times)


def in_process(source: Path, passes: int = 3) -> float:
    """mobadj's mean CPU seconds per phase in this (warm) process: each line read, checked,
    adjudicated and written as JSON, once, the order cache empty at the start of each pass
    (best of ``passes``)."""
    from mobadj.batch import answer_line, forget_orders

    lines = source.read_bytes().splitlines(keepends=True)
    answer_line(lines[0])  # the map and its parser are loaded
    times = []
    for _ in range(passes):
        forget_orders()
        t0 = time.process_time()
        for number, line in enumerate(lines, 1):
            answer_line(line, number)
        times.append(time.process_time() - t0)
    return min(times) / len(lines)


def split(source: Path, passes: int = 5) -> dict[str, float]:
    """Where a phase's time goes in one warm process (order texts already read): mean CPU
    seconds per phase of each step, the best of ``passes`` passes over the file, each step
    timed alone through the public functions the batch calls."""
    import json

    from mobadj.batch import answer_line, json_line, map_context, run_case
    from mobadj.engine.pipeline import adjudicate
    from mobadj.engine.position import position_from_data

    lines = source.read_bytes().splitlines(keepends=True)
    cases = [json.loads(line) for line in lines]
    ctx = map_context("standard")
    positions = [position_from_data(case, ctx.game_map, ctx.rules) for case in cases]
    pairs = [[(ctx.power(power), ctx.parse(text)[0]) for power, texts in case["orders"].items()
              for text in texts if isinstance(ctx.parse(text), tuple)] for case in cases]
    outs = [run_case(case) for case in cases]

    def each(step: Any, items: list[Any]) -> Any:
        def run() -> None:
            for item in items:  # nothing kept: a batch keeps no line either
                step(item)
        return run

    texts = [text for case in cases for items in case["orders"].values() for text in items]
    steps = {
        "whole": each(answer_line, lines),
        "read": each(json.loads, lines),
        "run": each(run_case, cases),
        "position": each(lambda case: position_from_data(case, ctx.game_map, ctx.rules), cases),
        "orders": each(ctx.parse, texts),
        "adjudicate": each(lambda job: adjudicate(job[0], job[1], ctx.game_map, ctx.rules),
                           list(zip(positions, pairs, strict=True))),
        "write": each(json_line, outs),
    }
    got = {key: float("inf") for key in steps}
    for _ in range(passes):  # the steps in turn, pass after pass: a slow spell hits them all
        for key, step in steps.items():
            t0 = time.process_time()
            step()
            got[key] = min(got[key], (time.process_time() - t0) / len(lines))
    got["bookkeeping"] = got["run"] - got["position"] - got["orders"] - got["adjudicate"]
    return got


def bench_versus(oracle_python: str | None, phases: int = PHASES) -> dict[str, Any]:
    """The figures of both sides (the package's are None without ``oracle_python``)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = write_phases(Path(tmp) / "phases.jsonl", SEED, phases)
        first = source.read_bytes().split(b"\n", 1)[0] + b"\n"
        figures: dict[str, Any] = {"phases": phases}
        for jobs in (1, 2):
            wall, cpu, lines = _best(_mobadj("--jobs", str(jobs), "-"), source)
            assert lines == phases, f"mobadj answered {lines} of {phases} lines"
            figures[f"jobs{jobs}"] = (wall, cpu)
            figures[f"start{jobs}"] = first_result(_mobadj("--jobs", str(jobs), "-"), first)
        figures["in_process"] = in_process(source)
        figures["split"] = split(source)
        figures["mila"] = figures["mila_start"] = None
        if oracle_python:
            cmd = [oracle_python, str(DRIVER)]
            wall, cpu, lines = _best(cmd, source, ORACLE_RUNS)
            assert lines == phases, f"the diplomacy package answered {lines} of {phases}"
            figures["mila"] = (wall, cpu)
            figures["mila_start"] = first_result(cmd, first, runs=3)
    return figures


def _s(seconds: float) -> str:
    return f"{seconds:.2f} s"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def _ms0(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms"


def section(f: dict[str, Any]) -> str:
    """The "Against the diplomacy package" section of docs/performance.md."""
    n = f["phases"]
    rows = []
    mila, mila_start = f["mila"], f["mila_start"]
    for jobs in (1, 2):
        wall, cpu = f[f"jobs{jobs}"]
        ratio = f"{mila[0] / wall:.1f}x" if mila else "not measured"
        rows.append((f"`mobadj batch --jobs {jobs}`", _s(wall), _s(cpu), _ms0(f[f"start{jobs}"]),
                     _ms((wall - f[f"start{jobs}"]) / n), ratio))
    if mila:
        rows.append(("diplomacy 1.1.2, phase by phase", _s(mila[0]), _s(mila[1]),
                     _ms0(mila_start), _ms((mila[0] - mila_start) / n), "1x"))
    table = "\n".join(
        ["| run | whole process (wall) | CPU | first result | per phase | diplomacy / mobadj |",
         "|---|---|---|---|---|---|"] + ["| " + " | ".join(r) + " |" for r in rows])
    ratio = mila[0] / f["jobs1"][0] if mila else None
    if ratio:
        wall, start = f["jobs1"][0], f["start1"]
        need = (mila[0] / GOAL - start) / n
        verdict = (f"With one job mobadj is **{ratio:.1f}x** faster than the package, whole "
                   f"process (the goal is {GOAL}x: {_s(mila[0] / GOAL)} for these phases, "
                   f"that is, after a start of {_ms0(start)}, "
                   + (f"{_ms(need)} per phase; mobadj took {_ms((wall - start) / n)})."
                      if need > 0 else "no time left for the phases)."))
    else:
        verdict = "The package was not measured (run `make bench`, which installs it)."
    return f"""## Against the diplomacy package

`make bench` (`bench/versus_mila.py`) runs `mobadj batch` and the `diplomacy` package 1.1.2
(MILA; in its own virtualenv, driven by `tools/crosscheck/mila_driver.py`, which sets up a
`Game` from each JSON line and processes it) on the same {n:,} standard phases
(`bench/phases.py`, seed {SEED}: the cross-checker's movement phases, the retreat phases
they lead to, adjustments), each in a fresh process reading the file on standard input.
Whole process: best of {RUNS} runs for mobadj, {ORACLE_RUNS} for the package; first result: median
time from start to the answer of a one-line input; per phase: (whole - first result) /
phases.

{table}

mobadj in one warm process: {_ms(f["in_process"])} CPU per phase (each line read, checked,
adjudicated and written as JSON once, every order text read anew at its first line; best
of 3 passes; the goal is 0.15 ms).  Where the time goes, each step timed alone in the
same process once the order texts are known (mean µs per phase, best of 5 passes taking
the steps in turn).  This machine's speed drifts by 10-20 % between runs: so do these
figures.

{split_table(f["split"])}

{verdict}
"""


SPLIT_ROWS = (
    ("read", "reading the JSON line (the json module)"),
    ("position", "reading the position (units, centres, dislodged units)"),
    ("orders", "looking up each order text (read once, then remembered)"),
    ("adjudicate", "validation, resolution, retreats to offer, next phase"),
    ("bookkeeping", "the batch's own work: power names, results back, the output "
                    "(the line without the steps above)"),
    ("write", "writing the output line (orjson)"),
    ("whole", "the whole line"),
)


def split_table(got: dict[str, float]) -> str:
    """The per-step table of :func:`split`."""
    rows = ["| step | µs per phase |", "|---|---|"]
    rows += [f"| {what} | {got[key] * 1e6:.1f} |" for key, what in SPLIT_ROWS]
    return "\n".join(rows)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--oracle-python", help="python of a virtualenv with diplomacy==1.1.2")
    ap.add_argument("--phases", type=int, default=PHASES)
    args = ap.parse_args()
    print(section(bench_versus(args.oracle_python, args.phases)))


if __name__ == "__main__":
    main()
