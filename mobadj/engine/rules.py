"""The rules of a map, and every hook a variant overrides: the seam between engine and variant.

:class:`Rules` joins three concerns, each a class of its own: the rules of play (here: orders,
movement, retreats, adjustments), the phase calendar (:class:`~mobadj.engine.phase_rules.
PhaseRules`: ``calendar``, ``other_phase``, ``after_phase``, ``winner``) and the presentation
(:class:`~mobadj.engine.presentation.Presentation`: names, reports, pictures, batch lines,
game pages).  It is generic over the position: a variant that keeps more state writes
``class MyRules(Rules[MyPosition])`` and every hook gets a ``MyPosition``, with no cast.

:class:`Rules` is standard Diplomacy (2023 rulebook, DATC 3.0 preferences); its fields are the
game's options, its methods the hooks.  A variant is a subclass in one module, named by its
map file (``variant: package.module:Class``, mobadj.engine.variants); the engine runs one
pipeline (mobadj.engine.pipeline) for every map and asks these hooks:

Orders and positions
    ``order_parser(game_map)``, ``parse_orders(text, game_map, power)`` and
    ``split_power(text, game_map)``: how players write orders (a grammar extension);
    ``position_from_data(data, game_map)``, ``initial_position(game_map, year)``: the text form
    and the set-up (a variant may keep more state in a :class:`Position` subclass);
    ``calendar``: the phases (parse, first, next, when centres change owner).

Movement (each hook is asked once per order *before* resolution, so the resolver's hot loop
only reads precomputed integers and flags; a hook a variant does not override is not asked
at all, mobadj.engine.hooks)
    ``bind(position, game_map)``: a copy that knows the board of this turn;
    ``screen(position, power, order, game_map)``: refuse an order before the engine sees it,
    or keep it ``ASIDE`` for ``after_movement``;
    ``check_move(game_map, order)``: a Reason if a move is illegal in the variant;
    ``head_to_head(a, b)``: ``BATTLE``, ``PASS`` (they pass each other, e.g. by convoy) or
    ``BATTLE_UNLESS_EQUAL`` (equally strong, or both one power's, they pass; else the
    stronger wins and dislodges the other);
    ``move_bonus(order)``: extra, uncuttable strength; ``required_margin(order)``: how much
    more than the opposing strength a move needs beyond the usual "more than";
    ``can_convoy(topology, location, kind)`` / ``convoyable(kind)``: who convoys;
    ``after_movement(before, after, outcome, results, aside, topology)``: what else happens
    (results of the orders kept aside, a variant's words for a result, news);
    ``retreat_options(dislodged, topology, occupied, standoffs)`` and
    ``retreat_allowed(dislodged, destination, via)``: where a dislodged unit may go.

Retreats, adjustments, other phases, the end of a phase
    ``retreat_phase(position, orders, topology)``; ``other_phase(...)`` for phases that are
    neither movement, retreats nor adjustments (Mobtown's Don placement);
    ``retreat_choice(dislodged)``: has a dislodged unit anything to decide (else it is
    settled at once with the movement, ``forced_retreats``);
    ``adjustment_counts(position)``, ``needs_adjustment(position, topology)``,
    ``adjusting(position, topology)``, ``before_adjustments(...)``, ``remove_order(...)``,
    ``too_many_reason``: builds and removals; ``after_phase(before, result, topology,
    scored)``: news once a phase is done (victory);
    ``due(position, topology)`` (who must order), ``winner(position, game_map)``,
    ``void_reasons`` and ``status_notes(position, game_map)`` (the judge's preview and status);
    ``idle_words(position, power, game_map)``: why a power owes no orders now (the judge's
    answer to orders it sends all the same); ``phase_error(error, phase)``: an order error
    in the words of the phase being played;
    ``sample_orders(position, power, topology, rng)``: random but plausible orders (the
    demonstration games of mobadj.web.demo); ``order_choices(position, power, topology)``:
    the legal retreats, builds and removals as picks (the seat's page of mobadj.web).

Reports and pictures
    ``report_body(result, game_map)``, ``mail_report(result, game_map)``,
    ``json_extras(result)``, ``picture_data(result)``,
    ``batch_keys`` and ``batch_value(key, result, spell)`` (mobadj.batch),
    ``power_word``, ``power_noun``, ``picture_note``, ``options_title``.

Game pages (mobadj.web)
    ``page_words`` (headings a variant words its own way), ``page_legend`` (the key to the
    picture), ``page_tables(data, names)`` (tables under a phase, e.g. where each leader
    stands); a phase's ``place()`` puts it in the pages' calendar.

The DATC's rule options (section 4; docs/rulings.md has the table) are fields; every default is
the DATC preference, and :data:`OPTIONS` lists the choices.  The alternatives that change
resolution run in :class:`mobadj.engine.options.OptionResolver`, so the default resolver's hot
loop is untouched.  A variant adds its own options as fields with ``choices`` metadata
(:func:`option`).  Options of mobadj's own that every map has are fields with ``choices``
metadata too (``forced_retreats``; docs/rulings.md, "Options of our own").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, TypeVar, cast

from mobadj.board.model import close_matches
from mobadj.engine.phase_rules import PhaseRules
from mobadj.engine.position import (
    PositionT,
    standard_initial_position,
)
from mobadj.engine.presentation import Presentation
from mobadj.engine.reading import position_with_retreats
from mobadj.engine.topology import army_convoyed, fleet_convoys, sea_fleets
from mobadj.engine.units import Dislodged, UnitState

if TYPE_CHECKING:
    import random

    from mobadj.board import GameMap
    from mobadj.engine.choices import OrderChoice
    from mobadj.engine.movement import Decisions, MovementOutcome
    from mobadj.engine.pipeline import OrderInput, PhaseResult
    from mobadj.engine.results import OrderResult
    from mobadj.engine.topology import Topology
    from mobadj.engine.validation import MOrder
    from mobadj.orders.model import AnyOrder, Disband, Remove
    from mobadj.orders.parser import OrderParser, ParseResult

BATTLE: Final = 1
PASS: Final = 0
BATTLE_UNLESS_EQUAL: Final = 2

#: ``screen`` keeps an order aside: the engine leaves it to ``after_movement``.
ASIDE: Final = "aside"

#: the value of a rule option: a word (``"szykman"``), a switch or a number (a variant's)
OptionValue = str | bool | int | float
OptionT = TypeVar("OptionT", str, bool, int, float)

#: DATC 4.A.2: f (Szykman, preferred), d ("all hold"), b (1982), c (2000/2023), a (1971).
PARADOX_RULES = ("szykman", "all_hold", "1982", "2000", "1971")
#: Paradox rules that stop a convoyed army cutting certain supports (mobadj.engine.options).
CUT_RULES: Final = ("1982", "2000", "1971")

#: ``forced_retreats``: settle dislodged units with nothing to decide at once, or keep the
#: retreat phase for them (mobadj's own option, docs/rulings.md).
FORCED_RETREATS = ("at_once", "retreat_phase")

#: Every DATC option: name -> its choices, the DATC preference first (docs/rulings.md).
OPTIONS: dict[str, tuple[OptionValue, ...]] = {
    "convoy_disruption": ("all_routes", "any_route"),  # DATC 4.A.1: b / a (1971)
    "paradox": PARADOX_RULES,
    "adjacent_convoy": ("2023", "dptg", "1971", "fallback"),  # DATC 4.A.3: c / DPTG / a / 2.4
    "convoy_attack": ("from_origin", "cuts"),  # DATC 4.A.4: a / b
    "convoy_retreat": (True, False),  # DATC 4.A.5: b / a
    "dislodged_bounce": ("unless_h2h", "never"),  # DATC 4.A.7: b / a
    "missing_coast": ("infer", "fail"),  # DATC 4.B.2: a / b
    "impossible_coast": ("illegal", "ignore"),  # DATC 4.B.3: b / a
    "support_coast": ("optional", "same_power", "required"),  # DATC 4.B.4
    "unit_coast": ("ignore", "fail"),  # DATC 4.B.5: b / a
    "irrelevant_coast": ("ignore", "fail"),  # DATC 4.B.6: b / a
    "too_many": ("first", "all_invalid", "last"),  # DATC 4.D.4 / 4.D.6: b / a / c
    "civil_disorder": ("2023", "home_centres"),  # DATC 4.D.8: 2023 rule / DATC 2.4
}


def option(default: OptionT, choices: tuple[OptionT, ...] = (True, False)) -> OptionT:  # type: ignore[assignment]
    """A game option of a variant: a dataclass field whose value must be one of ``choices``
    (the first is the preferred default, shown first in messages).  Typed as its value, as
    ``dataclasses.field`` is, so that ``flag: bool = option(False)`` reads as it is.  The
    choices are all words, all switches or all numbers of one type (ints or floats: an
    option set as ``bonus=2`` gets the number 2); anything else is a TypeError when the
    variant's class is defined (its module is loaded)."""
    kinds = {type(c) for c in choices}
    if len(kinds) != 1 or not kinds <= {str, bool, int, float}:
        raise TypeError(f"option choices must be all words, all switches or all numbers of "
                        f"one type, not {choices!r}")
    return dataclasses.field(default=default, metadata={"choices": choices})


