"""Seats changing hands, the GM's notices and the classic judges' settings, one rule at a
time (the whole story by mail through the servers is test_come_and_go_e2e.py)."""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest
import yaml
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.config import config_from_data
from mobadj.judge.mailer import Mailer
from mobadj.judge.store import Mail

from .conftest import Table
from .helpers import mail
from .servers import free_port


def gm(judge, *lines):
    return judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\n" + "\n".join(lines)))


def to(out, address):
    return [m for m in out if m.to == address]


def confirm_code(out, address):
    return re.search(r"CONFIRM (\w+)", to(out, address)[0].body).group(1)


def test_the_gm_may_name_the_address_and_the_seat_in_either_order(judge):
    judge.create_game("g2", "toy", "gm@test.org", "gm-secret", {}, seed=1)
    out = judge.handle_mail(mail("gm@test.org", "GM g2 gm-secret\nADDPLAYER north "
                                 "ann@test.org\nREPLACE bob@test.org North"))
    assert "NORTH added: ann@test.org" in out[0].body
    assert "NORTH is now played by bob@test.org" in out[0].body
    assert judge.store.player("g2", "NORTH").email == "bob@test.org"


def test_a_replacement_starts_a_clean_record_and_keeps_the_old_one(judge, table, clock):
    for seat in ("NORTH", "EAST", "SOUTH"):
        judge.handle_mail(mail(table.emails[seat], table.signon(seat) + "go 1"))
    for _ in range(2):  # WEST misses two deadlines: civil disorder (after one extension)
        clock.advance(hours=49)
        judge.tick()
        clock.advance(hours=25)
        out = judge.tick()
    west = judge.store.player("g1", "WEST")
    assert west.status == "disorder" and west.nmr_total == 2
    assert any(m.to == "gm@test.org" and m.subject == "g1: civil disorder"
               and "WEST has missed 2 deadlines in a row" in m.body for m in out)
    out = gm(judge, "REPLACE west carla@test.org")
    assert "WEST is now played by carla@test.org" in out[0].body
    (welcome,) = to(out, "carla@test.org")
    assert "Your password:" in welcome.body and "SIGNON g1 WEST" in welcome.body
    assert "Phase: Turn 3" in welcome.body and "Scores: NORTH" in welcome.body
    assert "WEST so far:" in welcome.body and "missed 2; replaced" in welcome.body
    (goodbye,) = to(out, "west@test.org")
    assert "given WEST in g1 to another player" in goodbye.body
    news = to(out, "north@test.org")[0]
    assert "WEST in g1 has a new player" in news.body and "carla" not in news.body
    new = judge.store.player("g1", "WEST")
    assert (new.email, new.status, new.nmr_total, new.absence_used) == (
        "carla@test.org", "active", 0, 0)
    tenures = [t for t in judge.store.tenures("g1") if t["power"] == "WEST"]
    assert [(t["email"], t["how"], t["why"], t["nmr_total"]) for t in tenures] == [
        ("west@test.org", "added", "replaced", 2), ("carla@test.org", "replaced", None, 0)]
    # the new player's first missed deadline gets the one extension a first miss gets
    for seat in ("NORTH", "EAST", "SOUTH"):
        judge.handle_mail(mail(table.emails[seat], table.signon(seat) + "go 1"))
    clock.advance(hours=49)
    out = judge.tick()
    assert any("extends it once" in m.body for m in out)
    # a rollback past the replacement leaves the new player's record alone
    clock.advance(hours=25)
    judge.tick()
    gm(judge, "ROLLBACK")
    assert judge.store.player("g1", "WEST").email == "carla@test.org"
    gm(judge, "ROLLBACK")
    assert judge.store.player("g1", "WEST").nmr_total in (0, 1)


