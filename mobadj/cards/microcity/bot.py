"""Micro City bots: ``MicroCityBot`` (level "standard", the default) and the first bot,
``MicroCityBasicBot`` (level "basic"), kept so that the two can be compared.

Both are the look-ahead player described here; the standard bot differs in the competitive
mode only: the basic one frees a marker by paying to remove *any* marker when its pool runs
low, and a removed marker goes back to its owner, so it often paid to hand its opponent a
marker; it also saw no harm in an effect removing the opponent's markers.  The standard bot
removes only its own markers to refill its pool, and counts the opponent's markers in pool
against a position.

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

from mobadj.cards.microcity.actions import ChangeDie, Done, RemoveMarker, Sell
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


class MicroCityBasicBot(Bot):
    """The first bot (level "basic"): beam look-ahead over its own turn, rule-based
    preparation (see the module doc)."""

    def evaluate(self, st: MicroCityState, player: int) -> float:
        return evaluate(st, player)

    def removals(self, st: MicroCityState, player: int, acts: list[Any]) -> list[Any]:
        """The marker removals the preparation phase may use to refill the pool."""
        return [a for a in acts if isinstance(a, RemoveMarker)]

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
        self, st: MicroCityState, player: int, acts: list[Any], depth: int,
        beam: tuple[int, ...] = BEAM,
    ) -> list[tuple[float, Any]]:
        children = []
        for a in acts:
            child = st.clone()
            child._apply(player, a)
            children.append((self.evaluate(child, player), a, child))
        children.sort(key=lambda t: -t[0])
        width = beam[min(depth, len(beam) - 1)]
        out = []
        for i, (v, a, child) in enumerate(children):
            if i < width and self._continues(st, child, player):
                nxt = child.legal_actions(player)
                if nxt:
                    v = max(x for x, _ in self._search(child, player, nxt, depth + 1, beam))
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
            pick = cheapest(self.removals(st, player, acts))
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


OPPONENT_MARKER = 30.0  # what a marker in the opponent's pool is worth to the opponent
ADVANTAGE_PROGRESS = 100.0  # per victory point of a face-up Advantage card, when nearly met


def advantage_progress(st: MicroCityState, player: int, cond: dict[str, Any]) -> float:
    """How far ``player`` is toward an Advantage card's condition, 0..1."""
    ((kind, arg),) = cond.items()
    r = st.res[player]
    if kind == "money":
        done = r[3] / arg
    elif kind == "each_material":
        done = sum(min(1.0, x / arg) for x in r[:3]) / 3
    elif kind == "materials":
        done = sum(r[:3]) / arg
    elif kind == "board_markers":
        done = st.inv.count(player) / arg
    elif kind == "type_markers":
        specs = st.city.specs
        done = sum(1 for c in range(18) if st.inv[c] == player and (spec := specs[c]) is not None
                   and spec.type == arg["type"]) / arg["count"]
    elif kind == "goals":
        done = sum(row.count(player) for row in st.goal_marks) / arg
    elif kind == "upgraded":
        done = st.sides.count("B") / arg
    elif kind == "discards":
        done = len(st.discards[player]) / arg
    else:  # empty_pool
        done = 1 - st.pools[player] / st.deck.competitive["markers"]
    return min(1.0, done)


class MicroCityIntermediateBot(MicroCityBasicBot):
    """Level "intermediate", the standard bot before :class:`MicroCityBot`: in the
    competitive mode it never pays to hand the opponent a marker back, and counts the
    opponent's markers in pool against a position."""

    def evaluate(self, st: MicroCityState, player: int) -> float:
        v = evaluate(st, player)
        if st.cfg.competitive and st.result is None:
            v -= OPPONENT_MARKER * st.pools[1 - player]
            for adv in st.adv_row:  # the face-up Advantage cards it is getting close to
                card = st.deck.advantages[adv - 1]
                v += ADVANTAGE_PROGRESS * card.vp * advantage_progress(st, player,
                                                                       card.condition) ** 2
        return v

    def removals(self, st: MicroCityState, player: int, acts: list[Any]) -> list[Any]:
        mine = st.pool_of(player)
        return [a for a in acts
                if isinstance(a, RemoveMarker) and st.inv[st.cell(a.quarter)] == mine]


SURPLUS = (1.0, 1.0, 1.0, 1.5)  # worth of a Resource held beyond what is still to pay
EPSILON = 1.0  # a preparation step must gain this much over ending the phase
FREE_AT = 2  # markers left in the pool when freeing one of its own is worth a look


