"""Mail that never loops: auto-responders that do not say they are one, mail quoting the
judge, and the reply budget per address; in memory and through the real servers."""

from __future__ import annotations

import pytest

from .e2e import send, text
from .helpers import mail

QUOTED_SIG = "> Test Judge <judge@test.org>  --  send HELP for the commands"


def handle(judge, sender, body, **kw):
    return judge.handle_mail(mail(sender, body, **kw))


def test_one_no_command_reply_per_address_text_and_window(judge, clock):
    first = handle(judge, "auto@test.org", "Thanks for your mail, I'll get back to you.")
    assert len(first) == 1 and "send LIST" in first[0].body and "JOIN" in first[0].body
    assert handle(judge, "auto@test.org", "Thanks for your mail, I'll get back to you.") == []
    assert handle(judge, "other@test.org", "Hello there")  # another address: answered
    clock.advance(hours=0.9)
    # an auto-responder's date changes, its text does not: still the same text
    assert handle(judge, "auto@test.org", "Thanks for your mail (29/11/2026), I'll get back "
                                          "to you.") == []
    assert handle(judge, "auto@test.org", "help")  # a command is always answered (budget)
    clock.advance(hours=0.2)  # an hour after the first reply
    assert len(handle(judge, "auto@test.org", "Thanks for your mail, I'll get back to you.")) == 1


def test_a_new_question_is_answered_but_not_endless_new_texts(judge, clock):
    """A person's follow-up question is a new text: answered at once.  An auto-responder
    whose text changes every time gets at most five answers in the window."""
    assert handle(judge, "ann@test.org", "I'd like to join a game please!")
    assert handle(judge, "ann@test.org", "Sorry, I don't understand. What do I do now?")
    assert handle(judge, "ann@test.org", "Sorry, I don't understand. What do I do now?") == []
    for n, word in enumerate(["Monday", "Tuesday", "Wednesday", "Thursday"]):
        got = handle(judge, "ann@test.org", f"Away until {word}.")
        assert len(got) == (1 if n < 3 else 0), word
    clock.advance(hours=1.01)
    assert handle(judge, "ann@test.org", "Away until Friday.")


def test_mail_quoting_the_judge_without_a_command_is_answered_once_an_hour(judge, table,
                                                                         clock):
    body = f"I am away until Monday.\n\nOn Tue, judge wrote:\n> Deadline ...\n{QUOTED_SIG}\n"
    out = handle(judge, "north@test.org", body)  # a person who hit Reply: told what to send
    assert len(out) == 1 and "it has no SIGNON line" in out[0].body
    assert handle(judge, "north@test.org", body) == []  # then not again within the hour
    # the judge's text copied in without quote marks, re-wrapped, in HTML: still its text
    inline = ("Thanks!\n\n-----\nLIST: please sign on first\nTest Judge <judge@test.org>  --"
              "  send\nHELP for the commands\n")
    assert handle(judge, "north@test.org", inline) == []
    # nothing of its own but the quote: never answered
    clock.advance(hours=2)
    assert handle(judge, "north@test.org", f"On Tue, judge wrote:\n{QUOTED_SIG}\n") == []
    # a player answering the judge with orders on top is answered as always
    out = handle(judge, "north@test.org", table.signon("NORTH") + "go 3\n\n" + QUOTED_SIG)
    assert "Signed on as North" in out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 3"}
    out = handle(judge, "x@test.org", "list\n\n" + QUOTED_SIG)
    assert len(out) == 1  # a command: answered


def test_reply_budget_then_one_notice_and_the_gm_told_once(judge, table, clock):
    replies, notices, gm_mails = 0, 0, 0
    for n in range(25):
        body = "list" if n != 23 else "set timezone Europe/Paris"  # commands, no sign-on
        for m in handle(judge, "north@test.org", body):
            if m.to == "gm@test.org":
                gm_mails += 1
                assert "north@test.org is not answered for now" in m.subject
                assert "It plays in: g1." in m.body
            elif "will not answer you again before" in m.body:
                notices += 1
                assert "Your mails are still read and carried out" in m.body
            else:
                replies += 1
    assert (replies, notices, gm_mails) == (20, 1, 1)
    # a mail that signs on with the right password is a person's: always answered
    out = handle(judge, "north@test.org", table.signon("NORTH") + "go 4")
    assert len(out) == 1 and "Signed on as North" in out[0].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 4"}
    clock.advance(hours=1.01)
    out = handle(judge, "north@test.org", "list")
    assert len(out) == 1 and "not answer" not in out[0].body


