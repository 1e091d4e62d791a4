"""A player's account by mail: orders from a new address (accepted, the registered address
told), SET PASSWORD, SET ADDRESS confirmed from both addresses, SET TIMEZONE; in memory and
through the real servers."""

from __future__ import annotations

import re

import pytest

from .e2e import send, text
from .helpers import mail


def handle(judge, sender, body):
    return judge.handle_mail(mail(sender, body))


def code_in(body: str) -> str:
    return re.search(r"CONFIRM (\w+)", body).group(1)


def test_orders_from_a_new_address_are_accepted_and_the_owner_told(judge, table, clock):
    out = handle(judge, "cafe@elsewhere.org", table.signon("NORTH") + "go 3")
    assert out[0].to == "cafe@elsewhere.org" and "Signed on as North" in out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}
    (notice,) = [m for m in out if m.to == "north@test.org"]
    assert "came from cafe@elsewhere.org" in notice.subject
    assert "SET PASSWORD" in notice.body and "pw-north" not in notice.body
    # once an hour for the same other address
    out = handle(judge, "cafe@elsewhere.org", table.signon("NORTH") + "go 4")
    assert [m.to for m in out] == ["cafe@elsewhere.org"]
    clock.advance(hours=1.1)
    out = handle(judge, "cafe@elsewhere.org", table.signon("NORTH") + "go 5")
    assert [m.to for m in out] == ["cafe@elsewhere.org", "north@test.org"]
    # from the registered address itself: no notice
    assert len(handle(judge, "north@test.org", table.signon("NORTH") + "go 6")) == 1


def test_set_password(judge, table):
    out = handle(judge, "north@test.org", table.signon("NORTH") + "SET PASSWORD tulip42")
    assert "Password changed." in out[0].body
    assert "Sign-on refused" in handle(judge, "north@test.org", table.signon("NORTH"))[0].body
    assert "Signed on" in handle(judge, "north@test.org", "SIGNON g1 NORTH tulip42")[0].body
    out = handle(judge, "north@test.org", "SIGNON g1 NORTH tulip42\nset password abc")
    assert "at least 6 characters" in out[0].body
    assert "tulip42" not in str(judge.export("g1"))  # never stored nor exported


def test_addplayer_refuses_a_password_no_signon_line_can_carry(judge):
    judge.create_game("g9", "toy", "gm@test.org", "gm-secret", seed=1)
    for given in ("ab1", "pw-e"):
        out = handle(judge, "gm@test.org", f"GM g9 gm-secret\nADDPLAYER w@test.org WEST {given}")
        assert "the password given for WEST: choose one word of at least 6 characters" \
            in out[0].body
        assert [m.to for m in out] == ["gm@test.org"]  # no welcome mail
        assert judge.store.player("g9", "WEST") is None
    out = handle(judge, "gm@test.org", "GM g9 gm-secret\nADDPLAYER w@test.org WEST")
    assert "WEST added: w@test.org (password mailed to them)." in out[0].body


def test_set_address_is_confirmed_from_both_addresses(judge, table):
    # asked from the registered address: only the new one must confirm
    out = handle(judge, "north@test.org", table.signon("NORTH") + "SET ADDRESS n2@new.org")
    assert "A confirmation code went to n2@new.org" in out[0].body
    (ask,) = [m for m in out if m.to == "n2@new.org"]
    code = code_in(ask.body)
    wrong = handle(judge, "north@test.org", f"CONFIRM {code}")[0].body
    assert "no change, JOIN or WATCH waits for this code from this address" in wrong
    assert judge.store.player("g1", "NORTH").email == "north@test.org"  # wrong address
    out = handle(judge, "n2@new.org", f"CONFIRM {code}")
    assert "NORTH in g1 now plays from n2@new.org" in out[0].body
    assert judge.store.player("g1", "NORTH").email == "n2@new.org"
    assert [m.to for m in out[1:]] == ["north@test.org"]  # the old address is told
    again = handle(judge, "n2@new.org", f"CONFIRM {code}")[0].body
    assert "no change, JOIN or WATCH waits" in again
    # asked from a third address: both must confirm
    out = handle(judge, "x@third.org", "SIGNON g1 EAST pw-east\nset address e2@new.org")
    codes = {m.to: code_in(m.body) for m in out if "confirm the new address" in m.subject}
    assert set(codes) == {"east@test.org", "e2@new.org"}
    out = handle(judge, "e2@new.org", f"confirm {codes['e2@new.org']}")
    assert "waits for the other address" in out[0].body
    assert judge.store.player("g1", "EAST").email == "east@test.org"
    handle(judge, "east@test.org", f"confirm {codes['east@test.org']}")
    assert judge.store.player("g1", "EAST").email == "e2@new.org"


