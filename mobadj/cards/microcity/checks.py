"""Why a command is refused (never naming hidden information) and the state's invariants."""

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
)
from mobadj.cards.microcity.board import CELL_INDEX, CELL_NAMES
from mobadj.cards.microcity.cards import MAX_RESOURCE, RES_INDEX, RESOURCES
from mobadj.cards.microcity.expansions import seaport_actions
from mobadj.cards.microcity.phases import QUARTER_ACTIONS, card_builds, card_effects

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState

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
    "take": "your pool is empty: you lose 1 point and take back one of your markers (take "
            "<area>), then place it",
    "over": "nothing: the game is over",
}


STEP_KINDS: dict[str, tuple[type, ...]] = {
    "start": (Start,), "assign": (Assign,), "prep": (ChangeDie, RemoveMarker, Sell, Done),
    "project": (Play, Retrieve), "card": (Do, Pass), "invest": (Do, Pass), "bonus": (Do, Pass),
    "claim": (Claim, Pass), "take": (Take,),
}


def why_not(st: MicroCityState, player: int, action: Action) -> str:
    """Why a well-formed command is not legal now (never naming hidden information)."""
    table = [a for a, _ in st._legal(player).values()]
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
        move = st.project(action.card).move
        return (_move_rule(st, player, action.to, move)
                or f"Project {action.card} moves you exactly {move}: reachable "
                   f"{', '.join(ends)}")
    if isinstance(action, Retrieve):
        ends = sorted(a.to for a in table if isinstance(a, Retrieve))
        return (_move_rule(st, player, action.to, 1)
                or f"retrieving moves you 1 Quarter: reachable {', '.join(ends)}")
    if isinstance(action, Assign):
        a, b = action.dice
        if a == b:
            return (f"give P1 two different dice: 'assign {a} {a}' names die {a} twice "
                    "(assign <die> <die>, dice 1-4)")
        bad = [d for d in (a, b) if not 1 <= d <= len(st.dice)]
        if bad:
            return (f"there is no die {bad[0]}: the dice are 1-{len(st.dice)} (assign <die> "
                    "<die>)")
        return f"not possible now; this is {help_text}"
    if isinstance(action, ChangeDie | RemoveMarker):
        cost = 2 if action.pay == "money" else 1
        if st.res[player][RES_INDEX[action.pay]] < cost:
            return (f"you cannot pay {cost} {action.pay} (you have "
                    f"{st.res[player][RES_INDEX[action.pay]]} {action.pay})")
        if isinstance(action, RemoveMarker):
            return f"there is no Investment marker on {action.quarter}"
        return f"die {action.die} is not one of your unused dice"
    if isinstance(action, Sell):
        return f"you have no {action.material} to sell"
    if isinstance(action, Claim):
        cards = len(st.deck.advantages)
        if not 1 <= action.card <= cards:
            return f"there is no Advantage {action.card}: the cards are 1-{cards}"
        if action.card not in st.adv_row:
            row = ", ".join(map(str, st.adv_row)) or "none"
            return f"Advantage {action.card} is not face up (face up: {row})"
        if st.claimed:
            return ("you have already taken an Advantage this round: points from one "
                    "Advantage card a round (rulebook, ADVANTAGE CARDS)")
        from mobadj.cards.microcity.render import condition_text  # (render imports checks)

        cond = condition_text(st.deck.advantages[action.card - 1].condition)
        return f"you do not meet Advantage {action.card}'s condition: {cond}"
    if isinstance(action, Take):
        return f"{action.area} holds none of your markers"
    if isinstance(action, Start):
        cell = CELL_INDEX.get(action.quarter)
        if cell is not None and cell == st.city.garden:
            return (f"{action.quarter} is the Garden: no Engineer may stop on it (rulebook, "
                    "GARDEN EXPANSION)")
        if st.cfg.competitive and cell is not None and cell == st.engineer[1 - player]:
            return (f"P{2 - player}'s Engineer stands on {action.quarter}: the first player "
                    "must choose a different Quarter (rulebook, competitive set-up)")
        return f"{action.quarter} is not free to start on"
    if isinstance(action, Do):
        if (step == "card" and action.args[:1] == ("goal",) and st.cfg.competitive
                and st.cfg.goals == "residential"):
            return ("a Goal is completed only by a residential Quarter's advanced action, in "
                    "the investment phase (rulebook, GOAL CARDS)")
        ordered = _ordered_stage(st, action)
        if ordered:
            return ordered
        same = [str(a) for a in table if isinstance(a, Do) and a.level == action.level]
        if not same:
            if action.level == "advanced":
                return advanced_refusal(st, player)
            why = _effect_refusal(st, player, _basic_effect(st, player))
            return (f"no basic action is possible now: {why}" if why
                    else f"no {action.level} action is possible now; {help_text}")
        taken_back = [a for a in same if a.startswith(f"{action} from ")]
        if taken_back:  # "voluntarily lose 1 victory point and retrieve 1 Investment marker"
            return ("your pool is empty: name a marker of yours to take back for 1 point "
                    "(rulebook, 2 PLAYER COMPETITIVE MODE, Residential): "
                    + ", ".join(taken_back[:6]) + (" ..." if len(taken_back) > 6 else ""))
        close = difflib.get_close_matches(str(action), same, n=1, cutoff=0.5)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        shown = ", ".join(same[:12]) + (" ..." if len(same) > 12 else "")
        return f"'{action}' is not possible; possible: {shown}{hint}"
    return f"not possible now; this is {help_text}"


