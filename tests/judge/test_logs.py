"""Where mobadj serve and mobadj web log: a file rotated by size (logging.handlers), levels
from judge.yaml, standard error for warnings; real files."""

from __future__ import annotations

import logging
import os
import re

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


def test_with_keep_0_the_log_starts_afresh_at_its_size(tmp_path):
    """``keep: 0`` (no old file wanted): the file never grows past ``max_mb``, it starts
    afresh, and no old file is left beside it."""
    (tmp_path / "judge.log").write_text("y" * 99 + "\n" + ("y" * 100 + "\n") * 49)
    c = cfg(tmp_path, file="judge.log", max_mb=0.001, keep=0)
    setup_logging(c.log)
    log = logging.getLogger("mobadj.judge.service")
    for n in range(100):
        log.info("handled mail %d from anna@test.org", n)
    assert [p.name for p in tmp_path.iterdir()] == ["judge.log"]
    text = (tmp_path / "judge.log").read_text()
    assert len(text) <= 1000 and "handled mail 99 " in text and "yyy" not in text


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


def test_a_debug_log_holds_no_mail_and_is_for_the_judges_user_alone(tmp_path, mail_servers):
    """``mobadj serve -v`` at ``level: debug``: the log file and standard error show the
    judge's work, never a mail (no sign-on password, new password or private press from the
    IMAP library's copy of what it fetched); the log is 0600 under a 022 umask."""
    import os
    import subprocess
    import sys
    from email.message import EmailMessage

    import yaml

    from mobadj.judge.config import load_config
    from mobadj.judge.core import Judge
    from mobadj.judge.store import Store

    from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS

    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"address": JUDGE_ADDRESS, "data_dir": "data"},
        "imap": {"host": "127.0.0.1", "port": mail_servers.imap_port, "tls": "none",
                 "user": IMAP_USER, "password_env": "LOG_IMAP_PW"},
        "smtp": {"host": "127.0.0.1", "port": mail_servers.smtp_port, "tls": "none",
                 "user": ""},
        "log": {"file": "data/judge.log", "level": "debug",
                "levels": {"imapclient": "debug"}},
    }))
    store = Store(load_config(path).db_path)
    judge = Judge(store, load_config(path), kdf_n=2**10)
    judge.create_game("lg", "standard", "gm@test.org", "Gm-Secret-77", seed=1)
    with store.transaction():
        out: list = []
        for power in ("ENGLAND", "FRANCE"):
            judge.add_player(store.game("lg"), f"{power.lower()}@test.org", power,
                             f"Pw-{power}-19", 0, out)
        judge.start(store.game("lg"), judge.clock(), out)
    store.close()
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "england@test.org", JUDGE_ADDRESS, "orders"
    m["Message-ID"] = "<log-1@test.org>"
    m.set_content("SIGNON lg England Pw-ENGLAND-19\nSET PASSWORD New-Secret-42\n"
                  "PRESS TO France\nMeet me in Burgundy-plan-X.\nENDPRESS\nF LON - NTH\n")
    imap = mail_servers.imap()
    imap.append("INBOX", m.as_bytes())
    imap.logout()
    r = subprocess.run([sys.executable, "-m", "mobadj", "serve", "--config", str(path),
                        "--once", "-v"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, LOG_IMAP_PW=IMAP_PASSWORD),
                       preexec_fn=lambda: os.umask(0o022))
    assert r.returncode == 0 and "handled 1 mail(s)" in r.stdout, r.stderr
    log = tmp_path / "data" / "judge.log"
    text = log.read_text()
    assert re.search(r"handled <log-1@test.org> \(uid \d+\) from england@test.org", text)
    for secret in ("Pw-ENGLAND-19", "New-Secret-42", "Burgundy-plan-X", "SIGNON lg"):
        assert secret not in text and secret not in r.stderr, secret
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_only_the_programs_own_debug_lines_reach_the_log_and_rotated_files_stay_private(
        tmp_path):
    c = cfg(tmp_path, file="logs/judge.log", level="debug", max_mb=0.001, keep=1)
    old = os.umask(0o022)
    try:
        setup_logging(c.log)
        for n in range(20):  # past 1000 bytes: judge.log.1, and a new judge.log
            logging.getLogger("mobadj.judge").info("handled mail %d", n)
        logging.getLogger("mobadj.judge.mailbox").debug("IDLE done")
        logging.getLogger("imapclient.imaplib").debug("FETCH SIGNON g1 England s3cret")
        logging.getLogger("imapclient.imapclient").info("Connection closed")
    finally:
        os.umask(old)
    text = "".join(p.read_text() for p in (tmp_path / "logs").iterdir())
    assert "IDLE done" in text and "Connection closed" in text  # debug: the program's own
    assert "s3cret" not in text  # a library's protocol at debug: never
    for name in ("judge.log", "judge.log.1"):
        assert oct((tmp_path / "logs" / name).stat().st_mode & 0o777) == "0o600"
