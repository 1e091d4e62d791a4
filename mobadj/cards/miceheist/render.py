"""What one player may see of a Mice Heist game, as data (:func:`view`) and as plain text
for mail and terminal (:func:`render`).

Everything is public except the sealed bets of the current Get Help step: a player sees
their own sealed bet, and of the others only whether they have bet yet.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mobadj.cards.miceheist import tracks
from mobadj.cards.miceheist.actions import Bet, Learn, Use

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
        # which chips are in the bag is public (every other chip lies face up); their order
        # is not
        "bag_chips": _chip_counts(state, sorted(state.bag)),
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
        out["your_bet"] = state.bet_text(player, state.sealed[player])
    if state.is_over():
        out["scores"] = {_seat(p): s for p, s in enumerate(state.scores())}
        out["winners"] = [_seat(p) for p in state.winners()]
        out["claims"] = {_seat(p): [f"{i} ({v})" for v, i in c] for p, c in enumerate(state.claims)}
    return out


def _chip_counts(state: MiceHeistState, chips: list[int]) -> list[str]:
    """Chips by colour with both faces and how many: ``yellow +1/-1 x2``."""
    counts: dict[str, int] = {}
    for c in chips:
        chip = state.data.chips[c]
        name = f"{chip.colour} {chip.faces[0]:+d}/{chip.faces[1]:+d}"
        counts[name] = counts.get(name, 0) + 1
    return [name + (f" x{n}" if n > 1 else "") for name, n in counts.items()]


def _short(state: MiceHeistState, key: str) -> str:
    return ", ".join(e.short() for e in state.data.skills[key].effects)


def render_screen(state: MiceHeistState, player: int) -> str:
    """What a player acts on, in about 15 rows of 80 columns at six players: the test, their
    skills, one row per other player, one per job, the market and the bag.  The whole table
    (food, skill texts in full) is :func:`render`."""
    v = view(state, player)
    me = v["players"][player]
    head = f"Turn {v['turn']}: {v['testing']} tests"
    ob = state.obstacle
    lines = [f"{head} {ob.id} {ob.name}: target {ob.target}, {'+'.join(ob.icons) or 'no icons'}"
             f", pays {ob.payout}{', finale' if ob.finale else ''}." if ob is not None
             else f"{head}; no obstacle yet."]
    if "chips" in v:
        chips = ", ".join(f"#{i + 1} {c}" for i, c in enumerate(v["chips"]))
        lines.append(f"This test: chips {chips}; skills {v['modifier']:+d}; rating "
                     f"{v['rating']}.")
    if "your_bet" in v:
        lines.append(f"Your sealed bet: {v['your_bet']}.")
    testing = player == state.tester
    ready = "; ".join(f"{s['name']} {_short(state, s['key'])}" for s in me["skills"]
                      if not s["covered"]) or "none"
    covered = ", ".join(s["name"] for s in me["skills"] if s["covered"])
    if testing:  # the skills to activate; a bettor needs its cheese and covered skills
        lines.append(f"You, {me['seat']} {me['colour']}: {me['stash']} cheese. Skills: {ready}"
                     + (f"; covered: {covered}." if covered else "."))
    else:
        lines.append(f"You, {me['seat']} {me['colour']}: {me['stash']} cheese; "
                     + (f"covered skills: {covered}." if covered else "no skill covered."))
    others = []
    for p in v["players"]:
        if p is me:
            continue
        covered = sum(s["covered"] for s in p["skills"])
        extra = ""
        if "has_bet" in p:
            extra = ", has bet" if p["has_bet"] else ", betting"
        if "bet" in p:
            extra = f", bet {p['bet']}"
        others.append(f"{p['seat']} {p['colour']}: {p['stash']} cheese, {covered} covered"
                      f"{extra}")
    width = max(map(len, others), default=0)
    per_row = 2 if 2 * width + 2 <= 80 else 1
    lines.extend("  ".join(f"{o:<{width}}" for o in others[i:i + per_row]).rstrip()
                 for i in range(0, len(others), per_row))
    for j in v["jobs"]:
        track = " ".join(f"{s}:{at}" for s, at in j["track"].items()) or "nobody yet"
        top = state.data.obstacles[state.stacks[j["job"]][0]] if j["left"] else None
        card = (f"{top.id} {top.name}, target {top.target}, "
                f"{'+'.join(top.icons) or 'no icons'}" if top else "complete")
        bounty = f" +{j['cheese_on_top']} cheese" if j["cheese_on_top"] else ""
        lines.append(f"{j['job']}: {card}{bounty}; {j['left']} left; {track}")
    if testing:
        market = ", ".join(m["name"] for m in v["market"]) or "empty"
        lines.append(f"Market: {market}; deck {v['deck']}.")
    counts: dict[str, int] = {}
    for c in sorted(state.bag):
        counts[state.data.chips[c].colour] = counts.get(state.data.chips[c].colour, 0) + 1
    bag = ", ".join(f"{n} {colour}" if n > 1 else colour for colour, n in counts.items())
    lines.append(f"Bag: {bag or 'empty'}; cheese in the supply {v['supply']}.")
    if player in state.to_act():
        move = move_hint(state, player)
        if move:
            lines.append("Your move: " + move)
    return "\n".join(lines)


def move_hint(state: MiceHeistState, player: int) -> str:
    """What ``player`` may do now, with examples taken from their own legal moves (their
    skills, the market, the jobs left), never a move they cannot make."""
    acts = state.legal_actions(player)
    phase = state.phase

    def some(moves: list[Any], n: int = 2) -> str:
        return ", ".join(str(m) for m in moves[:n])

    if phase == "select":
        return f"select a job's obstacle ({some(acts, 1)})" if acts else ""
    if phase == "bet":
        bets = [b for b in acts if isinstance(b, Bet) and b.amount]
        named = [b for b in bets if b.uncover][:1]
        examples = some([b for b in bets if not b.uncover][:2 - len(named)] + named)
        return f"seal a bet of cheese ({examples}) or pass" if examples else "pass"
    if phase == "activate":
        uses = list({u.skill: u for u in reversed(acts) if isinstance(u, Use)}.values())[::-1]
        if not uses:
            return "test (no skill can be used now)"
        return f"use a skill ({some(uses)}), then test"
    if phase == "learn":
        learns = [a for a in acts if isinstance(a, Learn) and a.skill]
        return (f"learn a market skill ({some(learns, 1)}) or learn nothing" if learns
                else "learn nothing")
    return ""


def explain(state: MiceHeistState, player: int, topic: str) -> str:
    """``help NAME``: a skill in view (anyone's, the market's), an obstacle on top of a job
    or under test, a job, the chips; in plain words."""
    from mobadj.cards.miceheist.data import slug

    key = slug(topic)
    d = state.data
    seen = {k for p in range(state.players) for k in state.skills[p]} | set(state.market)
    if key in seen:
        skill = d.skills[key]
        owners = [f"P{p + 1}" + (" (covered)" if key in state.covered[p] else "")
                  for p in range(state.players) if key in state.skills[p]]
        where = ("held by " + ", ".join(owners)) if owners else "in the market"
        return (f"{skill.name} ({where}): {skill.text}. To use it, pay 1 cheese from your "
                "stash onto it while activating skills (it is then covered until a bet or an "
                "abstention uncovers it).")
    tops = {d.obstacles[s[0]] for s in state.stacks.values() if s}
    if state.obstacle is not None:
        tops.add(state.obstacle)
    for ob in tops:
        if key in (slug(ob.id), slug(ob.name)):
            icons = ", ".join(ob.icons) or "none"
            fin = (" A finale: beating it ends the game; failing it leaves it in play."
                   if ob.finale else "")
            return (f"{ob.id} {ob.name}, job {ob.job}: the test succeeds with a rating of "
                    f"{ob.target} or more (chips drawn plus skills). Icons: {icons}. Success "
                    f"moves the tester up {ob.payout} on track {ob.job}, and each helper up "
                    f"by their bet.{fin}")
    if key in ("chips", "bag", "chip"):
        return ("Chips: each has two faces and shows one at random when drawn. In the bag: "
                + (", ".join(_chip_counts(state, sorted(state.bag))) or "none")
                + ". In the play area: " + (", ".join(_chip_counts(state, state.center))
                                           or "none")
                + ". When the bag is empty, the play area's chips go back into it.")
    if key.upper() in d.jobs:
        j = key.upper()
        foods = ", ".join(f"{item} ({v})" for v, item in state.food[j])
        return (f"Job {j}, {d.job_names[j]}: {len(state.stacks[j])} obstacle(s) left; at the "
                f"end its track pays {foods or 'nothing left'}, best place first.")
    return (f"'{topic}' is not a skill, obstacle or job in view: try "
            + _examples(state, player, sorted(tops, key=lambda ob: ob.id)) + " or 'help chips'.")


def _examples(state: MiceHeistState, player: int, tops: list[Any]) -> str:
    """What ``help`` can explain, with names from the table as it is (so the hint never
    names a skill nobody holds): a skill of one's own or the market's, an obstacle, a job."""
    d = state.data
    own = [*state.skills[player]] if 0 <= player < state.players else []
    skills = own + list(state.market)
    out = []
    if skills:
        out.append(f"a skill's name (help {d.skills[skills[0]].name.lower()})")
    if tops:
        out.append(f"an obstacle (help {tops[0].id})")
    jobs = [j for j in d.jobs if state.stacks[j]] or list(d.jobs)
    out.append(f"a job (help {jobs[0]})")
    return ", ".join(out)


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
                f"{s['name']} ({s['text']})" + (" [covered]" if s["covered"] else "") for s in mine
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
    lines.append(f"Bag ({v['bag']} chips): {', '.join(v['bag_chips']) or 'empty'}; play area "
                 f"{len(v['play_area'])}; supply {v['supply']} cheese")
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
HIDDEN_MOVES_TOGETHER = {"has sealed a bet": "have sealed their bets"}

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
