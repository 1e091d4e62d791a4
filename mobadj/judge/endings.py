"""How a game ends other than by a solo win: draws and concessions voted by the players, or
the GM's word; and the result of every ended game, recorded and announced.

Votes (the judge's rulings, docs/gm-guide.md "Draws, concessions and the end of a game"):

- The *voters* are the surviving powers (with a unit or a supply centre left; in games
  without a board, every seated player) whose player is active.  Powers in civil disorder
  or without a player do not vote and do not block; they are survivors all the same.
- ``DRAW``: with the game option ``draw dias`` (the default) a draw includes every survivor
  (DIAS) and passes when every voter has voted DRAW.  With ``draw named`` a vote names the
  members (``DRAW FRANCE ENGLAND``; ``DRAW`` alone names every survivor), and a draw passes
  when every voter has voted for the same members.
- ``CONCEDE TO power``: the game ends with that power's win when every other voter concedes
  to it (at least one).
- ``NO DRAW`` / ``NO CONCEDE`` take a vote back.  Votes stand from phase to phase, and are
  checked again after every phase (a power eliminated no longer votes).
- Votes are secret: nobody (but the GM, in the export) learns who voted what unless the
  vote passes, and then only that everybody agreed.
- Votes are kept when a game ends: a ROLLBACK of the phase it ended with reopens it with
  the votes standing as they stood (a draw that passed because a voter fell passes again
  if the phase played again ends the same way).
"""

from __future__ import annotations

import logging
from typing import Any

from mobadj.judge.base import JudgeBase, JudgeError
from mobadj.judge.commands import Command
from mobadj.judge.hosts import Ending, HostError, host_for
from mobadj.judge.names import Names, written
from mobadj.judge.store import Game, Mail

log = logging.getLogger("mobadj.judge.endings")
DRAW_MODES = ("dias", "named")


def survivors(game: Game, seated: list[str]) -> list[str]:
    """The powers still in the game: those with a unit or a supply centre on the board
    (the position's ``units`` and ``centers``, as every map's batch shape has them), or,
    for a game without a board, every seated power."""
    state = game.state if isinstance(game.state, dict) else {}
    pos = state.get("position")
    if not isinstance(pos, dict) or not ({"units", "centers"} & set(pos)):
        return list(seated)
    alive = {p for key in ("units", "centers") for p, held in (pos.get(key) or {}).items()
             if held}
    return [s for s in host_for(game.kind).seats(game.options) if s in alive]


