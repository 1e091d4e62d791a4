"""A batch's stream: input lines in, output lines out, in order, each line on its own.

Every line of a batch, however it runs (one process, worker processes, a distributed engine
mapping it over files), is answered by :func:`answer_line`.  :func:`run_batch` reads a file
or pipe line by line and writes the answers as they come; with more than one job the lines
go to other processes, with the same output bytes: the rest of a file is cut into parts
(mobadj.batch.split), the lines of a pipe go to a pool of workers (mobadj.batch.jobs).
"""

from __future__ import annotations

import gc
import io
import itertools
import json
import os
import select
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, Final

from mobadj.batch.reading import (
    MAX_LINE_BYTES,
    SkippedLine,
    cr_inside,
    read_case,
    read_lines,
    too_long,
)
from mobadj.batch.runner import answer_case
from mobadj.batch.serialize import empty_output, json_line

__all__ = ["COLLECT_EVERY", "OUTPUT_CHUNK", "SOLO_LINES", "answer_line", "cores",
           "quiet_collector", "run_batch", "run_here", "run_lines"]


def answer_line(line: str | bytes | SkippedLine, number: int = 1) -> bytes:
    """What ``mobadj batch`` writes for one input line, line ``number`` of its input: the
    output line, UTF-8 encoded, with its line break.  Every line of a batch goes through
    here, however it runs: one process, ``--jobs N``, or a distributed engine mapping it
    over the lines of JSONL files (docs/performance.md)."""
    if not isinstance(line, SkippedLine) and len(line) > MAX_LINE_BYTES:
        line = too_long(line)
    try:
        case = read_case(line)
    except ValueError as exc:
        why = str(exc)  # ("column 12: ..." is said as "line 7, column 12: ...")
        where = f"line {number}, " if why.startswith("column ") else f"line {number}: "
        return json_line(empty_output(None, None, [f"{where}{why}{cr_inside(line)}"]))
    except Exception as exc:  # e.g. MemoryError: this line's answer, not the batch's end
        return json_line(empty_output(None, None, [f"line {number}: internal error: "
                                                   f"{type(exc).__name__}: {exc}"]))
    return answer_case(case)


def run_lines(lines: Iterable[str | bytes | SkippedLine], start: int = 1
              ) -> Iterator[dict[str, Any]]:
    """One output object per input line (blank lines included, as errors); ``lines`` may be
    text or bytes (each bytes line is decoded on its own); the first is line ``start`` of
    the input (error messages name lines)."""
    for number, line in enumerate(lines, start):
        out: dict[str, Any] = json.loads(answer_line(line, number))
        yield out


def _writer(sink: IO[Any]) -> tuple[Callable[[bytes], Any], Callable[[], Any]]:
    """(write UTF-8 bytes to ``sink`` whatever its own encoding, flush it)."""
    if isinstance(sink, io.TextIOBase):
        buffer = getattr(sink, "buffer", None)
        if buffer is None:
            def write_text(data: bytes) -> Any:
                return sink.write(data.decode("utf-8"))

            return write_text, sink.flush
        sink.flush()
        return buffer.write, buffer.flush
    return sink.write, getattr(sink, "flush", _no_flush)


def _no_flush() -> None:
    """The flush of a sink that has none."""


