"""Mail as people write it, in memory: greetings, sign-offs and names around the orders,
errors that name the mail's own lines, and READY only from a mail taken whole."""

from __future__ import annotations

import pytest

from .conftest import Table
from .helpers import mail


@pytest.fixture
def dip(judge):
    return Table(judge, "standard")


def send(judge, t, seat, body, sender=None):
    return judge.handle_mail(mail(sender or t.emails[seat], body))[0].body


def test_greetings_sign_offs_and_names_are_not_orders(judge, dip):
    body = ("Hi GM,\n" + dip.signon("ENGLAND") + "Here are my orders for spring:\n"
            "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n\nthanks\nDave\n")
    r = send(judge, dip, "ENGLAND", body)
    assert "Error" not in r and "  A LVP - YOR" in r
    assert "no orders and no commands" not in r and "RESIGN" not in r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == (
        "F LON - NTH\nF EDI - NWG\nA LVP - YOR")


def test_a_mail_of_words_only_is_told_that_nothing_was_done(judge, dip):
    """A player asks the GM in words for a replacement: nothing reads it, and the player
    must not believe it was passed on."""
    body = ("Hi GM,\n\n" + dip.signon("TURKEY") + "\nI am very sorry but I have to drop out "
            "of the game - new job and no time at all.\nCould you please find a replacement "
            "for Turkey? My units can just hold until then.\n\nSorry again and good luck "
            "everyone,\nFay\n")
    out = judge.handle_mail(mail(dip.emails["TURKEY"], body))
    assert [m.to for m in out] == [dip.emails["TURKEY"]]  # nobody else hears of it
    r = out[0].body
    assert ("The judge found no orders and no commands in your mail, so nothing was done: it "
            "passes on no words outside a press block, not to the GM either.") in r
    assert "No orders are in for TURKEY for Spring 1901 Movement yet." in r
    assert ("To leave the game, send RESIGN under your SIGNON line. To write to the GM, send "
            "PRESS TO GM, your message, then ENDPRESS.") in r
    send(judge, dip, "TURKEY", dip.signon("TURKEY") + "A CON - BUL\nF ANK - BLA\nA SMY H")
    r = send(judge, dip, "TURKEY", dip.signon("TURKEY") + "Resing\nFay")
    assert "line 2: unknown command (did you mean 'RESIGN'?)" in r
    assert "The orders in for TURKEY for Spring 1901 Movement still stand." in r
    assert judge.store.player("g1", "TURKEY").status == "active"


def test_an_error_names_the_line_of_the_mail_and_the_rest_is_taken(judge, dip):
    body = dip.signon("ENGLAND") + "\nF LON - NTH\nF EDI - NWG\nA LVP - YOK\n\nCheers,\nCarla"
    r = send(judge, dip, "ENGLAND", body)
    assert "line 5, column 9: unknown province 'YOK'; did you mean Yorkshire (YOR)" in r
    assert "send the whole set again" not in r
    assert "The orders above are taken" in r


def test_ready_is_not_set_when_a_line_was_not_taken(judge, dip):
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nA MAR - SPAA\nREADY")
    assert "READY was not set" in r and "line 3 (A MAR - SPAA)" in r
    assert not judge.store.player("g1", "FRANCE").ready
    # READY alone does not make the partly read orders "ready" either
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "READY")
    assert "READY was not set" in r and "line 3 (A MAR - SPAA)" in r
    # orders sent again whole: READY is taken
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nA MAR - SPA\nREADY")
    assert "Marked READY" in r and judge.store.player("g1", "FRANCE").ready


def test_orders_with_an_error_take_back_an_earlier_ready(judge, dip):
    send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nREADY")
    assert judge.store.player("g1", "FRANCE").ready
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR - BUR\nA MAR - Spian")
    assert "you are not any more" in r and not judge.store.player("g1", "FRANCE").ready


