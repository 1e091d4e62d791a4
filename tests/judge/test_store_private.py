"""The judge's store is its user's alone: it holds private press, card hands and, in the
outbox, welcome mails with passwords.  Made by the real command line under the usual umask
(022), the store, its SQLite companions and its copies are 0600 and a new data folder 0700;
a store an older mobadj left readable to everyone is no longer so once opened; a folder
where no store can be made is a one-line error."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.judge.store import Store, StoreError

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX"),
              pytest.mark.pure_only]  # file modes: no phase adjudicated

CONFIG = """judge:
  name: Club Judge
  address: judge@example.org
  data_dir: {data}
  gm_addresses: [gm@example.org]
"""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def mobadj(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mobadj", *args, "-c", str(folder / "judge.yaml")],
                          capture_output=True, text=True, timeout=120, cwd=folder,
                          preexec_fn=lambda: os.umask(0o022))


def test_a_store_made_by_the_command_line_is_its_users_alone(tmp_path) -> None:
    (tmp_path / "judge.yaml").write_text(CONFIG.format(data="data/judge"))
    made = mobadj(tmp_path, "game", "create", "g1", "--gm", "gm@example.org")
    assert made.returncode == 0, made.stderr
    added = mobadj(tmp_path, "game", "add-player", "g1", "ann@example.org", "England")
    assert added.returncode == 0, added.stderr
    data = tmp_path / "data" / "judge"
    assert mode(data) == 0o700
    store = data / "judge.sqlite"
    db = sqlite3.connect(store)  # (while it is open, SQLite keeps its log and memory files)
    try:  # the welcome mail, password and all, waits there
        assert "Your password:" in db.execute("SELECT body FROM outbox").fetchone()[0]
        made = [p for p in data.iterdir() if p.name.startswith("judge.sqlite")]
        assert store in made and len(made) == 3  # judge.sqlite, -wal and -shm
        assert {p.name: mode(p) for p in made} == {p.name: 0o600 for p in made}
    finally:
        db.close()
    backup = mobadj(tmp_path, "store", "backup", "copies/")
    assert backup.returncode == 0, backup.stderr
    [copy] = (tmp_path / "copies").iterdir()
    assert mode(copy) == 0o600
    for one in data.iterdir():  # a new machine: the backup is restored where no store is
        one.unlink()
    restored = mobadj(tmp_path, "store", "restore", str(copy), "--yes")
    assert restored.returncode == 0, restored.stderr
    assert mode(store) == 0o600
    lock = data / "judge.sqlite.lock"  # held while the store is put in place; names a pid
    assert lock.exists() and mode(lock) == 0o600


def test_a_store_left_readable_to_everyone_is_not_when_opened(tmp_path) -> None:
    """An older mobadj's store (0644) loses what everyone may do; the group keeps what it
    was given (a group the store is shared with on purpose)."""
    path = tmp_path / "judge.sqlite"
    Store(path).close()
    path.chmod(0o664)
    Store(path).close()
    assert mode(path) == 0o660


def test_a_data_folder_where_no_store_can_be_made_is_one_line(tmp_path) -> None:
    (tmp_path / "file").write_text("not a folder")
    (tmp_path / "judge.yaml").write_text(CONFIG.format(data=tmp_path / "file" / "data"))
    proc = mobadj(tmp_path, "game", "list")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("Error: ") and "see data_dir in judge.yaml" in proc.stderr
    with pytest.raises(StoreError, match="cannot be made or opened there"):
        Store(tmp_path / "file" / "judge.sqlite")
