"""The small interface the judge uses for any kind of game, and the hosts that implement it.

The judge knows nothing of Diplomacy or cards: it stores a JSON ``state`` per game, asks the
host which seats must act, checks each submission, and at the deadline (or when everyone is
in) asks the host to resolve the phase.  :class:`DiplomacyHost` serves every map (the
standard game and its variants) through :mod:`mobadj.engine`; :class:`CardHost` serves every game of
:mod:`mobadj.cards.registry` through the card protocol (sealed simultaneous choices are
collected by mail and revealed together).  Which kinds exist is asked of the registries
(:mod:`mobadj.engine.variants` for maps, :mod:`mobadj.cards.registry` for card games): this
module names no game.
"""

from __future__ import annotations

import importlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mobadj.errors import JudgeServiceError
from mobadj.judge.deadlines import option

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.engine import OrderChoice, Rules

log = logging.getLogger("mobadj.judge")

State = dict[str, Any]
"""A game's state as the store keeps it: JSON data that only its host reads."""


class HostError(JudgeServiceError, ValueError):
    """A request the game cannot serve (unknown seat, bad option); safe to show the sender."""


@dataclass
class Check:
    """A submission as the game reads it: the accepted text (canonical) and each error."""

    accepted: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # accepted, but doubtful (e.g. impossible)
    impossible: list[str] = field(default_factory=list)  # accepted, but cannot be carried out

    @property
    def text(self) -> str:
        return "\n".join(self.accepted)

    @property
    def all_impossible(self) -> bool:
        """Every accepted order is impossible here (orders meant for another phase, or
        another position): they are no orders for this phase."""
        return bool(self.accepted) and all(o in self.impossible for o in self.accepted)


@dataclass
class Unordered:
    """What earlier orders a new set leaves out: ``items`` (units, when ``units``; else
    orders, as a winter's builds), and ``fate``, what now becomes of them."""

    items: list[str]
    units: bool
    fate: str

    def said(self, whose: str, by: str) -> str:
        """The notice: ``whose`` earlier orders (``Your``, ``FRANCE's``) replaced ``by``
        (``this mail``), e.g. "Your earlier orders for A PAR and A MAR are replaced by this
        mail: those units have no orders now and will hold." """
        named = (", ".join(self.items[:-1]) + " and " + self.items[-1]
                 if len(self.items) > 1 else self.items[0])
        if self.units:
            return f"{whose} earlier orders for {named} are replaced by {by}: {self.fate}."
        one = len(self.items) == 1
        return (f"{whose} earlier {'order' if one else 'orders'} {named} "
                f"{'is' if one else 'are'} replaced by {by}: {self.fate}.")


@dataclass
class Merged:
    """A seat's orders standing after a new set, with the game option ``order_mails merge``
    (njudge's orders per unit): their ``text``, the earlier orders ``kept`` beside the new
    ones, and the warnings for the orders together that the new ones alone did not have."""

    text: str
    kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def said(self, whose: str) -> list[str]:
        """The answer's lines for the earlier orders kept (``whose``: ``Your``,
        ``FRANCE's``), and the warnings for all the orders together ([] when none kept)."""
        if not self.kept:
            return []
        lines = [f"{whose} earlier orders for the other units stand (in this game a mail "
                 "changes only the orders of the units it orders):"]
        lines += [f"  {o}" for o in self.kept]
        if self.notes:
            lines.append("Warnings for all the orders together:")
            lines += [f"  {n}" for n in self.notes]
        return lines


def merged_orders(host: Host, state: State, seat: str, options: Mapping[str, Any],
                  earlier: str | None, check: Check) -> Merged:
    """The orders to keep for ``seat`` after ``check`` was accepted, ``earlier`` those
    standing before: the new set alone (the default, ``order_mails replace``), or with
    ``order_mails merge`` the earlier orders for the units it does not order beside it
    (in a phase whose orders are per unit: a winter's set replaces the earlier whole)."""
    alone = Merged(check.text)
    if not earlier or str(options.get("order_mails", "replace")).strip().lower() != "merge":
        return alone
    both = host.merged(state, seat, earlier, check.text)
    if both is None or both == check.text:
        return alone
    full = host.check(state, seat, both)
    return Merged(full.text, [o for o in full.accepted if o not in check.accepted],
                  [n for n in full.notes if n not in check.notes])


