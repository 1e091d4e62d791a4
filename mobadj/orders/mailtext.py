"""What a person wrote in a mail, without what the mail program and old mails added.

One reader for every front end: the judge reads mail bodies with it and ``mobadj
adjudicate`` reads order files with it (GMs paste players' mails), so both drop the same:

- quoted replies: lines starting with ``>`` or ``|>``; "On ... wrote:" / "... schrieb:"
  (also wrapped over two lines), "-----Original Message-----", "Begin forwarded message:",
  a "From: a@b" line and Outlook's header block ("From: Judge" with "Sent:", "To:" or
  "Subject:" on the next lines): the quoted original follows, and all of it goes, except
  after an "On ... wrote:" whose original is quoted with ``>``: what is written below the
  quote, after a blank line, is the writer's own, as bottom-posters answer;
- signatures: everything after a ``--`` (``-- ``) or ``__`` line, or after a mobile
  footer ("Sent from my iPhone", "Get Outlook for Android");
- sign-offs: "Cheers," "Best regards," (a closing phrase with a comma) and the name lines
  after it; "Thanks" or "Cheers" without a comma only when at most a short name follows;
- a greeting on the first line ("Hi all," "Dear GM,").

An order file may hold several players' mails, each pasted under its power's heading
("France:"): :func:`read_mail` given a test for headings reads each as a mail of its own, so
that one player's signature does not swallow the next player's orders, and says what it set
aside (``SetAside``), for the GM's notes.

:func:`mail_lines` keeps the line numbers (a dropped line becomes empty), so errors still
point at the line of the file; :func:`strip_quotes_and_signature` gives the compact text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

_WROTE = re.compile(
    r"^\s*(on\b.{0,200}\bwrote:|.{0,80}\b(schrieb|a écrit|escribió)\b.{0,120}:)\s*$", re.I)
_ORIGINAL = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|"
    r"message d'origine|mensaje original|weitergeleitete nachricht)\s*-{2,}|_{10,}|"
    r"from:\s.+@.+|begin forwarded message:|début du message réexpédié\s*:)\s*$", re.I
)
# Outlook's block over the quoted original: "From: Judge" then "Sent: ...", "To: ..."
_HEADER_FROM = re.compile(r"^\s*\**\s*(from|von|de|da|van|fra|från)\s*\**\s*:\s*\**\s*\S", re.I)
_HEADER_NEXT = re.compile(
    r"^\s*\**\s*(sent|date|to|subject|cc|gesendet|datum|an|betreff|envoyé|date|à|objet|"
    r"enviado|fecha|para|asunto|inviato|oggetto|verzonden|aan|onderwerp)\s*\**\s*:", re.I)
_ON = re.compile(r"^\s*on\s", re.I)
_FOOTER = re.compile(
    r"^\s*(sent from my \w[\w ]{0,30}|sent from (mail|yahoo mail|outlook)\b.{0,40}"
    r"|get outlook for \w+|envoyé de mon \w+|von meinem \w+ gesendet|enviado desde mi \w+)"
    r"\s*\.?\s*$", re.I)
_CLOSING = (r"cheers|thanks|thank you|many thanks|thanks again|thx|ta|regards|best|best regards|"
            r"kind regards|warm regards|warmest regards|best wishes|all the best|yours|"
            r"yours truly|sincerely|yours sincerely|cordially|ciao|love|greetings|good luck|"
            r"take care|talk soon|see you|gruß|grüße|viele grüße|saludos|cordialement|amitiés")
_SIGN_OFF = re.compile(rf"^\s*(?:{_CLOSING})\s*(?P<comma>,)?\s*[.!]*\s*$", re.I)
_NAME = re.compile(r"^\s*[^\W\d_][\w.'\u2019-]*(?:\s+[^\W\d_][\w.'\u2019-]*)?\s*$")
_GREETING = re.compile(r"^\s*(hi|hello|hey|dear|greetings|hallo|bonjour)\b.{0,40}[,!:]\s*$",
                       re.I)


MAX_MARK: Final = 1_000
"""A line longer than this, spaces at its ends aside, is no mark a mail program writes (an
"On ... wrote:", a header field, a signature, a footer, a greeting, a sign-off): it is not
matched against them, each of which could take time growing with the square of its
length (a mail of one line of 200,000 spaces took an hour).  A quote (``>``) is one at any
length."""


def _short(line: str) -> str:
    """``line`` without the spaces at its ends when it may be such a mark, else ""."""
    stripped = line.strip()
    return stripped if len(stripped) <= MAX_MARK else ""


def _is_signature_line(bare: str) -> bool:
    return bare in ("--", "__") or (len(bare) <= MAX_MARK and _FOOTER.match(bare) is not None)


#: why a run of lines was set aside, as a note names it
SET_ASIDE_AS: Final = {
    "greeting": "a greeting",
    "quote": "quoted text",
    "original": "the quoted original of a reply or a forwarded mail",
    "signature": "a signature",
    "sign-off": "a sign-off and what follows it",
    "header": "the mail's own header",
}


class SetAside:
    """A run of lines that are not the writer's own: ``first`` and ``last`` (1-based line
    numbers), ``why`` (a key of :data:`SET_ASIDE_AS`), ``text`` (its first line), and
    ``heading``, the first power heading inside it (a quoted original is never read, even
    past a heading), else None."""

    __slots__ = ("first", "last", "why", "text", "heading")

    def __init__(self, first: int, last: int, why: str, text: str,
                 heading: tuple[int, str] | None = None) -> None:
        self.first, self.last, self.why, self.text = first, last, why, text
        self.heading = heading

    def __repr__(self) -> str:
        return f"SetAside({self.first}, {self.last}, {self.why!r}, {self.text!r})"

    def describe(self) -> str:
        """``lines 12-14 set aside as a signature: --`` (and the heading it holds)."""
        where = (f"line {self.first}" if self.first == self.last
                 else f"lines {self.first}-{self.last}")
        said = f"{where} set aside as {SET_ASIDE_AS[self.why]}: {self.text[:60]}"
        if self.heading is not None:
            number, heading = self.heading
            said += (f" (it holds the heading {heading[:40]!r} at line {number}, not read as "
                     "one: give each mail that quotes another a file of its own)")
        return said


class Mail:
    """What :func:`read_mail` made of a text: ``lines`` (None where a line is not the
    writer's own), ``starts`` (the 1-based numbers of the power headings that begin a mail
    of their own) and ``set_aside`` (the runs of lines dropped, in order)."""

    __slots__ = ("lines", "starts", "set_aside")

    def __init__(self, lines: list[str | None], starts: list[int],
                 set_aside: list[SetAside]) -> None:
        self.lines, self.starts, self.set_aside = lines, starts, set_aside

    @property
    def text(self) -> str:
        """The text with every line that is not the writer's own left empty: the line
        numbers of what remains are those of the file."""
        return "\n".join(line or "" for line in self.lines)


def clean_lines(text: str) -> list[str | None]:
    """The lines of ``text``, each None when it is not the writer's own (see above)."""
    return read_mail(text).lines


