"""A game by mail through the real servers in which players come and go, the GM is told what
needs the GM, and the classic judges' conveniences work: a player RESIGNs, a new one TAKEs
OVER (proving the address with a code) and gets everything a player needs; the GM enters
orders for a power; orders for the next phase are sent early; SUMMARY; grey press copied to
the GM; a bounce and an unreadable mail reach the GM.  Every mail delivered is checked:
nobody learns another player's address or password."""

from __future__ import annotations

import re
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from mobadj.judge.overview import status_text

from .e2e import attachment_names, send, text
from .servers import JUDGE_ADDRESS


def bodies(S, address):
    return [(m["Subject"], text(m), m) for m in S.inbox(address)]


def newest(S, address, count):
    """The mails ``address`` got after its first ``count`` (waits for one at least)."""
    got = S.wait_for(address, count + 1)
    return [(m["Subject"], text(m), m) for m in got[count:]]


def bounce(S, failed: str) -> None:
    """A delivery status report (RFC 3464) from a mail server, as it reaches the judge."""
    raw = (f"From: MAILER-DAEMON@mx.test.org\r\nTo: {JUDGE_ADDRESS}\r\n"
           f"Subject: Undelivered Mail Returned to Sender\r\n"
           f"Message-ID: {make_msgid(domain='mx.test.org')}\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n"
           f"\r\n--B\r\nContent-Type: text/plain\r\n\r\nThis is the mail system. Your "
           f"message could not be delivered.\r\n--B\r\n"
           f"Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.test.org"
           f"\r\n\r\nFinal-Recipient: rfc822; {failed}\r\nAction: failed\r\nStatus: 5.1.1"
           f"\r\nDiagnostic-Code: smtp; 550 5.1.1 <{failed}>: Recipient address rejected: "
           f"User unknown\r\n--B--\r\n")
    with smtplib.SMTP("127.0.0.1", S.smtp_port, timeout=10) as s:
        s.sendmail("", [JUDGE_ADDRESS], raw.encode())