def test_a_signed_on_player_is_never_silenced(judge, table):
    for n in range(30):
        out = handle(judge, "north@test.org", table.signon("NORTH") + f"go {1 + n % 4}")
        assert len(out) == 1 and "will not answer" not in out[0].body


@pytest.mark.parametrize("style", ["plain", "quoting", "inline copy"])
def test_an_auto_responder_gets_at_most_two_replies_in_ten_minutes(service, mail_servers,
                                                                  clock, style):
    """A player's address answers every mail at once with "Thanks for your mail", without
    any automatic-mail header, as some mail programs do.  The judge sends it the welcome
    mail; over ten minutes of the judge's clock it answers at most twice."""
    S, judge = mail_servers, service.judge
    judge.create_game("loop", "standard", "gm@test.org", "gm-pw", seed=1)
    send(S, "gm@test.org", "GM loop gm-pw\naddplayer auto@test.org France")
    service.step()
    answered = 0
    for _ in range(20):  # ten minutes, 30 s a round
        got = S.inbox("auto@test.org")
        for msg in got[answered:]:
            original = text(msg)
            body = "Thanks for your mail, I'll get back to you."
            if style == "quoting":
                body += "\n\nOn Mon, judge wrote:\n" + "".join(
                    f"> {line}\n" for line in original.splitlines())
            elif style == "inline copy":
                body += "\n\n" + original
            send(S, "auto@test.org", body, subject=f"Re: {msg['Subject']}")
        answered = len(got)
        service.step()
        clock.advance(seconds=30)
    from_judge = S.inbox("auto@test.org")
    replies = [m for m in from_judge if m["Subject"].startswith("Re:")]
    assert len(replies) <= 2, [text(m)[:80] for m in replies]
    assert from_judge[0]["Subject"] == "loop: you play FRANCE"
    assert judge.store.mail_count() == len(from_judge) + 1  # each answer was read, once


def test_the_reply_budget_through_the_servers(service, mail_servers):
    S, judge = mail_servers, service.judge
    judge.create_game("busy", "standard", "gm@test.org", "gm-pw", seed=1)
    send(S, "gm@test.org", "GM busy gm-pw\naddplayer eager@test.org England eager-pw")
    service.step()
    for _ in range(23):
        send(S, "eager@test.org", "list")  # a command, without a sign-on
    service.step()
    got = S.wait_for("eager@test.org", 1 + 21)
    assert sum("will not answer you again" in text(m) for m in got) == 1
    assert len(got) == 22  # welcome, 20 replies, the notice; then silence
    gm = [m for m in S.inbox("gm@test.org") if "is not answered for now" in m["Subject"]]
    assert len(gm) == 1 and "eager@test.org" in text(gm[0])


def test_a_short_mail_cannot_make_a_huge_reply(judge, table):
    """A forged From makes the judge write to anyone: its answer to 10 kB must stay small."""
    out = judge.handle_mail(mail("victim@test.org", "HELP\n" * 1999))
    assert len(out) == 1 and len(out[0].body) < 60_000
    assert "left out" in out[0].body
    out = judge.handle_mail(mail("north@test.org", table.signon("NORTH") + "LIST\n" * 1990))
    assert len(out[0].body) < 60_000 and "Signed on as North" in out[0].body


def _quoting(body: str, judge_mail) -> str:
    """``body`` above the judge's mail quoted, as a mail program's Reply writes it."""
    return (f"{body}\n\nOn Sun, 29 Nov 2026 at 10:02, Test Judge <judge@test.org> wrote:\n"
            + "".join(f"> {line}\n" for line in judge_mail.body.splitlines()))


