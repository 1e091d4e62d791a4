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


def test_a_failure_says_which_helpers_got_a_cheese_from_a_short_supply() -> None:
    # rules, Failure: "Each assisting player takes one cheese from the supply."; R12: the
    # supply is finite (40), a gain from an empty supply is lost, handed out clockwise
    typed = ["bet 1", "bet 0", "bet 2", "bet 0", "bet 0", "select B", "test", "learn nothing",
             "bet 0", "bet 1", "select B", "test", "learn hoarder", "select D", "test",
             "learn gamble", "quit"]
    out = play(["-p", "6", *(f"--bot={n}" for n in range(2, 7)), "--seed", "15"], typed)
    assert "Assisting players take a cheese each" not in out
    assert "P3 fails: rating 2 against target 3. P4, P5, P6 and P2 take a cheese each from " \
           "the supply." in out
    # turn 20: 2 cheese left for three helpers; turns 21 and 22: none left
    assert "P3 fails: rating -4 against target 8. P4 and P5 take a cheese each from the " \
           "supply, which is then empty: P2 gets none." in out
    assert "P4 fails: rating -6 against target 8. The supply is empty: no cheese for the " \
           "assisting players (P5 and P2)." in out
    assert "P5 fails: rating 7 against target 8. The supply is empty: no cheese for the " \
           "assisting players (P2 and P3)." in out


def test_the_move_hint_names_only_moves_the_player_can_make() -> None:
    # P1 is a brown mouse (Dig In, Long Jump, Lucky Tail): no Scurry, Cool Head or Sprint
    out = play(["-p", "3", "--bot", "2", "--bot", "3", "--seed", "21"], [*TO_TURN_5, "quit"])
    hints = [line for line in out.splitlines() if line.startswith("Your move: ")]
    assert hints and not any(w in h for h in hints for w in ("scurry", "cool head", "sprint"))
    assert "Your move: select a job's obstacle (select A)" in hints
    assert "Your move: use a skill (use dig-in, use long-jump), then test" in hints
    assert "Your move: seal a bet of cheese (bet 1, bet 2) or pass" in hints  # none covered
    # turn 4: every skill covered, so nothing to use
    assert "Your move: test (no skill can be used now)" in hints
    # after the failure: a skill of the market as it is
    assert "Market: Master Thief, Deft Touch, Second Wind, Sweeten the Pot; deck 32." in out
    assert "Your move: learn a market skill (learn master-thief) or learn nothing" in hints


def test_a_skills_cheese_and_end_claims_an_empty_supply_cannot_pay_are_said_lost() -> None:
    # rules, End Game: "If all food tokens have been claimed for that job, that player will
    # claim a single cheese token instead."; R12: a gain from an empty supply is lost
    typed = ["bet 1", "bet 1", "bet 1", "bet 1", "bet 0", "select D", "test",
             "learn distraction", "bet 0", "bet 0", "bet 0", "bet 0", "bet 0", "select B",
             "use distraction", "test", "bet 1", "bet 0", "bet 0", "bet 0", "bet 0",
             "select A", "use dig-in", "use long-jump", "test", "bet 0 uncover dig-in",
             "bet 0 uncover long-jump", "bet 0", "bet 0", "bet 0", "quit"]
    out = play(["-p", "6", *(f"--bot={n}" for n in range(2, 7)), "--seed", "15"], typed)
    assert "P4 activates Pack Rat (+2, +1 cheese). The supply is empty: no cheese for P4. " \
           "P4 activates Pick the Lock (+1, +2 if hand). P4 activates Stash Away (+1, +1 " \
           "cheese). The supply is empty: no cheese for P4. P4 fails" in out
    assert "Track A: P2 claims peanut (3). Track A: the supply is empty: no cheese for P5, " \
           "P1 and P3. Track B:" in out
    assert "Track D: the supply is empty: no cheese for P2 and P1." in out
