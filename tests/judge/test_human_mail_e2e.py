"""Players who write like people, over the real servers (aiosmtpd SMTP into a pymap IMAP
inbox, the judge's service answering over SMTP): a Mobtown II game of six mobs and an
observer, and a standard game through a winter.  Greetings, sign-offs and names around the
orders; replies top- and bottom-posted under the three quote styles ("On ... wrote:" with
``>``, Outlook's "From:/Sent:" block, a forwarded mail); HTML-only mail; mobs of several
words (``Baby Face Nelson``, ``Murder Inc.``); a READY with a typo; a Reply without a
sign-on; a stranger guessing a password; an njudge veteran's sign-on lines and command
words.  Every mail a person sends gets its answer; no
order is lost and no line of prose gets an error."""

from __future__ import annotations

import re
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from .e2e import attachment_names, text
from .servers import JUDGE_ADDRESS

MOBS = {"capone": "Al Capone", "babyface": "Baby Face Nelson", "diamond": "Legs Diamond",
        "lepke": "Lepke", "luciano": "Lucky Luciano", "murderinc": "Murder Inc."}


class People:
    """The people of a game: what each sends, and a count of what each must receive."""

    def __init__(self, servers, service):
        self.S, self.service = servers, service
        self.expected: dict[str, int] = {}

    def send(self, sender, body, subject="orders", html=None):
        m = EmailMessage()
        m["From"] = sender
        m["To"] = JUDGE_ADDRESS
        m["Subject"] = subject
        m["Message-ID"] = make_msgid(domain="test.org")
        if html is None:
            m.set_content(body)
        else:  # an HTML-only mail, as some webmail programs send it
            m.set_content(html, subtype="html")
        with smtplib.SMTP("127.0.0.1", self.S.smtp_port, timeout=10) as s:
            s.send_message(m)

    def say(self, sender, body, subject="orders", html=None):
        """Send one mail, let the judge handle it; its answer (the mail must have one)."""
        before = len(self.S.inbox(sender))
        self.send(sender, body, subject, html)
        assert self.service.step() == 1
        got = self.S.wait_for(sender, before + 1)
        answers = [m for m in got[before:] if m["Subject"].startswith("Re: ")]
        assert len(answers) == 1, [m["Subject"] for m in got[before:]]
        return text(answers[0])

    def last(self, address, subject_part):
        return next(m for m in reversed(self.S.inbox(address)) if subject_part in m["Subject"])


def quoted(msg_text):
    return "".join(f"> {line}\n" if line else ">\n" for line in msg_text.splitlines())


def outlook(msg_text, subject):
    return (f"________________________________\nFrom: E2E Judge <{JUDGE_ADDRESS}>\n"
            f"Sent: Monday, 1 December 2026 10:00\nTo: player@test.org\nSubject: {subject}\n\n"
            f"{msg_text}")


def forwarded(msg_text, subject):
    return (f"---------- Forwarded message ---------\nFrom: E2E Judge <{JUDGE_ADDRESS}>\n"
            f"Date: Mon, 1 Dec 2026\nSubject: {subject}\n\n{msg_text}")


def no_error(reply):
    assert "Error" not in reply and "not accepted" not in reply, reply
    return reply


