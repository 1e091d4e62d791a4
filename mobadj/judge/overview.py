"""A whole game at a glance: SUMMARY (by mail to anyone who may see the game, and
``mobadj game summary``) and the GM's ``mobadj game status``.

SUMMARY, as the classic judges have it: who held which power when (tenures; addresses only
in the GM's copy), the supply centres of every power by year (by month for calendars that
have months, as Mobtown II's), the phases played, the GM's orders for powers, the result.
The GM's status: who owes orders, missed deadlines, addresses, ready, absences, the deadline
and what waits (takeovers, refused mail).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mobadj.judge import reports
from mobadj.judge.deadlines import option
from mobadj.judge.hosts import Host, HostError, host_for
from mobadj.judge.names import written
from mobadj.judge.store import Game, Store

if TYPE_CHECKING:
    from mobadj.judge.core import Judge

HOW = {"added": "", "joined": "", "replaced": "given by the GM", "took over": "took over"}


def _phase_name(phase: str, host: Host | None = None) -> str:
    """A phase as SUMMARY names it (in words where the game's rules want it so)."""
    return (host.phase_title(phase) if host is not None else phase) if phase else "the start"


def tenure_line(t: dict[str, Any], gm_view: bool, missed: int | None = None,
                ended: str | None = None, host: Host | None = None) -> str:
    """One tenure: ``S1901M - F1902M  a player (missed 3; resigned)``; ``missed``: the
    missed deadlines of a tenure still running (the player's own count); ``ended``: the
    phase in which the game ended, where a tenure that was running then ends too;
    ``host``: the game's, which names the phases."""
    running = t["end"] is None
    span = f"{_phase_name(t['start_phase'], host)} - " + (
        _phase_name(t["end_phase"], host) if not running else "now" if ended is None
        else ended)
    notes = [HOW.get(t["how"], t["how"])]
    if not running:
        notes.append(f"missed {t['nmr_total']}")
        notes.append(str(t["why"]))
    elif missed is not None:
        notes.append(f"missed {missed}")
    if running and ended is not None:
        notes.append("to the end")
    who = t["email"] if gm_view else "a player"
    notes = [n for n in notes if n]
    return f"{span:<24} {who}" + (f" ({'; '.join(notes)})" if notes else "")


def period(game: Game, state: Any, phase: str) -> str | None:
    """The year of a phase (``1901``), or its month for calendars with months
    (``1919-07``); None for games without a calendar (card games)."""
    try:
        return host_for(game.kind).period(state, phase)
    except (HostError, ValueError):
        return None


def centre_history(store: Store, game: Game) -> list[tuple[str, dict[str, int]]]:
    """(year or month, centres per power) at the end of each year (month) played."""
    host = host_for(game.kind)
    seen: dict[str, dict[str, int]] = {}
    for r in store.results(game.name):
        label = period(game, r["state_before"], r["phase"])
        counts = host.centre_counts(r["state_after"])
        if label is None or counts is None:
            continue
        seen[label] = counts  # the last phase of the period counts
    return list(seen.items())


def centre_table(store: Store, game: Game, only: str | None = None) -> list[str]:
    """The supply centres by year as text lines (one power: ``1901 4, 1902 5``)."""
    history = centre_history(store, game)
    if not history:
        return []
    if only is not None:
        return [", ".join(f"{label} {counts.get(only, 0)}" for label, counts in history)]
    host = host_for(game.kind)
    seats = host.seats_in(game.options, game.state)
    width = max(len(s) for s in seats)
    cols = [max(len(label), 2) for label, _ in history]
    head = " " * width + "".join(f" {label:>{w}}" for (label, _), w in zip(history, cols,
                                                                            strict=True))
    rows = [f"{seat:<{width}}" + "".join(f" {counts.get(seat, 0):>{w}}"
                                         for (_, counts), w in zip(history, cols, strict=True))
            for seat in seats]
    return [head, *rows]


def summary_text(store: Store, game: Game, gm_view: bool) -> str:
    """SUMMARY of a game; ``gm_view`` shows the players' addresses."""
    host = host_for(game.kind)
    results = store.results(game.name)
    lines = [f"Summary of {game.name} ({host.title}), {game.status}"
             + (f", now {host.phase_label(game.state)}" if game.state is not None
                and game.status != "ended" else "")]
    lines.append(f"Created {reports.stamp(game.created)}; {len(results)} phase(s) played"
                 + (f", from {host.phase_title(results[0]['phase'])} to "
                    f"{host.phase_title(results[-1]['phase'])}" if results
                    else "") + ".")
    ending = store.ending(game.name)
    if ending is not None and ending["phase"] and game.state is not None:
        # counted again (an older mobadj recorded a card game as ended in the move after
        # its last), as LIST and STATUS count it
        ending["phase"] = host.ended_phase(game.state, ending["phase"])
    if ending is not None:
        members = ", ".join(written(host, game.options, ending["powers"]))
        said = "won together" if ending["result"] == "together" else ending["result"]
        lines.append(f"Result: {said}" + (f" ({members})" if members else
                                          " (everyone)" if ending["result"] == "lost" else "")
                     + f", {ending['how']}, "
                     + (f"in {host.phase_title(ending['phase'])}." if ending["phase"]
                        else "before any move."))
    ended = (_phase_name(ending["phase"] if ending is not None else game.phase, host)
             if game.status == "ended" else None)
    lines += ["", "Who played which power:"]
    tenures = store.tenures(game.name)
    players = {p.power: p for p in store.players(game.name)}
    seats = host.seats_in(game.options, game.state)
    named = dict(zip(seats, written(host, game.options, seats), strict=True))  # the game's names
    width = max([12, *(len(name) for name in named.values())])
    for seat in seats:
        mine = [t for t in tenures if t["power"] == seat]
        if not mine:
            lines.append(f"  {named[seat]:<{width}} no player "
                         f"({host.unplayed_label(game.options)}) from the start")
            continue
        for n, t in enumerate(mine):
            current = players[seat].nmr_total if t["end"] is None and seat in players else None
            record = tenure_line(t, gm_view, current, ended, host)
            lines.append(f"  {named[seat] if n == 0 else '':<{width}} {record}")
        if mine[-1]["end"] is not None and seat not in players:
            lines.append(f"  {'':<{width}} no player ({host.unplayed_label(game.options)}) since "
                         f"{_phase_name(mine[-1]['end_phase'], host)}")
    table = centre_table(store, game)
    if table:
        lines += ["", "Supply centres" + (" by month:" if "-" in table[0] else " by year:")]
        lines += [f"  {row}" for row in table]
    by_gm = [(r["phase"], p) for r in results for p in _gm_orders(store, game, r["phase"])]
    if by_gm:
        lines += ["", "Orders entered by the GM: "
                  + ", ".join(f"{phase} {power}" for phase, power in by_gm)]
    return "\n".join(lines)


def _gm_orders(store: Store, game: Game, phase: str) -> list[str]:
    return store.orders_by_gm(game.name, phase)


def aligned(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows of cells as lines whose columns line up: each column as wide as its widest
    cell (``1 (1 in a row)`` widens "missed" on every row, not only its own)."""
    widths = [max(len(cell) for cell in column) for column in zip(*rows, strict=True)]
    return ["  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def status_text(judge: Judge, game: Game, now: float | None = None) -> str:
    """The GM's view of a running game: who owes orders, missed deadlines, addresses,
    the deadline, what waits for the GM."""
    now = time.time() if now is None else now
    store = judge.store
    host = host_for(game.kind)
    lines = [f"{game.name} ({host.title}): {game.status}"]
    rules = judge.rules_line(game)
    if rules:
        lines.append(rules)
    due: list[str] = []
    submitted: set[str] = set()
    if game.status == "ended":
        lines.append(f"Result: {judge.endings.result_line(store.ending(game.name), game)}")
        lines.append(judge.players.ended_in(game))
    elif game.state is not None:
        phase = host.phase(game.state)
        due = host.due(game.state) if game.status in ("active", "paused") else []
        submitted = store.submitted(game.name, phase)
        lines.append(f"Phase: {host.phase_label(game.state)} ({phase})")
    if game.status == "paused" and game.paused_until is not None:
        lines.append(f"Paused until {reports.when(game.paused_until, judge.tz)}")
    if game.deadline is not None and game.status == "active":
        left = (game.deadline - now) / 3600
        lines.append(f"Deadline: {reports.when(game.deadline, judge.tz)} ("
                     + (f"in {left:.1f} hours" if left >= 0 else f"{-left:.1f} hours ago")
                     + (", extended once" if game.extended else "")
                     + (", reminders sent" if game.reminded else "") + ")")
    quota = option(game.options, "absence_quota_days") * 24
    players = {p.power: p for p in store.players(game.name)}
    tenures = {t["power"]: t for t in store.tenures(game.name) if t["end"] is None}
    open_seats = set(judge.open_seats(game))
    seats = host.seats_in(game.options, game.state)
    rows: list[tuple[str, ...]] = [("seat", "orders", "missed", "absence", "player")]
    owing = []
    for seat in seats:
        pl = players.get(seat)
        if seat in due:
            orders = "in" if seat in submitted else "OWED"
            if pl is not None and pl.ready and seat in submitted:
                orders += ", ready"
        else:
            orders = "-"
        if pl is None:
            who = f"no player ({host.unplayed_label(game.options)})"
            missed = absence = "-"
        else:
            if orders == "OWED" and pl.status == "active":
                owing.append(seat)
            since = tenures.get(seat, {}).get("start_phase") or "the start"
            who = f"{pl.email} (since {since}" + (
                f", {host.unplayed_label(game.options)}" if pl.status == "disorder" else "") + ")"
            missed = f"{pl.nmr_total} ({pl.nmr_streak} in a row)" if pl.nmr_total else "0"
            absence = f"{pl.absence_used:g}/{quota:g}h"
        if seat in open_seats:
            who += ", open for TAKEOVER"
        rows.append((seat, orders, missed, absence, who))
    lines += ["", *aligned(rows)]
    idle = [s for s in due if s not in submitted and s not in owing]
    if due and not owing and idle and host.resolve_when_all_in:  # a card game stands still
        lines += ["", f"Waiting for: {', '.join(idle)} (no player, or in civil disorder: "
                  f"the judge plays its move at the deadline; ORDERS FOR {idle[0]} plays the "
                  "GM's move at once, PROCESS the default move)"]
    elif due:
        lines += ["", "Owe orders: " + (", ".join(owing) if owing else "nobody")]
    watchers = store.watchers(game.name)
    if watchers:
        lines.append(f"Observers ({len(watchers)}): {', '.join(watchers)}")
    for t in store.takeovers(game.name):
        lines.append(f"Waiting for your approval: {t['email']} to take over {t['power']} "
                     f"(APPROVE / REJECT, mobadj game approve {game.name} {t['email']})")
    for j in store.joins(game.name):
        lines.append(f"Joined: {j['email']} ({j['status']}; wishes: "
                     f"{', '.join(j['wishes']) or 'any'})")
    refused = [r for r in store.sent_mail(game.name) if r["refused"]]
    for r in refused[-5:]:
        lines.append(f"Refused by the SMTP server: mail to {r['to_addr']} "
                     f"({reports.when(r['sent'], judge.tz)}): {r['refused']}")
    waiting = store.unsent_count(game.name)
    if waiting:
        lines.append(f"Mail waiting to be sent: {waiting}")
    return "\n".join(lines)
