"""A judge run for a few weeks of a Mobtown II game as a GM runs it (tests/judge/year.py):
six players and an observer, pictures on, press, a resignation and a takeover, through the
real servers and the real serve loop; the store is backed up and the backup restored while
the judge runs.  The whole year (52 weeks) is bench/judge_year.py; its figures are in
docs/gm-guide.md."""

from __future__ import annotations

import sqlite3

from .year import simulate


def test_weeks_of_mobtown_leave_a_small_store(tmp_path, mail_servers):
    figures = simulate(tmp_path, mail_servers, weeks=3)
    assert figures.phases >= 4 and figures.mails_out > 100
    db = sqlite3.connect(tmp_path / "judge.sqlite")
    # every mail went out; no picture is kept once delivered (each results mail carried
    # a map.svg and a map.png of about 200 KB each, to seven readers)
    assert db.execute("SELECT COUNT(*) FROM outbox WHERE sent IS NULL").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM outbox_files").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM outbox WHERE attachments LIKE '%\"data\"%'"
                      ).fetchone()[0] == 0
    pictures = db.execute("SELECT COUNT(*) FROM outbox WHERE attachments LIKE '%map.png%'"
                          ).fetchone()[0]
    assert pictures >= 7 * 4
    tenures = db.execute("SELECT how FROM tenures WHERE end IS NULL ORDER BY how").fetchall()
    assert ("took over",) in tenures
    db.close()
    # what a week costs in the store: results and the mail's records, never the pictures
    assert figures.tables["outbox"] / figures.mails_out < 3000
    assert figures.tables["results"] / figures.phases < 12_000
    assert figures.store_bytes < 1_500_000 and figures.compact_bytes < 800_000
    assert figures.backup_seconds < 5 and figures.restore_seconds < 5
