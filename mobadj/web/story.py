"""The public story of a game: the one place that decides what its pages may show.

A story is a list of steps, one per phase: every adjudicated phase (its position at the
start, its orders with results and reasons, what followed) and then the current phase (its
position only: orders given for it are secret until it is adjudicated).  The inputs are the
judge's standing results, which hold only adjudicated phases, and the game's current state;
submitted orders are never read here.  Card games are read through the observer's view;
press is the press sent to everyone, from :meth:`Store.broadcast_press`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mobadj.judge.hosts import Host
from mobadj.web.links import step_id

_STANDARD_PHASE = re.compile(r"^([SFW])(\d{4})([MRA])$")
_MOBTOWN_PHASE = re.compile(r"^(\d{4})-(\d{2})-(?:(START)|W([1-4])-([MRA]))$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KINDS = {"M": "", "R": " retreats", "A": " adjustments"}
_ACTED = re.compile(r"^P\d+: (moved|no command; .*)$")


@dataclass(frozen=True)
class OrderLine:
    """One adjudicated order as published."""

    power: str
    order: str
    result: str  # succeeds | fails | invalid
    reason: str | None
    default: bool = False  # the rules' default for a missing order


@dataclass(frozen=True)
class Don:
    """Mobtown II: a mob's Don, where he stands and whether he is free."""

    mob: str
    space: str
    captor: str | None


