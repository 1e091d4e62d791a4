"""Every ally power, group by group (rules L133-171), and "once per turn" (rules L135).

``# rules L<n>`` = line n of /work/shared/rules/micromob.md.
"""

from __future__ import annotations

import random

import pytest
from mm_helpers import DECK, clear, drafted, put, with_power

from mobadj.cards.micromob.actions import Done, Take, Use
from mobadj.cards.micromob.bot import MicroMobBot
from mobadj.cards.micromob.engine import MicroMobState, city_size
from mobadj.cards.protocol import IllegalAction, RandomBot


def position(*powers: str, hand: int = 0, players: int = 2) -> tuple[MicroMobState, int, list]:
    """The player to act holds one ally per power (and ``hand`` weak goons)."""
    state = drafted(players, seed=5, modules=players if players > 2 else 2)
    p = state.current
    clear(state, p)
    allies: list[str] = []
    for power in powers:
        cid = next(c for c in with_power(power, 5) if c not in allies and c not in state.city)
        allies.append(cid)
    put(state, state.allies[p], *allies)
    weak = [c for c in DECK.cards if c not in state.city and c not in allies
            and c in state.pile][:hand]
    put(state, state.hand[p], *weak)
    return state, p, allies


def exact_goon(state: MicroMobState, kind: str, value: int) -> str:
    """A goon from the pile adding exactly ``value`` to ``kind``."""
    return next(c for c in state.pile if DECK.cards[c].value(kind) == value)


# -- stat bonuses (rules L141-146) -------------------------------------------------------------
@pytest.mark.parametrize(
    ("power", "helps"),
    [("hit_plus", {"hit"}), ("hire_plus", {"hire"}), ("ally_plus", {"ally"}),
     ("action_plus", {"hit", "hire", "ally"})],
)
def test_stat_bonus_adds_one_to_its_actions_only(power, helps):
    state, p, _ = position(power)
    for kind in ("hit", "hire", "ally"):
        assert state.stat_bonus(p, kind) == (1 if kind in helps else 0)


@pytest.mark.parametrize("kind", ["hit", "hire", "ally"])
def test_stat_bonus_lets_goons_one_short_succeed(kind):
    # rules L141: added in automatically every time you take an action
    state, p, _ = position(f"{kind}_plus")
    target = next(c for c in state.city if DECK.cards[c].threshold(kind) >= 2)
    goon = exact_goon(state, kind, DECK.cards[target].threshold(kind) - 1) if (
        DECK.cards[target].threshold(kind) - 1 <= 3) else None
    if goon is None:  # thresholds above 4: use two goons
        need = DECK.cards[target].threshold(kind) - 1
        a = exact_goon(state, kind, 3)
        put(state, state.hand[p], a)
        goon = exact_goon(state, kind, need - 3)
    put(state, state.hand[p], goon)
    state.apply(p, Take(kind, target, tuple(state.hand[p])))
    assert target not in state.city


def test_stat_bonuses_are_cumulative():
    # rules L141: "These bonuses are cumulative"
    state, p, _ = position("hit_plus", "hit_plus", "action_plus")
    assert state.stat_bonus(p, "hit") == 3
    assert state.stat_bonus(p, "hire") == 1


def test_a_goon_must_be_spent_even_when_bonuses_cover_the_cost():
    # a ruling (docs): bonuses add to the goons you spend; they never act alone
    state, p, _ = position(*["action_plus"] * 5)
    target = next(c for c in state.city if DECK.cards[c].boss_hit <= 5)
    assert state.payment(p, "hit", target) is None  # empty hand
    with pytest.raises(IllegalAction, match="at least one goon"):
        state.apply(p, Take("hit", target, ()))


# -- special abilities (rules L148-157) ---------------------------------------------------------
def test_fatigue_to_hit_moves_a_fatigued_goon_to_the_hit_area():
    # rules L152
    state, p, (a,) = position("fatigue_to_hit", hand=1)
    goon = state.pile[0]
    put(state, state.fatigue[p], goon)
    assert Use(a, goon) in state.legal_actions(p)
    state.command(p, f"use {a} on {goon}")
    assert goon in state.hits[p] and goon not in state.fatigue[p]


