"""Mice Heist at the terminal: what a player types into ``mobadj play`` and what the screen
answers.  ``rules:`` quotes /work/shared/rules/mice-heist.md; R<n> are the rulings of
docs/cards/miceheist.md."""

from __future__ import annotations

import subprocess
import sys


def play(args: list[str], typed: list[str]) -> str:
    """``mobadj play miceheist ARGS`` with ``typed`` piped in (a blank line after each
    command answers the bots' 'Enter: play on' pause); everything it printed."""
    done = subprocess.run([sys.executable, "-m", "mobadj", "play", "miceheist", *args],
                          input="".join(f"{line}\n\n" for line in typed),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


# P1's commands of a 3-player game against two bots (seed 21) up to turn 5, where P1 (3
# cheese, covered Dig In, Long Jump and Lucky Tail) bets on P2's test
TO_TURN_5 = ["select B", "test", "bet 2", "bet 0", "select D", "use lucky-tail", "use dig-in",
             "use long-jump", "test", "learn nothing"]


def test_a_sealed_bet_says_every_skill_it_will_uncover_and_no_two_choices_end_alike() -> None:
    # rules, Get Help: "This cheese may come from either their personal stash or from their
    # covered skill cards"; R4: the skills named first, then the others in the order they lie
    out = play(["-p", "3", "--bot", "2", "--bot", "3", "--seed", "21"],
               [*TO_TURN_5, "?", "bet 2 uncover long-jump", "quit"])
    assert "You, P1 brown: 3 cheese; covered skills: Dig In, Long Jump, Lucky Tail." in out
    moves = out.split("You can: ")[-1].splitlines()[0].split("; ")
    assert [m for m in moves if m.startswith("bet 2")] == [
        "bet 2 uncover dig-in, long-jump", "bet 2 uncover dig-in, lucky-tail",
        "bet 2 uncover long-jump, lucky-tail"]
    assert len(set(moves)) == len(moves)
    assert "You seal a bet: 2 cheese, uncovering Long Jump and Dig In.\n" in out
    assert "P1 bets 2 (uncovering Long Jump and Dig In)" in out
