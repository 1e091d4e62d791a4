"""MicroCityBot: a look-ahead player for every mode.

Outside the preparation phase it searches the rest of its own turn (card, Quarter action,
bonus) on cheap copies of the state with a beam, scoring the end of the turn with a
heuristic: Building stages and Contracts (or victory points), Resources toward what is
still to be paid, Investment markers in the pool, and useful Quarters within reach.  In
the preparation phase it follows rules: free a marker when the pool runs low, turn a die
that is one step from a build it can afford, otherwise end the phase.  It never looks at
future dice (look-ahead copies do not roll).
"""

from __future__ import annotations

import random
from typing import Any

from mobadj.cards.microcity.actions import ChangeDie, Done, RemoveMarker
from mobadj.cards.microcity.engine import MicroCityState
from mobadj.cards.protocol import Bot, GameState

BEAM = (6, 3, 2)


def remaining_cost(st: MicroCityState) -> list[int]:
    """What the open stages and Contracts still cost (coal, steel, wood, money)."""
    need = [0, 0, 0, 0]
    if st.building is not None:
        for k, stage in enumerate(st.building.stages):
            if st.stage_marks[k] < 0:
                need = [a + b for a, b in zip(need, stage.cost, strict=True)]
    for ci, owner in enumerate(st.contract_marks):
        if owner < 0 and not st.cfg.competitive:
            cost = st.city.seaports[ci // 2].contracts[ci % 2].cost
            need = [a + b for a, b in zip(need, cost, strict=True)]
    if st.cfg.competitive:
        open_areas = [
            st.deck.goals[g][ai].cost
            for gi, g in enumerate(st.goals)
            for ai in range(len(st.goal_marks[gi]))
            if st.goal_marks[gi][ai] < 0
        ]
        open_areas.sort(key=sum)
        for cost in open_areas[:2]:
            need = [a + b for a, b in zip(need, cost, strict=True)]
    return need


def evaluate(st: MicroCityState, player: int) -> float:
    """Heuristic worth of a position for ``player`` (their team in the cooperative game)."""
    if st.result == "win":
        return 1e9
    if st.result == "loss":
        return -1e9
    team = [player] if st.cfg.competitive else list(range(st.players))
    v = 0.0
    if st.cfg.competitive:
        v += 100.0 * (st.vp[player] - st.vp[1 - player])
        v += 60.0 * len(st.adv_taken[player])
    else:
        done = sum(1 for o in st.stage_marks if o >= 0)
        if st.cfg.mode == "extended" and st.building_side == "B":
            done += len(st.deck.basic_building["A"].stages)
        v += 1000.0 * done + 900.0 * sum(1 for o in st.contract_marks if o >= 0)
    need = remaining_cost(st)
    held = [sum(st.res[p][i] for p in team) for i in range(4)]
    v += 60.0 * _ready(st, team)
    for i in range(4):
        useful = min(held[i], need[i])
        v += 40.0 * useful + (6.0 if i == 3 else 4.0) * (held[i] - useful)
    pool = st.pools[st.pool_of(player)]
    v += 30.0 * min(pool, max(st.time, 1)) + 5.0 * pool
    v += 8.0 * st.sides.count("B")
    v += 3.0 * len(st.hands[st.hand_owner(player)])
    for p in team:
        v += _reach_value(st, p, need)
    return v


def _ready(st: MicroCityState, team: list[int]) -> int:
    """1 when one player alone can pay an open stage now (a build needs one Company)."""
    if st.building is None:
        return 0
    for k, stage in enumerate(st.building.stages):
        if st.stage_marks[k] >= 0:
            continue
        for p in team:
            if all(h >= c for h, c in zip(st.res[p], stage.cost, strict=True)):
                return 1
        if st.building.ordered:
            return 0
    return 0


def _reach_value(st: MicroCityState, player: int, need: list[int]) -> float:
    """Unmarked useful Quarters within two steps of the Engineer (next turn's options)."""
    here = st.engineer[player]
    if here < 0:
        return 0.0
    near = set(st.city.destinations(here, 1)) | set(st.city.destinations(here, 2))
    v = 0.0
    for c in near:
        if st.inv[c] >= 0:
            continue
        spec = st.city.specs[c]
        if spec is None:
            continue
        if spec.type == "residential":
            v += 4.0 + len(st.quarter_dice(c))
        elif spec.type == "industrial" and spec.material:
            idx = ("coal", "steel", "wood").index(spec.material)
            v += 3.0 if need[idx] > st.res[player][idx] else 0.5
        elif spec.type in ("commercial", "logistics", "seaport"):
            v += 1.5
    return v


class MicroCityBot(Bot):
    """Beam look-ahead over its own turn; rule-based preparation (see the module doc)."""

    def choose(self, state: GameState, player: int, rng: random.Random) -> Any:
        assert isinstance(state, MicroCityState)
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        if state.step == "prep":
            return self._prep(state, player, acts)
        if state.step == "assign":
            return self._assign(state, player, acts)
        scored = self._search(state, player, acts, 0)
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v == best]
        return top[0] if len(top) == 1 else rng.choice(top)

    def _search(
        self, st: MicroCityState, player: int, acts: list[Any], depth: int
    ) -> list[tuple[float, Any]]:
        children = []
        for a in acts:
            child = st.clone()
            child._apply(player, a)
            children.append((evaluate(child, player), a, child))
        children.sort(key=lambda t: -t[0])
        width = BEAM[min(depth, len(BEAM) - 1)]
        out = []
        for i, (v, a, child) in enumerate(children):
            if i < width and self._continues(st, child, player):
                nxt = child.legal_actions(player)
                if nxt:
                    v = max(x for x, _ in self._search(child, player, nxt, depth + 1))
            out.append((v, a))
        return out

    @staticmethod
    def _continues(before: MicroCityState, after: MicroCityState, player: int) -> bool:
        return (
            after.result is None
            and after.turn == before.turn
            and after.current == player
            and after.step not in ("prep", "assign", "start")
        )

    def _assign(self, st: MicroCityState, player: int, acts: list[Any]) -> Any:
        """Cooperative dice split: the split whose best turns (both players) score most."""
        best = None
        for a in acts:
            trial = st.clone()
            trial._apply(player, a)
            total = 0.0
            for p in (0, 1):
                turn = trial.clone()
                turn.current, turn.step = p, "project"
                turn.__dict__["_cache"] = None
                nxt = turn.legal_actions(p)
                total += max(v for v, _ in self._search(turn, p, nxt, 1))
            if best is None or total > best[0]:
                best = (total, a)
        return best[1] if best else acts[0]

    def _prep(self, st: MicroCityState, player: int, acts: list[Any]) -> Any:
        res = st.res[player]
        need = remaining_cost(st)
        surplus = [res[i] - need[i] for i in range(4)]

        def cheapest(options: list[Any]) -> Any | None:
            """The option paid with the resource we can best spare (money counts double)."""
            best = None
            for a in options:
                i = ("coal", "steel", "wood", "money").index(a.pay)
                spare = surplus[i] - (1 if a.pay == "money" else 0)
                if spare >= 0 and (best is None or spare > best[0]):
                    best = (spare, a)
            return best[1] if best else None

        pool = st.pools[st.pool_of(player)]
        if pool <= 1 and st.time > 1:
            pick = cheapest([a for a in acts if isinstance(a, RemoveMarker)])
            if pick is not None:
                return pick
        wanted = self._build_dice(st, player)
        dice = st.own_dice(player)
        if wanted and not any(st.dice[i] in wanted for i in dice):
            for i in dice:
                for up in (True, False):
                    val = (st.dice[i] + (1 if up else -1) - 1) % 6 + 1
                    if val in wanted:
                        pick = cheapest([
                            a for a in acts
                            if isinstance(a, ChangeDie) and a.die == i + 1 and a.up == up
                        ])
                        if pick is not None:
                            return pick
        return Done()

    @staticmethod
    def _build_dice(st: MicroCityState, player: int) -> set[int]:
        """Die values that would let us complete something affordable this turn."""
        res = st.res[player]
        affordable = False
        if st.building is not None and st.pools[st.pool_of(player)] > 0:
            for k, stage in enumerate(st.building.stages):
                if st.stage_marks[k] < 0 and all(h >= c for h, c in zip(res, stage.cost,
                                                                         strict=True)):
                    affordable = True
                    if st.building.ordered:
                        break
                elif st.building.ordered and st.stage_marks[k] < 0:
                    break
        if st.cfg.competitive:
            affordable = any(
                st.goal_marks[gi][ai] < 0 and all(h >= c for h, c in zip(res, a.cost,
                                                                         strict=True))
                for gi, g in enumerate(st.goals) for ai, a in enumerate(st.deck.goals[g])
            )
        if not affordable:
            return set()
        wanted: set[int] = set()
        here = st.engineer[player]
        hand = st.hands[st.hand_owner(player)]
        for card in set(hand):
            proj = st.project(card)
            if proj.advanced == {"build": True}:
                wanted.add(proj.die)
            for c in st.city.destinations(here, proj.move):
                spec = st.city.specs[c]
                if spec is not None and spec.type == "residential" and st.inv[c] < 0:
                    wanted.update(st.quarter_dice(c))
        return wanted
