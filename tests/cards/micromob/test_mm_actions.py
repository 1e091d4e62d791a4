"""The four actions, spending goons, fatigue, the city refill and the end of the game.

``# rules L<n>`` = line n of /work/shared/rules/micromob.md.
"""

from __future__ import annotations

import re

import pytest
from mm_helpers import DECK, cheap_goons, clear, drafted, put

from mobadj.cards.micromob.actions import Done, Pass, Payroll, Take
from mobadj.cards.protocol import IllegalAction


def goons_summing(kind: str, total: int, exclude: tuple[str, ...] = ()) -> list[str]:
    """Two goons whose ``kind`` values add to exactly ``total``."""
    cards = [c for c in DECK.cards.values() if c.id not in exclude and c.value(kind) >= 1]
    for a in cards:
        for b in cards:
            if a.id < b.id and a.value(kind) + b.value(kind) == total:
                return [a.id, b.id]
    raise AssertionError((kind, total))


def setup_take(kind: str):
    """P2 to act with two goons totalling exactly the city boss's ``kind`` number."""
    state = drafted(2, seed=5)
    p = state.current
    clear(state, p)
    target = next(c for c in state.city if 2 <= DECK.cards[c].threshold(kind) <= 5)
    need = DECK.cards[target].threshold(kind)
    goons = goons_summing(kind, need, exclude=tuple(state.city))
    put(state, state.hand[p], *goons)
    return state, p, target, goons


@pytest.mark.parametrize("kind", ["hit", "hire", "ally"])
def test_spend_goons_equal_to_the_number(kind):
    # rules L39-45, L101-109: spend goons totalling >= the boss's number
    state, p, target, goons = setup_take(kind)
    state.command(p, f"{kind} {target} with {' '.join(goons)}")
    # rules L94-96: spent goons go to the fatigue area
    assert state.fatigue[p] == goons
    assert not set(goons) & set(state.hand[p])
    zone = {"hit": state.hits[p], "hire": state.hand[p], "ally": state.allies[p]}[kind]
    assert target in zone  # hit -> hit area, hire -> hand (goon side), ally -> ally area
    assert target not in state.city


@pytest.mark.parametrize("kind", ["hit", "hire", "ally"])
def test_one_short_is_illegal(kind):
    # rules L39-45: "equal to or greater than"
    state, p, target, goons = setup_take(kind)
    smaller = min(goons, key=lambda g: DECK.cards[g].value(kind))
    put(state, state.pile, smaller)
    lesser = [g for g in goons if g != smaller]
    with pytest.raises(IllegalAction, match="needs"):
        state.command(p, f"{kind} {target} with {' '.join(lesser)}")
    assert target in state.city and not state.fatigue[p]


def test_overpaying_is_allowed_and_every_spent_goon_is_fatigued():
    # rules L39: "equal to or greater than"; all named goons are spent
    state, p, target, goons = setup_take("hit")
    extra = next(c for c in state.pile if c not in state.city)
    put(state, state.hand[p], extra)
    state.command(p, f"hit {target} with {' '.join(goons)} {extra}")
    assert sorted(state.fatigue[p]) == sorted([*goons, extra])


def test_goons_come_only_from_your_hand_once_each():
    state, p, target, goons = setup_take("hit")
    with pytest.raises(IllegalAction):
        state.apply(p, Take("hit", target, (goons[0], goons[0])))
    other = 1 - p
    with pytest.raises(IllegalAction):
        state.apply(p, Take("hit", target, tuple(state.hand[other][:1])))
    with pytest.raises(IllegalAction, match="at least one goon"):
        state.apply(p, Take("hit", target, ()))


def test_city_refills_immediately():
    # rules L85: replace it immediately; always 4 cards until the deck runs out
    state, p, target, goons = setup_take("hit")
    top = state.pile[-1]
    state.command(p, f"hit {target} with {' '.join(goons)}")
    assert len(state.city) == 4 and state.city[-1] == top


def test_payroll_returns_the_whole_fatigue_area():
    # rules L113: pick up all cards in your fatigue area, back to your hand
    state, p, target, goons = setup_take("hit")
    state.command(p, f"hit {target} with {' '.join(goons)}")
    while state.current != p:
        q = state.current
        state.command(q, "payroll" if state.fatigue[q] else str(state.legal_actions(q)[-1]))
    state.command(p, "payroll")
    assert not state.fatigue[p] and set(goons) <= set(state.hand[p])


def test_payroll_needs_goons_to_pay_and_pass_only_when_stuck():
    # rules L92: one action; a ruling: payroll of nobody is not an action, pass only if stuck
    state = drafted(2, seed=5)
    p = state.current
    with pytest.raises(IllegalAction, match="empty"):
        state.apply(p, Payroll())
    with pytest.raises(IllegalAction, match="still act"):
        state.apply(p, Pass())
    clear(state, p)
    assert state.legal_actions(p) == [Pass()]
    state.apply(p, Pass())
    assert state.current != p


