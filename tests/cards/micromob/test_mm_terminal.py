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


# P1's commands of a 3-player game against two bots (seed 17) up to turn 51, where the pile
# is empty and P1 holds two 'add a city card' allies, C15 and D9
EMPTY_PILE_17 = [
    "draft U9", "draft D2", "hire C7 with D2 U9", "payroll", "ally C1 with U9 D2 C7",
    "payroll", "ally D1 with C7 D2 U9", "payroll", "ally C13 with U9 D2 C7", "use C13 on C13",
    "payroll", "ally C15 with C7 U9", "use C15", "hire U15 with D2 C13", "use C15",
    "hit C11 with U15", "use C15", "payroll", "use C15", "hit D14 with U15", "use C15",
    "ally D3 with D2 U9 C7", "use C15", "payroll", "use C15", "ally D9 with C7 U15",
    "ally C6 with U9 D2",
]


def test_the_turn_line_offers_no_ability_that_cannot_be_used_now() -> None:
    # the pile is empty: 'add a city card' has nothing to draw (rules L156), so the turn line
    # offers no 'use', as '?' lists none
    out = play(["-p", "3", "--bot", "2", "--bot", "3", "--seed", "17"],
               [*EMPTY_PILE_17, "?", "use D9", "quit"])
    turn = out[out.index("micro mob, turn 51: P1 to act (you). Pile: 0 cards."):]
    line = next(t for t in turn.splitlines() if t.startswith("Your turn: "))
    assert "use" not in line and "add a city card" not in line
    assert "use" not in turn.split("You can: ")[1].splitlines()[0]
    assert "P1> ! the pile is empty: no card to add to the city" in turn


def test_when_pass_is_the_only_action_the_screen_and_the_errors_say_pass() -> None:
    # pass is a ruling (the rulebook has none): legal only when no hit, hire, ally or
    # payroll is; P1's two goons (C3, M7) pay for nothing in this first city of 6
    out = play(["-p", "4", "--bot", "2", "--bot", "3", "--bot", "4", "--seed", "74"],
               ["draft C3", "draft M7", "payroll", "hit U1", "done", "use C3",
                "pass\nhit U1\nuse C3\ndraft U1",  # typed at 'Enter: play on', after pass
                "quit"])
    must = "you can neither hit, hire, ally nor payroll"
    assert f"Your turn: {must}, so your action is pass." in out
    assert "Your turn: hit, hire, ally or payroll." not in out.split("P1 cannot act")[0]
    for refused in ("your fatigue area is empty: nobody to pay",
                    "hit U1 needs 3; your whole hand makes 2"):
        assert f"! {refused}; {must} this turn: your action is pass\n" in out
    # done ends a turn whose action is taken: here nothing would be, so only pass is said
    assert f"P1> ! {must} this turn, so your action is pass: say 'pass'\n" in out
    assert "take your action first" not in out
    assert "P1> ! C3 is not in your ally area, which is empty, at column 5\n" in out
    assert "P1 cannot act and passes" in out
    # after the pass it is P2's turn: that is the reason given, whatever the move
    after = out.split("P1 cannot act and passes")[1]
    assert after.count("P1 (Enter: play on)> ! it is not your turn: P2 is to move\n") == 2
    assert "P1 (Enter: play on)> ! you cannot draft now: the goon draft is over\n" in after
    assert "expected one of: none" not in out


def test_a_module_named_twice_is_refused_by_name() -> None:
    # rules, the module table: 1 module for 2 players, 2 for 3 ...; docks,D names docks twice
    for option, said in (("docks,docks", "('docks')"), ("docks,D", "('docks' and 'D')")):
        done = subprocess.run([sys.executable, "-m", "mobadj", "play", "micromob", "-p", "3",
                               "-o", f"modules={option}"], input="quit\n",
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr == (
            f"Error: module docks is named twice {said}; name each module once\n")