def test_takeover_needs_an_open_seat_and_a_code(judge, table):
    out = judge.handle_mail(mail("dan@test.org", "TAKEOVER g1 north"))
    assert "NORTH is not open for takeover" in out[0].body
    assert "no seat of the game is open now" in out[0].body
    out = gm(judge, "OFFER north")
    assert "NORTH is offered: anyone may ask to take it over (TAKEOVER g1 NORTH)" in out[0].body
    (heard,) = to(out, "north@test.org")  # its player hears it first
    assert heard.subject == "g1: NORTH is offered for takeover"
    assert "Until someone does, it is yours" in heard.body and "PRESS TO GM" in heard.body
    out = judge.handle_mail(mail("dan@test.org", "TAKEOVER g1 north"))
    code = re.search(r"CONFIRM (\w+)", out[0].body).group(1)
    # a forged request cannot be confirmed from another address
    out = judge.handle_mail(mail("eve@test.org", f"CONFIRM {code}"))
    assert "no change, JOIN or WATCH waits for this code" in out[0].body
    out = judge.handle_mail(mail("east@test.org", table.signon("EAST")
                                 + "TAKEOVER g1 north"))
    assert "you already play EAST in g1" in out[0].body
    out = judge.handle_mail(mail("dan@test.org", f"CONFIRM {code}"))
    assert "TAKEOVER: you now play NORTH in g1" in out[0].body
    assert judge.store.player("g1", "NORTH").email == "dan@test.org"
    assert not judge.store.player("g1", "NORTH").offered
    (told,) = [m for m in out if m.to == "gm@test.org"]
    assert told.subject == "g1: NORTH taken over by dan@test.org"
    assert "from north@test.org" in told.body
    out = gm(judge, "OFFER south", "OFFER south no")
    assert "SOUTH is no longer offered" in out[0].body
    assert [m.subject for m in to(out, "south@test.org")] == [
        "g1: SOUTH is offered for takeover", "g1: SOUTH is no longer offered for takeover"]
    assert judge.open_seats(judge.store.game("g1")) == []


def test_takeover_with_the_gms_approval_or_not_at_all(judge, clock):
    Table(judge, takeover="approve")
    out = judge.handle_mail(mail("north@test.org", "SIGNON g1 NORTH pw-north\nRESIGN"))
    assert "You have resigned from g1" in out[0].body
    assert judge.store.player("g1", "NORTH") is None
    out = judge.handle_mail(mail("dan@test.org", "TAKE OVER g1 North"))
    out = judge.handle_mail(mail("dan@test.org", f"CONFIRM {confirm_code(out, 'dan@test.org')}"))
    assert "went to its GM" in out[0].body
    asks = to(out, "gm@test.org")[0]
    assert "APPROVE dan@test.org" in asks.body
    assert "dan@test.org to take over NORTH" in _status(judge)
    out = gm(judge, "APPROVE dan@test.org")
    assert "NORTH is now played by dan@test.org" in out[0].body
    assert to(out, "dan@test.org")[0].subject == "g1: you now play NORTH"
    out = gm(judge, "SET takeover no")
    out = judge.handle_mail(mail("east@test.org", "SIGNON g1 EAST pw-east\nRESIGN"))
    out = judge.handle_mail(mail("erin@test.org", "TAKEOVER g1 east"))
    assert "g1 takes no TAKEOVER" in out[0].body
    out = gm(judge, "SET takeover maybe")
    assert "takeover must be one of yes, approve, no" in out[0].body


def _status(judge):
    from mobadj.judge.overview import status_text

    return status_text(judge, judge.store.game("g1"))


def test_public_press_only_and_the_gms_copy(judge):
    t = Table(judge, press="grey", press_to="public", gm_press_copy="yes")
    out = judge.handle_mail(mail(t.emails["NORTH"], t.signon("NORTH")
                                 + "PRESS TO EAST\nsecret deal\nENDPRESS"))
    assert "press goes to everyone only (no private press)" in out[0].body
    assert not to(out, "east@test.org")
    out = judge.handle_mail(mail(t.emails["NORTH"], t.signon("NORTH")
                                 + "BROADCAST GREY\nhello all\nENDPRESS"))
    assert len(to(out, "east@test.org")) == 1
    (copy,) = to(out, "gm@test.org")
    assert "NORTH (grey: the others do not know)" in copy.body and "hello all" in copy.body
    out = gm(judge, "SET press_to secret")
    assert "press_to must be one of any, public" in out[0].body


