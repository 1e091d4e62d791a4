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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mobadj.judge.hosts import DiplomacyHost, Host
from mobadj.judge.links import step_id

if TYPE_CHECKING:
    from mobadj.engine import PageTable, Rules
    from mobadj.judge.cardhost import CardHost
    from mobadj.judge.store import Game
    from mobadj.web.cardview import ScoreRow, SeedCheck

_ACTED = re.compile(r"^P\d+: (moved|no command; .*)$")
#: the pages' headings (a map's rules may word them their own way: ``Rules.page_words``)
#: beside a default where an order was missed (the rules' ``default_note`` otherwise)
NO_ORDER = "no order given"
WORDS = {"news": "What happened", "calendar": "All phases", "legend": "The map's legend"}


@dataclass(frozen=True)
class OrderLine:
    """One adjudicated order as published."""

    power: str
    order: str
    result: str  # succeeds | fails | invalid
    reason: str | None
    default: bool = False  # the rules' default for a missing order
    note: str = ""  # said beside a default ("no order given"; the rules' default_note)


@dataclass
class Step:
    """One phase of the game as the pages show it."""

    id: str
    phase: str
    label: str
    group: str  # the calendar's group: the year, or the month and year (the map's calendar)
    short: str  # its place in the group: "Spring", "Fall retreats", "Week 2"
    adjudicated: bool
    final: bool = False  # the position after the last phase of a finished game
    position: dict[str, Any] | None = None  # board games: the position at the start
    orders: list[OrderLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # dislodgements, centre changes, news
    events: list[str] = field(default_factory=list)  # public events of the phase
    table: str = ""  # card games: the public table after the move; others: the status
    log: list[str] = field(default_factory=list)  # card games: the public log so far
    view: dict[str, Any] | None = None  # card games: the table as a spectator sees it
    tables: list[PageTable] = field(default_factory=list)  # the rules' tables (board games)
    result_id: int | None = None
    adjustment: bool = False  # an adjustment phase: builds and removals

    @property
    def convoys(self) -> bool:
        """Does a convoy stand among its orders (its route is drawn on the map)?"""
        return any(" C " in f" {o.order} " for o in self.orders)

    @property
    def centers(self) -> dict[str, int]:
        """Supply centres per power at the start of the step (board games)."""
        centers = (self.position or {}).get("centers") or {}
        return {p: len(c) for p, c in centers.items()}


@dataclass(frozen=True)
class Power:
    """A power as a story page names and colours it."""

    id: str
    name: str
    colour: str


@dataclass
class Story:
    """Everything public about a game's past and present."""

    kind: str
    title: str
    board: bool  # drawn on a map (any map game)
    cards: bool
    steps: list[Step]
    powers: list[Power]
    outcome: str = ""  # the final result in words, once the game is over
    scores: list[ScoreRow] = field(default_factory=list)  # card games: final scores
    seed: SeedCheck | None = None  # card games: the seed check, once over
    commitment: str | None = None  # card games: the seed's commitment, from the start
    words: Mapping[str, str] = field(default_factory=lambda: WORDS)  # the pages' headings
    legend: tuple[tuple[str, str], ...] = ()  # the key to the map: (symbol, meaning)

    def index_of(self, sid: str) -> int | None:
        """The index of step ``sid``, spelt in any case (an address typed by hand)."""
        for i, s in enumerate(self.steps):
            if s.id == sid:
                return i
        folded = sid.casefold()
        for i, s in enumerate(self.steps):
            if s.id.casefold() == folded:
                return i
        return None


def one_group(phase: str) -> tuple[str, str]:
    """The calendar place of a phase in a game without a calendar: one group."""
    return "", phase


def calendar_place(rules: Rules) -> Callable[[str], tuple[str, str]]:
    """(group, short) of a phase by a map's calendar (the phase's ``place()``):
    ``("1901", "Fall retreats")``, ``("July 1919", "Week 2")``."""

    def place(phase: str) -> tuple[str, str]:
        try:
            return rules.calendar.parse(phase).place()
        except ValueError:  # not a phase of this calendar (PositionError is a ValueError)
            return one_group(phase)

    return place


def phase_name(rules: Rules) -> Callable[[str], str]:
    """The long name of a phase by a map's calendar (``Fall 1901 Retreats (F1901R)``)."""

    def name(phase: str) -> str:
        try:
            return f"{rules.calendar.parse(phase).long_name()} ({phase})"
        except ValueError:
            return phase

    return name


def build(game: Game, results: list[dict[str, Any]], host: Host,
          ending: Mapping[str, Any] | None = None) -> Story:
    """The story of ``game`` (a store Game) from its standing results and, once it has
    ended, its recorded result (``Store.ending``: a draw, a win, or ended without one)."""
    from mobadj.judge.cardhost import CardHost

    if isinstance(host, CardHost):
        return _cards(game, results, host, ending)
    if isinstance(host, DiplomacyHost):
        return _board(game, results, host, ending)
    return _generic(game, results, host)


def moves_played(phase: str) -> int:
    """The moves a card game standing at ``phase`` has played (``M4``: 3, its moves are
    numbered as its phases are, :meth:`CardHost.moves_played`)."""
    return int(phase[1:]) - 1 if phase[1:].isdigit() else 0


def final_table(phase: str) -> str:
    """The last step of a card game over: after the last move played (``phase`` is the
    move that would have come next), as the index counts it."""
    played = moves_played(phase)
    return f"Final table, after move {played}" if played else "Final table"


def card_step_label(phase: str, state_after: Any) -> str:
    """A card game's past phase: ``Move 5``, or ``Moves 2-3`` for one that held several
    moves (a sealed round: each seat's choice is a move; a seat alone may send several)."""
    first = moves_played(phase) + 1
    actions = state_after.get("actions") if isinstance(state_after, dict) else None
    last = (len(actions) - int(state_after.get("free", 0))) if isinstance(actions, list) \
        else first
    return f"Moves {first}-{last}" if last > first else f"Move {first}"


def _unique(steps: list[Step]) -> list[Step]:
    seen: set[str] = set()
    for s in steps:
        base, n = s.id, 1
        while s.id in seen:
            n += 1
            s.id = f"{base}-{n}"
        seen.add(s.id)
    return steps


def _step(place: Callable[[str], tuple[str, str]], phase: str, label: str, adjudicated: bool,
          **more: Any) -> Step:
    group, short = place(phase)
    return Step(step_id(phase), phase, label, group, short, adjudicated, **more)


# -- map games (the map's rules say what differs) ----------------------------------------------


def _board(game: Game, results: list[dict[str, Any]], host: DiplomacyHost,
           ending: Mapping[str, Any] | None = None) -> Story:
    gm = host.map_of(game.state or game.options)  # with the game's own names
    rules = host.rules
    place = calendar_place(rules)
    powers = [Power(pid, p.name, p.colour or "#555555") for pid, p in gm.powers.items()]
    names = {p.id: p.name for p in powers}
    steps: list[Step] = []
    for r in results:
        data = r["report"].get("data") or {}
        orders = [_order(d) for d in data.get("results") or []]
        orders += [_order(d, _default_note(rules, d)) for d in data.get("defaults") or []]
        position = r["state_before"]["position"]
        notes = _board_notes(data, names, phase_name(rules))
        adjustment = _is_adjustment(rules, r["phase"])
        if adjustment:
            notes = _adjustment_notes(host, position, orders, names) + notes
        steps.append(_step(place, r["phase"], host.phase_label(r["state_before"]), True,
                           position=position, orders=orders,
                           events=[str(e) for e in data.get("events") or []],
                           notes=notes, adjustment=adjustment,
                           result_id=r["id"],
                           tables=rules.page_tables(position or {}, names)))
    state = game.state
    if state is not None:
        over = game.status == "ended"
        label = "Final position" if over else host.phase_label(state)
        steps.append(_step(place, host.phase(state), label, False, final=over,
                           position=state["position"],
                           tables=rules.page_tables(state["position"] or {}, names)))
    story = Story(host.kind, host.title, True, False, _unique(steps), powers,
                  words=WORDS | dict(rules.page_words), legend=tuple(rules.page_legend))
    if game.status == "ended":
        story.outcome = _board_outcome(results, steps, names, ending)
    return story


def _default_note(rules: Rules[Any], d: dict[str, Any]) -> str | None:
    """The note beside a default: the rules' (``no order given``; a Mobtown Don's hold, "no
    order needed"), except that a default that needed no order and did not stand (a Don
    captured or drowned) is marked by its result alone, as the mails mark it (None)."""
    note = str(rules.default_note(str(d.get("order", ""))))
    return None if note != NO_ORDER and d.get("result") != "succeeds" else note


def _order(d: dict[str, Any], note: str | None = None) -> OrderLine:
    """An order as stored; ``note``: the rules gave it (a default), with this note.  A
    default the rules carried out for a reason they give (a hold in civil disorder, a
    removal, the gaol) is marked by that reason alone, as the mails mark it."""
    explained = d.get("result") == "succeeds" and bool(d.get("reason"))
    default = note is not None and not explained
    return OrderLine(str(d.get("power", "")), str(d.get("order", "")),
                     str(d.get("result", "")), d.get("reason"), default,
                     (note or "") if default else "")


def _board_notes(data: dict[str, Any], names: dict[str, str],
                 label: Callable[[str], str] = str) -> list[str]:
    notes = []
    after = data.get("position") or {}
    for power, lst in sorted((after.get("dislodged") or {}).items()):
        for d in lst:
            where = ", ".join(d.get("retreats") or []) or "nowhere: it is disbanded"
            notes.append(f"Dislodged: {names.get(power, power)} {d.get('unit')} (attacked "
                         f"from {d.get('from')}) may retreat to {where}.")
    for power, units in sorted((data.get("destroyed") or {}).items()):
        for unit in units:
            notes.append(f"Disbanded at once: {names.get(power, power)} {unit} was dislodged "
                         "with no retreat open.")
    for phase in data.get("skipped") or []:
        notes.append(f"{label(str(phase))} skipped: nobody had anything to decide.")
    for prov, old, new in data.get("centre_changes") or []:
        notes.append(f"{prov}: {names.get(old, old) if old else 'neutral'} → "
                     f"{names.get(new, new)}")
    return notes


def _is_adjustment(rules: Rules, phase: str) -> bool:
    try:
        return bool(rules.calendar.parse(phase).is_adjustment)
    except ValueError:
        return False


def _adjustment_notes(host: DiplomacyHost, position: Mapping[str, Any],
                      orders: list[OrderLine], names: dict[str, str]) -> list[str]:
    """What an adjustment phase's orders do not show: builds a power had and did not make
    (waived, or with no free home centre to make them in), and units removed by the rules
    because a power ordered too few removals (civil disorder)."""
    from mobadj.engine import Rules, topology_for

    notes = []
    for o in orders:
        why = o.reason or ""
        if o.order.startswith("Remove ") and o.result == "succeeds" and (
                "civil disorder" in why or "by the rules" in why):
            notes.append(f"{'Civil disorder: ' if 'civil disorder' in why else ''}"
                         f"{names.get(o.power, o.power)} ordered too few removals; the rules "
                         f"removed {o.order.removeprefix('Remove ')}.")
    try:
        rules, game_map = host.rules, host.game_map
        pos = rules.position_from_data(position, game_map)
        counts = rules.adjustment_counts(pos)
        topology = topology_for(game_map)
        building = set(rules.adjusting(pos, topology))
    except (ValueError, LookupError, TypeError, AttributeError):  # an older record: no notes
        return notes
    for power, n in sorted(counts.items()):
        if n <= 0:
            continue
        made = sum(1 for o in orders if o.power == power and o.result == "succeeds"
                   and o.order.startswith("Build "))
        if type(rules).adjusting is Rules.adjusting:  # a build: an owned, empty home centre
            free = sum(1 for h in rules.build_sites(pos, power, topology)
                       if pos.centers.get(h) == power
                       and h not in pos.units)
        else:  # the map's rules say only whether the power could build at all
            free = n if power in building else 0
        name = names.get(power, power)
        waived = min(n, free) - made
        if waived > 0:
            explicit = sum(1 for o in orders if o.power == power and o.order == "Waive"
                           and o.result == "succeeds")
            how = "" if explicit >= waived else " (no build ordered)"
            notes.append(f"Waived: {name} made {made} of {n} builds; {waived} "
                         f"{'was' if waived == 1 else 'were'} waived{how}.")
        if free < n:
            notes.append(f"{name} had {n} builds but {'only ' if free else ''}{free or 'no'} "
                         f"free home centre{'' if free == 1 else 's'}: "
                         f"{n - free} could not be made.")
    return notes


def _board_outcome(results: list[dict[str, Any]], steps: list[Step], names: dict[str, str],
                   ending: Mapping[str, Any] | None = None) -> str:
    """The result in words: the recorded ending (a solo, a concession, a draw voted or
    declared, or ended without a result); a store from before endings were recorded has
    only the last result's winner."""
    counts = steps[-1].centers if steps else {}
    table = ", ".join(f"{names.get(p, p)} {n}" for p, n in
                      sorted(counts.items(), key=lambda x: (-x[1], x[0])))
    result = str((ending or {}).get("result") or "")
    powers = [str(p) for p in (ending or {}).get("powers") or []]
    how = str((ending or {}).get("how") or "")
    if result == "draw" and powers:
        return (f"A draw between {', '.join(names.get(p, p) for p in powers)} ({how}). "
                f"Final centres: {table}.")
    winner = powers[0] if result == "win" and powers else None
    if ending is None and results:
        winner = (results[-1]["report"].get("data") or {}).get("winner")
    if winner:
        by = f" ({how})" if how and how != "by the rules" else ""
        return (f"{names.get(winner, winner)} wins{by} with {counts.get(winner, 0)} supply "
                f"centres. Final centres: {table}.")
    return f"The game is over ({how or 'ended by the GM'}). Final centres: {table}."


# -- card games -------------------------------------------------------------------------------


def _cards(game: Game, results: list[dict[str, Any]], host: CardHost,
           ending: Mapping[str, Any] | None = None) -> Story:
    from mobadj.web import cardview

    n = int((game.state or {}).get("players") or 0)
    powers = [Power(f"P{i + 1}", f"P{i + 1}", "") for i in range(n)]
    steps: list[Step] = []
    for r in results:
        data = r["report"].get("data") or {}
        acted = [ln for ln in str(r["report"].get("text", "")).split("\n\n", 1)[0].splitlines()
                 if _ACTED.match(ln)]
        steps.append(Step(step_id(r["phase"]), r["phase"],
                          card_step_label(r["phase"], r.get("state_after")), "",
                          r["phase"], True, notes=acted,
                          events=[str(e) for e in data.get("public_events") or []],
                          result_id=r["id"]))
    state = game.state
    story = Story(host.kind, host.title, False, True, steps, powers)
    if state is None:
        return story
    ended = game.status == "ended"  # perhaps before the game's own end: nobody waits
    current = cardview.replay(host.kind, state, ended=ended)
    over = current.is_over()
    phase = host.phase(state)
    steps.append(Step(step_id(phase), phase, final_table(phase) if over or ended else
                      f"Move {phase[1:]} (waiting)", "", phase, False, final=over,
                      table=current.render(None), log=current.history(None),
                      view=current.view(None)))
    story.steps = _unique(steps)
    story.commitment = cardview.commitment(state)
    # a game the GM ended early is over too: its seed is revealed as in the GM's export
    story.seed = cardview.seed_check(host.kind, state, over or game.status == "ended")
    if over:
        story.scores = cardview.final_scores(current)
        winners = [s.seat for s in story.scores if s.winner]
        lost = current.lost()  # a cooperative game lost to the game has no winner to name
        story.outcome = (f"Lost: everyone lost to the game ({lost})." if lost and not winners
                         else f"Won together by {', '.join(winners)}."
                         if current.won_together()  # one side against the game, as the mail
                         else ("Winner: " if len(winners) == 1 else "Winners: ")
                         + ", ".join(winners))
    elif game.status == "ended":
        story.outcome = (_declared(ending) or
                         "The game is over (ended by the GM before its end).")
    return story


def _declared(ending: Mapping[str, Any] | None) -> str:
    """The result the GM declared for a card game before its end, in words ("" for none)."""
    powers = ", ".join(str(p) for p in (ending or {}).get("powers") or [])
    if not ending or not powers:
        return ""
    how = str(ending.get("how") or "declared by the GM")
    if ending.get("result") == "win":
        return f"{powers} wins ({how}) before the game's end."
    if ending.get("result") == "draw":
        return f"A draw between {powers} ({how}) before the game's end."
    return ""


def card_step_table(kind: str, step: Step, state_after: dict[str, Any]) -> None:
    """Fill a past move's public table and log (a replay: done only for a page shown)."""
    from mobadj.web import cardview

    played = cardview.replay(kind, state_after)
    step.table = played.render(None)
    step.log = played.history(None)
    step.view = played.view(None)


# -- any other game ---------------------------------------------------------------------------


def _generic(game: Game, results: list[dict[str, Any]], host: Host) -> Story:
    """A game the pages know nothing of: each phase's published report, the public status."""
    steps = [_step(one_group, r["phase"], r["phase"], True, result_id=r["id"],
                   table=str(r["report"].get("text", ""))) for r in results]
    if game.state is not None:
        phase = host.phase(game.state)
        steps.append(_step(one_group, phase, host.phase_label(game.state), False,
                           final=game.status == "ended", table=host.status(game.state, None)))
    return Story(host.kind, host.title, False, False, _unique(steps), [])