def test_a_misspelt_build_gets_a_did_you_mean(judge, dip):
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "Biuld F BRE\nA PAR - BUR\nREADY")
    assert "line 2, column 1: unknown word 'Biuld'; did you mean Build?" in r
    assert "READY was not set" in r


def test_hitting_reply_on_press_is_answered_with_the_press_to_send(judge, dip):
    out = judge.handle_mail(mail(dip.emails["FRANCE"], dip.signon("FRANCE") +
                                 "PRESS TO England\nDMZ in the Channel?\nENDPRESS"))
    press = next(m for m in out if m.to == dip.emails["ENGLAND"])
    quoted = "".join(f"> {line}\n" for line in press.body.splitlines())
    body = f"Deal! I stay out.\nAnn\n\nOn Mon, Test Judge <judge@test.org> wrote:\n{quoted}"
    r = judge.handle_mail(mail(dip.emails["ENGLAND"], body, subject="Re: " + press.subject))
    assert len(r) == 1
    text = r[0].body
    assert "it has no SIGNON line" in text and "nobody else has seen it" in text
    assert ("SIGNON g1 England <password>\nPRESS TO FRANCE\nDeal! I stay out.\nAnn\nENDPRESS"
            in text)
    assert judge.store.press("g1")[-1]["sender"] == "FRANCE"  # nothing was sent


def test_orders_without_signon_are_answered_with_the_mail_to_send(judge, dip):
    r = judge.handle_mail(mail(dip.emails["ITALY"], "A VEN - TYR\nF NAP - ION\n\nthanks",
                               subject="Re: g1: the game has started"))[0].body
    assert "SIGNON g1 Italy <password>\nA VEN - TYR\nF NAP - ION" in r
    assert "PRESS TO" not in r


def test_a_player_writes_to_the_gm_with_press_to_gm_even_without_press(judge):
    t = Table(judge, "standard", press="none", picture="none")
    out = judge.handle_mail(mail(t.emails["FRANCE"], t.signon("FRANCE") + (
        "PRESS TO GM\nI have to drop out - new job. Could you find a replacement?\nBen\n"
        "ENDPRESS")))
    assert [m.to for m in out] == ["france@test.org", "gm@test.org"]
    assert "Press delivered to the GM." in out[0].body
    asked = out[1]
    assert asked.subject == "g1: press from FRANCE to the GM"
    assert "Press in g1 from FRANCE to the GM:\n\nI have to drop out" in asked.body
    assert "To answer: GM g1 <your GM password>, then PRESS TO FRANCE" in asked.body
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPRESS TO France\n"
                                 "Sorry to see you go; RESIGN and I will offer France.\nENDPRESS"))
    (answer,) = [m for m in out if m.to == "france@test.org"]
    assert answer.subject == "g1: message from the GM"
    # the player hits Reply and forgets the sign-on: the mail to send goes to the GM
    r = judge.handle_mail(mail(t.emails["FRANCE"], "Thanks, will do.\nBen",
                               subject="Re: " + answer.subject))[0].body
    assert "To send it to the GM, send this" in r
    assert "SIGNON g1 France <password>\nPRESS TO GM\nThanks, will do.\nBen\nENDPRESS" in r
    # press to the powers stays refused in this game
    r = judge.handle_mail(mail(t.emails["FRANCE"], t.signon("FRANCE")
                               + "PRESS TO England\nhello\nENDPRESS"))[0].body
    assert "this game is played without press (PRESS TO GM still reaches the GM)" in r


def test_press_to_powers_and_the_gm_at_once(judge):
    t = Table(judge, "standard", press="grey", gm_press_copy="yes", picture="none")
    out = judge.handle_mail(mail(t.emails["FRANCE"], t.signon("FRANCE")
                                 + "Press to England, GM grey\nDMZ in the Channel?\nEndpress"))
    assert "Press delivered to ENGLAND and the GM (anonymously; the GM knows it is you)." \
        in out[0].body
    (eng,) = [m for m in out if m.to == "england@test.org"]
    assert "Press in g1 from Anonymous (grey press) to ENGLAND and the GM:" in eng.body
    assert "FRANCE" not in eng.body
    (gm,) = [m for m in out if m.to == "gm@test.org"]  # one mail, not a copy besides
    assert "Press in g1 from FRANCE to the GM (and to ENGLAND):" in gm.body
    assert len(out) == 3
    assert judge.store.press("g1")[-1]["recipients"] == ["ENGLAND", "GM"]


