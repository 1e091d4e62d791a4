"""``mobadj batch`` as a whole process, without the command line's machinery.

Importing click and the command line's modules takes about a tenth of a batch's start, so
the ``mobadj`` program reads a plain batch command line here (:func:`quick_start`) and only
hands the others to click: help, a misspelt option, a file that cannot be opened, a job count
that is not a plain number.  Click's ``batch`` command runs :func:`answer_all` too, so both
ways answer alike, and a command line this module reads is one click reads the same way.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import IO, Any, Final, cast

from mobadj.errors import BatchError

__all__ = ["DEFERRED", "MAX_JOBS", "BatchStopped", "Output", "OutputError", "answer_all",
           "defer", "jobs_refused", "quick_arguments", "quick_start"]


class BatchStopped(BatchError):
    """The batch could not go on (the message says why); the answers made before are
    written.  The program ends with status 1, like click's errors."""


class OutputError(BatchError):
    """Standard output refused the answers (a full disk, a closed descriptor)."""


class Output:
    """Standard output's bytes for the answers: a failed write is told from a failed read
    of the input (a reader gone away, BrokenPipeError, stays what it is)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def write(self, data: bytes) -> int:
        try:
            return self.stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.strerror or str(exc)) from None

    def fileno(self) -> int:
        """The descriptor under the stream (a file of answers is copied to it whole:
        mobadj.batch.split)."""
        return self.stream.fileno()

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.strerror or str(exc)) from None


def answer_all(cases: IO[Any], jobs: int | None, whole_process: bool) -> None:
    """Answer every line of ``cases`` on standard output (``jobs``: None, as many as pay:
    mobadj.batch.stream.run_batch).
    Raises :class:`BatchStopped`.  As the ``whole_process``, the process ends here once all
    is written: what the batch built up (maps, parsers, caches of order texts) is the
    operating system's to free, without the interpreter's teardown (tens of ms)."""
    from mobadj.batch.stream import run_batch

    if sys.stdout is None:
        raise BatchStopped("standard output is closed: there is nowhere to write the answers")
    sys.stdout.flush()
    try:
        buffer = getattr(sys.stdout, "buffer", None)
        sink = cast(IO[bytes], Output(buffer)) if buffer is not None else sys.stdout
        run_batch(cases, sink, jobs=jobs, own_process=True)
    except BrokenPipeError:  # the reader stopped early (e.g. `| head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    except OutputError as exc:  # what is left unwritten goes nowhere, not to a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise BatchStopped(f"the batch stopped: cannot write the answers: {exc}") from None
    except OSError as exc:  # the answers made before are written
        raise BatchStopped(f"the batch stopped: cannot read {cases.name}: "
                           f"{exc.strerror or exc}") from None
    if whole_process:
        sys.stderr.flush()
        os._exit(0)


MAX_JOBS: Final = 256
"""The most jobs a batch takes (``--jobs``): more is a usage error.  (Each job is a process;
a typo such as ``--jobs 20000`` for 2 must not fill a shared machine with processes.)"""


def jobs_refused(count: int) -> str:
    """Why ``--jobs count`` (more than :data:`MAX_JOBS`) is refused."""
    from mobadj.batch.stream import cores

    n = cores()
    return f"{count}: at most {MAX_JOBS} (this machine has {n} core{'s' * (n != 1)})"


def _job_count(text: str) -> int | None:
    """A job count written as plain digits, 1 to :data:`MAX_JOBS` (click reads it as the
    same number; click refuses any other)."""
    if text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_JOBS:
        return int(text)
    return None


def quick_arguments(args: list[str]) -> tuple[str, int | None] | None:
    """(CASES, jobs) of the arguments after ``batch``, when they are a plain command line:
    one CASES (a path, or "-") and ``--jobs N`` / ``--jobs=N`` / ``-j N`` / ``-jN`` with N
    in digits, in any order, the last count winning as in click.  None for anything else."""
    cases: str | None = None
    jobs: int | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        value: str | None = None
        if arg in ("--jobs", "-j"):
            if i + 1 == len(args):
                return None
            value = args[i + 1]
            i += 1
        elif arg.startswith("--jobs="):
            value = arg[len("--jobs="):]
        elif arg.startswith("-j") and not arg.startswith("-j="):
            value = arg[2:]
        elif arg == "-" or not arg.startswith("-"):
            if cases is not None or not arg:
                return None
            cases = arg
        else:  # help, "--", an option click would refuse or suggest a spelling for
            return None
        if value is not None:
            jobs = _job_count(value)
            if jobs is None:
                return None
        i += 1
    return None if cases is None else (cases, jobs)


def _open_cases(path: str) -> IO[bytes] | None:
    """CASES open for reading bytes; None when it cannot be (click then says why)."""
    if path == "-":
        return None if sys.stdin is None else getattr(sys.stdin, "buffer", None)
    try:
        return open(path, "rb")  # noqa: SIM115 - the process ends with the batch
    except (OSError, ValueError):
        return None


DEFERRED = ("inspect",)
"""Standard modules a batch imports only to leave unused: ``dataclasses`` imports
``inspect`` (and with it ``ast``, ``dis``, ``tokenize``; about 6 ms, a tenth of a batch's
start) to write a docstring for a class that has none.  The quick start puts a stand-in in
their place (:func:`defer`)."""


class _Deferred(types.ModuleType):
    """A module's stand-in: the first use of one of its names imports the module and makes
    the stand-in a copy of it (a module that imported the stand-in sees the real names)."""

    def __getattr__(self, attr: str) -> Any:
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        real = importlib.import_module(name)
        self.__dict__.update(real.__dict__)
        return getattr(real, attr)


def defer(names: tuple[str, ...] = DEFERRED) -> None:
    """Import each of ``names`` when one of its names is first used, not before (modules
    already imported stay as they are)."""
    for name in names:
        if name not in sys.modules:
            sys.modules[name] = _Deferred(name)


def quick_start(args: list[str]) -> None:
    """Run ``mobadj batch`` with ``args`` (those after ``batch``) and end the process, when
    they are a plain command line (:func:`quick_arguments`) and CASES can be opened; else
    return, for click to read the command line."""
    got = quick_arguments(args)
    if got is None:
        return None
    cases = _open_cases(got[0])
    if cases is None:
        return None
    defer()
    try:
        answer_all(cases, got[1], whole_process=True)
    except BatchStopped as exc:
        sys.stderr.write(f"Error: {exc}\n")
        sys.exit(1)
    except (KeyboardInterrupt, EOFError):  # as click ends an interrupted command
        sys.stderr.write("\nAborted!\n")
        sys.exit(1)
    sys.exit(0)
