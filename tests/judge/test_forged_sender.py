"""Mail whose From: is forged and whose Reply-To: is the writer's own: anyone may write any
From:, so an answer that tells what the From: address may see (a private game, its seats,
its results) goes to that From: address, never to the Reply-To: of a mail that did not sign
on with a password."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail

SPY = "spy@evil.org"


@pytest.fixture
def secret(judge):
    t = Table(judge, "standard", press="grey", picture="none")
    judge.handle_mail(mail("france@test.org", t.signon("FRANCE") + "A Par-Bur\n"))
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS\n"))
    with judge.store.transaction():
        judge.store.set_web_key("g1", "k" * 20, judge.clock())  # a private game
    return t


def forged(judge, body, sender="england@test.org", subject="help"):
    return judge.handle_mail(mail(sender, body, subject=subject, Reply_To=SPY))


@pytest.mark.parametrize("body", [
    "Hello,\n\nI lost my password, can you help me?\n\nAnna\n",
    "HISTORY g1\n", "SUMMARY g1\n", "WHOGAME g1\n", "LIST\n", "SIGNON g1 England guess\n",
    "A Lon-Nth\nF Edi-Nwg\n", "JOIN g1\n"])
def test_a_forged_from_with_a_reply_to_elsewhere_tells_the_reply_to_nothing(judge, secret, body):
    out = forged(judge, body)
    assert out and SPY not in {m.to for m in out}
    assert out[0].to == "england@test.org"  # the one whose seats the answer may name


def test_the_spy_learns_what_any_stranger_learns_from_their_own_address(judge, secret):
    assert forged(judge, "I lost my password\n")[0].body.count("g1 England") == 1  # England's
    for body in ("HISTORY g1\n", "SUMMARY g1\n"):
        r = judge.handle_mail(mail(SPY, body))[0]
        assert r.to == SPY and "no game 'g1'" in r.body and "PAR" not in r.body
    r = judge.handle_mail(mail(SPY, "I lost my password\n"))[0]
    assert r.to == SPY and "g1" not in r.body and "England" not in r.body


def test_a_signed_on_mail_is_still_answered_at_its_reply_to(judge, secret):
    out = judge.handle_mail(mail("england@test.org", secret.signon("ENGLAND") + "F Lon-Nth\n",
                                 Reply_To="anna.home@test.org"))
    assert out[0].to == "anna.home@test.org" and "F LON - NTH" in out[0].body.upper()


def test_through_the_servers_the_spy_gets_nothing_and_the_player_the_answer(service,
                                                                          mail_servers):
    """Real SMTP and IMAP: a stranger forges a player's From: with their own Reply-To:."""
    from .e2e import send, text

    S, judge = mail_servers, service.judge
    judge.create_game("secret", "standard", "gm@test.org", "gm-pw", seed=1)
    send(S, "gm@test.org", "GM secret gm-pw\naddplayer anna@test.org England anna-pw")
    with judge.store.transaction():
        judge.store.set_web_key("secret", "k" * 20, judge.clock())
    service.step()
    S.wait_for("anna@test.org", 1)  # the welcome mail
    send(S, "anna@test.org", "Hello,\n\nI lost my password, can you help me?\n\nAnna\n",
         subject="help", reply_to=SPY)
    send(S, "anna@test.org", "HISTORY secret\n", reply_to=SPY)
    send(S, "anna@test.org", "SIGNON secret England anna-pw\nLIST secret\n",
         reply_to="anna.home@test.org")
    service.step()
    got = S.wait_for("anna@test.org", 3)
    assert "SIGNON secret England <password>" in "".join(text(m) for m in got)
    assert "Signed on as England in secret." in text(S.wait_for("anna.home@test.org", 1)[0])
    assert S.inbox(SPY) == []
