"""A player going away writes "Away next week" or "Absence" as the subject: the judge reads
such a mail when it gives a command, and still never answers a real out-of-office reply
(Gmail's, Outlook's, Exchange's, or one that says nothing in its headers)."""

from __future__ import annotations

import pytest

from .helpers import mail


def handle(judge, sender, body, subject, **headers):
    return judge.handle_mail(mail(sender, body, subject=subject, **headers))


@pytest.mark.parametrize("subject", ["Away next week - my orders", "Absence", "away",
                                     "Vacation from Friday", "Out of office next week"])
def test_a_player_s_mail_with_an_away_subject_is_read_and_answered(judge, table, subject):
    g = judge.store.game("g1")
    body = f"Hi GM,\n{table.signon('NORTH')}go 3\nABSENCE 2 days\nThanks, Mehmet\n"
    out = handle(judge, "north@test.org", body, subject)
    assert out and out[0].to == "north@test.org"
    assert "Signed on as North" in out[0].body and "Absence granted" in out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}
    assert judge.store.game("g1").deadline == g.deadline + 2 * 86400


def test_a_command_without_sign_on_under_an_away_subject_is_answered(judge, table):
    out = handle(judge, "x@test.org", "list\n", "Away: which games are open?")
    assert len(out) == 1 and "g1" in out[0].body


GMAIL = {"Auto_Submitted": "auto-replied", "Precedence": "bulk"}
OUTLOOK = {"X_Auto_Response_Suppress": "All"}  # a client-side rule: no Auto-Submitted
EXCHANGE = {"Auto_Submitted": "auto-generated", "X_Auto_Response_Suppress": "All",
            "X_MS_Exchange_Inbox_Rules_Loop": "north@test.org"}


@pytest.mark.parametrize(("subject", "headers"), [
    ("Away until Monday", GMAIL),
    ("Re: orders", GMAIL),  # Gmail's vacation reply may keep the subject answered
    ("Automatic reply: orders", OUTLOOK),
    ("Automatic reply: orders", EXCHANGE),
    ("Out of Office: orders", {}),  # says nothing in its headers
    ("Abwesend", {}),
])
def test_real_auto_replies_are_never_answered(judge, table, subject, headers):
    body = ("I am away until Monday with no access to mail. For anything urgent, write to "
            "the office.\n\nBest,\nNorth\n")
    assert handle(judge, "north@test.org", body, subject, **headers) == []
    assert judge.store.mail_count() == 1  # recorded as seen, never answered


@pytest.mark.parametrize("headers", [GMAIL, OUTLOOK, EXCHANGE])
def test_an_auto_reply_copying_the_sign_on_is_not_answered(judge, table, headers):
    body = "I am away until Monday.\n\n" + table.signon("NORTH") + "go 3\n"
    assert handle(judge, "north@test.org", body, "Automatic reply: orders", **headers) == []
    assert judge.store.orders("g1", "T1") == {}


def test_bounce_subjects_are_never_answered_even_with_the_judge_s_text(judge, table):
    body = "This message was created automatically.\n\n" + table.signon("NORTH") + "go 3\n"
    assert handle(judge, "north@test.org", body, "Undelivered Mail Returned to Sender") == []
    assert handle(judge, "north@test.org", body, "Mail delivery failed: returning") == []
    assert judge.store.orders("g1", "T1") == {}
