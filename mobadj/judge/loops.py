"""Mail that never loops.  Automatic mail (``Auto-Submitted``, bounces ...) is never answered
(:mod:`.mailparse`); this module limits the answers to mail that *looks* human but may be an
auto-responder that does not say so:

- a mail that quotes the judge's own text (its signature line) and has no text of its own
  is not answered: it is an answer to the judge, not a request.  One with text of its own
  (a player who hit Reply and wrote "Deal!") is answered with what to send instead, as a
  mail without a command (below);
- a mail that tries to sign on or gives orders is always answered (within the hourly
  budget): a person wrote it.  The exception is a mail that copies the judge's mail in
  without quote marks: its SIGNON line and orders may be the judge's own, copied back by
  an auto-responder, so it counts as a mail without a command;
- a "no command found" reply goes to an address at most once per text in
  ``no_command_window_minutes``, and for at most ``NOCOMMAND_TEXTS`` texts: an
  auto-responder sends the same text every time (what it quotes is set aside), a person's
  new question is a new text and is answered;
- at most ``replies_per_hour`` replies per address; then one notice to the address (its
  mails are still read and carried out, without replies) and one mail to the GMs, and
  silence until the hour has room again.  Replies to mail that signed on with a right
  password do not count: an auto-responder does not know the password, and a card game
  played briskly by mail must not be silenced;
- a reply is at most ``MAX_REPLY_CHARS`` long: ``HELP`` two thousand times in a mail with a
  forged sender must not turn the judge into an amplifier of mail to someone else.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from mobadj.judge import registry, reports
from mobadj.judge.base import JudgeBase
from mobadj.judge.commands import UNFILLED_FORM, ParsedMail
from mobadj.judge.deadlines import HOUR
from mobadj.judge.mailparse import Incoming, squash
from mobadj.judge.store import Mail

log = logging.getLogger("mobadj.judge.loops")
MAX_REPLY_CHARS = 50_000
NOCOMMAND_TEXTS = 5
"""Different texts from one address answered as "no command found" in the window: a person
asks a few questions; an auto-responder whose text changes every time stops here."""


def cut_reply(text: str) -> str:
    """``text`` when it is at most :data:`MAX_REPLY_CHARS` long; else its whole lines that
    fit, and how many lines were left out (never a line cut in the middle)."""
    if len(text) <= MAX_REPLY_CHARS:
        return text
    end = text.rfind("\n", 0, MAX_REPLY_CHARS + 1)
    kept = text[:end] if end > 0 else ""
    left = text.count("\n", len(kept)) + (0 if end > 0 else 1)
    lines = f"{left:,} line" + "s" * (left != 1)
    return (f"{kept}\n\n" * bool(kept) + f"(The rest of this reply, {lines}, is left out: it was "
            "too long. Send fewer commands in one mail.)")


@dataclass(frozen=True)
class Verdict:
    """What to do with the reply to one mail: ``reply``, ``notice`` (the budget is spent
    now: say so once) or ``silent`` (and why)."""

    action: str
    why: str = ""
    until: float | None = None  # notice: when the address is answered again


def found_nothing(parsed: ParsedMail) -> bool:
    """The judge recognised nothing in the mail: no command, no broken command, no near
    miss of one (what an auto-responder or a stray mail looks like)."""
    return not (parsed.commands or parsed.errors or parsed.near_commands)


def tried_signon(parsed: ParsedMail) -> bool:
    """Does the mail have a SIGNON (or GM) line, read or not?"""
    return (any(c.name in ("signon", "gm") for c in parsed.commands)
            or any(e.text.lower().split()[:1] in (["signon"], ["gm"]) for e in parsed.errors))


def copies_form(parsed: ParsedMail) -> bool:
    """Does the mail hold a SIGNON line with the judge's placeholder ``<password>`` where a
    person writes their password?  It is then the judge's form sent back as it is (the
    start of the judge's answer copied by an auto-responder, say), no sign-on attempt."""
    return any(e.message.startswith(UNFILLED_FORM) for e in parsed.errors)


def copies_judge_inline(inc: Incoming, own_line: str) -> bool:
    """Does the mail hold the judge's signature line outside a quote (the judge's mail copied
    in without quote marks)?  Its lines may then be the judge's, not the writer's."""
    return inc.quotes_judge and squash(own_line) in squash(inc.body)


def text_digest(body: str) -> str:
    """What identifies the writer's text for the "no command" window: its letters (case,
    spacing, punctuation and digits, such as an auto-responder's date, do not count)."""
    letters = "".join(ch for ch in squash(body) if ch.isalpha())
    return hashlib.sha256(letters.encode()).hexdigest()[:16]