def read_mail(text: str, heading: Callable[[str], bool] | None = None, saved: bool = False
              ) -> Mail:
    """``text`` read as one mail, or, given ``heading`` (is this line a power's heading,
    "France:"?), as mails pasted one after another, each under its power's heading: a
    heading then starts a mail of its own (its greeting dropped), and a signature or
    sign-off ends only the mail it is in.  A quoted original still ends the text: it may
    quote a whole results mail, headings and all.

    ``saved``: the text is a file that may be a mail saved whole (an ``.eml``, an mbox
    entry, headers copied from "show original"): a header block it begins with is the
    mail's own, set aside up to the first blank line, not a quoted original.  (A mail's
    body, which the judge reads, never begins with its own header.)"""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str | None] = []
    why: list[str] = []  # each line's reason for being dropped ("": kept)
    starts: list[int] = []
    seen_text = False
    in_quote = False  # in the ``>`` quote under an "On ... wrote:"
    number = _own_header(lines) if saved else 0
    out += [None] * number
    why += ["header"] * number
    while number < len(lines):
        line = lines[number]
        bare = line.rstrip()
        stripped = bare.lstrip()
        number += 1
        if heading is not None and stripped and heading(bare):
            starts.append(number)  # a mail of its own: its greeting is one again
            seen_text = in_quote = False
            out.append(line)
            why.append("")
            continue
        if in_quote and stripped:  # quoted, or a quoted line that a mailer re-wrapped: the
            out.append(None)  # quote runs to the next blank line
            why.append("quote")
            continue
        in_quote = False
        wrote = _wrote(lines, number - 1)
        if wrote and _quote_follows(lines, number - 1 + wrote):
            out += [None] * wrote
            why += ["quote"] * wrote
            number += wrote - 1
            in_quote = True
            continue
        if wrote or _ORIGINAL.match(_short(bare)) or _header_block(lines, number - 1):
            rest = len(lines) - number + 1  # the quoted original: all the rest
            out += [None] * rest
            why += ["original"] * rest
            break
        if _is_signature_line(bare):
            end = _next_heading(lines, number, heading)
            out += [None] * (end - number + 1)  # the signature: the rest of this mail
            why += ["signature"] * (end - number + 1)
            number = end
            continue
        if _is_quoted(stripped):
            out.append(None)
            why.append("quote")
            continue
        if not seen_text and stripped and _GREETING.match(_short(bare)):
            out.append(None)
            why.append("greeting")
            seen_text = True
            continue
        seen_text = seen_text or bool(stripped)
        sign_off = _SIGN_OFF.match(stripped) if stripped and len(stripped) < 40 else None
        if sign_off is not None and _ends_here(lines, number, bool(sign_off.group("comma")),
                                               heading):
            end = _next_heading(lines, number + 1 if _signed(lines, number) else number,
                                heading)
            out += [None] * (end - number + 1)
            why += ["sign-off"] * (end - number + 1)
            number = end
            continue
        out.append(line.replace("\t", " ").replace("\u200b", ""))
        why.append("")
    return Mail(out, starts, _runs(lines, why, heading))