def test_the_form_copied_back_as_it_is_signs_nobody_on(judge, dip):
    r = judge.handle_mail(mail(dip.emails["ITALY"], "SIGNON g1 Italy <password>\nA VEN H"))
    assert "write your password in place of <password>" in r[0].body


def test_remarks_in_a_gm_mail_or_from_a_power_with_nothing_due_get_no_word(judge, dip):
    r = judge.handle_mail(mail("gm@test.org", "Hi all,\nGM g1 gm-secret\nLIST\nThanks, see "
                               "you at the deadline!\nThe GM"))[0].body
    assert "lines not understood" not in r and "Game g1" in r
    r = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nA PAR - BUR"))[0].body
    assert "The GM does not give orders; lines not understood:\n  line 2: A PAR - BUR" in r


def _with_files(sender: str, body: str, *files: tuple[bytes, str, str, str] | tuple[
        bytes, str, str, str, str]) -> bytes:
    """A mail with ``files`` attached: (data, type, subtype, name[, Content-ID])."""
    from email.message import EmailMessage

    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, "judge@test.org", "orders", \
        f"<files-{len(files)}-{abs(hash(body))}@test.org>"
    m.set_content(body)
    for data, maintype, subtype, name, *cid in files:
        m.add_attachment(data, maintype=maintype, subtype=subtype, filename=name,
                         cid=cid[0] if cid else None)
    return m.as_bytes()


def test_orders_in_an_attached_file_are_not_lost_without_a_word(judge, dip):
    """The judge opens no attachment; a player who put the orders in orders.txt is told
    so, rather than left to miss the deadline."""
    raw = _with_files(dip.emails["GERMANY"], dip.signon("GERMANY") + "Orders attached.\n",
                      (b"A MUN - RUH\nF KIE - DEN\n", "text", "plain", "orders.txt"))
    reply = judge.handle_mail(raw)[0].body
    assert "The judge does not open attachments (orders.txt): only the text of your mail " \
           "was read." in reply
    assert "GERMANY" not in judge.store.orders("g1", "S1901M")
    assert "found no orders and no commands in the text of your mail" in reply
    assert "No orders are in for GERMANY for Spring 1901 Movement yet." in reply
    assert "RESIGN" not in reply


def test_a_player_who_attaches_a_plan_to_press_is_told_it_did_not_go(judge, dip):
    """Every file attached is named, a picture too, and the press went without them."""
    body = (dip.signon("FRANCE") + "A PAR-BUR\nA MAR S A PAR-BUR\nF BRE-MAO\n\n"
            "PRESS TO ENGLAND\nAnna, my private plan is attached.\nENDPRESS\n\nCheers,\nBen\n")
    out = judge.handle_mail(_with_files(dip.emails["FRANCE"], body,
                                        (b"\x89PNG...", "image", "png", "myplan.png"),
                                        (b"A PAR - BUR\n", "text", "plain", "orders.txt")))
    reply = out[0].body
    assert "The judge does not open attachments (myplan.png, orders.txt): only the text of " \
           "your mail was read, and your press went without them: press passes on only its " \
           "own text." in reply
    assert "Press delivered to ENGLAND." in reply
    (press,) = [m for m in out if m.to == dip.emails["ENGLAND"]]
    assert "my private plan is attached" in press.body and press.attachments == []


