"""Power names as players write them: every name and alias the game gives a seat, in any
case, of one word or several, quoted or not (``Murder Inc.``, ``"Baby Face" Nelson``,
``Baby Face Nelson``, ``babyface``, ``ENG``, ``E``); a name that is none gets a did-you-mean.

One reader for every command that names powers (SIGNON, JOIN, PRESS TO, DRAW, CONCEDE TO,
the GM's ENDGAME and press), and for any other front end that asks a player for a power
(a sign-in form).  Names are compared by :func:`mobadj.board.model.fold` (case, spaces,
quotes and full stops do not count), so ``murder inc`` is ``Murder Incorporated``'s alias
``Murder Inc.``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mobadj.board.model import close_matches, fold
from mobadj.judge.hosts import Host, HostError

MAX_WORDS = 5
"""Words in the longest name looked for (``"Baby Face" Nelson`` has three)."""
COMMON_NAMES = {
    "england": ("English", "Britain", "Great Britain", "British", "Brits", "UK",
                "United Kingdom"),
    "france": ("French", "Frenchman"),
    "germany": ("German", "Germans", "Prussia", "Prussian"),
    "italy": ("Italian", "Italians"),
    "austria": ("Austrian", "Austrians", "Austro-Hungarian", "Austro-Hungary", "Hungary",
                "Hungarian"),
    "russia": ("Russian", "Russians"),
    "turkey": ("Turkish", "Turk", "Turks", "Ottoman", "Ottomans", "Ottoman Empire"),
}
"""What newcomers call the standard powers (nationalities, other names), by the power's name
folded: no name of the power, but the one a did-you-mean offers (``Britain``: England)."""


class Names:
    """The seats of one game and every way of writing them."""

    def __init__(self, host: Host, options: dict[str, Any]) -> None:
        self.labels: dict[str, str] = {}
        self.spellings: dict[str, str] = {}  # folded spelling -> seat
        self.words: set[str] = set()  # every word of every name (and common name), folded
        for seat, names in host.seat_names(options).items():
            self.labels[seat] = names[0] if names else seat
            for name in (seat, *names):
                key = fold(name)
                if key:
                    self.spellings.setdefault(key, seat)
                self.words.update(fold(w) for w in name.split())
        for label in self.labels.values():  # "Great Britain" is shown as written, too
            self.words.update(fold(w) for n in COMMON_NAMES.get(fold(label), ())
                              for w in n.split())

    def label(self, seat: str) -> str:
        """How people write the seat (``Al Capone``, ``England``)."""
        return self.labels.get(seat, seat)

    def written(self, seat: str) -> str:
        """The seat as the judge's mails name it: its name (``Al Capone`` for ``capone``,
        ``Lepke``), or its id where that is the name in capitals (``ENGLAND``), as judges
        write the standard powers."""
        label = self.label(seat)
        return seat if seat.isupper() and fold(label) == fold(seat) else label

    def find(self, text: str) -> str | None:
        """The seat ``text`` names, None when none."""
        return self.spellings.get(fold(text)) if fold(text) else None

    def seat(self, text: str) -> str:
        """The seat ``text`` names (all of it, one name); a :class:`HostError` with a
        did-you-mean when it names none."""
        found = self.find(text)
        if found is None:
            raise HostError(self.unknown(text))
        return found

    def unknown(self, text: str) -> str:
        """The message for a name that is no seat's: the power a common name or nationality
        means (``French``, ``Britain``), else the closest names, else all of them.  A short
        abbreviation is no near miss of a longer word (``Britain`` is not ``ITA``)."""
        seats = self.near(text)
        written = text.strip().strip('"\u201c\u201d')
        if seats:
            return (f"no power {written!r}; did you mean "
                    + " or ".join(self.label(s) for s in seats) + "?")
        return f"no power {written!r}; the powers are {', '.join(self.labels.values())}"

    def near(self, text: str, cutoff: float = 0.6) -> list[str]:
        """The seats a name that is none may mean: the one its common name or nationality
        names, else those of the names closer than ``cutoff``."""
        key = fold(text)
        seats = [seat for seat, label in self.labels.items()
                 if any(fold(n) == key for n in COMMON_NAMES.get(fold(label), ()))]
        if not seats:
            longer = [n for n in self.spellings if len(n) >= min(len(key) - 1, 4)]
            near = close_matches(key, longer, n=3, cutoff=cutoff)
            seats = list(dict.fromkeys(self.spellings[n] for n in near))
        return seats

    def meant(self, words: Sequence[str]) -> list[str]:
        """The seats ``words`` most likely mean, for the line to send instead: each name as
        read, a slip or nationality with one near seat as that seat, other words left out
        (``England please``: England; ``Germans``: Germany)."""

        def slip(i: int) -> tuple[str | None, int]:
            near = self.near(words[i], cutoff=0.75)  # "please" is no slip
            return (near[0] if len(near) == 1 else None), 1

        return self._read(words, slip)

    def _read(self, words: Sequence[str],
              unnamed: Callable[[int], tuple[str | None, int]]) -> list[str]:
        """The seats named one after the other by ``words``, the longest name first at each
        place ("and" between them), without repeats; ``unnamed(i)`` says what the word at
        ``i`` that begins no name stands for, and how many words it takes."""
        out: list[str] = []
        i = 0
        while i < len(words):
            if words[i].lower() in ("and", "&", ",") and self.find(words[i]) is None:
                i += 1  # "Nelson and Lepke"
                continue
            for n in range(min(MAX_WORDS, len(words) - i), 0, -1):
                found = self.find(" ".join(words[i:i + n]))
                if found is not None:
                    break
            else:
                found, n = unnamed(i)
            if found is not None and found not in out:
                out.append(found)
            i += n
        return out

    def masked(self, text: str) -> str:
        """A SIGNON's power as a reply may quote it: ``Germany 4lGxbTNR91g please`` reads as
        the power ``Germany 4lGxbTNR91g`` (the password is the last word), and the password
        must not come back in the mail.  The first word stays, and each later word that is
        part of a name or a slip of one (``Lucky Lucianno``: the player must see the word to
        fix), but a slip only among the words the closest name takes: a word past them may
        be the password, even one that looks like a name (``Baby Face Nelson nelson1``);
        any other word is shown as ``***``."""
        words = text.split()
        near = close_matches(fold(text), list(self.spellings), n=1, cutoff=0.6)
        length, room = 0, 1  # the words that together are about as long as that name
        for i, word in enumerate(words):
            length += len(fold(word))
            if near and length <= len(near[0]) + 1:
                room = i + 1
        return " ".join(words[:1] + [
            w if fold(w) in self.words or (i < room and self._name_like(w)) else "***"
            for i, w in enumerate(words[1:], 1)])

    def _name_like(self, word: str) -> bool:
        """Is ``word`` a word of a name, or that word with a letter or two wrong, of about
        its length (``Lucianno``; not ``pw-germany``, which is longer by a whole prefix)?"""
        key = fold(word)
        if key in self.words:
            return True
        return len(key) >= 4 and any(
            abs(len(key) - len(w)) <= 1 for w in close_matches(key, list(self.words), n=3,
                                                                cutoff=0.8))

    def seats(self, words: Sequence[str]) -> list[str]:
        """The seats named one after the other by ``words`` (``Baby Face Nelson Capone``:
        the longest name first at each place; "and" between them), without repeats; a
        :class:`HostError` at the first word that begins no name."""

        def refused(i: int) -> tuple[str | None, int]:
            raise HostError(self.unknown(_rest_of_name(words, i)))

        return self._read(words, refused)

    def groups(self, text: str) -> list[str]:
        """The seats named by a list written with commas, ``and`` or spaces between the
        names (``Baby Face Nelson, Murder Inc. and Lepke``)."""
        return self.seats(text.replace(",", " ").replace(";", " ").split())

    def seat_and_rest(self, words: Sequence[str], rest: int) -> tuple[str, list[str]]:
        """One name followed by up to ``rest`` other words (``Murder Inc. pw123``): the
        longest name that leaves at most ``rest`` words, and the words left."""
        for n in range(len(words), max(0, len(words) - rest - 1), -1):
            found = self.find(" ".join(words[:n])) if n else None
            if found is not None:
                return found, list(words[n:])
        raise HostError(self.unknown(" ".join(words[:max(1, len(words) - rest)])))


def _rest_of_name(words: Sequence[str], i: int) -> str:
    """The words from ``i`` that may be one misspelt name (up to the next quote's end)."""
    if words[i].startswith(('"', "\u201c")):
        for j in range(i, min(len(words), i + MAX_WORDS)):
            if words[j].endswith(('"', "\u201d")) and (j > i or len(words[j]) > 1):
                return " ".join(words[i:j + 1])
    return words[i]


def written(host: Host, options: dict[str, Any], seats: Sequence[str]) -> list[str]:
    """``seats`` as the judge's mails name them (:meth:`Names.written`); their ids when the
    game's names cannot be read here."""
    try:
        names = Names(host, options)
    except HostError:
        return list(seats)
    return [names.written(s) for s in seats]