@dataclass
class Rules(PhaseRules[PositionT], Presentation[PositionT]):
    """Standard Diplomacy (2023 rulebook, DATC 3.0 preferences): the rules of play here,
    the phase calendar (:class:`PhaseRules`) and the presentation (:class:`Presentation`)
    beside them."""

    #: the DATC options these rules take (a variant leaves out those with nothing to act on)
    datc_options: ClassVar[tuple[str, ...]] = tuple(OPTIONS)
    #: the keys of a position's text form, read or written (``mobadj adjudicate`` warns of
    #: any other key in a position file: a misspelt ``unitz`` would leave the board empty)
    position_keys: ClassVar[tuple[str, ...]] = (
        "phase", "units", "centers", "dislodged", "standoffs")
    #: a build or removal beyond the allowance is "too many orders" (else "no builds allowed")
    too_many_reason: ClassVar[bool] = True

    paradox: str = "szykman"
    #: DATC 4.A.1: a convoy with several routes is disrupted when "all_routes" are (b) or
    #: when "any_route" is (a, the 1971 rulebook).
    convoy_disruption: str = "all_routes"
    #: DATC 4.A.3: when does a move to an adjacent province go by convoy?  "2023": written
    #: "via convoy" or a fleet of its own power convoys it (no land fallback); "dptg": only
    #: "via convoy"; "1971": any power's fleet convoys it and the unit there moves the other way;
    #: "fallback": as "2023", but the land route when no convoy gets it there (DATC 2.4).
    adjacent_convoy: str = "2023"
    #: DATC 4.A.4: a convoyed army attacking a unit that supports an attack on the army's own
    #: province comes "from_origin" (a: it does not cut) or from the sea, and "cuts" (b).
    convoy_attack: str = "from_origin"
    #: DATC 4.A.5: may a unit dislodged by a convoyed army retreat to the army's origin?
    convoy_retreat: bool = True
    #: DATC 4.A.7: a dislodged unit bounces a third unit in the attacker's origin
    #: "unless_h2h" (b: unless it lost a head-to-head battle) or "never" (a).
    dislodged_bounce: str = "unless_h2h"
    #: DATC 4.B.2: a fleet move without a coast where one coast is reachable.
    missing_coast: str = "infer"
    #: DATC 4.B.3: a fleet move to a coast it cannot reach.
    impossible_coast: str = "illegal"
    #: DATC 4.B.4: may a support omit the coast of a fleet's move to a split-coast province?
    #: "optional" (6.B.8, 6.B.15), only for a fleet of the same power ("same_power",
    #: Calhamer), or never ("required", orders checked on submission).
    support_coast: str = "optional"
    #: DATC 4.B.5: an order naming the wrong coast of the ordered fleet ("F SPA/NC" on SC).
    unit_coast: str = "ignore"
    #: DATC 4.B.6: a coast in an army's move ("A GAS - SPA/NC").
    irrelevant_coast: str = "ignore"
    #: DATC 4.D.4 / 4.D.6: more builds or removals than allowed: the "first" legal orders
    #: are used, the "last" ones, or none ("all_invalid": no builds; removals by civil disorder).
    too_many: str = "first"
    #: DATC 4.D.8: which units civil disorder removes: "2023" (nearest owned centre, land and
    #: sea for all) or "home_centres" (nearest home centre, fleets by sea; the DATC 2.4 rule).
    civil_disorder: str = "2023"
    #: A dislodged unit with nothing to decide (no retreat open; in a variant, perhaps one
    #: place it must go) is settled "at_once" with the movement, and a retreat phase is
    #: played only when some unit has a choice; "retreat_phase": such units wait for a
    #: retreat phase of their own, as before (docs/rulings.md, "Skipped phases").
    forced_retreats: str = option("at_once", FORCED_RETREATS)

    def __post_init__(self) -> None:
        for name, choices in self.choices().items():
            value = getattr(self, name)
            if value not in choices or type(value) is not type(choices[0]):
                shown = ", ".join(str(c).lower() for c in choices)
                raise ValueError(f"unknown {name} rule {value!r}; choose from {shown}")

    def as_rules(self) -> Rules[PositionT]:
        """These rules (what the presentation's standard report reads)."""
        return self

    # ---- options ---------------------------------------------------------------------------

    @classmethod
    def choices(cls) -> dict[str, tuple[OptionValue, ...]]:
        """Every option of these rules: name -> its choices (DATC ones first)."""
        return _choices(cls)

    def options(self) -> dict[str, OptionValue]:
        """The options and their values (for reports and saved games)."""
        return {name: getattr(self, name) for name in self.choices()}

    # ---- orders and positions --------------------------------------------------------------

    def order_parser(self, game_map: GameMap) -> OrderParser:
        """The parser of one order as players write it on this map."""
        from mobadj.orders.parser import parser_for

        return parser_for(game_map)

    def parse_orders(self, text: str, game_map: GameMap, power: str | None = None) -> ParseResult:
        """Read an order file or mail (sections, power prefixes, comments)."""
        from mobadj.orders.parser import parse_orders

        return parse_orders(text, game_map, power=power)

    def split_power(self, text: str, game_map: GameMap) -> tuple[str | None, str]:
        """An order line that begins with its power's name written without a colon
        -> (power id, the order); (None, text) when the game has no such custom."""
        return None, text

    def position_from_data(self, data: Mapping[str, object], game_map: GameMap) -> PositionT:
        """The position written as YAML/JSON (docs/adjudication.md); dislodged units get
        their legal retreats by these rules (who has a choice: ``retreat_choice``)."""
        return cast(PositionT, position_with_retreats(data, game_map, self))

    def initial_position(self, game_map: GameMap, year: int | None = None) -> PositionT:
        """The set-up: every power's starting units and home centres."""
        return cast(PositionT, standard_initial_position(game_map, year))

    # ---- movement ---------------------------------------------------------------------------

    def bind(self, position: PositionT, game_map: GameMap) -> Self:
        """These rules for one turn of ``position`` (a variant may note the board)."""
        return self

    def screen(
        self, position: PositionT, power: str | None, order: AnyOrder, game_map: GameMap
    ) -> OrderResult | str | None:
        """Before validation: an OrderResult refuses the order, ``ASIDE``
        keeps it for ``after_movement``, None passes it to the engine."""
        return None

    def head_to_head(self, a: MOrder, b: MOrder) -> int:
        """Two moves A->B and B->A fight a head-to-head battle unless either goes by convoy
        (DATC 5.B.1, 6.C.4/6.G.*)."""
        return PASS if (a.convoy or b.convoy) else BATTLE

    def check_move(self, game_map: GameMap, order: MOrder) -> StrEnum | None:
        """Extra legality check of a move that passed the standard checks (variants: e.g. a
        subway edge needs "-U-"); return a Reason to make it invalid, or None."""
        return None

    def move_bonus(self, order: MOrder) -> int:
        """Extra uncuttable strength of a move (0 in the standard game)."""
        return 0

    def required_margin(self, order: MOrder) -> int:
        """Extra margin a move needs over the opposition (0 in the standard game)."""
        return 0

    def hold_bonus(self, order: MOrder) -> int:
        """Extra uncuttable strength of a unit that stays where it is (holds, supports or
        convoys), against a move into its province (0 in the standard game)."""
        return 0

    def cuts_support(self, support: MOrder, attack: MOrder, decisions: Decisions) -> bool:
        """Does the move ``attack`` into the supporting unit's province cut ``support``?
        The standard rule with this game's DATC options (DATC 5.B.2, 4.A.2, 4.A.4):
        ``decisions.cuts(support, attack)``.  ``decisions`` answers what the resolver has
        decided, or decides it now: ``succeeds(order)``, ``has_route(move)``,
        ``hold_strength(province)``, ``unit_in(province)``, ``moves_into(province)``,
        ``supporters(order)``, ``convoyers(move)``.  Asked during resolution, once per
        attack on a support, and only when a variant overrides it."""
        return decisions.cuts(support, attack)

    def convoy_path(self, move: MOrder, decisions: Decisions) -> bool:
        """Does a move by convoy get there (DATC 5.B.4: a chain of convoy orders that
        succeed, with this game's DATC options)?  ``decisions.route(move)`` is that rule;
        ``decisions`` as for :meth:`cuts_support`.  Asked during resolution, only when a
        variant overrides it."""
        return decisions.route(move)

    def can_convoy(self, topology: Topology, location: str, kind: str) -> bool:
        """Only fleets in sea provinces convoy (DATC 6.A.7, coastal fleets cannot)."""
        return fleet_convoys(kind, location, topology.sea)

    def convoy_seas(self, topology: Topology, units: Mapping[str, UnitState]) -> list[str]:
        """The provinces of ``units`` whose unit can convoy (:meth:`can_convoy` for each;
        this rule's own test is read directly, without a call per unit)."""
        if type(self).can_convoy is Rules.can_convoy:
            return sea_fleets(units, topology.sea)
        return [p for p, u in units.items() if self.can_convoy(topology, u.location, u.kind)]

    def convoyable(self, kind: str) -> bool:
        """Only armies are convoyed (DATC 6.A.7)."""
        return army_convoyed(kind)

    def after_movement(
        self,
        before: PositionT,
        after: PositionT,
        outcome: MovementOutcome,
        results: Sequence[OrderResult | None],
        aside: list[tuple[int, str | None, AnyOrder]],
        topology: Topology,
    ) -> tuple[dict[int, OrderResult], list[str]]:
        """Once the units moved (``after`` may be changed; ``outcome.moves`` and
        ``outcome.followed`` say who moved and by which order): ``results`` are those of the
        orders as given (None for the orders kept aside).  Returns results by index among
        the orders given (for the orders kept aside, or in the variant's words), and news."""
        return {}, []

    def retreat_options(
        self,
        dislodged: Dislodged,
        topology: Topology,
        occupied: Iterable[str],
        standoffs: Iterable[str],
    ) -> tuple[str, ...]:
        """Where a dislodged unit may retreat: an adjacent empty place, not a standoff
        province, not where the attacker came from unless it came by convoy (DATC 4.A.5 b,
        6.H.11), and whatever ``retreat_allowed`` forbids (mobadj.engine.retreats)."""
        from mobadj.engine.retreats import open_retreats

        return open_retreats(self, dislodged, topology, occupied, standoffs)

    def retreat_allowed(self, dislodged: Dislodged, destination: str, via: str | None) -> bool:
        """Extra retreat restrictions: none in the standard game; with ``convoy_retreat``
        off, not to a convoyed attacker's origin either (DATC 4.A.5 a, 6.H.11)."""
        from mobadj.engine.retreats import retreat_allowed

        return retreat_allowed(self.convoy_retreat, dislodged, destination)

    # ---- retreats, adjustments, other phases -------------------------------------------------

    def retreat_phase(
        self, position: PositionT, orders: list[OrderInput], topology: Topology
    ) -> PhaseResult:
        """A retreat phase (DATC 6.H; mobadj.engine.retreats)."""
        from mobadj.engine.pipeline import retreat_phase

        return retreat_phase(position, orders, topology, self)

    def retreat_choice(self, dislodged: Dislodged) -> bool:
        """Has this dislodged unit anything to decide?  A unit with no retreat open has not:
        it is disbanded whatever its owner orders (with ``forced_retreats`` "at_once", at
        once with the movement; njudge, DPjudge)."""
        return bool(dislodged.retreats)

    def build_sites(self, position: PositionT, power: str, topology: Topology
                    ) -> Collection[str]:
        """The provinces where ``power`` may build when it owns them and they are vacant:
        its home centres (rulebook; DATC 6.I)."""
        return topology.homes.get(power, frozenset())

    def adjustment_counts(self, position: PositionT) -> dict[str, int]:
        """Power -> centres minus the units that need one (positive: builds)."""
        from mobadj.engine.adjustments import adjustment_counts

        return adjustment_counts(position)

    def needs_adjustment(self, position: PositionT, topology: Topology) -> bool:
        """Does any power have a build it can make (``build_sites``), or a unit to remove?"""
        from mobadj.engine.adjustments import needs_adjustment

        return needs_adjustment(position, topology, self)

    def adjusting(self, position: PositionT, topology: Topology) -> list[str]:
        """The powers with something to do in an adjustment phase: a build they can make (a
        vacant home centre they own) or a unit to remove; sorted."""
        from mobadj.engine.adjustments import adjusting

        return adjusting(position, topology, self)

    def before_adjustments(
        self,
        position: PositionT,
        orders: list[OrderInput],
        topology: Topology,
        events: list[str],
    ) -> dict[int, OrderResult]:
        """Orders settled before builds and removals are counted (``position`` is the board
        being built and may be changed): their results by index."""
        return {}

    def remove_order(
        self, position: PositionT, power: str | None, order: Remove | Disband,
        left: dict[str, int]
    ) -> OrderResult | None:
        """A removal the variant settles itself (None: the standard rules apply)."""
        return None

    def removed_last(self, position: PositionT, power: str) -> Collection[str]:
        """The provinces whose units of ``power`` the civil-disorder removal takes only when
        no other unit is left (none in the standard game)."""
        return ()

    def due(self, position: PositionT, topology: Topology) -> list[str]:
        """The powers that have something to decide in this phase: every power with a unit
        in a movement phase; a retreat phase's powers with a dislodged unit that has a
        choice (``retreat_choice``); an adjustment phase's powers that can build somewhere
        or must remove (``adjusting``)."""
        if position.phase.is_movement:
            return sorted({u.power for u in position.units.values()})
        if position.phase.is_retreat:
            return sorted({d.unit.power for d in position.dislodged.values()
                           if self.retreat_choice(d)})
        return self.adjusting(position, topology)

    def sample_orders(self, position: PositionT, power: str, topology: Topology,
                      rng: random.Random) -> list[str]:
        """Random but plausible orders of ``power`` for the phase, as a player writes them
        (the games of the page tests, screenshots and benchmark; mobadj.web.demo)."""
        from mobadj.engine.scenarios import plausible_orders

        return plausible_orders(position, power, topology, self, rng)

    def order_choices(self, position: PositionT, power: str, topology: Topology
                      ) -> list[OrderChoice]:
        """What ``power`` may order now as picks, when the phase has few legal orders: each
        dislodged unit's retreats or disband, each build's site and unit (or a waive), each
        removal's unit; none in a movement phase (the orders form of mobadj.web offers them;
        mobadj.engine.choices)."""
        from mobadj.engine.choices import order_choices

        return order_choices(position, power, topology, self)


