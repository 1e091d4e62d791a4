"""Rule hooks: what a variant (Mobtown II) changes without touching the resolver.

Every hook is asked once per order *before* resolution starts, so the resolver's hot loop
only reads precomputed integers and flags.  The standard game is :class:`Rules` itself.

Hooks (override in a subclass, register it for a map in mobadj.engine.variants):

- ``head_to_head(a, b)``: how two moves into each other's province meet:
  ``BATTLE`` (standard head-to-head), ``PASS`` (they pass each other, e.g. by convoy), or
  ``BATTLE_UNLESS_EQUAL`` (a battle; if neither wins, both pass: Mobtown over/under swap).
- ``check_move(game_map, order)``: a Reason if a move is illegal in the variant, else None.
- ``move_bonus(order)``: extra, uncuttable strength for a move (Mobtown's Don: +1).
- ``required_margin(order)``: how much more than the opposing strength a move needs beyond
  the usual "more than" (Mobtown highway crossing: 1).
- ``retreat_allowed(dislodged, destination, via)``: a retreat filter beyond the standard rules.
- ``can_convoy(topology, fleet)`` / ``convoyable(unit)``: who may convoy and be convoyed.
- ``paradox``: the convoy paradox rule: ``"szykman"`` (DATC preference) or ``"all_hold"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BATTLE = 1
PASS = 0
BATTLE_UNLESS_EQUAL = 2

PARADOX_RULES = ("szykman", "all_hold")


@dataclass
class Rules:
    """Standard Diplomacy (2023 rulebook, DATC 3.0 preferences)."""

    paradox: str = "szykman"
    #: True when a variant overrides any move hook (standard keeps the fast path).
    move_hooks: bool = False

    def __post_init__(self) -> None:
        if self.paradox not in PARADOX_RULES:
            raise ValueError(f"unknown paradox rule {self.paradox!r}; choose from {PARADOX_RULES}")

    def head_to_head(self, a: Any, b: Any) -> int:
        """Two moves A->B and B->A fight a head-to-head battle unless either goes by convoy
        (DATC 5.B.1, 6.C.4/6.G.*)."""
        return PASS if (a.convoy or b.convoy) else BATTLE

    def check_move(self, game_map: Any, order: Any) -> Any:
        """Extra legality check of a move that passed the standard checks (variants: e.g. a
        subway edge needs "-U-"); return a Reason to make it invalid, or None."""
        return None

    def move_bonus(self, order: Any) -> int:
        """Extra uncuttable strength of a move (0 in the standard game)."""
        return 0

    def required_margin(self, order: Any) -> int:
        """Extra margin a move needs over the opposition (0 in the standard game)."""
        return 0

    def retreat_allowed(self, dislodged: Any, destination: str, via: str | None) -> bool:
        """Extra retreat restrictions (none in the standard game)."""
        return True

    def can_convoy(self, topology: Any, location: str, kind: str) -> bool:
        """Only fleets in sea provinces convoy (DATC 6.A.7, coastal fleets cannot)."""
        return kind == "F" and location in topology.sea

    def convoyable(self, kind: str) -> bool:
        """Only armies are convoyed (DATC 6.A.7)."""
        return kind == "A"


def rules_for(map_name: str, **options: Any) -> Rules:
    """The rules registered for a map (see mobadj.engine.variants; standard rules for a map
    nobody registered), with options such as ``paradox``."""
    from mobadj.engine.variants import UnknownVariantError, rules_class

    try:
        cls = rules_class(map_name)
    except UnknownVariantError:
        cls = Rules
    return cls(**options)