def cores() -> int:
    """The cores this process may run on (``mobadj batch``'s default number of jobs)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_batch(source: IO[Any], sink: IO[Any] = sys.stdout, jobs: int | None = 1,
              own_process: bool = False) -> int:
    """Read JSON lines from ``source``, write results to ``sink``; returns the line count.
    Either may be a text or a binary file.  ``jobs`` > 1 adjudicates in that many worker
    processes (mobadj.batch.jobs), with the same output.  The first result is flushed at
    once (a reader sees it while the rest runs).

    ``jobs`` None: as many as pay.  This process answers the first :data:`SOLO_LINES`
    lines; when the input goes on, long enough to be worth starting workers for
    (:func:`mobadj.batch.jobs.worth_workers`), and two cores or more are free
    (:func:`mobadj.batch.jobs.free_workers`), worker processes answer the rest.

    ``own_process``: the batch is all this process does (``mobadj batch``), so what it holds
    once the map is loaded (code, map, parser) is frozen out of garbage collection, and
    collections are rare (:func:`quiet_collector`)."""
    write, flush = _writer(sink)
    lines = read_lines(source)
    waits = _input_waits(source)
    if jobs is None:
        clock = time.perf_counter()
        n = run_here(lines, write, flush, waits, own_process, stop=SOLO_LINES)
        if n == SOLO_LINES:
            flush()
            more = next(lines, None)  # (on a pipe: waits for the next line)
            if more is not None:
                n += _run_rest(more, lines, source, sink, write, flush, waits, own_process, n,
                               time.perf_counter() - clock)
    elif jobs > 1:
        n = _run_jobs(lines, source, sink, write, flush, waits, jobs, own_process, 1)
    else:
        n = run_here(lines, write, flush, waits, own_process)
    flush()
    return n


SOLO_LINES: Final = 1000
"""Lines a batch without a job count answers in its own process before it weighs starting
workers (about a tenth of a second of work): a short batch never starts them."""


def _run_rest(more: str | bytes | SkippedLine, lines: Iterator[str | bytes | SkippedLine],
              source: IO[Any], sink: IO[Any], write: Callable[[bytes], Any],
              flush: Callable[[], Any], waits: Callable[[], bool], own_process: bool,
              done: int, took: float) -> int:
    """The lines after the first ``done`` (which took ``took`` seconds here), ``more`` the
    first of them: in worker processes when that pays, else here."""
    from mobadj.batch.jobs import free_workers, worth_workers

    workers = free_workers()
    if workers > 1 and worth_workers(source, done, took):
        if _split_file(source) is not None:  # the rest of a file: cut from the next line
            write(answer_line(more, done + 1))
            return 1 + _run_jobs(lines, source, sink, write, flush, waits, workers,
                                 own_process, done + 2)
        return _run_jobs(itertools.chain((more,), lines), source, sink, write, flush, waits,
                         workers, own_process, done + 1)
    return run_here(itertools.chain((more,), lines), write, flush, waits, own_process,
                    start=done + 1)


def _split_file(source: IO[Any]) -> tuple[int, int] | None:
    """(descriptor, offset of the next line) of a file whose lines may be cut into parts
    (mobadj.batch.split), else None."""
    from mobadj.batch.split import file_at, forks

    return file_at(source) if forks() else None


def _run_jobs(lines: Iterator[str | bytes | SkippedLine], source: IO[Any], sink: IO[Any],
              write: Callable[[bytes], Any], flush: Callable[[], Any],
              waits: Callable[[], bool], jobs: int, own_process: bool, start: int) -> int:
    """``lines`` (the first is line ``start`` of the input) over ``jobs`` processes: the
    rest of a file cut into parts (mobadj.batch.split), else through the pool of
    mobadj.batch.jobs (a pipe, a file too short to cut)."""
    at = _split_file(source)
    if at is not None:
        from mobadj.batch.split import copier, run_split

        n = run_split(at[0], at[1], write, flush, copier(sink, write), jobs, own_process,
                      start)
        if n is not None:
            return n
    from mobadj.batch.jobs import run_parallel

    return run_parallel(lines, write, flush, jobs, own_process, start=start, waits=waits)


OUTPUT_CHUNK: Final = 1 << 18
"""Bytes of answers one job holds back and then writes at once: a reader at the other end
of a pipe is woken a few times per megabyte instead of at every 8 KB."""


def run_here(lines: Iterable[str | bytes | SkippedLine], write: Callable[[bytes], Any],
             flush: Callable[[], Any], waits: Callable[[], bool], own_process: bool,
             start: int = 1, stop: int = 0) -> int:
    """``--jobs 1``: answer each line in this process (the first is line ``start`` of the
    input; ``stop``: at most that many lines, else all); returns how many lines.  The first
    answer is written at once; the next ones by :data:`OUTPUT_CHUNK`, and whenever reading
    on would wait for input (``waits``), so that a program feeding lines one at a time
    through a pipe reads each answer before it sends the next line."""
    n = 0
    held: list[bytes] = []
    size = 0
    try:
        for line in lines:
            answer = answer_line(line, start + n)
            n += 1
            if n == 1 and start == 1:
                write(answer)
                flush()
                if own_process:
                    quiet_collector()
            else:
                held.append(answer)
                size += len(answer)
                if size >= OUTPUT_CHUNK or waits():
                    write(b"".join(held))
                    held.clear()
                    size = 0
                    flush()
            if n == stop:
                break
    finally:  # the answers made are written, even when reading the input fails
        if held:
            write(b"".join(held))
    return n


COLLECT_EVERY: Final = 100_000
"""Objects made (and not yet freed) between two collections of a batch's own process: its
lines make no reference cycles (movement orders drop their links once read), so the usual
700 runs a collection that finds nothing about every ten lines; a collection still runs now
and then, which keeps any cyclic garbage bounded."""


def quiet_collector() -> None:
    """For a process that is only a batch: what it holds now (code, maps, parsers) is frozen
    out of garbage collection (``gc.freeze``), and collections run every
    :data:`COLLECT_EVERY` objects."""
    gc.freeze()
    gc.set_threshold(COLLECT_EVERY, *gc.get_threshold()[1:])


def _input_waits(source: IO[Any]) -> Callable[[], bool]:
    """A test whether reading ``source`` on would now wait: a pipe or a terminal with no
    bytes ready.  A file never waits, nor does a stream without a file descriptor."""
    try:
        fd = source.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return never_waits
    if regular:
        return never_waits

    def waits() -> bool:
        try:
            ready, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError):  # no select on this descriptor: take it as waiting
            return True
        return not ready

    return waits


def never_waits() -> bool:
    """The input never waits."""
    return False
