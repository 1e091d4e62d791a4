"""Outgoing mail as built for SMTP: readable text, attachments, loop-stopping headers."""

from __future__ import annotations

import email
import email.policy

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
    assert back["Message-ID"] == "<mobadj.abc123.42@test.org>"  # stable: outbox id + store
    assert back["Auto-Submitted"] == "auto-generated" and back["In-Reply-To"] == "<x@y>"
    assert back.get_body(("plain",)).get_content() == "Ergebnisse: A MUN - BER ✓\n"
    files = {p.get_filename(): p.get_content() for p in back.iter_attachments()}
    assert files["result.json"] in (b'{"a": 1}', '{"a": 1}')
    assert files["map.png"] == b"\x89PNG\r\n"


def test_replies_default_to_auto_replied():
    msg = build_message(Mail("p@test.org", "Re: x", "ok", id=1), "j@test.org", "J", "t", 0)
    assert msg["Auto-Submitted"] == "auto-replied"
    assert "multipart" not in msg.get_content_type()