def test_a_reply_with_a_signon_and_orders_is_always_answered(judge, clock):
    """A newcomer hits Reply on the judge's mail, signs on with a slip in the password and
    gives orders; then again with another slip: both get the refusal at once."""
    judge.create_game("fall26", "standard", "gm@test.org", "gm-pw", seed=1)
    welcome = [m for m in handle(judge, "gm@test.org", "GM fall26 gm-pw\naddplayer "
                                 "dmitri@test.org Italy iVuwxHsry4M")
               if m.to == "dmitri@test.org"][0]
    answers = []
    for slip in ("ivuwxHsry4M", "iVuwxHsry4m"):
        clock.advance(seconds=60)
        got = handle(judge, "dmitri@test.org", _quoting(
            f"SIGNON fall26 Italy {slip}\nArmy Venice holds\n\nSent from my iPhone", welcome),
            subject=f"Re: {welcome.subject}")
        assert len(got) == 1, slip
        answers.append(got[0].body)
    assert all("Sign-on refused" in a for a in answers)
    # orders alone in a reply (no SIGNON) are answered each time too
    for _ in range(2):
        got = handle(judge, "dmitri@test.org", _quoting("A VEN H", welcome))
        assert len(got) == 1 and "SIGNON fall26 Italy <password>" in got[0].body
    assert judge.store.orders("fall26", "S1901M") == {}


def test_orders_copied_back_inline_by_an_auto_responder_do_not_loop(judge, clock):
    """A player sends orders without a sign-on; the judge answers with the mail to send
    (a SIGNON line and the orders).  Their auto-responder copies each mail of the judge in,
    without quote marks: the SIGNON line and the orders are the judge's, and it gets one
    answer, not one for every copy."""
    judge.create_game("fall26", "standard", "gm@test.org", "gm-pw", seed=1)
    handle(judge, "gm@test.org", "GM fall26 gm-pw\naddplayer eve@test.org Austria")
    (last,) = handle(judge, "eve@test.org", "A VIE - GAL\nF TRI H")
    assert "SIGNON fall26 Austria <password>" in last.body and "A VIE - GAL" in last.body
    answered = 0
    for _ in range(10):
        clock.advance(seconds=30)
        got = handle(judge, "eve@test.org", "Thanks for your mail, I'll get back to you.\n\n"
                     + last.body, subject="Re: orders")
        answered += len(got)
        last = got[0] if got else last
    assert answered <= 1


def test_an_auto_responder_copying_the_start_of_the_judges_form_does_not_loop(judge, clock):
    """A player's holiday auto-responder (no automatic-mail header) sends back the first
    lines of each mail, without the judge's signature.  The judge's answer to a press sent
    without a sign-on holds the form to send, whose SIGNON line has ``<password>`` in it: a
    copy of that line is the judge's form, not a sign-on, and gets no endless answers."""
    from .conftest import Table

    t = Table(judge, "standard", press="grey", picture="none")
    carl = t.emails["GERMANY"]
    (last,) = handle(judge, carl, "PRESS TO GM\nCan I have more time?\nENDPRESS\n")
    assert "SIGNON g1 Germany <password>" in last.body
    answers = []
    for n in range(30):
        clock.advance(seconds=30)
        lines = last.body.splitlines()
        head = "\n".join(lines[:min(14, lines.index("-" * 68))])  # never the signature
        got = handle(judge, carl, f"Hello, I am on holiday until Monday {n}.\nYour message "
                     f"was:\n\n{head}\n", subject=f"Re: {last.subject}")
        answers += got
        last = got[0] if got else last
    assert 1 <= len(answers) <= 3, [a.body[:120] for a in answers]
    # a person who sends the form back unfilled is still told what to write, once
    clock.advance(hours=2)
    (r,) = handle(judge, carl, "SIGNON g1 Germany <password>\nPRESS TO GM\nhi\nENDPRESS\n")
    assert "write your password in place of <password>" in r.body
