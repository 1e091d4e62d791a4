"""What the GM hears without asking, and what the table hears when a seat changes hands.

The GM is told what needs the GM: an open game that filled and started itself, automatic
extensions, absences, replacements, resignations and takeovers, civil disorder, bounces and
unreadable mail from the game's players (while it is played), mail the SMTP server refused
for good, and (with the game option ``gm_press_copy``) a copy of all press, the sender of
grey press named.
"""

from __future__ import annotations

import email
import email.policy
import logging
from email.message import Message

from mobadj.judge.base import JudgeBase
from mobadj.judge.forming import flag
from mobadj.judge.mailparse import Incoming
from mobadj.judge.store import Game, Mail

log = logging.getLogger("mobadj.judge.notices")
MAX_QUOTE = 600  # characters of a bounce's diagnostic passed on to the GM


class Notices:
    """Mails to the GM, and to a game's table and observers."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def tell_gm(self, game: Game, subject: str, text: str, out: list[Mail],
                games: list[str] | None = None) -> None:
        """A notice to the game's GM, the subject prefixed by the game's name (or by the
        names of all the ``games`` of that GM it is about)."""
        names = ", ".join(games or [game.name])
        out.append(Mail(game.gm_email, f"{names}: {subject}", f"{text}\n\n{self.desk._sig()}",
                        game=game.name))

    def tell_table(self, game: Game, subject: str, text: str, out: list[Mail],
                   skip: str | None = None) -> None:
        """A notice to every player (but the seat ``skip``) and every observer: public
        news, never an address."""
        self.desk._announce(game, subject, text, out, skip=skip)
        for address in self.desk.store.watchers(game.name):
            out.append(Mail(address, subject, f"{text}\n\n{self.desk._sig()}", game=game.name))

    def gm_press_copy(self, game: Game, sender: str, recipients: str, grey: bool,
                      to_all: bool, text: str, out: list[Mail]) -> None:
        """With ``gm_press_copy``: the GM gets every press message, with who sent it to
        whom (grey press too: the GM knows its sender); the powers as the game names them."""
        if not flag(game.options, "gm_press_copy"):
            return
        to = "everyone" if to_all else recipients
        who = f"{sender} (grey: the others do not know)" if grey else sender
        self.tell_gm(game, f"press from {sender} to {to} (GM copy)",
                      f"Press in {game.name} from {who} to {to}:\n\n{text}", out)

    # -- bounces and refusals --------------------------------------------------------------
    def games_of(self, address: str) -> list[tuple[Game, str]]:
        """(game, role) for every game ``address`` plays in or watches."""
        found = []
        for p in self.desk.store.players_by_email(address):
            game = self.desk.store.game(p.game)
            if game is not None:
                found.append((game, p.power))
        for game in self.desk.store.games():
            if address in self.desk.store.watchers(game.name):
                found.append((game, "observer"))
        return found

    def _games_by_gm(self, address: str, event: str, seen: dict[str, str], now: float,
                     observers: bool) -> list[list[tuple[Game, str]]]:
        """The games of ``address`` whose GM is to hear of ``event`` now, grouped by GM
        address (one notice each): games not ended (watched ones too with ``observers``),
        each told once a day per ``seen`` (logged here, as told)."""
        by_gm: dict[str, list[tuple[Game, str]]] = {}
        for game, role in self.games_of(address):
            if (role == "observer" and not observers) or game.status == "ended" or seen in \
                    self.desk.store.recent_events(game.name, event, now - 86400):
                continue
            self.desk.store.log(game.name, event, seen, now)
            by_gm.setdefault(game.gm_email.lower(), []).append((game, role))
        return list(by_gm.values())

    def unreadable_notice(self, inc: Incoming, failed: bool, now: float, out: list[Mail]
                          ) -> None:
        """A mail from a player that the judge could not read or handle (the player got the
        explanation): the GM of each game the sender plays that has not ended is told, one
        notice per GM address naming the games (a GM of two of them is not told twice, a GM
        of an ended game not at all), once a day per sender and game."""
        why = ("could not be handled because of an internal error (the judge's log has it; "
               "nothing in it was done)" if failed else f"could not be read ({inc.unreadable})")
        for seats in self._games_by_gm(inc.sender, "unreadable", {"from": inc.sender}, now,
                                       observers=False):
            game, role = seats[0]
            where = ", ".join(f"{r} in {g.name}" for g, r in seats)
            self.tell_gm(game, f"unreadable mail from {role if len(seats) == 1 else inc.sender}",
                         f"A mail from {inc.sender} ({where}), subject "
                         f"\"{inc.subject[:80]}\", {why}. The player was told.", out,
                         games=[g.name for g, _ in seats])

    def bounce_notice(self, raw: bytes, now: float, out: list[Mail]) -> None:
        """A bounce (a delivery status report) for an address of a game's player or
        observer: the GM of each game of that address that has not ended is told which
        address failed and why, one notice per GM address naming the games (as
        :meth:`unreadable_notice`), once a day per address and game."""
        failed = bounced_addresses(raw)
        for address, why in failed.items():
            for seats in self._games_by_gm(address, "bounce", {"address": address}, now,
                                           observers=True):
                where = ", ".join(f"{'an observer' if r == 'observer' else r} in {g.name}"
                                  for g, r in seats)
                self.tell_gm(seats[0][0], f"mail to {address} bounced", (
                    f"Mail from the judge to {address} ({where}) came back "
                    f"undelivered:\n  {why or 'no reason given'}\n\n"
                    f"If the address is gone, give the seat to another address (REPLACE, "
                    f"mobadj game replace) or ask the player for a new one (SET ADDRESS)."),
                    out, games=[g.name for g, _ in seats])

    def notify_refused(self, now: float) -> list[Mail]:
        """Tell GMs about mails the SMTP server refused for good since the last look (run by
        the service after sending); returns the notices queued."""
        out: list[Mail] = []
        with self.desk.store.transaction():
            after = int(self.desk.store.meta("refusals_told") or 0)
            rows = self.desk.store.db.execute(
                "SELECT id, to_addr, subject, game, refused FROM outbox WHERE refused IS NOT "
                "NULL AND id>? ORDER BY id", (after,)).fetchall()
            for row in rows:
                game = self.desk.store.game(row["game"]) if row["game"] else None
                if game is None or row["to_addr"] == game.gm_email:
                    continue  # a notice to the GM that cannot reach the GM: the log has it
                self.tell_gm(game, f"mail to {row['to_addr']} refused", (
                    f"The SMTP server refused for good the judge's mail to {row['to_addr']} "
                    f"(\"{row['subject']}\"):\n  {row['refused']}\n\nCheck the address "
                    f"(mobadj game status {game.name}); REPLACE gives the seat to another."),
                    out)
            if rows:
                self.desk.store.set_meta("refusals_told", str(rows[-1]["id"]))
            self.desk.queue(out, now)
        return out


def bounced_addresses(raw: bytes) -> dict[str, str]:
    """The recipients a delivery status report (RFC 3464, ``multipart/report``) says failed,
    with the diagnostic; {} for any other mail."""
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    except Exception:  # noqa: BLE001 (a mail we cannot parse is no bounce we can read)
        return {}
    failed: dict[str, str] = {}
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        payload = part.get_payload()
        blocks = payload if isinstance(payload, list) else []
        if not blocks:  # some parsers leave the fields as text
            text = part.get_payload(decode=True) or b""
            blocks = [email.message_from_bytes(chunk) for chunk in
                      bytes(text).replace(b"\r\n", b"\n").split(b"\n\n")]
        for block in blocks:
            if not isinstance(block, Message):
                continue
            action = str(block.get("Action", "")).strip().lower()
            recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient")
                            or "")
            if action != "failed" or not recipient:
                continue
            address = recipient.split(";", 1)[-1].strip().strip("<>").lower()
            why = " ".join(str(block.get("Diagnostic-Code") or block.get("Status") or "")
                           .split())
            failed[address] = why.split(";", 1)[-1].strip()[:MAX_QUOTE]
    return failed
