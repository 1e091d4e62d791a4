"""Hostile mail through the real servers: what one bad mail or one bad address must never
do to the rest of the mailbox and the outbox."""

from __future__ import annotations

import smtplib

from mobadj.judge.store import Mail

from .e2e import last, send, text
from .servers import JUDGE_ADDRESS


def send_raw(servers, sender: str, raw: bytes) -> None:
    """Bytes exactly as a hostile (or broken) mail program writes them."""
    with smtplib.SMTP("127.0.0.1", servers.smtp_port, timeout=10) as s:
        s.sendmail(sender, [JUDGE_ADDRESS], raw)


def test_an_address_the_smtp_server_refuses_does_not_hold_up_the_outbox(service, mail_servers):
    judge = service.judge
    with judge.store.transaction():  # e.g. a GM typo, or a bad address from an old version
        judge.queue([Mail("no-one@@test.org", "results", "for nobody")], judge.clock())
    send(mail_servers, "someone@test.org", "HELP")
    assert service.step() == 1  # no exception: the refusal is the one mail's problem
    assert "Commands (one per line" in text(last(mail_servers, "someone@test.org", 1))
    service.step()  # the refused mail is not tried again and again
    assert judge.store.unsent() == []
    refused = judge.store.refused()
    assert [(m.to, why[:3]) for m, why in refused] == [("no-one@@test.org", "553")]