def test_a_full_round_of_forced_passes_ends_the_game():
    # a ruling (docs): nobody can act for a whole round -> the game ends, no kingpin
    state = drafted(2, seed=5)
    clear(state, 0)
    clear(state, 1)
    state.command(state.current, "pass")
    assert not state.is_over()
    state.command(state.current, "pass")
    assert state.is_over() and state.kingpin is None
    assert "nobody could act" in state.end_reason


def test_only_one_action_per_turn():
    # rules L92: take 1 action
    state, p, target, goons = setup_take("hit")
    state.command(p, f"hit {target} with {' '.join(goons)}")
    assert state.current != p
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(p, Payroll())


def test_done_only_after_an_action():
    state = drafted(2, seed=5)
    with pytest.raises(IllegalAction, match="action first"):
        state.apply(state.current, Done())


def test_game_ends_when_one_boss_is_left_in_the_city():
    # rules L14, L115: ends as soon as only 1 boss is left in the city: the kingpin
    state = drafted(2, seed=5)
    p = state.current
    clear(state, p)
    put(state, state.hits[1 - p], *list(state.pile))  # empty the draw pile
    assert len(state.city) == 4
    strong = sorted(DECK.cards, key=lambda c: -DECK.cards[c].goon_hit)
    put(state, state.hand[p], *[c for c in strong if c not in state.city][:9])
    for left in (3, 2):
        target = state.city[0]
        state.apply(p, Take("hit", target, state.payment(p, "hit", target)))
        assert not state.is_over() and len(state.city) == left
        state.current = p  # let p hit again: this test is about the ending
        state._reset_turn()
    target = state.city[0]
    state.apply(p, Take("hit", target, state.payment(p, "hit", target)))
    assert state.is_over()
    assert state.kingpin == state.city[0] and len(state.city) == 1
    assert state.to_act() == [] and state.legal_actions(p) == []
    with pytest.raises(IllegalAction):
        state.apply(p, Payroll())


def test_refusals_point_to_pass_only_when_pass_is_the_only_action():
    """A ruling: pass is legal only when nothing else is; then a refused hit, hire, ally,
    payroll or done says so (a refused 'use' does not: an ability may still be usable)."""
    state = drafted(2, seed=3)
    p = state.current
    clear(state, p)
    must = "; you can neither hit, hire, ally nor payroll this turn: your action is pass"
    assert state.must_pass(p) and state.legal_actions(p) == [Pass()]
    target = state.city[0]
    with pytest.raises(IllegalAction, match=re.escape(f"hire {target} needs ") + r"\d+; you "
                       "have no goon in hand to pay with" + re.escape(must) + "$"):
        state.command(p, f"hire {target}")
    with pytest.raises(IllegalAction, match=re.escape(f"nobody to pay{must}") + "$"):
        state.command(p, "payroll")
    put(state, state.fatigue[p], state.pile[0])  # now payroll is possible: no word of pass
    assert not state.must_pass(p)
    with pytest.raises(IllegalAction, match=r"hire \w+ needs \d+; you have no goon in hand "
                                            "to pay with$"):
        state.command(p, f"hire {target}")


def test_the_turn_line_names_the_bonus_action_left_and_abilities_only_when_held():
    # rules, action bonuses: "extra hit" lets you take one more hit this turn; the whole
    # table (board, mail) and the screen say the same turn line and say "pile"
    state = drafted(2, seed=1)
    p = state.current
    clear(state, p)
    strong = sorted((c.id for c in DECK.cards.values() if c.goon_hit >= 3
                     and c.id not in state.city), key=lambda c: c)[:6]
    put(state, state.hand[p], *strong)
    for text in (state.render(p), state.screen(p)):  # no ally: nothing to use first
        assert "Your turn: hit, hire, ally or payroll.\n" in text + "\n"
        assert "use ally abilities" not in text
    assert "Pile: " in state.render(p) and "Deck: " not in state.render(p)
    put(state, state.allies[p], "D11")  # Gino, extra hit
    state.command(p, f"hit {state.city[0]}")
    assert state.current == p
    line = "Your action is taken: you may still hit (D11 extra hit), or say 'done'."
    assert line in state.screen(p) and line in state.render(p)
    assert "you may still" not in state.render(state.players - 1 - p)  # the other seat


def test_a_take_named_without_goons_says_what_it_needs_and_what_the_hand_makes():
    state = drafted(2, seed=1)
    p = state.current
    clear(state, p)
    target = max(state.city, key=lambda c: DECK.cards[c].boss_ally)
    weak = cheap_goons(1)
    put(state, state.hand[p], *weak)
    need, have = DECK.cards[target].boss_ally, DECK.cards[weak[0]].goon_ally
    with pytest.raises(IllegalAction, match=f"^ally {target} needs {need}; your whole hand "
                                            f"makes {have}$"):
        state.command(p, f"ally {target}")
