"""The flow of a Micro City game: set-up, the four phases of a round, and the end.

Each phase lists its legal actions into a table (action -> what applying it needs) and
applies one; the final phase is automatic.  Rule references name the rulebook section.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from mobadj.cards.microcity.actions import (
    Action,
    Assign,
    ChangeDie,
    Claim,
    Do,
    Done,
    Pass,
    Play,
    RemoveMarker,
    Retrieve,
    Sell,
    Start,
    Take,
    change_die,
    play,
    remove_marker,
    retrieve,
)
from mobadj.cards.microcity.board import CELL_NAMES, build_city, position_of
from mobadj.cards.microcity.cards import MATERIALS, MAX_RESOURCE, RES_INDEX, Project
from mobadj.cards.microcity.effects import Op, Option, area_name, options
from mobadj.cards.microcity.modes import first_building, parse_options

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState

PAYMENTS = ("coal", "steel", "wood", "money")
QUARTER_ACTIONS: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {
    # rulebook "Investment phase": basic and advanced action per Quarter type
    "commercial": (
        {"all": [{"exchange": {"give": 1, "get": 1}}, {"gain": {"money": 1}}]},
        {"all": [{"exchange": {"give": 1, "get": 2}}, {"gain": {"money": 1}}]},
    ),
    "residential": ({"gain": {"money": 2}}, {"build": True}),
}


_CITIES: dict[tuple[Any, ...], Any] = {}


# -- set-up ------------------------------------------------------------------------------
def setup(st: MicroCityState) -> None:
    """Rulebook "SETTING UP THE GAME" (and the variants' set-ups)."""
    from mobadj.cards.microcity.engine import _DECK

    deck = st.deck = _DECK
    rng = st.rng
    cfg = st.cfg = parse_options(st.options, st.players, deck, rng.choice)
    # 1. four random District cards, A side up; expansions replace random basic ones
    chosen = rng.sample(list(deck.districts), 4)
    replace = rng.sample(range(4), 2)
    if "logistics" in cfg.expansions:
        chosen[replace[0]] = rng.choice(deck.logistics_districts)
    if "garden" in cfg.expansions:
        chosen[replace[1]] = deck.garden_district
    rng.shuffle(chosen)
    garden_at = chosen.index(deck.garden_district) if "garden" in cfg.expansions else None
    seaports = deck.seaports if "seaport" in cfg.expansions else ()
    key = (tuple(d.id for d in chosen), garden_at, bool(seaports))
    if key not in _CITIES:  # the layout is immutable: games with the same one share it
        _CITIES[key] = build_city(tuple(chosen), garden_at, seaports)
    st.city = _CITIES[key]
    st.sides = ["A"] * 6
    st.inv = [-1] * 18
    n = st.players
    if cfg.competitive:
        # competitive set-up 5: the second player starts without money
        st.res = [[0, 0, 0, 2], [0, 0, 0, 0]]
        st.pools = [deck.competitive["markers"]] * 2
    else:
        st.res = [[0, 0, 0, 2] for _ in range(n)]  # "starting values 0, 0, 0 and 2"
        st.pools = [8]  # "8 red Investment markers"
    st.engineer = [-1] * n
    st.dice, st.used, st.die_owner = [], [], []
    cards = [p.id for p in deck.projects]
    if cfg.xcard:
        cards.append(deck.x_project.id)
    st.hands = [list(cards) for _ in range(2 if cfg.competitive else 1)]
    st.discards = [[] for _ in st.hands]
    st.building = first_building(cfg, deck)
    st.building_side = cfg.side
    st.stage_marks = [-1] * (len(st.building.stages) if st.building else 0)
    st.contract_marks = [-1] * (2 * len(seaports))
    st.contract_pool = deck.seaport_markers if seaports and not cfg.competitive else 0
    st.goals, st.goal_marks, st.adv_row, st.adv_deck = [], [], [], []
    st.adv_taken = [[] for _ in range(n)]
    st.claimed = False
    st.vp = [0] * n
    if cfg.competitive:
        st.goals = sorted(rng.sample(range(len(deck.goals)), deck.competitive["goals_in_play"]))
        st.goal_marks = [[-1] * len(deck.goals[g]) for g in st.goals]
        ids = [a.id for a in deck.advantages]
        rng.shuffle(ids)
        k = deck.competitive["advantages_in_play"]
        st.adv_row, st.adv_deck = ids[:k], ids[k:]
    st.time = cfg.rounds
    st.turn = 0
    st.result = None
    st.pending = None
    st.in_play = None
    st.step = "start"
    st.current = 1 if cfg.competitive else 0  # competitive: the second player places first
    st.__dict__["_cache"] = None
    names = ", ".join(d.name for d in chosen)
    st.log(f"Micro City, {describe(st)}; the city: {names}; Time marker on {st.time}")


def describe(st: MicroCityState) -> str:
    cfg = st.cfg
    who = "competitive" if cfg.competitive else ("cooperative" if cfg.coop else "solo")
    parts = [f"{who} {cfg.mode if not cfg.competitive else ''}".strip()]
    if not cfg.competitive:
        parts.append(cfg.difficulty)
        parts.append(
            f"building {st.building.name}" if st.building else ""
        )
    if cfg.expansions:
        parts.append("with " + ", ".join(sorted(cfg.expansions)))
    return ", ".join(p for p in parts if p)


_PROJECTS: dict[str, Project] = {}


def project_card(st: MicroCityState, card: str) -> Project:
    found = _PROJECTS.get(card)
    if found is None:
        for p in (*st.deck.projects, st.deck.x_project):
            _PROJECTS[p.id] = p
        found = _PROJECTS[card]
    return found


# -- turn flow ---------------------------------------------------------------------------
def begin_turn(st: MicroCityState) -> None:
    """Preparation phase, first bullet: roll the dice (2 each; cooperative: all 4)."""
    rng = st.rng
    if rng is None:  # a look-ahead copy (see MicroCityState.clone) never sees future dice
        st.dice, st.used, st.die_owner = [0, 0], [True, True], [-1, -1]
        st.step = "prep"
        return
    if st.cfg.coop:
        st.dice = [rng.randint(1, 6) for _ in range(4)]
        st.used = [False] * 4
        st.die_owner = [-1] * 4
        st.current, st.step = 0, "assign"
        st.log(f"Round {st.turn + 1}: rolled {' '.join(map(str, st.dice))}; P1 assigns the dice")
        return
    st.dice = [rng.randint(1, 6), rng.randint(1, 6)]
    st.used = [False, False]
    st.die_owner = [st.current, st.current]
    st.step = "prep"
    st.claimed = False
    who = f"P{st.current + 1} " if st.players > 1 else ""
    st.log(f"Round {st.turn + 1}: {who}rolled {st.dice[0]} and {st.dice[1]}")


def after_start(st: MicroCityState) -> None:
    """After the Engineers are placed: solo/coop in seat order, competitive P2 then P1."""
    if st.cfg.competitive:
        if st.current == 1:
            st.current = 0
            return
    elif st.current + 1 < st.players:
        st.current += 1
        return
    st.current = 0
    begin_turn(st)


def next_player_turn(st: MicroCityState) -> None:
    """After a final phase: the partner's/opponent's turn or a new round."""
    if st.result is not None:
        return
    st.in_play = None
    if st.cfg.competitive:
        st.turn += 1
        st.current = 1 - st.current
        begin_turn(st)
    elif st.cfg.coop and st.current == 0:
        st.current = 1
        st.step = "project"
    else:
        st.turn += 1
        st.current = 0
        begin_turn(st)


def final_phase(st: MicroCityState, player: int, resume: int = 1) -> None:
    """Rulebook "Final phase": place an Investment (or lose), Time marker, +1 money."""
    cell = st.engineer[player]
    pool = st.pool_of(player)
    if resume <= 1 and st.inv[cell] < 0:
        if st.pools[pool] > 0:
            st.pools[pool] -= 1
            st.inv[cell] = pool
            st.log(f"P{player + 1} places an Investment marker on {CELL_NAMES[cell]}")
        elif st.cfg.competitive:
            # "he loses 1 victory point and retrieves an Investment marker from any area"
            st.step = "take"
            return
        else:
            lose(st, "no Investment marker left to place")
            return
    # 2. the Time marker: every player's final phase moves it (cooperative: each player
    # "executes his round following the base rules", competitive: "marking their turns")
    st.time -= 1
    if st.time <= 0 and not st.cfg.competitive:
        lose(st, "the Time marker reached 0")
        return
    # 3. both dice unused: +1 money
    mine = [i for i, o in enumerate(st.die_owner) if o == player]
    if mine and not any(st.used[i] for i in mine):
        gain(st, player, 3, 1)
        st.log(f"P{player + 1} left both dice unused: +1 money")
    garden_bonus(st, player)
    if st.cfg.competitive:
        if not st.claimed and claimable(st, player):
            st.step = "claim"
            return
        if st.time <= 0:
            end_competitive(st)
            return
    next_player_turn(st)


def garden_bonus(st: MicroCityState, player: int) -> None:
    """Garden expansion: 2+ own markers on the Quarters around the Garden pay 1 money."""
    g = st.city.garden
    if g is None:
        return
    row, col = divmod(g, 4)
    around = [g - 4, g + 4] + ([g - 1] if col > 0 else []) + ([g + 1] if col < 3 else [])
    around = [c for c in around if 0 <= c < 16 and row >= 0]
    if sum(1 for c in around if st.inv[c] == st.pool_of(player)) >= 2:
        for i, n in enumerate(st.deck.garden_bonus):
            if n:
                gain(st, player, i, n)
        st.log(f"P{player + 1} gains the Garden bonus")


def lose(st: MicroCityState, why: str) -> None:
    st.result = "loss"
    st.step = "over"
    st.log(f"Game over: lost ({why})")


def win(st: MicroCityState) -> None:
    st.result = "win"
    st.step = "over"
    st.log("Game over: the city is built, victory!")


def end_competitive(st: MicroCityState) -> None:
    st.result = "over"
    st.step = "over"
    ws = st.winners()
    who = " and ".join(f"P{p + 1}" for p in ws)
    st.log(f"Game over: {st.vp[0]} to {st.vp[1]} points; winner {who}")


# -- resources -----------------------------------------------------------------------------
def gain(st: MicroCityState, player: int, i: int, n: int) -> None:
    """Gains stop at 5; the excess is lost (rulebook "COMPANY CARDS")."""
    r = st.res[player]
    r[i] = min(MAX_RESOURCE, r[i] + n)


def affordable(res: list[int], cost: tuple[int, ...]) -> bool:
    return all(h >= c for h, c in zip(res, cost, strict=False))


def cost_ops(player: int, cost: tuple[int, ...]) -> list[Op]:
    return [("pay", player, i, n) for i, n in enumerate(cost) if n]


# -- building ------------------------------------------------------------------------------
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
                (("from", name), [("vp", player, -1), ("unmark", area)])
                for name, area in st.removable_areas(player)
                if area_owner(st, area) == player
            ]
    if "goal" in builds and comp:
        for gi, g in enumerate(st.goals):
            for ai, area in enumerate(st.deck.goals[g]):
                if st.goal_marks[gi][ai] >= 0 or not affordable(res, area.cost):
                    continue
                for words, pre in marker_sources:
                    if pre and pre[1][1] == ("goal", gi, ai):
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
                    if pre and pre[1][1] == ("contract", ci):
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


