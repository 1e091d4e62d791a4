"""The bots: always legal, blind to others' secrets, better than random play; the standard
bot better than the basic one, and playing for its own secret role."""

from __future__ import annotations

import copy
import random

import pytest

from mobadj.cards.duel import duel
from mobadj.cards.irontriangle.balance import play_out
from mobadj.cards.irontriangle.bot import (
    IronTriangleBasicBot,
    IronTriangleBot,
    IronTriangleIntermediateBot,
    role_chance,
)
from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.protocol import Bot, RandomBot


def test_the_bot_beats_random_players() -> None:
    # seeded: 300 four-player games, the bot in each seat in turn against three random players
    rng = random.Random(5)
    games, wins = 300, 0
    for i in range(games):
        seat = i % 4
        seats: list[Bot] = [RandomBot()] * 4
        seats[seat] = IronTriangleBot()
        s = IronTriangleState.new(4, 1000 + i)
        play_out(s, seats, rng)
        wins += seat in s.winners()
    assert wins / games > 0.4  # random play wins a quarter


def test_bot_actions_are_always_legal() -> None:
    bot = IronTriangleBot()
    rng = random.Random(2)
    for seed in range(8):
        s = IronTriangleState.new(3 + seed % 4, seed)
        while not s.is_over():
            p = rng.choice(s.to_act())
            action = bot.choose(s, p, rng)
            assert action in s.legal_actions(p)
            s.apply(p, action)


def _scramble_secrets(s: IronTriangleState, player: int, rng: random.Random) -> IronTriangleState:
    """The same position as ``player`` sees it, with everything hidden from them changed."""
    t = copy.copy(s)
    t.hands = [list(h) for h in s.hands]
    t.offers = dict(s.offers)
    t.draw_pile = list(s.draw_pile)
    pool = list(t.draw_pile)
    for p in range(t.players):
        if p != player:
            pool += t.hands[p]
            pool += [t.offers[p]] if p in t.offers else []
    rng.shuffle(pool)
    for p in range(t.players):
        if p != player:
            t.hands[p] = [pool.pop() for _ in t.hands[p]]
            if p in t.offers:
                # the back stays what everyone saw; only the card behind it may differ
                back = t.deck.cards[t.offers[p]].back
                same = [c for c in pool if t.deck.cards[c].back == back]
                if same:
                    pool.remove(same[0])
                    pool.append(t.offers[p])
                    t.offers[p] = same[0]
    t.draw_pile = pool
    others = [r for r in range(len(t.deck.roles)) if r != t.roles[player]]
    rng.shuffle(others)
    t.roles = [t.roles[p] if p == player else others.pop() for p in range(t.players)]
    return t


@pytest.mark.parametrize("bot", [IronTriangleBot(), IronTriangleIntermediateBot(),
                                 IronTriangleBasicBot()],
                         ids=["standard", "intermediate", "basic"])
def test_the_bot_decides_only_on_what_its_seat_may_see(bot: Bot) -> None:
    rng = random.Random(7)
    for seed in range(4):
        s = IronTriangleState.new(5, seed)
        while not s.is_over():
            p = rng.choice(s.to_act())
            if len(s.actions) % 3 == 0:
                other = _scramble_secrets(s, p, random.Random(len(s.actions)))
                assert bot.choose(s, p, random.Random(1)) == bot.choose(other, p,
                                                                        random.Random(1))
            s.apply(p, bot.choose(s, p, rng))


def test_balance_figures_script_runs() -> None:
    from mobadj.cards.irontriangle.balance import STRATEGIES, balance, strategies

    figures = balance(6, 3, "mixed")
    assert figures["games"] == 6 and abs(sum(figures["win_share_by_seat"].values()) - 1) < 0.01
    assert abs(sum(figures["picks_by_back"].values()) - 1.0) < 0.01
    shares = strategies(3, 3)
    assert set(shares) == set(STRATEGIES) and all(0 <= v <= 1 for v in shares.values())


def test_the_standard_bot_beats_the_basic_one() -> None:
    # 300 seeded 5-player games, the standard bot in one rotating seat: fair share 1/5
    result = duel("irontriangle", IronTriangleBot(), IronTriangleBasicBot(), 300, seed=31,
                  players=5)
    assert result["win_rate"] > 0.24, result


def test_the_standard_bot_beats_the_one_before_it() -> None:
    # 300 seeded 5-player games (make bench plays 1,000), one rotating seat: fair share 1/5
    result = duel("irontriangle", IronTriangleBot(), IronTriangleIntermediateBot(), 300,
                  seed=7, players=5)
    assert result["win_rate"] > 0.21, result


def _hustler_game(seed: int) -> tuple[IronTriangleState, int] | None:
    s = IronTriangleState.new(5, seed)
    seat = next((p for p in range(5) if s.deck.roles[s.roles[p]].name == "The Hustler"), None)
    return None if seat is None else (s, seat)


def test_the_hustler_keeps_its_money() -> None:
    """The bot before it, a Hustler (+4 with $15 or more at the end), paid its way down to a
    few dollars as Mob Boss and met its role in 3 games of 10; the standard bot keeps it."""
    met = {IronTriangleBot: 0, IronTriangleIntermediateBot: 0}
    games = 0
    for seed in range(2000, 2060):
        found = _hustler_game(seed)
        if found is None:
            continue
        games += 1
        for cls in met:
            s, seat = _hustler_game(seed)  # type: ignore[misc]
            bots: list[Bot] = [IronTriangleIntermediateBot() for _ in range(5)]
            bots[seat] = cls()
            play_out(s, bots, random.Random(seed))
            met[cls] += s.money[seat] >= 15
    assert games > 30
    assert met[IronTriangleBot] >= 1.5 * met[IronTriangleIntermediateBot]
    assert met[IronTriangleBot] > games / 2


def test_the_boss_asks_for_what_its_role_and_money_need() -> None:
    """A Hustler near its mark asks for CHEAP (the offers it gets then cost $1 or $2); far
    above it, it asks for FAST like any boss whose days are worth more than its dollars."""
    s, seat = next(f for f in map(_hustler_game, range(100)) if f is not None)
    s.boss = seat
    asked = {}
    for money in (14, 16, 35):
        s.money[seat] = money
        asked[money] = IronTriangleBot()._job(s, seat).feature
    assert asked == {14: "cheap", 16: "cheap", 35: "fast"}
    assert role_chance(s, seat, 14, 0) < role_chance(s, seat, 16, 0) < 1


def test_the_intermediate_bot_prices_follow_its_role() -> None:
    s = IronTriangleState.new(5, 3)
    bot, basic = IronTriangleIntermediateBot(), IronTriangleBasicBot()
    by_role = {}
    for p in range(5):
        role = s.deck.roles[s.roles[p]]
        by_role[next(iter(role.condition))] = bot.prices(s, p)
        assert basic.prices(s, p) == basic.prices(s, 0)  # the basic bot ignores its role
    base_star, base_dollar = IronTriangleIntermediateBot.star, IronTriangleIntermediateBot.dollar
    if "most" in by_role:
        star, dollar, _ = by_role["most"]
        assert star > base_star or dollar > base_dollar
    for kind, (star, dollar, _) in by_role.items():
        assert (star, dollar) != (base_star, base_dollar) or kind == "least"
