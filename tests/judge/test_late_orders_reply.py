"""Orders that came a minute after the deadline (the judge runs from cron): the phase they
were meant for is adjudicated first, and the reply says plainly that the mail came too late
for it, with both times.  Orders that are all impossible in the phase now played are no
orders: the power still owes them, and is reminded.  Real servers, as in test_late_mail."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

from mobadj.judge import reports
from mobadj.judge.overview import status_text

from .e2e import send, text
from .helpers import mail
from .test_late_mail import _arrived

NEW_YORK = ZoneInfo("America/New_York")  # the e2e judge's time zone


def _started(service, servers) -> tuple[str, str]:
    judge = service.judge
    judge.create_game("late", "standard", "gm@test.org", "gm-pw",
                      {"grace_hours": "0", "extend_first_nmr_hours": "0", "picture": "none"},
                      seed=5)
    send(servers, "gm@test.org", "GM late gm-pw\naddplayer eng@test.org England\n"
         "addplayer fra@test.org France\nstart")
    assert service.step() == 1
    pw = [re.search(r"Your password: (\S+)", text(servers.wait_for(a, 1)[0])).group(1)
          for a in ("eng@test.org", "fra@test.org")]
    return pw[0], pw[1]


def test_fall_orders_a_minute_late_are_told_late_and_do_not_count_for_the_winter(
        service, mail_servers, clock):
    S, judge = mail_servers, service.judge
    eng, fra = _started(service, S)
    spring = judge.store.game("late").deadline
    _arrived(S, "fra@test.org", f"SIGNON late france {fra}\nA PAR - BUR\nA MAR - SPA\n"
             "F BRE - MAO", spring - 600)
    _arrived(S, "eng@test.org", f"SIGNON late england {eng}\nF LON - NTH", spring - 300)
    clock.now = spring + 30
    assert service.step() == 2
    fall = judge.store.game("late").deadline
    assert judge.store.game("late").phase == "F1901M"
    # France's fall orders reach the mailbox a minute after the deadline; the judge (cron)
    # reads them a minute later
    _arrived(S, "eng@test.org", f"SIGNON late england {eng}\nF NTH H", fall - 300)
    _arrived(S, "fra@test.org", f"Hi judge,\nSIGNON late france {fra}\nA BUR - BEL\n"
             "A SPA H\nF MAO - POR\nCheers, Fran", fall + 60)
    clock.now = fall + 120
    assert service.step() == 2
    game = judge.store.game("late")
    assert game.phase == "W1901A"  # France owns Spain: a build is due
    reply = text(S.wait_for("fra@test.org", 5)[-1])
    came, due = (reports.when(t, NEW_YORK) for t in (fall + 60, fall))
    assert (f"Your mail reached the judge at {came}, after the deadline of Fall 1901 "
            f"Movement ({due}): Fall 1901 Movement was already adjudicated, so these orders "
            "were not used for it.") in reply, reply
    assert "The judge read them as orders for Winter 1901 Adjustments" in reply
    assert ("None of these orders is possible in Winter 1901 Adjustments, so they were not "
            "taken: they do not count as orders from FRANCE") in reply
    # France still owes its orders: listed as owing, reminded before the winter deadline
    status = status_text(judge, game, clock())
    assert "Owe orders: FRANCE" in status
    assert re.search(r"^FRANCE\s+OWED\s", status, re.M), status
    clock.now = game.deadline - 6 * 3600
    reminders = [m for m in judge.tick() if m.subject == "late: reminder"]
    assert [m.to for m in reminders] == ["fra@test.org"]
    # a build sent now is taken, with no word of lateness
    out = judge.handle_mail(mail("fra@test.org", f"SIGNON late france {fra}\nBuild A PAR"))
    assert "Build A PAR" in out[0].body and "reached the judge" not in out[0].body
    assert "Owe orders: nobody" in status_text(judge, judge.store.game("late"), clock())


def test_orders_all_impossible_now_are_not_orders_in(judge, clock):
    judge.create_game("imp", "standard", "gm@test.org", "gm-pw", {"picture": "none"}, seed=3)
    out = judge.handle_mail(mail("gm@test.org", "GM imp gm-pw\naddplayer eng@test.org England"
                                 "\nstart"))
    pw = re.search(r"Your password: (\S+)", next(m for m in out if m.to == "eng@test.org").body)
    signon = f"SIGNON imp england {pw.group(1)}\n"
    out = judge.handle_mail(mail("eng@test.org", signon + "A PAR - BUR\nF KIE - HOL\nREADY"))
    body = out[0].body
    assert "None of these orders is possible in Spring 1901 Movement" in body
    assert "READY was not set" in body and "reached the judge" not in body  # not late
    assert judge.store.orders("imp", "S1901M") == {}
    # one possible order among impossible ones: the orders are in
    out = judge.handle_mail(mail("eng@test.org", signon + "A PAR - BUR\nF LON - NTH"))
    assert judge.store.orders("imp", "S1901M") == {"ENGLAND": "A PAR - BUR\nF LON - NTH"}


def test_orders_of_a_power_that_missed_the_spring_are_told_late_though_they_fit_the_fall(
        service, mail_servers, clock):
    """France sends nothing for the spring; its orders reach the judge an hour after the
    deadline, the spring adjudicated (its units held).  They fit the fall as well, and are
    read for it: the answer says the mail came late, with both times, and that the spring
    went without France's orders."""
    S, judge = mail_servers, service.judge
    eng, fra = _started(service, S)
    spring = judge.store.game("late").deadline
    _arrived(S, "eng@test.org", f"SIGNON late england {eng}\nF LON - NTH", spring - 300)
    clock.now = spring + 30
    assert service.step() == 1
    assert judge.store.game("late").phase == "F1901M"
    _arrived(S, "fra@test.org", f"SIGNON late F {fra}\nA Par-Bur\nA Mar-Spa\nF Bre-Mao",
             spring + 3600)
    # England, whose spring orders were in, sends its fall orders: nothing said of lateness
    _arrived(S, "eng@test.org", f"SIGNON late england {eng}\nF NTH - NWY", spring + 3700)
    clock.now = spring + 3800
    assert service.step() == 2
    reply = text(S.wait_for("fra@test.org", 3)[-1])
    came, due = (reports.when(t, NEW_YORK) for t in (spring + 3600, spring))
    assert (f"Your mail reached the judge at {came}, after the deadline of Spring 1901 "
            f"Movement ({due}): Spring 1901 Movement was already adjudicated without orders "
            "from FRANCE (without orders, its units held), so these orders were not used for it. "
            "The judge read them as orders for Fall 1901 Movement, the phase now played.\n\n"
            "Orders for FRANCE, Fall 1901 Movement, as the judge reads them:\n"
            "  A PAR - BUR\n  A MAR - SPA\n  F BRE - MAO") in reply, reply
    assert "reached the judge" not in text(S.wait_for("eng@test.org", 4)[-1])
    # France's correction, once told: no word of lateness again
    _arrived(S, "fra@test.org", f"SIGNON late F {fra}\nA Par-Bur\nA Mar-Spa\nF Bre-Eng",
             spring + 4000)
    clock.now = spring + 4100
    assert service.step() == 1
    reply = text(S.wait_for("fra@test.org", 4)[-1])
    assert "F BRE - ENG" in reply and "reached the judge" not in reply
