"""Mobtown II's words and numbers: its published reasons, the gaol, water, the links a Gang
may use.  A leaf module: every other Mobtown module may import it."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from mobadj.orders.model import Convoy

if TYPE_CHECKING:
    from mobadj.board import GameMap

GAOL = "MTPD"  # rule 7: the Mobtown Police Department
WATER = "water"  # the terrain where Dons drown (rule 3)
MAX_DONS = 6  # rule 3
WIN = 17  # rule 8: centres that win the game
DON_CROSSING = ("free", "support")  # ruling 5
DON_ELECTION = ("after_disorder", "next_adjustment")  # ruling 13
REMOVED_DON = ("dies", "gone")  # ruling 26
#: the game pages' key to the city plan (mobadj.web)
LEGEND = (
    ("G", "a Gang (the number of a mob's Gangs is limited by its centres)"),
    ("D", "a Don, the mob's boss; a captured Don stands with another mob's Gang"),
    ("○", "a supply centre; filled in its owner's colour"),
    (GAOL, "the gaol (Mobtown Police Department): a Gang retreats there, never moves"),
    ("highway", "yellow roads: crossing one needs one more support"),
    ("U", "a subway station: a Gang travels G(Tam)-U-Ext from station to station"),
    ("water", "blue spaces: Gangs swim across"),
    ("→", "a move that succeeded; dashed: one that failed; dotted: a support"),
)
SUBWAY_RETREATS = ("subway_only", "any")  # ruling 7
#: beside a Don no order named, who stays where he is (ruling 4): not "no order given",
#: which would read as an order the mob missed
DON_STAYS = "no order needed: a Don moves only with a Gang"
#: the route tag of a move by subway, ``G(Tam)-U-Ext`` (rule 5; ``MOrder.route``)
SUBWAY = "subway"


class MobtownReason(StrEnum):
    """Mobtown's own reasons (published wording), beside the engine's Reason."""

    SUBWAY_NOT_MARKED = ("only a subway links these spaces: the move is written with U, "
                         "G(X)-U-Y (rule 5)")
    NO_SUBWAY = "no subway between these spaces (rule 5)"
    NO_DON = "no Don of this mob or captured by it stands with this Gang (rule 3)"
    DON_ALONE = "a Don cannot act alone: he moves only with a Gang, G+D(X)-Y (rule 3)"
    GAOL_ENTRY = "a Gang enters MTPD only by retreating there (rule 7)"
    IN_GAOL = "this Gang is in gaol for the rest of the game (rule 7)"
    CIVIL_DISORDER = "civil disorder after the Don's death: all units hold (rule 3)"
    DISORDER_HOLD = "holds in civil disorder after the Don's death (rule 3)"
    RULES_REMOVAL = "removed by the rules: no removal ordered"
    SUPPORT_BY_SUBWAY = "a Gang cannot support through a subway (ruling 12)"
    SUPPORT_ACROSS_HIGHWAY = ("a Gang cannot support across a highway where no junction is "
                              "(rule 4, ruling 27)")
    NO_CAPTIVE = "no captured Don of another mob is held here by this mob (rule 3)"
    CEMENT_NOT_WATER = "the cement overcoat needs a water space (rule 3)"
    CEMENT_NOT_ALONE = "the Don was not left on his own (rule 3)"
    DROWNED = "the Don drowned (rule 3)"
    CAPTURED = "the Don was captured by another mob's Gang (rule 3)"
    NO_DISBAND_GAOL = "may not disband while a retreat to MTPD is open (rule 7)"
    TO_GAOL = "no valid retreat ordered: sent to gaol in MTPD (rule 7)"
    RETREAT_BLOCKED_GAOL = "cannot retreat there (sent to gaol in MTPD instead, rule 7)"
    CLASH_GAOL = "two Gangs retreated to the same place: sent to gaol in MTPD (rule 7)"
    RETREAT_OVERGROUND = "dislodged from under ground: retreats only by subway (rule 5)"
    RETREAT_NO_SUBWAY = ("no subway between these spaces: the retreat goes over ground, "
                         "without U (rule 5)")
    RETREAT_NO_SUBWAY_GAOL = ("no subway between these spaces: the retreat goes over ground, "
                              "without U (rule 5); sent to gaol in MTPD instead (rule 7, "
                              "ruling 16)")
    RETREAT_SUBWAY_ONLY = ("only a subway links these spaces: the retreat is written with U "
                           "(rule 5)")
    RETREAT_SUBWAY_ONLY_GAOL = ("only a subway links these spaces: the retreat is written with "
                                "U (rule 5); sent to gaol in MTPD instead (rule 7, ruling 16)")
    NOT_HOME = "not a home centre of this mob that it owns (rule 3)"
    NOT_HOME_START = "the Don starts in one of his own mob's home centres (rule 6)"
    NOT_FREE = "that home centre is not free (rule 3)"
    DON_ALIVE = "a Don may be built only after the mob's Don has died (rule 3)"
    DON_JUST_BUILT = "the mob's new Don is already built by an earlier order (rule 3)"
    DON_ELECTED_LATER = ("the new Don is elected during the civil-disorder move and created "
                         "at an adjustment after it (rule 3)")
    BUILD_USED_BY_DON = ("no build left: the new Don counts as a unit and used the mob's "
                         "build (rule 3, ruling 9)")
    DON_REMOVED = ("the mob's Don was removed, not drowned: it builds no other (rule 3, "
                   "ruling 26)")
    SIX_DONS = "there are already 6 Dons (rule 3)"
    DON_FREE = "the original Don costs no centre and cannot be removed (ruling 9)"
    GAOL_STAYS = "a gaoled Gang stays for the rest of the game (rule 7)"
    ALREADY_PLACED = "this mob's Don is already placed (rule 6)"
    PLACED = "Don placed (rule 6)"
    DEFAULT_PLACED = "no order: Don placed on the first home centre (ruling 14)"
    WRONG_PHASE = "order not allowed in this phase"
    NO_CONVOY = "there are no convoys in Mobtown: Gangs are amphibious (rule 2)"
    IMPASSABLE = "Bootleg Bay is impassable (rule 2)"
    SUPPORT_OF_DON = ("supports the Gang standing with the Don: an order naming a Don is read "
                      "by his space (ruling 29)")
    SUPPORT_LONE_DON = "a Don alone has no strength and cannot be supported (rule 3, ruling 4)"
    SUPPORT_GAOLED = ("a gaoled Gang can be neither ordered nor supported nor attacked "
                      "(rule 7, ruling 6)")
    SUPPORT_INTO_GAOL = ("nobody enters MTPD by a movement, so no move there can be supported "
                         "(rule 7, ruling 6)")
    SUBWAY_EXCHANGE = "equally supported Gangs cannot exchange places by subway (rule 5)"
    HIGHWAY = ("not strong enough to cross a highway where no junction is: that needs an "
               "extra support, one more than an ordinary move (1 into an empty space, 2 "
               "against a Gang holding alone; rule 4, ruling 15)")


def subway_link(edge: Mapping[str, object] | None) -> bool:
    """Can this edge be used under ground (rule 5)?"""
    return edge is not None and (
        edge.get("via") == "subway" or str(edge.get("subway")).lower() == "true")


def ground_link(edge: Mapping[str, object] | None) -> bool:
    """Can this edge be used over ground?"""
    return edge is not None and edge.get("via") != "subway"


def refused_reason(order: object, otherwise: StrEnum) -> StrEnum:
    """Why an order the phase does not take is refused: a convoy in any phase because
    Mobtown has none (rule 2), anything else for ``otherwise`` (the phase's reason)."""
    return MobtownReason.NO_CONVOY if isinstance(order, Convoy) else otherwise


def impassable(game_map: GameMap, prov: str) -> bool:
    """Is ``prov`` impassable (Bootleg Bay, rule 2)?"""
    space = game_map.provinces.get(prov.partition("/")[0])
    return space is not None and space.terrain == "impassable"


def is_water(game_map: GameMap, prov: str) -> bool:
    """Is ``prov`` a water space (where Dons drown, rule 3)?"""
    return game_map.provinces[prov].terrain == WATER


def mob_name(game_map: GameMap, pid: str) -> str:
    """A mob's name as the rulebook prints it (its id if the map does not know it)."""
    power = game_map.powers.get(pid)
    return power.name if power is not None else pid


class Options(Protocol):
    """The game options the weekend and Don rules read (MobtownRules has them all)."""

    captive_don_helps: bool
    captive_don_crosses: bool
    captive_don_drowns: bool
    don_election: str
    don_crossing: str
    subway_retreats: str
    subway_support: bool
    highway_support: bool
    gaol_counts_for_supply: bool
    don_needs_empty_home: bool
    lone_don_drowns: bool
    removed_don: str
    removal_spares_don: bool
