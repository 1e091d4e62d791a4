"""What one player may see of a micro mob game, as JSON and as plain text for mail.

:func:`build_view` is the only place that reads the state for a player; the text is made
from the view alone, so the text can hold nothing the view does not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mobadj.cards.micromob.cards import POWER_TEXT
from mobadj.cards.micromob.legal import BOSS_TEXT

if TYPE_CHECKING:
    from mobadj.cards.micromob.engine import MicroMobState


def _boss(state: MicroMobState, cid: str) -> dict[str, Any]:
    c = state.card(cid)
    return {"id": cid, "name": c.name, "colour": c.colour, "hit": c.boss_hit,
            "hire": c.boss_hire, "ally": c.boss_ally, "power": c.power}


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
        },
    }
    if state.phase == "over":
        view["kingpin"] = _boss(state, state.kingpin) if state.kingpin else None
        view["end_reason"] = state.end_reason
        view["winners"] = [p + 1 for p in state.winners()]
    return view


def _boss_line(b: dict[str, Any]) -> str:
    return (f"{b['id']:>4} {b['name']:<10} hit {b['hit']} hire {b['hire']} ally {b['ally']}"
            f"  {b['colour']:<6} {b['power']}")


def _goon_line(g: dict[str, Any]) -> str:
    return f"{g['id']:>4} {g['name']:<10} hit {g['hit']} money {g['money']} ally {g['ally']}"


def render_view(view: dict[str, Any]) -> str:
    """Plain text of a view, for the terminal and for mail."""
    out = []
    you = view["you"]
    who = f"P{you}" if you else "spectator"
    to_act = ", ".join(f"P{p}" for p in view["to_act"]) or "nobody"
    out.append(f"micro mob - {view['phase']} - view of {who} - to act: {to_act}")
    out.append(f"Deck: {view['deck']} card(s)")
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
    turn = view["turn"]
    if you and you in view["to_act"] and view["phase"] == "play":
        if turn["action_taken"]:
            out.append("Your action is taken: take a bonus action or say 'done'.")
        else:
            out.append("Your turn: use ally abilities first, then hit, hire, ally or payroll.")
        powers = sorted({a["power"] for a in view["players"][you - 1]["allies"]})
        out.extend(f"  {p}: {POWER_TEXT[p]}" for p in powers)
    if view["phase"] == "over":
        king = view["kingpin"]
        out.append(f"Game over ({view['end_reason']}).")
        out.append("Kingpin: " + (_boss_line(king) if king else "none"))
        out.append("Winner(s): " + ", ".join(f"P{p}" for p in view["winners"]))
    return "\n".join(out)


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
