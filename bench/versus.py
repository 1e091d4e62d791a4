"""``mobadj batch`` side by side with other adjudicators, and where its time goes.

Part of ``make bench`` (``python -m bench --oracle-python PY [--godip CMD] [--dipcc CMD]``).
Every adjudicator reads the same standard phases (:mod:`bench.games`: games played from the
opening position, each phase a ``mobadj batch`` line) on standard input, in a fresh
process, and writes one line per phase:

- mobadj, as pure Python (the tree as checked out; ``make bench`` removes any compiled
  modules first) and as the compiled build, made by :func:`compiled_tree` in a copy of the
  package (the working tree is left as it is), with one job and with two, each started as
  an installed mobadj starts (:func:`installed_python`);
- the ``diplomacy`` package 1.1.2 (MILA), in its own virtualenv, driven phase by phase by
  ``tools/crosscheck/mila_driver.py``; it is never installed for mobadj or its tests;
- godip and dipcc, when a command that runs them is given (``--godip``, ``--dipcc``; the
  Makefile's ``GODIP`` and ``DIPCC``, or the drivers ``make peers`` builds from their
  sources into build/peers/, bench/peers/README.md): a program that reads these lines on
  standard input and writes a line per phase.  Nothing of theirs is part of mobadj; without
  a command the row says so.

Measured:

- whole process: wall clock from start to the last output line, the best of ``ROUNDS`` (of
  ``PEER_ROUNDS`` for the slow package), all runs taken in turn round by round so that the
  machine's drift touches every side alike; and the CPU time of that run;
- first result: median time from start to the answer of a one-line input;
- ``--jobs``: 10,000 phases with one job, two jobs and no job count (both builds);
- where the time of a movement phase goes (:func:`split`): each step alone in one warm
  process, best of ``SPLIT_PASSES`` passes taking the steps in turn;
- instructions (valgrind's callgrind, where installed): per movement line in one warm
  process, each build, whole and through the steps alone (the difference is the batch
  layer's share); a count no other work on the machine can disturb.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.games import write as write_games

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tools" / "crosscheck" / "mila_driver.py"
SEED = 1
PHASES = 3000
JOB_PHASES = 10_000
ROUNDS = 5
"""Runs of each whole-process measurement, the best kept (the machine's speed drifts by
10-20 % from run to run)."""
PEER_ROUNDS = 3
"""The same for the diplomacy package (about 10 s a run)."""
SPLIT_PASSES = 12
CALLGRIND_LINES = 500
"""Movement lines counted by callgrind (each build: two runs, their difference)."""


def _mobadj(python: Path, *args: str) -> list[str]:
    """``mobadj batch`` run by ``python`` (:func:`installed_python`) from the working
    directory's package (``-m`` puts it first on the module path)."""
    return [str(python), "-m", "mobadj", "batch", *args]


def installed_python(dest: Path) -> Path:
    """A Python that starts as one with mobadj installed does: a virtualenv in ``dest`` that
    sees this one's packages (mobadj's dependencies) through a plain path file, but not its
    editable install of mobadj, whose import hook (and pathlib) a development checkout
    loads at every start and an installed mobadj never does.  mobadj itself comes from the
    working directory of each run."""
    import site
    import venv

    venv.EnvBuilder(with_pip=False, symlinks=True).create(dest)
    python = dest / "bin" / "python"
    where = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                           check=True, capture_output=True, text=True).stdout.strip()
    Path(where, "mobadj-deps.pth").write_text(
        "".join(f"{path}\n" for path in site.getsitepackages()))
    return python


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


