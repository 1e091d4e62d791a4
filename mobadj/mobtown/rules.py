"""Mobtown II rules as engine hooks (rules 2-5 and 7), plus the game options.

The engine (mobadj.engine) resolves Gangs as armies; this class tells it what Mobtown
changes.  The Don's effects need the board, so :meth:`MobtownRules.bind` returns a copy that
knows which Dons stand where for the turn being adjudicated (the hooks are asked once per
order, before resolution).  Options where players could disagree are fields, passed as
``rules_for("mobtown2", captive_don_helps=True)``; every one is ruled in
docs/mobtown-rulings.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mobadj.engine.rules import BATTLE, BATTLE_UNLESS_EQUAL, Rules

GAOL = "MTPD"
DON_CROSSING = ("free", "support")
SUBWAY_RETREATS = ("subway_only", "any")


class MobtownReason(StrEnum):
    """Mobtown's own reasons (published wording), beside the engine's Reason."""

    SUBWAY_NOT_MARKED = "a subway move must be written with U, e.g. G(Tam)-U-Ext (rule 5)"
    NO_SUBWAY = "no subway between these spaces (rule 5)"
    NO_DON = "no Don of this mob or captured by it stands with this Gang (rule 3)"
    DON_ALONE = "a Don cannot act alone: he moves only with a Gang, G+D(X)-Y (rule 3)"
    GAOL_ENTRY = "a Gang enters MTPD only by retreating there (rule 7)"
    IN_GAOL = "this Gang is in gaol for the rest of the game (rule 7)"
    CIVIL_DISORDER = "civil disorder after the Don's death: all units hold (rule 3)"
    SUPPORT_BY_SUBWAY = "a Gang cannot support through a subway (ruling 12)"
    NO_CAPTIVE = "no captured Don of another mob is held here by this mob (rule 3)"
    CEMENT_NOT_WATER = "the cement overcoat needs a water space (rule 3)"
    CEMENT_NOT_ALONE = "the Don was not left on his own (rule 3)"
    DROWNED = "the Don drowned (rule 3)"
    NO_DISBAND_GAOL = "may not disband while a retreat to MTPD is open (rule 7)"
    TO_GAOL = "no valid retreat: sent to gaol in MTPD (rule 7)"
    CLASH_GAOL = "two Gangs retreated to the same place: sent to gaol in MTPD (rule 7)"
    RETREAT_OVERGROUND = "dislodged from under ground: retreats only by subway (rule 5)"
    RETREAT_ROUTE = "the retreat must go the way the link allows (U for a subway, rule 5)"
    NOT_HOME = "not a home centre of this mob that it owns (rule 3)"
    NOT_FREE = "that home centre is not free (rule 3)"
    DON_ALIVE = "a Don may be built only after the mob's Don has died (rule 3)"
    SIX_DONS = "there are already 6 Dons (rule 3)"
    DON_FREE = "the original Don costs no centre and cannot be removed (ruling 9)"
    GAOL_STAYS = "a gaoled Gang stays for the rest of the game (rule 7)"
    ALREADY_PLACED = "this mob's Don is already placed (rule 6)"
    PLACED = "Don placed (rule 6)"
    DEFAULT_PLACED = "no order: Don placed on the first home centre (ruling 14)"
    WRONG_PHASE = "order not allowed in this phase"
    SUBWAY_EXCHANGE = "equally supported Gangs cannot exchange places by subway (rule 5)"
    HIGHWAY = "crossing a highway where there is no junction needs one extra support (rule 4)"


@dataclass
class MobtownRules(Rules):
    """Standard rules with Mobtown II's hooks; the fields below are the game options."""

    move_hooks: bool = True
    #: a captured Don gives his captor's move +1 and a free highway crossing (ruling 3)
    captive_don_helps: bool = False
    #: "free": a Gang with its Don crosses without the extra support and keeps the Don's +1;
    #: "support": the Don's support pays for the crossing (ruling 5)
    don_crossing: str = "free"
    #: a Gang dislodged by a subway attack may retreat only by subway (ruling 7)
    subway_retreats: str = "subway_only"
    #: a Gang may support into a space it reaches only by subway (ruling 12)
    subway_support: bool = False
    #: a gaoled Gang counts against its mob's supply (ruling 8)
    gaol_counts_for_supply: bool = True
    #: a rebuilt Don needs a home centre with no Gang at all, not even his own (ruling 17)
    don_needs_empty_home: bool = False
    #: any Don left alone in water drowns, not only by the cement overcoat order (ruling 4)
    lone_don_drowns: bool = False
    #: the board state the hooks need (set by bind); province -> Don owners there
    dons_at: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    game_map: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.don_crossing not in DON_CROSSING:
            raise ValueError(f"don_crossing must be one of {DON_CROSSING}")
        if self.subway_retreats not in SUBWAY_RETREATS:
            raise ValueError(f"subway_retreats must be one of {SUBWAY_RETREATS}")

    def options(self) -> dict[str, Any]:
        """The game options (for reports and saved games)."""
        skip = {"move_hooks", "dons_at", "game_map"}
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in skip}

    def bind(self, dons_at: dict[str, tuple[str, ...]], game_map: Any) -> MobtownRules:
        """A copy that knows the map and where the Dons stand this turn."""
        return dataclasses.replace(self, dons_at=dons_at, game_map=game_map)

    # ---- front ends (mobadj batch / mobadj adjudicate hand Mobtown over to these) -------

    def run_batch_case(self, case: Any, game_map: Any) -> dict[str, Any]:
        """One ``mobadj batch`` line (mobadj.mobtown.batch)."""
        from mobadj.mobtown.batch import run_case

        return run_case(case, game_map, self)

    def cli_adjudicate(self, game_map: Any, position: Any, orders: Any, as_json: bool,
                       picture: Any, options: dict[str, Any]) -> tuple[str, Any]:
        """``mobadj adjudicate --map mobtown2`` (mobadj.mobtown.cli): the report and what
        was read from the order files."""
        from mobadj.mobtown.cli import adjudicate_files

        return adjudicate_files(game_map, position, orders, as_json, picture, options)

    # ---- helpers -------------------------------------------------------------------------

    def escort(self, power: str, prov: str) -> bool:
        """Does a Gang of ``power`` in ``prov`` have a Don that helps it (rules 3, 4)?"""
        owners = self.dons_at.get(prov, ())
        return power in owners or (self.captive_don_helps and bool(owners))

    @staticmethod
    def subway_link(edge: dict | None) -> bool:
        """Can this edge be used under ground (rule 5)?"""
        return edge is not None and (
            edge.get("via") == "subway" or str(edge.get("subway")).lower() == "true")

    @staticmethod
    def ground_link(edge: dict | None) -> bool:
        """Can this edge be used over ground?"""
        return edge is not None and edge.get("via") != "subway"

    def _with_don(self, o: Any) -> bool:
        return bool(getattr(o.source, "with_don", False)) and self.escort(o.power, o.prov)

    # ---- engine hooks --------------------------------------------------------------------

    def head_to_head(self, a: Any, b: Any) -> int:
        """Rule 5: over ground against under ground is a swap when equal, else a battle;
        two Gangs both by subway (or both over ground) fight as usual (example b)."""
        if a.subway != b.subway:
            return BATTLE_UNLESS_EQUAL
        return BATTLE

    def check_move(self, game_map: Any, o: Any) -> Any:
        """Rule 5 (U required, U only on a subway), rule 7 (MTPD by retreat only),
        rule 3 (G+D needs a Don)."""
        if o.dprov == GAOL:
            return MobtownReason.GAOL_ENTRY
        edge = game_map.edge("G", o.loc, o.dest)
        if o.subway and not self.subway_link(edge):
            return MobtownReason.NO_SUBWAY
        if not o.subway and not self.ground_link(edge):
            return MobtownReason.SUBWAY_NOT_MARKED
        if getattr(o.source, "with_don", False) and not self.dons_at.get(o.prov):
            return MobtownReason.NO_DON
        return None

    def move_bonus(self, o: Any) -> int:
        """Rule 3: the Don adds one uncuttable support to his Gang's move."""
        if not self._with_don(o):
            return 0
        if self.don_crossing == "support" and self._crossing(o):
            return 0  # the Don's support pays for the crossing (ruling 5, option)
        return 1

    def required_margin(self, o: Any) -> int:
        """Rule 4: crossing a highway where no junction is needs one extra support, unless
        the Gang travels with its Don; a subway passes under the highway."""
        if not self._crossing(o):
            return 0
        return 0 if self._with_don(o) else 1

    def _crossing(self, o: Any) -> bool:
        if o.subway:
            return False
        if self.game_map is None:
            from mobadj.board.loader import load_map

            self.game_map = load_map("mobtown2")
        edge = self.game_map.edge("G", o.loc, o.dest)
        return edge is not None and edge.get("via") == "highway"

    def can_convoy(self, topology: Any, location: str, kind: str) -> bool:
        """Rule 2: no fleets, no convoys."""
        return False

    def convoyable(self, kind: str) -> bool:
        """Rule 2: no convoys."""
        return False