def test_a_mobtown_game_of_people_writing_as_people_do(service, mail_servers):
    S, judge = mail_servers, service.judge
    people = People(S, service)
    adds = "".join(f"ADDPLAYER {m}@test.org {name}\n" for m, name in MOBS.items())
    r = people.say("gm@test.org", f"CREATE mob26 mobtown2 gm-pw-1 picture=svg\n{adds}START")
    assert "Game started" in r and all(f"{m} added" in r for m in (
        "Al Capone", '"Baby Face" Nelson', "Legs Diamond", "Lepke", "Lucky Luciano",
        "Murder Incorporated"))
    pw = {}
    for mob in MOBS:
        welcome = people.last(f"{mob}@test.org", "you play")
        pw[mob] = re.search(r"Your password: (\S+)", text(welcome)).group(1)
        start = people.last(f"{mob}@test.org", "the game has started")
        body = text(start)
        assert "What to send first: your orders for Weekend at the end of June 1919" in body
        assert "\n  Don starts in " in body and "Your home centres: " in body
        assert attachment_names(start) == ["map.svg"]  # picture=svg: the PNG is tested once
    # an observer
    r = people.say("fan@test.org", "Hello! I'd like to follow this one.\nWATCH mob26\nThanks")
    assert "sign-on" not in r  # the remarks beside the command are no orders
    code = re.search(r"CONFIRM ([0-9a-f]{16})", r).group(1)
    people.say("fan@test.org", f"CONFIRM {code}")
    assert judge.store.watchers("mob26") == ["fan@test.org"]

    # -- the Don placement, written as six different people write ---------------------------
    start_text = {m: text(people.last(f"{m}@test.org", "the game has started")) for m in MOBS}
    no_error(people.say("capone@test.org", f"Hi all,\nSIGNON mob26 Al Capone {pw['capone']}\n"
                        "Don starts in DAN\n\nthanks\nCarla", subject="Re: mob26: started"))
    html = (f"<div>SIGNON mob26 Baby Face Nelson {pw['babyface']}</div><div>Don starts in Wal"
            "</div><div><br></div><div>Cheers,</div><div>Dave</div>")
    no_error(people.say("babyface@test.org", "", html=html))
    no_error(people.say("murderinc@test.org",
                        f"SIGNON mob26 Murder Inc. {pw['murderinc']}\nDon starts in Man\nREADY\n"
                        f"\n{outlook(start_text['murderinc'], 'mob26: the game has started')}"))
    no_error(people.say("diamond@test.org",
                        f"signon mob26 legs diamond {pw['diamond']}\nDon starts in P37\n\n-- \n"
                        f"Legs\n\n{forwarded(start_text['diamond'], 'mob26: started')}"))
    r = people.say("luciano@test.org",  # a READY with a typo in the mail
                   f"On Mon, 1 Dec 2026, E2E Judge <{JUDGE_ADDRESS}> wrote:\n"
                   f"{quoted(start_text['luciano'])}\nSIGNON mob26 Lucky Luciano "
                   f"{pw['luciano']}\nDno starts in 5th\nREADY\n\nCiao,\nLuca")
    assert "READY was not set" in r and "line " in r
    assert not judge.store.player("mob26", "luciano").ready
    no_error(people.say("luciano@test.org", f"SIGNON mob26 Lucky Luciano {pw['luciano']}\n"
                        "Don starts in 5th\nREADY"))
    # a stranger guesses at Lepke's seat: slowed down, Lepke told, never locked out
    for guess in ("lepke1", "buchalter", "password"):
        assert "Sign-on refused" in people.say("stranger@test.org", f"SIGNON mob26 Lepke {guess}")
    r = people.say("stranger@test.org", "SIGNON mob26 Lepke murder")
    assert "Too many wrong sign-ons from your address" in r and "(in " in r
    notice = people.last("lepke@test.org", "wrong passwords")
    assert "Your password still works" in text(notice)
    no_error(people.say("lepke.phone@test.org", f"SIGNON mob26 Lepke {pw['lepke']}\n"
                        "Don starts in Que\n\nSent from my iPhone"))
    assert judge.store.orders("mob26", "1919-06-START") == {
        "capone": "D DAN", "babyface": "D Wal", "murderinc": "D Man", "diamond": "D P37",
        "luciano": "D 5th", "lepke": "D Que"}
    for mob in ("capone", "babyface", "diamond", "lepke"):
        no_error(people.say(f"{mob}@test.org", f"SIGNON mob26 {MOBS[mob]} {pw[mob]}\nready"))
    assert judge.store.game("mob26").phase == "1919-07-W1-M"
    res = text(people.last("fan@test.org", "(1919-06-START) results"))
    assert "Position:" in res and "Next phase: Week 1, July 1919: movement" in res

    # -- press, and a Reply without a sign-on -------------------------------------------------
    r = people.say("capone@test.org", f"SIGNON mob26 capone {pw['capone']}\nPRESS TO Baby Face "
                   "Nelson, Murder Inc.\nShall we leave Harlem alone?\nENDPRESS\n\nCheers,\nCarla")
    assert 'Press delivered to "Baby Face" Nelson, Murder Incorporated.' in r
    press = people.last("babyface@test.org", "press from Al Capone")
    r = people.say("babyface@test.org", f"Deal! Harlem stays quiet.\nDave\n\nOn Tue, E2E Judge "
                   f"<{JUDGE_ADDRESS}> wrote:\n{quoted(text(press))}",
                   subject=f"Re: {press['Subject']}")
    assert "it has no SIGNON line" in r
    form = r.split("send this (your password in place of <password>):\n\n")[1].split("\n\n")[0]
    assert form.startswith("SIGNON mob26 \"Baby Face\" Nelson <password>\nPRESS TO Al Capone\n")
    assert "Deal! Harlem stays quiet." in form
    r = no_error(people.say("babyface@test.org", form.replace("<password>", pw["babyface"])))
    assert "Press delivered to Al Capone." in r
    assert "Deal! Harlem stays quiet." in text(people.last("capone@test.org", "press from"))

    # -- a week of movement with remarks around the orders -------------------------------------
    no_error(people.say("capone@test.org", f"SIGNON mob26 capone {pw['capone']}\nHere are my "
                        "moves:\nG(DAS)-Col\nG(Bnx)-Yan\nG(DAN) H\nREADY\n\nSee you in "
                        "Harlem!"))
    no_error(people.say("murderinc@test.org", f"Hello GM:\nSIGNON mob26 murder inc "
                        f"{pw['murderinc']}\n\nG(Man)-Lak\nG(MaE) S G(Man)-Lak\nG(Sho) H\n"
                        "READY\n\n"
                        "Best regards,\nMurray"))
    for mob in ("babyface", "diamond", "lepke", "luciano"):
        no_error(people.say(f"{mob}@test.org", f"SIGNON mob26 {MOBS[mob]} {pw[mob]}\nready"))
    assert judge.store.game("mob26").phase.startswith("1919-07-W2")
    res = text(people.last("capone@test.org", "(1919-07-W1-M) results"))
    for order in ("G DAS - Col", "G Bnx - Yan", "G Man - Lak", "G MaE S G Man - Lak"):
        assert re.search(order + r"\s+succeeds\n", res), order
    assert re.search(r"Al Capone\s+3 centres.*G Col, G DAN, G Yan", res)


