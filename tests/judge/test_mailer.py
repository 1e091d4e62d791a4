"""Outgoing mail as built for SMTP: readable text, attachments, loop-stopping headers."""

from __future__ import annotations

import email
import email.policy
import re

from mobadj.judge.mailer import build_message
from mobadj.judge.store import Mail


def test_message_round_trips_with_unicode_and_attachments():
    mail = Mail("p@test.org", "Re: Züge für München", "Ergebnisse: A MUN - BER ✓\n",
                [("result.json", "application/json", b'{"a": 1}'),
                 ("map.png", "image/png", b"\x89PNG\r\n")],
                {"In-Reply-To": "<x@y>", "Auto-Submitted": "auto-generated"}, id=42)
    msg = build_message(mail, "judge@test.org", "Test Judge", "abc123", 1_800_000_000)
    back = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert back["Subject"] == "Re: Züge für München"
    assert back["From"] == "Test Judge <judge@test.org>"
    # stable (a mail sent twice after a crash is one mail to its reader), and made with the
    # store's secret: neither the outbox id nor the order of the mails can be read from it
    again = build_message(mail, "judge@test.org", "Test Judge", "abc123", 1_800_000_000)
    assert back["Message-ID"] == again["Message-ID"]
    assert re.fullmatch(r"<mobadj\.[0-9a-f]{32}@test\.org>", back["Message-ID"])
    other = build_message(Mail("p@test.org", "x", "y", id=43), "judge@test.org", "T",
                          "abc123", 0)
    assert other["Message-ID"] != back["Message-ID"]
    assert build_message(mail, "judge@test.org", "T", "a-restored-store", 0)[
        "Message-ID"] != back["Message-ID"]
    assert back["Auto-Submitted"] == "auto-generated" and back["In-Reply-To"] == "<x@y>"
    assert back.get_body(("plain",)).get_content() == "Ergebnisse: A MUN - BER ✓\n"
    files = {p.get_filename(): p.get_content() for p in back.iter_attachments()}
    assert files["result.json"] in (b'{"a": 1}', '{"a": 1}')
    assert files["map.png"] == b"\x89PNG\r\n"


def test_replies_default_to_auto_replied():
    msg = build_message(Mail("p@test.org", "Re: x", "ok", id=1), "j@test.org", "J", "t", 0)
    assert msg["Auto-Submitted"] == "auto-replied"
    assert "multipart" not in msg.get_content_type()
