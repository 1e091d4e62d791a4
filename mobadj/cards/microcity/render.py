"""What a player sees: :func:`view` (JSON-able) and :func:`render` (plain text for mail).

Everything in Micro City is public except the order of the competitive Advantage deck,
which is shown only as a count; the view is built from public fields only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mobadj.cards.microcity.board import CELL_NAMES, POSITIONS, position_of
from mobadj.cards.microcity.cards import RESOURCES
from mobadj.cards.microcity.checks import STEP_HELP
from mobadj.cards.microcity.effects import area_name
from mobadj.cards.microcity.setup_game import describe

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState

TYPE_LETTER = {
    "industrial": "I", "commercial": "C", "residential": "R", "logistics": "L",
    "garden": "G", "seaport": "S",
}


def _cost(cost: tuple[int, ...]) -> str:
    return " ".join(f"{n} {r}" for r, n in zip(RESOURCES, cost, strict=True) if n) or "free"


PHRASES = {
    "gain_material": "gain {} Material(s) of your choice",
    "remove_investment": "remove {} Investment marker(s)",
    "change_die": "change a die by 1 (up or down)",
    "set_die": "set a die to any value",
    "upgrade_here": "upgrade the District you stand on",
    "upgrade_any": "upgrade any District",
    "build": "complete a Building stage, Goal area or Contract",
    "retrieve_projects": "take every discarded Project card back",
    "retrieve_project": "take {} discarded Project card back",
    "give_material": "give {} Material(s) to your partner",
}


def _effect(eff: dict[str, Any] | None) -> str:
    """An effect in words, for the card lists of the text view."""
    if not eff:
        return ""
    ((kind, arg),) = eff.items()
    if kind in ("all", "either", "each"):
        joiner = " or " if kind == "either" else " and "
        return joiner.join(_effect(e) for e in arg)
    if kind == "gain":
        return "gain " + ", ".join(f"{n} {r}" for r, n in arg.items())
    if kind == "exchange":
        return f"exchange {arg['give']} Material for {arg['get']} of other types"
    if kind == "buy":
        return f"pay {arg['money']} money for {arg['get']} Materials"
    if kind == "sell":
        return f"exchange {arg['material']} Material for {arg['money']} money"
    return PHRASES.get(kind, kind.replace("_", " ")).format(arg)


CONDITIONS = {
    "money": "{} money",
    "each_material": "{} of each Material",
    "materials": "{} Materials",
    "board_markers": "{} of your markers on Quarters",
    "goals": "{} Goal areas completed",
    "upgraded": "{} Districts on side B",
    "discards": "{} cards in your discard pile",
    "empty_pool": "an empty Investments pool",
}


def condition_text(cond: dict[str, Any]) -> str:
    """An Advantage card's condition in words ("at least ...")."""
    ((kind, arg),) = cond.items()
    if kind == "type_markers":
        return f"at least {arg['count']} of your markers on {arg['type']} Quarters"
    if kind == "empty_pool":
        return CONDITIONS[kind]
    return "at least " + CONDITIONS[kind].format(arg)


def _owner(st: MicroCityState, owner: int) -> str | None:
    if owner < 0:
        return None
    return f"P{owner + 1}" if st.cfg.competitive else "marker"


