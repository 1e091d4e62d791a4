"""What one player may see of a micro mob game, as JSON and as plain text for mail.

:func:`build_view` is the only place that reads the state for a player; the text is made
from the view alone, so the text can hold nothing the view does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mobadj.cards.micromob.cards import POWER_TEXT

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
        if p == player:
            seat["hand"] = [_goon(state, c) for c in state.hand[p]]
        seats.append(seat)
    view: dict[str, Any] = {
        "game": "micromob",
        "you": None if player is None else player + 1,
        "phase": state.phase,
        "to_act": [p + 1 for p in state.to_act()],
        "modules": list(state.modules),
        "deck": len(state.pile),
        "city": [_boss(state, c) for c in state.city],
        "pool": [_goon(state, c) for c in state.pool],
        "players": seats,
        "turn": {
            "number": state.turn,
            # allies that left for a hand since are not named (hands are secret)
            "abilities_used": sorted(a for a in state.used if a in state.allies[state.current]),
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