# -- operations ------------------------------------------------------------------------------
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
            st.log(f"P{player + 1} completes Contract {area_name(('contract', ci))}")
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
        elif kind == "vp":
            st.vp[op[1]] += op[2]
        else:  # pragma: no cover - the effects module only emits the kinds above
            raise ValueError(kind)


def unmark(st: MicroCityState, area: Op) -> None:
    """Remove a marker; it returns to its owner's pool."""
    if area[0] == "cell":
        owner = st.inv[area[1]]
        st.inv[area[1]] = -1
    elif area[0] == "goal":
        owner = st.goal_marks[area[1]][area[2]]
        st.goal_marks[area[1]][area[2]] = -1
    else:
        owner = st.contract_marks[area[1]]
        st.contract_marks[area[1]] = -1
    st.pools[owner] += 1
    st.log(f"The Investment marker on {area_name(area)} returns to its pool")


# -- legal actions -------------------------------------------------------------------------
def legal(st: MicroCityState, player: int, table: dict[Action, Any]) -> None:
    step = st.step
    if step == "start":
        taken = {st.engineer[1 - player]} if st.cfg.competitive else set()
        for c in st.city.cells():
            if c not in taken:  # competitive: "must choose a different Quarter"
                table[Start(CELL_NAMES[c])] = c
        return
    if st.cfg.competitive and step not in ("start", "take"):
        for adv in claimable(st, player):
            table[Claim(adv)] = adv
    if step == "assign":
        for a in range(4):
            for b in range(a + 1, 4):
                table[Assign((a + 1, b + 1))] = (a, b)
    elif step == "prep":
        legal_prep(st, player, table)
    elif step == "project":
        legal_project(st, player, table)
    elif step == "card":
        legal_card(st, player, table)
    elif step == "invest":
        legal_invest(st, player, table)
    elif step == "bonus":
        for words, ops in options(st, player, st.pending or {}):
            table[Do("bonus", words)] = ops
        table[Pass()] = None
    elif step == "claim":
        table[Pass()] = None
    elif step == "take":
        for name, area in st.removable_areas(player):
            if area_owner(st, area) == player:
                table[Take(name)] = area


