"""Primitive operations on the state (gain, pay, mark, unmark, build) and the game's end.

Effects and phases decide *what* happens; these functions do it, keeping the rules that hold
everywhere: Resources stop at 5, removed markers go back to their owner's pool, completing
the last stage wins at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobadj.cards.microcity.board import SEAPORT_CELLS
from mobadj.cards.microcity.cards import MAX_RESOURCE, RES_INDEX
from mobadj.cards.microcity.effects import Op, Option, area_name

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState


def gain(st: MicroCityState, player: int, i: int, n: int) -> int:
    """Gains stop at 5; the excess is lost (rulebook "COMPANY CARDS").  The amount
    received, so that the log tells what really came."""
    r = st.res[player]
    before = r[i]
    r[i] = min(MAX_RESOURCE, before + n)
    return r[i] - before


def capped(what: str, n: int, got: int) -> str:
    """How a gain of ``n`` ``what`` that brought ``got`` is told: "+1 money", or what the cap
    of 5 swallowed ("+1 money, lost: money is already at 5")."""
    if got == n:
        return f"+{n} {what}"
    if got == 0:
        return f"+{n} {what}, lost: {what} is already at {MAX_RESOURCE}"
    return f"+{got} {what} ({n - got} lost: {MAX_RESOURCE} is the most)"


def affordable(res: list[int], cost: tuple[int, ...]) -> bool:
    return all(h >= c for h, c in zip(res, cost, strict=False))


def cost_ops(player: int, cost: tuple[int, ...]) -> list[Op]:
    return [("pay", player, i, n) for i, n in enumerate(cost) if n]


def pay(st: MicroCityState, player: int, what: str) -> None:
    st.res[player][RES_INDEX[what]] -= 2 if what == "money" else 1


def build_options(st: MicroCityState, player: int, builds: tuple[str, ...]) -> list[Option]:
    """Complete a Building stage, Goal area or Contract: pay, and mark it with a marker."""
    out: list[Option] = []
    res = st.res[player]
    comp = st.cfg.competitive
    pool = st.pool_of(player)
    if "stage" in builds and st.building is not None and st.pools[pool] > 0:
        # "This action cannot be performed if there are no Investment markers available."
        open_stages = [k for k, o in enumerate(st.stage_marks) if o < 0]
        if st.building.ordered and open_stages:
            open_stages = open_stages[:1]  # challenge: "Starting with stage 1, then 2 etc."
        for k in open_stages:
            cost = st.building.stages[k].cost
            if affordable(res, cost):
                out.append((("stage", str(k + 1)), cost_ops(player, cost) + [("stage", k, pool)]))
    marker_sources: list[tuple[tuple[str, ...], list[Op]]] = []
    if comp:
        if st.pools[pool] > 0:
            marker_sources = [((), [])]
        else:  # "voluntarily lose 1 victory point and retrieve 1 Investment marker"
            marker_sources = [
                (("from", name), [("take_back", player, name, area)])
                for name, area in st.removable_areas(player)
                if area_owner(st, area) == player
            ]
    if "goal" in builds and comp:
        for gi, g in enumerate(st.goals):
            for ai, area in enumerate(st.deck.goals[g]):
                if st.goal_marks[gi][ai] >= 0 or not affordable(res, area.cost):
                    continue
                for words, pre in marker_sources:
                    if pre and pre[0][3] == ("goal", gi, ai):
                        continue
                    out.append(
                        (("goal", f"{gi + 1}.{ai + 1}", *words),
                         pre + cost_ops(player, area.cost) + [("goal", gi, ai, player)])
                    )
    ports = [b for b in builds if b.startswith("contract")]
    if ports and st.contract_marks:
        only = None if ports[0] == "contract" else int(ports[0].split(":")[1])
        for ci, owner in enumerate(st.contract_marks):
            if owner >= 0 or (only is not None and ci // 2 != only):
                continue
            contract = st.city.seaports[ci // 2].contracts[ci % 2]
            if not affordable(res, contract.cost):
                continue
            name = area_name(("contract", ci))
            if comp:
                for words, pre in marker_sources:
                    if pre and pre[0][3] == ("contract", ci):
                        continue
                    out.append((("contract", name, *words),
                                pre + cost_ops(player, contract.cost) + [("contract", ci, player)]))
            elif st.contract_pool > 0:
                out.append((("contract", name),
                             cost_ops(player, contract.cost) + [("contract", ci, 0)]))
    return out


def area_owner(st: MicroCityState, area: Op) -> int:
    if area[0] == "cell":
        return st.inv[area[1]]
    if area[0] == "stage":
        return st.stage_marks[area[1]]
    if area[0] == "goal":
        return st.goal_marks[area[1]][area[2]]
    return st.contract_marks[area[1]]


def building_done(st: MicroCityState) -> bool:
    return st.building is not None and all(o >= 0 for o in st.stage_marks)


def check_goal(st: MicroCityState) -> None:
    """Victory "immediately when the final stage of a Building is completed" (extended: of
    side B; with the Seaport in solo/cooperative play also all 4 Contracts)."""
    if st.cfg.competitive or st.result is not None:
        return
    if building_done(st) and st.cfg.mode == "extended" and st.building_side == "A":
        # extended mode: remove all Investment markers, flip the Building to side B
        back = sum(1 for o in st.inv if o >= 0) + sum(1 for o in st.stage_marks if o >= 0)
        st.inv = [-1] * 18
        st.pools[0] += back
        st.building_side = "B"
        st.building = st.deck.basic_building["B"]
        st.stage_marks = [-1] * len(st.building.stages)
        st.log(f"Side A complete: {back} markers return to the pool; the Building turns to B")
        return
    if building_done(st) and all(o >= 0 for o in st.contract_marks):
        win(st)


def run(st: MicroCityState, player: int, ops: list[Op]) -> None:
    """Carry out primitive operations (already checked legal and affordable)."""
    for op in ops:
        kind = op[0]
        if kind == "gain":
            gain(st, op[1], op[2], op[3])
        elif kind == "pay":
            st.res[op[1]][op[2]] -= op[3]
        elif kind == "use":
            st.used[op[1]] = True
        elif kind == "die":
            st.dice[op[1]] = op[2]
        elif kind == "unmark":
            unmark(st, op[1])
        elif kind == "upgrade":
            st.sides[op[1]] = "B"
            st.log(f"District {st.position_name(op[1])} is upgraded to side B")
            if op[1] >= 4 and st.cfg.competitive and st.cfg.seaport_upgrade == "return":
                seaport_markers_return(st, op[1] - 4)
        elif kind == "stage":
            st.pools[op[2]] -= 1
            st.stage_marks[op[1]] = op[2]
            st.log(f"P{player + 1} completes Building stage {op[1] + 1}")
            bonus = st.building.stages[op[1]].bonus if st.building else None
            check_goal(st)
            if bonus and st.result is None:
                st.pending = bonus
        elif kind == "goal":
            gi, ai, p = op[1], op[2], op[3]
            st.pools[p] -= 1
            st.goal_marks[gi][ai] = p
            vp = st.deck.goals[st.goals[gi]][ai].vp
            st.vp[p] += vp
            st.log(f"P{p + 1} completes Goal area {gi + 1}.{ai + 1}: +{vp} points")
        elif kind == "contract":
            ci, p = op[1], op[2]
            contract = st.city.seaports[ci // 2].contracts[ci % 2]
            if st.cfg.competitive:
                st.pools[p] -= 1
                st.vp[p] += contract.vp
            else:
                st.contract_pool -= 1
            st.contract_marks[ci] = p
            st.log(f"P{player + 1} completes Contract {area_name(('contract', ci))}"
                   + (f": +{contract.vp} points" if st.cfg.competitive else ""))
            check_goal(st)
            if contract.bonus and st.result is None:
                st.pending = contract.bonus
        elif kind == "retrieve_all":
            h = op[1]
            st.hands[h].extend(st.discards[h])
            st.hands[h].sort()
            st.discards[h].clear()
            st.log(f"P{player + 1} takes the Project cards back")
        elif kind == "retrieve":
            st.discards[op[1]].remove(op[2])
            st.hands[op[1]].append(op[2])
            st.hands[op[1]].sort()
        elif kind == "take_back":  # said as the final phase says it, and counted so
            st.vp[op[1]] -= 1
            st.log(f"P{op[1] + 1} has no marker left: loses 1 point and takes one back from "
                   f"{op[2]}")
            unmark(st, op[3])
        else:  # pragma: no cover - the effects module only emits the kinds above
            raise ValueError(kind)


def seaport_markers_return(st: MicroCityState, port: int) -> None:
    """Option ``seaport_upgrade=return`` (rulings 2): an upgraded competitive Seaport's
    markers, on its two Contracts (which may then be completed again; points scored stay)
    and on its Quarter, go back to their owners' pools.  The default keeps them: the
    rulebook ("SEAPORT EXPANSION") places them "back on the same Contract spot"."""
    areas: list[Op] = [("contract", 2 * port + i) for i in (0, 1)]
    areas.append(("cell", SEAPORT_CELLS[port]))
    for area in areas:
        if area_owner(st, area) >= 0:
            unmark(st, area)


def unmark(st: MicroCityState, area: Op) -> None:
    """Remove a marker; it returns to its owner's pool (a stage is then no longer built)."""
    if area[0] == "cell":
        owner = st.inv[area[1]]
        st.inv[area[1]] = -1
    elif area[0] == "stage":
        owner = st.stage_marks[area[1]]
        st.stage_marks[area[1]] = -1
    elif area[0] == "goal":
        owner = st.goal_marks[area[1]][area[2]]
        st.goal_marks[area[1]][area[2]] = -1
    else:
        owner = st.contract_marks[area[1]]
        st.contract_marks[area[1]] = -1
    st.pools[owner] += 1
    st.log(f"The Investment marker on {area_name(area)} returns to its pool")
    if area[0] == "stage":  # stage_markers=removable: it must be built (and paid) again
        st.log(f"Building stage {area[1] + 1} is no longer built")


def lose(st: MicroCityState, why: str) -> None:
    st.result = "loss"
    st.step = "over"
    st.log(f"Game over: lost ({why})")


def win(st: MicroCityState) -> None:
    st.result = "win"
    st.step = "over"
    st.log("Game over: the city is built, victory!")
