"""A store that is damaged, cut short or emptied, and the backups kept beside the store's
own copies: ``mobadj store check`` says "damaged", ``store restore`` puts a sound backup in
its place (keeping the damaged file whole) and refuses an unsound or empty backup naming
it, ``store backup --keep`` counts only the backups it writes, and an empty file is never
taken for a new store.  Real SQLite files; the commands run as a GM runs them."""

from __future__ import annotations

import gzip
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.service import one_judge
from mobadj.judge.store import Store

from .e2e import send
from .servers import IMAP_PASSWORD, IMAP_USER, JUDGE_ADDRESS

MOBADJ = str(Path(sys.executable).with_name("mobadj"))
FIXTURE = Path(__file__).parent / "data" / "store-schema1.sql.gz"


def judge_yaml(tmp_path: Path, servers=None) -> Path:
    data: dict = {"judge": {"name": "Damage Judge", "address": JUDGE_ADDRESS,
                            "data_dir": "d", "timezone": "UTC",
                            "gm_addresses": ["gm@test.org"]}}
    if servers is not None:
        data["imap"] = {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                        "user": IMAP_USER, "password_env": "DAMAGE_IMAP_PW"}
        data["smtp"] = {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none",
                        "user": ""}
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def run(cfg: Path, *args: str, ok: bool = True):
    r = CliRunner().invoke(main, [*args[:2], "--config", str(cfg), *args[2:]])
    if ok:
        assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output and not isinstance(r.exception, (OSError,
                                                                      sqlite3.Error))
    return r


def games(path: Path) -> list[str]:
    store = Store(path, readonly=True)
    try:
        return [g.name for g in store.games()]
    finally:
        store.close()


def a_judge(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A judge with game "g", a backup of it, then game "h" made after the backup."""
    cfg = judge_yaml(tmp_path)
    run(cfg, "game", "create", "g", "--gm", "gm@test.org", "--gm-password", "gm-secret")
    backup = tmp_path / "bk.sqlite"
    run(cfg, "store", "backup", str(backup))
    run(cfg, "game", "create", "h", "--gm", "gm@test.org", "--gm-password", "gm-secret")
    return cfg, tmp_path / "d" / "judge.sqlite", backup


def grow(path: Path) -> None:
    """Give the store some pages to spare (a store a season old has them)."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE filler (x TEXT)")
    db.executemany("INSERT INTO filler VALUES (?)", [("y" * 500,)] * 2000)
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def test_keep_counts_only_the_backups_it_wrote(tmp_path):
    cfg, live, backup = a_judge(tmp_path)
    data = live.parent  # the backups go beside the store and its own kept copies
    kept = ["judge-replaced-2026-11-29T114140Z.sqlite", "judge-schema1.sqlite",
            "judge-before-upgrade.sqlite"]  # the last one the GM's own
    older = ["judge-2026-01-01T030000Z.sqlite", "judge-2026-01-02T030000Z.sqlite",
             "judge-2026-01-03T030000Z.sqlite"]
    for name in kept + older:
        shutil.copyfile(backup, data / name)
    for end in ("-wal", "-shm"):  # what SQLite left beside a backup someone read
        (data / (older[0] + end)).write_bytes(b"")

    r = run(cfg, "store", "backup", str(data), "--keep", "2")
    written = r.output.split("backup written: ")[1].split(" (")[0]
    assert Path(written).parent == data and Path(written).stat().st_size > 0
    names = sorted(p.name for p in data.iterdir())
    assert [n for n in names if n.startswith("judge-20")] == [older[2], Path(written).name]
    assert all(n in names for n in kept)  # the kept copies are no backups: all stay
    assert not any(n.startswith(older[0]) for n in names)  # nor the pruned one's side files

    # a backup dated later than now (a clock set wrong once) never pushes out the new one
    folder = tmp_path / "bk"
    folder.mkdir()
    shutil.copyfile(backup, folder / "judge-2099-01-01T000000Z.sqlite")
    r = run(cfg, "store", "backup", str(folder), "--keep", "1")
    assert [p.name for p in folder.iterdir()] == [Path(r.output.split("backup written: ")[1]
                                                       .split(" (")[0]).name]