def payments(res: list[int]) -> list[str]:
    """A Material (1) or money (2): "by paying 1 Material or 2 money"."""
    return [p for p, have in zip(PAYMENTS, res, strict=True) if have >= (2 if p == "money" else 1)]


def legal_prep(st: MicroCityState, player: int, table: dict[Action, Any]) -> None:
    """Rulebook "Preparation phase": die changes, removing markers, selling, all repeatable."""
    pays = payments(st.res[player])
    for i in st.changeable_dice(player):
        for pay in pays:
            table[change_die(i + 1, True, pay)] = i
            table[change_die(i + 1, False, pay)] = i
    for c in range(18):
        if st.inv[c] >= 0:
            for pay in pays:
                table[remove_marker(CELL_NAMES[c], pay)] = c
    for m in MATERIALS:
        if st.res[player][RES_INDEX[m]] > 0:
            table[Sell(m)] = m
    table[Done()] = None


def legal_project(st: MicroCityState, player: int, table: dict[Action, Any]) -> None:
    """Rulebook "Project phase": play a card and move, or move 1 and retrieve the cards."""
    h = st.hand_owner(player)
    start = st.engineer[player]
    blocked = st.engineer[1 - player] if st.cfg.competitive else -1
    banned = None
    if st.cfg.competitive and st.discards[1 - player]:
        banned = st.discards[1 - player][-1]  # "not the card on top of the opponent's pile"
    for card in sorted(set(st.hands[h])):
        if card == banned:
            continue
        move = project_card(st, card).move
        for dest in st.city.destinations(start, move):
            if dest != blocked:
                table[play(card, CELL_NAMES[dest])] = (card, dest)
    for dest in st.city.destinations(start, 1):
        if dest != blocked:
            table[retrieve(CELL_NAMES[dest])] = dest


