"""The ``mobadj`` program: its console script and ``python -m mobadj``.

A plain ``mobadj batch`` command line starts without click (:mod:`mobadj.batch.command`):
a batch is often one of many processes of a script, and its start is most of a small one's
time.  Everything else is click's (:mod:`mobadj.cli`).
"""

from __future__ import annotations

import sys

__all__ = ["run"]


def run() -> None:
    """Run the command line of this process (``sys.argv``)."""
    if sys.argv[1:2] == ["batch"]:
        from mobadj.batch.command import quick_start

        quick_start(sys.argv[2:])  # returns only when click must read the command line
    from mobadj.cli import run as run_cli

    run_cli()
