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

:func:`mail_lines` keeps the line numbers (a dropped line becomes empty), so errors still
point at the line of the file; :func:`strip_quotes_and_signature` gives the compact text.
"""

from __future__ import annotations

import re

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


def _is_signature_line(bare: str) -> bool:
    return bare in ("--", "__") or _FOOTER.match(bare) is not None


def clean_lines(text: str) -> list[str | None]:
    """The lines of ``text``, each None when it is not the writer's own (see above)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str | None] = []
    seen_text = False
    in_quote = False  # in the ``>`` quote under an "On ... wrote:"
    number = 0
    while number < len(lines):
        line = lines[number]
        bare = line.rstrip()
        stripped = bare.lstrip()
        number += 1
        if in_quote and stripped:  # quoted, or a quoted line that a mailer re-wrapped: the
            out.append(None)  # quote runs to the next blank line
            continue
        in_quote = False
        wrote = _wrote(lines, number - 1)
        if wrote and _quote_follows(lines, number - 1 + wrote):
            out += [None] * wrote
            number += wrote - 1
            in_quote = True
            continue
        if (wrote or _is_signature_line(bare) or _ORIGINAL.match(bare)
                or _header_block(lines, number - 1)):
            out += [None] * (len(lines) - number + 1)  # the signature or quoted original
            break
        if _is_quoted(stripped):
            out.append(None)
            continue
        if not seen_text and stripped and _GREETING.match(bare):
            out.append(None)
            seen_text = True
            continue
        seen_text = seen_text or bool(stripped)
        sign_off = _SIGN_OFF.match(bare) if stripped and len(stripped) < 40 else None
        if sign_off is not None and _ends_here(lines, number, bool(sign_off.group("comma"))):
            out += [None] * (len(lines) - number + 1)
            break
        out.append(line.replace("\t", " ").replace("\u200b", ""))
    return out


def _wrote(lines: list[str], at: int) -> int:
    """How many lines the "On ... wrote:" starting at ``lines[at]`` takes: 1, 2 when a mail
    program wrapped it ("On Mon, 1 Dec 2026 at 10:00, Judge <" / "judge@x.org> wrote:"), 0
    when there is none."""
    line = lines[at]
    if _WROTE.match(line.rstrip()):
        return 1
    if at + 1 < len(lines) and len(line) < 200 and _ON.match(line):
        joined = line.rstrip() + " " + lines[at + 1].strip()
        if _WROTE.match(joined) and not _WROTE.match(lines[at + 1].rstrip()):
            return 2
    return 0


def _header_block(lines: list[str], at: int) -> bool:
    """Does Outlook's header block over a quoted original start at ``lines[at]``: a "From:"
    line with "Sent:", "To:", "Date:" or "Subject:" on one of the next two lines?"""
    if not _HEADER_FROM.match(lines[at]):
        return False
    return any(_HEADER_NEXT.match(lines[i]) for i in range(at + 1, min(at + 3, len(lines))))


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


def _ends_here(lines: list[str], start: int, comma: bool) -> bool:
    """Whether a closing phrase ends the mail: with a comma ("Cheers,") always; without one
    when at most two short name lines follow it, from ``lines[start]`` ("Thanks" / "Ann
    Smith")."""
    if comma:
        return True
    after = []
    for line in lines[start:]:
        if line.strip():
            after.append(line)
            if len(after) > 2:
                return False
    return all(_NAME.match(line) and len(line.strip()) <= 30 for line in after)


def mail_lines(text: str) -> str:
    """``text`` with every line that is not the writer's own left empty: the line numbers of
    what remains are those of the file."""
    return "\n".join(line or "" for line in clean_lines(text))


def strip_quotes_and_signature(text: str) -> str:
    """``text`` without quoted replies, the quoted original, signatures, sign-offs and a
    greeting; trailing blank lines dropped."""
    out = [line for line in clean_lines(text) if line is not None]
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)
