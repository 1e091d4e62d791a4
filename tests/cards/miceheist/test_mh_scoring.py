"""Rulebook "End Game & Scoring": food per track in track order, totals, tie-breaks."""

from __future__ import annotations

from mh_helpers import new

from mobadj.cards.miceheist import tracks


def place(s, job: str, spaces: dict[int, int]) -> None:
    for p, at in spaces.items():
        tracks.move(s.track[job], s.pos[job], p, at)


def test_food_claimed_by_place_then_a_cheese() -> None:
    # "The player in 1st place on the track gets first choice, the 2nd place will choose
    # next ... If all food tokens have been claimed for that job, that player will claim a
    # single cheese token instead."
    s = new(4, 2)
    place(s, "A", {0: 2, 1: 7, 2: 5, 3: 1})
    food = list(s.food["A"])
    supply = s.supply
    s._end("test")
    assert s.claims[1] == [food[0]] and s.claims[2] == [food[1]] and s.claims[0] == [food[2]]
    assert s.claims[3] == [] and s.stash[3] == 4 and s.supply == supply - 1
    assert s.is_over()


def test_players_off_the_track_claim_nothing() -> None:
    s = new(3, 2)
    place(s, "B", {2: 3})
    best = s.food["B"][0]
    s._end("test")
    assert s.claims[2] == [best] and best[0] == 12
    assert s.claims[0] == [] and s.claims[1] == [] and s.stash[:2] == [3, 3]


def test_tracks_claimed_in_track_order_until_cheese_runs_out() -> None:
    # ruling R12: cheese claims in track order A-D; none when the supply is empty
    s = new(4, 2)
    for j in "ABCD":
        place(s, j, {0: 4, 1: 3, 2: 2, 3: 1})
    s.stash[0] += s.supply - 1
    s.supply = 1
    s._end("test")
    assert s.stash[3] == 3 + 1  # only track A's cheese was left
    assert not s.check_invariants()


def test_totals_are_food_plus_stash_not_covered_cheese() -> None:
    # "Each player adds the value of their food tokens to the number of cheese in their stash"
    s = new(2, 4)
    place(s, "A", {0: 5})
    s.covered[0].add(s.skills[0][0])
    s.stash[0] -= 1
    s._end("test")
    assert s.scores() == [12 + 2, 3]


def test_tie_goes_to_most_cheese_then_shared() -> None:
    # "If there is a tie the player with the most cheese is the winner. If there's still a
    # tie the players share the victory."
    s = new(3, 4)
    place(s, "A", {0: 5, 1: 4})  # 12 and 6
    s.stash = [3, 9, 0]
    s.supply = 40 - 12 - len(s.covered[0])
    s._end("test")
    assert s.scores()[:2] == [15.0, 15.0] and s.winners() == [1]
    s2 = new(2, 4)
    s2._end("test")
    assert s2.scores() == [3.0, 3.0] and s2.winners() == [0, 1]


def test_end_is_logged_with_totals() -> None:
    s = new(2, 4)
    place(s, "D", {1: 2})
    s._end("job D is complete")
    h = s.history(None)
    assert any(e.startswith("Totals:") for e in h) and any("Winner" in e for e in h)


def test_a_skills_cheese_from_a_short_supply_is_said_lost() -> None:
    # R12: a gain from an empty supply is lost; R15: a bounty puts supply cheese on the obstacle
    from mh_helpers import give_skill, select

    s = new(2, 4)
    t = s.tester
    give_skill(s, t, "sweeten-the-pot", 0)
    give_skill(s, t, "hoarder", 1)
    select(s, "A")
    s.stash[1 - t] += s.supply - 1
    s.supply = 1
    s.command(t, "use hoarder")
    me = f"P{t + 1}"
    assert s.history(None)[-1] == (f"{me} activates Hoarder (+2 cheese). The supply had only 1 "
                                   f"cheese: 1 for {me}, not 2.")
    s.command(t, "use sweeten-the-pot")
    assert s.history(None)[-1] == (f"{me} activates Sweeten the Pot (+2, 2 cheese bounty). The "
                                   "supply is empty: no cheese goes on A1.")
    assert not s.check_invariants()
