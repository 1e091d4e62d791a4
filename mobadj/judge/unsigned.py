"""The answer to a person's mail that does not sign on: what to send instead, ready to send.

A player who hits Reply on another player's press and writes "Deal!" has sent nothing to
anyone: the judge says so and gives the mail to send, their own text in a press block under
their SIGNON line (the game and power filled in, the password left for them to write).
Orders without a sign-on get the same, as orders.  The game and the press's sender are read
from the subject the judge gave the mail being answered (``spring26: press from FRANCE``); a
Reply to the GM's message (``spring26: message from the GM``) is given as PRESS TO GM.
Only an address that plays in a game gets its text back (at most ``MAX_ECHO`` characters):
a mail with a forged sender cannot make the judge carry a text to someone else.

A letter to the judge itself (a question, a lost password) is no press to the other
players: its writer is pointed to HELP, to the GM (PRESS TO GM, with the text ready, unless
the letter is about the password it would need) and to the GM's REPLACE for a new password.
A letter from an address with no seat ("I'd like to join fall26 please!") gets LIST, JOIN
and the games taking players.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

from mobadj.judge.base import JudgeBase
from mobadj.judge.commands import ParsedMail
from mobadj.judge.hosts import DiplomacyHost, HostError, host_for
from mobadj.judge.mailparse import Incoming
from mobadj.judge.names import Names
from mobadj.orders.prose import is_remark

_ABOUT = re.compile(r"(?:^|[\s:])([a-z0-9][a-z0-9_-]{0,29}): (press|message) from (.+?)\s*$",
                    re.I)
_GAME = re.compile(r"(?:^|[\s:])([a-z0-9][a-z0-9_-]{0,29}):", re.I)
_ANONYMOUS = "anonymous"
MAX_ECHO = 2000  # characters of a player's own text sent back in the form
LINES_CHECKED = 60  # lines of a mail without sign-on looked at for orders: a letter's length
FORGOT = ("Forgot your password? Ask your GM for a new one: the GM's REPLACE of your seat "
          "to your own address (REPLACE <power> <your address>) mails a new password to the "
          "seat's registered address, and nowhere else.")
"""What a player who lost the password can do (the GM sees no password: it is mailed)."""
_PASSWORD = re.compile(r"pass\s?word|passwort|\bpwd?\b", re.I)
_WORD = re.compile(r"[a-z0-9][a-z0-9_-]{0,29}", re.I)
NOT_READ = ("and nobody has read it or seen it: the judge reads commands, one on each line, "
            "not letters.")


@dataclass(frozen=True)
class Answering:
    """What a mail without a sign-on answers, as far as the judge can tell."""

    game: str | None = None  # the game the mail is about
    power: str | None = None  # the sender's seat in it
    label: str = ""  # the seat as the player writes it
    press_from: str | None = None  # the seat whose press it answers ("" when anonymous, GM)


class UnsignedMail:
    """Mail without SIGNON from a person: what it should have been."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def _answering(self, inc: Incoming) -> Answering:
        """The game, the sender's seat and the press a mail answers, from its subject and
        the seats its address holds."""
        seats = [p for p in self.desk.store.players_by_email(inc.sender) if p.status != "out"]
        about = _ABOUT.search(inc.subject or "")
        named = about.group(1).lower() if about else None
        if named is None:
            games = [m.group(1).lower() for m in _GAME.finditer(inc.subject or "")]
            named = next((g for g in games if any(p.game == g for p in seats)), None)
        mine = [p for p in seats if named is None or p.game == named]
        game = named or (mine[0].game if len(mine) == 1 else None)
        player = mine[0] if len(mine) == 1 else None
        press_from = None
        if about is not None and about.group(2).lower() == "press":
            who = about.group(3).strip()
            press_from = "" if who.lower().startswith(_ANONYMOUS) else who
        elif about is not None:  # "g1: message from the GM": answered with PRESS TO GM
            press_from = "GM"
        label = ""
        stored = self.desk.store.game(game) if game else None
        if player is not None and stored is not None:
            try:
                label = Names(host_for(stored.kind), stored.options).label(player.power)
            except HostError:
                label = player.power
        return Answering(game, player.power if player else None, label, press_from)

    def what_to_send(self, inc: Incoming, parsed: ParsedMail) -> str:
        """The answer to a mail with text but no SIGNON (and no other command)."""
        text = "\n".join(t for _, t in parsed.order_lines)
        for press in parsed.press:  # a press block without a sign-on
            text = "\n".join(x for x in (text, press.text) if x)
        if not text.strip():
            return ""
        about = self._answering(inc)
        if about.power is None:
            # not from a player of a game: the usual answer (a text is sent back only to an
            # address that plays, so a forged sender cannot make the judge carry text)
            return ""
        if len(text) > MAX_ECHO:
            text = text[:MAX_ECHO] + "\n(... the rest of your text is left out here)"
        signon = (f"SIGNON {about.game or '<game>'} {about.label or '<power>'} <password>")
        head = ("The judge did nothing with your mail, and nobody else has seen it: it has no "
                "SIGNON line, and every mail to the judge needs one on top.")
        forgot = f"\n\n{FORGOT}"
        if any(e.text.lower().split()[:1] in (["signon"], ["gm"]) for e in parsed.errors):
            head = ("The judge did nothing with your mail, and nobody else has seen it: its "
                    "SIGNON line could not be read (the error above says why).")
        if parsed.password_below:  # the password was there, one line too low
            head = ("The judge did nothing with your mail, and nobody else has seen it: the "
                    "password goes at the end of the SIGNON line, not on a line of its own.")
            forgot = ""
        wants_press = (about.press_from not in (None, "GM")  # orders may answer the GM
                       or (parsed.press and not parsed.order_lines))
        if not wants_press and self._reads_as_orders(about, text):
            return (f"{head}\n\nTo send these orders, send this (your password in place of "
                    f"<password>):\n\n{signon}\n{text}{forgot}")
        if (about.press_from is None and not parsed.press and not parsed.errors
                and not parsed.password_below):
            return self._letter(signon, text)
        if about.press_from:
            to = about.press_from
            why = "To send it to the GM" if to == "GM" else f"To send it to {to} as press"
        elif parsed.press:
            to = parsed.press[0].to
            why = "To send this press"
        else:
            to = "<power>"
            why = ("If it was meant for other players, send it as press (PRESS TO ALL for "
                   "everyone)")
        if about.press_from == "":
            why += " (the press you answer was anonymous: name whom you write to)"
        return (f"{head}\n\n{why}, send this (your password in place of <password>):\n\n"
                f"{signon}\nPRESS TO {to}\n{text}\nENDPRESS{forgot}")

    @staticmethod
    def _letter(signon: str, text: str) -> str:
        """The answer to a player's letter to the judge (a question, a lost password): where
        the answers are, and how to write to the GM; to one who lost the password, not a
        form that needs it."""
        head = ("The judge did nothing with your mail, and nobody has read it or seen it: it "
                "has no SIGNON line, and the judge reads commands, one on each line, not "
                "letters.")
        helps = ("A question about playing? Send HELP (no sign-on needed) for the commands, "
                 "or HELP <command> for one of them.")
        if _PASSWORD.search(text):
            return (f"{head}\n\n{FORGOT}\n\n{helps} Once you have your password, you write "
                    f"to your GM by signing on ({signon}) and sending your text between "
                    f"PRESS TO GM and ENDPRESS.")
        return (f"{head}\n\n{helps}\n\nTo ask your GM, send this (your password in place of "
                f"<password>):\n\n{signon}\nPRESS TO GM\n{text}\nENDPRESS\n\n(PRESS TO "
                f"<power> in its place sends it to another player, PRESS TO ALL to everyone.)"
                f"\n\n{FORGOT}")

    def newcomer(self, inc: Incoming, parsed: ParsedMail) -> str:
        """The answer to a letter from an address with no seat ("I'd like to join fall26
        please!"): how to take a seat, with the games taking players (those the letter
        names, else all), not a sign-on it cannot make."""
        text = " ".join(t for _, t in parsed.order_lines)
        forming = self.desk.forming
        public = [g for g in self.desk.store.games() if forming.takes_players(g)]
        named = {w.lower() for w in _WORD.findall(text)}
        games = [g.name for g in public if g.name in named] or [g.name for g in public]
        example, power = (games[0], self._first_power(games[0])) if games else ("<game>",
                                                                                 "<power>")
        lines = [
            "The judge found no command in your mail, " + NOT_READ,
            "",
            "No game here has a seat for your address yet. To play: send LIST to see the "
            "games and those taking players; then JOIN <game> <power> asks for a seat in "
            f"one (for example JOIN {example} {power}, the powers you wish for best first, "
            f"or JOIN {example} alone for any power). The judge answers with a code to send "
            "back (CONFIRM <code>); when the game starts you get your power and your "
            "password by mail, and then you sign on to give orders.",
        ]
        if games:
            lines += ["", "Taking players now:", *forming.forming_list(games)]
        lines += ["", "Send HELP for all the commands."]
        if _PASSWORD.search(text):
            lines += ["", FORGOT]
        return "\n".join(lines)

    def _first_power(self, name: str) -> str:
        """A power of the game ``name`` as players write it, for an example."""
        game = self.desk.store.game(name)
        if game is None:
            return "<power>"
        try:
            host = host_for(game.kind)
            return Names(host, game.options).label(host.seats(game.options)[0])
        except (HostError, IndexError):
            return "<power>"

    def orders_attempted(self, inc: Incoming, parsed: ParsedMail) -> bool:
        """Does a line of a mail without sign-on (beside its commands) try to be an order,
        on the map of a game its commands name (else the standard map)?  "Hello! I'd like
        to follow this one." beside a WATCH is no order, and gets no word about one.  A
        private game the sender has no part in is no game here either."""
        maps = []
        for cmd in parsed.commands:
            name = cmd.args.get("game") or cmd.args.get("value")
            game = self.desk.seats.visible_game(inc, str(name)) if name else None
            host = host_for(game.kind) if game is not None else None
            if isinstance(host, DiplomacyHost):
                with contextlib.suppress(HostError):
                    maps.append(host.game_map)
        standard = host_for("standard")
        if not maps and isinstance(standard, DiplomacyHost):
            with contextlib.suppress(HostError):
                maps.append(standard.game_map)
        return not maps or any(not is_remark(line, m) for _, line in parsed.order_lines
                               for m in maps)

    def gives_orders(self, inc: Incoming, parsed: ParsedMail) -> bool:
        """Does a line of the mail (of its first :data:`LINES_CHECKED`) read as an order on
        the map of a game the sender plays (else the standard map)?  Such a mail is a
        person's, and always answered."""
        if not parsed.order_lines:
            return False
        kinds = [g.kind for g in map(self.desk.store.game, {
            p.game for p in self.desk.store.players_by_email(inc.sender)}) if g is not None]
        maps = []
        for kind in kinds or ["standard"]:
            with contextlib.suppress(HostError):
                host = host_for(kind)
                if isinstance(host, DiplomacyHost):
                    maps.append(host.game_map)
        return any(not is_remark(line, m) for _, line in parsed.order_lines[:LINES_CHECKED]
                   for m in maps)

    def _reads_as_orders(self, about: Answering, text: str) -> bool:
        """Does ``text`` hold an order of the sender's seat in the game it is about?"""
        game = self.desk.store.game(about.game) if about.game else None
        if game is None or about.power is None or game.state is None:
            return False
        try:
            return bool(host_for(game.kind).check(game.started_state, about.power,
                                                  text).accepted)
        except HostError:
            return False
