"""Remarks around a card game's commands in a mail ("Here you go", "Thanks!", "Anna"): set
aside as the judge sets aside remarks around Diplomacy orders, instead of being answered as
commands out of turn or as a second sealed choice.

A line is a remark only when it is clearly no command: it comes before the first command
of the mail or after the last, it holds no digit (a card's number, ``u9``), its first word
is no command word of the game, and it ends as a sentence does ("Hi all," "Thanks!") or
its first word is not close to a command word and the game finds no move it could mean.
So a misspelt command keeps its error and its did-you-mean ("darft U9": draft).
"""

from __future__ import annotations

import difflib

from mobadj.cards import CommandError, GameError, GameState


def remark_lines(game: GameState, player: int, lines: list[str], words: frozenset[str]
                 ) -> set[int]:
    """The indexes of the lines of ``lines`` that are remarks (see above); none in a mail
    without a command ("fly to the moon" alone is answered: the player meant something)."""
    prose = [bool(line.strip()) and is_prose(game, player, line, words) for line in lines]
    commands = [i for i, line in enumerate(lines) if line.strip() and not prose[i]]
    if not commands:
        return set()
    return {i for i, is_prose in enumerate(prose)
            if is_prose and (i < commands[0] or i > commands[-1])}


def is_prose(game: GameState | None, player: int, line: str, words: frozenset[str]) -> bool:
    """Is ``line`` clearly no command?  The game's own hint for a first word ('See': did you
    mean 'use'?) is looser than the test here, so only a move it names counts ("Rival Hit":
    did you mean 'offer Rival Hit'?).  ``game`` None: a game not started, with no moves."""
    text = line.strip()
    head = text.split()[0].lower().strip(".,:;!?")
    if any(ch.isdigit() for ch in text) or head in words:
        return False
    if text[-1] in ",:!?":  # "Hi all," "Here is my pick:" "Thanks!": no command ends so
        return True
    if difflib.get_close_matches(head, sorted(words), n=1, cutoff=0.75):
        return False
    if game is None:
        return True
    try:
        game.read(player, text)
    except CommandError as err:
        return err.suggestion is None or " " not in err.suggestion.strip()
    except GameError:  # read, but not playable now: a command
        return False
    return False