def test_a_standard_game_through_a_winter_written_by_people(service, mail_servers):
    S, judge = mail_servers, service.judge
    people = People(S, service)
    r = people.say("gm@test.org", "CREATE sp26 standard gm-pw-1 picture=none\n"
                   "ADDPLAYER eng@test.org England\nADDPLAYER fra@test.org France\nSTART")
    assert "Game started" in r
    pw = {p: re.search(r"Your password: (\S+)", text(people.last(f"{p}@test.org", "you play"))
                       ).group(1) for p in ("eng", "fra")}
    start = {p: text(people.last(f"{p}@test.org", "the game has started")) for p in pw}
    # England answers in HTML, under Gmail's quote (bottom-posted)
    html = ("<div dir='ltr'><div class='gmail_quote'><div class='gmail_attr'>On Mon, 1 Dec "
            f"2026 at 10:00, E2E Judge &lt;{JUDGE_ADDRESS}&gt; wrote:<br></div><blockquote>"
            + start["eng"].replace("\n", "<br>") + "</blockquote></div>"
            f"<div>SIGNON sp26 England {pw['eng']}</div><div>F LON - NTH</div>"
            "<div>F EDI - NWG</div><div>A LVP - YOR</div><div>READY</div><div><br></div>"
            "<div>thanks</div><div>Dave</div></div>")
    no_error(people.say("eng@test.org", "", subject="Re: sp26: the game has started", html=html))
    # France top-posts over a quote, with a greeting, an intro, a sign-off and a footer
    no_error(people.say("fra@test.org", f"Hi GM,\nSIGNON sp26 France {pw['fra']}\nHere are my "
                        "orders:\nA PAR - BUR\nA MAR - SPA\nF BRE - MAO\nREADY\n\nCheers,\nAnn\n"
                        f"Sent from my iPhone\n\nOn Mon, E2E Judge wrote:\n{quoted(start['fra'])}"))
    assert judge.store.game("sp26").phase == "F1901M"
    s1901 = text(people.last("eng@test.org", "S1901M results"))
    for order in ("F LON - NTH", "F EDI - NWG", "A LVP - YOR", "A PAR - BUR", "A MAR - SPA",
                  "F BRE - MAO"):  # every order taken, none lost to the quotes around them
        assert re.search(order + r"\s+succeeds\n", s1901), order
    no_error(people.say("eng@test.org", f"SIGNON sp26 England {pw['eng']}\nF NWG - NWY\n"
                        "F NTH H\nA YOR H\nready\n\nthanks\nDave"))
    no_error(people.say("fra@test.org", f"SIGNON sp26 France {pw['fra']}\nA BUR - BEL\n"
                        "A SPA H\nF MAO H\nREADY\n\nBest regards,\nAnn Smith\n\n"
                        f"{outlook(s1901, 'sp26: S1901M results')}"))
    assert judge.store.game("sp26").phase == "W1901A"
    fall = text(people.last("fra@test.org", "F1901M results"))
    assert "Adjustments due in Winter 1901 Adjustments:" in fall
    assert "France: 5 centres, 3 units: may build 2 (vacant home centres: BRE, MAR, PAR)" in fall
    # a winter: a typo with READY, then the builds sent again whole
    r = people.say("fra@test.org", f"SIGNON sp26 France {pw['fra']}\nBiuld A PAR\nBuild A MAR\n"
                   "READY\n\nCheers,\nAnn")
    assert "unknown word 'Biuld'; did you mean Build?" in r and "READY was not set" in r
    r = people.say("eng@test.org", f"SIGNON sp26 England {pw['eng']}\nBuild F LON\nREADY")
    assert "Marked READY" in no_error(r)
    assert judge.store.game("sp26").phase == "W1901A"  # France's partial orders hold it up
    no_error(people.say("fra@test.org", f"SIGNON sp26 France {pw['fra']}\nBuild A PAR\n"
                        "Build A MAR\nREADY\n\nCheers,\nAnn"))
    assert judge.store.game("sp26").phase == "S1902M"
    winter = text(people.last("eng@test.org", "W1901A results"))
    assert "  England: 1 build due; built F LON" in winter
    assert "  France: 2 builds due; built A MAR, A PAR" in winter
    assert winter.index("Build F LON") < winter.index("Position:") < winter.index("Next phase")
    # njudge's press lines: WHITE before TO, and PRESS TO M for the master
    before = {a: len(S.inbox(a)) for a in ("eng@test.org", "gm@test.org")}
    r = no_error(people.say("fra@test.org", f"SIGNON sp26 F {pw['fra']}\nPRESS WHITE TO E\n"
                            "DMZ in the Channel?\nENDPRESS\nPRESS TO M\nPlease extend, I am "
                            "travelling.\nENDPRESS"))
    assert "Press delivered to ENGLAND." in r and "Press delivered to the GM." in r
    got = {a: S.wait_for(a, n + 1)[n:] for a, n in before.items()}
    assert [m["Subject"] for m in got["eng@test.org"]] == ["sp26: press from FRANCE"]
    assert "DMZ in the Channel?" in text(got["eng@test.org"][0])
    assert [m["Subject"] for m in got["gm@test.org"]] == ["sp26: press from FRANCE to the GM"]
    assert "Please extend, I am travelling." in text(got["gm@test.org"][0])