def test_an_open_game_that_fills_tells_its_gm(judge):
    judge.create_game("g1", "toy", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    out: list = []
    for seat in ("north", "east", "south", "west"):
        out = judge.handle_mail(mail(f"{seat}@test.org", "JOIN g1"))
        code = re.search(r"CONFIRM (\w+)", out[0].body).group(1)
        out = judge.handle_mail(mail(f"{seat}@test.org", f"CONFIRM {code}"))
    (told,) = [m for m in out if m.to == "gm@test.org"]
    assert told.subject == "g1: every seat is taken: the game has started"
    assert "Game started: Turn 1" in told.body and "west@test.org" in told.body


def test_orders_sent_early_for_a_phase_that_never_comes_are_dropped(judge, clock):
    t = Table(judge, "standard", picture="none")
    out = judge.handle_mail(mail(t.emails["FRANCE"], t.signon("FRANCE")
                                 + "PHASE F1901R\nA PAR - PIC"))
    assert "Orders for F1901R kept" in out[0].body
    out = judge.handle_mail(mail(t.emails["FRANCE"], t.signon("FRANCE")
                                 + "PHASE S1900M\nA PAR - PIC"))
    assert "Orders refused: they were meant for S1900M" in out[0].body
    gm(judge, "PROCESS")  # S1901M: nobody dislodged, F1901R never happens
    clock.advance(hours=1)
    out = gm(judge, "PROCESS")  # F1901M -> W1901A or S1902M
    dropped = [m for m in out if m.subject == "g1: orders for F1901R not used"]
    assert dropped and dropped[0].to == t.emails["FRANCE"]
    assert judge.store.orders("g1", "F1901R") == {}


def test_a_bounce_is_not_answered_but_the_gm_hears(judge, table):
    raw = (b"From: MAILER-DAEMON@mx.test.org\r\nTo: judge@test.org\r\nSubject: failure\r\n"
           b"Message-ID: <dsn1@mx.test.org>\r\nMIME-Version: 1.0\r\nContent-Type: "
           b"multipart/report; report-type=delivery-status; boundary=X\r\n\r\n--X\r\n"
           b"Content-Type: text/plain\r\n\r\nundeliverable\r\n--X\r\nContent-Type: "
           b"message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\nFinal-Recipient: "
           b"rfc822;east@test.org\r\nAction: failed\r\nStatus: 5.2.2\r\nDiagnostic-Code: "
           b"smtp; 552 mailbox full\r\n--X--\r\n")
    assert judge.handle_mail(raw) == []  # a bounce is never answered ...
    (told,) = judge.store.unsent()[-1:]
    assert told.to == "gm@test.org" and "552 mailbox full" in told.body  # ... the GM is told
    assert "EAST in g1" in told.body
    n = len(judge.store.unsent())
    judge.handle_mail(raw.replace(b"dsn1", b"dsn2"))
    assert len(judge.store.unsent()) == n  # once a day per address


class _Refusing:
    async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
        if address == "gone@test.org":
            return "550 5.1.1 <gone@test.org>: user unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        return "250 OK"


def test_a_refused_address_is_reported_to_the_gm(judge, table):
    port = free_port()
    controller = Controller(_Refusing(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        gm(judge, "REPLACE east gone@test.org")
        smtp = config_from_data({"judge": {"address": "judge@test.org"}, "smtp": {
            "host": "127.0.0.1", "port": port, "tls": "none", "user": ""}}).smtp
        Mailer(smtp, "judge@test.org", "J", judge.clock).send_outbox(judge.store)
        (notice,) = judge.notify_refused(judge.clock())
        assert notice.to == "gm@test.org" and notice.subject == "g1: mail to gone@test.org refused"
        assert "550 5.1.1" in notice.body
        assert judge.notify_refused(judge.clock()) == []  # told once
        assert "Refused by the SMTP server: mail to gone@test.org" in _status(judge)
    finally:
        controller.stop()


def test_the_gms_command_line_for_a_running_game(tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d",
                                             "timezone": "UTC"}}))

    def run(*args, ok=True, stdin=None):
        r = CliRunner().invoke(main, [*args[:2], "--config", str(cfg), *args[2:]], input=stdin)
        if ok:
            assert r.exit_code == 0, r.output
        return r

    run("game", "create", "g", "--gm", "gm@test.org", "-o", "picture=none", "--seed", "3")
    run("game", "add-player", "g", "eng@test.org", "England")
    run("game", "add-player", "g", "fra@test.org", "France")
    run("game", "start", "g")
    r = run("game", "orders", "g", "england", stdin="F LON - NTH\nA LVP - YOR\nF EDI H\n")
    assert "Orders for ENGLAND, Spring 1901 Movement, entered by the GM" in r.output
    assert "F LON - NTH" in r.output and "queued" in r.output
    r = run("game", "status", "g")
    assert re.search(r"ENGLAND +in +0 +0/336h +eng@test.org \(since the start\)", r.output)
    assert re.search(r"FRANCE +OWED +0 .* fra@test.org", r.output)
    assert "Owe orders: FRANCE" in r.output and "Deadline:" in r.output
    r = run("game", "offer", "g", "France")
    assert "FRANCE is offered" in r.output
    assert "open for TAKEOVER" in run("game", "status", "g").output
    run("game", "offer", "g", "France", "--withdraw")
    run("game", "process", "g")
    r = run("game", "summary", "g")
    assert "eng@test.org" in r.output and "Orders entered by the GM: S1901M ENGLAND" in r.output
    r = run("game", "status", "nosuch", ok=False)
    assert r.exit_code == 1 and "no game 'nosuch'" in r.output


