"""A game's record: what is needed to replay it exactly, plus the seed commitment.

The seed is committed at the start and revealed only when the game is over, so that anyone
can then audit every shuffle and die.  The commitment binds the seed to a random secret
salt of 256 bits: ``HMAC-SHA256(key=salt, message="<game>:<seed>")`` in hex.  Without the
salt nobody can test guesses of the seed against it; seed and salt are revealed together at
the end, and :func:`verify_record` checks a finished record against its commitment.

Games stored by a judge before salts existed keep their old commitment,
``sha256("<game>:<seed>")`` (:data:`OLD_SCHEME`): they still replay and verify, and are
named as the old scheme wherever the commitment is shown.

A record names the rules version its game started under, and is replayed under it
(:meth:`GameRecord.start`): a record that names none was stored before versions were
recorded and gets the game's oldest readings (:meth:`GameState.options_for_rules`).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import secrets
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mobadj.cards.protocol import GameError, GameState, IllegalAction
from mobadj.cards.registry import canonical_name, game_class
from mobadj.longnumber import long_number, too_long_number

SCHEME = "hmac-sha256"  # HMAC-SHA256(key = the salt's 32 bytes, message = "<game>:<seed>")
OLD_SCHEME = "sha256-unsalted"  # sha256("<game>:<seed>"): guessable, kept for old games
SEED_BITS = 128
SALT_BYTES = 32
RECORD_FORMAT = "mobadj-card-game"


def new_seed() -> int:
    """A seed nobody can guess: 128 bits from :mod:`secrets`."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    """A secret salt of 256 bits, as 64 hex digits."""
    return secrets.token_hex(SALT_BYTES)


def seed_commitment(game: str, seed: int, salt: str | None = None) -> str:
    """The published commitment to ``seed``: HMAC-SHA256 keyed by the salt (hex), or the old
    unsalted ``sha256("<game>:<seed>")`` when ``salt`` is None."""
    message = f"{game}:{seed}".encode()
    if salt is None:
        return hashlib.sha256(message).hexdigest()
    try:
        key = bytes.fromhex(salt)
    except ValueError:
        raise IllegalAction(f"the salt must be hex digits, not {salt[:20]!r}") from None
    return hmac.new(key, message, hashlib.sha256).hexdigest()


@dataclass
class GameRecord:
    """Everything that defines a game: replaying ``actions`` from ``seed`` rebuilds it.

    ``salt`` None is a game of the old, unsalted commitment scheme; ``rules_version`` ""
    one stored before rules versions were recorded (played under the oldest readings).
    """

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)
    rules_version: str = ""
    deck_version: str = ""
    salt: str | None = None

    @classmethod
    def of(cls, game: str, state: GameState, salt: str | None = None) -> GameRecord:
        info = type(state).info
        return cls(
            game=game,
            players=state.players,
            seed=state.seed,
            options=dict(state.options),
            actions=list(state.actions),
            rules_version=info.rules_version,
            deck_version=info.deck_version,
            salt=salt,
        )

    @property
    def scheme(self) -> str:
        return OLD_SCHEME if self.salt is None else SCHEME

    @property
    def commitment(self) -> str:
        return seed_commitment(self.game, self.seed, self.salt)

    def start(self) -> GameState:
        """The game as it was dealt, under the rules it started with: a record of earlier
        rules is played with the options that give their readings (those options are then
        in the state's ``options``, so whatever is rebuilt from the state plays the same)."""
        cls = game_class(self.game)
        return cls.new(self.players, self.seed,
                       cls.options_for_rules(self.rules_version, self.options))

    def replay(self, upto: int | None = None) -> GameState:
        """The state after the first ``upto`` actions (all when None)."""
        state = self.start()
        for player, text in self.actions[:upto]:
            state.command(player, text)
        return state

    def to_json(self, reveal_seed: bool = False) -> dict[str, Any]:
        """A JSON-able record; seed and salt only when ``reveal_seed`` (game over)."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "rules_version": game_class(self.game).rules_of(self.rules_version),
            "deck_version": self.deck_version,
            "commitment_scheme": self.scheme,
            "seed_commitment": self.commitment,
            "actions": [[p, a] for p, a in self.actions],
        }
        if reveal_seed:
            data["seed"] = self.seed
            if self.salt is not None:
                data["salt"] = self.salt
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """A record read back (a saved terminal game, a judge's final record); raises
        :class:`IllegalAction` naming what is missing or malformed."""
        if not isinstance(data, dict):
            raise IllegalAction("a game record is a JSON object")
        missing = [k for k in ("game", "players", "seed", "actions") if k not in data]
        if missing:
            raise IllegalAction("the record has no " + ", ".join(missing)
                                + (" (the seed is revealed only when the game is over)"
                                   if "seed" in missing else ""))
        try:
            game = canonical_name(str(data["game"]))
        except KeyError as exc:
            raise IllegalAction(str(exc.args[0])) from None
        scheme = data.get("commitment_scheme", SCHEME if "salt" in data else OLD_SCHEME)
        salt = data.get("salt")
        if scheme == SCHEME and not salt:
            raise IllegalAction("the record has no salt: it cannot be checked against its "
                                "commitment (the salt is revealed when the game is over)")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise IllegalAction(f"the record's options must map names to values, not "
                                f"{str(options)[:40]!r}")
        if scheme == SCHEME:
            try:
                bytes.fromhex(str(salt))
            except ValueError:
                raise IllegalAction(f"the salt must be hex digits, not {str(salt)[:20]!r}"
                                    ) from None
        try:
            actions = [(int(p), str(a)) for p, a in data["actions"]]
            record = cls(game, int(data["players"]), int(data["seed"]), dict(options), actions,
                         str(data.get("rules_version") or ""), str(data.get("deck_version", "")),
                         str(salt) if scheme == SCHEME else None)
        except (TypeError, ValueError):
            raise IllegalAction("the record's players, seed or actions are malformed") from None
        for number, (player, _action) in enumerate(actions, 1):
            if not 0 <= player < record.players:
                raise IllegalAction(f"action {number} is by player {player + 1}, and there are "
                                    f"{record.players}")
        return record


@dataclass
class Verdict:
    """What :func:`verify_record` found: ``ok`` and the lines that say why."""

    ok: bool
    lines: list[str]


def verify_record(data: dict[str, Any], commitment: str | None = None) -> Verdict:
    """Check a finished game record: its seed and salt give the commitment it states (and
    ``commitment``, the one published at the start, when given), and its actions replay
    from that seed, every one legal, to the end of the game (or, for a game ended before
    that by a draw or its GM, the record stating ``ended``, as far as it went)."""
    from mobadj.cards.saves import is_sealed

    if is_sealed(data):
        return Verdict(False, ["NOT verified: this is a game in progress, saved sealed; a game "
                               "is checked once it is over (its record then replaces the save)"])
    if "format" in data and data["format"] != RECORD_FORMAT:
        shown = str(data["format"])[:40]
        return Verdict(False, [f"NOT verified: this is not a mobadj game's record: its format "
                               f"is {shown!r}, expected {RECORD_FORMAT!r}"])
    try:
        record = GameRecord.from_json(data)
    except IllegalAction as exc:
        return Verdict(False, [f"NOT verified: {exc}"])
    lines = []
    ok = True
    computed = record.commitment
    stated = str(data.get("seed_commitment", ""))
    how = ("HMAC-SHA256(key=salt, message='<game>:<seed>')" if record.salt is not None
           else "sha256('<game>:<seed>'), the old unsalted scheme: guessable, not secret")
    lines.append(f"commitment {computed} = {how}")
    if stated and stated.lower() != computed:
        ok = False
        lines.append(f"MISMATCH: the record states the commitment {stated}")
    if commitment is not None and commitment.strip().lower() != computed:
        ok = False
        lines.append(f"MISMATCH: the commitment published at the start was {commitment}")
    if not stated and commitment is None:
        lines.append("(compare it with the commitment published when the game started)")
    try:
        state = record.start()
    except GameError as exc:
        return Verdict(False, [f"NOT verified: the game cannot be set up: {exc}", *lines])
    failed = _replay(state, record.actions)
    if failed:
        return Verdict(False, [f"NOT verified: {type(state).info.title}, {record.players} "
                               + ("player" if record.players == 1 else "players"),
                               *lines, f"the actions do not replay: {failed}"])
    if not state.is_over() and data.get("ended"):  # a draw, the GM's word: no end to reach
        lines.append(f"{len(record.actions)} actions replay legally; the game was ended "
                     f"before its rules end it: {str(data['ended'])[:200]}")
    elif not state.is_over():
        ok = False
        lines.append(f"not finished: {len(record.actions)} actions replay, but the game is "
                     "not over")
    else:
        scores = ", ".join(f"P{p + 1} {s:g}" for p, s in enumerate(state.scores()))
        lines.append(f"{len(record.actions)} actions replay legally to the end: {scores}")
        lines.append(_result_line(state))
        if "scores" in data and _stated_scores(data["scores"]) != state.scores():
            ok = False
            lines.append(f"MISMATCH: the record states the scores {str(data['scores'])[:80]}")
        winners = [p + 1 for p in state.winners()]
        if "winners" in data and _stated_winners(data["winners"]) != sorted(winners):
            ok = False
            lines.append(f"MISMATCH: the record states {_seats_text(data['winners'])} won; "
                         f"the replay gives {' and '.join(f'P{p}' for p in winners) or 'nobody'}")
    lines.insert(0, ("verified: " if ok else "NOT verified: ")
                 + f"{type(state).info.title}, {record.players} "
                 + ("player" if record.players == 1 else "players"))
    return Verdict(ok, lines)


def _replay(state: GameState, actions: list[tuple[int, str]]) -> str:
    """Play ``actions`` on ``state``; "" when every one is legal, else which one is not and
    why (its number, seat and text), or that the game was over before the last ones."""
    for number, (player, text) in enumerate(actions, 1):
        if state.is_over():
            more = len(actions) - number + 1
            return (f"the game was over after action {number - 1}; the record has {more} "
                    f"more (the first: P{player + 1} '{text[:60]}')")
        try:
            state.command(player, text)
        except GameError as exc:
            return f"action {number} of {len(actions)}, P{player + 1} '{text[:60]}': {exc}"
    return ""


def _stated_winners(winners: Any) -> list[int] | None:
    """The seats (1, 2, ...) a record states as winners, sorted; None when they are no
    list of seat numbers (a mismatch).  "P2" is read as 2."""
    if not isinstance(winners, list):
        return None
    seats = []
    for seat in winners:
        text = str(seat).strip().upper().removeprefix("P")
        if isinstance(seat, bool) or not text.isdigit():
            return None
        seats.append(int(text))
    return sorted(seats)


def _seats_text(winners: Any) -> str:
    """The winners a record states, as the verdict shows them (P1 and P3, nobody)."""
    seats = _stated_winners(winners)
    if seats is None:
        return repr(winners)[:80]
    return " and ".join(f"P{p}" for p in seats) or "nobody"


def _result_line(state: GameState) -> str:
    """Who won the replayed game, as the end report says it (with the tie-break that
    decided, if one did): the verdict names the winner the scores alone may not tell."""
    from mobadj.cards.report import end_report

    said = [line for line in end_report(state)
            if line.startswith(("Winner", "Nobody wins", "You win"))]
    if said:
        return said[-1]
    return "Winner: " + (" and ".join(f"P{p + 1}" for p in state.winners()) or "nobody")


def _stated_scores(scores: Any) -> list[float] | None:
    """The scores a record states, None when they are no list of numbers (a mismatch)."""
    try:
        return [float(s) for s in scores]
    except (TypeError, ValueError):
        return None


def read_record_file(path: str | Path) -> dict[str, Any]:
    """A record file's JSON; raises :class:`IllegalAction` with a one-line reason."""
    return read_json_file(path)[1]


def read_json_file(path: str | Path) -> tuple[str, dict[str, Any]]:
    """A record or saved game's text and its JSON object; raises :class:`IllegalAction` with
    a one-line reason."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        if text.startswith("\ufeff"):  # a byte-order mark (Notepad's): not the file's text,
            text = text[1:]  # which a sealed save's tag still checks byte for byte
        data = json.loads(text)
        if "\\u" in text:  # an escaped lone surrogate would fail wherever it is shown
            json.dumps(data, ensure_ascii=False).encode("utf-8")
    except OSError as exc:
        raise IllegalAction(f"cannot read {path}: {exc.strerror or exc}") from None
    except RecursionError:
        raise IllegalAction(f"{path} is not a JSON game record: nested too deeply") from None
    except UnicodeEncodeError:
        raise IllegalAction(f"{path} is not a JSON game record: a text in it is no Unicode "
                            "(a lone surrogate such as \\ud800)") from None
    except ValueError as exc:  # not UTF-8, not JSON, a number too long to read
        where = long_number(text) if too_long_number(exc) else None
        why = str(exc) if where is None else f"line {where[0]}, column {where[1]}: {where[2]}"
        raise IllegalAction(f"{path} is not a JSON game record: {why}") from None
    if not isinstance(data, dict):
        raise IllegalAction(f"{path} is not a JSON game record")
    return text, data


def undo_last(game: str, state: GameState, player: int) -> GameState:
    """Take back ``player``'s last action if it was the last one made and the rules allow:
    :meth:`GameState.undo`, which runs the check every game shares."""
    return state.undo(player)


_IMMUTABLE: set[type] = {int, float, str, bytes, bool, type(None), frozenset, range}
_MUTABLE: set[type] = set()


def _shared(kind: type) -> bool:
    """Are values of this type never changed in place (so a copy may share them)?  Frozen
    dataclasses are, once seen; the answer is kept in two sets that C code can read."""
    if kind in _IMMUTABLE:
        return True
    if kind in _MUTABLE:
        return False
    params = getattr(kind, "__dataclass_params__", None)
    frozen = bool(params is not None and params.frozen)
    (_IMMUTABLE if frozen else _MUTABLE).add(kind)
    return frozen


def _all_shared(items: Iterable[object]) -> bool:
    kinds = set(map(type, items))
    return kinds <= _IMMUTABLE or all(map(_shared, kinds))


def fork(state: GameState) -> GameState:
    """An independent copy of a game in progress: applying actions to it leaves ``state``
    as it was.  Frozen dataclasses (cards, events, actions) and the other immutable values
    are shared, the rest is copied with its aliases kept (a list held in two places is one
    list in the copy too); the RNG continues from the same point."""
    memo: dict[int, object] = {}

    def dup(obj: object) -> object:
        kind = type(obj)
        if kind in _IMMUTABLE or _shared(kind):
            return obj
        key = id(obj)
        if key in memo:
            return memo[key]
        if kind is list or kind is tuple:
            if _all_shared(obj):  # type: ignore[arg-type]
                new = list(obj) if kind is list else obj  # type: ignore[call-overload]
                memo[key] = new
                return new
            if kind is tuple:
                return tuple(map(dup, obj))  # type: ignore[call-overload]
            new_list: list[object] = []
            memo[key] = new_list
            new_list.extend(map(dup, obj))  # type: ignore[call-overload]
            return new_list
        if kind is dict:
            if _all_shared(obj.values()):  # type: ignore[attr-defined]
                memo[key] = new_dict = dict(obj)  # type: ignore[call-overload]
                return new_dict
            new_dict = {}
            memo[key] = new_dict
            for k, v in obj.items():  # type: ignore[attr-defined]
                new_dict[k] = v if type(v) in _IMMUTABLE else dup(v)
            return new_dict
        if kind is set:
            new_set = set(obj) if _all_shared(obj) else set(map(dup, obj))  # type: ignore
            memo[key] = new_set
            return new_set
        if isinstance(obj, random.Random):
            rng: random.Random = random.Random.__new__(type(obj))  # (set next: not seeded)
            rng.setstate(obj.getstate())
            memo[key] = rng
            return rng
        if isinstance(obj, GameState):
            new_state = object.__new__(kind)
            memo[key] = new_state
            fields = vars(new_state)
            for name, value in vars(obj).items():
                fields[name] = value if type(value) in _IMMUTABLE else dup(value)
            return new_state
        return copy.deepcopy(obj, memo)  # anything else: a full copy, to be safe

    return dup(state)  # type: ignore[return-value]


class ReplayCache:
    """Recent states of recently seen games, so that a game rebuilt from its record for
    every mail (the judge stores nothing else) replays only the actions since last time.
    :meth:`state` returns a fresh copy (:func:`fork`) the caller may change freely, or with
    ``fresh=False`` the cached state itself, only to be read."""

    def __init__(self, games: int = 32, per_game: int = 4) -> None:
        self.games = games
        self.per_game = per_game
        self._cache: OrderedDict[tuple, list[tuple[tuple[tuple[int, str], ...], GameState]]] = (
            OrderedDict())

    @staticmethod
    def _ident(record: GameRecord) -> tuple:
        return (record.game, record.players, record.seed, record.salt, record.rules_version,
                json.dumps(record.options, sort_keys=True, default=str))

    def state(self, record: GameRecord, fresh: bool = True) -> GameState:
        ident = self._ident(record)
        actions = tuple(record.actions)
        entries = self._cache.get(ident, [])
        best: tuple[tuple[tuple[int, str], ...], GameState] | None = None
        for done, snapshot in entries:
            if len(done) <= len(actions) and actions[:len(done)] == done and (
                    best is None or len(done) > len(best[0])):
                best = (done, snapshot)
        if best is not None and len(best[0]) == len(actions):
            self._cache.move_to_end(ident)
            return fork(best[1]) if fresh else best[1]
        if best is None:
            game = record.start()
            start = 0
        else:
            game, start = fork(best[1]), len(best[0])
        for player, text in actions[start:]:
            game.command(player, text)
        self._remember(ident, actions, game)
        return fork(game) if fresh else game

    def keep(self, record: GameRecord, state: GameState) -> None:
        """Remember ``state``, just played from the record's game, as the game after
        ``record``'s actions, so that it is not replayed when next asked for (the judge keeps
        the state it resolved a move to).  The caller changes ``state`` no more."""
        actions = tuple(record.actions)
        if tuple(state.actions) != actions:
            raise ValueError("the state kept is not the game after the record's actions")
        self._remember(self._ident(record), actions, state)

    def _remember(self, ident: tuple, actions: tuple[tuple[int, str], ...],
                  game: GameState) -> None:
        entries = [e for e in self._cache.get(ident, []) if e[0] != actions]
        self._cache[ident] = [*entries[-(self.per_game - 1):], (actions, game)]
        self._cache.move_to_end(ident)
        while len(self._cache) > self.games:
            self._cache.popitem(last=False)
