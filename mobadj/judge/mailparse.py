"""Reading hostile mail calmly: whatever arrives becomes an :class:`Incoming` or is ignored.

HTML-only mail is read through its text (a ``<blockquote>`` is a quote); multiparts give
their first text part; odd charsets are decoded with replacement; quoted replies (``> ``,
"On ... wrote:", Outlook's "From:/Sent:" block), signatures (``-- ``) and sign-offs are
dropped by the reader ``mobadj adjudicate`` shares (:mod:`mobadj.orders.mailtext`), each
dropped line left empty so that every line keeps its number in the mail; auto-replies and
bounces are recognised so the judge never answers them (no mail loops); a missing
Message-ID gets a stable one from the bytes.
"""

from __future__ import annotations

import email
import email.errors
import email.header
import email.parser
import email.policy
import hashlib
import html
import logging
import re
from dataclasses import dataclass
from email.message import Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from mobadj.errors import JudgeServiceError
from mobadj.orders.mailtext import mail_lines
from mobadj.orders.spelling import text_lines

log = logging.getLogger("mobadj.judge.mailparse")
# What malformed mail can make the email package and the HTML parser raise.
MAIL_ERRORS = (email.errors.MessageError, ValueError, LookupError, TypeError, IndexError,
               AttributeError, AssertionError, RecursionError)
TOO_DEEP = "its MIME parts are nested too deeply"
ONLY_ATTACHMENTS = ("it has no text of its own, only attachments (the judge does not open "
                    "attachments)")
MAX_BODY_CHARS = 100_000
MAX_LINES = 2_000

# Subjects an out-of-office reply starts with: a person writes them too ("Away next week - my
# orders"), so such a mail is automatic only when it gives the judge no command (see
# AWAY_SUBJECT) or comes from Outlook/Exchange, whose replies say so in a header.
_AWAY_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[\s_-]*(reply|response)|out of (the )?office|away|abwesend|"
    r"absence|autoreply|vacation)\b",
    re.I,
)
AWAY_SUBJECT = "automatic subject"
_BOUNCE_SUBJECT = re.compile(
    r"^\s*(undeliver(ed|able)?|delivery status notification|"
    r"mail delivery (failed|failure|subsystem)|returned mail|failure notice|"
    r"delivery failure)\b",
    re.I,
)
_BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+@]|$)", re.I)
_MIME_LINE = re.compile(r"^(--\S+|content-[\w-]+:.*|mime-version:.*)\s*$", re.I)
# An address the judge writes to: a dot-atom local part and a domain name, in ASCII (no
# quoted local parts, no IP literals: SMTP servers refuse or misread what is odder).
_ADDRESS = re.compile(r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                      r"@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*",
                      re.I)
MAX_ADDRESS = 254
# Control characters no mail text needs (NUL, escape sequences): dropped before reading, so
# they never reach the order parsers nor, in press, another player's mail.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
# "ORDERS FOR France" / "BECOME Baby Face Nelson": the GM's section of a power's orders, which
# may hold a player's mail pasted with its sign-off: the next section is read all the same.
# (Only in a GM's mail, and a power of at most three words: a line of a player's signature,
# "Become a member today", is no section.)
_GM_SECTION = re.compile(
    r"^\s*(?:orders[\s_-]+for|become)\s+[^\s,;:?!]+(?:\s+[^\s,;:?!]+){0,2}\s*$", re.I)
_GM_SIGNON = re.compile(r"^[ \t]*gm\s+\S+\s+\S+", re.I | re.M)  # (\s* would look
# on from every one of a run of blank lines: 190,000 of them took minutes)


def strip_controls(text: str) -> str:
    """``text`` without the control characters no mail text needs (NUL, escape sequences,
    BEL): whatever brings text to the judge, a mail or the game pages, drops them before
    reading, so they never reach the parsers, the store, nor another player's mail."""
    return _CONTROLS.sub("", text)


@dataclass(frozen=True)
class Incoming:
    """A mail as the judge reads it."""

    message_id: str
    sender: str  # bare address, lower-case ("" when missing)
    reply_to: str  # where replies go (Reply-To, else From)
    subject: str
    body: str  # the writer's own text: quotes, signatures ... left as empty lines
    auto: str | None  # why it is an auto-reply/bounce, or None
    #: where and why reading stopped, as the reply says it ("" when the whole mail was read)
    truncated: str = ""
    quotes_judge: bool = False  # it quotes a mail of the judge (its signature line)
    unreadable: str = ""  # why the mail's text could not be read ("" when it could)
    #: the files attached, which the judge does not open (a reply names them: orders in an
    #: attached orders.txt would otherwise be lost without a word)
    attachments: tuple[str, ...] = ()
    #: when the mail reached the judge's mailbox (the IMAP server's INTERNALDATE; None when
    #: not known): a reply to orders that came too late says when they came
    arrived: float | None = None

    @property
    def from_pages(self) -> bool:
        """Did this come from the game pages (a form, not a mail)?  Their Message-IDs begin
        ``<web-`` (:mod:`mobadj.judge.webplay`); the answer is shown on the page, so it
        speaks of "what you sent", not of "this mail"."""
        return self.message_id.startswith("<web-")