def test_what_a_mail_program_attaches_by_itself_gets_no_word(judge, dip):
    """A logo (a picture the mail's signature shows, by its Content-ID), a signature
    certificate, a business card: nobody's orders."""
    raw = _with_files(dip.emails["ENGLAND"], dip.signon("ENGLAND") + "F LON - NTH\n",
                      (b"\x89PNG...", "image", "png", "image001.png", "<image001.png@01DA>"),
                      (b"0\x82...", "application", "pkcs7-signature", "smime.p7s"),
                      (b"BEGIN:VCARD", "text", "vcard", "dave.vcf"))
    reply = judge.handle_mail(raw)[0].body
    assert "attachments" not in reply and "  F LON - NTH" in reply


def test_orders_written_as_a_numbered_or_bulleted_list(judge, dip):
    body = (dip.signon("ENGLAND")
            + "My orders:\n1. F Lon - Nth\n2. F Edi - Nwg\n\u2022 A Lvp - Yor\n")
    r = send(judge, dip, "ENGLAND", body)
    assert "Error" not in r and "  A LVP - YOR" in r
    assert "no orders and no commands" not in r and "RESIGN" not in r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == (
        "F LON - NTH\nF EDI - NWG\nA LVP - YOR")


def test_press_without_endpress_that_runs_into_orders_is_not_sent(judge, dip):
    """A forgotten ENDPRESS: the block would run to the end of the mail and mail England's
    orders to France before the deadline.  Nothing is sent, nothing below PRESS is taken,
    and the reply says why and what to do."""
    body = ("Hi,\n" + dip.signon("ENGLAND") + "press to france\nDeal on the Channel.\n"
            "F LON - ENG\nA LVP - YOR\nF EDI - NTH\nREADY\n\nAnn")
    out = judge.handle_mail(mail(dip.emails["ENGLAND"], body))
    assert [m.to for m in out] == [dip.emails["ENGLAND"]]
    r = out[0].body
    assert ("Press not sent: it has no ENDPRESS, so it ran to the end of your mail, and "
            "line 5 (F LON - ENG), line 6 (A LVP - YOR), line 7 (F EDI - NTH) read as an "
            "order or a command.") in r
    assert "Nothing after line 3, where the press begins, was taken" in r
    assert "End the message with a line ENDPRESS" in r
    assert "ENGLAND" not in judge.store.orders("g1", "S1901M")
    assert not judge.store.player("g1", "ENGLAND").ready
    assert all("Deal on the Channel" not in m.body for m in out[1:])
    # sent again with ENDPRESS: the press goes to France, the orders are taken
    out = judge.handle_mail(mail(dip.emails["ENGLAND"], body.replace(
        "Channel.\n", "Channel.\nENDPRESS\n")))
    assert "Press delivered to FRANCE." in out[0].body
    assert any(m.to == dip.emails["FRANCE"] and "Deal on the Channel" in m.body
               and "F LON - ENG" not in m.body for m in out)
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == (
        "F LON - ENG\nA LVP - YOR\nF EDI - NTH")


@pytest.mark.parametrize("ending", ["\n\nCheers,\nAnn\n-- \nSent from my phone",
                                    "\nREADY to talk whenever you are?"])
def test_press_without_endpress_of_words_alone_is_sent(judge, dip, ending):
    """Most press at the end of a mail has no ENDPRESS: words, a sign-off, a signature, a
    line that only starts like a command.  It goes out, as before."""
    body = (dip.signon("ENGLAND") + "F LON - ENG\nPRESS TO France\nShall we split the "
            "Channel? Say if A PAR - BUR suits you." + ending)
    out = judge.handle_mail(mail(dip.emails["ENGLAND"], body))
    assert "Press delivered to FRANCE." in out[0].body
    assert any(m.to == dip.emails["FRANCE"] and "split the" in m.body for m in out)


def test_a_gms_message_without_endpress_that_runs_into_commands_is_not_sent(judge, dip):
    body = ("GM g1 gm-secret\nbroadcast\nThe deadline moves by a day.\nextend 24h\n")
    out = judge.handle_mail(mail("gm@test.org", body))
    assert [m.to for m in out] == ["gm@test.org"]
    assert "Press not sent" in out[0].body and "line 4 (extend 24h)" in out[0].body


