"""``--jobs N`` over a file: the file's lines are cut into N parts, each answered by a
process of its own.

The lines left in the file are cut, at line breaks, into parts of about equal bytes.  This
process answers the first part itself and writes its answers as they come; N-1 processes
forked from it answer the others, each reading its part straight from the file and writing
its answers into a temporary file of its own.  Once this process is done with its part, it
hands each temporary file in turn to the output (``os.sendfile``: the kernel copies it, this
process does not read it).  So no line and no answer goes through a pipe, and this process
does nothing for another process's lines: with two free cores, two jobs take about half the
time of one (docs/performance.md, "Worker processes").  A pipe, whose lines cannot be cut
ahead, goes through the pool of :mod:`mobadj.batch.jobs` instead.

Each line is answered by :func:`mobadj.batch.answer_line` with its number in the whole
input, so the output is byte for byte that of ``--jobs 1``.  A process that dies (a crash in
C code, the out-of-memory killer, a signal) loses no line: its part is answered again through
:func:`mobadj.batch.jobs.run_parallel`, which answers a line that kills its process with an
error line of its own.  Lines appended to the file while the batch runs are answered too,
after the parts.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any, Final, NamedTuple

from mobadj.batch.command import MAX_JOBS
from mobadj.batch.reading import SkippedLine, read_lines
from mobadj.batch.runner import map_context
from mobadj.batch.stream import answer_line, never_waits, quiet_collector, run_here

__all__ = ["COUNT_BLOCK", "MIN_PART", "Part", "copier", "cut", "file_at", "forks", "lines_in",
           "part_lines", "run_split"]

MIN_PART: Final = 1 << 16
"""The fewest bytes worth a part of its own: a smaller file is cut into fewer parts."""
COUNT_BLOCK: Final = 1 << 20
"""Bytes read at a time when the line breaks before each part are counted."""


class Part(NamedTuple):
    """Bytes ``begin`` to ``end`` of the input file: whole lines."""

    begin: int
    end: int


def file_at(source: IO[Any]) -> tuple[int, int] | None:
    """(descriptor, offset of the next line to read) when ``source`` is a regular file whose
    reading position is known (a binary file, buffered or not, or a text file's buffer);
    None for anything else (a pipe, a terminal, a stream in memory)."""
    stream = source
    if isinstance(source, io.TextIOBase):
        stream = getattr(source, "buffer", None)
        if stream is None:
            return None
    try:
        fd = stream.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return fd, stream.tell()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def cut(fd: int, begin: int, end: int, parts: int) -> list[Part]:
    """Bytes ``begin`` to ``end`` of the file ``fd`` as at most ``parts`` parts of about
    equal size, each ending just after a line break (the last at ``end``), none empty and
    none under :data:`MIN_PART` bytes but the last.  (Only the bytes around each cut are
    read: the lines are counted by the processes, while they run.)"""
    size = end - begin
    parts = max(1, min(parts, size // MIN_PART))
    bounds = [begin]
    for k in range(1, parts):
        at = _after_break(fd, max(bounds[-1], begin + size * k // parts), end)
        if at >= end:
            break
        if at > bounds[-1]:
            bounds.append(at)
    bounds.append(end)
    return [Part(lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]


def lines_in(fd: int, begin: int, end: int) -> int:
    """The lines in bytes ``begin`` to ``end`` of ``fd``, which start a line: its line
    breaks, and a last line without one."""
    count = _breaks(fd, begin, end)
    if end > begin and os.pread(fd, 1, end - 1) != b"\n":
        count += 1
    return count


def _after_break(fd: int, at: int, end: int) -> int:
    """The offset just after the first line break at or after ``at`` (``end`` if none)."""
    while at < end:
        block = os.pread(fd, min(COUNT_BLOCK, end - at), at)
        if not block:
            return end
        found = block.find(b"\n")
        if found >= 0:
            return at + found + 1
        at += len(block)
    return end


def _breaks(fd: int, lo: int, hi: int) -> int:
    """The line breaks in bytes ``lo`` to ``hi`` of ``fd``."""
    count = 0
    while lo < hi:
        block = os.pread(fd, min(COUNT_BLOCK, hi - lo), lo)
        if not block:
            break
        count += block.count(b"\n")
        lo += len(block)
    return count


class _Span(io.RawIOBase):
    """Bytes ``begin`` to ``end`` (None: to the end of the file, as it grows) of the file
    ``fd``, read at their offsets (``os.pread``): the descriptor's own position, which
    forked processes share, is never moved."""

    def __init__(self, fd: int, begin: int, end: int | None) -> None:
        self.fd, self.at, self.end = fd, begin, end

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        want = len(buffer) if self.end is None else min(len(buffer), self.end - self.at)
        if want <= 0:
            return 0
        data = os.pread(self.fd, want, self.at)
        buffer[:len(data)] = data
        self.at += len(data)
        return len(data)


def part_lines(fd: int, begin: int, end: int | None) -> Iterator[bytes | str | SkippedLine]:
    """The lines of bytes ``begin`` to ``end`` of ``fd`` (:func:`mobadj.batch.read_lines`:
    a line too long is skipped without being held)."""
    return read_lines(io.BufferedReader(_Span(fd, begin, end), 1 << 16))


def forks() -> bool:
    """Whether parts may be answered in forked processes (not on macOS, where a forked
    process may not use every system library safely)."""
    return hasattr(os, "fork") and sys.platform != "darwin"


def run_split(fd: int, begin: int, write: Callable[[bytes], Any], flush: Callable[[], Any],
              copy: Callable[[IO[bytes]], None], jobs: int, own_process: bool = False,
              start: int = 1) -> int | None:
    """Answer the lines of the file ``fd`` from byte ``begin`` on (the first is line
    ``start`` of the input) in ``jobs`` processes, this one among them; ``write`` the
    answers in input order (``copy``: a temporary file of answers, whole); returns the
    number of lines, or None when the file is too short to cut (nothing is read then).
    (At most :data:`~mobadj.batch.MAX_JOBS` parts, and none under :data:`MIN_PART` bytes
    but the last: a short file starts no more processes than it has work for.)"""
    parts = cut(fd, begin, os.fstat(fd).st_size, min(jobs, MAX_JOBS))
    if len(parts) < 2:
        return None
    map_context("standard")  # forked processes start with the usual map and its parser
    if own_process:
        quiet_collector()
    try:  # a file of answers for each part but the first, before any process starts
        files: list[IO[bytes]] = []
        for _part in parts[1:]:
            files.append(tempfile.TemporaryFile())  # noqa: SIM115 - closed below
    except OSError:  # no room for them: the pool of workers instead
        for answers in files:
            answers.close()
        return None
    flush()
    children: list[tuple[int | None, IO[bytes], Part]] = []
    try:
        for part, answers in zip(parts[1:], files, strict=True):
            try:
                pid: int | None = os.fork()
            except OSError:  # (no process to be had: the part is answered here)
                pid = None
            if pid == 0:  # the child: never returns
                _answer_part(fd, part, start + _breaks(fd, begin, part.begin),
                             answers.fileno())
            children.append((pid, answers, part))
        own = parts[0]
        count = run_here(part_lines(fd, own.begin, own.end), write, flush, never_waits,
                         False, start=start)
        while children:
            pid, answers, part = children[0]
            lines = lines_in(fd, part.begin, part.end)  # (while the part is answered)
            status = 1 if pid is None else os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            children.pop(0)
            with answers:
                if status == 0:
                    flush()
                    copy(answers)
                elif pid is None:
                    run_here(part_lines(fd, part.begin, part.end), write, flush,
                             never_waits, False, start=start + count)
                else:  # the process died: its part again, a line that kills answered
                    from mobadj.batch.jobs import run_parallel

                    run_parallel(part_lines(fd, part.begin, part.end), write, flush, 1,
                                 start=start + count)
            count += lines
        count += run_here(part_lines(fd, parts[-1].end, None), write, flush, never_waits,
                          False, start=start + count)  # lines written to the file meanwhile
    finally:
        for pid, _answers, _part in children:  # stopped early (an error, an interrupt)
            if pid is not None:
                _stop(pid)
        for answers in files:
            answers.close()
    return count


def _answer_part(fd: int, part: Part, first: int, out: int) -> None:
    """In a forked process: write the answers of ``part`` (its first line is line ``first``
    of the input) to the descriptor ``out`` and end the process (status 0 once every answer
    is written, 1 on any failure)."""
    status = 1
    try:
        with io.FileIO(out, "wb", closefd=False) as raw, \
                io.BufferedWriter(raw, 1 << 18) as sink:
            number = first
            for line in part_lines(fd, part.begin, part.end):
                sink.write(answer_line(line, number))
                number += 1
        status = 0
    finally:
        os._exit(status)  # no clean-up of the parent's state: it is the parent's


def _stop(pid: int) -> None:
    """End a forked process still running and reap it."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


def copier(sink: IO[Any], write: Callable[[bytes], Any]) -> Callable[[IO[bytes]], None]:
    """What hands a temporary file of answers to ``sink`` whole: ``os.sendfile`` to its
    descriptor (the kernel copies), else (no descriptor, or the kernel declines) ``write``
    in blocks."""
    def copy(answers: IO[bytes]) -> None:
        size = os.fstat(answers.fileno()).st_size
        sent = 0
        fd = _descriptor(sink)
        if fd is not None:
            try:
                while sent < size:
                    got = os.sendfile(fd, answers.fileno(), sent, size - sent)
                    if got == 0:
                        break
                    sent += got
            except BrokenPipeError:
                raise
            except OSError:  # (sendfile declined: the rest is written as any answer)
                pass
        answers.seek(sent)
        while block := answers.read(1 << 20):
            write(block)

    return copy


def _descriptor(sink: IO[Any]) -> int | None:
    try:
        return int(sink.fileno())
    except (AttributeError, OSError, ValueError):
        return None