def _piped(cmd: list[str], source: Path, cwd: Path | None = None) -> tuple[float, float, bytes]:
    """As :func:`_whole`, with ``source`` fed through a pipe by another process (``cat``):
    lines that cannot be cut ahead, as a program feeding the batch sends them."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with subprocess.Popen(["cat", str(source)], stdout=subprocess.PIPE) as feeder:
        out = subprocess.run(cmd, stdin=feeder.stdout, capture_output=True, check=True,
                             cwd=cwd).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def _together(cmd: list[str], sources: list[Path], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process of ``cmd`` per source, all started at once,
    until the last has ended: what separate processes on the cores can do at best, with
    nothing to share out or gather in."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    procs = []
    for source in sources:
        with source.open("rb") as stdin:
            procs.append(subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL,
                                          cwd=cwd))
    for proc in procs:
        assert proc.wait() == 0, f"{cmd} failed"
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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


def _peers(oracle_python: str | None, godip: str | None, dipcc: str | None
           ) -> dict[str, list[str] | None]:
    return {"mila": [oracle_python, str(DRIVER)] if oracle_python else None,
            "godip": shlex.split(godip) if godip else None,
            "dipcc": shlex.split(dipcc) if dipcc else None}


def bench_versus(oracle_python: str | None, godip: str | None = None, dipcc: str | None = None,
                 phases: int = PHASES, callgrind: bool = True) -> dict[str, Any]:
    """The figures of every side (None for a peer without its command); mobadj's for the
    pure build (keys without prefix) and the compiled one (keys prefixed ``compiled_``)."""
    from mobadj import build

    assert build() == "pure", "the pure figures need a pure tree: run make pure first"
    with tempfile.TemporaryDirectory() as tmp:
        source = write_games(Path(tmp) / "games.jsonl", SEED, phases)
        first = source.read_bytes().split(b"\n", 1)[0] + b"\n"
        tree = Path(tmp) / "compiled"
        tree.mkdir()
        compiled_tree(tree)
        python = installed_python(Path(tmp) / "venv")
        figures: dict[str, Any] = {"phases": phases, "load_start": os.getloadavg()[0]}
        runs = [(f"{prefix}jobs{jobs}", _mobadj(python, "--jobs", str(jobs), "-"), cwd)
                for prefix, cwd in (("", ROOT), ("compiled_", tree)) for jobs in (1, 2)]
        peers = _peers(oracle_python, godip, dipcc)
        outputs = set()
        timed: dict[str, list[tuple[float, float]]] = {}
        for round_ in range(ROUNDS):
            for key, cmd, cwd in runs:
                wall, cpu, out = _whole(cmd, source, cwd)
                answered = out.count(b"\n")
                assert answered == phases, f"mobadj answered {answered} of {phases} lines"
                outputs.add(out)
                timed.setdefault(key, []).append((wall, cpu))
            for name, peer in peers.items():
                if peer is None or (name == "mila" and round_ >= PEER_ROUNDS):
                    continue
                wall, cpu, out = _whole(peer, source)
                answered = out.count(b"\n")
                assert answered == phases, f"{name} answered {answered} of {phases} lines"
                timed.setdefault(name, []).append((wall, cpu))
        assert len(outputs) == 1, "the builds or job counts wrote different bytes"
        for key, cmd, cwd in runs:
            figures[key] = min(timed[key])
            figures[key.replace("jobs", "start")] = first_result(cmd, first, cwd=cwd)
        for name, peer in peers.items():
            figures[name] = min(timed[name]) if peer is not None else None
            figures[f"{name}_start"] = (first_result(peer, first, runs=3)
                                        if peer is not None else None)
        figures["load_end"] = os.getloadavg()[0]
        figures["jobs"] = bench_jobs(Path(tmp), tree, python)
        figures["split"] = split(source)
        figures["compiled_split"] = _in_tree(tree, "--split", source)
        if callgrind and shutil.which("valgrind"):
            figures["instructions"] = {
                "pure": _in_tree(None, "--instructions", source),
                "compiled": _in_tree(tree, "--instructions", source)}
    return figures


def bench_jobs(tmp: Path, tree: Path, python: Path) -> dict[str, Any]:
    """``--jobs`` on :data:`JOB_PHASES` phases: one job, two, and no job count, each build,
    taken in turn round by round (best of ``ROUNDS``), with the load average before."""
    source = write_games(tmp / "jobs.jsonl", SEED + 1, JOB_PHASES)
    runs = [(f"{prefix}{name}", _mobadj(python, *args), cwd)
            for prefix, cwd in (("", ROOT), ("compiled_", tree))
            for name, args in (("jobs1", ("--jobs", "1", "-")), ("jobs2", ("--jobs", "2", "-")),
                               ("jobs2_pipe", ("--jobs", "2", "-")), ("default", ("-",)))]
    lines = source.read_bytes().splitlines(keepends=True)
    halves = [tmp / "first-half.jsonl", tmp / "second-half.jsonl"]
    halves[0].write_bytes(b"".join(lines[:len(lines) // 2]))
    halves[1].write_bytes(b"".join(lines[len(lines) // 2:]))
    got: dict[str, Any] = {"phases": JOB_PHASES, "load": os.getloadavg()[0],
                           "cores": len(os.sched_getaffinity(0))}
    timed: dict[str, list[tuple[float, float]]] = {}
    for _ in range(ROUNDS):
        for key, cmd, cwd in runs:
            wall, cpu, _out = (_piped if key.endswith("pipe") else _whole)(cmd, source, cwd)
            timed.setdefault(key, []).append((wall, cpu))
        for prefix, cwd in (("", ROOT), ("compiled_", tree)):
            timed.setdefault(f"{prefix}halves", []).append(
                _together(_mobadj(python, "--jobs", "1", "-"), halves, cwd))
    for key in timed:
        got[key] = min(timed[key])
    got["load_end"] = os.getloadavg()[0]
    return got


def _in_tree(tree: Path | None, what: str, source: Path) -> Any:
    """``--split`` or ``--instructions`` of ``source`` measured by the mobadj of ``tree``
    (None: this checkout) in a process of its own."""
    run = subprocess.run([sys.executable, "-m", "bench.versus", what, str(source)],
                         cwd=tree or ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                         check=True, capture_output=True, text=True)
    return json.loads(run.stdout)


# ---- where the time goes ------------------------------------------------------------------------


def _movement_lines(source: Path) -> list[bytes]:
    lines = source.read_bytes().splitlines(keepends=True)
    return [line for line in lines if json.loads(line)["phase"].endswith("M")]


def split(source: Path, passes: int = SPLIT_PASSES) -> dict[str, Any]:
    """Mean CPU seconds per movement phase of each step of a batch line, in this warm process
    (each order text read before), garbage collection frozen as in a batch's own process:
    the best of ``passes`` passes, the steps taken in turn.  Each step runs alone through
    the functions the batch calls; the batch layer (power names, order texts, writing the
    output line) is timed directly by :func:`layer` (``batch``, the line less the other
    steps, is kept for comparison)."""
    import gc

    from mobadj import build
    from mobadj.batch import answer_case, answer_line, map_context, read_case
    from mobadj.engine import movement
    from mobadj.engine.pipeline import adjudicate
    from mobadj.engine.reading import position_with_retreats
    from mobadj.engine.topology import topology_for

    every = source.read_bytes().splitlines(keepends=True)
    for number, line in enumerate(every, 1):
        answer_line(line, number)  # every order text read once
    lines = _movement_lines(source)
    cases = [json.loads(line) for line in lines]
    ctx = map_context("standard")
    game_map, rules = ctx.game_map, ctx.rules
    topo = topology_for(game_map)
    positions = [position_with_retreats(case, game_map, rules) for case in cases]
    pairs = [_pairs(ctx, case) for case in cases]
    validated = [movement.add_defaults(movement.validate(pos, given, topo, rules), pos)
                 for pos, given in zip(positions, pairs, strict=True)]
    resolvers = []
    for checked in validated:
        resolver = movement.Resolver(checked.orders, topo, rules)
        resolver.run()
        resolvers.append(resolver)

    def each(step: Any, items: list[Any]) -> Any:
        def run() -> None:
            for item in items:  # nothing kept: a batch keeps no line either
                step(item)
        return run

    def validate(job: Any) -> Any:
        return movement.add_defaults(movement.validate(job[0], job[1], topo, rules), job[0])

    def resolve(checked: Any) -> None:
        movement.Resolver(checked.orders, topo, rules).run()

    def read_back(job: Any) -> Any:
        return movement.outcome(job[0], job[1])


    jobs = list(zip(positions, pairs, strict=True))
    steps = {
        "whole": each(answer_line, lines),
        "read": each(read_case, lines),
        "run": each(answer_case, cases),
        "position": each(lambda case: position_with_retreats(case, game_map, rules), cases),
        "validation": each(validate, jobs),
        "resolution": each(resolve, validated),
        "results": each(read_back, list(zip(resolvers, validated, strict=True))),
        "adjudicate": each(lambda job: adjudicate(job[0], job[1], game_map, rules), jobs),
    }
    gc.collect()
    gc.freeze()
    got = {key: float("inf") for key in steps}
    for _ in range(passes):  # the steps in turn, pass after pass: a slow spell hits them all
        for key, step in steps.items():
            t0 = time.process_time()  # this process's CPU: other work on the machine is not
            step()  # counted
            got[key] = min(got[key], (time.process_time() - t0) / len(lines))
    got["rest"] = got["adjudicate"] - got["validation"] - got["resolution"] - got["results"]
    got["batch"] = got["run"] - got["position"] - got["adjudicate"]
    got["phases"] = len(lines)

    def engine(line: bytes, given: list[tuple[str, Any]]) -> None:
        adjudicate(position_with_retreats(read_case(line), game_map, rules), given, game_map,
                   rules)

    got.update(layer(lines, pairs, answer_line, engine, passes))
    return {**got, "build": build()}


def layer(lines: list[bytes], pairs: list[Any], whole: Any, steps: Any, passes: int
          ) -> dict[str, float]:
    """The batch layer timed directly: each line answered whole (``whole(line)``) and taken
    through the other steps alone (``steps(line, its orders read before)``), one right
    after the other, which goes first taking turns from line to line and pass to pass, so
    that both find the line's data alike (timed apart, on data made before, a step finds it
    in or out of the cache by turns: the difference of such times is no measure).  Mean
    seconds per line: ``layer_line`` (whole), ``layer`` (whole less the steps)."""
    clock = time.perf_counter
    line_time = steps_time = 0.0
    for turn in range(passes):
        for i, (line, given) in enumerate(zip(lines, pairs, strict=True)):
            if (i + turn) % 2:
                t0 = clock()
                whole(line)
                t1 = clock()
                steps(line, given)
                t2 = clock()
                line_time += t1 - t0
                steps_time += t2 - t1
            else:
                t0 = clock()
                steps(line, given)
                t1 = clock()
                whole(line)
                t2 = clock()
                steps_time += t1 - t0
                line_time += t2 - t1
    count = passes * len(lines)
    return {"layer_line": line_time / count, "layer": (line_time - steps_time) / count}


def instructions(source: Path, lines: int = CALLGRIND_LINES) -> dict[str, Any]:
    """Instructions per movement line in a warm process (callgrind), deterministic: no other
    work on the machine changes them.  ``per_line``: through
    :func:`mobadj.batch.answer_line`; ``engine``: the same lines through the steps alone
    (the JSON read, the position read, the adjudication, with each line's orders read
    before); ``batch``: the difference, the batch layer's own instructions.  Each is a run
    that goes through ``lines`` movement lines twice after answering every line once, less
    one that stops there, over 2 x ``lines``."""
    from mobadj import build

    def count(reps: int, mode: str) -> int:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "callgrind.out"
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            sys.executable, "-m", "bench.versus", "--answer", str(source),
                            str(lines), str(reps), "--mode", mode],
                           check=True, capture_output=True, env=os.environ)
            for text in out.read_text(errors="replace").splitlines():
                if text.startswith("summary:") or text.startswith("totals:"):
                    return int(text.split()[1])
        raise RuntimeError("callgrind wrote no total")

    base = count(0, "line")
    whole = (count(2, "line") - base) / (2 * lines)
    engine = (count(2, "engine") - base) / (2 * lines)
    return {"build": build(), "lines": lines, "per_line": whole, "engine": engine,
            "batch": whole - engine}


def _answer_repeatedly(source: Path, lines: int, reps: int, mode: str = "line") -> None:
    """The runs :func:`instructions` counts: ``mode`` "line" answers each line, "engine"
    takes it through the steps alone.  Both answer every line once first and read the
    chosen lines' orders, so that they differ only in the repeated part."""
    import gc

    from mobadj.batch import answer_line, map_context, read_case
    from mobadj.engine.pipeline import adjudicate
    from mobadj.engine.reading import position_with_retreats

    for number, line in enumerate(source.read_bytes().splitlines(keepends=True), 1):
        answer_line(line, number)
    chosen = _movement_lines(source)[:lines]
    ctx = map_context("standard")
    game_map, rules = ctx.game_map, ctx.rules
    orders = [_pairs(ctx, read_case(line)) for line in chosen]
    gc.collect()
    gc.freeze()
    for _ in range(reps):
        if mode == "engine":
            for line, pairs in zip(chosen, orders, strict=True):
                position = position_with_retreats(read_case(line), game_map, rules)
                adjudicate(position, pairs, game_map, rules)
        else:
            for line in chosen:
                answer_line(line)