def reply_kind(parsed: ParsedMail, signed_on: bool, quotes_judge: bool = False,
               own: bool = True, orders: bool = False) -> str:
    """How the reply to a mail counts against the limits: ``signed`` (a right password:
    not counted), ``reply`` (counted in the hourly budget) or ``nocommand`` (the "no
    command" window).  A mail that tries to sign on or gives ``orders`` is a person's and
    always a ``reply``, unless its lines may not be its writer's own (``own`` False: it
    copies the judge's mail in).  A mail that quotes the judge and has no command that works
    without a sign-on is ``nocommand``, as is one in which nothing was found.  A mail with
    the judge's form as it is (:func:`copies_form`) quotes the judge, signature or not."""
    if signed_on:
        return "signed"
    if copies_form(parsed):
        own, quotes_judge = False, True
    if own and (orders or tried_signon(parsed)):
        return "reply"
    unsigned = registry.unsigned_commands()  # the others only get "please sign on first"
    if quotes_judge and not any(c.name in unsigned for c in parsed.commands):
        return "nocommand"  # nothing in it works without a sign-on: what a copy looks like
    return "nocommand" if found_nothing(parsed) else "reply"


class ReplyLimits:
    """The judge's side of the rules above."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def ignore_quote(self, inc: Incoming, parsed: ParsedMail) -> bool:
        """A mail quoting the judge's text with nothing of its own is never answered."""
        return inc.quotes_judge and not (parsed.commands or parsed.order_lines
                                         or parsed.errors or parsed.press)

    def _verdict(self, address: str, kind: str, now: float, digest: str = "") -> Verdict:
        """May ``address`` be answered now?  ``kind`` is from :func:`reply_kind`; ``digest``
        (:func:`text_digest`) tells the writer's texts apart ("": not known)."""
        if kind == "signed":
            return Verdict("reply")
        window = self.desk.config.no_command_minutes * 60
        if kind == "nocommand":
            earlier = self.desk.store.reply_digests(address, now - window, "nocommand")
            if earlier and (not digest or digest in earlier or None in earlier):
                return Verdict("silent", "no command found, and answered so recently")
            if len(earlier) >= NOCOMMAND_TEXTS:
                return Verdict("silent", f"no command found, and {len(earlier)} mails "
                                         "without one answered so recently")
        budget = self.desk.config.replies_per_hour
        answered = self.desk.store.replies(address, now - HOUR, ("reply", "nocommand"),
                                           limit=budget)
        if len(answered) < budget:
            return Verdict("reply")
        if self.desk.store.replies(address, now - HOUR, ("notice",), limit=1):
            return Verdict("silent", f"more than {budget} replies within an hour")
        return Verdict("notice", until=min(answered) + HOUR)

    def answer(self, inc: Incoming, text: str, kind: str, now: float, out: list[Mail],
               digest: str = "") -> str:
        """Put the reply to a mail first in ``out`` when the limits allow it (else the one
        notice, or nothing); returns why it was withheld, or "".  ``digest``: of the
        writer's text (:func:`text_digest`; "" when it is not known)."""
        subject = inc.subject or "your mail to the judge"
        if not subject.lower().startswith("re:"):
            subject = "Re: " + subject
        subject = subject[:120]
        verdict = self._verdict(inc.reply_to, kind, now, digest)
        if verdict.action == "silent":
            return verdict.why
        if verdict.action == "notice":
            assert verdict.until is not None
            reply = self._silence_notice(inc.reply_to, verdict.until, subject, out)
            kind = "notice"
        else:
            reply = Mail(inc.reply_to, subject, f"{cut_reply(text)}\n{self.desk._sig()}")
        reply.headers["In-Reply-To"] = inc.message_id
        out.insert(0, reply)
        self.desk.store.add_reply(inc.reply_to, kind, now,
                                  digest if kind == "nocommand" else None)
        return "reply limit" if kind == "notice" else ""

    def _silence_notice(self, address: str, until: float, subject: str, out: list[Mail]
                        ) -> Mail:
        """The one notice to a silenced address, and the one mail to its GMs."""
        budget = self.desk.config.replies_per_hour
        log.warning("%s: more than %d replies within an hour; silent until %s", address,
                    budget, reports.when(until, self.desk.tz))
        games = sorted({p.game for p in self.desk.store.players_by_email(address)})
        gms = ({g.gm_email for g in map(self.desk.store.game, games) if g is not None}
               or set(self.desk.config.gm_addresses))
        for gm in sorted(gms):
            if gm != address:
                out.append(Mail(gm, f"{self.desk.config.name}: {address} is not answered for now", (
                    f"The judge has answered {budget} mails from {address} within an hour, "
                    f"which is its limit (a mail loop with an auto-responder is the usual "
                    f"cause). It does not answer that address again before "
                    f"{reports.stamp(until)}.\n"
                    f"Its mails are still read and carried out."
                    + (f"\nIt plays in: {', '.join(games)}." if games else "")
                    + f"\n\n{self.desk._sig()}")))
        return Mail(address, subject, (
            f"The judge has answered {budget} of your mails within an hour, which is its "
            f"limit, and will not answer you again before {reports.stamp(until)}.\n"
            f"Your mails are still read and carried out (orders, press, commands); only the "
            f"replies stop. If an automatic responder of yours answers the judge's mail, "
            f"please switch it off or make it send 'Auto-Submitted: auto-replied'.\n\n"
            f"{self.desk._sig()}"))
