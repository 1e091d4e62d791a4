"""The flow of a Micro City round: the four phases, whose turn it is, and the final phase.

Each phase lists its legal actions into a table (action -> what applying it needs) and
applies one; the final phase is automatic.  Rule references name the rulebook section.
"""

from __future__ import annotations

from functools import cache
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
    Table,
    Take,
    change_die,
    play,
    put,
    remove_marker,
    retrieve,
)
from mobadj.cards.microcity.board import CELL_NAMES
from mobadj.cards.microcity.cards import MATERIALS, MAX_RESOURCE, RES_INDEX, RESOURCES, Project
from mobadj.cards.microcity.competitive import claimable, end_competitive, take_advantage
from mobadj.cards.microcity.effects import ALL_BUILDS, options
from mobadj.cards.microcity.expansions import garden_bonus, logistics_options, seaport_actions
from mobadj.cards.microcity.operations import (
    area_owner,
    capped,
    gain,
    lose,
    pay,
    run,
    unmark,
)

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState

PAYMENTS = ("coal", "steel", "wood", "money")
_PASS = (Pass(), None)
_DONE = (Done(), None)
_SELLS = {m: Sell(m) for m in MATERIALS}
QUARTER_ACTIONS: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {
    # rulebook "Investment phase": basic and advanced action per Quarter type
    "commercial": (
        {"all": [{"exchange": {"give": 1, "get": 1}}, {"gain": {"money": 1}}]},
        {"all": [{"exchange": {"give": 1, "get": 2}}, {"gain": {"money": 1}}]},
    ),
    "residential": ({"gain": {"money": 2}}, {"build": True}),
}


_PROJECTS: dict[str, Project] = {}


def project_card(st: MicroCityState, card: str) -> Project:
    found = _PROJECTS.get(card)
    if found is None:
        for p in (*st.deck.projects, st.deck.x_project):
            _PROJECTS[p.id] = p
        found = _PROJECTS[card]
    return found


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
        got = gain(st, player, 3, 1)
        st.log(f"P{player + 1} left both dice unused: {capped('money', 1, got)}")
    garden_bonus(st, player)
    if st.cfg.competitive:
        if not st.claimed and claimable(st, player):
            st.step = "claim"
            return
        if st.time <= 0:
            end_competitive(st)
            return
    next_player_turn(st)


def legal(st: MicroCityState, player: int, table: Table) -> None:
    step = st.step
    if step == "start":
        taken = {st.engineer[1 - player]} if st.cfg.competitive else set()
        for c in st.city.cells():
            if c not in taken:  # competitive: "must choose a different Quarter"
                put(table, Start(CELL_NAMES[c]), c)
        return
    if st.cfg.competitive and step not in ("start", "take"):
        for adv in claimable(st, player):
            put(table, Claim(adv), adv)
    if step == "assign":
        for a in range(4):
            for b in range(a + 1, 4):
                put(table, Assign((a + 1, b + 1)), (a, b))
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
            put(table, Do("bonus", words), ops)
        table["pass"] = _PASS
    elif step == "claim":
        table["pass"] = _PASS
    elif step == "take":
        for name, area in st.removable_areas(player):
            if area_owner(st, area) == player:
                put(table, Take(name), area)


def payments(res: list[int]) -> tuple[str, ...]:
    """A Material (1) or money (2): "by paying 1 Material or 2 money"."""
    return tuple(
        p for p, have in zip(PAYMENTS, res, strict=True) if have >= (2 if p == "money" else 1)
    )


def legal_prep(st: MicroCityState, player: int, table: Table) -> None:
    """Rulebook "Preparation phase": die changes, removing markers, selling, all repeatable."""
    pays = payments(st.res[player])
    for i in st.changeable_dice(player):
        table.update(_changes(i, pays))
    inv = st.inv
    for c in range(18):
        if inv[c] >= 0:
            table.update(_removals(c, pays))
    for m in MATERIALS:
        if st.res[player][RES_INDEX[m]] > 0:
            table[f"sell {m}"] = (_SELLS[m], m)
    table["done"] = _DONE


@cache
def _changes(i: int, pays: tuple[str, ...]) -> Table:
    """Entries for changing die ``i`` up or down with each payment (shared, never mutated)."""
    part: Table = {}
    for how in pays:
        for up in (True, False):
            t, a = change_die(i + 1, up, how)
            part[t] = (a, i)
    return part


@cache
def _removals(c: int, pays: tuple[str, ...]) -> Table:
    part: Table = {}
    for how in pays:
        t, a = remove_marker(CELL_NAMES[c], how)
        part[t] = (a, c)
    return part


def _moves(st: MicroCityState, start: int) -> dict[str, Table]:
    """Per Project card (and "retrieve") the entries for moving from ``start`` in this city."""
    found = st.city.moves.get(start)
    if found is None:
        found = {}
        for card in (*st.deck.projects, st.deck.x_project):
            part: Table = {}
            for dest in st.city.destinations(start, card.move):
                t, a = play(card.id, CELL_NAMES[dest])
                part[t] = (a, (card.id, dest))
            found[card.id] = part
        part = {}
        for dest in st.city.destinations(start, 1):
            t, back = retrieve(CELL_NAMES[dest])
            part[t] = (back, dest)
        found["retrieve"] = part
        st.city.moves[start] = found
    return found