class Endings:
    """DRAW, NO DRAW, CONCEDE, NO CONCEDE; ENDGAME [DRAW ... | WIN ...]; the result."""

    def __init__(self, desk: JudgeBase) -> None:
        self.desk = desk  # the store, the clock, the mailing helpers and the other parts

    def _voters(self, game: Game) -> tuple[list[str], list[str]]:
        """(survivors, voters) of a game now."""
        players = {p.power: p for p in self.desk.store.players(game.name)}
        alive = survivors(game, [s for s, p in players.items() if p.status != "out"])
        return alive, [s for s in alive if s in players and players[s].status == "active"]

    def _members(self, game: Game, words: list[str]) -> list[str]:
        """The powers named by ``words`` (names of several words too: ``Murder Inc.``)."""
        try:
            return sorted(Names(host_for(game.kind), game.options).seats(words))
        except HostError as exc:
            raise JudgeError(str(exc)) from None

    def vote(self, game: Game, power: str, cmd: Command, now: float, out: list[Mail]) -> str:
        """A player's DRAW / NO DRAW / CONCEDE / NO CONCEDE."""
        if game.status not in ("active", "paused"):
            raise JudgeError(f"{cmd.name.upper()}: game {game.name} is {game.status}.")
        alive, voters = self._voters(game)
        if power not in voters:
            raise JudgeError(f"{cmd.name.upper()}: only the surviving powers vote, and "
                             f"{power} is out of the game.")
        name = cmd.name
        if name in ("nodraw", "noconcede"):
            kind = "draw" if name == "nodraw" else "concede"
            self.desk.store.delete_vote(game.name, power, kind)
            return f"{'Draw' if kind == 'draw' else 'Concession'} vote withdrawn (if any)."
        if name == "draw":
            words = cmd.args.get("words") or []
            mode = str(game.options.get("draw", "dias")).lower()
            if words and mode != "named":
                raise JudgeError("DRAW: in this game a draw includes every surviving power "
                                 "(DIAS); send DRAW alone.")
            members = self._members(game, words) if words else sorted(alive)
            outside = [m for m in members if m not in alive]
            host = host_for(game.kind)
            named = written(host, game.options, members)  # as the game names them
            if outside:
                raise JudgeError(f"DRAW: {', '.join(written(host, game.options, outside))} is "
                                 "out of the game.")
            self.desk.store.set_vote(game.name, power, "draw", members, now)
            reply = ("Your vote for a draw" + (f" between {', '.join(named)}" if words else "")
                     + " is recorded. Votes are secret; the draw passes when every surviving "
                       "player has voted for it. NO DRAW takes your vote back.")
        else:
            try:
                target = Names(host_for(game.kind), game.options).seat(cmd.args["value"])
            except HostError as exc:
                raise JudgeError(f"CONCEDE: {exc}") from None
            if target == power:
                raise JudgeError("CONCEDE: you cannot concede to yourself.")
            (name,) = written(host_for(game.kind), game.options, [target])
            if target not in alive:
                raise JudgeError(f"CONCEDE: {name} is out of the game.")
            self.desk.store.set_vote(game.name, power, "concede", [target], now)
            reply = (f"Your concession to {name} is recorded. Votes are secret; the game "
                     f"ends when every other surviving player has conceded to {name}. "
                     f"NO CONCEDE takes it back.")
        passed = self.count_votes(self.desk.store.game(game.name) or game, now, out)
        return f"{reply}\n\n{passed}" if passed else reply

    def count_votes(self, game: Game, now: float, out: list[Mail]) -> str:
        """End the game when a draw or a concession has every vote it needs."""
        passed = self.passing(game)
        return self.end_game(game, *passed, now, out) if passed else ""

    def passing(self, game: Game) -> tuple[str, list[str], str] | None:
        """The draw or concession that has every vote it needs now, as (result, powers,
        how) for :meth:`end_game`; None while none has."""
        if game.status not in ("active", "paused"):
            return None
        alive, voters = self._voters(game)
        if not voters:
            return None
        votes = self.desk.store.votes(game.name)
        drawn = votes.get("draw", {})
        if all(p in drawn for p in voters):
            if str(game.options.get("draw", "dias")).lower() == "named":
                sets = {tuple(drawn[p]) for p in voters}
                members = list(next(iter(sets))) if len(sets) == 1 else []
            else:  # DIAS: whoever survives now
                members = sorted(alive)
            if members and set(members) <= set(alive):
                return "draw", members, "voted by every surviving player"
        conceded = votes.get("concede", {})
        for target in alive:
            others = [p for p in voters if p != target]
            if others and all(conceded.get(p) == [target] for p in others):
                return "win", [target], "by concession"
        return None

    def end_game(self, game: Game, result: str, powers: list[str], how: str, now: float,
                 out: list[Mail], phase: str | None = None) -> str:
        """End the game with a result (``draw``, ``win``, or ``ended`` without one): record
        it, tell every player, observer and the GM.  It ends in ``phase`` when given (the
        phase just resolved, whose results said the game is over), else in the current one."""
        host = host_for(game.kind)
        if phase is None:
            phase = host.phase(game.state) if game.state is not None else ""
        if game.state is not None:
            phase = host.ended_phase(game.state, phase)
        text = self.result_text(game, result, powers, how)
        told = host.end_early(game.state, text) if game.state is not None else Ending({})
        self.desk.store.update_game(game.name, status="ended", deadline=None, paused_until=None,
                                    **({"state": told.state} if game.state is not None else {}))
        self.desk.store.set_ending(game.name, result, powers, how, phase, now)
        self.desk.store.log(game.name, "ended", {"result": result, "powers": powers, "how": how},
                            now)
        log.info("%s: %s", game.name, text)
        extra = "".join(f"{line}\n" for line in told.lines)
        body = (f"{text}\n{self._board_summary(game)}\n" + (f"{extra}\n" if extra else "")
                + self.desk._sig())
        readers = [p.email for p in self.desk.store.players(game.name) if p.status != "out"]
        readers += self.desk.store.watchers(game.name) + [game.gm_email]
        for to in readers:
            out.append(Mail(to, f"{game.name}: game over", body, list(told.attachments),
                            game=game.name))
        return text

    @staticmethod
    def result_line(ending: dict[str, Any] | None, game: Game | None = None) -> str:
        """An ended game's result for the lists of games (``a draw between ENGLAND, FRANCE
        (declared by the GM)``), its powers as ``game`` names them."""
        if ending is None:
            return "ended"
        named = (written(host_for(game.kind), game.options, ending["powers"]) if game is not None
                 else ending["powers"])
        powers, how = ", ".join(named), ending["how"]
        if ending["result"] == "draw":
            return f"a draw between {powers} ({how})"
        if ending["result"] == "win":
            return f"{powers} wins ({how})"
        if ending["result"] == "together":
            return f"won together by {powers} ({how})"
        if ending["result"] == "lost":
            return f"lost: everyone lost to the game ({how})"
        return f"ended without a result ({how})"

    @staticmethod
    def result_text(game: Game, result: str, powers: list[str], how: str) -> str:
        """The game's end in a sentence, its powers as the game names them."""
        powers = written(host_for(game.kind), game.options, powers)
        if result == "draw":
            return (f"The game {game.name} ends in a draw between {', '.join(powers)} "
                    f"({how}).")
        if result == "win":
            return f"The game {game.name} ends: {powers[0]} wins ({how})."
        if result == "together":
            return f"The game {game.name} ends: won together by {', '.join(powers)} ({how})."
        if result == "lost":
            return f"The game {game.name} ends: everyone lost to the game ({how})."
        return f"The game {game.name} has ended ({how})."

    def _board_summary(self, game: Game) -> str:
        """Supply centres per power at the end, when the game has a board."""
        state = game.state if isinstance(game.state, dict) else {}
        centers = (state.get("position") or {}).get("centers")
        if not isinstance(centers, dict) or not centers:
            return ""
        counts = sorted(((len(v), p) for p, v in centers.items() if v), reverse=True)
        names = written(host_for(game.kind), game.options, [p for _, p in counts])
        return "\nSupply centres: " + ", ".join(
            f"{name} {n}" for name, (n, _) in zip(names, counts, strict=True)) + "\n"

    def gm_end(self, game: Game, words: list[str], now: float, out: list[Mail]) -> str:
        """ENDGAME [DRAW [power ...] | WIN power] (``mobadj game end G --draw ...``)."""
        if game.status == "ended":
            raise JudgeError(f"game {game.name} has already ended")
        head = words[0].lower() if words else ""
        if head == "draw":
            alive, _ = self._voters(game)
            members = self._members(game, words[1:]) if words[1:] else sorted(alive)
            return self.end_game(game, "draw", members, "declared by the GM", now, out)
        if head in ("win", "winner", "solo"):
            winner = self._members(game, words[1:])
            if len(winner) != 1:
                raise JudgeError("ENDGAME WIN needs one power: ENDGAME WIN <power>")
            return self.end_game(game, "win", winner, "declared by the GM", now, out)
        if words:
            raise JudgeError(f"ENDGAME: expected DRAW [power ...] or WIN <power>, got "
                             f"{' '.join(words)!r}")
        return self.end_game(game, "ended", [], "ended by the GM", now, out)

    def record_over(self, game: Game, data: dict[str, Any], how: str, now: float,
                    phase: str) -> None:
        """A game its rules ended (a solo win, the last round of a card game) in ``phase``,
        the phase just resolved (the game's state has moved past it): its result."""
        winner, tied, lost = data.get("winner"), data.get("winners"), data.get("lost")
        shared = "together" if data.get("together") else "draw"  # a cooperative win, or a tie
        result, powers = (("win", [str(winner)]) if winner
                          else (shared, [str(w) for w in tied]) if tied
                          else ("lost", []) if lost else ("ended", []))
        how = f"{how}: {lost}" if lost else how  # why everyone lost, as the mail says it
        if game.state is not None:
            phase = host_for(game.kind).ended_phase(game.state, phase)
        by_judge = data.get("moves_by_judge") or {}  # a card game's seats the bot played
        played = [f"{by_judge[p]} of {p}'s moves by the judge's bot" for p in powers
                  if by_judge.get(p)]
        if played:  # a winner the judge played (its player left): said wherever it shows
            how = f"{how}; {', '.join(played)}"
        self.desk.store.set_ending(game.name, result, powers, how, phase, now)
