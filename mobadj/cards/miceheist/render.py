"""What one player may see of a Mice Heist game, as data (:func:`view`) and as plain text
for mail and terminal (:func:`render`).

Everything is public except the sealed bets of the current Get Help step: a player sees
their own sealed bet, and of the others only whether they have bet yet.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mobadj.cards.miceheist import tracks

if TYPE_CHECKING:
    from mobadj.cards.miceheist.engine import MiceHeistState


def _seat(p: int) -> str:
    return f"P{p + 1}"


def view(state: MiceHeistState, player: int | None) -> dict[str, Any]:
    """JSON-able view for ``player`` (None: a spectator)."""
    d = state.data
    players = []
    for p in range(state.players):
        entry: dict[str, Any] = {
            "seat": _seat(p),
            "colour": state.colours[p],
            "stash": state.stash[p],
            "skills": [
                {
                    "key": k,
                    "name": d.skills[k].name,
                    "text": d.skills[k].text,
                    "covered": k in state.covered[p],
                }
                for k in state.skills[p]
            ],
        }
        if state.phase == "bet" and p != state.tester:
            entry["has_bet"] = p not in state.pending
        if p in state.bets:
            entry["bet"] = state.bets[p]
        players.append(entry)
    jobs = []
    for j in d.jobs:
        stack = state.stacks[j]
        top = d.obstacles[stack[0]] if stack else None
        jobs.append(
            {
                "job": j,
                "name": d.job_names[j],
                "top": top.text if top else None,
                "cheese_on_top": state.obstacle_cheese.get(top.id, 0) if top else 0,
                "left": len(stack),
                "track": {_seat(p): state.pos[j][p] for p in tracks.standing(state.pos[j])},
                "food": [f"{item} ({v})" for v, item in state.food[j]],
            }
        )
    chips = d.chips
    out: dict[str, Any] = {
        "game": "miceheist",
        "you": _seat(player) if player is not None else None,
        "turn": state.turn,
        "phase": state.phase,
        "testing": _seat(state.tester),
        "obstacle": state.obstacle.text if state.obstacle else None,
        "players": players,
        "jobs": jobs,
        "market": [
            {"key": k, "name": d.skills[k].name, "text": d.skills[k].text} for k in state.market
        ],
        "deck": len(state.deck),
        "bag": len(state.bag),
        "play_area": [chips[c].colour for c in state.center],
        "supply": state.supply,
        "track_length": d.track_length,
    }
    if state.test_chips:
        out["chips"] = [
            chips[c].label(f) + (" (set aside)" if x else "") for c, f, x in state.test_chips
        ]
        out["modifier"] = state.modifier
        out["rating"] = state.rating()
    if player is not None and player in state.sealed and player not in state.pending:
        out["your_bet"] = str(state.sealed[player])
    if state.is_over():
        out["scores"] = {_seat(p): s for p, s in enumerate(state.scores())}
        out["winners"] = [_seat(p) for p in state.winners()]
        out["claims"] = {_seat(p): [f"{i} ({v})" for v, i in c] for p, c in enumerate(state.claims)}
    return out


def render(state: MiceHeistState, player: int | None) -> str:
    """Plain text of :func:`view`."""
    v = view(state, player)
    lines = [f"Mice Heist, turn {v['turn']}: {v['testing']} is testing ({v['phase']})."]
    if v["you"]:
        lines[0] += f"  You are {v['you']}."
    if v["obstacle"]:
        lines.append(f"Obstacle: {v['obstacle']}")
    if "chips" in v:
        lines.append(
            f"Chips: {', '.join(f'#{i + 1} {c}' for i, c in enumerate(v['chips']))}; "
            f"skills {v['modifier']:+d}; rating {v['rating']}"
        )
    waiting = [_seat(p) for p in state.to_act()]
    if waiting:
        lines.append("To act: " + ", ".join(waiting))
    if "your_bet" in v:
        lines.append(f"Your sealed bet: {v['your_bet']}")
    lines.append("Players:")
    for p in v["players"]:
        skills = ", ".join(s["name"] + (" [covered]" if s["covered"] else "") for s in p["skills"])
        extra = ""
        if "has_bet" in p:
            extra = "  (has bet)" if p["has_bet"] else "  (betting...)"
        if "bet" in p:
            extra = f"  bet {p['bet']}"
        lines.append(f"  {p['seat']} {p['colour']}: {p['stash']} cheese; {skills}{extra}")
    if player is not None:
        mine = v["players"][player]["skills"]
        lines.append(
            "Your skills: "
            + "; ".join(
                f"{s['key']} ({s['text']})" + (" [covered]" if s["covered"] else "") for s in mine
            )
        )
    lines.append(f"Jobs (tracks of {v['track_length']} spaces):")
    for j in v["jobs"]:
        top = j["top"] or "complete"
        bounty = f" [{j['cheese_on_top']} cheese on it]" if j["cheese_on_top"] else ""
        track = ", ".join(f"{s}@{at}" for s, at in j["track"].items()) or "empty"
        lines.append(f"  {j['job']} {j['name']}: {top}{bounty}; {j['left']} left")
        lines.append(f"     track: {track}; food: {', '.join(j['food']) or 'all claimed'}")
    market = "; ".join(f"{m['name']} ({m['text']})" for m in v["market"])
    lines.append(f"Market: {market or 'empty'}  [deck {v['deck']}]")
    lines.append(
        f"Bag {v['bag']} chips; play area {len(v['play_area'])}; supply {v['supply']} cheese"
    )
    if "scores" in v:
        lines.append(
            "Final: "
            + ", ".join(f"{s} {n:g}" for s, n in v["scores"].items())
            + "; winner(s) "
            + ", ".join(v["winners"])
        )
    return "\n".join(lines)


# -- the end screen -------------------------------------------------------------------------

# a sealed bet as the others hear of it (the terminal narrates it; the bet shows at the reveal)
HIDDEN_MOVES = dict.fromkeys(("bet", "pass", "abstain"), "has sealed a bet")

SUMMARY = "Mice Heist in brief: on your turn select the top obstacle of a job; the others \
seal bets of cheese to help (revealed together); chips are drawn and you may pay cheese to \
activate skills, then test: reach the target to move up the job's track. When a job runs out \
of obstacles (or a finale is beaten) each track pays its food, best place first; score = food \
+ cheese in your stash."
# the engine's own end-of-game lines, which the end report says again in full
SUPERSEDED = re.compile(r"Totals: |Winner\(s\): ")


def end_report(state: MiceHeistState) -> list[str]:
    """Why the game ended (the final test is in the events just before), each player's food
    claims and stash as the rulebook counts them, and the winner with the tie-break."""
    lines = [f"Game over: {state.end_reason}."]
    scores = state.scores()
    for p in range(state.players):
        food = sum(v for v, _ in state.claims[p])
        items = ", ".join(f"{item} {v}" for v, item in state.claims[p]) or "no food"
        lines.append(f"{_seat(p)}: {scores[p]:g} = food {food} ({items}) + "
                     f"{state.stash[p]} cheese in the stash")
    winners = state.winners()
    names = " and ".join(_seat(p) for p in winners)
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    if len(tied) == 1:
        lines.append(f"Winner: {names}, with {best:g}.")
    elif len(winners) == 1:
        lines.append(f"Winner: {names}: tied on {best:g}, the tie broken by the most cheese.")
    else:
        lines.append(f"Winners: {names} share the win: tied on points and cheese.")
    return lines