def test_ally_to_hit_moves_an_ally_even_itself():
    # rules L153; a ruling: the power card may move itself
    state, p, (a, other) = position("ally_to_hit", "goon_bonus", hand=1)
    state.command(p, f"use {a} on {other}")
    assert other in state.hits[p] and other not in state.allies[p]
    state2, p2, (b,) = position("ally_to_hit", hand=1)
    state2.command(p2, f"use {b} on {b}")
    assert state2.hits[p2] == [b] and not state2.allies[p2]


def test_ally_to_hand_turns_an_ally_into_a_goon_in_hand():
    # rules L154
    state, p, (a, other) = position("ally_to_hand", "hit_plus")
    state.command(p, f"use {a} on {other}")
    assert other in state.hand[p] and other not in state.allies[p]


def test_rest_returns_one_fatigued_goon_to_hand():
    # rules L155
    state, p, (a,) = position("rest")
    g1, g2 = state.pile[0], state.pile[1]
    put(state, state.fatigue[p], g1, g2)
    state.command(p, f"use {a} on {g2}")
    assert state.hand[p] == [g2] and state.fatigue[p] == [g1]


@pytest.mark.parametrize(("players", "base"), [(2, 4), (4, 6)])
def test_expand_draws_a_fifth_or_seventh_city_card_not_refilled(players, base):
    # rules L156: a 5th card in a 2-3p game or a 7th in a 4-6p game
    state, p, (a,) = position("expand", hand=0, players=players)
    top = state.pile[-1]
    state.command(p, f"use {a}")
    assert len(state.city) == base + 1 and state.city[-1] == top
    # a ruling: the extra card is not replaced once taken (the city refills to 4 or 6)
    goon = max(state.pile, key=lambda c: DECK.cards[c].goon_hit)
    put(state, state.hand[p], goon)
    target = min(state.city, key=lambda c: DECK.cards[c].boss_hit)
    put(state, state.hand[p], *[c for c in state.pile if DECK.cards[c].goon_hit >= 2][:4])
    state.apply(p, Take("hit", target, state.payment(p, "hit", target)))
    assert len(state.city) == base


@pytest.mark.parametrize(("players", "most"), [(2, 5), (3, 5), (4, 7), (6, 7)])
def test_expand_never_takes_the_city_past_its_fifth_or_seventh_card(players, most):
    # rules L156: "a 5th card in a 2-3p game or a 7th card in a 4-6p game"; the extra card
    # is not replaced when taken, so until it is, a second expand would add a 6th (8th)
    state, p, (a, b) = position("expand", "expand", players=players)
    state.command(p, f"use {a}")
    assert len(state.city) == most
    assert Use(b) not in state.legal_actions(p)
    with pytest.raises(IllegalAction, match=(
            f"^the city already holds {most} cards: {b} adds only a {most}th card in a "
            f"{players}-player game$")):
        state.apply(p, Use(b))
    assert len(state.city) == most
    # once a city card is taken (and not replaced), the city has room again
    put(state, state.hits[p], state.city[0])
    assert Use(b) in state.legal_actions(p)
    state.command(p, f"use {b}")
    assert len(state.city) == most


@pytest.mark.parametrize(("players", "seed"), [(3, 8), (3, 12), (4, 36)])
def test_bots_keep_the_city_at_its_fifth_or_seventh_card(players, seed):
    """Bots choose from the legal actions: in these seeded games (a random P1 among
    standard bots) bots once took the city to a 6th (8th) card."""
    state = MicroMobState.new(players, seed, {})
    rng = random.Random(seed)
    seats = [RandomBot()] + [MicroMobBot()] * (players - 1)
    most, expands = city_size(players) + 1, 0
    while not state.is_over():
        q = state.current
        action = seats[q].choose(state, q, rng)
        expands += q > 0 and isinstance(action, Use) and DECK.cards[action.card].power == "expand"
        state.apply(q, action)
        assert len(state.city) <= most
    assert expands  # the bots did use the power


