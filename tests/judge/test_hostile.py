"""A corpus of hostile mail fed to the judge: nothing crashes it, automatic mail is never
answered, and readable commands inside odd wrappings still work."""

from __future__ import annotations

import base64
import random

import pytest

from .helpers import mail

SIGNON = b"SIGNON g1 NORTH pw-north"


def raw(headers: str, body: bytes) -> bytes:
    return headers.replace("\n", "\r\n").encode() + b"\r\n" + body


CORPUS = {
    "html only": raw("From: north@test.org\nMessage-ID: <h1@x>\nContent-Type: text/html; "
                     "charset=utf-8\n", b"<html><body><p>" + SIGNON + b"</p><p>go 3</p>"
                     b"</body></html>"),
    "base64 utf-16": raw("From: north@test.org\nMessage-ID: <b1@x>\nContent-Type: text/plain; "
                         "charset=utf-16\nContent-Transfer-Encoding: base64\n",
                         base64.b64encode((SIGNON.decode() + "\ngo 3").encode("utf-16"))),
    "quoted printable": raw("From: north@test.org\nMessage-ID: <q1@x>\nContent-Type: text/plain;"
                            " charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n",
                            SIGNON + b"\ngo=203\n"),
    "no content type": raw("From: north@test.org\nMessage-ID: <n1@x>\n", SIGNON + b"\ngo 3"),
    "broken boundary": raw("From: north@test.org\nMessage-ID: <bb@x>\nContent-Type: "
                           "multipart/mixed; boundary=\"zzz\"\n",
                           b"--yyy\r\nContent-Type: text/plain\r\n\r\n" + SIGNON + b"\r\ngo 3"),
    "reply with quote": raw("From: north@test.org\nMessage-ID: <r1@x>\nSubject: Re: Re: g1\n",
                            SIGNON + b"\ngo 3\n\nOn Tue, Judge wrote:\n> SIGNON g1 NORTH x\n"),
    "outlook quote": raw("From: north@test.org\nMessage-ID: <o1@x>\n",
                         SIGNON + b"\ngo 3\n________________________________\nFrom: judge@x\n"
                         b"go 9\n"),
}
NOT_ANSWERED = {
    "bounce": raw("From: MAILER-DAEMON@test.org\nMessage-ID: <m1@x>\nSubject: Undelivered Mail"
                  "\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\n",
                  b"--b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--b--"),
    "vacation": raw("From: north@test.org\nMessage-ID: <v1@x>\nAuto-Submitted: auto-replied\n"
                    "Subject: Out of office\n", b"I am away. " + SIGNON),
    "list": raw("From: north@test.org\nMessage-ID: <l1@x>\nPrecedence: list\n", SIGNON),
    "no from": raw("Message-ID: <nf@x>\nSubject: hi\n", SIGNON + b"\ngo 3"),
    "null return path": raw("Return-Path: <>\nFrom: north@test.org\nMessage-ID: <np@x>\n",
                            SIGNON + b"\ngo 3"),
    "from the judge itself": raw("From: judge@test.org\nMessage-ID: <j1@x>\n", b"help"),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_odd_but_readable_mail_is_understood(judge, table, name):
    out = judge.handle_mail(CORPUS[name])
    assert out and out[0].to == "north@test.org"
    assert "Signed on as North" in out[0].body, out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}


@pytest.mark.parametrize("name", sorted(NOT_ANSWERED))
def test_automatic_or_unanswerable_mail_gets_no_reply(judge, table, name):
    assert judge.handle_mail(NOT_ANSWERED[name]) == []
    assert judge.store.orders("g1", "T1") == {}
    assert judge.store.mail_count() == 1  # recorded as seen, so never looked at again


def test_huge_and_binary_bodies(judge, table):
    big = mail("north@test.org", table.signon("NORTH") + "go 2\n" + "x" * 3_000_000)
    out = judge.handle_mail(big)
    assert ("the judge reads at most 200,000 characters of a mail (quoted text counts here). "
            "It read your mail up to line 2; line 3 and all after it were not read: send them "
            "again in another mail.") in out[0].body, out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 2"}
    rng = random.Random(1)
    binary = raw("From: north@test.org\nMessage-ID: <bin@x>\nContent-Type: text/plain\n",
                 bytes(rng.randrange(256) for _ in range(200_000)))
    out = judge.handle_mail(binary)
    assert out and "no command" in out[0].body


