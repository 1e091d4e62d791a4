"""The GM's command line (click's CliRunner) on a real store file."""

from __future__ import annotations

import json
import os
import stat

import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.store import Store


def run(cfg, *args, ok=True, input=None):  # noqa: A002 (click's name)
    result = CliRunner().invoke(main, [*args[:2], "--config", str(cfg), *args[2:]],
                                input=input)
    if ok:
        assert result.exit_code == 0, result.output
    return result


def test_a_game_from_the_command_line(cfg, tmp_path):
    r = run(cfg, "game", "create", "cli1", "--kind", "standard", "--gm", "gm@test.org",
            "--option", "press=grey", "--seed", "5")
    assert r.output.startswith("Game cli1 (standard) created.\nGM password: ")
    assert ("\n(kept only as a hash; use --gm-password or MOBADJ_GM_PASSWORD to choose it)\n"
            in r.output), r.output
    run(cfg, "game", "add-player", "cli1", "e@test.org", "England")
    r = run(cfg, "game", "add-player", "cli1", "f@test.org", "fra")
    assert "FRANCE added" in r.output and "queued" in r.output
    r = run(cfg, "game", "start", "cli1")
    assert "Game started: Spring 1901 Movement" in r.output
    r = run(cfg, "game", "list")
    assert "cli1" in r.output and "S1901M" in r.output and "2 player(s)" in r.output
    run(cfg, "game", "extend", "cli1", "12h")
    run(cfg, "game", "pause", "cli1", "1d")
    run(cfg, "game", "resume", "cli1")
    r = run(cfg, "game", "process", "cli1")
    assert "S1901M resolved" in r.output
    r = run(cfg, "game", "rollback", "cli1")
    assert "S1901M rolled back" in r.output
    out = tmp_path / "export.json"
    run(cfg, "game", "export", "cli1", "-o", str(out))
    data = json.loads(out.read_text())
    assert data["options"]["press"] == "grey" and len(data["results"]) == 1
    assert "pw_hash" not in out.read_text()
    r = run(cfg, "game", "end", "cli1")
    store = Store(tmp_path / "d" / "judge.sqlite")
    assert store.game("cli1").status == "ended"
    assert len(store.unsent()) > 4  # mails wait in the outbox for the running judge
    store.close()


def test_the_address_and_the_power_in_either_order(cfg):
    """add-player takes EMAIL POWER and replace POWER EMAIL: a GM who gives them the other
    way round is understood (the one with an @ is the address)."""
    run(cfg, "game", "create", "cli2", "--gm", "gm@test.org")
    r = run(cfg, "game", "add-player", "cli2", "England", "e@test.org")
    assert "ENGLAND added: e@test.org" in r.output
    run(cfg, "game", "start", "cli2")
    r = run(cfg, "game", "replace", "cli2", "ann@test.org", "England")
    assert "ENGLAND is now played by ann@test.org" in r.output
    r = run(cfg, "game", "add-player", "cli2", "France", "Germany", ok=False)
    assert r.exit_code != 0 and "Traceback" not in r.output


def test_cli_errors_are_messages_not_tracebacks(cfg, tmp_path):
    r = run(cfg, "game", "start", "nosuch", ok=False)
    assert r.exit_code == 1 and "no game 'nosuch'" in r.output
    r = run(cfg, "game", "create", "x", "--kind", "chess", "--gm", "g@t.org", ok=False)
    assert "unknown game kind 'chess'" in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("judge: {address: j@t.org}\nsmtp: {host: h, password: hunter2}\n")
    r = CliRunner().invoke(main, ["game", "list", "--config", str(bad)])
    assert r.exit_code == 1 and "secrets do not belong" in r.output
    r = CliRunner().invoke(main, ["serve", "--config", str(cfg), "--once"])
    assert r.exit_code == 1 and "needs both an 'imap' and an 'smtp'" in r.output


def test_send_flag_mails_at_once(tmp_path, mail_servers):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({
        "judge": {"address": "judge@test.org", "data_dir": "d"},
        "smtp": {"host": "127.0.0.1", "port": mail_servers.smtp_port, "tls": "none",
                 "user": ""},
    }))
    run(cfg, "game", "create", "s1", "--kind", "standard", "--gm", "gm@test.org")
    r = run(cfg, "game", "add-player", "s1", "anna@test.org", "Italy", "--send")
    assert "1 mail(s) sent." in r.output
    (welcome,) = mail_servers.wait_for("anna@test.org", 1)
    assert welcome["Subject"] == "s1: you play ITALY"
    assert "SIGNON s1 ITALY" in welcome.get_body(("plain",)).get_content()


