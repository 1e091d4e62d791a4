"""Plain-text Iron Triangle board for mail and terminal, drawn only from a player's view."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mobadj.cards.irontriangle.scoring import role_met

if TYPE_CHECKING:
    from mobadj.cards.irontriangle.engine import IronTriangleState

HELP = {
    "job": "job <card or slot> <fast|cheap|good>      e.g. job 2 cheap",
    "offer": "offer <card or slot>                      e.g. offer 2",
    "negotiate": "pick P<n>                                 e.g. pick P2",
}


def _card(c: dict[str, Any]) -> str:
    return (f"{c['name']}: job {c['stars']}* | offer ${c['price']}, {c['days']}d, "
            f"{c['modifier']:+d}* | back {c['back']}")


def render_view(v: dict[str, Any]) -> str:
    """The view dict of :meth:`IronTriangleState.view` as text (no hidden data in, none out)."""
    lines = [f"Mobsters of the Iron Triangle - round {v['round']}, {v['phase']}"]
    if v["boss"]:
        lines.append(f"Mob Boss: {v['boss']}")
    if v["job"]:
        j = v["job"]
        lines.append(f"Job: {j['name']} ({j['stars']} stars), wanted {v['feature'].upper()}")
    lines.append("")
    lines.append("      Money  Quality  Time  Notoriety  Hand  Offer")
    for s in v["seats"]:
        offer = s.get("offer", "-")
        if offer is None:
            text = "(choosing)"
        elif offer == "-":
            text = ""
        else:
            text = offer.get("back", "face down")
            if "card" in offer:
                shown = "" if not offer["face_down"] else " (face down)"
                c = offer["card"]
                text += f": {c['name']} ${c['price']} {c['days']}d {c['modifier']:+d}*{shown}"
        time = "finish" if s["time"] == v["finish"] else (
            f"c{s['circle']}" if s["time"] == 0 else f"d{s['time']}")
        role = f"  [{s['role']}]" if "role" in s else ""
        lines.append(f"  {s['player']:<3} ${s['money']:<5} {s['quality']:>3}*    {time:<6}"
                     f" {s['notoriety']:>5}      {s['hand_size']}    {text}{role}")
    track = []
    for pos, stack in enumerate(v["time_track"]):
        if stack:
            name = "start" if pos == 0 else ("finish" if pos == v["finish"] else f"d{pos}")
            track.append(f"{name}: {'/'.join(stack)}")
    lines.append("Time track (last first; a stack bottom/top): " + "  ".join(track))
    lines.append(f"Draw pile {v['draw_pile']}, discards {v['discard_pile']}")
    last = v.get("last_round")
    if last:
        j = last["job"]
        lines.append(f"Last round: {last['boss']} hired {j['name']} ({j['stars']} stars), "
                     f"wanted {last['feature'].upper()}")
        for o in last["offers"]:
            what = o["back"]
            if "card" in o:
                c = o["card"]
                what += f": {c['name']} ${c['price']} {c['days']}d {c['modifier']:+d}*"
            tag = " (picked)" if o["picked"] else (" (face down)" if o["face_down"] else "")
            lines.append(f"  {o['player']}: {what}{tag}")
    you = v.get("you")
    if you:
        lines.append("")
        r = you["role"]
        lines.append(f"You are {you['player']}. Secret role: {r['name']} - {r['text']} "
                     f"(+{r['bonus']})")
        for i, c in enumerate(you["hand"], 1):
            lines.append(f"  {i}. {_card(c)}")
        if you["player"] in v["to_act"] and v["phase"] in HELP:
            lines.append("Your move: " + HELP[v["phase"]])
        if you["may_also"]:
            lines.append("You may also, at any time now: " + "; ".join(you["may_also"]))
    if v["phase"] == "over":
        lines.append("")
        lines.append("Final Notoriety: " + ", ".join(
            f"{s['player']} {score:g}" for s, score in zip(v["seats"], v["scores"], strict=True)))
        lines.append("Winner: " + ", ".join(v["winners"]))
    elif v["to_act"]:
        lines.append("Waiting for: " + ", ".join(v["to_act"]))
    return "\n".join(lines)


# -- the end screen -------------------------------------------------------------------------

# a sealed offer as the others hear of it (its back shows once all offers are in)
HIDDEN_MOVES = {"offer": "has made an offer, face down"}

SUMMARY = ("Iron Triangle in brief: the player last on the Time track is the Mob Boss and "
           "plays a Job, wanting it fast, cheap or good; every other player offers a card "
           "face down (revealed together by their backs); the table talks ('say ...') until "
           "the boss picks one offer: money, quality stars and days move. When every cube "
           "reaches the finish, Notoriety = the values above your Money and Quality cubes, "
           "plus your secret role's bonus if you met it.")
# the engine's own end-of-game lines, which the end report says again in full
SUPERSEDED = re.compile(r"Final Notoriety: |Winner: ")


def end_report(state: IronTriangleState) -> list[str]:
    """Each player's Notoriety as the rulebook counts it (the two tracks, the revealed role
    met or not) and the winner with the Time-track tie-break (role reveals are events)."""
    deck = state.deck
    lines = ["Game over: every cube has reached the finish space."]
    scores = state.scores()
    for p in range(state.players):
        role = deck.roles[state.roles[p]]
        met = role_met(deck, role, p, state.money, state.quality)
        money, quality = state.money[p], state.quality[p]
        lines.append(
            f"P{p + 1}: {scores[p]:g} Notoriety = {deck.money.notoriety(money)} for ${money} "
            f"+ {deck.quality.notoriety(quality)} for {quality} stars + "
            + (f"{role.bonus} for {role.name} (met)" if met else f"0 for {role.name} (not met)"))
    winners = state.winners()
    names = " and ".join(f"P{p + 1}" for p in winners)
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    if len(tied) == 1:
        lines.append(f"Winner: {names}, with {best:g} Notoriety.")
    else:
        lines.append(f"Winner: {names}: tied on {best:g} Notoriety with "
                     + ", ".join(f"P{p + 1}" for p in tied if p not in winners)
                     + "; the tie goes to the cube highest on the Time track.")
    return lines