def test_header_tricks_cannot_inject_headers(judge, table):
    m = raw("From: north@test.org\nMessage-ID: <inj@x>\nSubject: =?utf-8?q?hi=0D=0ABcc:_x@evil?=\n",
            b"help")
    out = judge.handle_mail(m)
    assert "\n" not in out[0].subject and "\r" not in out[0].subject


def test_random_bytes_never_crash_the_judge(judge, table):
    rng = random.Random(99)
    for i in range(150):
        n = rng.randrange(0, 3000)
        blob = bytes(rng.randrange(256) for _ in range(n))
        if i % 3 == 0:  # garbage after plausible headers
            blob = b"From: f" + str(i).encode() + b"@test.org\r\nMessage-ID: <" + \
                str(i).encode() + b"@fuzz>\r\n\r\n" + blob
        judge.handle_mail(blob)  # must not raise
    assert judge.store.mail_count() == 150


@pytest.mark.parametrize("header", [
    "From: =?utf-8?q?north@test.org?=",  # the whole address wrongly encoded: still readable
    "From: north@test.org\nReply-To: <<<>>>",  # a Reply-To that is no address: From is used
    "From: north@test.org\nReply-To: \"a b\"@test.org",
    "From: north@test.org\nReply-To: pl\u00e4yer@test.org",  # not ASCII: SMTP refuses it
])
def test_replies_go_only_to_an_address_the_judge_can_write_to(judge, table, header):
    out = judge.handle_mail(raw(f"{header}\nMessage-ID: <addr@x>\n", SIGNON + b"\ngo 3"))
    assert [m.to for m in out] == ["north@test.org"]
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}


def test_a_sender_that_is_no_address_is_never_answered(judge, table):
    out = judge.handle_mail(raw("From: north@test.org\x00evil@x\nMessage-ID: <nul@x>\n", b"help"))
    assert out == [] and judge.store.mail_count() == 1


@pytest.mark.parametrize("line", ["ADDPLAYER a>b@test.org NORTH", "REPLACE NORTH a@b@test.org",
                                  "ADDPLAYER north@ NORTH"])
def test_the_gm_cannot_seat_an_address_mail_cannot_reach(judge, line):
    judge.create_game("g2", "toy", "gm@test.org", "gm-secret", {}, seed=1)
    out = judge.handle_mail(mail("gm@test.org", f"GM g2 gm-secret\n{line}"))
    assert "is not an email address" in out[0].body
    assert judge.store.players("g2") == []


def test_set_address_wants_an_address_mail_can_reach(judge, table):
    out = judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "SET ADDRESS a>b@x.org"))
    assert "is not an email address" in out[0].body
    assert [m.to for m in out] == ["north@test.org"]


def test_a_reply_to_the_judge_itself_is_read_and_answered_at_the_sender(judge, table):
    m = raw("From: north@test.org\nReply-To: Judge <JUDGE@test.org>\nMessage-ID: <rt@x>\n",
            SIGNON + b"\ngo 3")
    out = judge.handle_mail(m)
    assert [x.to for x in out] == ["north@test.org"]
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}


def test_mail_from_the_judges_address_is_never_obeyed_whatever_its_reply_to(judge, table):
    m = raw("From: judge@test.org\nReply-To: north@test.org\nMessage-ID: <fj@x>\n",
            SIGNON + b"\ngo 3")
    assert judge.handle_mail(m) == []
    assert judge.store.orders("g1", "T1") == {}


@pytest.mark.parametrize("body", [
    "SIGNON\u00a0g1\u00a0NORTH\u00a0pw-north\ngo\u00a03",  # no-break spaces (HTML-ish mailers)
    "\ufeffSIGNON g1 NORTH pw-north\ngo 3",  # a byte-order mark before the first word
    "SIGNON g1 NORTH pw-north\ngo\u200b 3\u200d",  # zero-width characters
    "\uff33\uff29\uff27\uff2e\uff2f\uff2e g1 NORTH pw-north\n\uff47\uff4f\u3000\uff13",  # fullwidth
    "SIGNON g1 NORTH pw-north\ngo 3\x00\x00\n\x07",  # NUL bytes and a bell
])
def test_invisible_and_lookalike_characters_do_not_spoil_commands(judge, table, body):
    m = raw("From: north@test.org\nMessage-ID: <u@x>\nContent-Type: text/plain; charset=utf-8\n",
            body.encode())
    out = judge.handle_mail(m)
    assert "Signed on as North" in out[0].body, out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}