_QUOTE_IN, _QUOTE_OUT = "\ue010", "\ue011"


class _TextOfHtml(HTMLParser):
    """The text of an HTML part: block tags become line breaks, scripts and styles vanish,
    and what a ``<blockquote>`` holds (the quoted original of a reply) is marked so that
    :func:`html_to_text` writes it as ``> `` lines."""

    BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
              "table", "ul", "ol", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self.skip += 1
        if tag == "blockquote":
            self.parts.append(_QUOTE_IN)
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head") and self.skip:
            self.skip -= 1
        if tag == "blockquote":
            self.parts.append(_QUOTE_OUT)
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data.replace(_QUOTE_IN, "").replace(_QUOTE_OUT, ""))


def _lines_of(text: str) -> str:
    """The lines of the text of an HTML part: empty ones dropped, quoted ones written with
    ``> `` and a blank line after each quote (a bottom-poster's answer follows it)."""
    out: list[str] = []
    depth = 0
    current: list[str] = []

    def flush() -> None:
        line = "".join(current).rstrip()
        if line.strip():
            out.append(("> " if depth else "") + line)
        current.clear()

    for token in re.split(f"([{_QUOTE_IN}{_QUOTE_OUT}\n])", text):
        if token in (_QUOTE_IN, _QUOTE_OUT, "\n"):
            flush()
            if token == _QUOTE_IN:
                depth += 1
            elif token == _QUOTE_OUT and depth:
                depth -= 1
                if not depth:
                    out.append("")
        else:
            current.append(token)
    flush()
    return "\n".join(out)


def html_to_text(source: str) -> str:
    parser = _TextOfHtml()
    try:
        parser.feed(source)
        parser.close()
    except MAIL_ERRORS as exc:  # HTML the parser gives up on: strip the tags instead
        log.warning("unreadable HTML (%s: %s); its tags are stripped", type(exc).__name__, exc)
        return html.unescape(re.sub(r"<[^>]*>", " ", source))
    return _lines_of("".join(parser.parts).replace("\xa0", " "))


class UnreadableMailText(JudgeServiceError, ValueError):
    """The text of a mail is there but cannot be read; the message says why."""


