"""Mobtown II as engine hooks (rules 2-8), plus the game options.

``maps/mobtown2.yaml`` names this class (``variant: mobadj.mobtown.rules:MobtownRules``); the
engine resolves the Gangs as amphibious armies and asks these hooks what Mobtown changes.  The
Don's effects need the board, so :meth:`MobtownRules.bind` returns a copy that knows which Dons
stand where for the turn being adjudicated (the move hooks are asked once per order, before
resolution).  Options where players could disagree are fields, passed as
``rules_for("mobtown2", captive_don_helps=True)`` or ``--option captive_don_helps=true``; every
one is ruled in docs/mobtown-rulings.md.  The DATC options apply where they have something to
act on (docs/mobtown-rulings.md, "DATC options").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from mobadj.engine import (
    ASIDE,
    BATTLE,
    BATTLE_UNLESS_EQUAL,
    Dislodged,
    OrderChoice,
    OrderResult,
    Outcome,
    PageTable,
    Reason,
    Rules,
    center_changes_section,
    dislodged_section,
    format_report,
    news_section,
    option,
    settled_section,
)
from mobadj.mobtown import choices, dons, weekend
from mobadj.mobtown.calendar import CALENDAR, MobtownCalendar
from mobadj.mobtown.notation import (
    CementOvercoat,
    PlaceDon,
    for_phase,
    mobtown_parser,
    parse_mobtown_orders,
    split_mob,
)
from mobadj.mobtown.state import MobtownPosition, initial_position, read_position
from mobadj.mobtown.terms import (
    DON_CROSSING,
    DON_ELECTION,
    DON_STAYS,
    GAOL,
    LEGEND,
    REMOVED_DON,
    SUBWAY,
    SUBWAY_RETREATS,
    WIN,
    MobtownReason,
    ground_link,
    impassable,
    mob_name,
    refused_reason,
    subway_link,
)
from mobadj.orders.model import Disband, Hold, Move, Remove, SupportHold, SupportMove, Unit

if TYPE_CHECKING:
    import random

    from mobadj.board import GameMap
    from mobadj.engine import (
        MOrder,
        MovementOutcome,
        OrderInput,
        PhaseLike,
        PhaseResult,
        Topology,
    )
    from mobadj.orders import OrderError
    from mobadj.orders.model import AnyOrder
    from mobadj.orders.parser import OrderParser, ParseResult

#: a failed move across a highway says so (rule 4) rather than "destination held"
_CROSSING_REASONS = (Reason.HELD, Reason.BOUNCED, Reason.LOST_HEAD_TO_HEAD)
_MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, CementOvercoat)


@dataclass
class MobtownRules(Rules[MobtownPosition]):
    """Standard rules with Mobtown II's hooks; the fields below are the game options."""

    calendar: ClassVar[MobtownCalendar] = CALENDAR
    aliases: ClassVar[tuple[str, ...]] = ("mobtown",)
    options_title: ClassVar[str] = "Mobtown"
    #: the DATC options with something to act on: no convoys (rule 2), no coasts, and no
    #: Gang is ever dislodged without a battle (a subway exchange passes, rule 5)
    datc_options: ClassVar[tuple[str, ...]] = ("too_many", "civil_disorder")
    power_noun: ClassVar[str] = "mob"
    batch_keys: ClassVar[tuple[str, ...]] = (
        "defaults", "standoffs", "disorder", "rebuilt_dons", "events", "winner")
    position_keys: ClassVar[tuple[str, ...]] = (
        *Rules.position_keys, "disorder", "rebuilt_dons", "winner")
    power_word: ClassVar[str] = "Mobs"
    picture_note: ClassVar[str] = "Mobtown II board: a reconstruction (docs/mobtown-map.md)"
    too_many_reason: ClassVar[bool] = False
    unremoved_note: ClassVar[str] = "gaoled Gangs stay (rule 7, ruling 8)"
    #: Mobtown's civil disorder is the week after a Don's death (rule 3), not this
    rules_removal_note: ClassVar[str] = "no removal ordered"
    #: ... nor a mob whose player missed deadlines or left (docs/mobtown-rulings.md)
    unplayed: ClassVar[str] = "left unplayed"
    #: "1919-07-W2-A" is no name to read: subjects and headings say the week in words
    phase_in_words: ClassVar[bool] = True
    void_reasons: ClassVar[frozenset[StrEnum]] = Rules.void_reasons | {
        MobtownReason.HIGHWAY, MobtownReason.SUBWAY_NOT_MARKED, MobtownReason.NO_SUBWAY,
        MobtownReason.SUPPORT_INTO_GAOL}
    page_words: ClassVar[Mapping[str, str]] = {
        "news": "News from the underworld", "calendar": "Calendar",
        "legend": "The city plan's legend"}
    page_legend: ClassVar[tuple[tuple[str, str], ...]] = LEGEND

    #: a captured Don gives his captor's move his +1 (ruling 3)
    captive_don_helps: bool = option(False)
    #: a Gang travelling with a captured Don crosses the highways freely: rule 4 says "a
    #: Don" (ruling 3)
    captive_don_crosses: bool = option(True)
    #: a captured Don drowns when his captor's Gang is dislodged from water: the Gang "he is
    #: travelling with" (rule 3, ruling 20)
    captive_don_drowns: bool = option(True)
    #: "after_disorder": a dead Don's successor is created at an adjustment after the
    #: civil-disorder move that elects him; "next_adjustment": at the next one (ruling 13)
    don_election: str = option("after_disorder", DON_ELECTION)
    #: "free": a Gang with its Don crosses without the extra support and keeps the Don's +1;
    #: "support": the Don's support pays for the crossing (ruling 5)
    don_crossing: str = option("free", DON_CROSSING)
    #: a Gang dislodged by a subway attack may retreat only by subway (ruling 7)
    subway_retreats: str = option("subway_only", SUBWAY_RETREATS)
    #: a Gang may support into a space it reaches only by subway (ruling 12)
    subway_support: bool = option(False)
    #: a Gang may support into a space across a highway where no junction is, as it may
    #: move there (rule 4, ruling 27)
    highway_support: bool = option(True)
    #: a gaoled Gang counts against its mob's supply (ruling 8)
    gaol_counts_for_supply: bool = option(True)
    #: a rebuilt Don needs a home centre with no Gang at all, not even his own (ruling 17)
    don_needs_empty_home: bool = option(False)
    #: any Don left alone in water drowns, not only by the cement overcoat order (ruling 4)
    lone_don_drowns: bool = option(False)
    #: "dies": a rebuilt Don removed at an adjustment is dead, the mob stands in civil
    #: disorder and may rebuild; "gone": he was not drowned, the mob builds no other Don
    #: (rule 3, ruling 26)
    removed_don: str = option("dies", REMOVED_DON)
    #: the rules' removal (a mob that orders too few) takes the Gang standing with the
    #: mob's Don (a new one too) only when it has no other Gang to remove (rule 3, ruling 28)
    removal_spares_don: bool = option(True)
    #: the board state the hooks need (set by bind); province -> Don owners there
    dons_at: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    game_map: GameMap | None = field(default=None, repr=False, compare=False)

    # ---- orders and positions ------------------------------------------------------------

    def order_parser(self, game_map: GameMap) -> OrderParser:
        """The rulebook's notation (mobadj.mobtown.notation)."""
        return mobtown_parser(game_map)

    def parse_orders(self, text: str, game_map: GameMap, power: str | None = None) -> ParseResult:
        return parse_mobtown_orders(text, game_map, power)

    def split_power(self, text: str, game_map: GameMap) -> tuple[str | None, str]:
        """The rulebook prints a mob's name before its orders: ``Lepke G(Cit)-U-Mic``."""
        return split_mob(text, game_map)

    def position_from_data(self, data: Mapping[str, object], game_map: GameMap) -> MobtownPosition:
        """mobadj.mobtown.state; dislodged Gangs get their retreats by these options."""
        pos = read_position(data, game_map)
        for prov, d in list(pos.dislodged.items()):
            options = weekend.retreat_options(d, pos.units, pos.standoffs, game_map, self)
            pos.dislodged[prov] = Dislodged(d.unit, d.attacker_from, False, options, d.via)
        return pos

    def initial_position(self, game_map: GameMap, year: int | None = None) -> MobtownPosition:
        """The June 1919 weekend (rule 6)."""
        return initial_position(game_map)

    # ---- helpers -------------------------------------------------------------------------

    def bind(self, position: MobtownPosition, game_map: GameMap) -> MobtownRules:
        """A copy that knows the map and where the Dons stand this turn."""
        return dataclasses.replace(self, dons_at=position.dons_at(), game_map=game_map)

    def escort(self, power: str, prov: str, captive_counts: bool) -> bool:
        """Does a Gang of ``power`` in ``prov`` travel with its own Don, or with a captured
        one when ``captive_counts`` (the option for what a captive does, rules 3, 4)?"""
        owners = self.dons_at.get(prov, ())
        return power in owners or (captive_counts and bool(owners))

    def _with_don(self, power: str, order: object, captive_counts: bool) -> bool:
        """A ``G+D`` move whose Gang travels with a Don that counts (``order``: an engine
        ``MOrder.source``, the order as given)."""
        return isinstance(order, Move) and order.escort == "D" and self.escort(
            power, order.unit.location, captive_counts)

    def _don_helps(self, power: str, order: object) -> bool:
        """Does a Don add his +1 to this move (rule 3; a captive only by option)?"""
        return self._with_don(power, order, self.captive_don_helps)

    def _don_crosses(self, power: str, order: object) -> bool:
        """Does a Don take this move freely across a highway (rule 4, "a Don")?"""
        return self._with_don(power, order, self.captive_don_crosses)

    def _crossing(self, src: str, dest: str, subway: bool) -> bool:
        """Across a highway where no junction is (rule 4; a subway passes under it)."""
        if subway or self.game_map is None:
            return False
        edge = self.game_map.edge("G", src, dest)
        return edge is not None and edge.get("via") == "highway"

    def _lacks_support(self, power: str, order: Move) -> bool:
        """Does this move need the highway's extra support (``required_margin``)?"""
        return (self._crossing(order.unit.location, order.destination, order.route == SUBWAY)
                and not self._don_crosses(power, order))

    # ---- movement hooks ------------------------------------------------------------------
    # (asked for every order: they read the resolver's short field names, ``loc`` for
    # ``location``, ``dest`` for ``destination``, ``dprov``, ``prov``, ``source`` for ``order``)

    def screen(self, position: MobtownPosition, power: str | None, order: AnyOrder,
               game_map: GameMap) -> OrderResult | str | None:
        """Mobtown's reasons to refuse an order before the engine sees it: wrong phase,
        civil disorder (rule 3), a Don alone (rule 3), the gaol (rule 7), support through a
        subway (ruling 12); the cement overcoat is kept aside for the Don rules."""
        unit = getattr(order, "unit", None)
        who = (position.owner_of(power, unit.kind, unit.location) if isinstance(unit, Unit)
               else power or "?")
        if isinstance(order, PlaceDon) or not isinstance(order, _MOVEMENT_ORDERS):
            return OrderResult(who, order, Outcome.INVALID,
                               refused_reason(order, Reason.WRONG_PHASE))
        if isinstance(order, Move) and impassable(game_map, order.destination):
            return OrderResult(who, order, Outcome.INVALID, MobtownReason.IMPASSABLE)
        loc = order.unit.location
        gang = position.units.get(loc)
        owner = power or (gang.power if gang is not None else None)
        if owner is not None and owner in position.disorder:
            return OrderResult(owner, order, Outcome.INVALID, MobtownReason.CIVIL_DISORDER)
        if isinstance(order, CementOvercoat):
            if power is None:  # no mob named: the captor is the Gang standing there
                power = gang.power if gang is not None else None
            why = dons.check_cement(order, power or "?", position.dons, position.units,
                                    game_map)
            return ASIDE if why is None else OrderResult(power or "?", order, Outcome.INVALID,
                                                         why)
        if order.unit.kind == "D":  # rule 3: a Don never acts alone; "D(X) H" is harmless
            mine = [p for p, where in sorted(position.dons.items())
                    if where == loc and power in (None, p)]
            if type(order) is Hold and mine:
                return OrderResult(mine[0], order, Outcome.SUCCEEDS)
            return OrderResult(who, order, Outcome.INVALID, MobtownReason.DON_ALONE)
        if loc == GAOL:
            return OrderResult(who, order, Outcome.INVALID, MobtownReason.IN_GAOL)
        if isinstance(order, (SupportMove, SupportHold)):
            goal = order.destination if isinstance(order, SupportMove) else order.supported.location
            edge = game_map.edge("G", loc, goal)
            if edge is not None and not ground_link(edge) and not self.subway_support:
                return OrderResult(who, order, Outcome.INVALID, MobtownReason.SUPPORT_BY_SUBWAY)
            if (edge is not None and edge.get("via") == "highway"
                    and not self.highway_support):  # ruling 27
                return OrderResult(who, order, Outcome.INVALID,
                                   MobtownReason.SUPPORT_ACROSS_HIGHWAY)
        return None

    def head_to_head(self, a: MOrder, b: MOrder) -> int:
        """Rule 5: over ground against under ground is a swap when equally supported (or
        both Gangs are one mob's), else the better-supported move wins and dislodges the
        other (examples b, c); two Gangs both by subway (or both over ground) fight as usual
        (example b)."""
        if a.route != b.route:
            return BATTLE_UNLESS_EQUAL
        return BATTLE

    def check_move(self, game_map: GameMap, o: MOrder) -> StrEnum | None:
        """Rule 5 (U required, U only on a subway), rule 7 (MTPD by retreat only),
        rule 3 (G+D needs a Don)."""
        if o.dprov == GAOL:
            return MobtownReason.GAOL_ENTRY
        edge = game_map.edge("G", o.loc, o.dest)
        subway = o.route == SUBWAY
        if subway and not subway_link(edge):
            return MobtownReason.NO_SUBWAY
        if not subway and not ground_link(edge):
            return MobtownReason.SUBWAY_NOT_MARKED
        if getattr(o.source, "escort", "") == "D" and not self.dons_at.get(o.prov):
            return MobtownReason.NO_DON
        return None

    def move_bonus(self, o: MOrder) -> int:
        """Rule 3: the Don adds one uncuttable support to his Gang's move."""
        if not self._don_helps(o.power, o.source):
            return 0
        if (self.don_crossing == "support" and self._crossing(o.loc, o.dest, o.route == SUBWAY)
                and self._don_crosses(o.power, o.source)):
            return 0  # the Don's support pays for the crossing (ruling 5, option)
        return 1

    def required_margin(self, o: MOrder) -> int:
        """Rule 4: crossing a highway where no junction is needs one extra support, unless
        the Gang travels with its Don; a subway passes under the highway."""
        if not self._crossing(o.loc, o.dest, o.route == SUBWAY):
            return 0
        return 0 if self._don_crosses(o.power, o.source) else 1

    def can_convoy(self, topology: Topology, location: str, kind: str) -> bool:
        """Rule 2: no fleets, no convoys."""
        return False

    def convoyable(self, kind: str) -> bool:
        """Rule 2: no convoys."""
        return False

    def after_movement(self, before: MobtownPosition, after: MobtownPosition,
                       outcome: MovementOutcome, results: Sequence[OrderResult | None],
                       aside: list[tuple[int, str | None, AnyOrder]], topology: Topology
                       ) -> tuple[dict[int, OrderResult], list[str]]:
        """The Dons (rule 3, mobadj.mobtown.dons), and failed moves in the rulebook's words:
        a highway crossing that lacked its extra support (rule 4), an exchange of places
        through a subway between equally supported Gangs (rule 5, example b)."""
        settled, events = dons.after_movement(before, after, outcome, aside, topology.game_map,
                                              self)
        settled.update(self._reworded(results))
        settled.update(_supports_reworded(results, before))
        return settled, events

    def _reworded(self, results: Sequence[OrderResult | None]) -> dict[int, OrderResult]:
        failed = {(r.given.unit.location, r.given.destination): r for r in results
                  if r is not None and r.outcome is Outcome.FAILS and type(r.given) is Move}
        out: dict[int, OrderResult] = {}
        for i, r in enumerate(results):
            if r is None or r.outcome is not Outcome.FAILS or type(r.given) is not Move:
                continue
            order = r.given
            if r.reason in _CROSSING_REASONS and self._lacks_support(r.power, order):
                out[i] = OrderResult(r.power, order, r.outcome, MobtownReason.HIGHWAY)
            elif r.reason is Reason.LOST_HEAD_TO_HEAD and order.route == SUBWAY:
                back = failed.get((order.destination, order.unit.location))
                if (back is not None and isinstance(back.given, Move)
                        and back.given.route == SUBWAY):
                    out[i] = OrderResult(r.power, order, r.outcome, MobtownReason.SUBWAY_EXCHANGE)
        return out

    def retreat_options(self, dislodged: Dislodged, topology: Topology,
                        occupied: Iterable[str], standoffs: Iterable[str]) -> tuple[str, ...]:
        """Rules 5 and 7: subways, the gaol (mobadj.mobtown.weekend)."""
        return weekend.retreat_options(dislodged, occupied, standoffs, topology.game_map, self)

    # ---- weekends and the end of a phase --------------------------------------------------

    def other_phase(self, position: MobtownPosition, orders: list[OrderInput],
                    topology: Topology) -> PhaseResult[MobtownPosition]:
        """The June 1919 Don placement (rule 6)."""
        return weekend.place_dons(position, orders, topology.game_map)

    def retreat_phase(self, position: MobtownPosition, orders: list[OrderInput],
                      topology: Topology) -> PhaseResult[MobtownPosition]:
        """Weekend retreats with the gaol (rules 5, 7)."""
        return weekend.retreats(position, orders, topology.game_map, self)

    def retreat_choice(self, dislodged: Dislodged) -> bool:
        """Nothing to decide with no retreat, nor with MTPD alone (rule 7, ruling 25)."""
        return weekend.retreat_choice(dislodged)

    def adjustment_counts(self, position: MobtownPosition) -> dict[str, int]:
        """Gaoled Gangs (ruling 8) and a rebuilt Don (rule 3) count against supply."""
        return {p: weekend.balance(position, p, self) for p in position.powers()}

    def needs_adjustment(self, position: MobtownPosition, topology: Topology) -> bool:
        return weekend.needs_adjustment(position, topology.game_map, self)

    def adjusting(self, position: MobtownPosition, topology: Topology) -> list[str]:
        """Mobs with a build, a removal or a Don to rebuild (rule 3)."""
        return weekend.adjusting(position, topology.game_map, self)

    def before_adjustments(self, position: MobtownPosition, orders: list[OrderInput],
                           topology: Topology, events: list[str]) -> dict[int, OrderResult]:
        """A Don is rebuilt before the Gangs are counted (rule 3)."""
        return weekend.build_dons(position, orders, topology.game_map, self, events)

    def remove_order(self, position: MobtownPosition, power: str | None, order: Remove | Disband,
                     left: dict[str, int]) -> OrderResult | None:
        return weekend.remove_order(position, power, order, left, self)

    def after_phase(self, before: MobtownPosition, result: PhaseResult[MobtownPosition],
                    topology: Topology, scored: bool) -> None:
        """News of Dons captured or freed (rule 3); the Dons no order named, who hold as
        Gangs without an order do (reported as theirs are); victory at 17 centres (rule 8)."""
        after = result.position
        game_map = topology.game_map
        result.events += dons.captures(before, after, game_map)
        if result.phase.is_movement:
            result.defaults = [_in_disorder(r, before.disorder) for r in result.defaults]
            result.defaults += dons.unordered(before, result.results)
            result.results = [_don_fate(r, before, after) for r in result.results]
            result.defaults = [_don_fate(r, before, after) for r in result.defaults]
        if result.phase.is_adjustment:
            result.defaults = [_rules_removal(r) for r in result.defaults]
            weekend.build_used_by_don(before, result, self)
            weekend.dons_adjusted(before, result, game_map, self)
        if not scored:
            return
        counts: dict[str, int] = {}
        for owner in after.centers.values():
            counts[owner] = counts.get(owner, 0) + 1
        leaders = [p for p, n in counts.items() if n >= WIN]
        if leaders and not after.winner:
            after.winner = leaders[0]
            result.events.append(f"{mob_name(game_map, leaders[0])} controls "
                                 f"{counts[leaders[0]]} of 32 centres and wins (rule 8)")

    def removed_last(self, position: MobtownPosition, power: str) -> Collection[str]:
        """The Gang standing with the mob's Don goes last, so that the rules' removal never
        leaves him alone while another Gang may go (rule 3, ruling 28)."""
        where = position.dons.get(power)
        return (where,) if where is not None and self.removal_spares_don else ()

    def due(self, position: MobtownPosition, topology: Topology) -> list[str]:
        """Don placement: mobs without a Don; movement: mobs not in civil disorder;
        weekends: the mobs with something to decide (``retreat_choice``, ``adjusting``)."""
        mobs = {u.power for u in position.units.values()}
        if position.phase.is_movement:
            return sorted(mobs - set(position.disorder))
        if position.phase.is_retreat or position.phase.is_adjustment:
            return super().due(position, topology)
        return sorted(mobs - set(position.dons))

    def sample_orders(self, position: MobtownPosition, power: str, topology: Topology,
                      rng: random.Random) -> list[str]:
        """The engine's plausible orders for the Gangs; in June 1919 the Don's placement."""
        phase = position.phase
        if phase.is_movement or phase.is_retreat or phase.is_adjustment:
            return super().sample_orders(position, power, topology, rng)
        homes = topology.game_map.powers[power].home_centers
        return [f"Don starts in {rng.choice(homes)}"] if homes else []

    def order_choices(self, position: MobtownPosition, power: str, topology: Topology
                      ) -> list[OrderChoice]:
        """The Don's placement or rebuilding, retreats by subway or to gaol, Gangs built and
        removed (rules 3, 5, 6, 7; mobadj.mobtown.choices)."""
        return choices.order_choices(position, power, topology, self)

    def status_notes(self, position: MobtownPosition, game_map: GameMap) -> list[str]:
        if not position.disorder:
            return []
        return ["In civil disorder: " + ", ".join(mob_name(game_map, p)
                                                  for p in sorted(position.disorder))]

    def phase_error(self, error: OrderError, phase: PhaseLike) -> OrderError:
        """A Gang named alone is told what the phase takes after it (mobadj.mobtown.notation)."""
        return for_phase(error, phase)

    def idle_words(self, position: MobtownPosition, power: str, game_map: GameMap) -> str:
        """A mob in civil disorder is told why its orders are not taken this week, and what
        comes next (rule 3, ruling 13)."""
        if not position.phase.is_movement or power not in position.disorder:
            return ""
        name = mob_name(game_map, power)
        then = (f"{name}'s new Don is already rebuilt and moves with it from next week"
                if power in position.dons else
                f"A new Don is elected meanwhile: {name} may rebuild him at the first weekend "
                "adjustments after this week (Build D X on a free home centre of its own, "
                "rule 3)")
        return (f"{name} stands in civil disorder this week ({position.phase.long_name()}): "
                "its Don died, so all its units hold and no orders are taken from it (rule 3, "
                f"ruling 13). {then}. Its orders count again from the weekend on.")

    def winner(self, position: MobtownPosition, game_map: GameMap) -> str | None:
        """Rule 8, decided by the engine after each scoring turn."""
        return position.winner

    # ---- reports and pictures ------------------------------------------------------------

    def report_body(self, result: PhaseResult[MobtownPosition], game_map: GameMap) -> list[str]:
        """News, dislodged Gangs, centre changes, every mob's position and the winner."""
        after = result.position
        out = news_section(result, "News from the underworld:")
        out += dislodged_section(
            result, game_map, "Dislodged Gangs (retreats at the weekend):",
            lambda d: " under ground" if d.via == "subway" else " over ground",
            "none: the Gang disbands")
        out += settled_section(result, game_map,
                               "Gangs disbanded at once (dislodged, with no retreat open):",
                               "no dislodged Gang has a retreat to choose",
                               "no mob can build, must remove or may rebuild its Don",
                               lambda d: self._no_retreat_why(d, game_map))
        out += center_changes_section(result, game_map,
                                      "Supply centre changes (end of week 2/4, rule 6):",
                                      "neutral before")
        out.append("Position:")
        for pid, units in after.unit_lists().items():
            n = sum(1 for o in after.centers.values() if o == pid)
            delta = weekend.balance(after, pid, self)
            out.append(f"  {mob_name(game_map, pid):<20} {n:>2} centre{'s' if n != 1 else ' '} "
                       f"({delta:+d})  "
                       f"{', '.join(units)}")
        if after.disorder:
            names = ", ".join(mob_name(game_map, p) for p in sorted(after.disorder))
            out.append(f"  In civil disorder next movement: {names}")
        out.append("")
        if after.winner:
            out.append(f"The game is won by {mob_name(game_map, after.winner)} (rule 8).")
        return out

    def _no_retreat_why(self, d: Dislodged, game_map: GameMap) -> str:
        """Why a Gang attacked from under ground had no retreat though free spaces lie
        around it: rule 5 lets it retreat only by subway (ruling 7), and no subway leads to
        MTPD (ruling 24).  Nothing for an attack over ground: the board shows why."""
        if d.via != SUBWAY or self.subway_retreats != "subway_only":
            return ""
        src = d.unit.location
        links = {n: game_map.edge("G", src, n) for n in game_map.neighbours("G", src)}
        others = sorted(n for n, e in links.items() if subway_link(e) and n != d.attacker_from)
        why = " by subway: it may retreat only by subway (rule 5, ruling 7)"
        if others:
            why += (f", and its other subways ({', '.join(others)}) lead only to taken spaces "
                    "or standoffs")
        else:
            why += f", and its only subway leads back to {d.attacker_from}"
        if ground_link(links.get(GAOL)):
            why += "; no subway leads to MTPD (ruling 24)"
        return why

    def adjustment_words(self, position: MobtownPosition, power: str, game_map: GameMap
                         ) -> str:
        """Builds, removals and the Don's rebuild (rule 3) in words."""
        return weekend.due_words(position, power, game_map, self)

    def mail_report(self, result: PhaseResult[MobtownPosition], game_map: GameMap) -> str:
        """The judge mails the whole GM report: the news and every mob's position."""
        return format_report(result, game_map, rules=self).rstrip()

    def default_note(self, order: str) -> str:
        """A Don no order named stays (ruling 4): he needs none, so his hold is not marked
        as a missed order, as a Gang's is."""
        return DON_STAYS if order.startswith("D ") and order.endswith(" H") else "no order given"

    def json_extras(self, result: PhaseResult[MobtownPosition]) -> dict[str, object]:
        """The news and the moves (with the subway ones marked) for tools and pictures."""
        return {"events": result.events, "moves": result.moves}

    def batch_value(self, key: str, result: PhaseResult[MobtownPosition],
                    spell: Callable[[str], str]) -> object:
        """Mobs in disorder, with a rebuilt Don, the winner: as the input spelt them."""
        after = result.position
        if key == "disorder":
            return [spell(p) for p in sorted(after.disorder)]
        if key == "rebuilt_dons":
            return [spell(p) for p in sorted(after.rebuilt)]
        if key == "winner":
            return spell(after.winner) if after.winner else None
        return super().batch_value(key, result, spell)

    def picture_data(self, result: PhaseResult[MobtownPosition]) -> Mapping[str, object]:
        """The new position (Dons, captives, the gaol) with the moves and supports of the
        phase."""
        data = result.position.to_data()
        return {
            "units": data["units"],  # "D Har captive" and "G MTPD" are drawn as such
            "centers": data["centers"],
            "dislodged": {p: [{k: e[k] for k in ("unit", "from", "via")} for e in lst]
                          for p, lst in data["dislodged"].items()},
            "moves": result.moves,
            "supports": result.supports,
            "caption": f"{result.phase.long_name()} ({result.phase})",
        }

    # ---- game pages ----------------------------------------------------------------------

    def page_tables(self, data: Mapping[str, object], names: Mapping[str, str]) -> list[PageTable]:
        """Where each Don stands, free or captive of another mob's Gang there (rule 3), and
        how many Gangs of each mob are in gaol (rule 7), at the start of the phase (as the
        picture shows it: the news of a retreat that sends a Gang to gaol is the next
        phase's table)."""
        units = data.get("units") or {}
        assert isinstance(units, Mapping), "a stored position maps each mob to its units"
        gangs: dict[str, str] = {}
        for power, items in units.items():
            for text in items:
                kind, _, where = str(text).partition(" ")
                if kind == "G":
                    gangs[where.strip()] = power
        rows: list[tuple[str, str]] = []
        gaol: dict[str, int] = {}
        for power, items in sorted(units.items()):
            for text in items:
                kind, _, rest = str(text).partition(" ")
                space = rest.replace("captive", "").strip()
                if kind == "D":
                    captor = gangs.get(space) if "captive" in rest else None
                    held = f" — captive of {names.get(captor, captor)}" if (
                        captor is not None and captor != power) else ""
                    rows.append((names.get(power, power), space + held))
                elif kind == "G" and space == GAOL:
                    gaol[power] = gaol.get(power, 0) + 1
        rows += _without_don(data, units, names)
        if not rows and not gaol:
            return []
        inside = ", ".join(f"{names.get(p, p)} {n} Gang{'s' if n > 1 else ''}"
                           for p, n in gaol.items())
        return [PageTable("Dons and the gaol", ("Mob", "Don"), tuple(rows),
                          f"In gaol ({GAOL}) at the start of the phase: {inside or 'nobody'}.")]


