"""``mobadj batch --jobs N``: the same output bytes for any N, in input order, bounded
memory, and no line lost when a worker process dies (mobadj/batch/jobs.py)."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mobadj.batch import (
    CHUNK_BYTES,
    CHUNK_LINES,
    IN_FLIGHT,
    MAX_LINE_BYTES,
    SOLO_LINES,
    WORTH_SECONDS,
    Filling,
    ReadAhead,
    free_workers,
    run_batch,
    run_parallel,
    worth_workers,
)
from mobadj.orders.corpus import broken_batch_lines
from tools.batch_sample import sample

from .killing import KILLER, assert_killers_answered, plant_killer

FORK = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """10,000 phases of both maps (tools/batch_sample.py), with broken lines among them:
    not UTF-8, not JSON, too long."""
    lines = [line.encode() for line in sample(11, 10_000)]
    for i, bad in enumerate(broken_batch_lines(11, 40)):
        lines.insert(250 * i + 17, bad)
    lines.insert(5000, b'{"id": "' + b"x" * MAX_LINE_BYTES + b'"}')
    path = tmp_path_factory.mktemp("jobs") / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.fixture(scope="module")
def one_job(mixed: Path) -> bytes:
    """``mixed`` answered by one job, in this process: the bytes every other run must write."""
    with mixed.open("rb") as source:
        out = io.BytesIO()
        run_batch(source, out, jobs=1)
    return out.getvalue()


def _batch(path: Path, *args: str) -> bytes:
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", *args, str(path)],
                          capture_output=True, timeout=600)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr[-2000:]
    return proc.stdout


def test_one_job_and_two_jobs_write_the_same_bytes(mixed: Path, one_job: bytes) -> None:
    two = _batch(mixed, "--jobs", "2")  # the command line, two worker processes
    assert one_job == two
    lines = one_job.decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) - 1 == len(mixed.read_bytes().split(b"\n")) - 1
    outs = [json.loads(line) for line in lines[:-1]]
    assert sum(bool(o["errors"]) for o in outs) > 100  # the broken lines are answered ...
    assert sum(o["next_phase"] is not None for o in outs) > 9000  # ... and the rest run
    assert {o["next_phase"][0] for o in outs if o["next_phase"]} >= {"S", "F", "W", "1"}
    assert outs[5000]["errors"][0].startswith("line 5001: too long")


def test_without_a_job_count_a_short_input_runs_here_and_zero_jobs_is_refused(
        tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text('{"id": 1, "phase": "S1901M", "units": {"France": ["A PAR"]}}\n')
    out = json.loads(_batch(path))
    assert out["id"] == 1 and out["next_phase"] == "F1901M"
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", "0", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--jobs" in proc.stderr


@pytest.mark.parametrize("free", [2, 1])
@pytest.mark.parametrize("piped", [False, True])
def test_without_a_job_count_a_long_input_goes_on_with_the_same_bytes(
        mixed: Path, one_job: bytes, monkeypatch, free: int, piped: bool) -> None:
    """No ``--jobs``: the first SOLO_LINES lines are answered here; the rest by other
    processes when two cores are free (made so here: the load average is the machine's),
    else here too: the rest of a file cut into parts (mobadj.batch.split, from the line
    after the one that showed the input goes on), a pipe's lines through the pool of
    workers.  The bytes are those of one job, the numbers of broken lines' errors
    included."""
    from mobadj.batch import jobs, split

    started: list[tuple[str, int]] = []

    def counted(how: str, run):
        def counting(*args, **kwargs):
            started.append((how, kwargs.get("start", args[-1] if how == "parts" else 1)))
            return run(*args, **kwargs)
        return counting

    monkeypatch.setattr(jobs, "free_workers", lambda: free)
    monkeypatch.setattr(jobs, "run_parallel", counted("pool", jobs.run_parallel))
    monkeypatch.setattr(split, "run_split", counted("parts", split.run_split))
    sink = io.BytesIO()
    if piped:  # fed by another process: a write end kept here would be inherited by the
        # forked workers, and the pipe would never end
        with subprocess.Popen(["cat", str(mixed)], stdout=subprocess.PIPE) as feeder:
            count = run_batch(feeder.stdout, sink, jobs=None)
    else:
        with mixed.open("rb") as source:
            count = run_batch(source, sink, jobs=None)
    assert count == one_job.count(b"\n")
    assert sink.getvalue() == one_job
    if free == 1:
        assert started == []
    else:
        assert started == ([("pool", SOLO_LINES + 1)] if piped else
                           [("parts", SOLO_LINES + 2)])


def test_workers_are_worth_it_for_a_long_file_or_a_pipe(tmp_path: Path) -> None:
    """What is left of a file, at the pace so far, must hold WORTH_SECONDS of work; a pipe
    that goes on is taken to be long; a stream without a descriptor too."""
    path = tmp_path / "cases.jsonl"
    path.write_bytes(b"x" * 99 + b"\n" + b"y" * 9_999 + b"\n")
    with path.open("rb") as source:
        source.readline()
        os.lseek(source.fileno(), 100, os.SEEK_SET)  # one line of 100 bytes read, 100 left
        assert worth_workers(source, 1, 1.0) is True  # 100 lines of 1 s left
        assert worth_workers(source, 1, WORTH_SECONDS / 200) is False  # 100 x 1/200 of it
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as pipe, os.fdopen(write_end, "wb"):
        assert worth_workers(pipe, 1000, 0.001) is True
    assert worth_workers(io.BytesIO(b"x\n"), 1, 0.0) is True
    assert 1 <= free_workers() <= len(os.sched_getaffinity(0))


def _fill(lines: list[bytes]) -> list[tuple[int, int]]:
    """(first line, lines) of the chunks ``lines`` make when every chunk is filled."""
    filling, out = Filling(), []
    for line in lines:
        filling.add(line)
        if filling.full():
            (start, chunk), _size = filling.close()
            out.append((start, len(chunk)))
    return out


def test_chunks_grow_from_one_line_and_stay_bounded() -> None:
    made = _fill([b"x" * 10] * 1000)
    assert [n for _s, n in made][:9] == [1, 2, 4, 8, 16, 32, 64, 128, 128]
    assert max(n for _s, n in made) == CHUNK_LINES
    assert [s for s, _n in made][:4] == [1, 2, 4, 8]
    assert max(n for _s, n in _fill([b"y" * (CHUNK_BYTES // 3 + 1)] * 20)) <= 3


def test_read_ahead_holds_lines_and_bytes_within_bounds() -> None:
    ahead = ReadAhead(3, 100)
    assert ahead.take(40) and ahead.take(40)
    taken = threading.Event()
    thread = threading.Thread(target=lambda: ahead.take(40) and taken.set())
    thread.start()
    assert not taken.wait(0.2)  # 120 bytes would be held
    ahead.give(1, 40)
    assert taken.wait(10)
    thread.join()
    ahead.close()
    assert not ahead.take(10**9)


def test_the_reader_never_runs_far_ahead_of_the_writer() -> None:
    """Bounded memory: lines are read only as answers are written."""
    case = json.dumps({"id": 0, "phase": "S1901M", "units": {"France": ["A PAR"]}}).encode()
    read = 0

    def source():
        nonlocal read
        for _ in range(5000):
            read += 1
            yield case

    written = 0
    worst = 0

    def write(data: bytes) -> None:
        nonlocal written, worst
        worst = max(worst, read - written)
        written += data.count(b"\n")

    assert run_parallel(source(), write, lambda: None, 2) == 5000
    assert written == 5000
    # what the workers have and the chunk being filled, and the line waiting for room
    assert worst <= (2 * IN_FLIGHT + 1) * CHUNK_LINES + 1


@pytest.mark.skipif(not FORK, reason="the fault is planted in workers forked from the test")
def test_a_line_that_kills_its_worker_is_answered_and_no_other_line_is_lost(monkeypatch) -> None:
    """The line's worker dies (SIGKILL, as from a crash or the OOM killer): that line gets an
    error line, every other line its usual answer, in order."""
    lines = [line.encode() for line in sample(12, 600)]
    reference = io.BytesIO()
    run_batch(io.BytesIO(b"\n".join(lines) + b"\n"), reference, jobs=1)
    killers = {3, 290, 291, 512}
    for i in killers:
        lines[i] = KILLER
    plant_killer(monkeypatch)  # the workers are forked: they inherit it
    sink = io.BytesIO()
    assert run_batch(io.BytesIO(b"\n".join(lines) + b"\n"), sink, jobs=2) == 600
    assert_killers_answered(sink.getvalue(), reference.getvalue(), killers)


@pytest.mark.pure_only  # (the fault is planted in the pool class of mobadj.batch.jobs)
def test_a_pool_broken_before_its_answers_are_read_loses_no_chunk(monkeypatch) -> None:
    """A worker dies and the pool refuses the next chunk before the writer has read the
    failed answer (a race: the reader thread hands a chunk over meanwhile): that chunk, too,
    is answered, by the rescue, in order."""
    from concurrent.futures.process import BrokenProcessPool

    from mobadj.batch import jobs

    refused = []
    rescues = []

    class Refusing(jobs.ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            # the workers refuse three chunks after the first; the rescue's own worker
            # takes every chunk
            if not rescues and len(refused) < 3 and args[1] > 1:
                refused.append(args[1])
                raise BrokenProcessPool("a child process terminated abruptly")
            return super().submit(fn, *args, **kwargs)

    def rescue(pending, context):
        rescues.append(len(pending))
        try:
            yield from jobs_rescue(pending, context)
        finally:
            rescues.pop()

    jobs_rescue = jobs._rescue
    monkeypatch.setattr(jobs, "ProcessPoolExecutor", Refusing)
    monkeypatch.setattr(jobs, "_rescue", rescue)
    lines = [line.encode() for line in sample(14, 300)]
    reference = io.BytesIO()
    run_batch(io.BytesIO(b"\n".join(lines) + b"\n"), reference, jobs=1)
    out: list[bytes] = []
    assert jobs.run_parallel(iter(lines), out.append, lambda: None, 2) == 300
    assert refused and b"".join(out) == reference.getvalue()


def _answer_within(proc: subprocess.Popen, seconds: float) -> dict:
    """The next output line of ``proc``, which must come within ``seconds``."""
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    assert ready, f"no answer within {seconds} s"
    return json.loads(proc.stdout.readline())


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_pipe_fed_line_by_line_is_answered_line_by_line_in_input_order(jobs: str) -> None:
    """Streaming: each line fed through a pipe is answered while the input is still open,
    the answers in input order (one job holds answers back only while more input is
    ready)."""
    lines = [line for line in sample(13, 40) if line.startswith("{")]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # output buffered
    proc = subprocess.Popen([sys.executable, "-m", "mobadj", "batch", "--jobs", jobs, "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        for line in lines[:6]:
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            assert _answer_within(proc, 60)["id"] == json.loads(line)["id"]
        proc.stdin.write("".join(line + "\n" for line in lines[6:]).encode())
        proc.stdin.close()
        ids = [json.loads(out)["id"] for out in proc.stdout.read().splitlines()]
        assert ids == [json.loads(line)["id"] for line in lines[6:]]
        assert proc.wait(60) == 0
    finally:
        proc.kill()


def test_with_two_jobs_a_bad_line_is_answered_and_the_others_run(tmp_path: Path) -> None:
    lines = [line for line in sample(14, 30) if line.startswith("{")]
    path = tmp_path / "one-bad.jsonl"
    path.write_bytes(b"\n".join([*(x.encode() for x in lines[:9]), b'{"id": 7, "units": [',
                                 *(x.encode() for x in lines[9:])]) + b"\n")
    outs = [json.loads(x) for x in _batch(path, "--jobs", "2").splitlines()]
    assert len(outs) == len(lines) + 1
    assert outs[9]["next_phase"] is None
    assert outs[9]["errors"][0].startswith("line 10: not JSON")
    rest = outs[:9] + outs[10:]
    assert [o["id"] for o in rest] == [json.loads(x)["id"] for x in lines]
    assert all(o["next_phase"] for o in rest if not o["errors"])
    assert sum(o["next_phase"] is not None for o in rest) >= len(lines) - 2


FORKS_SHOWN = ("import os, runpy, sys; "
               "os.register_at_fork(after_in_parent=lambda: os.write(2, b'forked\\n')); "
               "sys.argv[0] = 'mobadj'; runpy.run_module('mobadj', run_name='__main__')")
"""The ``mobadj`` program, which writes a line on standard error for each process it forks."""


@pytest.mark.parametrize("piped", [False, True])
def test_a_short_input_starts_no_more_processes_than_it_has_lines(tmp_path: Path,
                                                                  piped: bool) -> None:
    """``--jobs 256`` on two lines (a file, or a pipe): at most two processes are forked,
    and the answers are the bytes of one job."""
    path = tmp_path / "two.jsonl"
    path.write_text("".join(line + "\n" for line in sample(15, 2)))
    one = _batch(path, "--jobs", "1")
    how = {"input": path.read_bytes()} if piped else {"stdin": subprocess.DEVNULL}
    run = subprocess.run([sys.executable, "-c", FORKS_SHOWN, "batch", "--jobs", "256",
                          "-" if piped else str(path)], capture_output=True, timeout=120, **how)
    assert run.returncode == 0 and run.stdout == one
    assert set(run.stderr.splitlines()) <= {b"forked"} and run.stderr.count(b"\n") <= 2


@pytest.mark.parametrize("count", ["257", "100000", "9999999999"])
def test_more_jobs_than_the_most_is_one_usage_error(tmp_path: Path, count: str) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(next(sample(15, 1)) + "\n")
    run = subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", count, str(path)],
                         capture_output=True, text=True, timeout=60)
    cores = len(os.sched_getaffinity(0))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines()[-1] == (
        f"Error: Invalid value for '--jobs' / '-j': {count}: at most 256 (this machine has "
        f"{cores} core{'s' * (cores != 1)})"), run.stderr
    assert "Traceback" not in run.stderr