def matching_die(st: MicroCityState, player: int, values: tuple[int, ...]) -> int | None:
    for i in st.own_dice(player):
        if st.dice[i] in values:
            return i
    return None


def card_effects(st: MicroCityState, card: Project) -> tuple[dict[str, Any], dict[str, Any]]:
    adv = card.advanced
    if st.cfg.competitive and card.die == 2 and "either" in adv:
        adv = {"each": adv["either"]}  # the die-2 rule: "1 X AND 1 Y"
    return card.basic, adv


def legal_card(st: MicroCityState, player: int, table: dict[Action, Any]) -> None:
    """Basic action, or advanced with a die equal to the card's value; or forgo it."""
    card = st.project(st.in_play or "")
    basic, adv = card_effects(st, card)
    for words, ops in options(st, player, basic):
        table[Do("basic", words)] = ops
    die = matching_die(st, player, (card.die,))
    if die is not None:
        for words, ops in options(st, player, adv, used_die=die):
            table[Do("advanced", words)] = [("use", die), *ops]
    table[Pass()] = None


def legal_invest(st: MicroCityState, player: int, table: dict[Action, Any]) -> None:
    """Rulebook "Investment phase": the Quarter's basic or die-matched advanced action."""
    cell = st.engineer[player]
    spec = st.city.specs[cell]
    assert spec is not None
    kind = spec.type
    if kind == "logistics":
        # "2 basic actions but requires using a die of ANY value"
        seen: set[int] = set()
        for i in st.own_dice(player):
            if st.dice[i] in seen:
                continue
            seen.add(st.dice[i])
            for eff in st.deck.logistics_actions:
                for words, ops in options(st, player, eff):
                    table[Do("basic", (f"die{i + 1}", *words))] = [("use", i), *ops]
    else:
        if kind == "industrial":
            basic: dict[str, Any] = {"gain": {spec.material: 1}}
            adv: dict[str, Any] | None = {"gain": {spec.material: 2}}
            builds: tuple[str, ...] = ()
        elif kind == "seaport":
            basic = st.deck.seaport_basic[st.sides[position_of(cell)]]
            adv = {"build": True}
            builds = (f"contract:{cell - 16}",)
        else:
            basic, adv = QUARTER_ACTIONS[kind]
            builds = ("goal",) if st.cfg.competitive else ("stage",)
        for words, ops in options(st, player, basic):
            table[Do("basic", words)] = ops
        die = matching_die(st, player, st.quarter_dice(cell))
        if die is not None and adv is not None:
            for words, ops in options(st, player, adv, used_die=die, builds=builds):
                table[Do("advanced", words)] = [("use", die), *ops]
    table[Pass()] = None