def test_a_sign_on_the_judge_cannot_read_never_quotes_the_password_back(judge, dip):
    """A password followed by a word ('... please'), or written on the line after SIGNON,
    is not written out in the reply (which the store keeps, and which goes wherever the
    mail's From: or Reply-To: says); the reply still tells what to send."""
    r = send(judge, dip, "GERMANY", "Signon g1 Germany pw-germany please\nA BER - KIE")
    assert "pw-germany" not in r
    assert "Sign-on refused: no power 'Germany ***'; did you mean Germany?" in r
    assert "Your password goes last on the SIGNON line, with nothing after it." in r
    r = send(judge, dip, "TURKEY", "SIGNON g1 Turkey\npw-turkey\nA CON - BUL")
    assert "pw-turkey" not in r
    assert "cannot read the SIGNON command" in r and "line 2" in r
    assert "SIGNON g1 Turkey <password>\nA CON - BUL\n" in r  # the form to send, without it
    # one answer: the mail has a SIGNON line and the password was right, only a line too low
    assert "it has no SIGNON line" not in r and "Forgot your password" not in r
    assert "the password goes at the end of the SIGNON line, not on a line of its own" in r
    r = send(judge, dip, "ITALY", "signon g1 italy\n\nPassword: pw-italy\nA VEN H")
    assert "pw-italy" not in r and "SIGNON g1 Italy <password>\nA VEN H\n" in r
    # a line that cannot be read in a signed-on mail, named when READY waits for a clean one
    r = send(judge, dip, "FRANCE", dip.signon("FRANCE") + "A PAR H\n"
             "GM g1 gm-secret thanks\nREADY")
    assert "gm-secret" not in r and "GM g1 ***" in r


def test_a_long_quoted_thread_does_not_hide_the_orders_under_it(judge, dip):
    """Quoted lines, which the judge sets aside, do not count towards the 2,000 lines of a
    mail it reads: the orders under a long Reply thread are taken, without a word."""
    quote = "".join(f"> quoted line {i} from the long thread\n" for i in range(2100))
    body = (dip.signon("ENGLAND") + "F LON - NTH\n" + quote + "A LVP - YOR\nF EDI - NWG\n"
            "Anna\n")
    r = send(judge, dip, "ENGLAND", body)
    assert "too long" not in r and "Error" not in r, r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == (
        "F LON - NTH\nA LVP - YOR\nF EDI - NWG")


def test_a_mail_too_long_says_where_reading_stopped(judge, dip):
    """Over 2,000 lines with text: the reply names the limit and the last line read, and
    that the lines after it (here an order) were not read."""
    body = (dip.signon("ENGLAND") + "F LON - NTH\n" + "\n".join(
        f"I think line {i} of my plans matters." for i in range(2100)) + "\nA LVP - YOR\n")
    r = send(judge, dip, "ENGLAND", body)
    assert r.startswith(
        "Your mail was too long to be read whole: the judge reads at most 2,000 lines of a "
        "mail (blank lines and quoted lines, which it sets aside, do not count). It read your "
        "mail up to line 2,000; line 2,001 and all after it were not read: send them again "
        "in another mail.\n"), r[:400]
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == "F LON - NTH"


def test_a_reply_too_long_is_cut_between_lines_and_says_how_many_are_left_out(judge, dip):
    """A mail of 10,000 misspelt orders: the answer (an error, with its did-you-mean, for
    each) is cut after a whole line, saying how many of its lines were left out."""
    body = dip.signon("ENGLAND") + "F LON - NTHH\n" * 10_000
    r = send(judge, dip, "ENGLAND", body)
    text, cut, _sig = r.partition("\n\n(The rest of this reply, ")
    assert cut, r[-300:]
    left = int(_sig.split(" line", 1)[0].replace(",", ""))
    assert _sig.startswith(f"{left:,} lines, is left out: it was too long. Send fewer "
                           "commands in one mail.)\n")
    wrong = [line for line in text.splitlines() if "did you mean" in line]
    # each line of the answer whole, up to the note (it was cut in the middle of one)
    assert len(wrong) > 100 and all(line.endswith("did you mean North Sea (NTH)?")
                                    for line in wrong), wrong[-1]
    assert text.splitlines()[-1] in (wrong[-1], "      F LON - NTHH")  # (each error's echo)
    assert r.startswith("Your mail was too long")