def test_players_come_and_go_and_the_gm_hears_of_it(service, mail_servers, clock):
    S = mail_servers
    judge = service.judge
    judge.create_game("run", "standard", "gm@test.org", "gm-pw",
                      {"press": "grey", "gm_press_copy": "yes", "picture": "svg"}, seed=5)
    send(S, "gm@test.org", "GM run gm-pw\naddplayer eng@test.org England eng-pw\n"
         "addplayer fra@test.org France fra-pw\naddplayer ita@test.org Italy ita-pw\nstart")
    service.step()
    send(S, "obs@test.org", "WATCH run")
    service.step()
    code = re.search(r"CONFIRM (\w+)", text(S.wait_for("obs@test.org", 1)[0])).group(1)
    send(S, "obs@test.org", f"CONFIRM {code}")
    service.step()
    gm_seen = len(S.wait_for("gm@test.org", 1))

    # grey press: France does not learn who wrote; the GM's copy says
    send(S, "eng@test.org", "SIGNON run England eng-pw\nPRESS TO France GREY\nWatch Burgundy."
         "\nENDPRESS")
    # a phase to come: France sends Fall orders now
    send(S, "fra@test.org", "SIGNON run France fra-pw\nA PAR - BUR\nA MAR H\nF BRE - MAO\n"
         "READY\nPHASE F1901M\nA MAR - SPA\nF MAO - POR")
    send(S, "ita@test.org", "SIGNON run Italy ita-pw\nABSENCE 1 day")
    service.step()
    press = [b for s, b, _ in bodies(S, "fra@test.org") if "press from" in s]
    assert press and "Anonymous (grey press)" in press[0] and "ENGLAND" not in press[0]
    fra_reply = [b for s, b, _ in bodies(S, "fra@test.org") if s == "Re: orders"][-1]
    assert "Orders for F1901M kept (2 line(s)), sent early" in fra_reply
    gm = newest(S, "gm@test.org", gm_seen)
    assert any("press from ENGLAND to FRANCE (GM copy)" in s and "Watch Burgundy." in b
               and "ENGLAND (grey: the others do not know)" in b for s, b, _ in gm)
    assert any(s == "run: ITALY takes an absence" for s, _, _ in gm)
    gm_seen = len(S.inbox("gm@test.org"))

    # Italy resigns: the table, the observer and the GM are told; the seat waits
    send(S, "ita@test.org", "SIGNON run Italy ita-pw\nRESIGN")
    service.step()
    assert "You have resigned from run" in text(S.inbox("ita@test.org")[-1])
    for who in ("eng@test.org", "fra@test.org", "obs@test.org"):
        news = text(S.inbox(who)[-1])
        assert "The player of ITALY has resigned" in news and "TAKEOVER run ITALY" in news
    (_, told, _), = newest(S, "gm@test.org", gm_seen)
    assert "ita@test.org, the player of ITALY in run, has resigned" in told
    gm_seen += 1
    send(S, "someone@test.org", "LIST")
    service.step()
    listing = text(S.inbox("someone@test.org")[-1])
    assert "Powers waiting for a new player:" in listing and "ITALY" in listing
    send(S, "ita@test.org", "SIGNON run Italy ita-pw\nLIST")  # the old password is gone
    service.step()
    assert "Sign-on refused" in text(S.inbox("ita@test.org")[-1])

    # Carla takes Italy over: a code first (a forged sender takes nothing)
    send(S, "carla@test.org", "TAKEOVER run Italy")
    service.step()
    code = re.search(r"CONFIRM (\w+)", text(S.wait_for("carla@test.org", 1)[0])).group(1)
    send(S, "carla@test.org", f"CONFIRM {code}")
    service.step()
    got = S.wait_for("carla@test.org", 3)
    assert "TAKEOVER: you now play ITALY in run" in text(got[1]) or \
        "TAKEOVER: you now play ITALY in run" in text(got[2])
    welcome = next(m for m in got if m["Subject"] == "run: you now play ITALY")
    w = text(welcome)
    password = re.search(r"Your password: (\S+)", w).group(1)
    assert f"SIGNON run ITALY {password}" in w
    assert "Phase: Spring 1901 Movement" in w and "Deadline:" in w and "EST" in w
    assert "No orders are in for ITALY yet" in w
    assert "Italy: units A ROM, A VEN, F NAP" in w  # the position
    assert "ITALY so far:" in w and "(missed 0; resigned)" in w
    assert "ita@test.org" not in w  # the earlier player stays anonymous
    assert attachment_names(welcome) == ["map.svg"]
    for who in ("eng@test.org", "fra@test.org", "obs@test.org"):
        news = text(S.inbox(who)[-1])
        assert "ITALY in run has a new player" in news and "carla" not in news
    (s, told, _), = newest(S, "gm@test.org", gm_seen)
    assert s == "run: ITALY taken over by carla@test.org"
    gm_seen += 1

    # the GM orders for England, whose player is told; the results say it was the GM
    send(S, "gm@test.org", "GM run gm-pw\nORDERS FOR England\nF LON - NTH\nF EDI - NWG\n"
         "A LVP - YOR")
    service.step()
    reply = text(S.inbox("gm@test.org")[-1])
    assert "Orders for ENGLAND, Spring 1901 Movement, entered by the GM" in reply
    assert "the GM entered orders for ENGLAND" in S.inbox("eng@test.org")[-1]["Subject"]
    send(S, "carla@test.org", f"SIGNON run Italy {password}\nA VEN H\nA ROM H\nF NAP H\n"
         "READY")
    send(S, "gm@test.org", "GM run gm-pw\nPROCESS")
    service.step()
    results = next(b for s, b, _ in bodies(S, "obs@test.org") if "S1901M results" in s)
    assert "Orders entered by the GM for: ENGLAND." in results
    early = next(b for s, b, _ in bodies(S, "fra@test.org")
                 if s == "run: your orders for F1901M, sent before it began")
    assert "A MAR - SPA" in early and "F MAO - POR" in early
    assert judge.store.orders("run", "F1901M")["FRANCE"] == "A MAR - SPA\nF MAO - POR"

    # SUMMARY for anyone (no addresses), the GM's status (addresses)
    send(S, "someone@test.org", "SUMMARY run")
    service.step()
    summary = text(S.inbox("someone@test.org")[-1])
    assert "Who played which power:" in summary and "Supply centres by year:" in summary
    assert re.search(r"ITALY +the start - S1901M +a player \(missed 0; resigned\)", summary)
    assert re.search(r"\n +S1901M - now +a player \(took over; missed 0\)", summary)
    assert re.search(r"ENGLAND +3\n", summary)  # the centres at the end of 1901 so far
    assert "@" not in summary.replace("judge@test.org", "")
    status = status_text(judge, judge.store.game("run"), clock())
    assert "carla@test.org (since S1901M)" in status and "FRANCE" in status
    assert "Owe orders: ENGLAND, ITALY" in status  # France's orders came early

    # a bounce for France's address, and a mail from England the judge cannot read
    bounce(S, "fra@test.org")
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "eng@test.org", JUDGE_ADDRESS, "orders attached"
    m["Message-ID"] = make_msgid(domain="test.org")
    m.add_attachment(b"%PDF-1.4 ...", maintype="application", subtype="pdf",
                     filename="orders.pdf")
    with smtplib.SMTP("127.0.0.1", S.smtp_port, timeout=10) as s:
        s.send_message(m)
    service.step()
    told = {s: b for s, b, _ in newest(S, "gm@test.org", gm_seen + 2)}
    assert "User unknown" in told["run: mail to fra@test.org bounced"]
    assert "FRANCE in run" in told["run: mail to fra@test.org bounced"]
    assert "could not be read" in told["run: unreadable mail from ENGLAND"]

    # nothing private went astray
    for address, raws in S.all_delivered().items():
        for raw in raws:
            if address not in ("carla@test.org",):
                assert password.encode() not in raw
            if address not in ("gm@test.org", "carla@test.org"):
                assert b"carla@test.org" not in raw
            if address not in ("gm@test.org", "ita@test.org"):
                assert b"ita@test.org" not in raw