def legal_project(st: MicroCityState, player: int, table: Table) -> None:
    """Rulebook "Project phase": play a card and move, or move 1 and retrieve the cards."""
    h = st.hand_owner(player)
    start = st.engineer[player]
    blocked = st.engineer[1 - player] if st.cfg.competitive else -1
    banned = None
    if st.cfg.competitive and st.discards[1 - player]:
        banned = st.discards[1 - player][-1]  # "not the card on top of the opponent's pile"
    moves = _moves(st, start)
    for card in sorted(set(st.hands[h])):
        if card != banned:
            table.update(moves[card])
    table.update(moves["retrieve"])
    if blocked >= 0:  # competitive: "cannot end the movement ... on the opponent's Engineer"
        name = CELL_NAMES[blocked]
        for t in [t for t in table if t.endswith(f" to {name}")]:
            del table[t]


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


def card_builds(st: MicroCityState) -> tuple[str, ...]:
    """What a Project card's build completes: a stage or a Contract (line 469, "or a build
    action from a Project card"), and a Goal only with ``goals=architect``: line 324 asks
    for "an advanced action of a residential Quarter ... in the investment phase"."""
    if st.cfg.competitive and st.cfg.goals == "residential":
        return ("stage", "contract")
    return ALL_BUILDS


def legal_card(st: MicroCityState, player: int, table: Table) -> None:
    """Basic action, or advanced with a die equal to the card's value; or forgo it."""
    card = st.project(st.in_play or "")
    basic, adv = card_effects(st, card)
    for words, ops in options(st, player, basic):
        put(table, Do("basic", words), ops)
    die = matching_die(st, player, (card.die,))
    if die is not None:
        for words, ops in options(st, player, adv, used_die=die, builds=card_builds(st)):
            put(table, Do("advanced", words), [("use", die), *ops])
    table["pass"] = _PASS


def legal_invest(st: MicroCityState, player: int, table: Table) -> None:
    """Rulebook "Investment phase": the Quarter's basic or die-matched advanced action."""
    cell = st.engineer[player]
    spec = st.city.specs[cell]
    assert spec is not None
    kind = spec.type
    if kind == "logistics":
        logistics_options(st, player, table)
    else:
        if kind == "industrial":
            basic: dict[str, Any] = {"gain": {spec.material: 1}}
            adv: dict[str, Any] | None = {"gain": {spec.material: 2}}
            builds: tuple[str, ...] = ()
        elif kind == "seaport":
            basic, adv, builds = seaport_actions(st, cell)
        else:
            basic, adv = QUARTER_ACTIONS[kind]
            builds = ("goal",) if st.cfg.competitive else ("stage",)
        for words, ops in options(st, player, basic):
            put(table, Do("basic", words), ops)
        die = matching_die(st, player, st.quarter_dice(cell))
        if die is not None and adv is not None:
            for words, ops in options(st, player, adv, used_die=die, builds=builds):
                put(table, Do("advanced", words), [("use", die), *ops])
    table["pass"] = _PASS


def apply(st: MicroCityState, player: int, action: Action, payload: Any) -> None:
    p = f"P{player + 1}"
    if isinstance(action, Start):
        st.engineer[player] = payload
        st.log(f"{p} places the Engineer on {action.quarter}")
        after_start(st)
    elif isinstance(action, Claim):
        take_advantage(st, player, payload)
        if st.step == "claim":
            finish_claim(st, player)
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
        if gain(st, player, 3, 1):
            st.log(f"{p} sells 1 {payload} for 1 money")
        else:  # "the excess is lost"
            st.log(f"{p} sells 1 {payload}; money is already at {MAX_RESOURCE}, so the 1 "
                   "money is lost")
    elif isinstance(action, Done):
        st.log(f"{p} ends the preparation phase")
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
            what = {"card": f"Project {st.in_play}", "invest": "Quarter"}.get(st.step, st.step)
            gave = resource_changes(st, player, payload)
            st.log(f"{p} ({what}): {action}" + (f": {gave}" if gave else ""))
            run(st, player, payload)
        else:
            st.log(f"{p} passes")
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


def resource_changes(st: MicroCityState, player: int, ops: list[Any]) -> str:
    """What ``ops`` will do to the Companies, in words for the log ("+2 money", "-1 coal
    +1 steel, P2 +1 wood"), gains past 5 told as lost; "" when no Resource changes."""
    res = [list(r) for r in st.res]
    lost = [[0] * len(RESOURCES) for _ in res]
    for op in ops:
        if op[0] == "gain":
            q, i, n = op[1], op[2], op[3]
            got = min(MAX_RESOURCE, res[q][i] + n) - res[q][i]
            res[q][i] += got
            lost[q][i] += n - got
        elif op[0] == "pay":
            res[op[1]][op[2]] -= op[3]
    parts = []
    for q in sorted(range(len(res)), key=lambda q: q != player):
        words = [f"{res[q][i] - st.res[q][i]:+d} {r}" for i, r in enumerate(RESOURCES)
                 if res[q][i] != st.res[q][i]]
        words += [f"+{n} {r} lost ({r} is at {MAX_RESOURCE})"
                  for r, n in zip(RESOURCES, lost[q], strict=True) if n]
        if words:
            parts.append(("" if q == player else f"P{q + 1} ") + " ".join(words))
    return ", ".join(parts)


def enter_invest(st: MicroCityState, player: int) -> None:
    """"Skip this step if your Engineer is standing on a Quarter where an Investment marker
    is already present." """
    if st.inv[st.engineer[player]] >= 0:
        st.log(f"P{player + 1} stands on an Investment: no Quarter action")
        final_phase(st, player)
    else:
        st.step = "invest"


def finish_claim(st: MicroCityState, player: int) -> None:
    if st.time <= 0:
        end_competitive(st)
    else:
        next_player_turn(st)