# -- applying --------------------------------------------------------------------------------
def apply(st: MicroCityState, player: int, action: Action, payload: Any) -> None:
    p = f"P{player + 1}"
    if isinstance(action, Start):
        st.engineer[player] = payload
        st.log(f"{p} places the Engineer on {action.quarter}")
        after_start(st)
    elif isinstance(action, Claim):
        take_advantage(st, player, payload)
    elif isinstance(action, Assign):
        a, b = payload
        st.die_owner = [0 if i in (a, b) else 1 for i in range(4)]
        st.step = "prep"
        mine = " ".join(str(st.dice[i]) for i in (a, b))
        st.log(f"P1 takes dice {action.dice[0]} and {action.dice[1]} ({mine}); P2 the others")
    elif isinstance(action, ChangeDie):
        pay(st, player, action.pay)
        i = payload
        st.dice[i] = (st.dice[i] + (1 if action.up else -1) - 1) % 6 + 1
        st.log(f"{p} pays {action.pay} to turn die {i + 1} to {st.dice[i]}")
    elif isinstance(action, RemoveMarker):
        pay(st, player, action.pay)
        st.log(f"{p} pays {action.pay} to remove a marker")
        unmark(st, ("cell", payload))
    elif isinstance(action, Sell):
        st.res[player][RES_INDEX[payload]] -= 1
        gain(st, player, 3, 1)
        st.log(f"{p} sells 1 {payload} for 1 money")
    elif isinstance(action, Done):
        if st.cfg.coop and player == 0:
            st.current = 1  # the partner's preparation
        else:
            st.current = 0 if st.cfg.coop else player
            st.step = "project"
    elif isinstance(action, Play):
        card, dest = payload
        st.hands[st.hand_owner(player)].remove(card)
        st.in_play = card
        st.engineer[player] = dest
        st.step = "card"
        st.log(f"{p} plays Project {card} ({st.project(card).name}) and moves to {action.to}")
    elif isinstance(action, Retrieve):
        st.engineer[player] = payload
        h = st.hand_owner(player)
        st.hands[h].extend(st.discards[h])
        st.hands[h].sort()
        st.discards[h].clear()
        st.log(f"{p} moves to {action.to} and takes the Project cards back")
        enter_invest(st, player)
    elif isinstance(action, Do | Pass):
        if isinstance(action, Do):
            st.log(f"{p} {st.step}: {action}")
            run(st, player, payload)
        if st.result is not None:
            return
        step = st.step
        if st.pending is not None and step != "bonus":
            st.__dict__["resume"] = step
            st.step = "bonus"
            return
        if step == "bonus":
            st.pending = None
            step = st.__dict__.pop("resume")
        if step == "card":
            st.discards[st.hand_owner(player)].append(st.in_play or "")
            st.in_play = None
            enter_invest(st, player)
        elif step == "invest":
            final_phase(st, player)
        elif step == "claim":
            finish_claim(st, player)
    elif isinstance(action, Take):
        st.vp[player] -= 1
        st.log(f"{p} has no marker left: loses 1 point and takes one back from {action.area}")
        unmark(st, payload)
        final_phase(st, player)


