"""The turn-based game protocol every card game implements, so one judge and one terminal
front end can host any of them.

A game declares its facts (:class:`GameInfo`), and a :class:`GameState` answers: who acts
now, what a player may do, apply an action, is it over, the scores, and a *view per player*
that holds only what that player may see.  Randomness comes only from the state's seeded
``random.Random``; every action is logged as canonical command text, so a game replays
exactly from ``(game, players, seed, options, actions)`` (see :mod:`mobadj.cards.record`).

Secrets: everything a state emits for people (events, errors, views, history) goes through
per-player visibility.  An :class:`Event` names who may see it; sealed simultaneous choices
are logged as private events and revealed by a public event once all are in.

Free commands: a game may let players give some commands out of turn (table talk, showing a
card).  It lists them per player in :meth:`GameState.free_commands` and :meth:`GameState.apply`
lets such a command through whoever is to act; the judge applies them at once by mail and the
terminal takes them with a seat prefix (``P3: say ...``).

Undo: a player may take back their last action (before anyone else acts) unless it used
chance or hidden information: :func:`undo_refusal` refuses any action that drew from the
state's RNG (every roll, shuffle and random pick goes through it) or moved something out of
what :meth:`GameState.hidden_from` the player (a draw from a face-down pile, sealed choices
turned up).  Games only declare what is hidden; no game keeps a list of undoable actions.
Front ends ask only :meth:`GameState.undo` (or :meth:`GameState.can_undo`), which always
run that check; a game adds its own limits in :meth:`GameState._may_undo`, and may not
override the two public methods (refused when the class is made).

Rules versions: :attr:`GameInfo.rules_version` names the readings a game follows.  A record
keeps the version its game started under, and a game that changed a reading keeps the old
one as an option (:attr:`GameState.earlier_rules`), so a game started before the change is
replayed as it was played (:meth:`GameState.options_for_rules`).

Options: a game that lists its options in :attr:`GameState.known_options` has every other
option refused at set-up, with a did-you-mean; games that leave it ``None`` check their own.
An option that may name a file on this machine (Mice Heist's ``deck``) is listed in
:attr:`GameState.file_options` with its built-in values: a game hosted for others (the
judge) takes only those (:meth:`GameState.check_hosted_options`), so nobody can make the
judge read a file of its machine; the terminal takes a path too.  Options a game would
take but no player means (micro mob's ``modules=docks,docks``) are refused when a game is
started (:meth:`GameState.check_new_options`), never when one is replayed from its record.
"""

from __future__ import annotations

import difflib
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from mobadj.errors import CardGameError


class GameError(CardGameError, ValueError):
    """Base of every error a player can cause; its message is safe to show that player."""


class DeckError(CardGameError, ValueError):
    """A game's deck file is malformed (raised when it is loaded, never during play); the
    message names the card and the field."""


class CommandError(GameError):
    """A command that does not parse: where, what was expected, and a did-you-mean."""

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        column: int | None = None,
        expected: Sequence[str] = (),
        suggestion: str | None = None,
    ) -> None:
        self.message = message
        self.text = text
        self.column = column
        self.expected = tuple(expected)
        self.suggestion = suggestion
        parts = [message]
        if column is not None:
            parts.append(f"at column {column}")
        if expected:
            parts.append("expected " + " or ".join(self.expected))
        text_msg = ", ".join(parts)
        if suggestion:
            text_msg += f" (did you mean '{suggestion}'?)"
        super().__init__(text_msg)


