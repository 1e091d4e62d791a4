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

The DATC's rule options (section 4; docs/rulings.md has the table) are fields; every default is
the DATC preference, and :data:`OPTIONS` lists the choices.  The alternatives that change
resolution run in :class:`mobadj.engine.options.OptionResolver`, so the default resolver's hot
loop is untouched.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BATTLE = 1
PASS = 0
BATTLE_UNLESS_EQUAL = 2

#: DATC 4.A.2: f (Szykman, preferred), d ("all hold"), b (1982), c (2000/2023), a (1971).
PARADOX_RULES = ("szykman", "all_hold", "1982", "2000", "1971")
#: Paradox rules that stop a convoyed army cutting certain supports (mobadj.engine.options).
CUT_RULES = ("1982", "2000", "1971")

#: Every DATC option: name -> its choices, the DATC preference first (docs/rulings.md).
OPTIONS: dict[str, tuple[Any, ...]] = {
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


@dataclass
class Rules:
    """Standard Diplomacy (2023 rulebook, DATC 3.0 preferences)."""

    paradox: str = "szykman"
    #: DATC 4.A.1: a convoy with several routes is disrupted when "all_routes" are (b) or
    #: when "any_route" is (a, the 1971 rulebook).
    convoy_disruption: str = "all_routes"
    #: True when a variant overrides any move hook (standard keeps the fast path).
    move_hooks: bool = False
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

    def __post_init__(self) -> None:
        for name, choices in OPTIONS.items():
            value = getattr(self, name)
            if value not in choices or type(value) is not type(choices[0]):
                shown = ", ".join(str(c).lower() for c in choices)
                raise ValueError(f"unknown {name} rule {value!r}; choose from {shown}")

    @property
    def resolver_cls(self) -> Any:
        """The resolver class these options need: None for the standard
        movement.Resolver, else mobadj.engine.options.OptionResolver."""
        if (
            self.paradox in CUT_RULES
            or self.dislodged_bounce != "unless_h2h"
            or self.convoy_disruption != "all_routes"
            or self.convoy_attack != "from_origin"
            or self.support_coast != "optional"
            or self.adjacent_convoy == "fallback"
        ):
            from mobadj.engine.options import OptionResolver

            return OptionResolver
        return None

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
        """Extra retreat restrictions: none in the standard game; with ``convoy_retreat``
        off, not to a convoyed attacker's origin either (DATC 4.A.5 a, 6.H.11)."""
        if self.convoy_retreat or not dislodged.convoyed:
            return True
        return destination.partition("/")[0] != dislodged.attacker_from

    def can_convoy(self, topology: Any, location: str, kind: str) -> bool:
        """Only fleets in sea provinces convoy (DATC 6.A.7, coastal fleets cannot)."""
        return kind == "F" and location in topology.sea

    def convoyable(self, kind: str) -> bool:
        """Only armies are convoyed (DATC 6.A.7)."""
        return kind == "A"


_BOOLS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def coerce_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Option values as given on a command line or in JSON (``"false"``, ``"1982"``, 1982)
    -> the values :class:`Rules` takes; a ValueError naming the option for bad input."""
    out: dict[str, Any] = {}
    for name, value in raw.items():
        choices = OPTIONS.get(name)
        if choices is None:
            near = difflib.get_close_matches(str(name), OPTIONS, n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise ValueError(f"unknown rule option {name!r}{hint} (known: {', '.join(OPTIONS)})")
        if type(choices[0]) is bool and not isinstance(value, bool):
            value = _BOOLS.get(str(value).strip().lower(), value)
        elif not isinstance(value, bool):
            value = str(value).strip().lower()
        out[name] = value
    return out


def rules_for(map_name: str, **options: Any) -> Rules:
    """The rules registered for a map (see mobadj.engine.variants; standard rules for a map
    nobody registered), with options such as ``paradox``."""
    from mobadj.engine.variants import UnknownVariantError, rules_class

    try:
        cls = rules_class(map_name)
    except UnknownVariantError:
        cls = Rules
    return cls(**options)