def test_an_njudge_veteran_writes_as_on_njudge_and_is_answered_every_time(service,
                                                                          mail_servers):
    """njudge's sign-on lines and command words, over the real servers: each mail is read
    or answered with the line to send here, a stranger's second njudge word too."""
    people = People(mail_servers, service)
    people.say("gm@test.org", "CREATE vet standard gm-pw-1 picture=none\nADDPLAYER "
               "fra@test.org France\nADDPLAYER ita@test.org Italy\nSTART")
    pw = {p: re.search(r"Your password: (\S+)", text(people.last(f"{p}@test.org", "you play"))
                       ).group(1) for p in ("fra", "ita")}
    r = people.say("fra@test.org", f"SIGNON Fvet {pw['fra']}\nWHOGAME\nA Par-Bur\nA Mar-Spa\n")
    assert "njudge's SIGNON Fvet is read as SIGNON vet France <password>." in r
    assert "No command WHOGAME here; SUMMARY vet shows who plays which power." in r
    assert "  A MAR - SPA" in r and pw["fra"] not in r
    r = people.say("gm@test.org", "SIGNON Mvet gm-pw-1\nSET DEADLINE +2d\nSET NOWAIT\n")
    assert "Signed on as GM of vet." in r and "e.g. DEADLINE +2d" in r
    assert "SET early ready" in r and "gm-pw-1" not in r
    assert "No command WHOGAME here" in people.say("x@test.org", "WHOGAME vet\n")
    assert "No command GET here" in people.say("x@test.org", "GET info\n")
    people.say("ita@test.org", f"SIGNON vet Italy {pw['ita']}\nRESIGN\n")
    r = people.say("new@test.org", "SIGNON Ivet newpass1\n")
    assert "Italy is open for a new player: to take it over, send TAKEOVER vet Italy." in r


