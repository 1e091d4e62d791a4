"""A whole short game by mail through real servers: players send SMTP to aiosmtpd, which
delivers into the judge's pymap IMAP inbox; the judge's service fetches, handles, and
replies over SMTP; the tests read what each player received."""

from __future__ import annotations

import contextlib
import json
import re
import smtplib
import threading
import time
from email.message import EmailMessage

from mobadj.judge.core import Judge
from mobadj.judge.diplomacy import can_draw
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from .e2e import attachment_names, last, make_config, send, text
from .servers import IMAP_PASSWORD, JUDGE_ADDRESS


def test_a_short_game_by_mail(service, mail_servers, clock):
    S = mail_servers
    judge = service.judge
    judge.create_game("e2e", "standard", "gm@test.org", "gm-pw", {"press": "white"}, seed=3)
    send(S, "gm@test.org", "GM e2e gm-pw\naddplayer eng@test.org England\n"
         "addplayer fra@test.org France\nstart")
    assert service.step() == 1
    gm_reply = text(last(S, "gm@test.org", 1))
    assert "ENGLAND added" in gm_reply and "Game started: Spring 1901 Movement" in gm_reply
    welcome = text(S.wait_for("eng@test.org", 1)[0])
    eng_pw = re.search(r"Your password: (\S+)", welcome).group(1)
    fra_pw = re.search(r"Your password: (\S+)", text(S.wait_for("fra@test.org", 1)[0])).group(1)
    assert "EST" in text(S.wait_for("eng@test.org", 2)[1])  # deadlines carry the time zone

    # orders with an error, then press
    send(S, "eng@test.org", f"SIGNON e2e england {eng_pw}\nF LON - NTH\nF EDI - NWG\n"
         f"A LVP - YOK\nA PAR - PIC\n\n-- \nsent from my phone")
    send(S, "fra@test.org", f"signon e2e France {fra_pw}\npress to England\nDMZ in the "
         f"Channel?\nendpress\nA PAR - BUR\nA MAR - SPA\nF BRE - MAO\nready")
    assert service.step() == 2
    r = text(last(S, "eng@test.org", 3))
    assert "F LON - NTH" in r and "unknown province 'YOK'; did you mean Yorkshire (YOR)" in r
    # an order for France's army: France's own orders stand, it does not "hold"
    assert ("A PAR - PIC: impossible (unit belongs to another power); its owner's orders stand"
            in r) and "will hold" not in r
    press = text(last(S, "eng@test.org", 4))
    assert "Press in e2e from FRANCE to ENGLAND" in press and "DMZ in the" in press
    # England corrects the orders and is ready: the phase resolves early
    send(S, "eng@test.org", f"SIGNON e2e england {eng_pw}\nF LON - NTH\nF EDI - NWG\n"
         f"A LVP - YOR\nready")
    service.step()
    eng = S.wait_for("eng@test.org", 6)
    results = next(m for m in eng if "S1901M results" in m["Subject"])
    body = text(results)
    assert body.startswith(":: Judge: E2E Judge  Game: e2e")
    assert "A LVP - YOR" in body and "A MAR - SPA" in body and "succeeds" in body
    assert body.count("Next phase: Fall 1901 Movement (F1901M)") == 1
    gm_copy = text(next(m for m in S.wait_for("gm@test.org", 2) if "S1901M results" in
                        m["Subject"]))
    assert "Results of e2e, S1901M" in gm_copy and "A LVP - YOR" in gm_copy
    names = attachment_names(results)
    assert "result.json" in names
    if can_draw("standard"):  # the picture is attached whenever the map can be drawn
        assert "map.svg" in names and "map.png" in names
    data = json.loads(next(p for p in results.iter_attachments()
                           if p.get_filename() == "result.json").get_content())
    assert data["next_phase"] == "F1901M"
    assert results["Auto-Submitted"] == "auto-generated"

    # a missed deadline: France sends nothing; first NMR gives one extension, then defaults
    send(S, "eng@test.org", f"SIGNON e2e england {eng_pw}\nF NTH - NWY\nF NWG H\nA YOR H")
    service.step()
    clock.advance(hours=49)
    service.step()
    ext = text(S.wait_for("fra@test.org", 4)[-1])
    assert "extends it once" in ext
    clock.advance(hours=25)
    service.step()
    fra = S.wait_for("fra@test.org", 5)
    res = text(next(m for m in fra if "F1901M results" in m["Subject"]))
    assert "No orders received from: FRANCE" in res and "England takes NWY" in res

    # the GM rolls the phase back
    send(S, "gm@test.org", "GM e2e gm-pw\nrollback")
    service.step()
    assert "F1901M rolled back" in text(S.wait_for("gm@test.org", 4)[-1])
    assert judge.store.game("e2e").phase == "F1901M"
    assert "rolled back" in text(S.wait_for("eng@test.org", 9)[-1])

    # nothing private reached anyone else: scan every mail delivered
    for address, raws in S.all_delivered().items():
        for raw in raws:
            if address != "eng@test.org":
                assert eng_pw.encode() not in raw
            if address != "fra@test.org":
                assert fra_pw.encode() not in raw
            if address not in ("eng@test.org", "fra@test.org"):
                assert b"DMZ in the" not in raw
    # every mail was handled exactly once
    assert judge.store.mail_count() == 6
    assert service.step() == 0  # and nothing is handled again