def _supports_reworded(results: Sequence[OrderResult | None], before: MobtownPosition
                       ) -> dict[int, OrderResult]:
    """Supports in the rulebook's words where the engine's would mislead: one naming a Don
    is read by its space, as a support of the Gang beside him (ruling 29), and a lone Don
    has no strength to support (rule 3, ruling 4); a gaoled Gang, and a move into MTPD,
    cannot be supported (rule 7, ruling 6)."""
    out: dict[int, OrderResult] = {}
    for i, r in enumerate(results):
        order = r.given if r is not None else None
        if r is None or not isinstance(order, (SupportHold, SupportMove)):
            continue
        why: StrEnum | None = None
        named = order.supported
        if isinstance(order, SupportMove) and order.destination == GAOL:
            if r.reason is Reason.VOID_SUPPORT:
                why = MobtownReason.SUPPORT_INTO_GAOL
        elif named.location == GAOL:
            if r.reason is Reason.NO_SUPPORTED_UNIT:
                why = MobtownReason.SUPPORT_GAOLED
        elif named.kind == "D":
            if named.location not in before.units:
                if r.reason is Reason.NO_SUPPORTED_UNIT:
                    why = MobtownReason.SUPPORT_LONE_DON
            elif r.outcome is Outcome.SUCCEEDS and r.reason is None:
                why = MobtownReason.SUPPORT_OF_DON
        if why is not None:
            out[i] = OrderResult(r.power, order, r.outcome, why)
    return out