def test_set_timezone_shows_each_reader_their_own_time(judge, table):
    out = handle(judge, "north@test.org", table.signon("NORTH") + "SET TIMEZONE europe/paris")
    assert "Time zone set: Europe/Paris" in out[0].body
    assert "CET" in out[0].body and "UTC)" in out[0].body  # the deadline line of the reply
    out = handle(judge, "north@test.org", table.signon("NORTH") + "set timezone Europe/Pariss")
    assert "unknown time zone 'Europe/Pariss' (did you mean Europe/Paris" in out[0].body
    for seat in ("NORTH", "EAST", "SOUTH", "WEST"):
        out = handle(judge, f"{seat.lower()}@test.org", table.signon(seat) + "go 1\nready")
    results = {m.to: m.body for m in out if "T1 results" in m.subject}
    assert "Deadline: Sun 17 Jan 2027 09:00 CET (08:00 UTC)" in results["north@test.org"]
    assert "Deadline: Sun 17 Jan 2027 08:00 GMT" in results["east@test.org"]
    out = handle(judge, "gm@test.org", "GM g1 gm-secret\nSET TIMEZONE America/New_York\nlist")
    assert "Deadline: Sun 17 Jan 2027 03:00 EST (08:00 UTC)" in out[0].body


def test_address_and_password_by_mail_through_the_servers(service, mail_servers):
    S, judge = mail_servers, service.judge
    judge.create_game("acct", "standard", "gm@test.org", "gm-pw", seed=2)
    send(S, "gm@test.org", "GM acct gm-pw\naddplayer anna@test.org Italy anna-pw\nstart")
    service.step()
    send(S, "anna@phone.org", "SIGNON acct Italy anna-pw\nA VEN H\nSET ADDRESS anna@phone.org")
    service.step()
    reply = text(S.wait_for("anna@phone.org", 1)[0])
    assert "A VEN H" in reply and "A confirmation code went to anna@test.org" in reply
    home = S.wait_for("anna@test.org", 4)
    assert any("came from anna@phone.org" in m["Subject"] for m in home)
    ask = next(m for m in home if "confirm the new address" in m["Subject"])
    send(S, "anna@test.org", f"CONFIRM {code_in(text(ask))}")
    service.step()
    assert "now plays from anna@phone.org" in text(S.wait_for("anna@test.org", 5)[-1])
    send(S, "anna@phone.org", "SIGNON acct Italy anna-pw\nSET PASSWORD fig-and-olive\n"
                              "SET TIMEZONE Europe/Rome")
    service.step()
    reply = text(S.wait_for("anna@phone.org", 3)[-1])
    assert "Password changed." in reply and "CET" in reply
    assert judge.store.player("acct", "ITALY").email == "anna@phone.org"
    assert b"fig-and-olive" not in b"".join(raw for raws in S.all_delivered().values()
                                            for raw in raws)


@pytest.mark.parametrize("line", ["SET PASSWORD NewGmPwd-99 extra", "SET PASSWORD g1 NewGmPwd-99",
                                  "SET PASSWORD a", "SET PASSWORD gm-pw,new", "PASSWORD x"])
def test_the_gm_password_is_refused_as_a_players_when_a_gm_line_could_not_carry_it(
        judge, table, line):
    """The GM's new password must be one that ``GM g1 <password>`` can carry (one word, no
    comma) and as long as a player's: else the GM would lock themselves out of the game."""
    out = handle(judge, "gm@test.org", f"GM g1 gm-secret\n{line}")
    assert ("SET PASSWORD: choose one word of at least 6 characters (letters, digits, signs; "
            "no commas).") in out[0].body
    assert "GM password changed" not in out[0].body
    assert "Signed on as GM of g1." in handle(judge, "gm@test.org", "GM g1 gm-secret")[0].body
    out = handle(judge, "gm@test.org", "GM g1 gm-secret\nSET PASSWORD NewGmPwd-99")
    assert "GM password changed." in out[0].body
    assert "Signed on as GM of g1." in handle(judge, "gm@test.org", "GM g1 NewGmPwd-99")[0].body


def test_a_new_game_needs_a_gm_password_as_long_as_a_players(judge):
    out = handle(judge, "gm@test.org", "CREATE weak3 standard x")
    assert out[0].body.startswith("CREATE refused: the GM password: choose one word of at "
                                  "least 6 characters")
    assert judge.store.game("weak3") is None
    out = handle(judge, "gm@test.org", "CREATE fine3 standard Gm-Secret-3\nSTATUS")
    assert "Game fine3 (standard) created; you are its GM." in out[0].body
    assert "Signed on as GM of fine3." in handle(judge, "gm@test.org",
                                                  "GM fine3 Gm-Secret-3")[0].body
