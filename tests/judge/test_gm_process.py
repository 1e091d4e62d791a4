"""The GM's PROCESS before the deadline moves the game on without anyone missing a deadline:
the players without orders get the rules' defaults, but no missed deadline is counted, no
power goes into civil disorder, and the one first-miss extension is kept.  A PROCESS once the
deadline has passed (the judge not having run yet) counts as the deadline would."""

from __future__ import annotations

from mobadj.judge.overview import status_text

from .conftest import Table
from .helpers import mail


def gm(judge, text: str):
    return judge.handle_mail(mail("gm@test.org", f"GM g1 gm-secret\n{text}"))


def to(out, address: str):
    return [m for m in out if m.to == address]


def status(judge, clock) -> list[str]:
    return status_text(judge, judge.store.game("g1"), clock()).splitlines()


def test_early_process_is_no_missed_deadline(judge, table, clock):
    judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "go 2"))
    for turn in (1, 2):  # the GM moves the game on twice, each a day before the deadline
        clock.advance(hours=1)
        out = gm(judge, "PROCESS")
        assert f"T{turn} resolved" in out[0].body
        (results,) = to(out, "east@test.org")
        missing = "EAST, SOUTH, WEST" if turn == 1 else "NORTH, EAST, SOUTH, WEST"
        assert (f"No orders from {missing}: the GM adjudicated before the deadline"
                in results.body)
        assert "so this is not a missed deadline (the rules' defaults were used)" in results.body
        assert "missed" not in results.body.replace("not a missed deadline", "")
        assert "civil disorder" not in results.body
        assert not [m for m in out if "civil disorder" in m.subject]
    lines = status(judge, clock)
    assert any(line.startswith("EAST") and "OWED    0" in line and "disorder" not in line
               and "TAKEOVER" not in line for line in lines), lines
    assert "Owe orders: NORTH, EAST, SOUTH, WEST" in lines
    for seat in ("NORTH", "EAST", "SOUTH", "WEST"):
        p = judge.store.player("g1", seat)
        assert (p.nmr_total, p.nmr_streak, p.status) == (0, 0, "active")
    out = judge.handle_mail(mail("newbie@x.org", "TAKEOVER g1 East"))
    assert "EAST is not open for takeover" in out[0].body
    # a deadline really missed later still gets the one first-miss extension
    for seat in ("NORTH", "EAST", "SOUTH"):
        judge.handle_mail(mail(table.emails[seat], table.signon(seat) + "go 1"))
    clock.advance(hours=48)
    out = judge.tick()
    assert any(m.to == "west@test.org" and "extends it once" in m.body for m in out)


def test_process_after_the_deadline_counts_it_as_missed(judge, clock):
    t = Table(judge, extend_first_nmr_hours=0, disorder_after_nmr=1)
    judge.handle_mail(mail("north@test.org", t.signon("NORTH") + "go 2"))
    clock.advance(hours=49)  # the deadline passed; the judge has not run since
    out = gm(judge, "PROCESS T1")
    (results,) = to(out, "north@test.org")
    assert "No orders received from: EAST, SOUTH, WEST (the rules' defaults" in results.body
    assert "EAST has missed 1 deadlines in a row and is now in civil disorder" in results.body
    assert judge.store.player("g1", "EAST").nmr_total == 1
    assert judge.store.player("g1", "NORTH").nmr_total == 0


def test_process_during_a_first_miss_extension_counts_the_miss(judge, table, clock):
    judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "go 2"))
    clock.advance(hours=48)
    assert any("extends it once" in m.body for m in judge.tick())
    clock.advance(hours=1)  # the GM will not wait the day the judge gave
    out = gm(judge, "PROCESS")
    assert "No orders received from: EAST, SOUTH, WEST" in to(out, "north@test.org")[0].body
    assert judge.store.player("g1", "EAST").nmr_total == 1
