"""One game, some seats by mail and some on the pages, through real servers: mail goes by
SMTP to aiosmtpd and into the judge's pymap inbox, the judge's service handles it and
mails its replies; the seats on the pages sign in and act over real HTTP on the same judge
and store.  Orders from either stand until the next from either; press crosses from one to
the other; the phase ends when every seat is READY, whichever way it said so, and every
player is mailed the results."""

from __future__ import annotations

import re

from web.helpers import PageServer, Visitor

from mobadj.judge import WebPlay
from mobadj.judge.store import Store
from mobadj.web.pages import Site

from .e2e import send, text

MAIL = {"ENGLAND": "eng@test.org", "FRANCE": "fra@test.org", "RUSSIA": "rus@test.org"}
WEB = {"GERMANY": "ger@test.org", "ITALY": "ita@test.org", "AUSTRIA": "aus@test.org",
       "TURKEY": "tur@test.org"}
ORDERS = {
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR", "FRANCE": "A PAR - BUR\nA MAR - SPA",
    "RUSSIA": "A MOS - UKR\nF SEV - BLA", "GERMANY": "A BER - KIE\nA MUN - RUH",
    "ITALY": "A VEN - TYR\nA ROM - APU", "AUSTRIA": "A VIE - GAL\nA BUD - SER",
    "TURKEY": "A CON - BUL\nF ANK - BLA"}


def passwords(servers) -> dict[str, str]:
    found = {}
    for power, address in (MAIL | WEB).items():
        welcome = text(servers.wait_for(address, 1)[0])
        found[power] = re.search(r"Your password: (\S+)", welcome).group(1)
    return found


def test_a_game_played_by_mail_and_on_the_pages_at_once(service, mail_servers, clock):
    S, judge = mail_servers, service.judge
    judge.create_game("mixed", "standard", "gm@test.org", "gm-pw", {"press": "white"}, seed=5)
    send(S, "gm@test.org", "GM mixed gm-pw\n" + "\n".join(
        f"addplayer {address} {power}" for power, address in (MAIL | WEB).items()) + "\nstart")
    service.step()
    pw = passwords(S)
    readonly = Store(judge.store.path, readonly=True)
    try:
        with PageServer(Site(readonly, "E2E Judge", clock=clock), play=WebPlay(judge)) as srv:
            web = {}
            for power in WEB:
                web[power] = Visitor(srv.url, f"10.0.0.{len(web) + 1}")
                assert web[power].sign_in("mixed", power, pw[power]).status == 303
            seen = {a: len(S.inbox(a)) for a in (MAIL | WEB).values()}

            # press by mail to a seat on the pages: on its page, and in its mailbox as ever
            send(S, MAIL["FRANCE"], f"SIGNON mixed FRANCE {pw['FRANCE']}\nPRESS TO GERMANY\n"
                 "FRANCE-TO-GERMANY-8812 a deal?\nENDPRESS")
            service.step()
            assert "FRANCE-TO-GERMANY-8812" in web["GERMANY"].get("/g/mixed/play").text
            assert "FRANCE-TO-GERMANY-8812" not in web["ITALY"].get("/g/mixed/play").text
            # press from the pages to a seat by mail: mailed over SMTP like any press
            web["GERMANY"].act("mixed", do="press", to_FRANCE="1",
                               text="GERMANY-TO-FRANCE-9921 agreed")
            service.step()
            press = S.wait_for(MAIL["FRANCE"], seen[MAIL["FRANCE"]] + 2)
            assert any("GERMANY-TO-FRANCE-9921" in text(m) and "from GERMANY" in m["Subject"]
                       for m in press)

            # the last orders stand, from mail or from the pages
            send(S, WEB["ITALY"], f"SIGNON mixed ITALY {pw['ITALY']}\nA VEN H\nA ROM H")
            service.step()
            web["ITALY"].act("mixed", do="orders", orders=ORDERS["ITALY"])
            assert judge.store.orders("mixed", "S1901M")["ITALY"] == "A VEN - TYR\nA ROM - APU"
            send(S, WEB["ITALY"], f"SIGNON mixed ITALY {pw['ITALY']}\nA VEN - PIE\nA ROM H")
            service.step()
            assert judge.store.orders("mixed", "S1901M")["ITALY"] == "A VEN - PIE\nA ROM H"
            page = web["ITALY"].get("/g/mixed/play").text
            assert "A VEN - PIE" in page  # the box holds the orders standing, from the mail

            # everyone READY, by mail or on the pages: the phase ends at once
            for power in MAIL:
                send(S, MAIL[power], f"SIGNON mixed {power} {pw[power]}\n{ORDERS[power]}\n"
                     "READY")
            service.step()
            assert judge.store.game("mixed").phase == "S1901M"
            for power in WEB:
                if power == "ITALY":
                    web[power].act("mixed", do="ready")
                else:
                    web[power].act("mixed", do="orders", orders=ORDERS[power], ready="1")
            assert judge.store.game("mixed").phase == "F1901M"
            service.step()
            for address in (MAIL | WEB).values():
                results = [m for m in S.wait_for(address, seen[address] + 1)
                           if "S1901M results" in m["Subject"]]
                assert results, address
                body = text(results[0])
                assert "A VEN - PIE" in body and "A BER - KIE" in body and "F LON - NTH" in body
            # the history says where each came from
            came = {(c["power"], c["message_id"].startswith("<web-"))
                    for c in judge.store.commands("mixed") if c["kind"] == "orders"}
            assert ("GERMANY", True) in came and ("ENGLAND", False) in came
            assert ("ITALY", True) in came and ("ITALY", False) in came
            # a seat on the pages gets no mail for what it did there (its page shows it)
            assert not [m for m in S.inbox(WEB["TURKEY"]) if "Orders for TURKEY" in text(m)]
    finally:
        readonly.close()