def _grid_near(cell: int) -> list[int]:
    """The Quarters orthogonally next to ``cell`` of the 4x4 city, the Garden not left out."""
    row, col = divmod(cell, 4)
    return [r * 4 + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                   (row, col + 1)) if 0 <= r < 4 and 0 <= c < 4]


def _move_rule(st: MicroCityState, player: int, to: str, steps: int) -> str:
    """The rule a move of ``steps`` to ``to`` breaks when it is the right length (the
    Garden, the opponent's Engineer, a two-step move back to the start); "" otherwise."""
    cell, start = CELL_INDEX.get(to), st.engineer[player]
    if cell is None or start < 0:
        return ""
    garden = st.city.garden
    if cell == garden:
        return (f"{to} is the Garden: no Engineer may stop on it or cross it (rulebook, "
                "GARDEN EXPANSION)")
    if steps == 2 and cell == start:
        return (f"a move of 2 Quarters may not come back to {to}, where you began (rulebook, "
                "ENGINEER)")
    if cell in st.city.destinations(start, steps):
        other = st.engineer[1 - player] if st.cfg.competitive else -1
        if cell == other:
            return (f"P{2 - player}'s Engineer stands on {to}: you may not end your move on "
                    "it (rulebook, 2 PLAYER COMPETITIVE MODE)")
        return ""
    if (steps == 2 and garden is not None and start < 16 and cell < 16
            and garden in _grid_near(start) and cell in _grid_near(garden)):
        return (f"{to} can only be reached through the Garden ({CELL_NAMES[garden]}), which "
                "no Engineer may cross (rulebook, GARDEN EXPANSION)")
    return ""


def _cost_text(cost: tuple[int, ...]) -> str:
    return " ".join(f"{n} {r}" for r, n in zip(RESOURCES, cost, strict=True) if n) or "nothing"


def advanced_refusal(st: MicroCityState, player: int) -> str:
    """Why no advanced action is possible now: the die it needs, or (the die showing) the
    rulebook's reason: no Investment marker to place ("This action cannot be performed if
    there are no Investment markers available"), or nothing affordable ("You cannot
    perform an action if you are unable to cover its cost")."""
    values: tuple[int, ...]
    if st.step == "card":
        card = st.project(st.in_play or "")
        what, values = f"Project {card.id}'s advanced action", (card.die,)
        adv, builds = card_effects(st, card)[1], card_builds(st)
    else:
        cell = st.engineer[player]
        spec = st.city.specs[cell]
        if spec is None or spec.type not in ("residential", "commercial", "industrial",
                                             "seaport"):
            return "no advanced action is possible now"
        what, values = f"the {spec.type} Quarter's advanced action", st.quarter_dice(cell)
        if spec.type == "seaport":
            adv, builds = {"build": True}, seaport_actions(st, cell)[2]
        else:
            adv = QUARTER_ACTIONS.get(spec.type, ({}, {}))[1] or {}
            builds = ("goal",) if st.cfg.competitive else ("stage",)
    dice = [st.dice[i] for i in st.own_dice(player)]
    if not any(d in values for d in dice):
        shown = " ".join(str(d) for d in dice) or "none"
        return (f"{what} needs an unused die showing {' or '.join(map(str, values))} "
                f"(your unused dice: {shown})")
    if "build" not in adv:
        why = _effect_refusal(st, player, adv) or "nothing it would do is possible"
        return f"{what} cannot be carried out now: {why}"
    return _build_refusal(st, player, builds)


def _ordered_stage(st: MicroCityState, action: Do) -> str:
    """A challenge Building built in order: a later stage named while an earlier one is
    open is refused with the rule ("Starting with stage 1, then 2 etc."); "" otherwise."""
    if action.args[:1] != ("stage",) or len(action.args) < 2 or st.building is None:
        return ""
    if not st.building.ordered or not action.args[1].isdigit():
        return ""
    open_stages = [k + 1 for k, o in enumerate(st.stage_marks) if o < 0]
    wanted = int(action.args[1])
    if not open_stages or wanted not in open_stages or wanted == open_stages[0]:
        return ""
    return (f"the {st.building.name}'s stages are built in order, stage 1 first, then 2 ... "
            f"(rulebook, CHALLENGE MODE): stage {open_stages[0]} comes next")