def view(st: MicroCityState, player: int | None) -> dict[str, Any]:
    """The public state (all players see the same; ``player`` is accepted for the protocol)."""
    cells = []
    for c in st.city.cells() + ([st.city.garden] if st.city.garden is not None else []):
        spec = st.city.specs[c]
        assert spec is not None
        pos = position_of(c)
        cells.append({
            "quarter": CELL_NAMES[c],
            "district": POSITIONS[pos] if pos < 4 else CELL_NAMES[c],
            "side": st.sides[pos],
            "type": spec.type,
            "material": spec.material,
            "dice": list(spec.dice.get(st.sides[pos], ())),
            "investment": _owner(st, st.inv[c]),
            "engineers": [f"P{p + 1}" for p, e in enumerate(st.engineer) if e == c],
        })
    data: dict[str, Any] = {
        "game": "microcity",
        "setting": describe(st),
        "round": st.turn + 1,
        "time": st.time,
        "step": st.step,
        "to_act": [f"P{p + 1}" for p in st.to_act()],
        "result": st.result,
        "city": cells,
        "players": [
            {
                "player": f"P{p + 1}",
                "resources": dict(zip(RESOURCES, st.res[p], strict=True)),
                "victory_points": st.vp[p] if st.cfg.competitive else None,
                "advantages": list(st.adv_taken[p]),
            }
            for p in range(st.players)
        ],
        "dice": [
            {"die": i + 1, "value": v, "used": st.used[i],
             "owner": f"P{st.die_owner[i] + 1}" if st.die_owner[i] >= 0 else None}
            for i, v in enumerate(st.dice)
        ],
        "investment_pools": list(st.pools),
        "hands": [list(h) for h in st.hands],
        "discards": [list(d) for d in st.discards],
        "in_play": st.in_play,
        "projects": {
            p.id: {"name": p.name, "die": p.die, "move": p.move, "basic": _effect(p.basic),
                   "advanced": _effect(p.advanced)}
            for p in st.deck.projects + ((st.deck.x_project,) if st.cfg.xcard else ())
        },
    }
    if st.building is not None:
        data["building"] = {
            "name": st.building.name,
            "side": st.building_side if st.cfg.mode in ("basic", "extended") else None,
            "ordered": st.building.ordered,
            "stages": [
                {"stage": k + 1, "cost": _cost(s.cost), "bonus": _effect(s.bonus),
                 "done": st.stage_marks[k] >= 0}
                for k, s in enumerate(st.building.stages)
            ],
        }
    if st.contract_marks:
        data["contracts"] = [
            {"contract": area_name(("contract", ci)),
             "cost": _cost(st.city.seaports[ci // 2].contracts[ci % 2].cost),
             "bonus": _effect(st.city.seaports[ci // 2].contracts[ci % 2].bonus),
             "vp": st.city.seaports[ci // 2].contracts[ci % 2].vp,
             "done_by": _owner(st, o)}
            for ci, o in enumerate(st.contract_marks)
        ]
        data["contract_markers"] = st.contract_pool
    if st.cfg.competitive:
        data["goals"] = [
            {"goal": gi + 1, "areas": [
                {"area": f"g{gi + 1}.{ai + 1}", "cost": _cost(a.cost), "vp": a.vp,
                 "marker": _owner(st, st.goal_marks[gi][ai])}
                for ai, a in enumerate(st.deck.goals[g])]}
            for gi, g in enumerate(st.goals)
        ]
        data["advantages"] = [
            {"card": a, "condition": condition_text(st.deck.advantages[a - 1].condition),
             "vp": st.deck.advantages[a - 1].vp}
            for a in st.adv_row
        ]
        data["advantage_deck"] = len(st.adv_deck)  # the order stays hidden
    return data


def _cell_text(cell: dict[str, Any]) -> str:
    """``b1 Ist[3,6]#@1``: type (and Material), the dice of its advanced action (a Logistics
    Quarter takes any die: ``L[1-6]``; the Garden has no action: ``G``), a marker, Engineers."""
    letter = TYPE_LETTER[cell["type"]]
    kind = letter + (cell["material"][:2] if cell["material"] else "")
    dice = ",".join(map(str, cell["dice"])) or ("1-6" if cell["type"] == "logistics" else "")
    if cell["type"] != "garden":
        kind += f"[{dice}]"
    mark = "#" if cell["investment"] == "marker" else (
        f"#{cell['investment'][1]}" if cell["investment"] else "")
    eng = "".join(f"@{e[1]}" for e in cell["engineers"])
    return f"{cell['quarter']} {kind}{mark}{eng}"


TYPE_NAMES = {"C": "commercial", "R": "residential", "L": "logistics", "S": "seaport",
              "G": "garden"}


def _grid_key(v: dict[str, Any]) -> str:
    """The short screen's key to the grid: the letters that appear, then the marks (in the
    competitive mode, whose screen is full, one row of 80 columns for the basic letters and
    the dice; 'board' has the whole key)."""
    present = {TYPE_LETTER[c["type"]] for c in v["city"]}
    kinds = "".join(f", {k} {TYPE_NAMES[k]}" for k in TYPE_NAMES if k in present)
    if any(p["victory_points"] is not None for p in v["players"]):
        return "Key: I industrial (co/st/wo), C commercial, R residential; [dice: advanced]"
    return (f"Key: I industrial (co/st/wo){kinds}; [dice of the advanced action]; # a "
            "marker; @1 P1's Engineer")


def render(st: MicroCityState, player: int | None) -> str:
    """Plain text of :func:`view`: the city grid, Company cards, dice, cards, goals."""
    v = view(st, player)
    lines = [f"Micro City ({v['setting']}) - round {v['round']}, Time marker {v['time']}"]
    if v["result"]:
        lines.append("Game over: " + _result_text(st))
    else:
        who = ", ".join(v["to_act"])
        lines.append(f"{who} to act - {STEP_HELP.get(st.step, st.step)}")
    by_name = {c["quarter"]: c for c in v["city"]}
    sides = " ".join(f"{p}:{s}" for p, s in zip(POSITIONS, st.sides, strict=False))
    lines.append(f"City (District sides {sides}; I industrial C commercial R residential "
                 "L logistics G garden S seaport; [dice of the advanced action]; # marker; "
                 "@ Engineer):")
    for r in range(4):
        row = [by_name.get(f"{c}{r + 1}") for c in "abcd"]
        port = by_name.get("s1" if r == 0 else "s2") if r in (0, 2) else None
        text = "  ".join(f"{_cell_text(c):<18}" if c else f"{'':<18}" for c in row)
        lines.append(("  " + _cell_text(port) if port else "") + "  " + text.rstrip())
    for p in v["players"]:
        res = ", ".join(f"{k} {n}" for k, n in p["resources"].items())
        extra = f"; {p['victory_points']} points" if p["victory_points"] is not None else ""
        lines.append(f"{p['player']}: {res}{extra}")
    if v["dice"]:
        dice = ", ".join(
            f"die{d['die']}={d['value']}{' used' if d['used'] else ''}"
            + (f" ({d['owner']})" if d["owner"] and st.players > 1 else "")
            for d in v["dice"]
        )
        lines.append(f"Dice: {dice}")
    lines.append(f"Investment pool(s): {' / '.join(map(str, v['investment_pools']))}")
    for i, hand in enumerate(v["hands"]):
        owner = f"P{i + 1} " if len(v["hands"]) > 1 else ""
        lines.append(f"{owner}Project hand: {' '.join(hand) or '-'}; discards: "
                     f"{' '.join(v['discards'][i]) or '-'}")
    if v["in_play"]:
        lines.append(f"Project card in play: {v['in_play']}")
    for cid, p in v["projects"].items():
        lines.append(f"  Project {cid} {p['name']} (move {p['move']}, die {p['die']}): "
                     f"basic {p['basic']}; advanced {p['advanced']}")
    if "building" in v:
        b = v["building"]
        order = "in order" if b["ordered"] else "any order"
        side = f" side {b['side']}" if b["side"] else ""
        lines.append(f"Building {b['name']}{side} ({order}):")
        for s in b["stages"]:
            bonus = f", bonus: {s['bonus']}" if s["bonus"] else ""
            done = " - DONE" if s["done"] else ""
            lines.append(f"  stage {s['stage']}: {s['cost']}{bonus}{done}")
    for c in v.get("contracts", []):
        done = f" - done ({c['done_by']})" if c["done_by"] else ""
        lines.append(f"  contract {c['contract']}: {c['cost']}, bonus {c['bonus']}{done}")
    for g in v.get("goals", []):
        areas = "; ".join(
            f"{a['area']}: {a['cost']} = {a['vp']} vp"
            + (f" [{a['marker']}]" if a["marker"] else "")
            for a in g["areas"]
        )
        lines.append(f"Goal {g['goal']}: {areas}")
    if "advantages" in v:
        adv = "; ".join(f"{a['card']}: {a['condition']} = {a['vp']} vp" for a in v["advantages"])
        lines.append(f"Advantages: {adv} ({v['advantage_deck']} in the deck)")
    return "\n".join(lines)


# -- the terminal's short screen ---------------------------------------------------------------

def render_screen(st: MicroCityState, player: int) -> str:
    """What a player acts on, in at most about 15 rows of 80 columns: the round and what to
    do, the city, Companies, dice and pools, the Project cards, the Building (or the Goals
    and Advantages).  Card texts in full, the legend and the Contracts: :func:`render`."""
    v = view(st, player)
    lines = [f"Micro City, round {v['round']}, Time marker {v['time']}: "
             + ("game over: " + _result_text(st) if v["result"] else
                f"{', '.join(v['to_act'])} to act.")]
    by_name = {c["quarter"]: c for c in v["city"]}
    width = max(len(_cell_text(c)) for c in v["city"] if c["quarter"][0] in "abcd")
    ports = [c for c in v["city"] if c["quarter"] in ("s1", "s2")]
    port_width = max((len(_cell_text(c)) for c in ports), default=0)
    for r in range(4):
        row = [by_name.get(f"{c}{r + 1}") for c in "abcd"]
        port = by_name.get("s1" if r == 0 else "s2") if r in (0, 2) else None
        cells = " ".join(f"{_cell_text(c) if c else '':<{width}}" for c in row).rstrip()
        lines.append((f"{_cell_text(port) if port else '':<{port_width}} " if ports else "")
                     + " " + cells)
    lines.append(_grid_key(v))
    companies = []
    for p in v["players"]:
        res = " ".join(f"{n}{_LETTERS[k]}" for k, n in p["resources"].items())
        extra = f", {p['victory_points']} points" if p["victory_points"] is not None else ""
        companies.append(f"{p['player']} {res}{extra}")
    lines.append("Companies (c coal, s steel, w wood, $ money): " + "; ".join(companies)
                 if len(companies) == 1 else "Companies: " + "; ".join(companies))
    dice = ", ".join(f"die{d['die']} {d['value']}{' used' if d['used'] else ''}"
                     + (f" {d['owner']}" if d["owner"] and st.players > 1 else "")
                     for d in v["dice"])
    pools = " / ".join(map(str, v["investment_pools"]))
    play = f"; card in play: {v['in_play']}" if v["in_play"] else ""
    lines.append(f"Dice: {dice or 'none'}; markers in the pool: {pools}{play}")
    hands = []
    for i, hand in enumerate(v["hands"]):
        owner = f"P{i + 1} " if len(v["hands"]) > 1 else ""
        hands.append(f"{owner}Projects {' '.join(hand) or 'none'}, discards "
                     f"{' '.join(v['discards'][i]) or 'none'}")
    lines.append("; ".join(hands))
    if "building" in v:
        b = v["building"]
        stages = "; ".join(f"{s['stage']}: {_short_cost(s['cost'])}" + (" done" if s["done"]
                                                                          else "")
                           for s in b["stages"])
        side = f" {b['side']}" if b["side"] else ""
        lines.append(f"Building {b['name']}{side}, {'in order' if b['ordered'] else 'any order'}"
                     f": {stages}")
    if "contracts" in v:
        done = sum(bool(c["done_by"]) for c in v["contracts"])
        lines.append(f"Contracts done: {done} of {len(v['contracts'])} ('board' lists them)")
    if "goals" in v:
        lines.append("Goals (c coal, s steel, w wood, $ money: points): " + "; ".join(
            f"{a['area']} {_short_cost(a['cost'])}: {a['vp']}"
            + (f" [{a['marker']}]" if a["marker"] else "")
            for g in v["goals"] for a in g["areas"]))
    if "advantages" in v:
        lines.append("Advantages: " + "; ".join(f"{a['card']}: {a['condition']} = {a['vp']}"
                                                for a in v["advantages"]))
    if f"P{player + 1}" in v["to_act"]:
        lines.append("Your move: " + STEP_HELP.get(st.step, st.step))
    return "\n".join(lines)


_LETTERS = {"coal": "c", "steel": "s", "wood": "w", "money": "$"}


def _short_cost(cost: str) -> str:
    """``1 coal 2 money`` as ``1c 2$`` (the short screen's legend says the letters)."""
    words = cost.split()
    if cost == "free":
        return cost
    return " ".join(f"{n}{_LETTERS[r]}" for n, r in zip(words[::2], words[1::2], strict=True))


def explain(st: MicroCityState, player: int, topic: str) -> str:
    """``help CARD``: a Project card (``help 4``, ``help architect``), a Quarter (``help
    c2``), a District, a Building stage, a Goal area, an Advantage card or a Contract in
    view, in plain words."""
    v = view(st, player)
    key = topic.strip().lower().replace(" ", "")
    for cid, p in v["projects"].items():
        if key in (cid.lower(), p["name"].lower(), f"project{cid.lower()}"):
            return (f"Project {cid} {p['name']}: play it to move your Engineer exactly "
                    f"{p['move']} step(s), then take its basic action ({p['basic']}), or its "
                    f"advanced action ({p['advanced']}) by spending an unused die showing "
                    f"{p['die']}. Any card in your hand can be played; only the advanced action "
                    "needs the die. The card then goes to your discard pile ('retrieve' takes "
                    "them all back).")
    for cell in v["city"]:
        if key == cell["quarter"]:
            port = ""
            if cell["type"] == "seaport":  # "Basic (side A): Exchange 1 Material for 2 $" ...
                port = _effect(st.deck.seaport_basic[cell["side"]])
            return _quarter_text(cell, port)
    for s in v.get("building", {}).get("stages", []):
        if key in (f"stage{s['stage']}", f"s{s['stage']}"):
            bonus = f" Its bonus: {s['bonus']}." if s["bonus"] else ""
            return (f"Building stage {s['stage']}: costs {s['cost']}; complete it with a "
                    "residential Quarter's advanced action (or the Architect's), putting a "
                    f"marker from your pool on it.{bonus}" + (" Done." if s["done"] else ""))
    for g in v.get("goals", []):
        for a in g["areas"]:
            if key == a["area"]:
                return (f"Goal area {a['area']}: pay {a['cost']} with a residential Quarter's "
                        f"advanced action (or the Architect's) and put your marker on it for "
                        f"{a['vp']} point(s); a marked area cannot be completed again until "
                        "its marker is removed.")
    for a in v.get("advantages", []):
        if key in (str(a["card"]), f"advantage{a['card']}"):
            return (f"Advantage {a['card']}: {a['condition']}: claim it in your round "
                    f"('claim {a['card']}') for {a['vp']} point(s); one a round.")
    for c in v.get("contracts", []):
        if key in (c["contract"], f"contract{c['contract']}"):
            return (f"Contract {c['contract']}: costs {c['cost']}, bonus {c['bonus']}; "
                    "complete it with the Seaport's advanced action (or a Project build)"
                    + (f", {c['vp']} point(s)" if st.cfg.competitive else "") + ".")
    if key == "take" and st.step == "take":
        return ("take <area>: your pool is empty, and the final phase places a marker: you "
                "lose 1 victory point and take back one of your markers from any area (take "
                "a1, take g1.2), which is then placed (rulebook, 2 PLAYER COMPETITIVE MODE, "
                "Retrieving Investment markers).")
    return f"'{topic}' is nothing in view: try " + _examples(v) + "."


def _examples(v: dict[str, Any]) -> str:
    """What ``help`` can explain in this game, each with an example from the table (so the
    hint never names a stage in a game without a Building, nor a card that is not there)."""
    out = []
    if v["projects"]:
        cid, card = next(iter(v["projects"].items()))
        out.append(f"a Project card (help {cid}, help {card['name'].lower()})")
    out.append(f"a Quarter (help {v['city'][0]['quarter']})")
    stages = v.get("building", {}).get("stages", [])
    if stages:
        out.append(f"a stage (help stage {stages[0]['stage']})")
    areas = [a["area"] for g in v.get("goals", []) for a in g["areas"]]
    if areas:
        out.append(f"a Goal area (help {areas[0]})")
    if v.get("advantages"):
        out.append(f"an Advantage (help {v['advantages'][0]['card']})")
    if v.get("contracts"):
        out.append(f"a Contract (help {v['contracts'][0]['contract']})")
    return ", ".join(out[:-1]) + f" or {out[-1]}" if len(out) > 1 else out[0]


QUARTER_TEXT = {
    "industrial": ("basic: gain 1 {m}; advanced (a die showing {d}): gain 2 {m}"),
    "commercial": ("basic: exchange 1 Material for 1 of another type and gain 1 money; "
                   "advanced (a die showing {d}): exchange 1 Material for 2 of other types "
                   "and gain 1 money"),
    "residential": ("basic: gain 2 money; advanced (a die showing {d}): complete a Building "
                    "stage (or a Goal area) by paying its cost and putting a marker on it"),
    "logistics": ("with a die of any value: retrieve 2 Investment markers, or pay 1 money for "
                  "2 Materials"),
    "seaport": "basic: {port}; advanced (a die showing {d}): complete a Contract",
    "garden": "no Engineer may enter or cross it; 2 of your markers around it pay 1 money "
              "in your final phase",
}


def _quarter_text(cell: dict[str, Any], port: str = "") -> str:
    """``help c2``: a Quarter's actions; ``port`` is a Seaport's basic action (by side)."""
    text = QUARTER_TEXT[cell["type"]].format(m=cell["material"] or "Material",
                                             d=" or ".join(map(str, cell["dice"])) or "-",
                                             port=port)
    marker = (" An Investment marker lies on it: its action cannot be used until the marker "
              "is removed." if cell["investment"] else "")
    return (f"Quarter {cell['quarter']}, {cell['type']} (District {cell['district']}, side "
            f"{cell['side']}): {text}.{marker}")


# -- the end screen -------------------------------------------------------------------------

SUMMARY = ("Micro City in brief: each round the dice are rolled for you; in preparation you "
           "may pay to change a die or remove a marker, or sell Materials; then play any "
           "Project card from your hand to move your Engineer exactly its number of steps and "
           "take its basic action, or its advanced action if you spend an unused die showing "
           "the card's number (or retrieve your discarded cards, moving one step); then use "
           "the Quarter you stand on; at the end of the round an Investment marker is placed "
           "under your Engineer and the Time marker moves. Complete the Building before Time "
           "runs out (competitive: most points from Goal areas, Contracts and Advantage "
           "cards).")
# the engine's own end-of-game line, which the end report says again in full
SUPERSEDED = re.compile(r"Game over: ")
_POINTS = re.compile(r"(P\d) (?:completes Goal area (\S+): \+(\d+) points|takes Advantage "
                     r"(\d+): \+(\d+) points|completes Contract ([^\s:]+)|has no marker left: "
                     r"loses 1 point)")


def _result_text(st: MicroCityState) -> str:
    if st.result == "win":
        return "the city is built, victory!"
    if st.result == "loss":
        return f"lost ({loss_reason(st)})"
    return f"{st.vp[0]} to {st.vp[1]} points"


def loss_reason(st: MicroCityState) -> str:
    """Why a solo or cooperative game was lost, as its final mail says it."""
    for event in reversed(st.events):
        if event.text.startswith("Game over: lost ("):
            return event.text.removeprefix("Game over: lost (").removesuffix(")")
    return "the Building was not finished in time"


def end_report(st: MicroCityState) -> list[str]:
    """Why the game was won or lost (solo and cooperative: how far the Building got and the
    Time left), or in the competitive mode each player's points by source and the winner."""
    v = view(st, None)
    if not st.cfg.competitive:
        stages = v.get("building", {}).get("stages", [])
        done = sum(s["done"] for s in stages)
        side = f" side {st.building_side}" if st.cfg.mode == "extended" else ""
        progress = (f"Building {v['building']['name']}{side}: {done} of {len(stages)} stages "
                    f"done; Time marker on {st.time}") if "building" in v else \
            f"Time marker on {st.time}"
        if st.contract_marks:
            progress += (f"; Contracts done {sum(o >= 0 for o in st.contract_marks)} of "
                         f"{len(st.contract_marks)}")
        if st.result == "win":
            head = "Game over: won. The city is built: every stage of the Building is done"
            head += " and every Contract" if st.contract_marks else ""
            return [head + ".", progress + ".",
                    "Winner: " + " and ".join(f"P{p + 1}" for p in range(st.players))
                    + " (together)." if st.players > 1 else "You win."]
        why = loss_reason(st)
        return [f"Game over: lost. {why[:1].upper() + why[1:]} before the Building was "
                "finished.", progress + ".", "Nobody wins: the city lost."]
    lines = [f"Game over: the Time marker has run out; {st.vp[0]} to {st.vp[1]} points."]
    contracts = {c["contract"]: c["vp"] for c in v.get("contracts", [])}
    for p in range(st.players):
        goals, advs, deals, lost = [], [], [], 0
        for event in st.events:
            m = _POINTS.match(event.text)
            if m is None or m.group(1) != f"P{p + 1}":
                continue
            if m.group(2):
                goals.append((m.group(2), int(m.group(3))))
            elif m.group(4):
                advs.append((m.group(4), int(m.group(5))))
            elif m.group(6):
                deals.append((m.group(6), contracts.get(m.group(6), 0)))
            else:
                lost += 1
        parts = [(f"Goal areas {sum(n for _, n in goals)}", goals),
                 (f"Advantages {sum(n for _, n in advs)}", advs),
                 (f"Contracts {sum(n for _, n in deals)}", deals)]
        text = " + ".join(f"{head} ({', '.join(f'{k} +{n}' for k, n in items)})" if items
                          else head for head, items in parts)
        known = sum(n for _, items in parts for _, n in items) - lost
        if lost:
            text += f" - {lost} for markers taken back"
        if st.vp[p] != known:
            text += f" + {st.vp[p] - known} from card effects"
        lines.append(f"P{p + 1}: {st.vp[p]} points = {text}")
    winners = st.winners()
    names = " and ".join(f"P{p + 1}" for p in winners)
    if st.vp[0] != st.vp[1]:
        lines.append(f"Winner: {names}.")
    elif len(winners) == 1:
        adv = [len(st.adv_taken[p]) for p in (0, 1)]
        rule = "most Advantage cards" if adv[0] != adv[1] else "most Resources"
        lines.append(f"Winner: {names}: tied on points, the tie broken by {rule}.")
    else:
        lines.append(f"Winners: {names} share the win: tied on points, Advantages and "
                     "Resources.")
    return lines
