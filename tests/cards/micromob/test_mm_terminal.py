"""micro mob at the terminal: what a player types into ``mobadj play`` and what the screen
answers, for the rules the move list and the refusals carry.

``# rules L<n>`` = line n of /work/shared/rules/micromob.md.
"""

from __future__ import annotations

import subprocess
import sys


def play(args: list[str], typed: list[str]) -> str:
    """``mobadj play micromob ARGS`` with ``typed`` piped in (a blank line after each
    command answers the bots' 'Enter: play on' pause); everything it printed."""
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", *args],
                          input="".join(f"{line}\n\n" for line in typed),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_add_a_city_card_stops_at_the_fifth_city_card() -> None:
    # rules L156: "(a 5th card in a 2-3p game or a 7th card in a 4-6p game.)"  P1 adds a
    # 5th card at turn 6; nobody takes a city card until P1's next turn, where the city still
    # holds 5: the move list no longer offers D9, and 'use D9' is refused
    out = play(["-p", "3", "--bot", "2", "--bot", "3", "--seed", "7"],
               ["draft U11", "draft U6", "ally D9 with U6", "use D9", "payroll", "?",
                "use D9", "quit"])
    assert "P1 uses D9: C8 (4/5/4 green) is drawn into the city" in out
    assert ("! the city already holds 5 cards: D9 adds only a 5th card in a 3-player game"
            in out)
    moves = out.split("You can: ")[-1].splitlines()[0]
    assert "use D9" not in moves and "hire D2 with U6 U11" in moves
    assert "is drawn into the city" not in out.split("the city already holds")[1]