def test_serve_loop_with_idle_and_reconnect(service, mail_servers):
    S = mail_servers
    service.judge.create_game("idle", "standard", "gm@test.org", "gm-pw")
    stop = threading.Event()
    thread = threading.Thread(target=service.serve, args=(stop,), daemon=True)
    thread.start()
    try:
        send(S, "x@test.org", "help")
        assert "SIGNON <game> <power> <password>" in text(S.wait_for("x@test.org", 1)[0])
        # drop the IMAP connection under the judge's feet: it reconnects and carries on
        client = service.mailbox.client
        with contextlib.suppress(OSError, AttributeError):  # the loop may be mid-reconnect
            client.shutdown()
        send(S, "x@test.org", "list")
        assert "idle" in text(S.wait_for("x@test.org", 2, timeout=15)[1])
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_auto_replies_are_never_answered(service, mail_servers):
    S = mail_servers
    m = EmailMessage()
    m["From"] = "away@test.org"
    m["To"] = JUDGE_ADDRESS
    m["Subject"] = "Out of office"
    m["Auto-Submitted"] = "auto-replied"
    m.set_content("I am away")
    with smtplib.SMTP("127.0.0.1", S.smtp_port) as s:
        s.send_message(m)
    assert service.step() == 1
    assert S.inbox("away@test.org") == []
    assert service.step() == 0  # seen once, never again


def test_polling_when_idle_is_off(tmp_path, mail_servers, clock, monkeypatch):
    S = mail_servers
    monkeypatch.setenv("E2E_IMAP_PW", IMAP_PASSWORD)
    cfg = make_config(tmp_path, S, idle=False)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=clock, kdf_n=2**10)
    svc = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock),
                  poll_seconds=0.05)
    stop = threading.Event()
    thread = threading.Thread(target=svc.serve, args=(stop,), daemon=True)
    thread.start()
    try:
        send(S, "poll@test.org", "help")
        S.wait_for("poll@test.org", 1)
        assert svc.mailbox.can_idle is False
    finally:
        stop.set()
        thread.join(10)
        store.close()


