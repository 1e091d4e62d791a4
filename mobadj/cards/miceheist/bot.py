"""A Mice Heist bot that estimates its chances instead of acting at random.

It selects the obstacle with the best expected track gain (and only attempts a finale when
ending the game now would make it win), bets when the tester looks likely to succeed
(first the cheese lying on its own covered skills, which scores nothing), activates just
enough skills to reach the target, and learns the strongest skill on offer.
"""

from __future__ import annotations

import math
import random
from typing import Any

from mobadj.cards.miceheist import tracks
from mobadj.cards.miceheist.actions import Bet, Learn, Select, Test, Use
from mobadj.cards.miceheist.data import Obstacle, Skill
from mobadj.cards.miceheist.engine import MiceHeistState
from mobadj.cards.protocol import Bot, GameState

STALL_TURN = 30  # after this turn, with only finales left, the bot tries to end the game
CHIP_SPREAD = 2.5  # rough spread of the two chips' total (their mean is 0)


def chance(margin: float) -> float:
    """Rough probability that the chips make up ``margin`` (rating minus target)."""
    return 1.0 / (1.0 + math.exp(-(margin + 0.5) / (CHIP_SPREAD * 0.6)))


def skill_value(
    skill: Skill, ob: Obstacle, assisting: int = 0, chips: list[int] | None = None
) -> float:
    """Expected rating a skill adds on ``ob``; ``chips``: face values of this test's live
    chips (flip and cancel are valued on them), None before the draw."""
    value = 0.0
    for e in skill.effects:
        if not ob.meets(e.condition):
            continue
        if e.kind == "bonus":
            value += e.value
        elif e.kind == "per_icon":
            value += e.value * len(ob.icons)
        elif e.kind == "per_assist":
            value += e.value * assisting
        elif e.kind in ("flip", "cancel"):
            value += 1.5 if chips is None else 0.0
        elif e.kind == "draw":
            value += 0.2
        elif e.kind == "retreat":
            value -= 0.3 * e.value
    return value


def general_value(skill: Skill) -> float:
    """How good a skill is to own, averaged over obstacles (for learning and discarding)."""
    value = 0.0
    for e in skill.effects:
        weight = 1.0 if e.condition is None else (0.2 if e.condition == "finale" else 0.45)
        v = {
            "bonus": e.value,
            "per_icon": 1.2 * e.value,
            "per_assist": 1.0 * e.value,
            "flip": 1.6,
            "cancel": 1.8,
            "draw": 0.3,
            "gain": 0.9 * e.value,
            "advance": 0.8 * e.value,
            "retreat": -0.6 * e.value,
            "bounty": 0.3 * e.value,
        }
        value += weight * v[e.kind]
    return value