def pay(st: MicroCityState, player: int, what: str) -> None:
    st.res[player][RES_INDEX[what]] -= 2 if what == "money" else 1


def enter_invest(st: MicroCityState, player: int) -> None:
    """"Skip this step if your Engineer is standing on a Quarter where an Investment marker
    is already present." """
    if st.inv[st.engineer[player]] >= 0:
        st.log(f"P{player + 1} stands on an Investment: no Quarter action")
        final_phase(st, player)
    else:
        st.step = "invest"


# -- competitive: Advantage cards -----------------------------------------------------------
def claimable(st: MicroCityState, player: int) -> list[int]:
    """Face-up Advantage cards whose condition ``player`` meets (one per round)."""
    if st.claimed:
        return []
    return [a for a in st.adv_row if meets(st, player, st.deck.advantages[a - 1].condition)]


def meets(st: MicroCityState, player: int, cond: dict[str, Any]) -> bool:
    ((kind, arg),) = cond.items()
    r = st.res[player]
    mine = [c for c in range(18) if st.inv[c] == player]
    if kind == "money":
        return r[3] >= arg
    if kind == "each_material":
        return min(r[:3]) >= arg
    if kind == "materials":
        return sum(r[:3]) >= arg
    if kind == "board_markers":
        return len(mine) >= arg
    if kind == "type_markers":
        specs = st.city.specs
        return sum(1 for c in mine if specs[c] and specs[c].type == arg["type"]) >= arg["count"]
    if kind == "goals":
        return sum(row.count(player) for row in st.goal_marks) >= arg
    if kind == "upgraded":
        return st.sides.count("B") >= arg
    if kind == "discards":
        return len(st.discards[player]) >= arg
    if kind == "empty_pool":
        return st.pools[player] == 0
    raise ValueError(f"unknown Advantage condition '{kind}'")


def take_advantage(st: MicroCityState, player: int, adv: int) -> None:
    card = st.deck.advantages[adv - 1]
    st.adv_row.remove(adv)
    st.adv_taken[player].append(adv)
    st.vp[player] += card.vp
    st.claimed = True
    st.log(f"P{player + 1} takes Advantage {adv}: +{card.vp} points")
    if st.adv_deck:
        new = st.adv_deck.pop(0)
        st.adv_row.append(new)
        st.log(f"Advantage {new} is turned face up")
    if st.step == "claim":
        finish_claim(st, player)


def finish_claim(st: MicroCityState, player: int) -> None:
    if st.time <= 0:
        end_competitive(st)
    else:
        next_player_turn(st)


# -- errors ------------------------------------------------------------------------------------
STEP_HELP = {
    "start": "place your Engineer: start <quarter>",
    "assign": "give two dice to P1: assign <die> <die>",
    "prep": "preparation: change dieN up|down pay <resource>, remove <quarter> pay <resource>, "
    "sell <material>, done",
    "project": "project phase: play <card> to <quarter>, or retrieve to <quarter>",
    "card": "the Project card's action: basic ..., advanced ..., or pass",
    "invest": "the Quarter's action: basic ..., advanced ..., or pass",
    "bonus": "the stage bonus: bonus ..., or pass",
    "claim": "claim <advantage> or pass",
    "take": "take <area> (one of your markers)",
    "over": "nothing: the game is over",
}