def test_serve_once_with_an_unreachable_server_is_one_clear_line(tmp_path):
    """A real subprocess of the CLI: no server listens on the port, so the IMAP connection is
    refused; the GM sees one line naming the server and why, never a socket traceback."""
    import subprocess
    import sys
    from pathlib import Path

    from .servers import free_port

    port = free_port()
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({
        "judge": {"address": "judge@test.org", "data_dir": "d"},
        "imap": {"host": "127.0.0.1", "port": port, "tls": "none", "user": "judge",
                 "password_env": "ONCE_IMAP_PW"},
        "smtp": {"host": "127.0.0.1", "port": free_port(), "tls": "none", "user": ""},
    }))
    mobadj = Path(sys.executable).with_name("mobadj")
    r = subprocess.run([str(mobadj), "serve", "--config", str(cfg), "--once"],
                       capture_output=True, text=True, timeout=60,
                       env={"ONCE_IMAP_PW": "x", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert lines == [f"Error: IMAP server 127.0.0.1:{port}: cannot connect "
                     "(Connection refused)"], r.stderr


def test_the_status_table_stays_aligned_when_a_power_missed_a_deadline(cfg):
    run(cfg, "game", "create", "st", "--gm", "gm@test.org", "-o", "picture=none", "--seed", "3")
    run(cfg, "game", "add-player", "st", "anna@test.org", "England")
    run(cfg, "game", "add-player", "st", "emil@test.org", "Austria")
    run(cfg, "game", "start", "st")
    CliRunner().invoke(main, ["game", "orders", "--config", str(cfg), "st", "england"],
                       input="F LON - NTH\n")
    early = run(cfg, "game", "process", "st").output  # a GM's PROCESS before the deadline:
    assert "S1901M resolved" in early  # Austria's missing orders are no missed deadline
    lines = run(cfg, "game", "status", "st").output.splitlines()
    assert "AUSTRIA  OWED    0       0/336h   emil@test.org (since the start)" in lines
    store = Store(cfg.parent / "d" / "judge.sqlite")  # the deadline passes, the judge not
    store.update_game("st", deadline=store.game("st").deadline - 49 * 3600)  # having run
    store.close()
    CliRunner().invoke(main, ["game", "orders", "--config", str(cfg), "st", "england"],
                       input="F NTH H\n")
    run(cfg, "game", "process", "st")  # Austria sent nothing: its first missed deadline
    lines = run(cfg, "game", "status", "st").output.splitlines()
    assert "seat     orders  missed          absence  player" in lines
    assert "ENGLAND  OWED    0               0/336h   anna@test.org (since the start)" in lines
    assert "AUSTRIA  OWED    1 (1 in a row)  0/336h   emil@test.org (since the start)" in lines
    assert "FRANCE   OWED    -               -        no player (civil disorder)" in lines


def test_an_export_is_written_for_the_gm_alone(cfg, tmp_path):
    run(cfg, "game", "create", "ex", "--gm", "gm@test.org", "-o", "press=grey", "--seed", "3")
    run(cfg, "game", "add-player", "ex", "ben@test.org", "France")
    run(cfg, "game", "start", "ex")
    old = tmp_path / "ex.json"
    old.write_text("an export of last year\n")
    old.chmod(0o644)
    fresh = tmp_path / "archive" / "ex.json"
    fresh.parent.mkdir()
    umask = os.umask(0o022)  # the usual one: files readable by everyone
    try:
        run(cfg, "game", "export", "ex", "-o", str(old))
        run(cfg, "game", "export", "ex", "-o", str(fresh))
    finally:
        os.umask(umask)
    for written in (old, fresh):
        assert stat.S_IMODE(written.stat().st_mode) == 0o600
        assert json.loads(written.read_text())["players"][0]["email"] == "ben@test.org"
    assert sorted(p.name for p in fresh.parent.iterdir()) == ["ex.json"]
    r = run(cfg, "game", "export", "ex", "-o", str(tmp_path / "nosuch" / "ex.json"), ok=False)
    assert r.exit_code == 1 and "cannot write" in r.output and "Traceback" not in r.output


def test_process_names_the_phase_it_may_adjudicate(cfg):
    run(cfg, "game", "create", "p1", "--kind", "standard", "--gm", "gm@test.org")
    run(cfg, "game", "add-player", "p1", "e@test.org", "England")
    run(cfg, "game", "start", "p1")
    refused = run(cfg, "game", "process", "p1", "F1901M", ok=False)
    assert refused.exit_code == 1
    assert ("Error: PROCESS F1901M: the game is not at F1901M; the game is at S1901M now. "
            "Nothing was adjudicated") in refused.output
    assert "S1901M resolved" in run(cfg, "game", "process", "p1", "s1901m").output
    refused = run(cfg, "game", "process", "p1", "S1901M", ok=False)
    assert "PROCESS S1901M: S1901M was adjudicated at " in refused.output


def test_game_list_shows_what_each_game_waits_for(cfg):
    run(cfg, "game", "create", "form1", "--gm", "gm@test.org")  # forming: no deadline yet
    run(cfg, "game", "create", "run1", "--gm", "gm@test.org", "-o", "picture=none")
    run(cfg, "game", "add-player", "run1", "e@test.org", "England")
    run(cfg, "game", "start", "run1")
    run(cfg, "game", "create", "halt1", "--gm", "gm@test.org", "-o", "picture=none")
    run(cfg, "game", "add-player", "halt1", "e@test.org", "England")
    run(cfg, "game", "start", "halt1")
    paused = run(cfg, "game", "pause", "halt1", "3d").output.splitlines()[0]  # Paused until .
    rows = {line.split()[0]: line for line in run(cfg, "game", "list").output.splitlines()}
    assert rows["form1"].endswith("0 player(s)  no deadline"), rows
    assert "deadline no deadline" not in rows["form1"]
    assert rows["run1"].split("  deadline ")[1].endswith(" UTC")
    until = paused.removeprefix("Paused until ").removesuffix(".")
    assert rows["halt1"].endswith(f"1 player(s)  paused until {until}"), (rows, paused)
    assert "deadline" not in rows["halt1"]


def test_the_gm_password_from_the_command_line_is_as_long_as_a_players(cfg, monkeypatch):
    r = run(cfg, "game", "create", "weak1", "--gm", "gm@test.org", "--gm-password", "x",
            ok=False)
    assert r.exit_code == 1 and "the GM password: choose one word of at least 6" in r.output
    monkeypatch.setenv("MOBADJ_GM_PASSWORD", "gm pw")
    r = run(cfg, "game", "create", "weak2", "--gm", "gm@test.org", ok=False)
    assert r.exit_code == 1 and "choose one word" in r.output
    assert "weak" not in run(cfg, "game", "list").output  # no game was made
    monkeypatch.setenv("MOBADJ_GM_PASSWORD", "Gm-Secret-1")
    assert "Game good1 (standard) created." in run(cfg, "game", "create", "good1", "--gm",
                                                   "gm@test.org").output
    r = run(cfg, "game", "set", "good1", "password", "a", ok=False)
    assert r.exit_code == 1 and "SET PASSWORD: choose one word of at least 6" in r.output
    assert "GM password changed." in run(cfg, "game", "set", "good1", "password",
                                         "Gm-Secret-2").output


def test_an_ended_game_is_deleted_with_what_was_kept_of_it(cfg, tmp_path):
    """`game delete` takes a game that is over out of the store, with its players' addresses
    and private press, and leaves them readable nowhere in the file; an active game, or one
    whose last mails are not sent yet, is refused, and the GM is asked first."""
    for name in ("old1", "keep1"):
        run(cfg, "game", "create", name, "--gm", "gm@test.org", "--seed", "3")
        run(cfg, "game", "add-player", name, f"anna.{name}@test.org", "England")
        run(cfg, "game", "start", name)
    db = tmp_path / "d" / "judge.sqlite"
    store = Store(db)
    with store.transaction():
        store.add_press("old1", "S1901M", "ENGLAND", ["FRANCE"], False,
                        "my private plan: secret-handshake-ben", 1.0)
    store.close()
    r = run(cfg, "game", "delete", "old1", "--yes", ok=False)
    assert r.exit_code == 1 and "old1 is active: end it first (mobadj game end old1)" in r.output
    run(cfg, "game", "end", "old1")
    r = run(cfg, "game", "delete", "old1", "--yes", ok=False)
    assert r.exit_code == 1 and "mail(s) of old1 wait to be sent" in r.output
    store = Store(db)
    with store.transaction():
        store.mark_all_sent(2.0)  # as the running judge does once it has sent them
    store.close()
    r = run(cfg, "game", "delete", "old1", input="n\n", ok=False)
    assert "Delete old1 and everything kept of it" in r.output and r.exit_code == 1
    assert "nothing was deleted" in r.output
    r = run(cfg, "game", "delete", "OLD1", "--yes")
    assert r.output.startswith("Deleted old1 (") and "press 1" in r.output
    assert "Backups made before still hold it." in r.output
    listed = run(cfg, "game", "list").output
    assert "old1" not in listed and "keep1" in listed
    kept = b"".join(p.read_bytes() for p in db.parent.glob("judge.sqlite*"))
    assert b"secret-handshake-ben" not in kept and b"anna.old1@test.org" not in kept
    assert b"anna.keep1@test.org" in kept
    r = run(cfg, "game", "delete", "old1", "--yes", ok=False)
    assert r.exit_code == 1 and "no game 'old1'" in r.output
