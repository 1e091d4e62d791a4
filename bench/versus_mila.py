"""``mobadj batch`` against the ``diplomacy`` package (MILA) on the same standard phases.

Part of ``make bench`` (``python -m bench --oracle-python PY``): the package runs in its own
virtualenv (the Makefile makes it, as for ``make crosscheck``), driven phase by phase from
the same JSON lines by ``tools/crosscheck/mila_driver.py``; it is never installed for mobadj
or its tests.  The phases come from ``bench/phases.py`` (movement phases of the
cross-checker's generator, the retreat phases they lead to, adjustments).

Measured, each side in a fresh process over the whole file:

- whole process: wall clock from start to the last output line (best of ``RUNS``, the
  package's of ``ORACLE_RUNS``; the runs of both sides taken in turn, round by round), and
  the CPU time of that run; mobadj with ``--jobs 1`` and ``--jobs 2``;
- start-up: the time to the first output line for a one-line input (median of 7 runs);
- per phase: (whole process - start-up) / phases, and mobadj's mean in one warm process
  (:func:`mobadj.batch.answer_line`, JSON in and out included).

mobadj is measured twice: as checked out (pure Python; ``make bench`` removes any compiled
modules first), then as the optional compiled build (setup.py), built by :func:`compiled_tree`
in a copy of the package so that the working tree is left as it is.  Both must write the same
bytes.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
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
ORACLE_RUNS = 3
"""The same for the package (about 10 s a run): its runs drift as much, and the ratio
depends on its best one too."""
GOAL = 30


def _mobadj(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("mobadj")
    if exe.exists():
        return [str(exe), "batch", *args]
    return [sys.executable, "-m", "mobadj", "batch", *args]


def _compiled(*args: str) -> list[str]:
    """``mobadj batch`` of the compiled tree (run with that tree as the working directory:
    ``-m`` puts it first on the module path)."""
    return [sys.executable, "-m", "mobadj", "batch", *args]


def compiled_tree(dest: Path) -> Path:
    """A copy of the package, maps and build files in ``dest``, compiled by setup.py
    (``MOBADJ_COMPILE=1``) and to bytecode, as ``make compiled`` does in place."""
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "maps", dest / "maps")
    shutil.copytree(ROOT / "mobadj", dest / "mobadj",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    env = {**os.environ, "MOBADJ_COMPILE": "1"}
    subprocess.run([sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"], cwd=dest,
                   env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "mobadj"], cwd=dest, check=True)
    return dest


def _whole(cmd: list[str], source: Path, cwd: Path | None = None) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds, output) of ``cmd`` reading ``source`` on stdin."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with source.open("rb") as stdin:
        t0 = time.perf_counter()
        out = subprocess.run(cmd, stdin=stdin, capture_output=True, check=True, cwd=cwd).stdout
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def first_result(cmd: list[str], line: bytes, runs: int = 7, cwd: Path | None = None) -> float:
    """Median seconds from starting ``cmd`` to reading its answer to ``line``."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd)
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
    from mobadj.batch import answer_line, json_line, map_context, read_case, run_case
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
        "read": each(read_case, lines),
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


def _measure_in_process(source: Path) -> dict[str, Any]:
    """The warm-process figures of the mobadj this process imports."""
    from mobadj import build

    return {"build": build(), "in_process": in_process(source), "split": split(source)}


