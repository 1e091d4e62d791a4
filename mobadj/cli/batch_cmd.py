"""``mobadj batch``: JSON lines in, JSON lines out (mobadj.batch).  A plain command line
never comes here: the ``mobadj`` program runs it without click (mobadj.batch.command)."""

from __future__ import annotations

import sys

import click

from mobadj.batch import MAX_JOBS
from mobadj.cli import main


class CasesFile(click.File):
    """CASES: a file, or "-" for standard input, which must be open."""

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 - click's signature
        if value == "-" and sys.stdin is None:
            self.fail("standard input is closed", param, ctx)
        return super().convert(value, param, ctx)


class JobCount(click.IntRange):
    """``--jobs N``: 1 to MAX_JOBS; a larger N is refused with the most there may be."""

    def __init__(self) -> None:
        super().__init__(min=1, max=MAX_JOBS)

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 - click's signature
        count = click.INT.convert(value, param, ctx)
        if count > MAX_JOBS:
            from mobadj.batch import jobs_refused

            self.fail(jobs_refused(count), param, ctx)
        return super().convert(count, param, ctx)


@main.command()
@click.argument("cases", type=CasesFile("rb"))
@click.option("--jobs", "-j", type=JobCount(), default=None, metavar="N",
              help="Processes (never more than the input has parts of work for); 1 runs "
                   "in this process.  Default: this process, "
                   "and workers for a long input while cores are free.  The output is "
                   "the same for any N.")
def batch(cases, jobs: int | None) -> None:  # noqa: ANN001 - click file object
    """Adjudicate many phases: one JSON object per line of CASES ("-" for stdin), one result
    per line on standard output, in the same order (contract in docs/adjudication.md).
    A line that cannot be read or adjudicated is answered with its errors; the rest run.
    Exit status: 0 when every line was answered, also when lines were answered with errors
    (read each answer's "errors"); 1 when the batch stopped (the input could not be read on
    or the answers not written); 2 for a usage error (a missing CASES file, a bad --jobs)."""
    from mobadj.batch.command import BatchStopped, answer_all
    from mobadj.cli import whole_process

    try:
        answer_all(cases, jobs, whole_process())
    except BatchStopped as exc:
        raise click.ClickException(str(exc)) from None