def test_expand_unlimited_is_the_reading_of_rulings_1_and_2():
    """Games recorded under rulings 1 or 2 replay with ``expand=unlimited``."""
    state, p, (a, b) = position("expand", "expand")
    state.city_most = MicroMobState.new(2, 5, {"expand": "unlimited"}).city_most
    assert state.city_most is None
    state.command(p, f"use {a}")
    state.command(p, f"use {b}")
    assert len(state.city) == 6
    with pytest.raises(IllegalAction, match="expand must be capped or unlimited, not 'some'"):
        MicroMobState.new(2, 5, {"expand": "some"})


def test_expand_needs_a_deck():
    state, p, (a,) = position("expand")
    put(state, state.hits[1 - p], *list(state.pile))
    assert Use(a) not in state.legal_actions(p)
    with pytest.raises(IllegalAction, match="^the pile is empty: no card to add to the city$"):
        state.apply(p, Use(a))


def test_swap_trades_a_city_card_for_a_goon_from_hand():
    # rules L157
    state, p, (a,) = position("swap", hand=1)
    give = state.hand[p][0]
    take = state.city[2]
    state.command(p, f"use {a} take {take} give {give}")
    assert state.hand[p] == [take] and give in state.city and take not in state.city
    assert len(state.city) == 4


def test_each_special_ability_once_per_turn_and_only_before_the_action():
    # rules L91, L135, L148-150: each once, before taking any action, in any order
    state, p, (a, b) = position("rest", "rest")
    g1, g2, g3 = state.pile[:3]
    put(state, state.fatigue[p], g1, g2, g3)
    state.command(p, f"use {a} on {g1}")
    with pytest.raises(IllegalAction, match="once per turn"):
        state.command(p, f"use {a} on {g2}")
    assert all(u.card != a for u in state.legal_actions(p) if isinstance(u, Use))
    state.command(p, f"use {b} on {g2}")  # a second ally with the same power: cumulative
    target = min(state.city, key=lambda c: DECK.cards[c].boss_hire)
    put(state, state.hand[p], *[c for c in state.pile if DECK.cards[c].goon_money >= 3][:3])
    extra_hire = with_power("extra_hire")[0]
    assert extra_hire not in state.allies[p]
    state.apply(p, Take("hire", target, state.payment(p, "hire", target)))
    assert state.current != p  # no bonus: the turn is over
    # next turn of p: abilities usable again
    q = state.current
    state.command(q, "payroll" if state.fatigue[q] else str(state.legal_actions(q)[-1]))
    while state.current == q:
        state.command(q, "done")
    assert Use(a, g3) in state.legal_actions(p)


def test_no_ability_after_the_action():
    # rules L149: use special abilities before taking any actions
    state, p, (a, b) = position("rest", "extra_hit")
    put(state, state.fatigue[p], state.pile[0])
    put(state, state.hand[p], *[c for c in state.pile if DECK.cards[c].goon_hit >= 3][:6])
    target = min(state.city, key=lambda c: DECK.cards[c].boss_hit)
    state.apply(p, Take("hit", target, state.payment(p, "hit", target)))
    assert state.current == p and state.acted
    with pytest.raises(IllegalAction, match="before your action"):
        state.apply(p, Use(a, state.fatigue[p][0]))


# -- action bonuses (rules L159-164) ----------------------------------------------------------
def rich(state: MicroMobState, p: int, n: int = 12) -> None:
    """Give ``p`` many strong goons."""
    best = sorted(state.pile, key=lambda c: -(DECK.cards[c].goon_hit + DECK.cards[c].goon_money
                                             + DECK.cards[c].goon_ally))
    put(state, state.hand[p], *best[:n])


def take_cheapest(state: MicroMobState, p: int, kind: str) -> None:
    target = min(state.city, key=lambda c: DECK.cards[c].threshold(kind))
    state.apply(p, Take(kind, target, state.payment(p, kind, target)))