def test_one_order_pasted_a_thousand_times_gets_a_short_answer(judge, dip):
    """The same order 1,000 times (a paste gone wrong): nine of the orders replaced are
    named, the rest counted in one line; the last one stands."""
    body = dip.signon("ENGLAND") + "F LON - NTH\n" * 1_000 + "F LON - ENG\nThanks, Anna\n"
    r = send(judge, dip, "ENGLAND", body)
    warned = [line for line in r.splitlines() if "is replaced by the later order" in line]
    assert len(warned) == 9 and warned[0] == (
        "  line 2, column 1: 'F LON - NTH' is replaced by the later order 'F LON - NTH' "
        "(line 3): the last order for a unit counts"), warned
    assert ("991 more orders are replaced by later orders for the same units: the last "
            "order for a unit counts") in r, r
    assert len(r.splitlines()) < 40, r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == "F LON - ENG"


def test_orders_below_many_blank_lines_are_read_at_once(judge, dip):
    """Blank lines do not count towards the 2,000 either; 100,000 of them (a mail program's
    padding) are read in well under a second (looking for a GM line took minutes)."""
    body = dip.signon("ENGLAND") + "F LON - NTH\n" + "\n" * 100_000 + "A LVP - YOR\n"
    r = send(judge, dip, "ENGLAND", body)
    assert "too long" not in r and "Error" not in r, r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == "F LON - NTH\nA LVP - YOR"


def test_long_lines_that_begin_like_a_mail_programs_marks_are_read_at_once(judge, dip):
    """A line that begins as a header of a quoted original ("From: ..." over a line of
    spaces) or as a mobile footer, but runs on for 90,000 characters, is no such mark and
    is answered at once (either took the judge more than an hour)."""
    body = (dip.signon("ENGLAND") + "F LON - NTH\nFrom: Judge\n" + " " * 90_000 + "x\n"
            + "Sent from my iPhone" + " " * 90_000 + "x\nA LVP - YOR\n")
    r = send(judge, dip, "ENGLAND", body)
    assert "line 4, column 500: line longer than 500 characters, skipped" in r, r
    assert "line 5, column 500: line longer than 500 characters, skipped" in r, r
    assert judge.store.orders("g1", "S1901M")["ENGLAND"] == "F LON - NTH\nA LVP - YOR"


def test_a_line_between_two_commands_that_is_none_is_named(judge, dip):
    """``WHEN`` between PREVIEW and LIST did nothing: the answer says so (a greeting before
    the first command and a name after the last stay remarks, set aside without a word)."""
    sign = dip.signon("ENGLAND")
    r = send(judge, dip, "ENGLAND", f"Hi GM,\n{sign}PREVIEW\nWHEN\nLIST\nThanks\nAnn")
    assert "Line 4 (WHEN) did nothing: it is no order, and there is no command 'WHEN'." in r
    assert "Hi GM" not in r and "Thanks" not in r and "Ann" not in r
    r = send(judge, dip, "ENGLAND", f"{sign}HISTORY 0\nlsit\nHELP when")
    assert "Line 3 (lsit) did nothing: did you mean the command 'LIST'?" in r, r
    assert "There is no command 'WHEN'.\n\nCommands (one per line" in r
    r = send(judge, dip, "ENGLAND", f"{sign}help lsit")
    assert "There is no command 'LSIT'; did you mean LIST?" in r
    assert "There is no command" not in send(judge, dip, "ENGLAND", f"{sign}help list")