STEP_KINDS: dict[str, tuple[type, ...]] = {
    "start": (Start,), "assign": (Assign,), "prep": (ChangeDie, RemoveMarker, Sell, Done),
    "project": (Play, Retrieve), "card": (Do, Pass), "invest": (Do, Pass), "bonus": (Do, Pass),
    "claim": (Claim, Pass), "take": (Take,),
}


def why_not(st: MicroCityState, player: int, action: Action) -> str:
    """Why a well-formed command is not legal now (never naming hidden information)."""
    table = st._legal(player)
    step = st.step
    help_text = STEP_HELP.get(step, step)
    kinds = STEP_KINDS.get(step, ())
    if not isinstance(action, kinds) and not (isinstance(action, Claim) and st.cfg.competitive):
        return f"not now; this is {help_text}"
    if isinstance(action, Play):
        hand = st.hands[st.hand_owner(player)]
        if action.card not in hand:
            return f"Project {action.card} is not in hand (hand: {' '.join(hand) or 'empty'})"
        ends = sorted({a.to for a in table if isinstance(a, Play) and a.card == action.card})
        if not ends:
            return f"Project {action.card} cannot be played now (your opponent just played it)"
        return f"Project {action.card} moves you exactly {st.project(action.card).move}: " \
            f"reachable {', '.join(ends)}"
    if isinstance(action, Retrieve):
        ends = sorted(a.to for a in table if isinstance(a, Retrieve))
        return f"retrieving moves you 1 Quarter: reachable {', '.join(ends)}"
    if isinstance(action, ChangeDie | RemoveMarker):
        cost = 2 if action.pay == "money" else 1
        if st.res[player][RES_INDEX[action.pay]] < cost:
            return f"you cannot pay {cost} {action.pay}"
        if isinstance(action, RemoveMarker):
            return f"there is no Investment marker on {action.quarter}"
        return f"die {action.die} is not one of your unused dice"
    if isinstance(action, Sell):
        return f"you have no {action.material} to sell"
    if isinstance(action, Claim):
        if action.card not in st.adv_row:
            return f"Advantage {action.card} is not face up"
        return f"you do not meet Advantage {action.card}'s condition (or took one this round)"
    if isinstance(action, Take):
        return f"{action.area} holds none of your markers"
    if isinstance(action, Start):
        return f"{action.quarter} is not free to start on"
    if isinstance(action, Do):
        same = [str(a) for a in table if isinstance(a, Do) and a.level == action.level]
        if not same:
            if action.level == "advanced":
                return "the advanced action needs a die of the right value (or is not possible)"
            return f"no {action.level} action is possible now; {help_text}"
        close = difflib.get_close_matches(str(action), same, n=1, cutoff=0.5)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        shown = ", ".join(same[:12]) + (" ..." if len(same) > 12 else "")
        return f"'{action}' is not possible; possible: {shown}{hint}"
    return f"not possible now; this is {help_text}"


# -- invariants -----------------------------------------------------------------------------
def invariants(st: MicroCityState) -> list[str]:
    """Resources within 0..5, Investment markers and Project cards conserved, Time >= 0."""
    bad: list[str] = []
    for p, r in enumerate(st.res):
        if min(r) < 0 or max(r) > MAX_RESOURCE:
            bad.append(f"P{p + 1} resources out of 0..5: {r}")
    expected = st.deck.competitive["markers"] if st.cfg.competitive else 8
    for owner, pool in enumerate(st.pools):
        total = pool + st.inv.count(owner) + st.stage_marks.count(owner)
        if st.cfg.competitive:
            total += sum(row.count(owner) for row in st.goal_marks)
            total += st.contract_marks.count(owner)
        if total != expected or pool < 0:
            bad.append(f"Investment markers of pool {owner}: {total} != {expected}")
    cards = len(st.deck.projects) + (1 if st.cfg.xcard else 0)
    for h, hand in enumerate(st.hands):
        n = len(hand) + len(st.discards[h])
        if st.in_play and h == st.hand_owner(st.current):
            n += 1
        if n != cards:
            bad.append(f"Project cards of hand {h}: {n} != {cards}")
    if st.time < 0:
        bad.append("Time marker below 0")
    return bad