def _don_fate(r: OrderResult, before: MobtownPosition, after: MobtownPosition) -> OrderResult:
    """A Don's hold (his own ``D(X) H`` or the one no order needed) that did not last: he
    drowned or was captured this turn, as the news says, so it fails with that reason
    rather than "succeeds" (rule 3)."""
    order = r.given
    if r.outcome is not Outcome.SUCCEEDS or type(order) is not Hold or order.unit.kind != "D":
        return r
    if r.power in before.dons and r.power not in after.dons:
        return OrderResult(r.power, order, Outcome.FAILS, MobtownReason.DROWNED)
    if after.captor(r.power) is not None and before.captor(r.power) is None:
        return OrderResult(r.power, order, Outcome.FAILS, MobtownReason.CAPTURED)
    return r


def _in_disorder(r: OrderResult, disorder: Collection[str]) -> OrderResult:
    """A mob's unit that held with no order in its civil-disorder week held because of it:
    the results say so rather than "no order given" (rule 3, ruling 13)."""
    if r.power in disorder and r.outcome is Outcome.SUCCEEDS and r.reason is None:
        return OrderResult(r.power, r.given, Outcome.SUCCEEDS, MobtownReason.DISORDER_HOLD)
    return r


def _rules_removal(r: OrderResult) -> OrderResult:
    """A removal the rules made for a mob that ordered too few: said so without "civil
    disorder", which in Mobtown is the week after a Don's death (rule 3)."""
    if r.reason is Reason.CIVIL_DISORDER:
        return OrderResult(r.power, r.given, r.outcome, MobtownReason.RULES_REMOVAL)
    return r


def _without_don(data: Mapping[str, object], units: Mapping[str, object],
                 names: Mapping[str, str]) -> list[tuple[str, str]]:
    """The game pages' rows for the mobs with units but no Don (after the June 1919
    placement): in civil disorder this week or at the next movement, else with a Don to
    rebuild (rule 3, ruling 13)."""
    try:
        phase = CALENDAR.parse(str(data.get("phase", "")))
    except ValueError:
        return []
    if not (phase.is_movement or phase.is_retreat or phase.is_adjustment):
        return []  # June 1919: no Don is placed yet (rule 6)
    disorder = set(_strings(data.get("disorder")))
    rows = []
    for power, items in sorted(units.items()):
        if any(text.startswith("D ") for text in _strings(items)):
            continue
        if power in disorder:
            when = "this week" if phase.is_movement else "at the next movement"
            why = f"none: he died; civil disorder {when} (rule 3, ruling 13)"
        else:
            why = "none: a new Don may be rebuilt at a weekend adjustment (rule 3)"
        rows.append((names.get(power, power), why))
    return rows


def _strings(value: object) -> list[str]:
    """A stored list (of units, of mobs) as texts; anything else as none."""
    return [str(x) for x in value] if isinstance(value, (list, tuple)) else []