def _basic_effect(st: MicroCityState, player: int) -> dict[str, Any]:
    """The basic action in view: the Project card's, or the Quarter's ({} when it has none
    of its own to explain, as the Logistics Quarter, whose actions name their die)."""
    if st.step == "card":
        return card_effects(st, st.project(st.in_play or ""))[0]
    if st.step != "invest":
        return {}
    cell = st.engineer[player]
    spec = st.city.specs[cell]
    if spec is None:
        return {}
    if spec.type == "seaport":
        return seaport_actions(st, cell)[0]
    return QUARTER_ACTIONS.get(spec.type, ({}, None))[0]


def _effect_refusal(st: MicroCityState, player: int, eff: dict[str, Any]) -> str:
    """Why an effect cannot be carried out now, in words ("you have no Material to
    exchange"); "" when there is nothing better to say."""
    if len(eff) != 1:
        return ""
    ((kind, arg),) = eff.items()
    res = st.res[player]
    if kind == "exchange":
        return f"you have no Material to exchange (you have {_cost_text(tuple(res))})"
    if kind == "sell":
        return f"you have no Material to sell (you have {_cost_text(tuple(res))})"
    if kind == "give_material":
        return f"you have no Material to give (you have {_cost_text(tuple(res))})"
    if kind == "buy":
        return f"it costs {arg['money']} money and you have {res[3]}"
    if kind == "remove_investment":
        return "no Investment marker lies on the board to remove"
    if kind == "upgrade_here":
        return "the District under your Engineer is already on side B"
    if kind in ("all", "each", "either"):
        for part in arg:
            why = _effect_refusal(st, player, part)
            if why:
                return why
    return ""


def _build_refusal(st: MicroCityState, player: int, builds: tuple[str, ...]) -> str:
    """The die is there but nothing can be completed: say what is missing."""
    res = st.res[player]
    have = _cost_text(tuple(res))
    if "stage" in builds and st.building is not None:
        if st.pools[st.pool_of(player)] == 0:
            return ("no Investment marker left in your pool to put on the stage (rulebook: "
                    "\"This action cannot be performed if there are no Investment markers "
                    "available\")")
        open_stages = [k for k, o in enumerate(st.stage_marks) if o < 0]
        if st.building.ordered:
            open_stages = open_stages[:1]
        needs = ", ".join(f"stage {k + 1} needs {_cost_text(st.building.stages[k].cost)}"
                          for k in open_stages)
        return f"you cannot pay for any stage ({needs}); you have {have}"
    if "goal" in builds and st.cfg.competitive:
        return f"you cannot pay for any free Goal area; you have {have}"
    if any(b.startswith("contract") for b in builds) and st.contract_marks:
        if not st.cfg.competitive and st.contract_pool == 0:
            return "no Contract marker left to put on a Contract"
        return f"you cannot pay for any open Contract here; you have {have}"
    return "there is nothing to complete now"


def invariants(st: MicroCityState) -> list[str]:
    """Resources within 0..5, Investment markers and Project cards conserved, Time >= 0.

    Runs after every action of a simulation, so the common solo case is checked first in a
    few list operations; the messages are built only when something is wrong.
    """
    res = st.res
    bad = st.time < 0 or any(min(r) < 0 or max(r) > MAX_RESOURCE for r in res)
    if not bad:
        cfg = st.cfg
        if cfg.competitive:
            bad = any(total != st.deck.competitive["markers"] for total in _marker_totals(st))
        else:
            bad = st.pools[0] < 0 or (
                st.pools[0] + 18 - st.inv.count(-1) + len(st.stage_marks)
                - st.stage_marks.count(-1) != 8
            )
        if not bad:
            cards = len(st.deck.projects) + (1 if cfg.xcard else 0)
            playing = st.hand_owner(st.current) if st.in_play else -1
            bad = any(
                len(hand) + len(st.discards[h]) + (h == playing) != cards
                for h, hand in enumerate(st.hands)
            )
    return _describe_broken(st) if bad else []


def _marker_totals(st: MicroCityState) -> list[int]:
    return [
        pool + st.inv.count(owner) + st.stage_marks.count(owner)
        + sum(row.count(owner) for row in st.goal_marks)
        + (st.contract_marks.count(owner) if st.cfg.competitive else 0)
        for owner, pool in enumerate(st.pools)
    ]


def _describe_broken(st: MicroCityState) -> list[str]:
    bad: list[str] = []
    for p, r in enumerate(st.res):
        if min(r) < 0 or max(r) > MAX_RESOURCE:
            bad.append(f"P{p + 1} resources out of 0..5: {r}")
    expected = st.deck.competitive["markers"] if st.cfg.competitive else 8
    for owner, total in enumerate(_marker_totals(st)):
        if total != expected or st.pools[owner] < 0:
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
    return bad or ["an invariant is broken"]
