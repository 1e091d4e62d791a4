"""``mobadj batch --jobs N``: one batch over N worker processes, with the same output bytes;
and how many workers a batch takes when no job count is given (:func:`free_workers`).

A thread of the parent reads the input line by line (:func:`mobadj.batch.read_lines`: no
line is held beyond :data:`~mobadj.batch.MAX_LINE_BYTES`) and makes chunks of the lines; a
worker answers a chunk with :func:`mobadj.batch.answer_line` for each line, as ``--jobs 1``
does, and the parent writes the answers in input order.  A worker starts only when a chunk
would otherwise wait for one, up to N: a short input starts no more workers than it has
chunks.  Each line's answer depends on that
line alone, so the output is the same for any N.  At most :data:`IN_FLIGHT` chunks per
worker are read and not yet written: memory stays bounded however long the input.  Chunks
start at one line and double up to :data:`CHUNK_LINES`, so the first result comes at once;
a chunk is sent early when reading on would wait (a pipe fed line by line), so answers are
written as they come even while the input waits.  The parent does its work once per chunk,
never once per line: it shares the cores with the workers, and every microsecond it spends
on a line is one the workers lose.

A worker that dies (a crash in C code, the out-of-memory killer, a signal) loses no line:
the chunks it and its fellows had in hand are run again, one after the other in a fresh
process; a chunk that kills that process too is run line by line, and a line whose run kills
its process is answered with an error line of its own.  The other lines are answered as
always.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import stat
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import IO, Any

from mobadj.batch.command import MAX_JOBS
from mobadj.batch.reading import SkippedLine
from mobadj.batch.runner import map_context
from mobadj.batch.serialize import empty_output, json_line
from mobadj.batch.stream import answer_line, cores, never_waits, quiet_collector

CHUNK_LINES = 128
"""The most lines in one chunk (fewer at first: see the module's docstring)."""
CHUNK_BYTES = 1 << 20
"""A chunk is closed once it holds this much input."""
IN_FLIGHT = 3
"""Chunks per worker given out before the oldest is written."""

Line = bytes | str | SkippedLine
Chunk = tuple[int, list[Line]]  # (number of its first line, its lines)


def free_workers() -> int:
    """Worker processes a batch without a job count may take now: the cores this process may
    run on less the system's load over the last minute (``os.getloadavg``), rounded; at
    least 1 (1: this process answers alone).  On a machine shared with other work the
    workers would only take turns with it: a tie at best, for more CPU."""
    n = cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here: take the cores as busy
        return 1
    return max(1, min(n, int(n - load + 0.5)))


WORTH_SECONDS = 0.5
"""Work left (in this process's seconds) below which starting workers does not pay: they
start in tens of milliseconds and each chunk goes through a pipe both ways."""


def worth_workers(source: IO[Any], done: int, took: float) -> bool:
    """Whether the rest of ``source`` is worth workers, now that ``done`` lines took
    ``took`` seconds here: when it is a file, its bytes left (at the bytes per line so far)
    must hold at least :data:`WORTH_SECONDS` of work; a pipe that goes on is taken to be
    long."""
    try:
        fd = source.fileno()
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return True
        read = os.lseek(fd, 0, os.SEEK_CUR)
    except (AttributeError, OSError, ValueError):  # no descriptor: nothing to weigh
        return True
    if read <= 0 or done <= 0:
        return True
    left = max(0, info.st_size - read) * done / read  # lines, at the length so far
    return left * took / done >= WORTH_SECONDS


def answer_chunk(lines: list[Line], start: int) -> bytes:
    """The output lines of input ``lines`` (the first is line ``start``), UTF-8 encoded:
    what ``--jobs 1`` writes for them."""
    return b"".join(answer_line(line, number) for number, line in enumerate(lines, start))


class ReadAhead:
    """How far the reader may run ahead of the writer: at most ``items`` chunks and ``size``
    bytes read and not yet answered (a single chunk may be larger)."""

    def __init__(self, items: int, size: int) -> None:
        self.limit = (items, size)
        self.held = [0, 0]
        self.closed = False
        self.turn = threading.Condition()

    def take(self, size: int) -> bool:
        """Wait until there is room for one more chunk of ``size`` bytes, and hold it
        (False: :meth:`close` was called, stop reading)."""
        with self.turn:
            while not self.closed and self.held[0] and (
                    self.held[0] >= self.limit[0] or self.held[1] + size > self.limit[1]):
                self.turn.wait()
            self.held[0] += 1
            self.held[1] += size
            return not self.closed

    def give(self, items: int, size: int) -> None:
        with self.turn:
            self.held[0] -= items
            self.held[1] -= size
            self.turn.notify()

    def close(self) -> None:
        with self.turn:
            self.closed = True
            self.turn.notify_all()


def line_size(line: Line) -> int:
    return 0 if isinstance(line, SkippedLine) else len(line)


class Filling:
    """The chunk being filled: it holds up to 1, 2, 4, ... :data:`CHUNK_LINES` lines (the
    first chunk one line, each next one twice the last) or :data:`CHUNK_BYTES` of input."""

    def __init__(self, start: int = 1) -> None:
        self.start, self.limit, self.size = start, 1, 0
        self.lines: list[Line] = []

    def add(self, line: Line) -> None:
        self.lines.append(line)
        self.size += line_size(line)

    def full(self) -> bool:
        return len(self.lines) >= self.limit or self.size >= CHUNK_BYTES

    def close(self) -> tuple[Chunk, int]:
        """(the chunk, its size in bytes); the next one starts empty."""
        chunk, size = (self.start, self.lines), self.size
        self.start += len(self.lines)
        self.lines, self.size, self.limit = [], 0, min(2 * self.limit, CHUNK_LINES)
        return chunk, size


def _start_method() -> Any:
    """Workers are forked where that is safe (they start at once, with everything imported);
    elsewhere they are spawned."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform != "darwin":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_parallel(lines: Iterable[Line], write: Callable[[bytes], Any],
                 flush: Callable[[], Any], jobs: int, own_process: bool = False,
                 start: int = 1, waits: Callable[[], bool] = never_waits) -> int:
    """Answer every line of ``lines`` (the first is line ``start`` of the input) in up to
    ``jobs`` worker processes (at most :data:`~mobadj.batch.MAX_JOBS`, and never more than
    there are chunks: :class:`Workers`) and ``write`` the answers in input order (``flush``
    whenever no further answer is ready); returns the number of lines.

    A thread reads the input and makes the chunks: a chunk goes to the workers when it is
    full, or at once when reading on would wait for input (``waits``: a pipe fed line by
    line has each answer while the input waits).  At most ``jobs`` * :data:`IN_FLIGHT`
    chunks are out and not yet written.  The parent's work is per chunk, not per line: it
    shares the cores with the workers.  ``own_process``: as for
    :func:`mobadj.batch.run_batch` (frozen before the fork)."""
    jobs = max(1, min(jobs, MAX_JOBS))
    context = _start_method()
    if context.get_start_method() == "fork":
        map_context("standard")  # forked workers start with the usual map and its parser
        if own_process:
            quiet_collector()
    pool = Workers(jobs, context)
    most = jobs * IN_FLIGHT
    events: queue.SimpleQueue[Any] = queue.SimpleQueue()  # chunks, wake-ups, the end
    ahead = ReadAhead(most, most * CHUNK_BYTES)
    reader = threading.Thread(target=_read, args=(lines, events, ahead, start, waits),
                              daemon=True, name="mobadj-batch-reader")
    pending: deque[tuple[Chunk, int, Future[bytes]]] = deque()
    count = 0

    def wake(_future: Future[bytes]) -> None:
        events.put(_WAKE)

    def write_done() -> None:
        """Write the answers of the oldest chunks that are done."""
        nonlocal pool, count
        wrote = False
        while pending and pending[0][2].done():
            (_start, chunk), size, future = pending[0]
            try:
                answer = future.result()
            except BaseException as exc:  # a dead worker (BrokenProcessPool) or worse
                if isinstance(exc, KeyboardInterrupt):
                    raise
                pool.shutdown()
                for answer in _rescue([(c, f) for c, _s, f in pending], context):
                    write(answer)
                for (_s, chunk), size, _f in pending:
                    count += len(chunk)
                    ahead.give(1, size)
                pending.clear()
                pool = Workers(jobs, context)
                flush()
                return
            pending.popleft()
            write(answer)
            wrote = True
            count += len(chunk)
            ahead.give(1, size)
        if wrote and not (pending and pending[0][2].done()):
            flush()

    stdin, sys.stdin = sys.stdin, None
    # a forked worker first closes its sys.stdin, which would wait for ever for the lock
    # that the reader thread holds while it waits for input: with none, the worker starts
    reader.start()
    try:
        ended = False
        while not ended or pending:
            event = events.get() if not ended else _WAKE
            if type(event) is tuple:  # a chunk, and its size in bytes
                chunk, size = event
                future = pool.submit(chunk)
                pending.append((chunk, size, future))
                future.add_done_callback(wake)
            elif event is _END:
                ended = True
            elif isinstance(event, BaseException):
                raise event
            write_done()
            if ended and pending and not pending[0][2].done():
                wait([pending[0][2]])
    finally:
        ahead.close()
        pool.shutdown()
        sys.stdin = stdin
    return count


class Workers:
    """The worker processes of :func:`run_parallel`, started as the chunks come: one more
    only when a chunk would otherwise wait (each worker has one in hand), and at most
    ``most``; so a short input starts no more workers than it has chunks.  (A pool that
    forks starts all its workers at once: each worker here is a pool of one, started by its
    first chunk.)  A worker has one chunk at a time: one that dies leaves no chunk half
    sent to it (a pool of one would wait for ever to finish sending it)."""

    def __init__(self, most: int, context: Any) -> None:
        self.most = most
        self.context = context
        self.pools: list[ProcessPoolExecutor] = []
        self.held: list[Future[bytes] | None] = []  # each worker's chunk in hand

    def submit(self, chunk: Chunk) -> Future[bytes]:
        """``chunk`` sent to a worker with none in hand, a new one, or, when all ``most``
        are busy, the first to be done (see :func:`_submit` for a worker that has died)."""
        i = self._free()
        while i is None:
            wait([f for f in self.held if f is not None], return_when=FIRST_COMPLETED)
            i = self._free()
        future = self.held[i] = _submit(self.pools[i], chunk)
        return future

    def _free(self) -> int | None:
        """A worker with no chunk in hand (a new one if all are busy and there may be
        more), or None."""
        for i, future in enumerate(self.held):
            if future is None or future.done():
                return i
        if len(self.pools) < self.most:
            self.pools.append(ProcessPoolExecutor(1, mp_context=self.context))
            self.held.append(None)
            return len(self.pools) - 1
        return None

    def shutdown(self) -> None:
        """Stop every worker (a chunk not yet begun is cancelled) and wait for it."""
        for pool in self.pools:
            pool.shutdown(wait=True, cancel_futures=True)
        self.pools.clear()
        self.held.clear()


def _submit(pool: ProcessPoolExecutor, chunk: Chunk) -> Future[bytes]:
    """``chunk`` sent to ``pool``; when a worker has died since the last answer was read,
    the pool refuses it: then a future that failed so, which the writer rescues in its turn
    with the chunks before it."""
    try:
        return pool.submit(answer_chunk, chunk[1], chunk[0])
    except BrokenProcessPool as exc:
        failed: Future[bytes] = Future()
        failed.set_exception(exc)
        return failed


_END = object()
"""The reader's last event: the input is at its end."""
_WAKE = object()
"""An answer is ready."""


def _read(lines: Iterable[Line], events: queue.SimpleQueue[Any], ahead: ReadAhead,
          start: int, waits: Callable[[], bool]) -> None:
    """The reader thread: put each chunk of ``lines`` (:class:`Filling`) on ``events``, as
    (chunk, its size), once it may read ahead, then :data:`_END` (or the exception that
    stopped the reading)."""
    filling = Filling(start)
    try:
        for line in lines:
            filling.add(line)
            if filling.full() or waits():
                chunk = filling.close()
                if not ahead.take(chunk[1]):
                    return
                events.put(chunk)
        if filling.lines:
            chunk = filling.close()
            if not ahead.take(chunk[1]):
                return
            events.put(chunk)
    except BaseException as exc:  # e.g. an unreadable file: raised again by the writer
        events.put(exc)
        return
    events.put(_END)


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


__all__ = ["CHUNK_BYTES", "CHUNK_LINES", "IN_FLIGHT", "WORTH_SECONDS", "Filling", "ReadAhead",
           "Workers", "answer_chunk", "free_workers", "run_parallel", "worth_workers"]