def test_summary_of_a_private_game_is_for_those_in_it(judge, table):
    with judge.store.transaction():
        judge.store.set_web_key("g1", "k", 0)
    out = judge.handle_mail(mail("someone@test.org", "SUMMARY g1"))
    assert "SUMMARY: no game 'g1'" in out[0].body
    out = judge.handle_mail(mail("north@test.org", "SUMMARY g1"))
    assert "Summary of g1" in out[0].body and "north@test.org" not in out[0].body
    out = gm(judge, "SUMMARY")
    assert "north@test.org" in out[0].body
    out = judge.handle_mail(mail("someone@test.org", "TAKEOVER g1 north"))
    assert "TAKEOVER: no game 'g1'" in out[0].body


@pytest.mark.parametrize("words, refusal", [
    ("RESIGN", "RESIGN is a player's command"),
    ("ORDERS FOR nowhere\ngo 1", "no seat 'nowhere'"),
])
def test_gm_mistakes_are_explained(judge, table, words, refusal):
    out = gm(judge, words)
    assert refusal in out[0].body


def test_the_gm_orders_for_a_seat_by_mail(judge, table):
    out = gm(judge, "ORDERS FOR north", "go 4", "BECOME east", "hold", "go 99")
    assert "Orders for NORTH, Turn 1, entered by the GM" in out[0].body
    assert "Orders for EAST, Turn 1, entered by the GM" in out[0].body
    assert "cannot read 'go 99'" in out[0].body
    assert judge.store.orders_by_gm("g1", "T1") == ["EAST", "NORTH"]
    assert "the GM entered orders for NORTH" in to(out, "north@test.org")[0].subject
    assert Mail  # (the store's Mail is what the judge queues)


def test_the_gm_pastes_players_mails_under_orders_for_and_loses_none(judge, table):
    """A GM pastes each player's mail under its ORDERS FOR, sign-offs and all: one player's
    "Cheers," or signature ends that section only, not the rest of the GM's mail."""
    out = gm(judge, "ORDERS FOR north", "Hi GM,", "go 4", "", "Cheers,", "Nora", "--",
             "Sent from my iPhone", "", "Orders for east", "hold", "Thanks", "Ed", "",
             "BECOME south", "go 2")
    body = out[0].body
    for seat in ("NORTH", "EAST", "SOUTH"):
        assert f"Orders for {seat}, Turn 1, entered by the GM" in body, body
    assert judge.store.orders_by_gm("g1", "T1") == ["EAST", "NORTH", "SOUTH"]


def test_a_players_signature_holds_no_gm_section(judge, table):
    """"Become a member" in a player's signature is read as the signature it is."""
    out = judge.handle_mail(mail(table.emails["NORTH"], table.signon("NORTH") + "go 1\n"
                                 "Cheers,\nNora\n--\nBecome a member\nof the club\n"))
    assert "Error" not in out[0].body and "BECOME" not in out[0].body