@pytest.mark.parametrize("kind", ["hit", "hire", "ally"])
def test_extra_action_of_the_same_kind(kind):
    # rules L161-163: after a hit (hire, ally) you may take another hit (hire, ally)
    state, p, _ = position(f"extra_{kind}")
    rich(state, p)
    take_cheapest(state, p, kind)
    assert state.current == p
    legal = state.legal_actions(p)
    assert Done() in legal
    assert {a.kind for a in legal if isinstance(a, Take)} == {kind}
    take_cheapest(state, p, kind)
    assert state.current != p  # the bonus is used up: the turn ends by itself


def test_specific_bonus_needs_its_action_first():
    # rules L161: the hit bonus follows a hit, not a hire
    state, p, _ = position("extra_hit")
    rich(state, p)
    take_cheapest(state, p, "hire")
    assert state.current != p


def test_any_action_bonus_follows_any_action():
    # rules L164: after ally, hit or hire: one more ally, hit or hire
    state, p, _ = position("extra_action")
    rich(state, p)
    take_cheapest(state, p, "hire")
    kinds = {a.kind for a in state.legal_actions(p) if isinstance(a, Take)}
    assert kinds == {"hit", "hire", "ally"}
    take_cheapest(state, p, "ally")
    assert state.current != p


def test_four_actions_in_a_turn_and_done():
    # rules L159: "2, 3, and sometimes even 4 actions in a turn"
    state, p, _ = position("extra_hit", "extra_hire", "extra_action")
    rich(state, p, 20)
    take_cheapest(state, p, "hit")
    take_cheapest(state, p, "hit")  # extra_hit
    take_cheapest(state, p, "hire")  # extra_action
    take_cheapest(state, p, "hire")  # extra_hire: a hire was taken this turn
    assert state.current != p
    assert sum(1 for _, a in state.actions[-4:] if a.startswith(("hit", "hire"))) == 4


def test_bonus_actions_are_cumulative_and_optional():
    # rules L159: cumulative; "may" take: 'done' ends the turn
    state, p, _ = position("extra_hit", "extra_hit")
    rich(state, p, 20)
    take_cheapest(state, p, "hit")
    take_cheapest(state, p, "hit")
    assert state.current == p
    state.command(p, "done")
    assert state.current != p


def test_no_bonus_after_payroll():
    state, p, _ = position("extra_action")
    put(state, state.fatigue[p], state.pile[0])
    state.command(p, "payroll")
    assert state.current != p


def test_an_ally_taken_as_the_action_gives_its_bonuses_at_once():
    # a ruling (docs/cards/micromob.md): a card allied this turn is in the ally area at once,
    # so its action bonus allows one more action and its stat bonus counts for it (rules
    # L109 "gain its special ally ability or bonus", L141 "added in automatically every time")
    state, p, _ = position()
    rich(state, p, 20)
    extra, plus = with_power("extra_ally")[0], with_power("action_plus")[0]
    put(state, state.city, extra, plus)
    state.apply(p, Take("ally", extra, state.payment(p, "ally", extra)))
    assert state.current == p  # extra_ally, allied just now, allows another ally
    assert {a.kind for a in state.legal_actions(p) if isinstance(a, Take)} == {"ally"}
    state.apply(p, Take("ally", plus, state.payment(p, "ally", plus)))
    assert state.stat_bonus(p, "hit") == 1  # action_plus counts from now on
    assert state.current != p


def test_the_turn_line_names_only_abilities_usable_now():
    """The screen's 'first, if you like, use ...' lists what '?' lists: 'rest a goon' and
    'fatigue to hits' need a fatigued goon, 'swap with city' a goon in hand (rules L152-157)."""
    state, p, (rest, flip, swap, expand) = position("rest", "fatigue_to_hit", "swap", "expand")

    def offered() -> str:
        return next(t for t in state.screen(p).splitlines() if t.startswith("Your turn: "))

    assert offered().endswith(f"; first, if you like, use {expand} add a city card.")
    goon = state.pile[0]
    put(state, state.fatigue[p], goon)
    assert offered().endswith(f"use {rest} rest a goon, {flip} fatigue to hits, "
                              f"{expand} add a city card.")
    put(state, state.hand[p], state.pile[0])
    state.command(p, f"use {rest} on {goon}")
    assert offered().endswith(f"use {swap} swap with city, {expand} add a city card.")