def bench_versus(oracle_python: str | None, phases: int = PHASES) -> dict[str, Any]:
    """The figures of both sides (the package's are None without ``oracle_python``); mobadj's
    for the pure build (``""``) and the compiled one (keys prefixed ``compiled_``)."""
    from mobadj import build

    assert build() == "pure", "the pure figures need a pure tree: run make pure first"
    with tempfile.TemporaryDirectory() as tmp:
        source = write_phases(Path(tmp) / "phases.jsonl", SEED, phases)
        first = source.read_bytes().split(b"\n", 1)[0] + b"\n"
        tree = Path(tmp) / "compiled"
        tree.mkdir()
        compiled_tree(tree)
        figures: dict[str, Any] = {"phases": phases}
        outputs = set()
        runs = [(f"{prefix}jobs{jobs}", command("--jobs", str(jobs), "-"), cwd)
                for prefix, command, cwd in (("", _mobadj, None), ("compiled_", _compiled, tree))
                for jobs in (1, 2)]
        oracle = [oracle_python, str(DRIVER)] if oracle_python else None
        timed: dict[str, list[tuple[float, float]]] = {}
        # round by round, every run once (the package in the first ORACLE_RUNS rounds): the
        # machine's drift then touches both sides alike, and the best of each is kept
        for round_ in range(RUNS):
            for key, cmd, cwd in runs:
                wall, cpu, out = _whole(cmd, source, cwd)
                lines = out.count(b"\n")
                assert lines == phases, f"mobadj answered {lines} of {phases} lines"
                outputs.add(out)
                timed.setdefault(key, []).append((wall, cpu))
            if oracle and round_ < ORACLE_RUNS:
                wall, cpu, out = _whole(oracle, source)
                lines = out.count(b"\n")
                assert lines == phases, f"the diplomacy package answered {lines} of {phases}"
                timed.setdefault("mila", []).append((wall, cpu))
        assert len(outputs) == 1, "the builds or job counts wrote different bytes"
        for key, cmd, cwd in runs:
            figures[key] = min(timed[key])
            figures[key.replace("jobs", "start")] = first_result(cmd, first, cwd=cwd)
        figures.update(_measure_in_process(source))
        measured = subprocess.run(
            [sys.executable, "-m", "bench.versus_mila", "--in-process", str(source)],
            cwd=tree, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
            capture_output=True, text=True).stdout
        got = json.loads(measured)
        assert got.pop("build") == "compiled", "the compiled tree did not run compiled"
        figures.update({f"compiled_{key}": value for key, value in got.items()})
        figures["mila"] = figures["mila_start"] = None
        if oracle:
            figures["mila"] = min(timed["mila"])
            figures["mila_start"] = first_result(oracle, first, runs=3)
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
    for prefix, build in (("", ""), ("compiled_", ", compiled build")):
        for jobs in (1, 2):
            wall, cpu = f[f"{prefix}jobs{jobs}"]
            start = f[f"{prefix}start{jobs}"]
            ratio = f"{mila[0] / wall:.1f}x" if mila else "not measured"
            rows.append((f"`mobadj batch --jobs {jobs}`{build}", _s(wall), _s(cpu), _ms0(start),
                         _ms((wall - start) / n), ratio))
    if mila:
        rows.append(("diplomacy 1.1.2, phase by phase", _s(mila[0]), _s(mila[1]),
                     _ms0(mila_start), _ms((mila[0] - mila_start) / n), "1x"))
    table = "\n".join(
        ["| run | whole process (wall) | CPU | first result | per phase | diplomacy / mobadj |",
         "|---|---|---|---|---|---|"] + ["| " + " | ".join(r) + " |" for r in rows])
    if mila:
        verdicts = []
        for prefix, build in (("", "pure Python"), ("compiled_", "the compiled build")):
            wall, start = f[f"{prefix}jobs1"][0], f[f"{prefix}start1"]
            need = (mila[0] / GOAL - start) / n
            verdicts.append(
                f"{build}, **{mila[0] / wall:.1f}x** (after a start of {_ms0(start)}, "
                + (f"{_ms(need)} per phase would reach it; it took {_ms((wall - start) / n)})"
                   if need > 0 else "no time is left for the phases)"))
        verdict = (f"With one job, whole process, mobadj is faster than the package by: "
                   f"{'; '.join(verdicts)}.  The goal is {GOAL}x: {_s(mila[0] / GOAL)} for "
                   "these phases.")
    else:
        verdict = "The package was not measured (run `make bench`, which installs it)."
    return f"""## Against the diplomacy package

`make bench` (`bench/versus_mila.py`) runs `mobadj batch` and the `diplomacy` package 1.1.2
(MILA; in its own virtualenv, driven by `tools/crosscheck/mila_driver.py`, which sets up a
`Game` from each JSON line and processes it) on the same {n:,} standard phases
(`bench/phases.py`, seed {SEED}: the cross-checker's movement phases, the retreat phases
they lead to, adjustments), each in a fresh process reading the file on standard input.
mobadj runs as pure Python and as the optional compiled build ([below](#the-compiled-build));
both write the same bytes with one job and with two.  Whole process: best of {RUNS} runs for
mobadj, {ORACLE_RUNS} for the package, taken in turn round by round (every run once a round),
so that the machine's drift touches both sides alike; first result: median time from start to
the answer of a one-line input; per phase: (whole - first result) / phases.

{table}

mobadj in one warm process, CPU per phase (each line read, checked, adjudicated and written
as JSON once, every order text read anew at its first line; best of 3 passes; the goal is
0.15 ms): **{_ms(f["in_process"])}** pure, **{_ms(f["compiled_in_process"])}** compiled.
Where the time goes, each step timed alone in the same process once the order texts are
known (mean µs per phase, best of 5 passes taking the steps in turn).  This machine's speed
drifts by 10-20 % between runs: so do these figures.

{split_table(f["split"], f["compiled_split"])}

{verdict}

## The compiled build

`make compiled` compiles the batch's hot path to C extensions with mypyc (part of mypy, a
test dependency): `mobadj/batch.py`, the engine's validation, resolver, retreats,
adjustments and pipeline, the reading of positions, the order records, the order parser's
fast path for everyday orders and `province_of`; the list is `[tool.mobadj] compiled` in
pyproject.toml.  They are built in place, beside their sources, which Python then no longer
runs, even after the sources are edited: run `make compiled` again then (`make test` always
does).  `make pure` removes them and `mobadj --version` says which build runs.  To install a
compiled mobadj into a virtualenv, from a checkout: `pip install mypy .` (mobadj and what it
needs), then `MOBADJ_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall
.` (gcc and the Python headers are needed).

- The two builds answer the same: `make test` runs the suite with the pure package, then
  again (all but the card games, which use none of these modules) with the compiled one, and
  the figures above come from output that is byte-identical in both.
- mypyc compiles by the annotations and checks them at run time, so each compiled module is
  type-checked with `--strict`.
- Not compiled, on purpose: the rules (`Rules` and its hooks, which a variant subclasses),
  positions (a variant's `Position` subclass may keep more state; what reads them from
  their text form is compiled, in `mobadj/engine/reading.py`), the order grammar and the
  maps.  A variant works the same on either build.  Where the rules keep a standard hook
  that does nothing or whose work the engine can do itself (`mobadj/engine/hooks.py` lists
  them), the engine skips the call into the rules; a hook a variant overrides is called.
- One difference shows only to code that patches mobadj: a compiled module calls its own
  functions directly, so replacing `mobadj.batch.adjudicate` from outside changes nothing
  there; a rules hook is the place to change behaviour.
- What keeps compiled code fast, as the compiled modules write it: a module constant read
  in every phase is `Final` (inlined, or kept in a C static, instead of looked up in the
  module's dictionary each time); a method is called as `self.resolve(o)`, never through a
  bound method kept in a local (that is a Python call); a value typed `Any` is given its
  class before its fields are read (`move = cast(Move, order)`, `units: list[Any] =
  items`); a frozen value used as a key writes out its `__hash__`; sets of provinces in
  convoy searches are bit masks whose seas and coasts take the low bits, so that they stay
  machine-sized integers.

## What a batch's start is made of

About 60 ms from process start to the first answer, of which about 20 ms is Python
itself.  The rest is imports and the map:

- A plain `mobadj batch` command line never imports click (`mobadj/batch_command.py`).
- It never imports `inspect` either: `dataclasses` imports it only to write a docstring
  for a class that has none, so the quick start puts a stand-in in its place that imports
  it on first use (`batch_command.DEFERRED`).  difflib, for did-you-mean messages, is
  imported with the first such message (`mobadj.board.close_matches`).
- The map comes from the disk cache (pickled, keyed by the YAML's hash, BLAKE2b without
  OpenSSL); networkx, YAML, Lark and the order grammar stay unloaded while the fast path
  reads every order (`mobadj.orders.fast_path_for`).  The fast path reads an everyday
  order word by word and compiles its regular expressions only for a text that needs them.
- The largest part left is the standard library's `dataclasses` writing the methods of
  the engine's records (about a hundred small functions compiled at each start).
- Once the first answer is written, what the process holds is frozen out of garbage
  collection and collections run every 100,000 objects (`batch.quiet_collector`): a
  line makes no reference cycles.
"""


