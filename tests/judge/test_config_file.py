"""judge.yaml as a GM writes it, and what the commands then show: a wrong type is one line
naming the file, the key, the value and what was expected (never a traceback); a misspelt key
is warned of with the key meant; a password where a variable's name goes is never shown;
paths read alike (``~`` is the home folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.config import load_config
from mobadj.judge.core import Judge
from mobadj.judge.store import Store

from .helpers import mail

ROOT = Path(__file__).resolve().parents[2]
JUDGE = "judge:\n  address: judge@test.org\n  data_dir: judge-data\n"
SERVERS = ("imap: {host: localhost, port: 993, user: judge, password_env: QA_IMAP_PW}\n"
           "smtp: {host: localhost, port: 587, user: judge, password_env: QA_SMTP_PW}\n")


def write(folder: Path, text: str, name: str = "judge.yaml") -> Path:
    (folder / name).write_text(text)
    return folder / name


def mobadj(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """mobadj run as a GM runs it (and as systemd does: standard error is the journal)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mobadj", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def game_list(path: Path):
    return CliRunner().invoke(main, ["game", "list", "--config", str(path)])


@pytest.mark.parametrize("text, error", [
    (JUDGE + "imap: {host: h, poll_seconds: two}\n",
     "imap.poll_seconds: expected a number above 0, got 'two'"),
    (JUDGE + "imap: {host: h, port: \"imap\"}\n",
     "imap.port: expected a port number 1-65535, got 'imap'"),
    (JUDGE + "  max_body_bytes: 200KB\n",
     "judge.max_body_bytes: expected a number of bytes, e.g. 200000, got '200KB'"),
    (JUDGE + "game_defaults: [press, white]\n",
     "game_defaults: expected a mapping of option: value (e.g. deadline_hours: 48), got a list"),
    (JUDGE + "game_defaults: {deadline_hours: 48h}\n",
     "game_defaults: deadline_hours is a number of hours: '48h' is not one (did you mean 48?)"),
    (JUDGE + "imap: {host: h, idle: maybe}\n", "imap.idle: expected true or false, got 'maybe'"),
    (JUDGE + "log: {file: judge-data}\n",
     "log.file: 'judge-data' is a folder; expected the log file's name, e.g. "
     "'judge-data/judge.log'"),
    ("judge: judge@test.org\n", "judge: expected a mapping of name, address, data_dir, "
                                "timezone, gm_addresses, ..., got 'judge@test.org'"),
])
def test_a_wrong_type_is_one_line_naming_the_file_and_key(tmp_path, monkeypatch, text, error):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "judge-data").mkdir()
    result = game_list(write(tmp_path, text, "wrongtype.yaml").relative_to(tmp_path))
    assert result.exit_code == 1
    assert result.output == f"Error: wrongtype.yaml: {error}\n"


def test_the_judge_does_not_start_on_a_wrong_type_and_says_why_in_one_line(tmp_path):
    """Under systemd standard error is all the journal shows."""
    write(tmp_path, JUDGE + SERVERS.replace("port: 993", "port: \"imap\"")
          + "log: {file: judge-data}\n")
    (tmp_path / "judge-data").mkdir()
    proc = mobadj("serve", "--once", "--config", "judge.yaml", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == "Error: judge.yaml: imap.port: expected a port number 1-65535, " \
                          "got 'imap'\n"


def test_a_password_put_where_the_variable_goes_is_never_shown(tmp_path):
    path = write(tmp_path, JUDGE + SERVERS.replace("QA_IMAP_PW", '"S3cr3t!Imap#2026"'),
                 "pwenv.yaml")
    result = CliRunner().invoke(main, ["serve", "--once", "--config", str(path)])
    assert result.exit_code == 1 and "S3cr3t" not in result.output
    assert result.output.startswith(f"Error: {path}: imap.password_env: what is written there "
                                    "does not look like the name of an environment variable")
    assert "was the password itself put there?" in result.output


@pytest.mark.parametrize("key", ["pass", "passwd", "password"])
def test_a_secret_in_the_file_names_the_file_and_the_key_to_use(tmp_path, key):
    path = write(tmp_path, JUDGE + SERVERS.replace("password_env: QA_SMTP_PW",
                                                   f"{key}: hunter2smtp"), "pw.yaml")
    result = game_list(path)
    assert result.exit_code == 1 and "hunter2smtp" not in result.output
    assert f"Error: {path}: smtp.{key}: secrets do not belong in the file; put it in an " \
           "environment variable and name that variable with 'password_env' instead " \
           "(e.g. password_env: MOBADJ_SMTP_PASSWORD)" in result.output
    assert "judge.yaml" not in result.output


def test_a_misspelt_key_is_warned_of_with_the_key_meant(tmp_path):
    path = write(tmp_path, JUDGE + "  gm_adresses: [gm@test.org]\n"
                 + SERVERS.replace("password_env: QA_SMTP_PW", "pass_env: QA_SMTP_PW")
                 + "game_defaults: {deadline_hour: 36}\n")
    result = game_list(path)
    assert result.exit_code == 0 and "no games" in result.output
    assert f"Warning: {path}: judge.gm_adresses: unknown key, ignored (did you mean " \
           "'gm_addresses'?)" in result.output
    assert f"Warning: {path}: smtp.pass_env: unknown key, ignored (did you mean " \
           "'password_env'?)" in result.output
    assert f"Warning: {path}: game_defaults.deadline_hour: not an option of the judge (did you " \
           "mean 'deadline_hours'?)" in result.output


@pytest.mark.parametrize("written", ["gm@test.org", "gm@test.org, other@test.org"])
def test_gm_addresses_written_as_one_text_is_not_split_into_letters(tmp_path, written):
    path = write(tmp_path, JUDGE + f"  gm_addresses: {written}\n")
    cfg = load_config(path)
    assert cfg.gm_addresses[0] == "gm@test.org" and len(cfg.gm_addresses) == written.count("@")
    judge = Judge(Store(cfg.db_path), cfg, kdf_n=2**10)
    try:
        reply = judge.handle_mail(mail("gm@test.org",
                                       "CREATE autumn26 standard autumnpw1 press=grey"))[0].body
    finally:
        judge.store.close()
    assert "Game autumn26 (standard) created" in reply and "refused" not in reply


def test_a_gm_address_that_is_no_address_is_refused(tmp_path):
    result = game_list(write(tmp_path, JUDGE + "  gm_addresses: [gm]\n"))
    assert result.exit_code == 1
    assert "judge.gm_addresses: expected email addresses, got 'gm'" in result.output


def test_a_data_dir_under_the_home_folder(tmp_path, monkeypatch):
    """``data_dir: ~/...`` is read as ``log.file: ~/...`` is: in the home folder, not in a
    folder named ``~`` beside judge.yaml."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    conf = tmp_path / "conf"
    conf.mkdir()
    path = write(conf, "judge:\n  address: judge@test.org\n  data_dir: ~/judge-data\n"
                       "log: {file: ~/judge-data/judge.log}\n")
    result = CliRunner().invoke(main, ["game", "create", "g1", "--gm", "gm@test.org",
                                       "--config", str(path)])
    assert result.exit_code == 0, result.output
    assert (home / "judge-data" / "judge.sqlite").is_file()
    assert [p.name for p in conf.iterdir()] == ["judge.yaml"]
    cfg = load_config(path)
    assert cfg.log.file is not None and cfg.log.file.parent == cfg.data_dir
