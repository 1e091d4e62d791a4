"""End-of-game scoring, the kingpin's family, scoring bonuses and ties (rules L115-129, L166-171).

``# rules L<n>`` = line n of /work/shared/rules/micromob.md.
"""

from __future__ import annotations

from dataclasses import replace

from mm_helpers import DECK, clear, drafted, put

from mobadj.cards.micromob.scoring import score_player

BASE = next(iter(DECK.cards.values()))


def boss(hit: int, colour: str, power: str = "hit_plus"):
    return replace(BASE, boss_hit=hit, colour=colour, power=power)


def test_goons_one_allies_two_hits_their_number():
    # rules L15, L120-124
    s = score_player(3, [boss(5, "red"), boss(6, "red")], [boss(4, "blue"), boss(7, "gold")], None)
    assert (s.goons, s.allies, s.hits, s.bonuses, s.total) == (3, 4, 11, 0, 18)


def test_hits_of_the_kingpins_colour_score_nothing():
    # rules L124-127: same colour circle as the kingpin: worth NOTHING
    king = boss(3, "blue")
    s = score_player(0, [], [boss(4, "blue"), boss(7, "gold")], king)
    assert s.hits == 7


def test_allies_of_the_kingpins_colour_still_score():
    # rules L124: the colour rule is for the hit area only
    king = boss(3, "blue")
    assert score_player(0, [boss(5, "blue")], [], king).total == 2


def test_scoring_bonuses_per_goon_ally_and_hit():
    # rules L168-170 (cumulative; the hit bonus counts regardless of colour)
    king = boss(3, "blue")
    allies = [boss(1, "red", "goon_bonus"), boss(1, "red", "goon_bonus"),
              boss(1, "red", "ally_bonus"), boss(1, "red", "hit_bonus")]
    hits = [boss(4, "blue"), boss(5, "gold")]
    s = score_player(3, allies, hits, king)
    assert s.bonuses == 2 * 3 + 1 * 4 + 1 * 2
    assert s.total == 3 + 8 + 5 + 12


def test_colour_change_saves_the_best_matching_card_once_per_ally():
    # rules L171: change the colour of 1 card in your hit area
    king = boss(3, "blue")
    hits = [boss(4, "blue"), boss(7, "blue"), boss(2, "blue")]
    assert score_player(0, [boss(1, "red", "recolour")], hits, king).hits == 7
    two = [boss(1, "red", "recolour")] * 2
    assert score_player(0, two, hits, king).hits == 11
    assert score_player(0, [], hits, king).hits == 0


def finished_game():
    """A 2-player game played to its end by taking the cheapest hires and payrolls."""
    state = drafted(2, seed=9)
    while not state.is_over():
        p = state.current
        legal = state.legal_actions(p)
        state.apply(p, legal[-1] if str(legal[-1]) in ("done",) else legal[0])
    return state


def test_scores_at_game_end_follow_the_kingpin():
    # rules L115-129: counted once the kingpin is known
    state = finished_game()
    king = DECK.cards[state.kingpin]
    for p, s in enumerate(state.score_details()):
        goons = len(state.hand[p]) + len(state.fatigue[p])
        expect = score_player(goons, [DECK.cards[a] for a in state.allies[p]],
                              [DECK.cards[h] for h in state.hits[p]], king)
        assert s == expect
    assert state.scores() == [float(s.total) for s in state.score_details()]
    assert any(line.startswith("Game over") for line in state.history(None))


def test_most_points_wins():
    # rules L129
    state = drafted(2, seed=3)
    clear(state, 0)
    clear(state, 1)
    put(state, state.hits[0], next(c for c in state.pile if DECK.cards[c].boss_hit >= 4))
    state.kingpin = None
    state.phase = "over"
    assert state.winners() == [0]


def test_ties_go_to_most_allies_then_hit_points_then_shared():
    # a ruling (docs): equal v.p. -> more allies -> more v.p. from hits -> shared win
    state = drafted(2, seed=3)
    clear(state, 0)
    clear(state, 1)
    state.phase = "over"
    state.kingpin = None
    pile = list(state.pile)
    two_hit = next(c for c in pile if DECK.cards[c].boss_hit == 4
                   and DECK.cards[c].power not in ("goon_bonus", "ally_bonus", "hit_bonus"))
    put(state, state.hits[0], two_hit)  # P1: 4 v.p. from one hit
    plain = [c for c in pile if DECK.cards[c].power in ("hit_plus", "rest") and c != two_hit]
    put(state, state.allies[1], plain[0], plain[1])  # P2: 4 v.p. from two allies
    assert state.scores()[0] == state.scores()[1] == 4
    assert state.winners() == [1]  # more allies
    clear(state, 1)
    other_hit = next(c for c in pile if DECK.cards[c].boss_hit == 3 and c != two_hit)
    put(state, state.hits[1], other_hit)
    put(state, state.hand[1], pile[-1])  # P2: 3 + 1 = 4 v.p., no allies, fewer hit v.p.
    assert state.scores()[1] == 4 and state.winners() == [0]
    clear(state, 0)
    clear(state, 1)
    assert state.winners() == [0, 1]  # nothing separates them: a shared win
