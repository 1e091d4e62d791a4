"""What one player may see of a micro mob game, as JSON and as plain text for mail.

:func:`build_view` is the only place that reads the state for a player; the text is made
from the view alone, so the text can hold nothing the view does not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mobadj.cards.micromob.actions import Use
from mobadj.cards.micromob.cards import POWER_NAME, POWER_TEXT, SPECIAL_ABILITIES
from mobadj.cards.micromob.legal import BOSS_TEXT

if TYPE_CHECKING:
    from mobadj.cards.micromob.engine import MicroMobState


def _boss(state: MicroMobState, cid: str) -> dict[str, Any]:
    c = state.card(cid)
    return {"id": cid, "name": c.name, "colour": c.colour, "hit": c.boss_hit,
            "hire": c.boss_hire, "ally": c.boss_ally, "power": c.power,
            "power_name": POWER_NAME[c.power]}


def _goon(state: MicroMobState, cid: str) -> dict[str, Any]:
    c = state.card(cid)
    return {"id": cid, "name": c.name, "hit": c.goon_hit, "money": c.goon_money,
            "ally": c.goon_ally}


def build_view(state: MicroMobState, player: int | None) -> dict[str, Any]:
    """JSON-able view: public zones for all; the hand only for its owner."""
    seats = []
    running = state.score_details()
    for p in range(state.players):
        seat: dict[str, Any] = {
            "player": p + 1,
            "hand_size": len(state.hand[p]),
            "fatigue": [_goon(state, c) for c in state.fatigue[p]],
            "allies": [_boss(state, c) for c in state.allies[p]],
            "hits": [_boss(state, c) for c in state.hits[p]],
            "vp": running[p].total,
        }
        if p == player or state.hands_public:
            seat["hand"] = [_goon(state, c) for c in state.hand[p]]
        seats.append(seat)
    view: dict[str, Any] = {
        "game": "micromob",
        "you": None if player is None else player + 1,
        "phase": state.phase,
        "to_act": [p + 1 for p in state.to_act()],
        "modules": list(state.modules),
        "hands": "public" if state.hands_public else "secret",
        "deck": len(state.pile),
        "city": [_boss(state, c) for c in state.city],
        "pool": [_goon(state, c) for c in state.pool],
        "players": seats,
        "turn": {
            "number": state.turn,
            # allies that left for a hand since are not named (when hands are secret)
            "abilities_used": sorted(a for a in state.used if a in state.allies[state.current]
                                     or state.hands_public),
            "action_taken": state.acted,
            "kinds_taken": sorted(state.kinds_taken),
            # for the player to act: the allies whose special ability can be used now
            "abilities_ready": _abilities_ready(state, player),
            # for the player to act: no hit, hire, ally or payroll is possible, only pass
            "must_pass": player is not None and state.must_pass(player),
            # for the player to act, after the action: ally -> kinds its bonus still allows
            "bonus_left": {} if player is None else state.bonus_left(player),
        },
    }
    if state.phase == "over":
        view["kingpin"] = _boss(state, state.kingpin) if state.kingpin else None
        view["end_reason"] = state.end_reason
        view["winners"] = [p + 1 for p in state.winners()]
    return view


# the turn line when no hit, hire, ally or payroll is possible (pass is a ruling)
MUST_PASS = "you can neither hit, hire, ally nor payroll, so your action is pass"


def _abilities_ready(state: MicroMobState, player: int | None) -> list[str]:
    """The allies of ``player``, if it is their turn, whose special ability has a legal use
    now (not every unused one: 'add a city card' needs a card in the pile and room in the
    city, 'rest a goon' a fatigued goon, 'swap with city' a goon in hand), in ally order."""
    if player is None or player != state.current or state.phase != "play":
        return []
    usable = {a.card for a in state.legal_actions(player) if isinstance(a, Use)}
    return [a for a in state.allies[player] if a in usable]


def _turn_line(view: dict[str, Any], you: int) -> str:
    """What the player to act may do, the same on the screen and on the whole table: the
    abilities only when one can be used now, and after the action which bonus action is
    left and from which ally (``you may still hit (D5 extra hit), or say 'done'``)."""
    turn = view["turn"]
    allies = {a["id"]: a for a in view["players"][you - 1]["allies"]}
    if turn["action_taken"]:
        left = [f"{' or '.join(kinds)} ({ally} {allies[ally]['power_name']})"
                for ally, kinds in turn["bonus_left"].items() if ally in allies]
        if not left:
            return "Your action is taken: say 'done'."
        return f"Your action is taken: you may still {', or '.join(left)}, or say 'done'."
    ready = [f"{a} {allies[a]['power_name']}" for a in allies if a in turn["abilities_ready"]]
    first = f"; first, if you like, use {', '.join(ready)}" if ready else ""
    can = MUST_PASS if turn["must_pass"] else "hit, hire, ally or payroll"
    return f"Your turn: {can}{first}."


def _boss_line(b: dict[str, Any]) -> str:
    return (f"{b['id']:>4} {b['name']:<10} hit {b['hit']} hire {b['hire']} ally {b['ally']}"
            f"  {b['colour']:<6} {b['power_name']}")


def _goon_line(g: dict[str, Any]) -> str:
    return f"{g['id']:>4} {g['name']:<10} hit {g['hit']} money {g['money']} ally {g['ally']}"


def render_view(view: dict[str, Any]) -> str:
    """Plain text of a view, for the terminal and for mail."""
    out = []
    you = view["you"]
    who = f"P{you}" if you else "spectator"
    to_act = ", ".join(f"P{p}" for p in view["to_act"]) or "nobody"
    out.append(f"micro mob - {view['phase']} - view of {who} - to act: {to_act}")
    out.append(f"Pile: {view['deck']} card(s)")
    if view["pool"]:
        out.append("Draft pool (goon side):")
        out.extend("  " + _goon_line(g) for g in view["pool"])
    if view["city"]:
        out.append("City (boss side):")
        out.extend("  " + _boss_line(b) for b in view["city"])
    for seat in view["players"]:
        out.append(f"P{seat['player']}: {seat['vp']} v.p., {seat['hand_size']} goon(s) in hand")
        if "hand" in seat:
            out.append("  hand:")
            out.extend("    " + _goon_line(g) for g in seat["hand"])
        for zone, line in (("fatigue", _goon_line), ("allies", _boss_line), ("hits", _boss_line)):
            if seat[zone]:
                out.append(f"  {zone}:")
                out.extend("    " + line(c) for c in seat[zone])
    if you and you in view["to_act"] and view["phase"] == "play":
        out.append(_turn_line(view, you))
        powers = sorted({a["power"] for a in view["players"][you - 1]["allies"]})
        out.extend(f"  {POWER_NAME[p]}: {POWER_TEXT[p]}" for p in powers)
    if view["phase"] == "over":
        king = view["kingpin"]
        out.append(f"Game over ({view['end_reason']}).")
        out.append("Kingpin: " + (_boss_line(king) if king else "none"))
        out.append("Winner(s): " + ", ".join(f"P{p}" for p in view["winners"]))
    return "\n".join(out)


# -- the terminal's short screen ---------------------------------------------------------------

def _nums(card: dict[str, Any], boss: bool) -> str:
    return (f"{card['hit']}/{card['hire']}/{card['ally']}" if boss
            else f"{card['hit']}/{card['money']}/{card['ally']}")


def _columns(entries: list[str], width: int, indent: str = "  ") -> list[str]:
    """``entries`` of equal width side by side, as many as fit in 80 columns."""
    per_row = max(1, (80 - len(indent)) // (width + 2))
    return [indent + "  ".join(f"{e:<{width}}" for e in entries[i:i + per_row]).rstrip()
            for i in range(0, len(entries), per_row)]


def _listed(cards: list[dict[str, Any]], boss: bool) -> str:
    return ", ".join(f"{c['id']} {_nums(c, boss)}" for c in cards) or "none"


def render_screen(view: dict[str, Any]) -> str:
    """What a player acts on, in at most about 14 rows of 80 columns: the city (or the
    draft pool), their own cards, one row per other player, and what they may do now.  The
    whole table, with names and every card of every player, is :func:`render_view`."""
    you = view["you"]
    out = []
    to_act = ", ".join(f"P{p}" for p in view["to_act"]) or "nobody"
    mine = " (you)" if you in view["to_act"] else ""
    when = "the draft" if view["phase"] == "draft" else f"turn {view['turn']['number']}"
    out.append(f"micro mob, {when}: {to_act} to act{mine}. Pile: {view['deck']} cards.")
    if view["pool"]:
        out.append("Draft pool (goons: hit/money/ally):")
        out.extend(_columns([f"{g['id']:<3} {g['name']:<8} {_nums(g, False)}"
                             for g in view["pool"]], 18))
    if view["city"]:
        out.append("City (bosses: hit/hire/ally, family, ally power):")
        out.extend(_columns([f"{b['id']:<3} {_nums(b, True)} {b['colour']:<6} "
                             f"{b['power_name']}" for b in view["city"]], 32))
    for seat in view["players"]:
        p = seat["player"]
        ids = " ".join(c["id"] for c in seat["allies"]) or "none"
        hits = " ".join(h["id"] for h in seat["hits"]) or "none"
        if p == you:
            fatigue = " ".join(g["id"] for g in seat["fatigue"]) or "none"
            out.append(f"You, P{p}: {seat['vp']} v.p.; hand (goons hit/money/ally) "
                       f"{_listed(seat['hand'], False)}; fatigue {fatigue}")
            if seat["allies"] or seat["hits"]:
                out.append(f"  allies {ids}; hits {hits}")
            continue
        row = (f"P{p}: {seat['vp']} v.p.; hand {{}}, fatigue {len(seat['fatigue'])}; "
               f"allies {ids}; hits {hits}")
        named = row.format(" ".join(g["id"] for g in seat.get("hand", [])) or "none")
        # a public hand (the ruling) is named as the table shows it, while the row fits
        # one line ('board' has every hand in full); a secret one is only counted
        out.append(named if "hand" in seat and len(named) <= 80
                   else row.format(seat["hand_size"]))
    if you and you in view["to_act"] and view["phase"] == "play":
        out.append(_turn_line(view, you))
    elif you and you in view["to_act"] and view["phase"] == "draft":
        out.append("Your pick: draft a goon from the pool.")
    if view["phase"] == "over":
        out.append(f"Game over ({view['end_reason']}).")
    return "\n".join(out)


def explain(state: MicroMobState, player: int, topic: str) -> str:
    """``help CARD``: a card the player can see (city, pool, a hand they may see, any
    fatigue, ally or hit area, the kingpin), or an ally power, in plain words."""
    word = topic.strip()
    view = build_view(state, player)
    seen = {c["id"]: where for where, cards in _zones(view) for c in cards}
    cid = word.upper()
    if cid in seen:
        return _card_text(state, cid, seen[cid])
    power = _power_named(word)
    if power is not None:
        holders = sorted(c for c in seen if state.card(c).power == power)
        return (f"{POWER_NAME[power]}: {POWER_TEXT[power]}. {_power_group(power)}"
                + (f" Cards in view with it: {', '.join(holders)}." if holders else ""))
    if cid in state.deck.cards:
        return (f"{cid} is not on the table where you can see it now: 'help' explains the "
                "cards in view (the city, the draft pool, hands you may see, fatigue, ally "
                "and hit areas) and the ally powers (help swap, help extra hit).")
    return (f"'{word}' is neither a card in view nor an ally power: try a card id such as "
            f"{(sorted(seen) or ['D3'])[0]}, or a power such as 'help rest a goon' "
            "('help powers' lists them).")


def explain_powers() -> str:
    return "Ally powers:\n" + "\n".join(f"  {POWER_NAME[p]}: {POWER_TEXT[p]}"
                                         for p in POWER_NAME)


def _zones(view: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    zones = [("in the city", view["city"]), ("in the draft pool", view["pool"])]
    for seat in view["players"]:
        owner = "your" if seat["player"] == view["you"] else f"P{seat['player']}'s"
        zones.append((f"in {owner} hand", seat.get("hand", [])))
        for zone, name in (("fatigue", "fatigue area"), ("allies", "ally area"),
                           ("hits", "hit area")):
            zones.append((f"in {owner} {name}", seat[zone]))
    if view.get("kingpin"):
        zones.append(("the kingpin", [view["kingpin"]]))
    return zones


def _card_text(state: MicroMobState, cid: str, where: str) -> str:
    c = state.card(cid)
    return "\n".join([
        f"{cid} {c.name} ({c.module}), of the {c.colour} family, {where}.",
        f"  Boss side (city, hit and ally areas): hit {c.boss_hit}, hire {c.boss_hire}, ally "
        f"{c.boss_ally}. Spend goons adding up to at least {c.boss_hit} to hit this boss (in "
        f"your hit area he scores {c.boss_hit} v.p., nothing if the kingpin is {c.colour}), "
        f"{c.boss_hire} to hire his goon side into your hand, {c.boss_ally} to ally with him "
        "(2 v.p. and his power).",
        f"  Goon side (hand and fatigue area): adds {c.goon_hit} to a hit, {c.goon_money} to "
        f"a hire, {c.goon_ally} to an ally; 1 v.p. at the end.",
        f"  Ally power, {POWER_NAME[c.power]}: {POWER_TEXT[c.power]}.",
    ])


def _power_named(word: str) -> str | None:
    key = " ".join(word.lower().replace("_", " ").split())
    for power, name in POWER_NAME.items():
        if key in (power.replace("_", " "), name.lower()):
            return power
    return None


def _power_group(power: str) -> str:
    if power in SPECIAL_ABILITIES:
        return "A special ability: once a turn, before your action ('use CARD')."
    if power.startswith("extra_"):
        return "An action bonus: after that action, one more (optional; 'done' ends the turn)."
    if power.endswith("_plus"):
        return "A stat bonus: added by itself whenever you take that action."
    return "A scoring bonus: counted by itself at the end of the game."


# -- the end screen -------------------------------------------------------------------------

SUMMARY = "micro mob in brief: draft 2 goons, then on your turn use your allies' abilities, \
then one action: hit, hire or ally a boss of the city (pay with goons from your hand, they go \
to your fatigue area) or payroll (fatigue back to hand). When one boss is left, the kingpin, \
the game ends: 1 v.p. per goon, 2 per ally, the hit number of each hit - but hits of the \
kingpin's colour are worth nothing - plus bonus powers."
# the engine's own end-of-game lines, which the end report says again in full
SUPERSEDED = re.compile(r"Game over: |P\d+: -?\d+ v\.p\. \(goons |Winner\(s\): ")


def end_report(state: MicroMobState) -> list[str]:
    """Why the game ended, each score term by term as the rulebook counts it (hits wiped by
    the kingpin's colour named), and the winner with the tie-break that decided."""
    king = state.card(state.kingpin) if state.kingpin else None
    lines = [f"Game over: {state.end_reason}."]
    lines.append(f"Kingpin: {BOSS_TEXT[state.kingpin]}: hits of {king.colour} are worth "
                 "nothing" if king and state.kingpin else "No kingpin: every hit counts.")
    details = state.score_details()
    for p, s in enumerate(details):
        goons = len(state.hand[p]) + len(state.fatigue[p])
        allies = len(state.allies[p])
        lines.append(f"P{p + 1}: {s.total} v.p. = {s.goons} for {goons} goon(s) + {s.allies} "
                     f"for {allies} ally(ies) + {s.hits} from hits + {s.bonuses} bonus")
        lines.extend(f"    {line}" for line in _hit_lines(state, p, king))
        bonus = _bonus_text(state, p, goons)
        if bonus:
            lines.append(f"    bonus: {bonus}")
    lines.append(_winner_line(state, details))
    return lines


def _hit_lines(state: MicroMobState, p: int, king: Any) -> list[str]:
    """The hit cards of ``p``: which count, which the kingpin's colour wipes, which a colour
    change saves (the best ones, as :func:`score_player` does)."""
    counted: list[Any] = []
    wiped: list[Any] = []
    for cid in state.hits[p]:
        card = state.card(cid)
        (wiped if king is not None and card.colour == king.colour else counted).append(card)
    if not counted and not wiped:
        return []
    saves = [state.card(a).power for a in state.allies[p]].count("recolour")
    wiped.sort(key=lambda c: c.boss_hit, reverse=True)
    saved, wiped = wiped[:saves], wiped[saves:]
    out = ["hits: " + (", ".join(f"{c.id} {c.boss_hit}" for c in counted) or "none counted")]
    if saved:
        out.append("saved by colour change: " + ", ".join(f"{c.id} {c.boss_hit}" for c in saved))
    if wiped:
        out.append(f"wiped by the kingpin's colour ({king.colour}): "
                   + ", ".join(f"{c.id} (was {c.boss_hit})" for c in wiped))
    return out


def _bonus_text(state: MicroMobState, p: int, goons: int) -> str:
    powers = [state.card(a).power for a in state.allies[p]]
    parts = []
    for power, what, count in (("goon_bonus", "goon", goons),
                               ("ally_bonus", "ally", len(state.allies[p])),
                               ("hit_bonus", "hit", len(state.hits[p]))):
        n = powers.count(power)
        if n:
            parts.append(f"{n} x {count} (1 per {what})")
    return ", ".join(parts)


def _winner_line(state: MicroMobState, details: list[Any]) -> str:
    winners = state.winners()
    names = " and ".join(f"P{p + 1}" for p in winners)
    best = max(s.total for s in details)
    tied = [p for p, s in enumerate(details) if s.total == best]
    if len(tied) == 1:
        return f"Winner: {names}, with {best} v.p."
    if len(winners) > 1:
        return f"Winners: {names} share the win: tied on v.p., allies and hits."
    allies = {len(state.allies[p]) for p in tied}
    rule = "most allies" if len(allies) > 1 else "most v.p. from hits"
    return f"Winner: {names}: tied on {best} v.p., the tie broken by {rule}."