class MicroCityBot(MicroCityIntermediateBot):
    """Level "standard" (the default): spends its Resources and wastes no action.

    The bot before it valued every Resource it held, needed or not, nearly as much as a
    needed one, so it sat on 8 to 10 of them for rounds; and in the preparation phase it
    turned a die toward a build by rule, then often did not build (the turn's search found
    better, or could not reach the Quarter), having paid for nothing.  This bot values a
    Resource beyond what is still to be paid at :data:`SURPLUS` only, sells a Material it
    cannot use when money serves better, and takes a preparation step (turn a die, free a
    marker of its own) only when the search of the turn that follows, done with that step
    and without it, finds the step worth more than it costs (by :data:`EPSILON`): a die is
    turned only for a turn that uses it."""

    def evaluate(self, st: MicroCityState, player: int) -> float:
        v = super().evaluate(st, player)
        team = [player] if st.cfg.competitive else list(range(st.players))
        need = remaining_cost(st)
        held = [sum(st.res[p][i] for p in team) for i in range(4)]
        for i in range(4):  # the earlier bot's worth of a Resource beyond need, put right
            extra = held[i] - min(held[i], need[i])
            v -= ((6.0 if i == 3 else 4.0) - SURPLUS[i]) * extra
        return v

    def _prep(self, st: MicroCityState, player: int, acts: list[Any]) -> Any:
        if st.cfg.coop:  # the partner prepares before this turn is played: by rule
            return super()._prep(st, player, acts)
        steps = self._prep_steps(st, player, acts)
        now = self.evaluate(st, player)
        for a in steps:  # a Material sold: worth it or not, it changes no turn to come
            if isinstance(a, Sell):
                child = st.clone()
                child._apply(player, a)
                if self.evaluate(child, player) > now + EPSILON:
                    return a
        done = next(a for a in acts if isinstance(a, Done))
        best_value = self._after(st, player, done) + EPSILON
        best: Any = done
        for a in steps:
            if not isinstance(a, Sell):
                value = self._after(st, player, a)
                if value > best_value:
                    best_value, best = value, a
        return best

    def _prep_steps(self, st: MicroCityState, player: int, acts: list[Any]) -> list[Any]:
        """The preparation steps worth a look: each die turned either way, and each own
        marker freed, paid with the Resource it can best spare; a Material sold that is
        beyond what is still to be paid."""
        need = remaining_cost(st)
        res = st.res[player]
        spare = [res[i] - need[i] - (1 if i == 3 else 0) for i in range(4)]
        cheapest: dict[tuple[Any, ...], Any] = {}
        for a in acts:
            if isinstance(a, ChangeDie):
                key: tuple[Any, ...] = ("die", a.die, a.up)
            elif isinstance(a, RemoveMarker) and a in self.removals(st, player, [a]) and \
                    st.pools[st.pool_of(player)] <= FREE_AT:
                key = ("free", a.quarter)
            elif isinstance(a, Sell):
                i = ("coal", "steel", "wood").index(a.material)
                if spare[i] >= 0:
                    cheapest[("sell", a.material)] = a
                continue
            else:
                continue
            i = ("coal", "steel", "wood", "money").index(a.pay)
            if spare[i] >= 0 and (key not in cheapest or spare[i] > spare[
                    ("coal", "steel", "wood", "money").index(cheapest[key].pay)]):
                cheapest[key] = a
        return list(cheapest.values())

    def _after(self, st: MicroCityState, player: int, action: Any) -> float:
        """The worth of the best turn that follows ``action`` in the preparation phase (the
        phase ended at once when it ended; no dice are rolled in a look-ahead)."""
        child = st.clone()
        child._apply(player, action)
        if child.step == "prep" and child.current == player and not isinstance(action, Done):
            child._apply(player, Done())
        if child.current != player or child.step in ("prep", "assign", "start") \
                or child.result is not None:
            return self.evaluate(child, player)
        nxt = child.legal_actions(player)
        if not nxt:
            return self.evaluate(child, player)
        return max(v for v, _ in self._search(child, player, nxt, 0, LOOK_BEAM))


LOOK_BEAM = (4, 2, 2)  # the look-ahead of a preparation step: narrower than a move's search


BOT_LEVELS: dict[str, type[Bot]] = {"standard": MicroCityBot,
                                    "intermediate": MicroCityIntermediateBot,
                                    "basic": MicroCityBasicBot}
