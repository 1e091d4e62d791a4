"""Hostile mail: every kind of odd input becomes clean text or is recognised as automatic."""

from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from mobadj.judge.mailparse import parse_mail


def _mail(body="list", **headers):
    m = EmailMessage()
    m["From"] = headers.pop("From", "Player <P@Example.org>")
    m["To"] = "judge@example.org"
    m["Subject"] = headers.pop("Subject", "orders")
    for k, v in headers.items():
        m[k.replace("_", "-")] = v
    m.set_content(body)
    return m.as_bytes()


def test_plain_mail():
    inc = parse_mail(_mail("signon g e pw\nA PAR H", Message_ID="<1@x>"))
    assert inc.sender == "p@example.org" and inc.message_id == "<1@x>"
    assert inc.body == "signon g e pw\nA PAR H" and inc.auto is None


def test_html_only_mail_is_read_through_its_text():
    m = MIMEText("<html><head><style>p{}</style></head><body><p>signon g e pw</p>"
                 "<div>A&nbsp;PAR - BUR</div><blockquote>old A MAR H</blockquote></body></html>",
                 "html")
    m["From"] = "p@x.org"
    inc = parse_mail(m.as_bytes())
    lines = [line.strip() for line in inc.body.splitlines() if line.strip()]
    assert lines == ["signon g e pw", "A PAR - BUR"]


def test_multipart_takes_the_plain_part_and_ignores_attachments():
    m = MIMEMultipart("mixed")
    m["From"] = "p@x.org"
    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText("list", "plain"))
    alt.attach(MIMEText("<b>ignored</b>", "html"))
    m.attach(alt)
    att = MIMEText("A PAR - BUR", "plain")
    att.add_header("Content-Disposition", "attachment", filename="x.txt")
    m.attach(att)
    assert parse_mail(m.as_bytes()).body == "list"


def test_odd_charsets_and_encodings():
    m = MIMEText("press to all\nMünchen ist schön", "plain", "iso-8859-1")
    m["From"] = "p@x.org"
    assert "München" in parse_mail(m.as_bytes()).body
    raw = (b"From: p@x.org\nContent-Type: text/plain; charset=x-unknown-cs\n"
           b"Content-Transfer-Encoding: quoted-printable\n\nlist =E9t=E9\n")
    assert parse_mail(raw).body.startswith("list ")
    koi = "привет".encode("koi8-r")
    raw = b"From: p@x.org\nContent-Type: text/plain; charset=koi8-r\n\n" + koi
    assert parse_mail(raw).body == "привет"


def test_quoted_reply_and_signature_are_dropped():
    body = ("A PAR - BUR\n\nOn Mon, 1 Dec 2026, Judge <j@x> wrote:\n> A PAR H\n> old\n")
    assert parse_mail(_mail(body)).body == "A PAR - BUR"
    body = "list\n> quoted\nhistory\n-- \nJane Doe\nA MUN - BER"
    assert parse_mail(_mail(body)).body == "list\n\nhistory"  # each line keeps its number


def test_auto_replies_and_bounces_are_recognised():
    assert parse_mail(_mail(Auto_Submitted="auto-replied")).auto
    assert parse_mail(_mail(Precedence="bulk")).auto
    assert parse_mail(_mail(Subject="Out of Office: away")).auto
    assert parse_mail(_mail(From="MAILER-DAEMON@x.org")).auto
    assert parse_mail(_mail(X_Autoreply="yes")).auto
    m = MIMEMultipart("report")
    m["From"] = "someone@x.org"
    assert parse_mail(m.as_bytes()).auto
    assert parse_mail(_mail(Auto_Submitted="no")).auto is None


def test_missing_headers_and_garbage():
    inc = parse_mail(b"\n\nlist\n")
    assert inc.sender == "" and inc.auto == "no sender"
    assert inc.message_id.startswith("<sha256-")
    assert parse_mail(b"\n\nlist\n").message_id == inc.message_id  # stable for the same bytes
    binary = b"From: p@x.org\nContent-Type: application/octet-stream\n\n" + bytes(range(256)) * 50
    assert parse_mail(binary).body == ""
    garbage = bytes(range(256)) * 10
    parse_mail(garbage)  # must not raise


def test_huge_body_is_truncated():
    inc = parse_mail(_mail("A PAR H\n" * 200_000))
    assert inc.truncated and len(inc.body) <= 100_000


def test_a_mail_cut_at_its_length_loses_no_half_line():
    """The characters the judge reads end inside "A MUN S A BER - SIL": half of it would be
    another order (a support to hold), so reading stops at the line before, and says so."""
    head = "F LON - NTH\n" * 100
    inc = parse_mail(_mail(head + "A MUN S A BER - SIL\nA BER - SIL\n"),
                     max_body=len(head) + len("A MUN S A BER"))
    assert inc.body.splitlines() == ["F LON - NTH"] * 100
    assert inc.truncated == (
        "Your mail was too long to be read whole: the judge reads at most 1,213 characters of "
        "a mail (quoted text counts here). It read your mail up to line 100; line 101 and all "
        "after it were not read: send them again in another mail.")


# -- replies as mail programs write them: the writer's lines keep their numbers -------------
def _kept(body):
    return [(n, line) for n, line in enumerate(parse_mail(_mail(body)).body.split("\n"), 1)
            if line.strip()]


def test_outlook_header_block_and_everything_under_it_is_dropped():
    body = ("Deal! I stay out of the Channel.\n\nFrom: Mobtown Judge <judge@example.org>\n"
            "Sent: Monday, 1 December 2026 10:00\nTo: ann@example.org\nSubject: g: press\n\n"
            "Press in g from FRANCE to ENGLAND:\nDMZ?\n")
    assert _kept(body) == [(1, "Deal! I stay out of the Channel.")]
    german = "A PAR H\n\nVon: Judge\nGesendet: Montag\nAn: ann@example.org\nA MAR H"
    assert _kept(german) == [(1, "A PAR H")]


def test_a_wrapped_on_wrote_line_and_a_forwarded_mail():
    body = ("On Mon, 1 Dec 2026 at 10:00, Mobtown Judge <\njudge@example.org> wrote:\n"
            "> Press in g\n> DMZ?\n\nDeal!\n")
    assert _kept(body) == [(6, "Deal!")]
    assert _kept("LIST\nBegin forwarded message:\n\nFrom: x@y.org\nHISTORY") == [(1, "LIST")]


def test_html_reply_bottom_posted_under_a_blockquote():
    m = MIMEText("<div dir='ltr'><div class='gmail_quote'><div class='gmail_attr'>On Mon, "
                 "1 Dec 2026, Judge &lt;judge@x.org&gt; wrote:<br></div><blockquote>"
                 "Press in g from FRANCE<br>DMZ?</blockquote></div><div>SIGNON g e pw</div>"
                 "<div>A PAR - BUR</div></div>", "html")
    m["From"] = "p@x.org"
    lines = [line for line in parse_mail(m.as_bytes()).body.splitlines() if line.strip()]
    assert lines == ["SIGNON g e pw", "A PAR - BUR"]


def test_a_mail_keeps_the_numbers_of_its_lines():
    body = "Hi GM,\nSIGNON g e pw\n> old\nA PAR - BUR\n\nCheers,\nAnn"
    assert _kept(body) == [(2, "SIGNON g e pw"), (4, "A PAR - BUR")]
