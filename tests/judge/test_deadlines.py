"""Deadlines people live with: weekday rules, relative deadlines (+36h), an extension mail
that names who is late; the rules' arithmetic, the judge in memory, and by mail."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from mobadj.judge.deadlines import deadline_after, parse_when, weekdays

from .conftest import Table
from .e2e import send, text
from .helpers import mail

LONDON = ZoneInfo("Europe/London")


def at(text_: str, tz: ZoneInfo = LONDON) -> float:
    return datetime.fromisoformat(text_).replace(tzinfo=tz).timestamp()


def shown(ts: float, tz: ZoneInfo = LONDON) -> str:
    return datetime.fromtimestamp(ts, tz).strftime("%a %Y-%m-%d %H:%M")


RULES = {"deadline_days": ["mon", "thu"], "deadline_time": "18:00"}


@pytest.mark.parametrize("start, hours, expected", [
    ("2026-11-23 18:00", 48, "Thu 2026-11-26 18:00"),  # Monday + 48 h = Wednesday -> Thu
    ("2026-11-26 18:00", 48, "Mon 2026-11-30 18:00"),  # Thursday + 48 h = Saturday -> Mon
    ("2026-11-23 18:00", 72, "Thu 2026-11-26 18:00"),  # exactly on a deadline day
    ("2026-11-23 18:00", 0, "Mon 2026-11-23 18:00"),
    ("2026-11-23 18:01", 0, "Thu 2026-11-26 18:00"),
    ("2026-03-27 12:00", 48, "Mon 2026-03-30 18:00"),  # across the change to summer time
])
def test_weekday_rules(start, hours, expected):
    assert shown(deadline_after(at(start), hours, RULES, LONDON)) == expected


def test_weekday_rule_forms_and_time_zones():
    assert weekdays("Monday, thu") == weekdays(["mon", "THU"]) == [0, 3]
    with pytest.raises(ValueError, match="unknown weekday 'mun'"):
        weekdays("mun")
    paris = {"deadline_days": "fri", "deadline_time": "20:00 Europe/Paris"}
    assert shown(deadline_after(at("2026-11-23 18:00"), 24, paris, LONDON)) == \
        "Fri 2026-11-27 19:00"
    only_time = {"deadline_time": "21:30"}  # every day at 21:30
    assert shown(deadline_after(at("2026-11-23 22:00"), 1, only_time, LONDON)) == \
        "Tue 2026-11-24 21:30"
    assert deadline_after(100.0, 2, {}, LONDON) == 100.0 + 7200  # no rule: just the hours


def test_relative_deadlines():
    now = at("2026-11-23 18:00")
    assert shown(parse_when("+36h", LONDON, now)) == "Wed 2026-11-25 06:00"
    assert parse_when("+2d", LONDON, now) == now + 2 * 86400
    assert parse_when("+90 min", LONDON, now) == now + 5400
    with pytest.raises(ValueError, match="unknown time unit"):
        parse_when("+3 weeks", LONDON, now)


def test_a_time_the_clocks_skip_is_refused() -> None:
    with pytest.raises(ValueError, match=r"there is no 01:30 on 28 Mar 2027 in Europe/London "
                                         r"\(the clocks go forward then\)"):
        parse_when("2027-03-28 01:30", LONDON)
    assert shown(parse_when("2027-03-28 02:30", LONDON)) == "Sun 2027-03-28 02:30"
    # the hour that comes twice when they go back: its first time
    assert parse_when("2027-10-31 01:30", LONDON) == at("2027-10-31 00:30", ZoneInfo("UTC"))


def test_a_deadline_gone_by_is_refused(judge, table, clock) -> None:
    """"2026" for "2027": the phase would be adjudicated at the next tick, orders missing."""
    before = judge.store.game("g1").deadline
    r = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nDEADLINE 2026-01-16 08:00"))
    assert "has passed (it is Fri 15 Jan 2027" in r[0].body
    assert "PROCESS (mobadj game process) adjudicates the phase now" in r[0].body
    assert judge.store.game("g1").deadline == before
    r = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nDEADLINE 2027-03-28 01:30"))
    assert "there is no 01:30 on 28 Mar 2027" in r[0].body


def test_a_game_with_weekday_rules(judge, clock):
    clock.now = at("2027-01-18 09:00")  # a Monday morning
    t = Table(judge, deadline_days="mon,thu", deadline_time="18:00", deadline_hours=24)
    assert shown(judge.store.game("g1").deadline) == "Thu 2027-01-21 18:00"
    for seat in t.emails:
        judge.handle_mail(mail(t.emails[seat], t.signon(seat) + "go 1\nready"))
    assert shown(judge.store.game("g1").deadline) == "Thu 2027-01-21 18:00"  # Tue 9:00 +24h
    r = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET deadline_days mon,fry"))
    assert "unknown weekday 'fry'" in r[0].body


def test_gm_sets_a_relative_deadline_and_the_extension_names_who_is_late(judge, table, clock):
    r = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nDEADLINE +36h"))
    assert "Deadline set: Sat 16 Jan 2027 20:00 GMT" in r[0].body
    judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "go 1"))
    judge.handle_mail(mail("east@test.org", table.signon("EAST") + "go 1"))
    clock.advance(hours=37)
    out = judge.tick()
    ext = [m for m in out if "extended" in m.subject]
    assert len(ext) == 5  # the four players, and the GM
    assert "Orders for Turn 1 are missing from SOUTH, WEST;" in ext[0].body
    (gm,) = [m for m in ext if m.to == "gm@test.org"]
    assert gm.subject == "g1: deadline extended by the judge"
    assert "missing from SOUTH, WEST at the deadline" in gm.body


def test_deadlines_by_mail_through_the_servers(service, mail_servers, clock):
    S, judge = mail_servers, service.judge
    clock.now = at("2027-01-18 09:00", ZoneInfo("America/New_York"))  # Monday morning there
    judge.create_game("week", "standard", "gm@test.org", "gm-pw",
                      {"deadline_days": ["mon", "thu"], "deadline_time": "18:00"}, seed=4)
    send(S, "gm@test.org", "GM week gm-pw\naddplayer fr@test.org France fr-pass\n"
                           "addplayer de@test.org Germany de-pass\nstart")
    service.step()
    assert "Game started: Spring 1901 Movement, deadline Thu 21 Jan 2027 18:00 EST " \
           "(23:00 UTC)" in text(S.wait_for("gm@test.org", 1)[0])
    send(S, "fr@test.org", "SIGNON week France fr-pass\nSET TIMEZONE Europe/Paris\nA PAR - BUR")
    service.step()
    assert "Deadline for Spring 1901 Movement: Fri 22 Jan 2027 00:00 CET (23:00 UTC)" in \
        text(S.wait_for("fr@test.org", 3)[-1])
    send(S, "gm@test.org", "GM week gm-pw\nDEADLINE +36h")
    service.step()
    assert "Deadline set: Tue 19 Jan 2027 21:00 EST (02:00 UTC)" in \
        text(S.wait_for("gm@test.org", 2)[-1])
    clock.advance(hours=37)
    service.step()
    ext = text(S.wait_for("fr@test.org", 5)[-1])
    assert "are missing from GERMANY;" in ext and "CET" in ext



def started_with_orders_missing(S, service, clock) -> float:
    """A standard game by mail in which France has sent orders and Germany none: its
    deadline."""
    clock.now = at("2027-01-18 09:00", ZoneInfo("America/New_York"))
    service.judge.create_game("late", "standard", "gm@test.org", "gm-pw", {"picture": "none"},
                              seed=4)
    send(S, "gm@test.org", "GM late gm-pw\naddplayer fr@test.org France fr-pass\n"
                           "addplayer de@test.org Germany de-pass\nstart")
    service.step()
    send(S, "fr@test.org", "SIGNON late France fr-pass\nA PAR - BUR")
    service.step()
    return service.judge.store.game("late").deadline


def test_a_late_judge_extends_from_the_deadline_not_from_when_it_looked(
        service, mail_servers, clock):
    """The judge runs from cron (``serve --once``) and its run comes three hours after the
    deadline: the one extension for a first missed deadline still ends 24 hours after the
    deadline (Wed 09:00 -> Thu 09:00), as with a judge that was on time."""
    S = mail_servers
    deadline = started_with_orders_missing(S, service, clock)
    clock.now = deadline + 3 * 3600
    service.step()
    gm = [text(m) for m in S.inbox("gm@test.org")
          if m["Subject"] == "late: deadline extended by the judge"]
    assert len(gm) == 1
    assert "extended it once, to Thu 21 Jan 2027 09:00 EST (14:00 UTC)" in gm[0]
    assert "New deadline: Thu 21 Jan 2027 09:00 EST" in text(S.inbox("de@test.org")[-1])
    assert service.judge.store.game("late").deadline == deadline + 24 * 3600


def test_a_judge_back_after_the_extension_would_have_ended_adjudicates_at_once(
        service, mail_servers, clock):
    """Down from before the deadline until 30 hours after it: the 24 hours of extension
    are over, so the phase is adjudicated at once, Germany's orders missing, and nobody is
    told of an extension that has already ended."""
    S = mail_servers
    deadline = started_with_orders_missing(S, service, clock)
    clock.now = deadline + 30 * 3600
    service.step()
    subjects = [m["Subject"] for m in S.inbox("de@test.org")]
    assert "late: deadline extended" not in subjects
    assert "late: S1901M results" in subjects
    assert service.judge.store.game("late").phase == "F1901M"
