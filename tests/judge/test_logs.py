"""Where mobadj serve and mobadj web log: a file rotated by size (logging.handlers), levels
from judge.yaml, standard error for warnings; real files."""

from __future__ import annotations

import logging

import pytest

from mobadj.judge import reports
from mobadj.judge.config import ConfigError, config_from_data
from mobadj.judge.logs import log_file, setup_logging

from .helpers import mail


@pytest.fixture(autouse=True)
def _restore_logging(kept_logging):
    named = {n: logging.getLogger(n).level for n in ("mobadj.judge.mailbox",)}
    yield
    for n, lv in named.items():
        logging.getLogger(n).setLevel(lv)


def cfg(tmp_path, **log):
    return config_from_data({"judge": {"address": "j@test.org"}, "log": log}, base=tmp_path)


def test_the_log_file_rotates_and_keeps_so_many(tmp_path, capsys):
    c = cfg(tmp_path, file="logs/judge.log", max_mb=0.002, keep=2)
    setup_logging(c.log)
    log = logging.getLogger("mobadj.judge.service")
    for n in range(200):
        log.info("handled mail %d from anna@test.org", n)
    log.warning("IMAP server down")
    files = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert files == ["judge.log", "judge.log.1", "judge.log.2"]
    assert all((tmp_path / "logs" / f).stat().st_size <= 2100 for f in files)
    assert "IMAP server down" in (tmp_path / "logs" / "judge.log").read_text()
    err = capsys.readouterr().err
    assert "IMAP server down" in err and "handled mail" not in err  # stderr: warnings only


def test_levels_come_from_the_config(tmp_path):
    c = cfg(tmp_path, file="judge.log", level="warning",
            levels={"mobadj.judge.mailbox": "debug"})
    setup_logging(c.log)
    logging.getLogger("mobadj.judge.mailbox").debug("IDLE done")
    logging.getLogger("mobadj.judge.service").info("handled a mail")
    logging.getLogger("mobadj.judge.service").warning("retrying in 4 s")
    text = (tmp_path / "judge.log").read_text()
    assert "IDLE done" in text and "retrying in 4 s" in text and "handled a mail" not in text


def test_the_pages_log_to_their_own_file(tmp_path):
    c = cfg(tmp_path, file="judge.log")
    assert log_file(c.log, "web") == tmp_path / "judge-web.log"
    setup_logging(c.log, program="web")
    logging.getLogger("mobadj.web").info("page served")
    assert "page served" in (tmp_path / "judge-web.log").read_text()
    assert not (tmp_path / "judge.log").exists()


def test_without_a_file_the_level_goes_to_standard_error(tmp_path, capsys):
    setup_logging(cfg(tmp_path, level="info").log)
    logging.getLogger("mobadj.judge.service").info("connected")
    assert "connected" in capsys.readouterr().err


@pytest.mark.parametrize("log, message", [
    ({"level": "loud"}, "log.level: expected one of debug, info"),
    ({"keep": -1}, "log.keep: expected a number of old files"),
    ({"max_mb": -1}, "log.max_mb: expected a number above 0"),
    ({"levels": ["debug"]}, "log.levels: expected a mapping"),
])
def test_bad_log_settings_are_explained(tmp_path, log, message):
    with pytest.raises(ConfigError, match=message):
        cfg(tmp_path, **log)


def test_the_judges_own_deadline_decisions_are_in_the_log(tmp_path, judge, table, clock):
    c = cfg(tmp_path, file="logs/judge.log")
    setup_logging(c.log)
    judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "go 1"))
    clock.advance(hours=49)  # past the 48 h deadline: the first miss is extended once
    judge.tick()
    deadline = reports.when(judge.store.game("g1").deadline, judge.tz)
    clock.advance(hours=25)
    judge.tick()  # resolved without EAST, SOUTH, WEST
    judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "go 1"))
    clock.advance(hours=49)
    judge.tick()  # their second miss in a row: civil disorder
    text = (tmp_path / "logs" / "judge.log").read_text()
    assert (f"g1: T1 deadline extended to {deadline} (first missed deadline: EAST, SOUTH, "
            f"WEST)") in text
    for seat in ("EAST", "SOUTH", "WEST"):
        assert f"g1: {seat} in civil disorder after 2 missed deadlines" in text
    assert "NORTH in civil disorder" not in text


def test_a_resolution_undone_before_its_commit_is_not_in_the_log(tmp_path, judge, table, clock):
    """What the log says was resolved was stored: a transaction that fails after the phase
    is resolved (a full disk at COMMIT) leaves no "resolved" line."""
    c = cfg(tmp_path, file="logs/judge.log")
    setup_logging(c.log)
    with pytest.raises(RuntimeError), judge.store.transaction():
        judge.turns.resolve(judge.store.game("g1"), clock(), [], forced=True)
        raise RuntimeError("the disk is full")
    assert "resolved" not in (tmp_path / "logs" / "judge.log").read_text()
    assert judge.store.results("g1") == []
    with judge.store.transaction():
        judge.turns.resolve(judge.store.game("g1"), clock(), [], forced=True)
    assert "g1: T1 resolved (missing: " in (tmp_path / "logs" / "judge.log").read_text()
