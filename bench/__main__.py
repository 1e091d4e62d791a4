"""``make bench``: measure the adjudicator and write docs/performance.md.

Four measurements, every random element drawn from a seeded random.Random:

1. resolution of random full movement phases (20-34 units, orders already parsed):
   the resolver alone (DATC 5 decisions) and the whole movement adjudication from parsed
   orders (validation, defaults, resolver, per-order results, dislodgements and retreats);
2. the 164 DATC positions through the complete turn pipeline;
3. order parsing (lines per second, no cache);
4. ``mobadj batch`` on 10,000 mixed phases (80 % movement, 10 % retreat, 10 % adjustment)
   in a fresh process, start-up included;
5. ``mobadj batch`` against the ``diplomacy`` package, and godip and dipcc where a command
   runs them, on the same 3,000 standard phases, with where a phase's time goes
   (bench/versus.py; ``--oracle-python``: the package's virtualenv, made by ``make bench``;
   ``--godip``, ``--dipcc``: the commands).
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import yaml

from bench.versus import _mobadj, bench_versus, installed_python, section
from mobadj.board.loader import load_map
from mobadj.engine import movement
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import position_from_data
from mobadj.engine.rules import Rules
from mobadj.engine.scenarios import random_case, random_orders, random_position
from mobadj.engine.topology import topology_for
from mobadj.orders.parser import parse_order, parse_orders

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261122


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def bench_resolution(game_map, n_phases: int = 2000, reps: int = 5) -> dict[str, float]:
    """Median (best of ``reps`` per phase) over random movement phases."""
    topo = topology_for(game_map)
    rules = Rules()
    rng = random.Random(SEED)
    phases = []
    for i in range(n_phases):
        n_units = 34 if i % 2 == 0 else rng.randint(20, 33)
        pos = random_position(game_map, rng, n_units)
        orders = [(p, parse_order(t, game_map)) for p, t in random_orders(pos, topo, rng)]
        phases.append((len(pos.units), pos, orders))
    resolve_t: dict[str, list[float]] = {"34": [], "all": []}
    full_t: dict[str, list[float]] = {"34": [], "all": []}
    pipeline_t: list[float] = []
    clock = time.perf_counter
    for n_units, pos, orders in phases:
        best_r = best_f = best_p = 1e9
        for _ in range(reps):
            t0 = clock()
            v = movement.add_defaults(movement.validate(pos, orders, topo, rules), pos)
            t1 = clock()
            r = movement.Resolver(v.orders, topo, rules)
            r.run()
            t2 = clock()
            movement.outcome(r, v)
            t3 = clock()
            adjudicate(pos, orders, game_map, rules)
            t4 = clock()
            best_r = min(best_r, t2 - t1)
            best_f = min(best_f, t3 - t0)
            best_p = min(best_p, t4 - t3)
        key = "34" if n_units == 34 else "other"
        for store, value in ((resolve_t, best_r), (full_t, best_f)):
            store["all"].append(value)
            if key == "34":
                store["34"].append(value)
        pipeline_t.append(best_p)
    med = statistics.median
    return {
        "phases": n_phases,
        "resolve_34": med(resolve_t["34"]),
        "resolve_all": med(resolve_t["all"]),
        "resolve_p90": statistics.quantiles(resolve_t["all"], n=10)[-1],
        "full_34": med(full_t["34"]),
        "full_all": med(full_t["all"]),
        "pipeline_all": med(pipeline_t),
    }


def bench_datc(game_map, rounds: int = 20) -> dict[str, float]:
    """Phases per second over the 164 DATC positions (orders parsed once)."""
    cases = []
    for path in sorted((ROOT / "tests" / "datc").glob("6*.yaml")):
        for case in yaml.safe_load(path.read_text()):
            text = "\n".join(line.partition(" => ")[0] for line in case["orders"])
            cases.append((position_from_data(case, game_map), parse_orders(text, game_map).orders))
    t0 = time.perf_counter()
    for _ in range(rounds):
        for pos, orders in cases:
            adjudicate(pos, orders, game_map)
    elapsed = time.perf_counter() - t0
    n = rounds * len(cases)
    return {"cases": len(cases), "per_phase": elapsed / n, "per_second": n / elapsed}


def bench_parsing(game_map, n_lines: int = 20000) -> dict[str, float]:
    """Order lines per second through parse_orders (a fresh text, no cache)."""
    topo = topology_for(game_map)
    rng = random.Random(SEED + 1)
    lines: list[str] = []
    while len(lines) < n_lines:
        pos = random_position(game_map, rng, 34)
        lines.extend(text for _p, text in random_orders(pos, topo, rng))
    text = "\n".join(lines[:n_lines])
    t0 = time.perf_counter()
    result = parse_orders(text, game_map)
    elapsed = time.perf_counter() - t0
    return {"lines": n_lines, "per_second": n_lines / elapsed, "errors": len(result.errors)}


def bench_batch(game_map, n_cases: int = 10000) -> dict[str, float]:
    """``mobadj batch`` on ``n_cases`` mixed phases in a new process (start-up included)."""
    rng = random.Random(SEED + 2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cases.jsonl"
        with path.open("w") as f:
            for i in range(n_cases):
                f.write(json.dumps(random_case(game_map, rng, f"case-{i}")) + "\n")
        cmd = _mobadj(installed_python(Path(tmp) / "venv"), "--jobs", "1", str(path))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        start_t0 = time.perf_counter()
        subprocess.run([*cmd[:-1], os.devnull], capture_output=True, check=True, cwd=ROOT)
        startup = time.perf_counter() - start_t0
        from mobadj.batch import run_batch

        sink = open(os.devnull, "w")  # noqa: SIM115 - closed below
        cpu0 = time.process_time()
        with path.open() as src:
            run_batch(src, sink)
        in_process = (time.process_time() - cpu0) / n_cases
        sink.close()
    lines = out.splitlines()
    errors = sum(1 for line in lines if json.loads(line)["errors"])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cases": n_cases, "lines": len(lines), "wall": wall, "cpu": cpu,
            "startup": startup, "with_errors": errors, "in_process": in_process}


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Measure mobadj; write docs/performance.md.")
    ap.add_argument("--oracle-python",
                    help="python of a virtualenv with diplomacy==1.1.2 (the comparison)")
    ap.add_argument("--godip", help="a command running godip on batch lines (bench/versus.py)")
    ap.add_argument("--dipcc", help="a command running dipcc on batch lines (bench/versus.py)")
    args = ap.parse_args()
    game_map = load_map("standard")
    load = os.getloadavg()[0]
    print("resolution ...", flush=True)
    res = bench_resolution(game_map)
    print("DATC ...", flush=True)
    datc = bench_datc(game_map)
    print("parsing ...", flush=True)
    parsing = bench_parsing(game_map)
    print("batch ...", flush=True)
    batch = bench_batch(game_map)
    print("against other adjudicators ...", flush=True)
    versus = bench_versus(args.oracle_python, args.godip, args.dipcc)
    load_end = os.getloadavg()[0]
    rows = [
        ("resolution alone, 34-unit movement phase (median)", _ms(res["resolve_34"]),
         "<= 0.2 ms"),
        ("resolution alone, 20-34 units (median / 90th percentile)",
         f"{_ms(res['resolve_all'])} / {_ms(res['resolve_p90'])}", ""),
        ("movement adjudication from parsed orders, 34 units (median)", _ms(res["full_34"]), ""),
        ("movement adjudication from parsed orders, 20-34 units (median)",
         _ms(res["full_all"]), ""),
        ("complete `adjudicate()` turn (also executes, scores, next phase), 20-34 units",
         _ms(res["pipeline_all"]), ""),
        (f"DATC positions through `adjudicate()` ({datc['cases']} cases)",
         f"{datc['per_second']:,.0f} phases/s ({_ms(datc['per_phase'])} each)", ""),
        ("order parsing, `parse_orders` without cache",
         f"{parsing['per_second']:,.0f} lines/s", ">= 50,000 lines/s"),
        (f"`mobadj batch --jobs 1`, {batch['cases']:,} mixed phases, wall clock incl. start-up",
         f"{batch['wall']:.2f} s", "< 10 s"),
        ("`mobadj batch`, CPU time of that run", f"{batch['cpu']:.2f} s", ""),
        ("`mobadj` start-up alone (empty input)", f"{batch['startup']:.2f} s", ""),
        ("batch in one warm process: CPU time per phase (JSON in and out included)",
         _ms(batch["in_process"]), ""),
    ]
    table = "\n".join(
        ["| measurement | figure | target |", "|---|---|---|"]
        + [f"| {a} | {b} | {c} |" for a, b, c in rows]
    )
    report = f"""# Performance

