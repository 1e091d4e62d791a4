"""Where ``mobadj serve`` and ``mobadj web`` log: standard error (warnings, or every step
with ``-v``), and with ``log.file`` in judge.yaml a file rotated by size
(``logging.handlers.RotatingFileHandler``: ``max_mb`` megabytes, ``keep`` old files), at
``log.level`` (info unless set), some loggers at their own level (``log.levels``).

``mobadj web`` writes beside the judge's file, to its own (``judge.log`` ->
``judge-web.log``): two processes must not rotate one file.  Nothing secret is logged:
passwords, tokens and codes never reach a log line."""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

from mobadj.judge.config import LogConfig

FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


def log_file(log: LogConfig, program: str = "serve") -> Path | None:
    """The file ``program`` (serve or web) logs to, or None."""
    if log.file is None:
        return None
    if program == "serve":
        return log.file
    return log.file.with_name(f"{log.file.stem}-{program}{log.file.suffix}")


def setup_logging(log: LogConfig, verbose: bool = False, program: str = "serve") -> None:
    """Send the program's log lines where judge.yaml says (replacing earlier handlers)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    root.setLevel((log.level or "info").upper())
    for name, level in log.levels:  # these loggers at their own level, everywhere
        logging.getLogger(name).setLevel(level.upper())
    path = log_file(log, program)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(logging.Formatter(FORMAT))
    # standard error: warnings; everything with -v, or when judge.yaml sets a level and
    # names no file (under systemd, standard error is the journal)
    if not (verbose or (path is None and (log.level is not None or log.levels))):
        stderr.setLevel(logging.WARNING)
    root.addHandler(stderr)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        rotating = logging.handlers.RotatingFileHandler(
            path, maxBytes=int(log.max_mb * 1_000_000), backupCount=log.keep,
            encoding="utf-8")
        rotating.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(rotating)