class MiceHeistBot(Bot):
    """Greedy on the expected value of the current test."""

    def choose(self, state: GameState, player: int, rng: random.Random) -> Any:
        assert isinstance(state, MiceHeistState)
        phase = state.phase
        if phase == "select":
            return self._select(state, player)
        if phase == "bet":
            return self._bet(state, player)
        if phase == "activate":
            return self._activate(state, player)
        return self._learn(state, player)

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def _potential(state: MiceHeistState, player: int, ob: Obstacle, extra: int = 0) -> float:
        """Best rating reachable with the cheese the player has (plus ``extra``)."""
        skills = state.data.skills
        values = sorted(
            (
                skill_value(skills[k], ob)
                for k in state.skills[player]
                if k not in state.covered[player]
            ),
            reverse=True,
        )
        budget = state.stash[player] + extra
        return sum(v for v in values[:budget] if v > 0)

    @classmethod
    def _end_ok(cls, state: MiceHeistState, player: int, job: str, gain: int) -> bool:
        """Should the bot end the game (beat a finale)?  When it would win, or when only
        finales are left and the game drags on (someone must end it)."""
        if cls._wins_if_over(state, player, job, gain):
            return True
        tops = [s[0] for s in state.stacks.values() if s]
        stalled = all(state.data.obstacles[o].finale for o in tops)
        return stalled and state.turn >= STALL_TURN

    @staticmethod
    def _wins_if_over(state: MiceHeistState, player: int, job: str, gain: int) -> bool:
        """Would ``player`` win if the game ended now with ``gain`` more spaces on ``job``?"""
        pos = {j: list(state.pos[j]) for j in state.data.jobs}
        spaces = list(state.track[job])
        tracks.move(spaces, pos[job], player, gain)
        totals = list(state.stash)
        for j in state.data.jobs:
            food = [v for v, _ in state.food[j]]
            for rank, p in enumerate(tracks.standing(pos[j])):
                totals[p] += food[rank] if rank < len(food) else 1
        best = max(totals)
        return totals[player] == best and totals.count(best) == 1

    def _place_value(self, state: MiceHeistState, player: int, job: str, gain: int) -> float:
        """Food the player is on course for on ``job`` after ``gain`` spaces, minus now."""

        def worth(pos: list[int]) -> float:
            food = [v for v, _ in state.food[job]]
            order = tracks.standing(pos)
            if player not in order:
                return 0.0
            rank = order.index(player)
            return food[rank] if rank < len(food) else 1.0

        pos = list(state.pos[job])
        before = worth(pos)
        tracks.move(list(state.track[job]), pos, player, gain)
        return worth(pos) - before + 0.4 * gain

    # -- choices -------------------------------------------------------------------------
    def _select(self, state: MiceHeistState, player: int) -> Select:
        best, best_job = -1e9, None
        for j in state.data.jobs:
            stack = state.stacks[j]
            if not stack:
                continue
            ob = state.data.obstacles[stack[0]]
            p = chance(self._potential(state, player, ob) - ob.target)
            value = p * self._place_value(state, player, j, ob.payout) + (1 - p) * 0.5
            value += 0.3 * state.obstacle_cheese.get(ob.id, 0) * p
            if ob.finale:
                value = 50 * p if self._end_ok(state, player, j, ob.payout) else -20 - p
            if value > best:
                best, best_job = value, j
        assert best_job is not None
        return Select(best_job)

    def _bet(self, state: MiceHeistState, player: int) -> Bet:
        ob = state.obstacle
        assert ob is not None
        covered = [k for k in state.skills[player] if k in state.covered[player]]
        tester = state.tester
        p = chance(self._potential(state, tester, ob, extra=len(covered) + 1) - ob.target)
        if ob.finale and not self._end_ok(state, player, ob.job, len(covered) + 1):
            p = 0.0  # never help end a game we would lose
        gain = self._place_value(state, player, ob.job, max(1, len(covered)))
        if p >= 0.5 and gain > 0.5:
            amount = len(covered) + (1 if p >= 0.75 and state.stash[player] >= 3 else 0)
            if amount == 0 and state.stash[player] >= 2:
                amount = 1
            if amount:
                return Bet(amount)
        return Bet(0, (covered[0],) if covered else ())

    def _activate(self, state: MiceHeistState, player: int) -> Any:
        ob = state.obstacle
        assert ob is not None
        if ob.finale and not self._end_ok(state, player, ob.job, ob.payout):
            return Test()  # fail on purpose rather than end a game we would lose
        need = ob.target - state.rating()
        if need <= 0 or state.stash[player] < 1:
            return Test()
        chips = state.data.chips
        live = [
            (i + 1, chips[c].faces[f], chips[c].faces[1 - f])
            for i, (c, f, x) in enumerate(state.test_chips)
            if not x
        ]
        options: list[tuple[float, Use]] = []
        for k in state.skills[player]:
            if k in state.covered[player]:
                continue
            skill = state.data.skills[k]
            base = skill_value(skill, ob, len(state.assisting), [v for _, v, _ in live])
            targeted = any(
                e.kind in ("flip", "cancel") and ob.meets(e.condition) for e in skill.effects
            )
            if targeted and not live:
                continue  # every chip is set aside: nothing to flip or cancel
            if targeted:
                flip = any(e.kind == "flip" and ob.meets(e.condition) for e in skill.effects)
                best_gain, best_chip = -99.0, live[0][0]
                for i, now, other in live:
                    g = (other - now) if flip else -now
                    if g > best_gain:
                        best_gain, best_chip = g, i
                options.append((base + best_gain, Use(k, best_chip)))
            else:
                options.append((base, Use(k)))
        options.sort(key=lambda o: -o[0])
        reachable = sum(v for v, _ in options[: state.stash[player]] if v > 0)
        if reachable < need - 1 or not options or options[0][0] <= 0:
            return Test()  # hopeless: keep the cheese
        enough = [o for o in options if o[0] >= need]
        return (enough[-1] if enough else options[0])[1]

    def _learn(self, state: MiceHeistState, player: int) -> Learn:
        skills = state.data.skills
        if not state.market:
            return Learn()
        best = max(state.market, key=lambda k: general_value(skills[k]))
        mine = state.skills[player]
        if len(mine) < state.data.max_skills:
            return Learn(best)
        worst = min(mine, key=lambda k: general_value(skills[k]))
        if general_value(skills[best]) > general_value(skills[worst]) + 0.5:
            return Learn(best, worst)
        return Learn()