_CHOICES: dict[type, dict[str, tuple[OptionValue, ...]]] = {}


def _choices(cls: type[Rules[PositionT]]) -> dict[str, tuple[OptionValue, ...]]:
    got = _CHOICES.get(cls)
    if got is None:
        got = _CHOICES[cls] = {name: OPTIONS[name] for name in cls.datc_options}
        for f in dataclasses.fields(cls):
            if "choices" in f.metadata:
                got[f.name] = f.metadata["choices"]
    return got


_BOOLS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}

READER_OPTIONS: tuple[str, ...] = ("duplicate_orders",)
"""Options of how orders are read (mobadj.orders.duplicates), not of the rules: every caller
takes them out before :func:`coerce_options`, which names them among the known options (and
in its did-you-mean) all the same, as the player sees them beside the rules' own."""


def coerce_options(raw: Mapping[str, object], rules: type[Rules] = Rules) -> dict[str, Any]:
    """Option values as given on a command line or in JSON (``"false"``, ``"1982"``, 1982)
    -> the values ``rules`` takes; a ValueError naming the option for bad input."""
    known = rules.choices()
    out: dict[str, Any] = {}  # a value each option's field checks (``__post_init__``)
    for name, value in raw.items():
        choices = known.get(name)
        if choices is None:
            names = [*known, *READER_OPTIONS]
            near = close_matches(str(name), names, n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise ValueError(f"unknown {rules.options_title} option {name!r}{hint} "
                             f"(known: {', '.join(names)})")
        if type(choices[0]) is bool and not isinstance(value, bool):
            value = _BOOLS.get(str(value).strip().lower(), value)
        elif not isinstance(value, bool):
            value = str(value).strip().lower()
            if type(choices[0]) is not str:  # a variant's numbers: 2, "2" and "2.0" are 2
                value = _number(value, choices)
        out[name] = value
    return out


def _number(text: str, choices: tuple[OptionValue, ...]) -> OptionValue:
    """The choice (a number) that ``text`` writes, or ``text`` when none does (and the
    option's check refuses it, naming the choices)."""
    try:
        number = float(text)
    except ValueError:
        return text
    return next((c for c in choices if c == number), text)


def rules_for(map_or_name: GameMap | str, **options: Any) -> Rules:
    """The rules a map is played by (mobadj.engine.variants), with ``options`` such as
    ``paradox``; standard rules for a map name that is not known."""
    from mobadj.engine.variants import UnknownVariantError, rules_class

    try:
        cls = rules_class(map_or_name)
    except UnknownVariantError:
        cls = Rules
    return cls(**options)


def with_options(rules: Rules, raw: Mapping[str, object]) -> Rules:
    """A copy of ``rules`` with the options ``raw`` (any spelling :func:`coerce_options`
    reads); a ValueError naming the option for bad input."""
    return dataclasses.replace(rules, **coerce_options(raw, type(rules)))