SPLIT_ROWS = (
    ("read", "reading the JSON line (orjson; the json module where they differ)"),
    ("position", "reading the position (units, centres, dislodged units)"),
    ("orders", "looking up each order text (read once, then remembered)"),
    ("adjudicate", "validation, resolution, retreats to offer, next phase"),
    ("bookkeeping", "the batch's own work: power names, results back, the output "
                    "(the line without the steps above)"),
    ("write", "writing the output line (orjson)"),
    ("whole", "the whole line"),
)


def split_table(pure: dict[str, float], compiled: dict[str, float]) -> str:
    """The per-step table of :func:`split`, both builds."""
    rows = ["| step | pure, µs per phase | compiled, µs per phase |", "|---|---|---|"]
    rows += [f"| {what} | {pure[key] * 1e6:.1f} | {compiled[key] * 1e6:.1f} |"
             for key, what in SPLIT_ROWS]
    return "\n".join(rows)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--oracle-python", help="python of a virtualenv with diplomacy==1.1.2")
    ap.add_argument("--phases", type=int, default=PHASES)
    ap.add_argument("--in-process", type=Path, metavar="PHASES",
                    help="print only the warm-process figures of this file, as JSON")
    args = ap.parse_args()
    if args.in_process:
        print(json.dumps(_measure_in_process(args.in_process)))
        return
    print(section(bench_versus(args.oracle_python, args.phases)))


if __name__ == "__main__":
    main()