def test_press_text_keeps_its_own_characters(judge, table):
    text = "Deal? \U0001f468\u200d\U0001f469 \uff21\u00a0b"
    out = judge.handle_mail(mail("north@test.org", table.signon("NORTH")
                                 + f"PRESS TO EAST\n{text}\nENDPRESS\u200b\ngo 3"))
    assert "Press delivered to EAST" in out[0].body
    press = next(m for m in out if m.to == "east@test.org")
    assert text in press.body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}


def test_control_characters_never_reach_another_players_mail(judge, table):
    body = table.signon("NORTH") + "PRESS TO EAST\nred\x1b[31m alert\x00!\x07\nENDPRESS\n"
    out = judge.handle_mail(raw("From: north@test.org\nMessage-ID: <c@x>\n", body.encode()))
    press = next(m for m in out if m.to == "east@test.org")
    assert "red[31m alert!" in press.body


def test_a_bottom_posted_answer_to_the_judge_is_read(judge, table):
    first = judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "go 1"))[0].body
    quoted = "\n".join("> " + line for line in first.splitlines())
    body = (f"On Sun, 17 Jan 2027, Test Judge <judge@test.org> wrote:\n{quoted}\n\n"
            + table.signon("NORTH") + "go 3\n")
    out = judge.handle_mail(mail("north@test.org", body))
    assert out and "Signed on as North" in out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}


def nested(depth: int) -> bytes:
    """A mail whose text sits ``depth`` multiparts deep."""
    head = "".join(f"--b{i}\r\nContent-Type: multipart/mixed; boundary=b{i + 1}\r\n\r\n"
                   for i in range(depth))
    tail = "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    return raw("From: north@test.org\nMessage-ID: <deep@x>\nContent-Type: multipart/mixed; "
               "boundary=b0\n", (f"{head}--b{depth}\r\nContent-Type: text/plain\r\n\r\n"
                                 f"SIGNON g1 NORTH pw-north\r\ngo 3\r\n--b{depth}--\r\n{tail}"
                                 ).encode())


UNREADABLE = {
    "nested too deeply": (nested(3000), "nested too deeply"),
    "broken base64": (raw("From: north@test.org\nMessage-ID: <b64@x>\nContent-Transfer-Encoding:"
                          " base64\n", base64.b64encode(SIGNON + b"\ngo 3")[:-3] + b"!!@@"),
                      "base64"),
    "attachments only": (raw("From: north@test.org\nMessage-ID: <att@x>\nContent-Type: "
                             "multipart/mixed; boundary=b\n",
                             b"--b\r\nContent-Type: text/plain\r\nContent-Disposition: "
                             b"attachment; filename=orders.txt\r\n\r\n" + SIGNON
                             + b"\r\ngo 3\r\n--b--\r\n"), "attachment"),
    "a picture only": (raw("From: north@test.org\nMessage-ID: <png@x>\nContent-Type: image/png\n"
                           "Content-Transfer-Encoding: base64\n",
                           base64.b64encode(b"\x89PNG" + bytes(range(256)))), "attachment"),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_a_mail_whose_text_cannot_be_read_is_answered_with_why(judge, table, name):
    m, why = UNREADABLE[name]
    out = judge.handle_mail(m)
    assert out and out[0].to == "north@test.org"
    assert "could not read the text of your mail" in out[0].body and why in out[0].body
    assert judge.store.orders("g1", "T1") == {}


def test_an_empty_plain_part_beside_the_html_one_is_passed_over(judge, table):
    m = raw("From: north@test.org\nMessage-ID: <alt@x>\nContent-Type: multipart/alternative; "
            "boundary=b\n", b"--b\r\nContent-Type: text/plain\r\n\r\n \r\n--b\r\nContent-Type: "
            b"text/html\r\n\r\n<p>" + SIGNON + b"</p><p>go 3</p>\r\n--b--\r\n")
    judge.handle_mail(m)
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}