_MBOX_FROM = re.compile(r"^From \S+ ")  # "From bob@example.org Sat Nov 28 10:04:00 2026"
_FIELD = re.compile(r"^[A-Za-z][A-Za-z0-9-]*:")
_TRANSPORT = re.compile(
    r"^(from|return-path|received|delivered-to|envelope-to|x-[a-z0-9-]+|message-id|date|"
    r"mime-version|dkim-signature|arc-[a-z-]+|authentication-results|received-spf):", re.I)
_OWN_FIELDS = re.compile(
    r"^(to|cc|bcc|subject|date|reply-to|sender|message-id|in-reply-to|references|"
    r"mime-version|content-[a-z-]+|user-agent|organization|importance|priority|"
    r"thread-[a-z]+|list-[a-z-]+|precedence|x-[a-z0-9-]+|return-path|received|delivered-to|"
    r"envelope-to|dkim-signature|arc-[a-z-]+|authentication-results|received-spf|from):", re.I)


def own_header(text: str) -> list[str]:
    """The header a file begins with when it is a mail saved whole (see :func:`read_mail`,
    ``saved``): its lines, an mbox "From " line too; [] when the file does not begin so."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    end = _own_header(lines)
    return [line for line in lines[:end] if line.strip()]


def _own_header(lines: list[str]) -> int:
    """How many lines at the start of a saved mail are its own header: an mbox "From "
    line and header fields (each perhaps folded onto indented lines), from the first line
    with text to the first blank one; 0 when the text does not begin so."""
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i == len(lines) or not (_MBOX_FROM.match(lines[i]) or _TRANSPORT.match(lines[i])):
        return 0
    if _MBOX_FROM.match(lines[i]):
        i += 1
    fields = 0
    while i < len(lines) and lines[i].strip():
        if lines[i][:1] in " \t" and fields:  # a folded field goes on
            i += 1
        elif _FIELD.match(lines[i]) and _OWN_FIELDS.match(lines[i]):
            fields += 1
            i += 1
        else:  # no header field: the header has ended (or was none)
            break
    return i if fields else 0


def _signed(lines: list[str], at: int) -> bool:
    """Is ``lines[at]``, right under a sign-off, the writer's name even if it spells a
    power ("Cheers," / "Baby Face")?  So it is when it has no colon and nothing but a
    blank line, a signature or the end follows it: a heading has its mail under it
    ("Thanks" / "France" / "A PAR - BUR")."""
    if at >= len(lines) or not lines[at].strip() or ":" in lines[at]:
        return False
    after = lines[at + 1].rstrip() if at + 1 < len(lines) else ""
    return not after.strip() or _is_signature_line(after.strip())


def _next_heading(lines: list[str], start: int, heading: Callable[[str], bool] | None) -> int:
    """The index of the first power heading from ``lines[start]`` on (``len(lines)``: none,
    or no ``heading`` test)."""
    if heading is not None:
        for i in range(start, len(lines)):
            bare = lines[i].rstrip()
            if bare.strip() and heading(bare):
                return i
    return len(lines)


def _runs(lines: list[str], why: list[str], heading: Callable[[str], bool] | None
          ) -> list[SetAside]:
    """The runs of lines dropped for one reason, each from its first line with text to its
    last."""
    runs: list[SetAside] = []
    i = 0
    while i < len(why):
        reason = why[i]
        j = i
        while j < len(why) and why[j] == reason:
            j += 1
        if reason in SET_ASIDE_AS:
            texts = [k for k in range(i, j) if lines[k].strip()]
            if texts:
                inside = None
                if reason == "original" and heading is not None:
                    inside = next(((k + 1, lines[k].strip()) for k in texts
                                   if heading(lines[k].rstrip())), None)
                runs.append(SetAside(texts[0] + 1, texts[-1] + 1, reason,
                                     lines[texts[0]].strip(), inside))
        i = j
    return runs


def _wrote(lines: list[str], at: int) -> int:
    """How many lines the "On ... wrote:" starting at ``lines[at]`` takes: 1, 2 when a mail
    program wrapped it ("On Mon, 1 Dec 2026 at 10:00, Judge <" / "judge@x.org> wrote:"), 0
    when there is none."""
    line = _short(lines[at])
    if not line:
        return 0
    if _WROTE.match(line):
        return 1
    if at + 1 < len(lines) and len(line) < 200 and _ON.match(lines[at]):
        below = _short(lines[at + 1])
        if _WROTE.match(f"{line} {below}") and not _WROTE.match(below):
            return 2
    return 0


def _header_block(lines: list[str], at: int) -> bool:
    """Does Outlook's header block over a quoted original start at ``lines[at]``: a "From:"
    line with "Sent:", "To:", "Date:" or "Subject:" on one of the next two lines?"""
    if not _HEADER_FROM.match(_short(lines[at])):
        return False
    return any(_HEADER_NEXT.match(_short(lines[i]))
               for i in range(at + 1, min(at + 3, len(lines))))


def _is_quoted(stripped: str) -> bool:
    return stripped.startswith(">") or stripped.startswith("|>")


def _quote_follows(lines: list[str], start: int) -> bool:
    """Is the first line with text from ``lines[start]`` on a ``>`` quote (the original
    under an "On ... wrote:")?  (Read in place: a file of many such lines stays linear.)"""
    for i in range(start, len(lines)):
        stripped = lines[i].strip()
        if stripped:
            return _is_quoted(stripped)
    return False


def _ends_here(lines: list[str], start: int, comma: bool,
               heading: Callable[[str], bool] | None = None) -> bool:
    """Whether a closing phrase ends the mail: with a comma ("Cheers,") always; without one
    when at most two short name lines follow it, from ``lines[start]`` up to the next
    mail's heading, a signature or the quoted mail a reply carries below ("Thanks!" /
    "Ann Smith" / "On ... wrote:")."""
    if comma:
        return True
    after = []
    for i in range(start, len(lines)):  # (no slice: a file of many "Thanks" stays linear)
        line = lines[i]
        if line.strip():
            bare = line.rstrip()
            if (heading is not None and heading(bare)) or _mail_below(lines, i):
                break
            after.append(line)
            if len(after) > 2:
                return False
    return all(len(line.strip()) <= 30 and _NAME.match(line.strip()) for line in after)


def _mail_below(lines: list[str], at: int) -> bool:
    """Does something the writer did not write begin at ``lines[at]``: a signature, a quote,
    or the quoted original of a reply?"""
    bare = lines[at].rstrip()
    return (_is_signature_line(bare.strip()) or _is_quoted(bare.strip()) or _wrote(lines, at) > 0
            or _ORIGINAL.match(_short(bare)) is not None or _header_block(lines, at))


def mail_lines(text: str, heading: Callable[[str], bool] | None = None) -> str:
    """``text`` with every line that is not the writer's own left empty: the line numbers of
    what remains are those of the file (``heading``: as for :func:`read_mail`)."""
    return read_mail(text, heading).text


def strip_quotes_and_signature(text: str) -> str:
    """``text`` without quoted replies, the quoted original, signatures, sign-offs and a
    greeting; trailing blank lines dropped."""
    out = [line for line in clean_lines(text) if line is not None]
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)