@dataclass
class Step:
    """One phase of the game as the pages show it."""

    id: str
    phase: str
    label: str
    group: str  # the calendar's group: the year, or the month and year in Mobtown
    short: str  # its place in the group: "Spring", "Fall retreats", "Week 2"
    adjudicated: bool
    final: bool = False  # the position after the last phase of a finished game
    position: dict[str, Any] | None = None  # board games: the position at the start
    orders: list[OrderLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # dislodgements, centre changes, news
    events: list[str] = field(default_factory=list)  # public events of the phase
    table: str = ""  # card games: the public table after the move; others: the status
    log: list[str] = field(default_factory=list)  # card games: the public log so far
    dons: list[Don] = field(default_factory=list)
    gaol: dict[str, int] = field(default_factory=dict)
    result_id: int | None = None

    @property
    def centres(self) -> dict[str, int]:
        """Supply centres per power at the start of the step (board games)."""
        centers = (self.position or {}).get("centers") or {}
        return {p: len(c) for p, c in centers.items()}


@dataclass(frozen=True)
class Power:
    id: str
    name: str
    colour: str


@dataclass
class Story:
    """Everything public about a game's past and present."""

    kind: str
    title: str
    board: bool  # drawn on a map (Diplomacy, Mobtown II)
    cards: bool
    steps: list[Step]
    powers: list[Power]
    outcome: str = ""  # the final result in words, once the game is over
    scores: list[Any] = field(default_factory=list)  # card games: final ScoreRows
    seed: Any = None  # card games: the SeedCheck, once over
    commitment: str | None = None  # card games: the seed's commitment, from the start

    def index_of(self, sid: str) -> int | None:
        for i, s in enumerate(self.steps):
            if s.id == sid:
                return i
        return None


def calendar_place(kind: str, phase: str) -> tuple[str, str]:
    """(group, short) of a phase for the calendar: ``("1901", "Fall retreats")``,
    ``("July 1919", "Week 2")``; other games are one group."""
    m = _STANDARD_PHASE.match(phase)
    if m:
        return m.group(2), _SEASONS[m.group(1)] + _KINDS[m.group(3)]
    m = _MOBTOWN_PHASE.match(phase)
    if m:
        month = f"{_MONTHS[int(m.group(2)) - 1]} {m.group(1)}"
        if m.group(3):
            return month, "Don placement"
        return month, f"Week {m.group(4)}" + _KINDS[m.group(5)]
    return "", phase


def build(game: Any, results: list[dict[str, Any]], host: Host) -> Story:
    """The story of ``game`` (a store Game) from its standing results."""
    from mobadj.judge.cardhost import CardHost

    if isinstance(host, CardHost):
        return _cards(game, results, host)
    if hasattr(host, "game_map"):
        return _board(game, results, host)
    return _generic(game, results, host)


def _unique(steps: list[Step]) -> list[Step]:
    seen: set[str] = set()
    for s in steps:
        base, n = s.id, 1
        while s.id in seen:
            n += 1
            s.id = f"{base}-{n}"
        seen.add(s.id)
    return steps


def _step(kind: str, phase: str, label: str, adjudicated: bool, **more: Any) -> Step:
    group, short = calendar_place(kind, phase)
    return Step(step_id(phase), phase, label, group, short, adjudicated, **more)


# -- Diplomacy and Mobtown II ---------------------------------------------------------------


def _board(game: Any, results: list[dict[str, Any]], host: Any) -> Story:
    gm = host.game_map
    powers = [Power(pid, p.name, p.colour or "#555555") for pid, p in gm.powers.items()]
    names = {p.id: p.name for p in powers}
    steps: list[Step] = []
    for r in results:
        data = r["report"].get("data") or {}
        orders = [_order(d) for d in data.get("results") or []]
        orders += [_order(d, default=True) for d in data.get("defaults") or []]
        step = _step(host.kind, r["phase"], host.phase_label(r["state_before"]), True,
                     position=r["state_before"]["position"], orders=orders,
                     events=[str(e) for e in data.get("events") or []],
                     notes=_board_notes(data, names), result_id=r["id"])
        steps.append(_mobtown(step) if host.kind == "mobtown2" else step)
    state = game.state
    if state is not None:
        over = game.status == "ended"
        label = "Final position" if over else host.phase_label(state)
        step = _step(host.kind, host.phase(state), label, False, final=over,
                     position=state["position"])
        steps.append(_mobtown(step) if host.kind == "mobtown2" else step)
    story = Story(host.kind, host.title, True, False, _unique(steps), powers)
    if game.status == "ended":
        story.outcome = _board_outcome(results, steps, names)
    return story


def _order(d: dict[str, Any], default: bool = False) -> OrderLine:
    return OrderLine(str(d.get("power", "")), str(d.get("order", "")),
                     str(d.get("result", "")), d.get("reason"), default)


def _board_notes(data: dict[str, Any], names: dict[str, str]) -> list[str]:
    notes = []
    after = data.get("position") or {}
    for power, lst in sorted((after.get("dislodged") or {}).items()):
        for d in lst:
            where = ", ".join(d.get("retreats") or []) or "nowhere: it is disbanded"
            notes.append(f"Dislodged: {names.get(power, power)} {d.get('unit')} (attacked "
                         f"from {d.get('from')}) may retreat to {where}.")
    for prov, old, new in data.get("centre_changes") or []:
        notes.append(f"{prov}: {names.get(old, old) if old else 'neutral'} → "
                     f"{names.get(new, new)}")
    return notes


def _board_outcome(results: list[dict[str, Any]], steps: list[Step],
                   names: dict[str, str]) -> str:
    winner = None
    if results:
        winner = (results[-1]["report"].get("data") or {}).get("winner")
    counts = steps[-1].centres if steps else {}
    table = ", ".join(f"{names.get(p, p)} {n}" for p, n in
                      sorted(counts.items(), key=lambda x: (-x[1], x[0])))
    if winner:
        return (f"{names.get(winner, winner)} wins with {counts.get(winner, 0)} supply "
                f"centres. Final centres: {table}.")
    return f"The game is over (ended by the GM). Final centres: {table}."


def _mobtown(step: Step) -> Step:
    """Dons (free or captive) and the gaol of the step's position."""
    units = (step.position or {}).get("units") or {}
    gangs: dict[str, str] = {}
    for power, lst in units.items():
        for u in lst:
            kind, _, where = str(u).partition(" ")
            if kind == "G":
                gangs[where.strip()] = power
    for power, lst in sorted(units.items()):
        for u in lst:
            kind, _, rest = str(u).partition(" ")
            space = rest.replace("captive", "").strip()
            if kind == "D":
                captor = gangs.get(space) if "captive" in rest else None
                step.dons.append(Don(power, space, captor if captor != power else None))
            elif kind == "G" and space == "MTPD":
                step.gaol[power] = step.gaol.get(power, 0) + 1
    return step


# -- card games -------------------------------------------------------------------------------


def _cards(game: Any, results: list[dict[str, Any]], host: Any) -> Story:
    from mobadj.web import cardview

    n = int((game.state or {}).get("players") or 0)
    powers = [Power(f"P{i + 1}", f"P{i + 1}", "") for i in range(n)]
    steps: list[Step] = []
    for r in results:
        data = r["report"].get("data") or {}
        acted = [ln for ln in str(r["report"].get("text", "")).split("\n\n", 1)[0].splitlines()
                 if _ACTED.match(ln)]
        steps.append(Step(step_id(r["phase"]), r["phase"], f"Move {r['phase'][1:]}", "",
                          r["phase"], True, notes=acted,
                          events=[str(e) for e in data.get("public_events") or []],
                          result_id=r["id"]))
    state = game.state
    story = Story(host.kind, host.title, False, True, steps, powers)
    if state is None:
        return story
    current = cardview.replay(host.kind, state)
    over = current.is_over()
    phase = host.phase(state)
    steps.append(Step(step_id(phase), phase, "Final table" if over else
                      f"Move {phase[1:]} (waiting)", "", phase, False, final=over,
                      table=current.render(None), log=current.history(None)))
    story.steps = _unique(steps)
    story.commitment = cardview.commitment(state)
    if over:
        story.scores = cardview.final_scores(current)
        story.seed = cardview.seed_check(host.kind, state, over)
        winners = [s.seat for s in story.scores if s.winner]
        story.outcome = ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)
    elif game.status == "ended":
        story.outcome = "The game is over (ended by the GM before its end)."
    return story


def card_step_table(kind: str, step: Step, state_after: dict[str, Any]) -> None:
    """Fill a past move's public table and log (a replay: done only for a page shown)."""
    from mobadj.web import cardview

    played = cardview.replay(kind, state_after)
    step.table = played.render(None)
    step.log = played.history(None)


# -- any other game ---------------------------------------------------------------------------


def _generic(game: Any, results: list[dict[str, Any]], host: Host) -> Story:
    """A game the pages know nothing of: each phase's published report, the public status."""
    steps = [_step(host.kind, r["phase"], r["phase"], True, result_id=r["id"],
                   table=str(r["report"].get("text", ""))) for r in results]
    if game.state is not None:
        phase = host.phase(game.state)
        steps.append(_step(host.kind, phase, host.phase_label(game.state), False,
                           final=game.status == "ended", table=host.status(game.state, None)))
    return Story(host.kind, host.title, False, False, _unique(steps), [])