def test_unreachable_server_is_retried_with_growing_back_off(tmp_path, mail_servers, clock,
                                                             monkeypatch):
    from .servers import free_port

    monkeypatch.setenv("E2E_IMAP_PW", IMAP_PASSWORD)
    cfg = make_config(tmp_path, mail_servers, port=free_port())  # nobody listens there
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=clock, kdf_n=2**10)
    svc = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock),
                  backoff=(0.01, 0.08))
    stop = threading.Event()
    thread = threading.Thread(target=svc.serve, args=(stop,), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while len(svc.failures) < 6 and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    thread.join(10)
    store.close()
    assert svc.failures[:5] == [0.01, 0.02, 0.04, 0.08, 0.08]  # doubling, capped


def test_mobtown_results_carry_the_map_by_mail(service, mail_servers):
    """Mobtown II over the real servers: two mobs place their Dons by mail (the other four
    have no player: their Dons are placed by default); the results arrive with result.json,
    map.svg and map.png attached."""
    from mobadj.judge.hosts import host_for

    S = mail_servers
    judge = service.judge
    game_map = host_for("mobtown2").game_map
    judge.create_game("mob", "mobtown2", "gm@test.org", "gm-pw", seed=9)
    mobs = list(game_map.powers)[:2]
    adds = "".join(f"addplayer {m}@test.org {m} pw-{m}\n" for m in mobs)
    send(S, "gm@test.org", f"GM mob gm-pw\n{adds}start")
    service.step()
    for m in mobs:
        home = game_map.powers[m].home_centers[0]
        send(S, f"{m}@test.org", f"SIGNON mob {m} pw-{m}\nDon starts in {home}\nREADY")
    service.step()
    got = S.wait_for(f"{mobs[0]}@test.org", 4)
    results = next(m for m in got if "results" in m["Subject"])
    assert "Weekend at the end of June 1919: Don placement" in text(results)
    assert text(results).count("Next phase") == 1  # the judge's line, with the deadline
    assert "Next phase: Week 1, July 1919: movement (1919-07-W1-M)\nDeadline:" in text(results)
    gm_copy = text(next(m for m in S.wait_for("gm@test.org", 2) if "results" in m["Subject"]))
    assert "Results of mob, Weekend at the end of June 1919: Don placement (1919-06-START)\n" \
        in gm_copy and gm_copy.count("Next phase") == 1
    assert attachment_names(results) == ["result.json", "map.svg", "map.png"]
    png = next(p for p in results.iter_attachments() if p.get_filename() == "map.png")
    assert png.get_content().startswith(b"\x89PNG")


def test_a_new_uidvalidity_falls_back_on_message_ids(service, mail_servers):
    """If the server renumbers its mailbox (UIDVALIDITY changes), old UIDs mean nothing:
    the judge forgets them and relies on Message-IDs, so nothing is handled twice."""
    S = mail_servers
    send(S, "u@test.org", "help")
    send(S, "u@test.org", "list")
    assert service.step() == 2
    S.wait_for("u@test.org", 2)
    store = service.judge.store
    with store.transaction():
        store.set_meta("uidvalidity", "12345")
    service.mailbox.close()
    service.step()  # reconnects, sees another UIDVALIDITY, looks at every mail again
    assert store.mail_count() == 2
    assert len(S.inbox("u@test.org")) == 2  # no second answer
    assert store.max_uid() > 0  # the old mails carry their new UIDs: not fetched again
    send(S, "u@test.org", "help orders")
    assert service.step() == 1
    assert len(S.wait_for("u@test.org", 3)) == 3  # and new mail is still answered


def test_message_ids_tell_nothing_of_a_grey_sender_or_of_the_judges_mail(service, mail_servers):
    """The copies of an anonymous broadcast reach the players with Message-IDs that carry no
    number: comparing them does not tell which power sent it (no gap where the sender's copy
    would be), nor how much mail the judge sent in between; replies still thread."""
    S = mail_servers
    judge = service.judge
    judge.create_game("gp", "standard", "gm@test.org", "gm-pw",
                      {"press": "grey", "picture": "none"}, seed=3)
    powers = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    with judge.store.transaction():
        out: list = []
        for p in powers:
            judge.add_player(judge.store.game("gp"), f"{p.lower()}@test.org", p, f"pw-{p}", 0,
                             out)
        judge.start(judge.store.game("gp"), judge.clock(), out)
        judge.queue(out, judge.clock())
    send(S, "italy@test.org", "SIGNON gp Italy pw-ITALY\nBROADCAST GREY\n"
         "Someone is lying to you all.\nENDPRESS")
    assert service.step() == 1
    copies = {p: next(m for m in S.wait_for(f"{p.lower()}@test.org", 3)
                      if "press from Anonymous" in m["Subject"])
              for p in powers if p != "ITALY"}
    ids = [str(m["Message-ID"]) for m in copies.values()]
    assert len(set(ids)) == 6
    for mid in ids:
        assert re.fullmatch(r"<mobadj\.[0-9a-f]{32}@test\.org>", mid), mid
    reply = S.wait_for("italy@test.org", 3)[-1]
    assert reply["In-Reply-To"] and reply["Subject"].startswith("Re:")
    delivered = [str(m["Message-ID"]) for p in powers
                 for m in S.wait_for(f"{p.lower()}@test.org", 2)]
    assert all(re.fullmatch(r"<mobadj\.[0-9a-f]{32}@test\.org>", mid) for mid in delivered)
