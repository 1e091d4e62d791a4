"""Plain-text Iron Triangle board for mail and terminal, drawn only from a player's view."""

from __future__ import annotations

from typing import Any

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