def _pairs(ctx: Any, case: dict[str, Any]) -> list[tuple[str, Any]]:
    """What the batch gives the engine for ``case``'s orders: (power id, order) pairs."""
    given = []
    for power, texts in case["orders"].items():
        for text in texts:
            reading = ctx.read(text)
            if reading.error is None and reading.group is None:
                given.append((ctx.power(power), reading.order))
    return given


# ---- the report ---------------------------------------------------------------------------------


def _s(seconds: float) -> str:
    return f"{seconds:.2f} s"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def _ms0(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms"


NAMES = {"mila": "diplomacy 1.1.2 (MILA), phase by phase", "godip": "godip (Go)",
         "dipcc": "dipcc (C++, Cicero)"}
GOALS = {"mila": 25.0, "godip": 8.0, "dipcc": 2.0}
"""What mobadj aims at against each: pure Python with one job against the diplomacy
package, the compiled build against the compiled adjudicators."""


def section(f: dict[str, Any]) -> str:
    """The "Against other adjudicators" section of docs/performance.md, and the sections
    after it (the compiled build, a batch's start)."""
    n = f["phases"]
    rows = []
    for prefix, build in (("", ""), ("compiled_", ", compiled build")):
        for jobs in (1, 2):
            wall, cpu = f[f"{prefix}jobs{jobs}"]
            start = f[f"{prefix}start{jobs}"]
            rows.append((f"`mobadj batch --jobs {jobs}`{build}", _s(wall), _s(cpu),
                         _ms0(start), _ms((wall - start) / n)))
    for name in ("mila", "godip", "dipcc"):
        if f[name] is None:
            rows.append((NAMES[name], "not measured", "", "", ""))
            continue
        wall, cpu = f[name]
        start = f[f"{name}_start"]
        rows.append((NAMES[name], _s(wall), _s(cpu), _ms0(start), _ms((wall - start) / n)))
    table = "\n".join(
        ["| run | whole process (wall) | CPU | first result | per phase |", "|---|---|---|---|---|"]
        + ["| " + " | ".join(r) + " |" for r in rows])
    verdicts = []
    for name, ours, build in (("mila", "jobs1", "pure Python, one job"),
                              ("godip", "compiled_jobs1", "the compiled build, one job"),
                              ("dipcc", "compiled_jobs1", "the compiled build, one job")):
        if f[name] is None:
            verdicts.append(f"| {NAMES[name]} | {build} | not measured (no command given) "
                            f"| {GOALS[name]:g}x | |")
            continue
        wall, cpu = f[name]
        by_wall, by_cpu = wall / f[ours][0], cpu / f[ours][1]
        met = ("yes" if min(by_wall, by_cpu) >= GOALS[name]
               else "by CPU only" if by_cpu >= GOALS[name]
               else "by wall clock only" if by_wall >= GOALS[name] else "no")
        verdicts.append(f"| {NAMES[name]} | {build} | **{by_wall:.1f}x** wall, "
                        f"{by_cpu:.1f}x CPU | {GOALS[name]:g}x | {met} |")
    ratios = "\n".join(["| against | mobadj | faster by | goal | met |",
                        "|---|---|---|---|---|", *verdicts])
    return f"""## Against other adjudicators

`make bench` (`bench/versus.py`) runs `mobadj batch` and the other adjudicators on the same
{n:,} standard phases (`bench/games.py`, seed {SEED}: games played from the opening position
with random but legal-looking orders, so every home centre stays owned and positions hold 20
to 34 units: {f.get("kinds", "movement, retreat and adjustment phases")}), each in a fresh
process reading the file on standard input.  mobadj runs as pure Python and as the optional
compiled build ([below](#the-compiled-build)); both write the same bytes with one job and
with two.  Whole process: best of {ROUNDS} runs ({PEER_ROUNDS} for the diplomacy package),
every run once a round, round after round, so that the machine's drift touches every side
alike (load average {f["load_start"]:.1f} at the start, {f["load_end"]:.1f} at the end);
first result: median time from start to the answer of a one-line input; per phase: (whole -
first result) / phases.

The other adjudicators: the `diplomacy` package 1.1.2 (MILA; in its own virtualenv, driven
by `tools/crosscheck/mila_driver.py`, which sets up a `Game` from each line and processes
it); godip, the Go adjudicator behind diplicity (map graph built once), and dipcc, the C++
engine of Cicero (its game state and adjudicator, built with -O3), each through our small
driver that reads the same lines and writes a line per phase (`bench/peers/`: `make peers
GODIP_SRC=... DIPCC_SRC=...` builds them from their sources when a Go toolchain, a C++
compiler, glog and pybind11's headers are at hand; `make bench GODIP=... DIPCC=...` takes
other commands).  mobadj's source holds nothing of theirs; a peer that could not be built
is "not measured".

How far their verdicts agree with mobadj's is counted apart (`python -m bench.peers.agree`;
the bench counts time, not verdicts): on the bench's 3,000 phases godip leaves the board as
mobadj does in 2,913 and dipcc in 2,931.  bench/peers/README.md names the cause of every
other phase, and none is an error of mobadj's: `VIA CONVOY` moves that the peers take over
land when no convoy carries them (DATC 2's preference; mobadj follows DATC 3.0, and its
option `adjacent_convoy=fallback` reads them as the peers do); head-to-head battles with a
support against the supporter's own unit, and supports cut by a convoyed army, that godip
decides against the DATC (6.E.6, 6.E.12; DATC 5); and supports against a convoying fleet
that dipcc decides against it (6.F.14).

{table}

{ratios}

{jobs_section(f["jobs"])}

{split_section(f)}

{BUILD_SECTIONS}"""


BUILD_SECTIONS = """## The compiled build

`make compiled` compiles the batch's hot path to C extensions with mypyc (part of mypy, a
test dependency): the batch's runner, writer, line reader and stream (`mobadj/batch/`), the
engine's validation, resolver, retreats, adjustments and pipeline, the reading of positions,
the order records, the order parser's fast path for everyday orders and `province_of`; the
list is `[tool.mobadj] compiled` in pyproject.toml.  They are built in place, beside their
sources, which Python then no longer runs, even after the sources are edited: run `make
compiled` again then (`make test` always does).  `make pure` removes them and `mobadj
--version` says which build runs.  To install a compiled mobadj into a virtualenv, from a
checkout: `pip install mypy .` (mobadj and what it needs), then `MOBADJ_COMPILE=1 pip install
--no-build-isolation --no-deps --force-reinstall .` (gcc and the Python headers are needed).

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
  functions directly, so replacing `mobadj.batch.runner.adjudicate` from outside changes nothing
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

About 50 ms from process start to the first answer, of which about 9 ms is Python itself
(an installed mobadj; the editable install of a development checkout loads an import hook
and pathlib first, about 8 ms more).  The rest is imports and the map:

- A plain `mobadj batch` command line never imports click (`mobadj/batch/command.py`).
- It never imports `inspect` either: `dataclasses` imports it only to write a docstring
  for a class that has none, so the quick start puts a stand-in in its place that imports
  it on first use (`mobadj.batch.command.DEFERRED`).  difflib, for did-you-mean messages, is
  imported with the first such message (`mobadj.board.close_matches`).
- The map comes from the disk cache (pickled, keyed by the YAML's hash, BLAKE2b without
  OpenSSL); networkx, YAML, Lark and the order grammar stay unloaded while the fast path
  reads every order (`mobadj.orders.fast_path_for`).  The fast path reads an everyday
  order word by word and compiles its regular expressions only for a text that needs them.
- typing_extensions (about 10 ms to import, with `inspect`) is never imported: only the
  type checker reads the defaults of the engine's type variables
  (`mobadj.engine.position`).
- The values every line makes and reads (orders, units on the board, dislodged units,
  phases: `mobadj.records`) and the outcomes of a phase write their methods out.
  `dataclasses` writes a class's methods as text and compiles them at every start, about
  half a millisecond a class: 18 of them were a fifth of a batch's start.  Counted by
  callgrind (instructions, which the machine's load does not change), a compiled batch's
  start to its first answer went from 264 M to 215 M instructions.  The eight dataclasses
  left on the way (a map's provinces and powers, the rules, a position, ...) are ones a
  variant extends or `dataclasses.replace` copies: about 4 ms.
- The largest parts left are orjson's own imports (`datetime`, `uuid`: about 8 ms) and
  `pathlib` with `urllib.parse` (about 3 ms), which the map's loader and the disk cache use.
- Once the first answer is written, what the process holds is frozen out of garbage
  collection and collections run every 100,000 objects (`mobadj.batch.quiet_collector`): a
  line makes no reference cycles.
"""
"""The sections of docs/performance.md after the measured one: how the compiled build is made
and what a batch's start is made of."""


def jobs_section(j: dict[str, Any]) -> str:
    rows = []
    for prefix, build in (("", "pure"), ("compiled_", "compiled")):
        one = j[f"{prefix}jobs1"]
        for key, what in (("jobs1", "`--jobs 1`"), ("jobs2", "`--jobs 2`"),
                          ("jobs2_pipe", "`--jobs 2`, the lines through a pipe"),
                          ("default", "no `--jobs`")):
            wall, cpu = j[f"{prefix}{key}"]
            rows.append(f"| {build} | {what} | {_s(wall)} | {_s(cpu)} | {one[0] / wall:.2f}x |")
        wall, cpu = j[f"{prefix}halves"]
        rows.append(f"| {build} | two `--jobs 1` processes at once, half the phases each "
                    f"(the ceiling) | {_s(wall)} | {_s(cpu)} | {one[0] / wall:.2f}x |")
    return f"""### Worker processes (`--jobs`)

{j["phases"]:,} phases (`bench/games.py`, seed {SEED + 1}), whole process reading the file
on standard input (or, on the "pipe" rows, from `cat` through a pipe), best of {ROUNDS}
taken in turn; {j["cores"]} cores, load average {j["load"]:.1f} before and
{j["load_end"]:.1f} after (a load near the core count means the workers share their cores
with other work: then they cannot pay).  The ceiling for two jobs on this machine is what
two separate processes do at once, each with half the phases and nothing to share out or
gather in: two processes on the two cores each run slower than one alone (they share the
memory and the caches), so even they are short of twice as fast.

A file is cut into one part per job at line breaks (`mobadj.batch.split`): the batch's own
process answers the first part and writes as it goes, processes forked from it answer the
others into temporary files, which the kernel then copies to the output in turn; nothing
goes through a pipe between them, so two jobs come near the ceiling.  Lines that come
through a pipe cannot be cut ahead: they go to a pool of workers in chunks
(`mobadj.batch.jobs`), and the batch's process, which shares them out and writes every
answer, takes part of a core.

| build | jobs | whole process (wall) | CPU | faster than one job |
|---|---|---|---|---|
{chr(10).join(rows)}

Without `--jobs`, a batch answers its first {_solo_lines():,} lines itself; when the input
goes on (a file with at least {_worth():g} s of work left at the pace so far, or a pipe) and
the cores it may use less the load average leave two free, other processes answer the rest,
one per free core, as above (`mobadj.batch.jobs.free_workers`, `worth_workers`)."""


def _solo_lines() -> int:
    from mobadj.batch import SOLO_LINES

    return SOLO_LINES


def _worth() -> float:
    from mobadj.batch import WORTH_SECONDS

    return WORTH_SECONDS


SPLIT_ROWS = (
    ("read", "reading the JSON line (orjson; the json module where they differ)"),
    ("position", "reading the position (units, centres, dislodged units)"),
    ("validation", "validation (adjacency, coasts, convoy routes, owners) and default holds"),
    ("resolution", "resolution (DATC 5: every move, support and convoy decided)"),
    ("results", "reading the results back (reasons, dislodged units, retreats, standoffs)"),
    ("rest", "the rest of the adjudication (execution, the next phase, centres)"),
    ("batch", "the batch layer: power names, order texts, the output line written as JSON"),
    ("whole", "the whole line"),
)


def split_section(f: dict[str, Any]) -> str:
    pure, compiled = f["split"], f["compiled_split"]
    rows = []
    for key, what in SPLIT_ROWS:
        if key == "batch":
            rows.append(f"| {what} | {pure['layer'] * 1e6:.1f} | "
                        f"{compiled['layer'] * 1e6:.1f} |")
        else:
            rows.append(f"| {what} | {pure[key] * 1e6:.1f} | {compiled[key] * 1e6:.1f} |")
    counted = ""
    if "instructions" in f:
        p, c = f["instructions"]["pure"], f["instructions"]["compiled"]
        counted = f"""

Instructions per movement line, counted by callgrind ({p['lines']} lines, each order text
read before; no other work on the machine changes these): **{p['per_line'] / 1e3:,.0f} k**
pure, **{c['per_line'] / 1e3:,.0f} k** compiled, JSON in and out included.  Of these, the
batch layer's own (the line answered whole less the same line taken through the other
steps alone) are {p['batch'] / 1e3:,.0f} k pure ({p['batch'] / p['per_line']:.0%}) and
{c['batch'] / 1e3:,.0f} k compiled ({c['batch'] / c['per_line']:.0%}): its share of the
time is larger than its share of the instructions, as it reads what a batch remembers (the
entries of order texts, the powers' spellings, JSON texts) from memory the adjudication has
used in between."""
    return f"""### Where the time of a movement phase goes

Each step timed alone in one warm process (its CPU time), every order text read before,
garbage collection frozen as in a batch's own process; mean µs per movement phase
({pure["phases"]:,} of them), best of {SPLIT_PASSES} passes taking the steps in turn.  This
machine's speed drifts by 10-20 % between runs: so do these figures.

The batch layer is timed directly (`bench.versus.layer`): each line answered whole and,
right before or right after (taking turns), taken through the other steps alone (JSON
read, position read, adjudication); the row is the mean difference (the lines answered so
took {pure['layer_line'] * 1e6:.1f} µs pure, {compiled['layer_line'] * 1e6:.1f} µs
compiled).  The whole line less the other steps' times taken apart cannot tell it: a step
timed alone on positions read before finds its data in or out of the cache by turns, and
that difference, on the same file on two runs of one day, came out at 31 and 58 µs pure
(here {pure['batch'] * 1e6:.1f} µs pure, {compiled['batch'] * 1e6:.1f} µs compiled).

| step | pure, µs | compiled, µs |
|---|---|---|
{chr(10).join(rows)}{counted}"""


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--oracle-python", help="python of a virtualenv with diplomacy==1.1.2")
    ap.add_argument("--godip", help="a command running godip on batch lines (stdin)")
    ap.add_argument("--dipcc", help="a command running dipcc on batch lines (stdin)")
    ap.add_argument("--phases", type=int, default=PHASES)
    ap.add_argument("--split", type=Path, metavar="PHASES",
                    help="print only where the time goes, for this file, as JSON")
    ap.add_argument("--instructions", type=Path, metavar="PHASES",
                    help="print only the callgrind count per line of this file, as JSON")
    ap.add_argument("--answer", nargs=3, metavar=("PHASES", "LINES", "REPS"),
                    help="the run --instructions counts")
    ap.add_argument("--mode", choices=("line", "engine"), default="line",
                    help="with --answer: answer each line, or take it through the steps alone")
    args = ap.parse_args()
    if args.split:
        print(json.dumps(split(args.split)))
        return
    if args.instructions:
        print(json.dumps(instructions(args.instructions)))
        return
    if args.answer:
        _answer_repeatedly(Path(args.answer[0]), int(args.answer[1]), int(args.answer[2]),
                           args.mode)
        return
    print(section(bench_versus(args.oracle_python, args.godip, args.dipcc, args.phases)))


if __name__ == "__main__":
    main()