def test_a_seat_that_never_had_a_player_is_open_only_when_offered(judge):
    Table(judge, "standard", picture="none")
    judge.store.remove_player("g1", "GERMANY")  # a game the GM started without Germany
    with judge.store.transaction():
        judge.store.db.execute("DELETE FROM tenures WHERE power='GERMANY'")
    game = judge.store.game("g1")
    assert judge.open_seats(game) == []
    out = gm(judge, "OFFER Germany")
    assert "GERMANY is offered" in out[0].body and "plays it until then" not in out[0].body
    assert judge.open_seats(judge.store.game("g1")) == ["GERMANY"]
    gm(judge, "OFFER Germany NO")
    assert judge.open_seats(judge.store.game("g1")) == []


def _game_of(judge, name, gm_email, seats):
    """A started standard game whose seats (power -> address) have the password pw-<game>."""
    game, _ = judge.create_game(name, "standard", gm_email, "gm-secret", {"picture": "none"},
                                seed=3)
    with judge.store.transaction():
        out: list = []
        for power, email in seats.items():
            judge.add_player(game, email, power, f"pw-{name}", judge.clock(), out)
        judge.start(judge.store.game(name), judge.clock(), out)
        judge.queue(out, judge.clock())


def test_an_unreadable_mail_is_told_once_to_each_gm_of_a_game_still_played(judge):
    _game_of(judge, "late26", "gm@test.org", {"France": "ben@test.org"})
    _game_of(judge, "spring26", "gm@test.org", {"France": "ben@test.org"})
    _game_of(judge, "autumn26", "gm@test.org", {"Italy": "ben@test.org"})
    _game_of(judge, "club", "ann@club.org", {"England": "ben@test.org"})
    judge.handle_mail(mail("gm@test.org", "GM spring26 gm-secret\nENDGAME DRAW"))
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "ben@test.org", "judge@test.org", "my orders (attached)"
    m["Message-ID"] = "<attached-only@test.org>"
    m.add_attachment(b"SIGNON late26 FRANCE pw-late26\nA PAR - BUR\n", maintype="text",
                     subtype="plain", filename="orders.txt")
    out = judge.handle_mail(m.as_bytes())
    assert "could not read the text of your mail" in to(out, "ben@test.org")[0].body
    (told,) = to(out, "gm@test.org")
    assert told.subject == "autumn26, late26: unreadable mail from ben@test.org"
    assert "(ITALY in autumn26, FRANCE in late26)" in told.body
    assert '"my orders (attached)"' in told.body and "spring26" not in told.body
    (club,) = to(out, "ann@club.org")
    assert club.subject == "club: unreadable mail from ENGLAND"
    assert "(ENGLAND in club)" in club.body and "late26" not in club.body


def test_a_bounce_is_told_once_to_each_gm_of_a_game_still_played(judge):
    """As an unreadable mail: a GM of two of the address's games gets one notice naming
    both, the GM of a game that has ended none."""
    _game_of(judge, "late26", "gm@test.org", {"France": "ben@test.org"})
    _game_of(judge, "spring26", "gm@test.org", {"France": "ben@test.org"})
    _game_of(judge, "autumn26", "gm@test.org", {"Italy": "ben@test.org"})
    _game_of(judge, "club", "ann@club.org", {"England": "ben@test.org"})
    judge.handle_mail(mail("gm@test.org", "GM spring26 gm-secret\nENDGAME DRAW"))
    before = len(judge.store.unsent())
    raw = (b"From: MAILER-DAEMON@mx.test.org\r\nTo: judge@test.org\r\nSubject: failure\r\n"
           b"Message-ID: <dsn9@mx.test.org>\r\nMIME-Version: 1.0\r\nContent-Type: "
           b"multipart/report; report-type=delivery-status; boundary=X\r\n\r\n--X\r\n"
           b"Content-Type: text/plain\r\n\r\nundeliverable\r\n--X\r\nContent-Type: "
           b"message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\nFinal-Recipient: "
           b"rfc822;ben@test.org\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: "
           b"smtp; 550 user unknown\r\n--X--\r\n")
    assert judge.handle_mail(raw) == []
    told = judge.store.unsent()[before:]
    assert sorted((m.to, m.subject) for m in told) == [
        ("ann@club.org", "club: mail to ben@test.org bounced"),
        ("gm@test.org", "autumn26, late26: mail to ben@test.org bounced")]
    ours = next(m for m in told if m.to == "gm@test.org")
    assert "(ITALY in autumn26, FRANCE in late26)" in ours.body and "spring26" not in ours.body
    assert "550 user unknown" in ours.body