class IllegalAction(GameError):
    """A well-formed command the rules do not allow now (not your turn, cannot afford, ...)."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The facts a game declares up front."""

    name: str  # registry name, e.g. "micromob"
    title: str  # "micro mob"
    min_players: int
    max_players: int
    simultaneous: bool  # has phases where several players act at once (sealed bids)
    chance: bool  # shuffles or dice
    hidden_information: bool
    rules_version: str  # which edition of the rulebook the engine follows
    deck_version: str  # version of the YAML card data the game was started with


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with who may read it (``None`` = everyone)."""

    text: str
    visible_to: frozenset[int] | None = None

    def visible(self, player: int | None) -> bool:
        """``player`` None is the public/spectator view: it sees only public events."""
        if self.visible_to is None:
            return True
        return player is not None and player in self.visible_to


@dataclass
class GameState(ABC):
    """One game in progress.  Subclasses are the games; the base keeps the RNG and the log.

    ``actions`` holds ``(player, canonical command text)`` for every applied action, in
    order: with ``seed``/``players``/``options`` it is the whole record of the game.
    """

    info: ClassVar[GameInfo]
    # option name -> one line of help; None: the game checks its options itself
    known_options: ClassVar[dict[str, str] | None] = None
    # options whose value may name a file on this machine -> the built-in values that a
    # game hosted for others (the judge) accepts instead
    file_options: ClassVar[dict[str, tuple[str, ...]]] = {}
    # what the terminal's help shows after "help CARD" as examples of this game's cards
    help_examples: ClassVar[tuple[str, ...]] = ()
    # earlier rules versions the engine still plays, oldest first: version -> the options
    # that give its readings.  A record with no version (stored before versions were
    # recorded) is of the oldest one.
    earlier_rules: ClassVar[dict[str, dict[str, Any]]] = {}

    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    rng: random.Random = field(init=False, repr=False)
    actions: list[tuple[int, str]] = field(default_factory=list, init=False)
    events: list[Event] = field(default_factory=list, init=False)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game may not replace :meth:`undo` or :meth:`can_undo`: they run the check every
        game shares, which a game's own limits (:meth:`_may_undo`) only add to."""
        super().__init_subclass__(**kwargs)
        for name in ("undo", "can_undo"):
            if name in vars(cls):
                raise TypeError(f"{cls.__name__} may not override {name}(): the shared undo "
                                "check must not be bypassed; add limits in _may_undo()")

    def __post_init__(self) -> None:
        info = type(self).info
        if not info.min_players <= self.players <= info.max_players:
            raise IllegalAction(
                f"{info.title} is for {info.min_players}-{info.max_players} players, "
                f"not {self.players}"
            )
        self._check_options()
        self.rng = random.Random(self.seed)
        self.setup()

    def _check_options(self) -> None:
        """Refuse an option the game does not know (only for games listing ``known_options``),
        so a typo is not silently played as the default."""
        known = type(self).known_options
        if known is None:
            return
        title = type(self).info.title
        for key in self.options:
            if key in known:
                continue
            close = difflib.get_close_matches(str(key), list(known), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            takes = (f"its options: {', '.join(sorted(known))}" if known
                     else "it takes no options")
            raise IllegalAction(f"unknown option '{key}' for {title}{hint}; {takes}")

    # -- what a game must provide -------------------------------------------------------
    @abstractmethod
    def setup(self) -> None:
        """Deal and shuffle with ``self.rng``; log public/private set-up events."""

    @abstractmethod
    def to_act(self) -> list[int]:
        """Players who must act now (several in a simultaneous phase); [] when over."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Any]:
        """Every action ``player`` may take now (empty when it is not their turn)."""

    @abstractmethod
    def _apply(self, player: int, action: Any) -> None:
        """Change the state; raise :class:`IllegalAction` if the rules forbid it."""

    @abstractmethod
    def parse(self, player: int, text: str) -> Any:
        """Turn a player's command text into an action; raise :class:`CommandError`."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[float]:
        """Final (or running) score per player."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """JSON-able state as ``player`` may see it (``None``: a spectator, public only)."""

    @abstractmethod
    def render(self, player: int | None) -> str:
        """Plain text of :meth:`view` for mail and terminal."""

    # -- provided ---------------------------------------------------------------------------
    def screen(self, player: int) -> str:
        """What ``player`` acts on, short enough for a terminal of 24 rows of 80 columns
        together with what changed and the prompt (the terminal shows it after every move;
        :meth:`render`, the whole table, on ``board``).  Like :meth:`render`, made from what
        the player may see.  By default the whole table."""
        return self.render(player)

    def explain(self, player: int, topic: str) -> str:
        """What a card (or anything else named ``topic``) does, in plain words, for
        ``help CARD``: only what ``player`` may see.  Games override it; by default the
        rules in brief are in ``help``."""
        return (f"Nothing is known by the name '{topic}' here; 'help' lists the commands and "
                "the rules in brief.")

    def winners(self) -> list[int]:
        """Players with the best score (ties share the win); games with tie-breaks override."""
        if not self.is_over():
            return []
        s = self.scores()
        best = max(s)
        return [p for p, v in enumerate(s) if v == best]

    def won_together(self) -> bool:
        """Did the players win together, as one side against the game (a cooperative game
        won)?  Its :meth:`winners` are then everyone, and not a tie for the best score."""
        return False

    def lost(self) -> str:
        """Why everyone lost to the game ("the Time marker reached 0 before the Building
        was finished"): a cooperative or solo game over without a winner; "" otherwise
        (nobody lost to the game, or it is not over)."""
        return ""

    def check_invariants(self) -> list[str]:
        """Broken invariants (card conservation, resource bounds...); [] when all hold."""
        return []

    def hidden_from(self, player: int) -> Counter[tuple[str, Any]]:
        """Everything ``player`` cannot see now, as ``(place, item)`` pairs counted with
        their multiplicity: the draw piles, other players' hands, sealed choices, face-down
        cards.  The place names how the item is hidden, so an item that is partly shown
        without moving (an offer whose back is turned up) changes its place.

        Undo compares it before and after an action (:func:`undo_refusal`): an action that
        takes anything out of it cannot be taken back.  Games with hidden information must
        override it (a test checks that each one does and that it is complete)."""
        return Counter()

    def _may_undo(self, player: int, action: Any) -> bool:
        """Game-specific limits on taking back ``action`` (``player``'s last), asked of the
        state before it, beyond the chance and hidden-information check every game gets
        (:func:`undo_refusal`): e.g. table talk that the others have heard.  Only that check
        calls it: alone it does not say whether a move may be taken back."""
        return True

    def undo(self, player: int) -> Self:
        """The game as it was before ``player``'s last action, rebuilt by replay (so no undo
        data exists that could leak anything).  The one way to take a move back: raises
        :class:`IllegalAction` saying why when it may not be (see :func:`undo_refusal`)."""
        if not self.actions or self.actions[-1][0] != player:
            raise IllegalAction("you can only undo your own last action, before anyone else acts")
        before = self.replay(len(self.actions) - 1)
        action = before.parse(player, self.actions[-1][1])
        refusal = undo_refusal(before, self, player, action)
        if refusal:
            raise IllegalAction(refusal)
        return before

    def can_undo(self, player: int) -> bool:
        """May ``player`` take back their last action now (the whole check of :meth:`undo`)?"""
        try:
            self.undo(player)
        except IllegalAction:
            return False
        return True

    def replay(self, upto: int | None = None) -> Self:
        """This game rebuilt from its seed and options with its first ``upto`` actions."""
        state = type(self).new(self.players, self.seed, self.options)
        for player, text in self.actions[:upto]:
            state.command(player, text)
        return state

    def free_commands(self, player: int) -> list[str]:
        """Commands ``player`` may give now even when it is not their turn, as help text whose
        first word is the command word (``"say <anything>"``, ``"reveal"``); [] by default.
        Others may read this list (the terminal shows it), so it must hold no secret."""
        return []

    def is_free(self, player: int, action: Any) -> bool:
        """May ``action`` by ``player`` go through out of turn?  By default: when its command
        word (the first word of ``str(action)``) starts one of :meth:`free_commands`.  A game
        may answer True for a whole kind of command so that its rules give the refusal's
        reason (wrong phase, nothing to show) instead of "not your turn"."""
        free = self.free_commands(player)
        if not free:
            return False
        words = str(action).split(maxsplit=1)
        return bool(words) and any(f.split(maxsplit=1)[0].lower() == words[0].lower()
                                   for f in free if f.strip())

    def not_due_note(self, player: int, action: Any) -> str:
        """Why ``player``, whose ``action`` was just played, is not to move now, in the
        game's words ("after your select the other players bet first"), or "" when whose
        move it is says it all.  A mail of several moves names it for the lines it cannot
        play."""
        return ""

    def turn_refusal(self, player: int, action: Any) -> str:
        """The rules' reason why ``player``, who is not to act now, may not make ``action``
        ("the Mob Boss makes no offer ..."), said instead of "it is not your turn"; "" when
        the game has none better."""
        return ""

    def apply(self, player: int, action: Any) -> None:
        """Apply a legal action and log it as canonical text (``str(action)``).  Out of turn
        only a free command (:meth:`is_free`) goes through."""
        if player not in self.to_act():
            if not 0 <= player < self.players:
                raise IllegalAction(f"it is not your turn: there is no player P{player + 1}")
            if not self.is_free(player, action):
                free = self.free_commands(player)
                also = f" (you may now: {'; '.join(free)})" if free else ""
                raise IllegalAction((self.turn_refusal(player, action)
                                     or "it is not your turn") + also)
        self._apply(player, action)
        self.actions.append((player, str(action)))

    def read(self, player: int, text: str) -> Any:
        """:meth:`parse` for a command a person typed: one that does not parse and names,
        by its words alone, exactly one of the moves ``player`` may make now ("u9" when
        "draft U9" is one) says so in its did-you-mean."""
        try:
            return self.parse(player, text)
        except CommandError as err:
            expected = self._expected_now(player, err)
            suggestion = err.suggestion
            if suggestion is None and text.split():
                words = text.lower().split()
                moves = {str(a) for a in self.legal_actions(player)}
                named = [m for m in moves if set(words) <= set(m.lower().split())]
                suggestion = named[0] if len(named) == 1 else None
            if expected == err.expected and suggestion == err.suggestion:
                raise
            raise CommandError(err.message, text=err.text, column=err.column,
                               expected=expected, suggestion=suggestion) from None

    def _expected_now(self, player: int, err: CommandError) -> tuple[str, ...]:
        """The command words an unreadable first word was expected to be, cut to those
        ``player`` may send now (a move or a free command): not ``bet`` when only
        ``select`` is possible.  Unchanged when none of them is possible now."""
        if err.column not in (None, 1) or not err.expected:
            return err.expected
        now = {a.split(maxsplit=1)[0].lower() for a in
               [*map(str, self.legal_actions(player)), *self.free_commands(player)] if a.strip()}
        kept = tuple(e for e in err.expected if e.lower() in now)
        return kept or err.expected

    def command(self, player: int, text: str) -> Any:
        """Parse and apply a command text; returns the action applied."""
        action = self.read(player, text)
        self.apply(player, action)
        return action

    def log(self, text: str, visible_to: int | Sequence[int] | None = None) -> None:
        """Record an event; ``visible_to`` a player, several players, or None for all."""
        if isinstance(visible_to, int):
            who: frozenset[int] | None = frozenset((visible_to,))
        elif visible_to is None:
            who = None
        else:
            who = frozenset(visible_to)
        self.events.append(Event(text, who))

    def history(self, player: int | None) -> list[str]:
        """The event log as ``player`` may read it."""
        return [e.text for e in self.events if e.visible(player)]

    @classmethod
    def new(cls, players: int, seed: int, options: dict[str, Any] | None = None) -> Self:
        return cls(players=players, seed=seed, options=dict(options or {}))

    @classmethod
    def check_new_options(cls, options: dict[str, Any]) -> None:
        """Refuse, for a game about to start (never one replayed from its record), options
        the game would take but a player did not mean (micro mob's ``modules=docks,docks``);
        nothing by default."""
        return None

    @classmethod
    def check_hosted_options(cls, options: dict[str, Any]) -> None:
        """Refuse, for a game hosted for others (the judge), an option that would make this
        machine read a file they name: only the built-in values of :attr:`file_options`."""
        for key, names in cls.file_options.items():
            if key in options and str(options[key]).strip().lower() not in names:
                raise IllegalAction(
                    f"option {key}: a judge plays only the built-in {key}s "
                    f"({', '.join(names)}), never a file of its machine; a {key} file is "
                    f"for the terminal (mobadj play {cls.info.name} -o {key}=FILE)")

    @classmethod
    def rules_of(cls, version: str | None) -> str:
        """The rules version a record stands for: the one it names, or for a record that
        names none (stored before versions were recorded) the oldest this engine plays."""
        if version:
            return version
        return next(iter(cls.earlier_rules), cls.info.rules_version)

    @classmethod
    def options_for_rules(cls, version: str | None, options: dict[str, Any] | None
                          ) -> dict[str, Any]:
        """The options that play a game recorded under rules ``version`` as it was played:
        ``options`` themselves under the current rules; under an earlier version, the options
        giving its readings as well (the game's own options win).  Raises
        :class:`IllegalAction` for a version this engine does not play."""
        version = cls.rules_of(version)
        if version == cls.info.rules_version:
            return dict(options or {})
        readings = cls.earlier_rules.get(version)
        if readings is None:
            known = ", ".join(f"'{v}'" for v in [*cls.earlier_rules, cls.info.rules_version])
            raise IllegalAction(f"this {cls.info.title} game was played under the rules "
                                f"'{version}', which this mobadj does not play (it plays "
                                f"{known})")
        return {**readings, **(options or {})}


def undo_refusal(before: GameState, after: GameState, player: int, action: Any) -> str | None:
    """Why ``action``, which took ``before`` to ``after``, may not be taken back (None: it
    may).  Nothing that used chance or hidden information is ever undone: the state's RNG
    must not have moved (no die rolled, nothing shuffled or drawn at random), nothing may
    have left what was hidden from ``player``, and the game's own :meth:`_may_undo` must
    agree.  Front ends call :meth:`GameState.undo`, which runs it.
    """
    if after.is_over():
        return "the game is over"
    if before.rng.getstate() != after.rng.getstate():
        return "that action cannot be undone: it used chance (a roll, a shuffle or a draw)"
    if before.hidden_from(player) - after.hidden_from(player):
        return "that action cannot be undone: it drew or turned up something hidden"
    if not before._may_undo(player, action):
        return "that action cannot be undone"
    return None


class Bot(ABC):
    """A player that picks actions; better than random (e.g. greedy on points)."""

    @abstractmethod
    def choose(self, state: GameState, player: int, rng: random.Random) -> Any: ...


class RandomBot(Bot):
    """Uniformly random legal action (the simulation baseline)."""

    def choose(self, state: GameState, player: int, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions(player))


def stopped(game: GameState) -> GameState:
    """``game`` as the table of a game ended before its end (a draw, or its GM's word):
    nobody is to act any more, so no view or board names a seat as due or choosing."""
    game.to_act = list  # type: ignore[method-assign]
    return game