def test_a_sound_backup_is_restored_over_a_store_cut_short(tmp_path):
    cfg, live, backup = a_judge(tmp_path)
    live.write_bytes(live.read_bytes()[:live.stat().st_size // 3])  # a copy cut short
    cut = live.read_bytes()

    r = run(cfg, "store", "check", ok=False)
    assert r.exit_code == 1
    assert f"{live}: damaged (database disk image is malformed)" in r.output
    assert "not a judge store" not in r.output
    assert "restore the latest backup with mobadj store restore" in r.output
    r = run(cfg, "game", "list", ok=False)
    assert r.exit_code == 1 and "damaged" in r.output and "not a judge store" not in r.output

    r = run(cfg, "store", "restore", str(backup), "--yes")
    kept = next(live.parent.glob("judge-replaced-*.sqlite"))
    assert f"{live} was damaged (" in r.output and f"kept as {kept}" in r.output
    assert kept.read_bytes() == cut  # whole, as it was
    assert "restored" in r.output and games(live) == ["g"]
    assert "sound" in run(cfg, "store", "check").output
    assert not list(live.parent.glob(".*"))  # no staging file left


def test_a_sound_backup_is_restored_over_a_store_damaged_inside(tmp_path):
    cfg, live, backup = a_judge(tmp_path)
    grow(live)
    raw = bytearray(live.read_bytes())
    raw[len(raw) // 2:len(raw) // 2 + 8192] = bytes(8192)  # two pages zeroed
    live.write_bytes(bytes(raw))
    r = run(cfg, "store", "check", ok=False)
    assert r.exit_code == 1
    assert re.search(rf"{re.escape(str(live))}: [\d.]+ MB, DAMAGED", r.output)
    assert f"{live} is damaged: restore the latest backup" in r.output
    assert live.read_bytes() == bytes(raw)  # checked, not written into
    r = run(cfg, "serve", "--once", ok=False)  # no judge starts on it
    assert r.exit_code == 1 and f"Error: {live}: damaged (" in r.output
    assert "restore the latest backup with mobadj store restore" in r.output
    assert live.read_bytes() == bytes(raw)

    # a backup cut short is refused, named, and the store left as it is
    cut = tmp_path / "bk-cut.sqlite"
    cut.write_bytes(backup.read_bytes()[:8192])
    r = run(cfg, "store", "restore", str(cut), "--yes", ok=False)
    assert r.exit_code == 1 and f"Error: {cut} is not sound" in r.output
    assert live.read_bytes() == bytes(raw)

    # a judge still serving the damaged file would write on into the file replaced
    held = one_judge(live)
    try:
        r = run(cfg, "store", "restore", str(backup), "--yes", ok=False)
    finally:
        held.close()
    assert r.exit_code == 1 and f"a judge (pid {os.getpid()}) is serving {live}: stop it " \
        "first" in r.output
    assert live.read_bytes() == bytes(raw) and not list(live.parent.glob("judge-replaced*"))

    r = run(cfg, "store", "restore", str(backup), "--yes")
    assert "the copy is not sound" not in r.output and f"{live} was damaged" in r.output
    kept = next(live.parent.glob("judge-replaced-*.sqlite"))
    assert kept.read_bytes() == bytes(raw)
    assert games(live) == ["g"] and "sound" in run(cfg, "store", "check").output


def test_an_empty_file_is_no_store_and_no_backup(tmp_path, mail_servers):
    cfg, live, backup = a_judge(tmp_path)
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    r = run(cfg, "store", "restore", str(empty), "--yes", ok=False)
    assert r.exit_code == 1 and f"Error: {empty} is empty (0 bytes)" in r.output
    assert games(live) == ["g", "h"]

    live.write_bytes(b"")  # the store cut to nothing (a copy to a full disk)
    for leftover in live.parent.glob("judge.sqlite-*"):
        leftover.unlink()
    r = run(cfg, "store", "check", ok=False)
    assert r.exit_code == 1 and f"{live}: empty (0 bytes)" in r.output
    assert "sound" not in r.output
    run(cfg, "game", "list", ok=False)
    r = run(cfg, "store", "backup", str(tmp_path / "of-nothing.sqlite"), ok=False)
    assert "empty (0 bytes)" in r.output and not (tmp_path / "of-nothing.sqlite").exists()

    # the judge does not take it for a new store: the mail in its mailbox is not answered
    # again, and it says why it does not start
    served = judge_yaml(tmp_path, mail_servers)
    send(mail_servers, "ben@test.org", "SIGNON g FRANCE whatever\nA PAR - BUR")
    r = subprocess.run([MOBADJ, "serve", "--once", "--config", str(served)],
                       env=dict(os.environ, DAMAGE_IMAP_PW=IMAP_PASSWORD),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and f"Error: {live}: empty (0 bytes)" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert live.stat().st_size == 0 and mail_servers.inbox("ben@test.org") == []

    # a sound backup restored over it: nothing to keep of an empty file
    r = run(cfg, "store", "restore", str(backup), "--yes")
    assert f"{live} was an empty file (0 bytes)" in r.output
    assert not list(live.parent.glob("judge-replaced-*")) and games(live) == ["g"]


def test_a_restore_leaves_the_backup_as_found_and_its_folder_private(tmp_path):
    cfg, live, backup = a_judge(tmp_path)
    backups = tmp_path / "backups"
    r = run(cfg, "store", "backup", str(backups) + "/")
    written = Path(r.output.split("backup written: ")[1].split(" (")[0])
    old = tmp_path / "old-backup.sqlite"  # made by an older mobadj
    db = sqlite3.connect(old)
    db.executescript(gzip.decompress(FIXTURE.read_bytes()).decode())
    db.close()

    # on a new machine: no data_dir yet; the GM's umask lets everyone read what they make
    elsewhere = tmp_path / "new"
    elsewhere.mkdir()
    new_cfg = judge_yaml(elsewhere)
    for source in (written, old):
        r = subprocess.run(["sh", "-c", 'umask 022; exec "$@"', "sh", MOBADJ, "store",
                            "restore", "--yes", "--config", str(new_cfg), str(source)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert oct((elsewhere / "d").stat().st_mode & 0o777) == "0o700"
        assert ".restoring" not in r.stdout + r.stderr
    assert sorted(p.name for p in backups.iterdir()) == [written.name]  # no -wal, -shm
    assert (f"{old} was made by an older mobadj (store schema 1): brought up to date on the "
            "way in") in r.stdout
    assert sorted(games(elsewhere / "d" / "judge.sqlite")) == ["old1", "old2"]

    # a backup of a newer mobadj is refused by its own name
    db = sqlite3.connect(written)
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    r = run(new_cfg, "store", "restore", str(written), "--yes", ok=False)
    assert f"Error: {written}: made by a newer mobadj (store schema 99" in r.output
    assert ".restoring" not in r.output
