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


def explain(state: IronTriangleState, player: int, topic: str) -> str:
    """``help CARD``: a card the player can see (their hand, the job, an offer turned up, the
    last round's), their own role, a back, or a track, in plain words."""
    from mobadj.cards.irontriangle.cards import normalize

    v = state.view(player)
    key = normalize(topic)
    cards = list(v["you"]["hand"]) if v.get("you") else []
    if v["job"]:
        cards.append(v["job"])
    cards += [s["offer"]["card"] for s in v["seats"] if isinstance(s.get("offer"), dict)
              and "card" in s["offer"]]
    last = v.get("last_round")
    if last:
        cards.append(last["job"])
        cards += [o["card"] for o in last["offers"] if "card" in o]
    hand = v["you"]["hand"] if v.get("you") else []
    if key.isdigit() and 1 <= int(key) <= len(hand):
        cards.insert(0, hand[int(key) - 1])
        key = normalize(hand[int(key) - 1]["name"])
    for c in cards:
        if normalize(c["name"]) == key:
            return (f"{c['name']}. Played as the Mob Boss's job: worth {c['stars']} quality "
                    f"stars to the boss, plus the picked offer's stars. Offered by a gangster: "
                    f"the boss pays ${c['price']}, the job takes {c['days']} day(s) of the "
                    f"boss's time and its quality changes by {c['modifier']:+d} star(s); its "
                    f"back, seen while it lies face down, says {c['back']}.")
    role = v["you"]["role"] if v.get("you") else None
    if role and key in (normalize(role["name"]), "role", normalize("the " + role["name"])):
        text = role["text"].rstrip(".")  # the card's text ends its own sentence
        return (f"Your secret role, {role['name']}: {text}. If it holds at the end you "
                f"score {role['bonus']} more Notoriety.")
    backs = {"cheapandfast", "fastandgood", "goodandcheap"}
    if key in backs:
        return ("The backs of the offers: Cheap and Fast ($1-2, 1 day, 0 or -1 star), Fast "
                "and Good ($3-6, mostly 1 day, +1 to +3 stars), Good and Cheap ($1-2, 2-3 "
                "days, +2 or +3 stars). The boss sees only the backs until the pick.")
    if key in ("money", "quality", "time", "notoriety", "tracks"):
        return ("Notoriety at the end is the value above your Money cube (none below $5, "
                "then one more every $5) plus the one above your Quality cube (1 at 2 stars, "
                "2 at 4, 3 at 7, 4 at 10, and on), plus your role's bonus if it is met. Time: "
                "the player last on it is the next Mob Boss; a job moves the boss on by the "
                "offer's days; the game ends when every cube is on the finish.")
    return (f"'{topic}' is not a card you can see: try a card of your hand by its name or "
            "slot (help 1), the job, your role (help role), a back (help fast and good) or "
            "'help tracks'.")


def _offer_cell(offer: Any, mark_face_down: bool) -> str:
    """A seat's offer in its row: still choosing, none, its back (once all are in), and the
    card to whoever may see it (``(face down)`` said on the full table)."""
    if offer is None:
        return "(choosing)"
    if offer == "-":
        return ""
    text = str(offer.get("back", "face down"))
    if "card" in offer:
        c = offer["card"]
        shown = " (face down)" if mark_face_down and offer["face_down"] else ""
        text += f": {c['name']} ${c['price']} {c['days']}d {c['modifier']:+d}*{shown}"
    return text


def _time_cell(seat: dict[str, Any], finish: int) -> str:
    """Where a seat's Time cube stands: its starting circle, a day, or the finish."""
    if seat["time"] == finish:
        return "finish"
    return f"c{seat['circle']}" if seat["time"] == 0 else f"d{seat['time']}"


def _track(v: dict[str, Any]) -> str:
    """The Time track, last first: each starting circle on its own ("c4 P2  c5 P3", one cube
    a circle), then each day's or the finish's stack bottom/top ("d3 P1/P4"), so circles
    side by side never read as one stack."""
    circle = {s["player"]: s["circle"] for s in v["seats"]}
    start = sorted(v["time_track"][0], key=circle.__getitem__) if v["time_track"] else []
    track = [f"c{circle[p]} {p}" for p in start]
    for pos, stack in enumerate(v["time_track"][1:], start=1):
        if stack:
            name = "finish" if pos == v["finish"] else f"d{pos}"
            track.append(f"{name} {'/'.join(stack)}")
    return "  ".join(track)


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
        text = _offer_cell(s.get("offer", "-"), mark_face_down=True)
        time = _time_cell(s, v["finish"])
        role = f"  [{s['role']}]" if "role" in s else ""
        lines.append(f"  {s['player']:<3} ${s['money']:<5} {s['quality']:>3}*    {time:<6}"
                     f" {s['notoriety']:>5}      {s['hand_size']}    {text}{role}")
    lines.append("Time track (last first; a stack bottom/top): " + _track(v))
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


# -- the terminal's short screen ---------------------------------------------------------------

def render_screen(v: dict[str, Any]) -> str:
    """What a player acts on, in at most about 15 rows of 80 columns at six players: the
    round, the tracks (one row a player), the time track, the last round in a row, the
    player's role and hand, their move.  The whole table is :func:`render_view`."""
    head = f"Iron Triangle, round {v['round']}, {v['phase']}"
    if v["boss"]:
        head += f": {v['boss']} is the Mob Boss"
    if v["job"]:
        j = v["job"]
        head += f"; job {j['name']} ({j['stars']} stars), wanted {v['feature'].upper()}"
    lines = [head + "."]
    lines.append("      Money Quality Time   Notoriety Hand  Offer")
    for s in v["seats"]:
        text = _offer_cell(s.get("offer", "-"), mark_face_down=False)
        time = _time_cell(s, v["finish"])
        lines.append(f"  {s['player']:<3} ${s['money']:<4} {s['quality']:>3}*  {time:<6} "
                     f"{s['notoriety']:>5}   {s['hand_size']:>3}   {text}".rstrip())
    lines.append(f"Time track, last first: {_track(v)}; pile {v['draw_pile']}")
    last = v.get("last_round")
    if last and v["phase"] == "job":
        j = last["job"]
        picked = next((o for o in last["offers"] if o["picked"]), None)
        shown = ""
        if picked is not None and "card" in picked:
            c = picked["card"]
            shown = f", to {picked['player']}: {c['name']} ${c['price']} {c['days']}d " \
                    f"{c['modifier']:+d}*"
        lines.append(f"Last round: {last['boss']} hired {j['name']} ({j['stars']} stars, "
                     f"{last['feature']}){shown}")
    you = v.get("you")
    if you:
        r = you["role"]
        lines.append(f"You, {you['player']}: {r['name']}, +{r['bonus']} if it holds at the end "
                     "('help role')")
        for i, c in enumerate(you["hand"], 1):
            lines.append(f"  {i}. {_card(c)}")
        also = "; ".join(you["may_also"])
        if you["player"] in v["to_act"] and v["phase"] in HELP:
            lines.append("Your move: " + " ".join(HELP[v["phase"]].split())
                         + (f"; also: {also}" if also else ""))
        elif also:
            lines.append("You may also, at any time now: " + also)
    return "\n".join(lines)


# -- the end screen -------------------------------------------------------------------------

# a sealed offer as the others hear of it (its back shows once all offers are in)
HIDDEN_MOVES = {"offer": "has made an offer, face down"}
HIDDEN_MOVES_TOGETHER = {"has made an offer, face down": "have made their offers, face down"}

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
