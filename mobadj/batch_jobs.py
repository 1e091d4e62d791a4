"""``mobadj batch --jobs N``: one batch over N worker processes, with the same output bytes.

The parent reads the input line by line (:func:`mobadj.batch.read_lines`: no line is held
beyond :data:`~mobadj.batch.MAX_LINE_BYTES`) and hands the lines out in chunks; a worker
answers a chunk with :func:`mobadj.batch.answer_line` for each line, as ``--jobs 1`` does,
and the parent writes the answers in input order.  Each line's answer depends on that line
alone, so the output is the same for any N.  At most
:data:`IN_FLIGHT` chunks per worker are out at a time: memory stays bounded however long
the input.  Chunks start at one line and double up to :data:`CHUNK_LINES`, so the first
result comes at once.

A worker that dies (a crash in C code, the out-of-memory killer, a signal) loses no line:
the chunks it and its fellows had in hand are run again, one after the other in a fresh
process; a chunk that kills that process too is run line by line, and a line whose run kills
its process is answered with an error line of its own.  The other lines are answered as
always.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from mobadj.batch import Unreadable, answer_line, empty_output, json_line, map_context

CHUNK_LINES = 128
"""The most lines in one chunk (fewer at first: see the module's docstring)."""
CHUNK_BYTES = 1 << 20
"""A chunk is closed once it holds this much input."""
IN_FLIGHT = 3
"""Chunks per worker given out before the oldest is written."""

Line = bytes | str | Unreadable
Chunk = tuple[int, list[Line]]  # (number of its first line, its lines)


def cores() -> int:
    """The cores this process may run on (the default number of jobs)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def answer_chunk(lines: list[Line], start: int) -> bytes:
    """The output lines of input ``lines`` (the first is line ``start``), UTF-8 encoded:
    what ``--jobs 1`` writes for them."""
    return b"".join(answer_line(line, number) for number, line in enumerate(lines, start))


def chunks(lines: Iterable[Line]) -> Iterator[Chunk]:
    """``lines`` in chunks of 1, 2, 4, ... up to :data:`CHUNK_LINES` lines (or
    :data:`CHUNK_BYTES` of input), each with the number of its first line."""
    start, limit, size = 1, 1, 0
    chunk: list[Line] = []
    for line in lines:
        chunk.append(line)
        size += 0 if isinstance(line, Unreadable) else len(line)
        if len(chunk) >= limit or size >= CHUNK_BYTES:
            yield start, chunk
            start += len(chunk)
            chunk, size, limit = [], 0, min(2 * limit, CHUNK_LINES)
    if chunk:
        yield start, chunk


def _start_method() -> Any:
    """Workers are forked where that is safe (they start at once, with everything imported);
    elsewhere they are spawned."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform != "darwin":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_parallel(lines: Iterable[Line], write: Callable[[bytes], Any],
                 flush: Callable[[], Any], jobs: int) -> int:
    """Answer every line of ``lines`` in ``jobs`` worker processes and ``write`` the answers
    in input order (``flush`` after the first); returns the number of lines."""
    context = _start_method()
    if context.get_start_method() == "fork":
        map_context("standard")  # forked workers start with the usual map and its parser
    pool = ProcessPoolExecutor(jobs, mp_context=context)
    pending: deque[tuple[Chunk, Future[bytes]]] = deque()
    count = 0

    def write_done(block: bool) -> None:
        """Write the answers of the oldest chunks: those done, or (``block``) the oldest
        one, waiting for it."""
        nonlocal pool, count
        while pending and (block or pending[0][1].done()):
            block = False
            (_start, chunk), future = pending[0]
            try:
                answer = future.result()
            except BaseException as exc:  # a dead worker (BrokenProcessPool) or worse
                if isinstance(exc, KeyboardInterrupt):
                    raise
                pool.shutdown(wait=True, cancel_futures=True)
                for answer in _rescue(list(pending), context):
                    write(answer)
                count += sum(len(chunk) for (_s, chunk), _f in pending)
                pending.clear()
                pool = ProcessPoolExecutor(jobs, mp_context=context)
                return
            pending.popleft()
            write(answer)
            if count == 0:
                flush()
            count += len(chunk)

    try:
        for start, chunk in chunks(lines):
            pending.append(((start, chunk), pool.submit(answer_chunk, chunk, start)))
            write_done(block=len(pending) >= jobs * IN_FLIGHT)
        while pending:
            write_done(block=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return count


def _rescue(pending: list[tuple[Chunk, Future[bytes]]], context: Any) -> Iterator[bytes]:
    """The answers of the chunks in hand when a worker died, in order: those answered
    already, then the others run again one at a time in a fresh worker, a chunk that kills
    it line by line, and a line that kills it answered with an error."""
    solo = _Solo(context)
    try:
        for (start, chunk), future in pending:
            if future.done() and not future.cancelled() and future.exception() is None:
                yield future.result()
                continue
            answer = solo.run(chunk, start)
            if answer is not None:
                yield answer
                continue
            for number, line in enumerate(chunk, start):
                answer = solo.run([line], number)
                yield answer if answer is not None else json_line(empty_output(None, None, [
                    f"line {number}: internal error: the process adjudicating this line "
                    "stopped"]))
    finally:
        solo.close()


class _Solo:
    """One worker process, replaced when it dies."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.pool: ProcessPoolExecutor | None = None

    def run(self, lines: list[Line], start: int) -> bytes | None:
        """The answer of ``lines``, or None when running them killed the worker."""
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=self.context)
        try:
            return self.pool.submit(answer_chunk, lines, start).result()
        except KeyboardInterrupt:
            raise
        except BaseException:  # the worker died (BrokenProcessPool) or worse
            self.close()
            return None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


__all__ = ["CHUNK_LINES", "answer_chunk", "chunks", "cores", "run_parallel"]