Measured by `make bench` (`python -m bench`, seed {SEED}) on this machine:
{os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.system()} {platform.machine()};
load average {load:.1f} at the start and {load_end:.1f} at the end (other work was running
when the load is above ~1; wall-clock figures then suffer, CPU figures much less).

{table}

What is measured:

- *Resolution alone* is the resolver (`movement.Resolver(...).run()`: every MOVE, SUPPORT
  and CONVOY decision by Kruijswijk's guess-and-check, DATC 5) on orders already parsed and
  validated; {res['phases']:,} random phases (half of them with 34 units), each the best of
  5 runs, median over phases.
- *Movement adjudication from parsed orders* adds validation (adjacency, coasts, convoy
  routes, unit ownership), default holds and reading the results back (per-order reasons,
  dislodged units with their retreats, standoffs).
- The batch input is {batch['cases']:,} random phases (80 % movement with 20-34 units, 10 %
  retreats, 10 % adjustments); {batch['lines']:,} output lines, {batch['with_errors']} of them
  with errors (every order in the generated file is readable).
- Phases are generated by `mobadj/engine/scenarios.py`: each unit holds, moves, supports a
  neighbour's hold or move, convoys or is convoyed, so bounces, cuts, head-to-head battles,
  dislodgements and convoys all occur.
- Start-up figures are for installed code: `make bench` compiles the package to bytecode
  first (where PYTHONDONTWRITEBYTECODE is set, a run that compiles every module on start
  takes about 60 ms more), and runs `python -m mobadj` from a virtualenv that sees
  mobadj's dependencies but not the checkout's editable install, whose import hook an
  installed mobadj never loads (`bench.versus.installed_python`).  A plain `mobadj batch`
  command line starts without click (`mobadj/batch/command.py`; click reads every other
  command line).
"""
    if batch["wall"] > 10 and batch["cpu"] < 10:
        report += (
            f"\nThe batch's wall-clock time above was taken with other work running (load "
            f"average up to {max(load, load_end):.1f} on {os.cpu_count()} CPUs); the process "
            f"itself needed {batch['cpu']:.2f} s of CPU, start-up included, about what the "
            "run takes on an otherwise idle machine.\n"
        )
    report += "\n" + section(versus)
    out = ROOT / "docs" / "performance.md"
    out.write_text(report)
    print(report)


if __name__ == "__main__":
    main()
