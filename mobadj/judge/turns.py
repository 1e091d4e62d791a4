"""The turn of phases: early resolution when all are in, the deadline policy applied at
each tick (reminders, extension, NMR defaults, civil disorder, pause expiry), resolution
in one transaction with results mailed to everyone, the GM's pause and rollback."""

from __future__ import annotations

import functools
import json
import logging
import sqlite3
from typing import Any

from mobadj.judge import reports
from mobadj.judge.base import JudgeBase, JudgeError
from mobadj.judge.deadlines import DEFAULTS, HOUR, Action, bots_at_once, decide, option
from mobadj.judge.hosts import host_for
from mobadj.judge.names import written
from mobadj.judge.store import Game, Mail

log = logging.getLogger("mobadj.judge")


MAX_AT_ONCE = 1000
"""The most card moves played one after another without a player's mail (bots of seats
without a player moving in turn): a game that would go on longer goes on at the next poll."""


class Turns:
    """Phases: when they end and how."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def _missing(self, game: Game) -> tuple[list[str], bool]:
        host = host_for(game.kind)
        submitted = self.desk.store.orders(game.name, host.phase(game.started_state))
        players = {p.power: p for p in self.desk.store.players(game.name)}
        missing = [s for s in host.due(game.started_state)
                   if s in players and players[s].status == "active" and s not in submitted]
        first = any(players[s].nmr_total == 0 for s in missing)
        return missing, first

    @staticmethod
    def _deadline_missed(game: Game, now: float) -> bool:
        """Do the seats without orders miss a deadline when the phase is adjudicated now?
        Not when the GM adjudicates before the deadline (PROCESS): their counters, civil
        disorder and first-miss extension are left alone.  A deadline already extended for
        a first miss was missed, however early the GM adjudicates the extension."""
        return (game.deadline is not None and now >= game.deadline) or bool(game.extended)

    def _nothing_to_decide(self, game: Game) -> bool:
        """An active phase in which no seat has anything to order (e.g. a retreat phase whose
        units can only disband, stored before the engine settled such units at once): it
        resolves at once, without waiting for a deadline."""
        if game.status != "active" or game.state is None:
            return False
        host = host_for(game.kind)
        return not host.is_over(game.state) and not host.due(game.state)

    def maybe_early(self, game: Game, now: float, out: list[Mail]) -> None:
        """Resolve at once when every due player is in (and READY, for Diplomacy)."""
        if game.status != "active" or game.state is None:
            return
        if self._nothing_to_decide(game):
            self.resolve(game, now, out)
            return
        host = host_for(game.kind)
        if host.resolve_when_all_in:
            self._play_what_is_in(game, now, out)
            return
        players = {p.power: p for p in self.desk.store.players(game.name)}
        due = [s for s in host.due(game.state) if s in players
               and players[s].status == "active"]
        if not due:
            return
        submitted = self.desk.store.orders(game.name, host.phase(game.state))
        if any(s not in submitted for s in due):
            return
        if str(game.options.get("early", "ready")) == "ready" and all(players[s].ready
                                                                      for s in due):
            self.resolve(game, now, out)

    def plays_at_once(self, game: Game) -> bool:
        """Are the moves in played now (a card game, whose moves are played as they come)?
        When every seat due that has a player has sent its move, and at least one move is
        in: a seat without a player (resigned, or in civil disorder) is not waited for, and
        the GM's ORDERS FOR it are played as they come, as a seated player's are.  With
        ``bot_moves at_once``, also when only seats without a player are due: their bot
        moves now, not at the deadline (while the game has a player: a game nobody plays
        any more goes on at its deadlines, not in one burst of results mails)."""
        host = host_for(game.kind)
        if not host.resolve_when_all_in or game.status != "active" or game.state is None:
            return False
        players = {p.power: p for p in self.desk.store.players(game.name)}
        submitted = self.desk.store.orders(game.name, host.phase(game.state))
        seats = host.due(game.state)
        due = [s for s in seats if s in submitted or (
            s in players and players[s].status == "active")]
        if not due:
            return (bool(seats) and bots_at_once(game.options)
                    and any(p.status == "active" for p in players.values()))
        return all(s in submitted for s in due)

    def _play_what_is_in(self, game: Game, now: float, out: list[Mail]) -> None:
        """Play the card game's moves that are in, and on while the moves due next are in
        too (with ``bot_moves at_once``, a seat without a player moves at once, and so may
        the next), each move with its results mail."""
        for _ in range(MAX_AT_ONCE):
            if not self.plays_at_once(game):
                return
            self.resolve(game, now, out)
            game = self.desk.store.game(game.name) or game

    def resolve(self, game: Game, now: float, out: list[Mail], forced: bool = False) -> str:
        """Resolve the current phase (the caller holds the transaction)."""
        host = host_for(game.kind)
        state = game.started_state
        phase = host.phase(state)
        orders = self.desk.store.orders(game.name, phase)
        players = {p.power: p for p in self.desk.store.players(game.name)}
        missing, _ = self._missing(game)
        due = host.due(state)
        host.picture = str(game.options.get("picture", DEFAULTS["picture"])).lower()
        result = host.resolve(state, {k: v for k, v in orders.items() if k in due}, missing)
        snapshot = {p: {"nmr_total": pl.nmr_total, "nmr_streak": pl.nmr_streak,
                        "status": pl.status, "email": pl.email} for p, pl in players.items()}
        disorder_after = int(option(game.options, "disorder_after_nmr"))
        missed = self._deadline_missed(game, now)
        notes = []
        for seat, pl in players.items():
            if seat in missing and not missed:  # the GM's PROCESS before the deadline
                self.desk.store.update_player(game.name, seat, ready=0)
            elif seat in missing:
                streak = pl.nmr_streak + 1
                status = pl.status
                if disorder_after and streak >= disorder_after and status == "active":
                    status = "disorder"
                    notes.append(f"{written(host, game.options, [seat])[0]} has missed "
                                 f"{streak} deadlines in a row and is now "
                                 f"{host.unplayed_in(game.options)}.")
                    self.desk.store.after_commit(functools.partial(log.info, (
                        "%s: %s in civil disorder after %d missed deadlines"), game.name, seat,
                        streak))
                self.desk.store.update_player(game.name, seat, nmr_total=pl.nmr_total + 1,
                                              nmr_streak=streak, status=status, ready=0)
            else:
                self.desk.store.update_player(game.name, seat, ready=0, nmr_streak=(
                    0 if seat in orders else pl.nmr_streak))
        disorder = list(notes)  # civil disorder: the GM may want to find a new player
        named = written(host, game.options, missing)
        done = host.missed_orders_done(state, len(missing)) if missing else None
        if missing and not missed:
            by = f" ({reports.stamp(game.deadline)})" if game.deadline is not None else ""
            notes.insert(0, "No orders from " + ", ".join(named) + ": the GM adjudicated "
                         f"before the deadline{by}, so this is not a missed deadline " + (
                             "(the rules' defaults were used)." if done is None else
                             f"(without orders, {done})."))
        elif missing:
            notes.insert(0, "No orders received from: " + ", ".join(named) + (
                " (the rules' defaults were used)." if done is None else
                f" (without orders, {done})."))
        by_gm = [p for p in self.desk.store.orders_by_gm(game.name, phase) if p in due]
        if by_gm:
            notes.append("Orders entered by the GM for: " + ", ".join(by_gm) + ".")
        new = result.state
        over = result.over or host.is_over(new)
        deadline = None if over else self.desk._deadline(game, new, now)
        # the judge names the next phase (with its deadline) itself: a host's own line goes
        report = "\n".join(line for line in result.report.splitlines()
                           if not line.startswith("Next phase:")).rstrip()
        report_text = report + ("\n\n" + "\n".join(notes) if notes else "")
        self.desk.store.add_result(game.name, phase, state, new, orders,
                                   {"text": report_text, "data": result.data,
                               "players": snapshot, "deadline": game.deadline}, now)
        self.desk.store.update_game(game.name, state=new, phase=host.phase(new), deadline=deadline,
                                    reminded=0, extended=0, status="ended" if over else "active")
        self.desk.store.log(game.name, "resolved", {"phase": phase, "missing": missing,
                                                    "forced": forced, "missed": missed}, now)
        self.desk.store.after_commit(functools.partial(
            log.info, "%s: %s resolved (missing: %s)", game.name, phase,
            ", ".join(missing) or "none"))
        # votes stand from phase to phase: a DRAW or CONCEDE may pass now (a voter fell
        # into civil disorder, or out of the game); the game then ends with this phase
        voted = None if over else self.desk.endings.passing(
            self.desk.store.game(game.name) or game)
        label, code = host.phase_label(new), host.phase(new)
        if voted is not None:
            deadline = None
            said = self.desk.endings.result_line(dict(result=voted[0], powers=voted[1],
                                                      how=voted[2]), game)
            next_line = f"The game is over: {said}."
        else:
            next_line = ("The game is over." if over else
                         f"Next phase: {label}{f' ({code})' if code != label else ''}\n"
                         f"Deadline: {reports.stamp(deadline)}")
        head = reports.header_lines(self.desk.config.name, game.name, game.kind, phase,
                                    reports.stamp(deadline), host.rules_text(game.options))
        data = {"game": game.name, "phase": phase,  # a game over has no next phase
                "next_phase": None if over or voted is not None else host.phase(new),
                "deadline": deadline, "missing": missing, "result": result.data}
        public = f"{head}\nResults of {game.name}, {host.phase_title(phase)}\n\n{report_text}\n\n"
        attachments = [("result.json", "application/json",
                        json.dumps(data, indent=1).encode())] + result.attachments
        link = self._phase_link(game.name, phase)
        seated = f"{next_line}\n\nOn the game's page: {link}" if link else next_line
        # a private game's link carries its key: observers are not given it
        watching = seated if self.desk.store.web_key(game.name) is None else next_line
        readers = [(pl.email, result.private.get(pl.power, ""), "", seated)
                   for pl in players.values() if pl.status != "out"]
        readers += [(email, "", "", watching) for email in self.desk.store.watchers(game.name)]
        readers.append((game.gm_email, "", " (GM copy)", seated))
        for to, private, tag, tail in readers:
            body = (public + (f"For you only:\n{private}\n\n" if private else "")
                    + f"{tail}\n\n{self.desk._sig()}")
            out.append(Mail(to, f"{game.name}: {host.phase_title(phase)} results{tag}", body,
                            attachments,
                            headers={"Auto-Submitted": "auto-generated"}, game=game.name))
        if disorder:
            self.desk.notices.tell_gm(game, host.unplayed_label(game.options), "\n".join(
                disorder) + (
                f"\nGive the power to someone (REPLACE <power> <email>), or let a new player "
                f"take it over (TAKEOVER {game.name} <power>; OFFER opens a seat that still "
                f"has a player)."), out)
        if over:
            self.desk.endings.record_over(self.desk.store.game(game.name) or game, result.data,
                                          "by the rules", now, phase)
            return f"{host.phase_title(phase)} resolved. {next_line}"
        if voted is not None:
            self.desk.endings.end_game(self.desk.store.game(game.name) or game, *voted, now,
                                       out, phase=phase)
            return f"{host.phase_title(phase)} resolved. {next_line}"
        self._early_orders_begin(self.desk.store.game(game.name) or game, phase, now, out)
        return f"{host.phase_title(phase)} resolved. {next_line}"

    def _early_orders_begin(self, game: Game, resolved: str, now: float, out: list[Mail]
                            ) -> None:
        """The phase now begun may hold orders sent early (PHASE): read them against the new
        position, keep what is accepted, and mail each player how they were read.  Early
        orders for a phase that was skipped on the way are dropped, and their player told."""
        host = host_for(game.kind)
        state = game.started_state
        phase = host.phase(state)
        label = host.phase_label(state)
        due = host.due(state)
        players = {p.power: p for p in self.desk.store.players(game.name)}
        for power, text in sorted(self.desk.store.orders(game.name, phase).items()):
            if power not in players:
                continue
            if power not in due:
                self.desk.store.delete_orders(game.name, phase, power)
                lines = [f"No orders are needed from {written(host, game.options, [power])[0]} "
                         f"in {label}: the orders you sent "
                         f"for it before it began are not used."]
            else:
                check = host.check(state, power, text)
                lines = [f"Your orders for {label}, sent before it began, as the judge reads "
                         f"them now:"]
                lines += [f"  {o}" for o in check.accepted] or ["  (none)"]
                lines += ["Warnings:"] + [f"  {n}" for n in check.notes] if check.notes else []
                if check.errors:
                    lines += ["Errors (these lines were not accepted):"]
                    lines += [f"  {e}" for e in check.errors]
                if check.accepted and not check.all_impossible:
                    self.desk.store.set_orders(game.name, phase, power, check.text, now, None)
                else:  # orders all impossible now are no orders: the power is still reminded
                    self.desk.store.delete_orders(game.name, phase, power)
                    lines.append("Nothing was accepted: send orders for this phase."
                                 if not check.accepted else
                                 f"None of these orders is possible in {label}, so they do not "
                                 "count as orders: send orders for this phase.")
                lines.append(f"Deadline: {reports.stamp(game.deadline)}")
            out.append(Mail(players[power].email, f"{game.name}: your orders for {phase}, "
                            "sent before it began", "\n".join(lines) + f"\n\n{self.desk._sig()}",
                            game=game.name))
        if host.period(state, phase) is None:
            return  # a game without a calendar (cards): no phase is skipped
        played = self.desk.store.result_phases(game.name)
        for skipped, orders in self.desk.store.orders_after(game.name, played | {phase}).items():
            if host.period(state, skipped) is None or \
                    host.later_phase(state, skipped) is not None:
                continue  # not a phase of the calendar, or still to come
            for power, _ in orders.items():
                self.desk.store.delete_orders(game.name, skipped, power)
                if power in players:
                    out.append(Mail(players[power].email, f"{game.name}: orders for {skipped} "
                                    "not used", (
                                        f"The orders you sent early for {skipped} are not used: "
                                        f"the game went from {resolved} to {phase} without "
                                        f"it.\n\n{self.desk._sig()}"), game=game.name))

    def _phase_link(self, game: str, phase: str) -> str:
        """The address of the phase's page (``web.base_url``); "" without one."""
        base = self.desk.config.web.base_url
        if not base:
            return ""
        from mobadj.judge.links import phase_url

        return phase_url(base, game, phase, self.desk.store.web_key(game))

    def rollback(self, game: Game, now: float, out: list[Mail]) -> str:
        """Undo the last resolved phase: state, NMR counters; its orders stand again."""
        results = self.desk.store.results(game.name)
        if not results:
            raise JudgeError("nothing to roll back")
        last = results[-1]
        host = host_for(game.kind)
        if game.status == "ended" or (game.state is not None and host.is_over(game.state)):
            refusal = host.reopen_refusal(game.state)
            if refusal:
                raise JudgeError(f"cannot roll back {last['phase']}: {refusal}")
            self._ended_later_refusal(game, last)
        self.desk.store.mark_rolled_back(last["id"])
        self.desk.store.delete_ending(game.name)  # a game that ended with that phase goes on
        for seat, snap in last["report"].get("players", {}).items():
            snap = dict(snap)
            held_by = snap.pop("email", None)
            player = self.desk.store.player(game.name, seat)
            if player is None or (held_by is not None and held_by != player.email):
                continue  # the seat changed hands since: the new player's record stands
            self.desk.store.update_player(game.name, seat, **snap, ready=0)
        state = last["state_before"]
        deadline = self.desk._deadline(game, state, now)
        paused = game.status == "paused" and game.paused_until is not None
        if paused:  # the pause goes on; the phase's whole time is left when it ends
            self.desk.store.update_game(game.name, state=state, phase=host.phase(state),
                                        deadline=deadline, pause_left=deadline - now,
                                        reminded=0, extended=0)
            when = (f"The game stays paused until {reports.stamp(game.paused_until)} (or "
                    "RESUME); its deadline is set when it resumes.")
            said = f"paused until {reports.stamp(game.paused_until)}"
        else:
            self.desk.store.update_game(game.name, state=state, phase=host.phase(state),
                                        status="active", deadline=deadline, reminded=0,
                                        extended=0)
            when = f"Deadline: {reports.stamp(deadline)}"
            said = f"deadline {reports.stamp(deadline)}"
        self.desk.store.log(game.name, "rollback", {"phase": last["phase"]}, now)
        self.desk._announce(game, f"{game.name}: {last['phase']} rolled back", (
            f"The GM has rolled back the results of {last['phase']}; the game is again in "
            f"{host.phase_label(state)}. Orders already given for it stand; you may change "
            f"them.\n{when}"), out)
        return f"{last['phase']} rolled back; {said}."

    def _ended_later_refusal(self, game: Game, last: dict[str, Any]) -> None:
        """A game that ended after ``last`` was resolved (a draw or concession voted, or the
        GM's ENDGAME, during the next phase) stays ended: reopening it would drop a result
        every player was told of, and the votes that made it."""
        ending = self.desk.store.ending(game.name)
        if ending is None or not ending["phase"]:
            return
        ended_with = host_for(game.kind).ended_phase(last["state_after"], last["phase"])
        if ending["phase"] == ended_with:
            return
        raise JudgeError(
            f"cannot roll back {last['phase']}: the game did not end with it but later, in "
            f"{ending['phase']} ({self.desk.endings.result_line(ending, game)}); that result "
            "stands")

    def require_running(self, game: Game) -> None:
        if game.status != "active":
            raise JudgeError(f"game {game.name} is {game.status}, not running")

    def pause(self, game: Game, seconds: float | None, now: float, out: list[Mail]) -> str:
        self.require_running(game)
        days = option(game.options, "pause_max_days")
        longest = f"{days:g} days, the game's option pause_max_days"
        if seconds is not None and seconds <= 0:  # (read as "no duration", it paused 14 days)
            raise JudgeError(f"a pause of no time is no pause: say how long (PAUSE 3 days), "
                             f"or PAUSE alone for the longest ({longest})")
        limit = days * 86400
        cut = f" (the longest pause: {longest})" if seconds is not None and seconds > limit else ""
        seconds = min(seconds or limit, limit)
        left = (game.deadline - now) if game.deadline is not None else None
        self.desk.store.update_game(game.name, status="paused", paused_until=now + seconds,
                                    pause_left=left)
        self.desk._announce(game, f"{game.name}: paused",
                            f"The GM paused the game. It resumes by itself on "
                            f"{reports.stamp(now + seconds)} unless resumed earlier.", out)
        return f"Paused until {reports.stamp(now + seconds)}{cut}."

    def resume(self, game: Game, now: float, out: list[Mail], by: str) -> str:
        if game.status != "paused":
            raise JudgeError(f"game {game.name} is not paused")
        host = host_for(game.kind)
        left = game.pause_left if game.pause_left is not None else (
            host.phase_hours(game.started_state, game.options) * HOUR)
        deadline = now + max(left, HOUR)
        self.desk.store.update_game(game.name, status="active", paused_until=None, pause_left=None,
                                    deadline=deadline, reminded=0)
        self.desk._announce(game, f"{game.name}: resumed",
                            f"The game was resumed by {by}. Deadline: "
                            f"{reports.stamp(deadline)}.", out)
        return f"Resumed; deadline {reports.stamp(deadline)}."

    def tick(self, due_at: float | None = None) -> list[Mail]:
        """Do whatever deadlines require now; returns the mails queued.  With ``due_at``
        (a mail's arrival, before now), only what they required then: a deadline that
        passed before the mail came is applied before the mail is read (what is done is
        still done, and dated, now)."""
        now = self.desk.clock()
        due = now if due_at is None else min(due_at, now)
        out_all: list[Mail] = []
        for game in self.desk.store.games():
            if game.status not in ("active", "paused") or game.state is None:
                continue
            out: list[Mail] = []
            try:
                with self.desk.store.transaction():
                    current = self.desk.store.game(game.name)
                    if current is None or current.state is None:
                        continue
                    self._tick_game(current, now, out, due)
                    self.desk.queue(out, now)
            except sqlite3.OperationalError:  # the store cannot be written (a full disk):
                raise  # the same for every game; the serve loop says so and tries again
            except Exception:  # one broken game must not stop the others (rolled back)
                log.exception("game %s: deadline handling failed; will retry", game.name)
                continue
            out_all += out
        return out_all

    def _tick_game(self, game: Game, now: float, out: list[Mail], due: float) -> None:
        host = host_for(game.kind)
        if self._nothing_to_decide(game):
            self.resolve(game, now, out)
            return
        if host.resolve_when_all_in and self.plays_at_once(game):  # e.g. bot_moves at_once
            self._play_what_is_in(game, now, out)  # set since the last mail
            return
        missing, first = self._missing(game) if game.status == "active" else ([], False)
        d = decide(now=due, status=game.status, deadline=game.deadline,
                   paused_until=game.paused_until, options=game.options, missing=missing,
                   first_nmr=first, extended=game.extended, reminded=game.reminded)
        players = {p.power: p for p in self.desk.store.players(game.name)}
        if d.action is Action.RESUME:
            self.resume(game, now, out, by="the end of the pause")
        elif d.action is Action.REMIND:
            for seat in d.missing:
                out.append(Mail(players[seat].email, f"{game.name}: reminder", (
                    f"The judge has no orders from {written(host, game.options, [seat])[0]} for "
                    f"{host.phase_label(game.started_state)}.\n"
                    f"Deadline: {reports.stamp(game.deadline)}\n\n{self.desk._sig()}"),
                    game=game.name))
            self.desk.store.update_game(game.name, reminded=1)
        elif d.action is Action.EXTEND:
            assert game.deadline is not None
            new = game.deadline + d.seconds  # not from now: a late judge gives no more
            self.desk.store.update_game(game.name, deadline=new, extended=1, reminded=0)
            self.desk.store.log(game.name, "auto-extend", {"missing": list(d.missing)}, now)
            late = ", ".join(written(host, game.options, d.missing))  # as the game names them
            self.desk.store.after_commit(functools.partial(log.info, (
                "%s: %s deadline extended to %s (first missed deadline: %s)"), game.name,
                host.phase(game.started_state), reports.when(new, self.desk.tz), late))
            self.desk._announce(game, f"{game.name}: deadline extended", (
                f"Orders for {host.phase_label(game.started_state)} are missing from {late}; "
                "as this is a first missed deadline the judge extends it once.\n"
                f"New deadline: {reports.stamp(new)}"), out)
            self.desk.notices.tell_gm(game, "deadline extended by the judge", (
                f"Orders for {host.phase_label(game.started_state)} were missing from {late} "
                f"at the deadline; as it is a first missed deadline the judge extended it "
                f"once, to {reports.stamp(new)}."), out)
        elif d.action is Action.RESOLVE:
            self.resolve(game, now, out)
