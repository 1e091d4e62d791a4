"""Where ``mobadj serve`` and ``mobadj web`` log: standard error (warnings, or every step
with ``-v``), and with ``log.file`` in judge.yaml a file rotated by size
(``logging.handlers.RotatingFileHandler``: ``max_mb`` megabytes, ``keep`` old files; with
``keep: 0`` the file starts afresh at ``max_mb``), at
``log.level`` (info unless set), some loggers at their own level (``log.levels``).

``mobadj web`` writes beside the judge's file, to its own (``judge.log`` ->
``judge-web.log``): two processes must not rotate one file.  Nothing secret is logged:
passwords, tokens and codes never reach a log line.  Other libraries' debug lines are
kept out whatever the levels say (:class:`OwnDebugOnly`): imapclient copies every
exchange with the server, whole mails and their passwords included.  The log files are
their user's alone (0600, whatever the umask), as the store is."""

from __future__ import annotations

import contextlib
import io
import logging
import logging.handlers
import os
import sys
from pathlib import Path

from mobadj.judge.config import LogConfig
from mobadj.judge.private import private_file

FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"
OWN = "mobadj"  # the loggers whose debug lines are the program's own


class OwnDebugOnly(logging.Filter):
    """Lets through a debug line only from mobadj's own loggers: a library's debug output
    is its protocol (the IMAP library writes every mail it fetches, bodies, sign-on
    passwords and codes too), which must never reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        return (record.levelno >= logging.INFO or record.name == OWN
                or record.name.startswith(OWN + "."))


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotated log file that, each time it is opened (and after each rotation), is
    readable by the judge's user alone, as the store: a log of a judge's work names its
    players' addresses and games."""

    def _open(self) -> io.TextIOWrapper:
        private_file(Path(self.baseFilename))
        return super()._open()

    def doRollover(self) -> None:  # noqa: N802 (logging's name)
        """At ``max_mb``: with ``keep: 0`` the file starts afresh (no old file is kept, and
        the log never grows past its size); else the old files move up one, as logging's
        handler does (which, with no old file to keep, would never start afresh)."""
        if self.backupCount > 0:
            super().doRollover()
            return
        if self.stream:
            self.stream.close()
            self.stream = None
        with contextlib.suppress(FileNotFoundError):
            os.truncate(self.baseFilename, 0)
        self.stream = self._open()


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
    logging.getLogger("imapclient").setLevel(logging.INFO)  # (its debug lines are dropped)
    for name, level in log.levels:  # these loggers at their own level, everywhere
        logging.getLogger(name).setLevel(level.upper())
    path = log_file(log, program)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(logging.Formatter(FORMAT))
    stderr.addFilter(OwnDebugOnly())
    # standard error: warnings; everything with -v, or when judge.yaml sets a level and
    # names no file (under systemd, standard error is the journal)
    if not (verbose or (path is None and (log.level is not None or log.levels))):
        stderr.setLevel(logging.WARNING)
    root.addHandler(stderr)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        rotating = PrivateRotatingFileHandler(
            path, maxBytes=int(log.max_mb * 1_000_000), backupCount=log.keep,
            encoding="utf-8")
        rotating.setFormatter(logging.Formatter(FORMAT))
        rotating.addFilter(OwnDebugOnly())
        root.addHandler(rotating)
