"""Mail that came after a deadline the judge had not yet applied (it was down, or it runs from
cron with ``serve --once``): the deadline is applied first, so orders sent late do not count
for the phase they missed; mail that came before the deadline still counts, however late
the judge reads it.  Real servers: the mails lie in the IMAP inbox with the time the server
received them (INTERNALDATE), as after an outage."""

from __future__ import annotations

import datetime
import re
from email.message import EmailMessage
from email.utils import make_msgid

from .e2e import send, text
from .servers import JUDGE_ADDRESS


def _arrived(servers, sender: str, body: str, when: float) -> None:
    """A player's mail, lying in the judge's inbox since ``when`` (the server's date)."""
    m = EmailMessage()
    m["From"] = sender
    m["To"] = JUDGE_ADDRESS
    m["Subject"] = "orders"
    m["Message-ID"] = make_msgid(domain="test.org")
    m.set_content(body)
    client = servers.imap()
    try:
        client.append("INBOX", m.as_bytes(), msg_time=datetime.datetime.fromtimestamp(
            when, tz=datetime.UTC))
    finally:
        client.logout()


def _started(service, servers) -> tuple[str, str]:
    judge = service.judge
    judge.create_game("late", "standard", "gm@test.org", "gm-pw", {"grace_hours": "0"},
                      seed=5)
    send(servers, "gm@test.org", "GM late gm-pw\naddplayer eng@test.org England\n"
         "addplayer fra@test.org France\nstart")
    assert service.step() == 1
    pw = [re.search(r"Your password: (\S+)", text(servers.wait_for(a, 1)[0])).group(1)
          for a in ("eng@test.org", "fra@test.org")]
    return pw[0], pw[1]


def test_orders_sent_after_the_deadline_do_not_count_for_it(service, mail_servers, clock):
    S = mail_servers
    eng, fra = _started(service, S)
    deadline = service.judge.store.game("late").deadline
    _arrived(S, "eng@test.org", f"Hi all,\nSIGNON late england {eng}\nF LON - ENG\n"
             "A LVP - YOR\nF EDI - NTH\nCheers, Ann", deadline - 600)
    _arrived(S, "fra@test.org", f"SIGNON late france {fra}\nA PAR - PIC\nA MAR - SPA\n"
             "F BRE - MAO", deadline - 300)
    # France changes her mind ten minutes after the deadline; the judge reads it all an hour
    # later (it was down)
    _arrived(S, "fra@test.org", f"SIGNON late france {fra}\nA PAR - BUR\nA MAR - BUR\n"
             "F BRE - ENG\nsorry, late!", deadline + 600)
    clock.now = deadline + 3600
    assert service.step() == 3
    fra_mail = S.wait_for("fra@test.org", 4)
    results = text(next(m for m in fra_mail if "S1901M results" in m["Subject"]))
    # the orders in time count; the late ones do not
    assert "A PAR - PIC" in results and "F BRE - MAO" in results
    assert "A PAR - BUR" not in results and "F BRE - ENG" not in results
    assert "No orders received from" not in results
    # the late mail is read as orders for the phase now being played, and its reply says so,
    # and that it came after the deadline of the phase it was meant for
    reply = text(S.wait_for("fra@test.org", 5)[-1])
    assert "Orders for FRANCE, Fall 1901 Movement, as the judge reads them:" in reply
    assert "after the deadline of Spring 1901 Movement" in reply
    assert service.judge.store.game("late").phase == "F1901M"


def test_mail_that_came_before_the_deadline_counts_though_read_after_it(
        service, mail_servers, clock):
    S = mail_servers
    eng, fra = _started(service, S)
    deadline = service.judge.store.game("late").deadline
    _arrived(S, "eng@test.org", f"SIGNON late england {eng}\nF LON - ENG\nA LVP - YOR\n"
             "F EDI - NTH", deadline - 60)
    _arrived(S, "fra@test.org", f"SIGNON late france {fra}\nA PAR - BUR\nA MAR - SPA\n"
             "F BRE - MAO", deadline - 30)
    clock.now = deadline + 7200  # read two hours after the deadline
    assert service.step() == 2
    results = text(next(m for m in S.wait_for("fra@test.org", 4)
                        if "S1901M results" in m["Subject"]))
    assert "A PAR - BUR" in results and "No orders received from" not in results
    assert "F LON - ENG" in results