def test_newcomers_who_write_letters_are_told_what_to_send_every_time(service, mail_servers):
    """Newcomers to play by mail write to the judge as to a person: a stranger asks to join,
    asks again under the judge's answer, and joins; players who lost a password or have a
    question are pointed to the GM and HELP; a player who hits Reply to sign on with a slip
    in the password is answered each time."""
    people, judge = People(mail_servers, service), service.judge
    judge.create_game("fall26", "standard", "gm@test.org", "gm-pw", {"open": "yes"}, seed=3)
    judge.create_game("old26", "standard", "gm@test.org", "gm-pw", seed=3)
    people.send("gm@test.org", "GM old26 gm-pw\nADDPLAYER gus@test.org Turkey gus-pw-1\n"
                "ADDPLAYER dmitri@test.org Italy iVuwxHsry4M")
    service.step()
    welcome = text(people.last("dmitri@test.org", "you play"))
    r = people.say("ann@test.org", "Hi there,\n\nI saw Gil's post that there's a new game "
                   "starting. I'd like to join fall26 please! I've never played before.\n\n"
                   "Thanks,\nAnn\n\nSent from my iPhone\n", subject="joining")
    assert "Orders need a sign-on" not in r and "send LIST" in r
    assert "JOIN fall26 England" in r and "to join: JOIN fall26" in r
    r = people.say("ann@test.org", "Sorry, I don't understand. I don't have a password yet?? "
                   "What do I do now?\n\nOn Sun, 29 Nov 2026, E2E Judge wrote:\n" + quoted(r),
                   subject="Re: joining")
    assert "JOIN <game> <power> asks for a seat" in r
    r = people.say("ann@test.org", "JOIN fall26 England please\n\nSent from my iPhone")
    assert "Nothing was asked for, and no code was mailed." in r
    assert "send: JOIN fall26 England" in r
    assert re.search(r"CONFIRM [0-9a-f]{16}", people.say("ann@test.org", "JOIN fall26 England"))
    r = people.say("gus@test.org", "Hi, I deleted the mail with my password by mistake. Can "
                   "you send it again? I'm Turkey in old26.\n\nGus", subject="password")
    assert "Forgot your password? Ask your GM" in r and "HELP" in r
    assert "<password>\nPRESS" not in r and "meant for other players" not in r
    r = people.say("gus@test.org", "I got a letter saying something about adjustments? What "
                   "do I do now? How do I build?", subject="Re: old26: you play TURKEY")
    assert "Send HELP" in r and "SIGNON old26 Turkey <password>\nPRESS TO GM\n" in r
    for slip in ("ivuwxHsry4M", "iVuwxHsry4m"):
        r = people.say("dmitri@test.org", f"SIGNON old26 Italy {slip}\nArmy Venice holds\n\n"
                       "On Sun, 29 Nov 2026, E2E Judge wrote:\n" + quoted(welcome),
                       subject="Re: old26: you play ITALY")
        assert "Sign-on refused" in r