def _decode(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if payload is None:
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    if not isinstance(payload, bytes):
        return str(payload)
    if any(isinstance(d, email.errors.InvalidBase64LengthDefect) for d in part.defects):
        raise UnreadableMailText("its base64 text is broken (cut short?)")
    charset = part.get_content_charset() or "utf-8"
    for cs in (charset, "utf-8", "latin-1"):
        try:
            return payload.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("utf-8", errors="replace")


def _is_binary(text: str) -> bool:
    sample = text[:4000]
    if not sample:
        return False
    bad = sum(1 for ch in sample
              if (ord(ch) < 32 and ch not in "\r\n\t\f") or 0x7F <= ord(ch) < 0xA0
              or ch == "\ufffd")
    return bad > len(sample) * 0.1


#: attachments a mail program adds by itself, which hold no orders: signatures (S/MIME,
#: PGP), business cards, Outlook's rich-text wrapper
_NOT_THE_WRITERS = frozenset({
    "application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature",
    "application/pgp-keys", "application/ms-tnef", "text/vcard", "text/x-vcard"})


def attachment_names(msg: Message) -> tuple[str, ...]:
    """The names of the files attached to ``msg`` (pictures too: a plan a player attached
    for an ally), not what a mail program adds by itself (:data:`_NOT_THE_WRITERS`, and a
    picture the mail's own text shows, a signature's logo: it has a Content-ID or is not
    an attachment), each at most 60 characters; past ten, the last says how many more."""
    names: list[str] = []
    more = 0
    parts = msg.walk() if msg.is_multipart() else [msg]
    for part in parts:
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        disposition = (_header(part, "Content-Disposition") or "").lower()
        if not disposition.startswith("attachment") or ctype in _NOT_THE_WRITERS \
                or (ctype.startswith("image/") and _header(part, "Content-ID")):
            continue
        if len(names) == 10:
            more += 1
            continue
        try:
            name = part.get_filename() or ""
        except (TypeError, ValueError, LookupError):  # a name in a broken encoding
            name = ""
        name = strip_controls(str(name)).strip()
        names.append(name[:60] if name else ctype)
    return (*names, f"{more} more") if more else tuple(names)


def _body_part(msg: Message) -> tuple[str, bool]:
    """The decoded text of the part the judge reads (the first text/plain part that is not
    an attachment and not blank, else the first HTML part), and whether it is HTML; raises
    :class:`UnreadableMailText` when the mail has no text to read but attachments or a broken
    one."""
    plain: Message | None = None
    htmlpart: Message | None = None
    others = 0
    parts = msg.walk() if msg.is_multipart() else [msg]
    for part in parts:
        if part.is_multipart():
            continue
        disposition = (_header(part, "Content-Disposition") or "").lower()
        ctype = part.get_content_type()
        if disposition.startswith("attachment") or ctype not in ("text/plain", "text/html"):
            others += 1
        elif ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and htmlpart is None:
            htmlpart = part
    if plain is not None:
        text = _decode(plain)
        if text.strip() or htmlpart is None:
            return text, False
    if htmlpart is not None:
        return _decode(htmlpart), True
    if msg.get_content_maintype() == "multipart" and isinstance(msg.get_payload(), str):
        # broken MIME (boundary missing): read the raw text without the MIME scaffolding
        return "\n".join(line for line in str(msg.get_payload()).splitlines()
                         if not _MIME_LINE.match(line)), False
    if others:
        raise UnreadableMailText(ONLY_ATTACHMENTS)
    return "", False




def saved_mail_text(raw: bytes) -> str:
    """The text of a mail saved whole (an ``.eml``) as the judge reads a mail's body: its
    first text part (else its HTML part, as text), decoded from base64 or quoted-printable
    in its charset, without control characters; for ``mobadj adjudicate``, which reads
    order files as mails.  Raises :class:`UnreadableMailText` (a ValueError) saying why
    when there is no text to read (only attachments, broken base64, parts nested too
    deeply)."""
    try:
        msg: Message = email.message_from_bytes(raw, policy=email.policy.compat32)
        source, is_html = _body_part(msg)
        text = html_to_text(source) if is_html else source
    except UnreadableMailText:
        raise
    except RecursionError:
        raise UnreadableMailText(TOO_DEEP) from None
    except MAIL_ERRORS as exc:
        raise UnreadableMailText(f"its MIME parts cannot be read ({type(exc).__name__})"
                                 ) from None
    if _is_binary(text):
        raise UnreadableMailText("its text part is not text")
    return strip_controls(text)


def squash(text: str) -> str:
    """Letters, digits, ``@`` and ``.`` of a text, in lower case: what survives of it when it
    is quoted (``> ``), re-wrapped or turned into HTML by someone else's mail program."""
    return re.sub(r"[^a-z0-9@.]+", "", html.unescape(text).lower())


def _header(msg: Message, name: str) -> str | None:
    """A header as text, None when absent (compat32 gives a ``Header`` object, not a string,
    for a header with raw 8-bit bytes in it)."""
    value = msg.get(name)
    return None if value is None else str(value)


def auto_reason(msg: Message, sender: str) -> str | None:
    """Why a mail is automatic (never to be answered), or None."""
    auto = (_header(msg, "Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (_header(msg, "Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    subject = _header(msg, "Subject") or ""
    for header in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "List-Id",
                   "X-Loop", "X-Failed-Recipients"):
        value = _header(msg, header)
        if value is not None:
            if (header == "X-Auto-Response-Suppress" and "oof" not in value.lower()
                    and not _AWAY_SUBJECT.match(subject)):  # Outlook's "Automatic reply: "
                continue
            return f"{header} header"
    if msg.get_content_type() == "multipart/report":
        return "delivery report"
    if not sender:
        return "no sender"
    if _BOUNCE_SENDERS.match(sender):
        return f"sent by {sender}"
    return_path = _header(msg, "Return-Path")
    if return_path is not None and return_path.strip() in ("<>", ""):
        return "empty Return-Path"
    if _BOUNCE_SUBJECT.match(subject):
        return "bounce subject"
    if _AWAY_SUBJECT.match(subject):  # the judge still answers it if it gives a command
        return AWAY_SUBJECT
    return None


def is_address(text: str) -> bool:
    """Is ``text`` an address the judge can write to (``name@example.org``)?"""
    return len(text) <= MAX_ADDRESS and _ADDRESS.fullmatch(text) is not None


def _addr(value: str | None) -> str:
    """The first address in a header the judge can write to, lower-case ("" if none: a
    malformed address is never answered, nor taken for someone else's)."""
    if not value:
        return ""
    for text in (value, _header_text(value)):  # an address wrongly written as RFC 2047 too
        try:
            pairs = getaddresses([text])
        except MAIL_ERRORS as exc:
            log.warning("unreadable address %r (%s); trying it as one address", text[:100], exc)
            pairs = [parseaddr(text)]
        for _, addr in pairs:
            addr = addr.strip().lower()
            if is_address(addr):
                return addr
    return ""


def parse_mail(raw: bytes, max_body: int = MAX_BODY_CHARS, own_text: str | None = None
               ) -> Incoming:
    """Read raw RFC 5322 bytes; never raises on bad input.  ``own_text``: a line every mail
    of the judge carries; :attr:`Incoming.quotes_judge` says whether this mail quotes it."""
    unreadable = ""
    try:
        msg: Message = email.message_from_bytes(raw, policy=email.policy.compat32)  # lenient
    except RecursionError:  # the parser recurses per level: read the headers alone
        msg = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
        msg.set_payload("")
        unreadable = TOO_DEEP
    sender = _addr(_header(msg, "From"))
    reply_to = _addr(_header(msg, "Reply-To")) or sender
    message_id = (_header(msg, "Message-ID") or "").strip()
    if not message_id or len(message_id) > 500:
        message_id = "<sha256-" + hashlib.sha256(raw).hexdigest() + "@mobadj.invalid>"
    subject = _header_text(_header(msg, "Subject"))
    try:
        source, is_html = _body_part(msg) if not unreadable else ("", False)
        text = html_to_text(source) if is_html else source
    except UnreadableMailText as exc:
        source, text, unreadable = "", "", str(exc)
    except MAIL_ERRORS as exc:
        log.warning("mail %s: body unreadable (%s: %s); read as empty", message_id,
                    type(exc).__name__, exc)
        source = text = ""
        unreadable = TOO_DEEP if isinstance(exc, RecursionError) else ""
    try:  # (a mail with no text but attachments says so already)
        attached = attachment_names(msg) if not unreadable else ()
    except MAIL_ERRORS:
        attached = ()
    text = "" if _is_binary(text) else strip_controls(text)
    quotes = bool(own_text) and squash(own_text or "") in squash(source[:max_body])
    truncated = ""
    if len(text) > max_body:  # whole lines only: half an order may be another order
        end = max_body if text[max_body] in "\r\n" else max(
            text.rfind("\n", 0, max_body), text.rfind("\r", 0, max_body))
        text = text[:end + 1]  # up to the end of its last whole line, with that line's end
        truncated = _stopped(len(text_lines(text)) - 1,
                             f"{max_body:,} characters of a mail (quoted text counts here)")
    # every line where it was (errors name the mail's lines)
    body = mail_lines(text, _gm_section if _GM_SIGNON.search(text) else None).rstrip()
    lines = body.split("\n")
    if len(lines) > MAX_LINES:  # only the writer's own lines count: quotes are empty by now
        with_text = [n for n, line in enumerate(lines, start=1) if line.strip()]
        if len(with_text) > MAX_LINES:
            last = with_text[MAX_LINES - 1]
            body = "\n".join(lines[:last])
            truncated = _stopped(last, f"{MAX_LINES:,} lines of a mail (blank lines and "
                                 "quoted lines, which it sets aside, do not count)")
    return Incoming(
        message_id=message_id, sender=sender, reply_to=reply_to, subject=subject, body=body,
        auto=auto_reason(msg, sender), truncated=truncated, quotes_judge=quotes,
        unreadable=unreadable, attachments=attached,
    )


def _stopped(last: int, limit: str) -> str:
    """The reply's words for a mail read only up to its line ``last`` (0: none of it)."""
    where = (f"It read your mail up to line {last:,}; line {last + 1:,} and all after it "
             "were not read: send them again in another mail." if last else
             "Its first line is longer than that, so none of it was read.")
    return f"Your mail was too long to be read whole: the judge reads at most {limit}. {where}"


def _header_text(value: str | None) -> str:
    """A header with its RFC 2047 words decoded, on one line."""
    if value is None:
        return ""
    try:
        parts = email.header.decode_header(value)
        out = []
        for chunk, cs in parts:
            if isinstance(chunk, bytes):
                try:
                    out.append(chunk.decode(cs or "utf-8", errors="replace"))
                except LookupError:
                    out.append(chunk.decode("utf-8", errors="replace"))
            else:
                out.append(chunk)
        return " ".join("".join(out).split())[:300]
    except MAIL_ERRORS as exc:
        log.warning("undecodable header %r (%s); kept as it is", value[:100], exc)
        return value[:300]


def _gm_section(line: str) -> bool:
    line = line.strip()  # (a section's line is short: a long one is not matched at all)
    return len(line) <= 200 and _GM_SECTION.match(line) is not None
