"""Text between a terminal and the card games, made harmless both ways.

A line typed at the terminal is read as the judge reads a line of mail
(:func:`mobadj.typed.as_meant`): compatibility forms folded (NFKC: fullwidth letters,
no-break spaces), invisible format characters (zero-width spaces, right-to-left overrides)
and control characters (NUL, ESC) dropped, a tab a space, and a byte that was no UTF-8 (a
lone surrogate from the terminal's decoder) the replacement character U+FFFD.  So what a
player types, table talk included, is always text that can be saved and resumed, and never
a sequence another seat's screen would obey.

Everything the terminal prints goes through :func:`printable` as well: a saved game is the
player's to edit and a record to verify may come from anyone, so a text read from a file
(an action, a game's name) is cleaned on its way to the screen too; only line breaks and
tabs pass.
"""

from __future__ import annotations

import re
import sys
import textwrap
import unicodedata
from collections.abc import Callable

from mobadj.typed import as_meant

# cursor home, erase the screen, and erase the scrollback (xterm's 3J, which VTE, kitty,
# iTerm2 and Windows Terminal follow): without it the next player scrolls back up and
# reads the screen just cleared
ERASE = "\x1b[H\x1b[2J\x1b[3J"
MAX_LINE = 500  # no command is this long (the judge's limit for a line of mail too)
_SURROGATES = re.compile("[\ud800-\udfff]")
_ASCII_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_DROPPED = ("Cc", "Cf")


def clean_command(line: str) -> str:
    """A typed line as the judge reads a line of mail, a tab a space (see the module doc);
    not stripped."""
    return as_meant(line, tabs=False)


def printable(text: str) -> str:
    """``text`` fit for the screen: line breaks and tabs kept, every other control and
    format character dropped, a lone surrogate U+FFFD."""
    if text.isascii():
        return _ASCII_CONTROL.sub("", text)
    if text.replace("\n", " ").replace("\t", " ").isprintable():
        return text
    text = _SURROGATES.sub("\ufffd", text)
    return "".join(ch for ch in text
                   if ch in "\n\t" or unicodedata.category(ch) not in _DROPPED)


def clear_screen() -> None:
    """Clear the terminal for the next seat, its scrollback too (:data:`ERASE`); nothing
    when the output is no terminal (a file keeps what it was given)."""
    out = sys.stdout
    if out.isatty():
        out.write(ERASE)
        out.flush()


def rows_of(line: str, width: int | None) -> list[str]:
    """One printed line as the rows it takes on a screen ``width`` columns wide: wrapped at
    spaces, each row after the first indented two columns past the line's own indent (an
    event of the feed, ``  - ...``, past its dash).  ``width`` None: the line as it is."""
    if width is None or len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    indent = " " * (lead + 2 if lead + 2 <= width // 2 else 2)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False,
                         drop_whitespace=True) or [""]


class Pager:
    """What a session prints, fitted to a screen of ``width`` x ``height``: lines wrapped to
    the width (:func:`rows_of`), and once a screen is full (one row kept for the prompt) a
    pause, ``-- more: press Enter --``, so nothing scrolls away unread.  Every prompt starts
    a new screen (:meth:`prompted`).  No size: lines as they are, never a pause (output to a
    file or a pipe).  A line typed at the pause instead of Enter goes to ``keep`` (the
    session keeps it for the prompt that follows), never dropped unread."""

    MORE = "-- more: press Enter -- "

    def __init__(self, out: Callable[[str], None], ask: Callable[[str], str],
                 width: int | None = None, height: int | None = None,
                 keep: Callable[[str], None] | None = None) -> None:
        self.out = out
        self.ask = ask
        self.keep = keep
        self.width = width
        self.height = height
        self.rows = 0  # rows printed since the last prompt

    def write(self, text: str) -> None:
        for line in printable(text).split("\n"):
            for row in rows_of(line, self.width):
                if self.height is not None and self.rows >= self.height - 1:
                    self.pause()
                self.out(row)
                self.rows += 1

    def pause(self) -> None:
        """``-- more --`` until Enter.  The end of input (Ctrl-D) there is the player's
        Ctrl-D: it goes on to the session, which saves the game and stops; no pause holds
        up what is written after it."""
        try:
            typed = self.ask(self.MORE)
        except EOFError:
            self.height = None
            raise
        self.rows = 0
        if typed.strip() and self.keep is not None:
            self.keep(typed)

    def prompted(self) -> None:
        self.rows = 0

    def keep_whole(self, text: str, reserve: int = 1) -> None:
        """Pause first if ``text`` (and ``reserve`` rows after it: the prompt) would not fit
        on what is left of this screen, so that it is read on one screen (what a player acts
        on is never split by a pause)."""
        if self.height is None or not self.rows:
            return
        need = sum(len(rows_of(line, self.width)) for line in printable(text).split("\n"))
        if self.rows + need + reserve > self.height:
            self.pause()