@dataclass
class Free:
    """Commands a seat gave out of turn, applied at once (e.g. table talk in a card game)."""

    state: State  # the state after them
    applied: list[str] = field(default_factory=list)  # canonical text of each
    errors: list[str] = field(default_factory=list)
    rest: str = ""  # the submission's other lines (blank in place of the free ones): orders
    events: dict[str, list[str]] = field(default_factory=dict)  # seat -> new events it may see
    public: list[str] = field(default_factory=list)  # the new events everyone may see


@dataclass
class Resolution:
    """One resolved phase: the new state, the published report, and per-seat extras."""

    state: State
    report: str  # plain text for everyone (all orders and outcomes, changes, next phase)
    data: dict[str, Any]  # machine-readable result (the JSON attachment)
    private: dict[str, str] = field(default_factory=dict)  # seat -> text only they may see
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)
    over: bool = False
    summary: str = ""  # one line, e.g. "Spring 1901 Movement resolved"


@dataclass
class Ending:
    """A game ended before its rules end it (a draw, a concession, the GM's word), as its
    host tells it: the state to keep, and what the end mail adds (lines, attachments)."""

    state: State
    lines: list[str] = field(default_factory=list)
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)


class Host(ABC):
    """What the judge needs from a game kind.  States are JSON-able values."""

    kind: str
    title: str
    # True: resolve as soon as every due seat has submitted (turn-based card games);
    # False: wait for the deadline or for everyone's READY (Diplomacy).
    resolve_when_all_in: bool = False
    # Map pictures to attach to results (game option ``picture``): both | svg | none.
    picture: str = "both"
    # What a seat without orders does, as its player is told (the GM's orders were none).
    without_orders: str = "the units hold"
    # What becomes of a seat whose player left (civil disorder), as the table is told.
    without_player: str = "its units hold; the rules' defaults apply"
    # True: seats are filled in order, with no gap (a card game's P1..Pn): joiners get the
    # first free seats; False: any free power (their wishes choose).
    fills_in_order: bool = False

    # The judge's commands as HELP lists them for a player of this kind of game, where they
    # differ: keyword -> its lines (none: the command means nothing in this game).
    judge_help: Mapping[str, tuple[tuple[str, str], ...]] = {}

    def without_player_in(self, options: Mapping[str, Any]) -> str:
        """:attr:`without_player` in a game with these options."""
        return self.without_player

    def unplayed_in(self, options: Mapping[str, Any]) -> str:
        """What a seat whose player missed too many deadlines or left is, as "X is now ..."
        says it: "in civil disorder", unless the game's rules use those words for something
        else (Mobtown's rule 3: "left unplayed")."""
        return "in civil disorder"

    def unplayed_label(self, options: Mapping[str, Any]) -> str:
        """:meth:`unplayed_in` as a label ("civil disorder", "left unplayed")."""
        return self.unplayed_in(options).removeprefix("in ")

    @abstractmethod
    def seats(self, options: dict[str, Any]) -> list[str]:
        """Every seat (power) of a game with these options."""

    def seats_in(self, options: dict[str, Any], state: State | None) -> list[str]:
        """The seats of a game as it is: once it has started (``state``), those in play
        (a card game dealt for three has three, not its six possible seats)."""
        return self.seats(options)

    def seats_always_dealt(self, options: dict[str, Any]) -> list[str]:
        """The seats every start of a game with these options deals, however few play:
        all of them, unless seats are filled in order (a card game for three deals P1..P3),
        so that a joiner who wishes for another is told the wish may be passed over."""
        return self.seats(options)

    # -- the game's own options, beside the judge's (deadline_hours, press, ...) --------------

    def rule_options(self) -> dict[str, tuple[Any, ...]]:
        """The options of the game itself a GM may choose when creating it: name -> the
        values it takes, the default first (empty: any value)."""
        return {}

    def is_option(self, name: str) -> bool:
        """Is ``name`` an option of the game itself?  Besides :meth:`rule_options`, any name
        with the ``game_`` prefix: it is handed to the game, which checks it when it starts
        (card games: ``game_modules=3``)."""
        return name in self.rule_options() or name.startswith("game_")

    def read_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The game's rule options among ``options``, checked, as they are stored (other
        names are left alone); raises :class:`HostError` naming a bad value."""
        return {}

    def rules_text(self, options: Mapping[str, Any]) -> str:
        """The rule options chosen among ``options``, short (``paradox=1982, ...``), for
        players to see; "" when none is."""
        return ""

    def seat_names(self, options: dict[str, Any]) -> dict[str, list[str]]:
        """Seat -> every name players may write it by, the one to show them first (a
        map's power name and aliases; :mod:`mobadj.judge.names` reads them)."""
        return {s: [s] for s in self.seats(options)}

    def seat(self, options: dict[str, Any], text: str) -> str:
        """The seat named by ``text`` (any spelling); raises :class:`HostError`."""
        for s in self.seats(options):
            if s.lower() == text.strip().lower():
                return s
        raise HostError(f"no seat {text!r}; seats: {', '.join(self.seats(options))}")

    @abstractmethod
    def new_state(self, seats: list[str], seed: int, options: dict[str, Any]) -> State:
        """The state at the start (``seats`` lists the seats that have players)."""

    @abstractmethod
    def phase(self, state: State) -> str:
        """The short name of the current phase (``S1901M``; ``turn 7``)."""

    def phase_label(self, state: State) -> str:
        """The long name, for people."""
        return self.phase(state)

    def ended_phase(self, state: State, phase: str) -> str:
        """The phase a game that ended in ``state`` is recorded to have ended in; ``phase``:
        the phase just resolved, or the one the game stood at when it was ended."""
        return phase

    def ended_line(self, state: State, phase: str) -> str:
        """LIST and status of an ended game: where it ended (``phase``: as recorded)."""
        return f"Ended in: {phase}"

    @abstractmethod
    def due(self, state: State) -> list[str]:
        """Seats that must submit something this phase."""

    @abstractmethod
    def check(self, state: State, seat: str, text: str) -> Check:
        """Read a submission (orders, a bid) without changing the state.  Each line of
        ``text`` is at its line of the mail (the mail's other lines are empty), so that an
        error names the line the player wrote."""

    @abstractmethod
    def resolve(self, state: State, orders: dict[str, str], missing: list[str]) -> Resolution:
        """Resolve the phase with the accepted texts; ``missing`` seats get the defaults."""

    def unordered(self, state: State, seat: str, before: str, after: str) -> Unordered | None:
        """What ``seat``'s earlier accepted orders ``before`` ordered that the new accepted
        orders ``after`` (which replace them) leave without an order, or None (nothing, or
        a game whose moves are not standing orders)."""
        return None

    def merged(self, state: State, seat: str, before: str, after: str) -> str | None:
        """``seat``'s earlier accepted orders ``before`` with those for the units the new
        accepted orders ``after`` order replaced by them (njudge's orders per unit), or None
        when this phase's orders are no orders per unit (``after`` replaces ``before``)."""
        return None

    def out_of_turn(self, state: State, seat: str, text: str) -> str:
        """What the judge says of ``text`` sent by ``seat`` when nothing is due from it
        ("" by default: nothing more than that no orders are needed)."""
        return ""

    def idle_reason(self, state: State, seat: str) -> str:
        """Why ``seat`` owes nothing now when the rules say more than that nothing is due
        (Mobtown's civil disorder): said instead of "No orders are needed" ("" otherwise)."""
        return ""

    def missed_orders_done(self, state: State, count: int) -> str | None:
        """What became of the pieces of ``count`` seats that sent no orders for the phase of
        ``state`` once it is played, in plain words ("its units held"); None: the game says
        only that the rules' defaults were used."""
        return None

    def free(self, state: State, seat: str, text: str) -> Free | None:
        """Apply at once the lines of ``text`` that ``seat`` may give out of turn now; None
        when this kind of game has no such commands (all lines are then orders)."""
        return None

    def free_commands(self, state: State, seat: str) -> list[str]:
        """What ``seat`` may give out of turn now (help text); [] for most games."""
        return []

    def command_words(self, state: State | None) -> frozenset[str]:
        """Words that start the game's own commands, which take precedence over the judge's
        command words in a player's mail (see :func:`mobadj.judge.commands.parse_body`)."""
        return frozenset()

    def help(self, state: State, seat: str, topic: str | None) -> str | None:
        """A player's HELP: the game's commands and what ``seat`` may send now, or the
        game's explanation of ``topic`` (a command, a card).  The judge's HELP by default
        (None)."""
        return None

    def preview(self, state: State, seat: str, text: str) -> str:
        """What would happen to ``seat``'s orders if the others all held."""
        return "Preview is not available for this game."

    def first_orders(self, state: State, seat: str) -> str:
        """What ``seat`` sends first, for the mail that starts the game ("" when the game
        says nothing more than the position)."""
        return ""

    def choices(self, state: State, seat: str) -> list[OrderChoice]:
        """What ``seat`` may order now as picks for a form, when the phase has few legal
        orders (a map's retreats, builds, removals); none by default."""
        return []

    def pictures(self, state: State) -> list[tuple[str, str, bytes]]:
        """The board of ``state`` as pictures to attach (a map's), none when there is none."""
        return []

    def status(self, state: State, seat: str | None) -> str:
        """The position as ``seat`` may see it (``None``: public)."""
        return ""

    def end_early(self, state: State, how: str) -> Ending:
        """The game ended now by ``how`` (a draw, the GM's word) rather than by its rules:
        nothing to add by default."""
        return Ending(state)

    def reopen_refusal(self, state: State | None) -> str | None:
        """Why a finished game cannot be rolled back into play (None: it can)."""
        return None

    def exported_state(self, state: State, over: bool) -> State:
        """The state as the GM's export shows it: a state holding secrets that decide the
        game to come (a card game's seed) keeps them out until the game is ``over``."""
        return state

    def exported(self, data: dict[str, Any], state: State | None, over: bool
                 ) -> dict[str, Any]:
        """The GM's whole export of a game in ``state`` (its states already through
        :meth:`exported_state`), with what a seat sent that the others may not see yet
        (a card game's face-down offer, a sealed bet) kept out until the game is ``over``."""
        return data

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    # -- what the judge tells of a game beyond its phases (SUMMARY, a new player's mail) -----

    def picture_of(self, state: State, caption: str) -> list[tuple[str, str, bytes]]:
        """The position drawn (attachments, as with results); [] for games without one."""
        return []

    def centre_counts(self, state: State) -> dict[str, int] | None:
        """Supply centres held per seat (None for games without them)."""
        return None

    def phase_title(self, phase: str) -> str:
        """``phase`` (a code) as results subjects and headings, the GM's answers and SUMMARY
        name it: the code itself by default."""
        return phase

    def period(self, state: State, phase: str) -> str | None:
        """The year of ``phase`` (its month for calendars with months), for the centres by
        year in SUMMARY; None for games without a calendar."""
        return None

    def later_phase(self, state: State, text: str) -> str | None:
        """The phase ``text`` names when it comes after the current one (orders may be sent
        early for it: njudge's PHASE), else None."""
        return None

    def phase_hours(self, state: State, options: dict[str, Any]) -> float:
        """How long the phase lasts (movement vs retreats/adjustments)."""
        return option(options, "deadline_hours")


# -- Diplomacy ----------------------------------------------------------------------------------


class DiplomacyHost(Host):
    """Every map game (Diplomacy, Mobtown II, ...) through the adjudication engine; the map's
    rules say what differs (mobadj.judge.diplomacy)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._map: GameMap | None = None
        self._rules: Rules | None = None
        self._variants: dict[tuple[tuple[str, Any], ...], Rules] = {}  # options -> Rules
        self._names: dict[str, dict[str, str]] = {}  # a game's names as stored -> read

    @property
    def title(self) -> str:  # type: ignore[override]
        """The map's title (its name when the map cannot be loaded)."""
        try:
            return str(self.game_map.title)
        except HostError:
            return self.kind

    @property
    def game_map(self) -> GameMap:
        if self._map is None:
            from mobadj.board import MapFileError, load_map

            try:
                self._map = load_map(self.kind)
            except (MapFileError, OSError) as exc:  # a map being edited must not stop the judge
                log.warning("the %s map cannot be loaded: %s", self.kind, exc)
                raise HostError(f"the {self.kind} map cannot be loaded: {exc}") from None
        return self._map

    @property
    def rules(self) -> Rules:
        """The map's rules with every option at its default, from the engine's registry."""
        if self._rules is None:
            from mobadj.engine import VariantError, default_rules

            try:
                self._rules = default_rules(self.game_map)
            except VariantError as exc:
                raise HostError(f"{self.title} games cannot be played here: {exc}") from None
        return self._rules

    # -- rule options: chosen by the GM at creation, kept in the state from the start -----------

    def rule_options(self) -> dict[str, tuple[Any, ...]]:
        """The map's rule options (docs/rulings.md, and a variant's own, e.g.
        docs/mobtown-rulings.md), ``duplicate_orders`` (which of two orders for one unit
        counts: how orders are read, before the adjudicator) and ``names`` (what the game
        calls its powers, Mobtown's rule 1: any text, mobadj.board.names)."""
        from mobadj.orders.duplicates import DUPLICATE_RULES

        return {**type(self.rules).choices(), "duplicate_orders": DUPLICATE_RULES,
                "names": ()}

    def is_option(self, name: str) -> bool:
        return name in self.rule_options()

    def read_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Values as a command line or a mail writes them (``1982``, ``yes``) -> the values
        the rules take (``"1982"``, True), each checked by the engine's own reader."""
        from mobadj.board import names_text, parse_power_names
        from mobadj.engine import coerce_options
        from mobadj.orders.duplicates import check_rule

        known = self.rule_options()
        chosen = {k: v for k, v in options.items() if k in known}
        duplicates = chosen.pop("duplicate_orders", None)
        names = chosen.pop("names", None)
        try:
            out = coerce_options(chosen, type(self.rules))
            self._rules_with(out)  # the rules check each value (and are kept for the game)
            if duplicates is not None:
                out["duplicate_orders"] = check_rule(duplicates)
            if names is not None:
                out["names"] = names_text(parse_power_names(self.game_map, str(names)))
        except ValueError as exc:
            raise HostError(str(exc)) from None
        return out

    def unplayed_in(self, options: Mapping[str, Any]) -> str:
        """The map's rules' word (:attr:`~mobadj.engine.presentation.Presentation.unplayed`)."""
        try:
            return str(type(self.rules).unplayed)
        except HostError:
            return super().unplayed_in(options)

    def rules_text(self, options: Mapping[str, Any]) -> str:
        return ", ".join(f"{name}={str(options[name]).lower()}"
                         for name in self.rule_options() if name in options and name != "names")

    def names_of(self, where: Mapping[str, Any]) -> dict[str, str]:
        """What a game calls its powers (power id -> name; only those it renames), from its
        options or from its state's rules (rule 1 of Mobtown II: the GM's own names)."""
        rules = where.get("rules") if "position" in where else where
        text = str((rules or {}).get("names") or "")
        if not text:
            return {}
        got = self._names.get(text)
        if got is None:
            from mobadj.board import parse_power_names

            try:
                got = parse_power_names(self.game_map, text)
            except ValueError as exc:  # stored by a version that read names otherwise
                raise HostError(f"this game's names cannot be used here: {exc}") from None
            self._names[text] = got
        return got

    def map_of(self, where: Mapping[str, Any]) -> GameMap:
        """The map with the game's names (``names_of``): what its reports, mails and pages
        read; its powers answer to the map's names and ids too."""
        from mobadj.board import renamed

        return renamed(self.game_map, self.names_of(where))

    @staticmethod
    def chosen(state: Mapping[str, Any]) -> dict[str, Any]:
        """The rule options a game was started with (none for games stored before they
        could be chosen: those are played by the defaults)."""
        return dict(state.get("rules") or {})

    def rules_of(self, state: Mapping[str, Any]) -> Rules:
        """The rules a game is played by: the map's, with its rule options."""
        chosen = self.chosen(state)
        try:
            return self._rules_with(chosen)
        except ValueError as exc:  # a stored option this version no longer has
            raise HostError(f"this game's rule options cannot be used here: {exc}") from None

    def _rules_with(self, chosen: Mapping[str, Any]) -> Rules:
        """The map's rules with ``chosen`` options: one shared Rules object per distinct set
        (the judge asks for them at every check, preview and deadline); a ValueError naming
        a bad option."""
        key = tuple(sorted((k, v) for k, v in chosen.items()
                           if k not in ("duplicate_orders", "names")))
        if not key:
            return self.rules
        got = self._variants.get(key)
        if got is None:
            from mobadj.engine import with_options

            got = self._variants[key] = with_options(self.rules, dict(key))
        return got

    def duplicates(self, state: Mapping[str, Any]) -> str:
        """Which of two orders for one unit counts: ``last`` (the default) or ``first``."""
        return str(self.chosen(state).get("duplicate_orders", "last"))

    def _engine(self) -> ModuleType:
        try:
            return importlib.import_module("mobadj.judge.diplomacy")
        except ImportError as exc:  # the engine is missing from this tree
            raise HostError(f"{self.title} games need the adjudication engine: {exc}") from None

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(self.game_map.powers)

    def seat_names(self, options: dict[str, Any]) -> dict[str, list[str]]:
        """Every name a seat answers to: the game's own (rule 1), the map's and aliases."""
        return {pid: [p.name, *p.aliases] for pid, p in self.map_of(options).powers.items()}

    def seat(self, options: dict[str, Any], text: str) -> str:
        try:
            return self.map_of(options).power_id(text.strip())
        except LookupError:
            from mobadj.judge.names import Names  # every name and alias, with a did-you-mean

            raise HostError(Names(self, options).unknown(text)) from None

    def new_state(self, seats: list[str], seed: int, options: dict[str, Any]) -> State:
        return self._engine().new_state(self, seats, seed, options)

    def phase(self, state: State) -> str:
        return str(state["position"]["phase"])

    def phase_label(self, state: State) -> str:
        return self._engine().phase_label(self, state)

    def due(self, state: State) -> list[str]:
        return self._engine().due(self, state)

    def check(self, state: State, seat: str, text: str) -> Check:
        return self._engine().check(self, state, seat, text)

    def resolve(self, state: State, orders: dict[str, str], missing: list[str]) -> Resolution:
        return self._engine().resolve(self, state, orders, missing)

    def preview(self, state: State, seat: str, text: str) -> str:
        return self._engine().preview(self, state, seat, text)

    def unordered(self, state: State, seat: str, before: str, after: str) -> Unordered | None:
        return self._engine().unordered(self, state, seat, before, after)

    def merged(self, state: State, seat: str, before: str, after: str) -> str | None:
        return self._engine().merged(self, state, seat, before, after)

    def idle_reason(self, state: State, seat: str) -> str:
        return self._engine().idle_reason(self, state, seat)

    def missed_orders_done(self, state: State, count: int) -> str | None:
        return self._engine().missed_orders_done(self, state, count)

    def first_orders(self, state: State, seat: str) -> str:
        return self._engine().first_orders(self, state, seat)

    def choices(self, state: State, seat: str) -> list[OrderChoice]:
        return self._engine().choices(self, state, seat)

    def pictures(self, state: State) -> list[tuple[str, str, bytes]]:
        return self._engine().pictures(self, state)

    def status(self, state: State, seat: str | None) -> str:
        return self._engine().status(self, state, seat)

    def is_over(self, state: State) -> bool:
        return bool(state.get("over"))

    def picture_of(self, state: State, caption: str) -> list[tuple[str, str, bytes]]:
        return self._engine().picture(self, state, caption)

    def centre_counts(self, state: State) -> dict[str, int] | None:
        centers = state.get("position", {}).get("centers") or {}
        return {power: len(held) for power, held in centers.items()}

    def phase_title(self, phase: str) -> str:
        """The long name with the code in brackets where the rules want the phase in words
        (Mobtown: "Week 3, July 1919: movement (1919-07-W3-M)"), else the code."""
        try:
            rules = self.rules
            if not rules.phase_in_words:
                return phase
            return f"{rules.calendar.parse(phase).long_name()} ({phase})"
        except (HostError, ValueError):
            return phase

    def period(self, state: State, phase: str) -> str | None:
        try:
            p = self.rules_of(state).calendar.parse(phase)
        except ValueError:
            return None
        month = getattr(p, "month", None)
        return f"{p.year}-{month:02d}" if isinstance(month, int) and month else str(p.year)

    def later_phase(self, state: State, text: str) -> str | None:
        calendar = self.rules_of(state).calendar
        try:
            named, now = calendar.parse(text.strip().upper()), calendar.parse(self.phase(state))
        except ValueError:
            return None
        key_named, key_now = _playing_order(named), _playing_order(now)
        if key_named is None or key_now is None or key_named <= key_now:
            return None
        return str(named)

    def phase_hours(self, state: State, options: dict[str, Any]) -> float:
        phase = self.phase(state)
        if phase.endswith("M"):
            return option(options, "deadline_hours")
        return option(options, "retreat_hours")


def _playing_order(phase: Any) -> tuple[int, ...] | None:
    """A phase's place in playing order: its calendar's own key (Mobtown II's), else year,
    season (spring, summer, fall, autumn, winter) and kind (movement, retreats,
    adjustments); None for a phase this cannot place."""
    key = getattr(phase, "key", None)
    if callable(key):
        return tuple(key())
    seasons, kinds = "SUFAW", "MRA"
    season, kind = str(getattr(phase, "season", ""))[:1], str(getattr(phase, "kind", ""))[:1]
    if season not in seasons or kind not in kinds:
        return None
    return (int(phase.year), seasons.index(season), kinds.index(kind))


# -- registry -----------------------------------------------------------------------------------

_EXTRA: dict[str, Host] = {}
_DIPLOMACY: dict[str, DiplomacyHost] = {}
_CARDS: dict[str, Host] = {}
_FOUND: dict[str, Host] = {}
"""A kind as written (stripped, lower case) -> its host, once found: the judge asks for the
host of a game a dozen times per mail, and finding it anew lists the maps, reads each one's
variant and its aliases.  A kind keeps the host it was first found to mean; a kind not found
is looked for again (a map file may be added while the judge runs)."""


def register(host: Host) -> None:
    """Make a host known by its kind (used for card games and by tests)."""
    _EXTRA[host.kind] = host
    _FOUND.clear()


def host_for(kind: str) -> Host:
    """The host for a game kind (a map, one of its variant's aliases, or a card game);
    raises :class:`HostError` listing the known kinds."""
    key = kind.strip().lower()
    got = _EXTRA.get(key)
    if got is None:
        got = _FOUND.get(key)
        if got is None:
            got = _FOUND[key] = _find_host(key, kind)
    return got


def _find_host(key: str, kind: str) -> Host:
    from mobadj.engine import UnknownVariantError, canonical_name, known_maps

    try:
        name = canonical_name(key)
    except UnknownVariantError:
        name = None
    if name is not None:
        if name not in _DIPLOMACY:  # one per kind: it keeps its map loaded
            _DIPLOMACY[name] = DiplomacyHost(name)
        return _DIPLOMACY[name]
    from mobadj.cards.registry import GAMES
    from mobadj.cards.registry import canonical_name as card_name

    try:
        name = card_name(key)
    except KeyError:
        raise HostError(
            f"unknown game kind {kind!r}; known: {', '.join([*known_maps(), *GAMES])}"
        ) from None
    got = _CARDS.get(name)
    if got is None:
        from mobadj.judge.cardhost import CardHost

        got = _CARDS[name] = CardHost(name)
    return got
