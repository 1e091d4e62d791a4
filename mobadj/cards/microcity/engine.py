"""Micro City: the game state, its legal actions and how they apply.

The round (rulebook "GAMEPLAY", summary at the end): preparation (dice rolled for you,
then ``change``/``remove``/``sell`` until ``done``), project (``play CARD to Q`` then
``basic``/``advanced``/``pass``, or ``retrieve to Q``), investment (``basic``/``advanced``/
``pass`` on the Quarter, skipped where an Investment lies), final (automatic).  Set-up is in
:mod:`.setup_game`, the flow of turns in :mod:`.phases`, effects in :mod:`.effects`,
operations in :mod:`.operations`, options in :mod:`.modes`, refusals in :mod:`.checks`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from mobadj.cards.microcity import checks, modes, operations, phases, setup_game
from mobadj.cards.microcity.actions import (
    Assign,
    ChangeDie,
    Claim,
    Do,
    Done,
    Pass,
    Play,
    RemoveMarker,
    Retrieve,
    Sell,
    Start,
    Table,
    Take,
)
from mobadj.cards.microcity.board import CELL_INDEX, CELL_NAMES, City, position_of
from mobadj.cards.microcity.cards import (
    MATERIALS,
    RES_INDEX,
    BuildingSide,
    Deck,
    Project,
    load_deck,
)
from mobadj.cards.microcity.effects import Op, Option, area_name, position_word
from mobadj.cards.microcity.modes import Config
from mobadj.cards.protocol import GameInfo, GameState, IllegalAction

RULES_VERSION = "micro-city rulebook (shared/rules/micro-city.md), mobadj rulings 3"

_DECK = load_deck()


class MicroCityState(GameState):
    """One game of Micro City in any mode (see :mod:`.modes` for the options)."""

    help_examples: ClassVar[tuple[str, ...]] = ("4", "architect")
    info: ClassVar[GameInfo] = GameInfo(
        name="microcity",
        title="Micro City",
        min_players=1,
        max_players=2,
        simultaneous=False,
        chance=True,
        hidden_information=True,  # the competitive Advantage deck's order
        rules_version=RULES_VERSION,
        deck_version=_DECK.version,
    )
    # the earlier readings, oldest first (games stored before versions were recorded get
    # rulings 1); rulings 2 let "remove ... from any area" un-build a Building stage and
    # emptied an upgraded competitive Seaport; both let the Architect complete Goals and
    # ignored options the mode did not use
    earlier_rules: ClassVar[dict[str, dict[str, Any]]] = {
        "micro-city rulebook (shared/rules/micro-city.md), mobadj rulings 1": {
            "stage_markers": "fixed", "seaport_upgrade": "keep", "goals": "architect",
            "unused_options": "ignore"},
        "micro-city rulebook (shared/rules/micro-city.md), mobadj rulings 2": {
            "stage_markers": "removable", "seaport_upgrade": "return", "goals": "architect",
            "unused_options": "ignore"},
    }

    @classmethod
    def options_for_rules(cls, version: str | None, options: dict[str, Any] | None
                          ) -> dict[str, Any]:
        """As the protocol's; and a game started before ``goals``, ``stage_markers`` and
        ``seaport_upgrade`` were refused where the mode does not use them, with such an
        option, replays as it was played: with ``unused_options=ignore`` (those options
        changed nothing in it)."""
        chosen = super().options_for_rules(version, options)
        if "unused_options" not in chosen:
            mode = str(chosen.get("mode", "basic")).strip().lower()
            try:
                expansions = modes.expansion_set(chosen.get("expansions"))
            except IllegalAction:
                return chosen  # the set-up says what is wrong
            if modes.unused_readings(mode, expansions, chosen):
                chosen["unused_options"] = "ignore"
        return chosen

    # set in setup(); listed for readers and type checkers
    deck: Deck
    cfg: Config
    city: City
    sides: list[str]  # per position nw, ne, sw, se, s1, s2
    inv: list[int]  # per cell: owner of the Investment marker there, -1 none
    res: list[list[int]]  # per player: coal, steel, wood, money
    engineer: list[int]  # per player: cell, -1 before set-up
    dice: list[int]
    used: list[bool]
    die_owner: list[int]
    pools: list[int]  # available Investments: one shared pool, or one per player
    hands: list[list[str]]
    discards: list[list[str]]
    building: BuildingSide | None
    building_side: str
    stage_marks: list[int]
    contract_marks: list[int]
    contract_pool: int
    goals: list[int]
    goal_marks: list[list[int]]
    adv_row: list[int]
    adv_deck: list[int]
    adv_taken: list[list[int]]
    claimed: bool
    vp: list[int]
    time: int
    turn: int
    step: str
    current: int
    result: str | None
    pending: dict[str, Any] | None
    in_play: str | None

    # -- protocol -----------------------------------------------------------------------------
    def setup(self) -> None:
        setup_game.setup(self)

    def to_act(self) -> list[int]:
        return [] if self.result is not None else [self.current]

    def is_over(self) -> bool:
        return self.result is not None

    def legal_actions(self, player: int) -> list[Any]:
        return [a for a, _ in self._legal(player).values()]

    def _legal(self, player: int) -> Table:
        """Legal actions with what each needs to apply (cached until the state changes)."""
        cache = self.__dict__.get("_cache")
        if cache is not None and cache[0] == player:
            return cache[1]
        table: Table = {}
        if self.result is None and player == self.current:
            phases.legal(self, player, table)
        self.__dict__["_cache"] = (player, table)
        return table

    def _apply(self, player: int, action: Any) -> None:
        entry = self._legal(player).get(str(action))
        if entry is None:
            raise IllegalAction(checks.why_not(self, player, action))
        payload = entry[1]
        self.__dict__["_cache"] = None
        phases.apply(self, player, action, payload)
        self.__dict__["_cache"] = None

    def parse(self, player: int, text: str) -> Any:
        from mobadj.cards.microcity.parser import parse_command

        action = parse_command(text)
        if isinstance(action, Do) and str(action) not in self._legal(player):
            action = _normalise(action, self._legal(player))
        return action

    def scores(self) -> list[float]:
        if self.cfg.competitive:
            return [float(v) for v in self.vp]
        return [1.0 if self.result == "win" else 0.0] * self.players

    def winners(self) -> list[int]:
        """Solo/cooperative: everyone wins or loses together.  Competitive: most points,
        then most Advantage cards, then most Resources (rulebook "GAME END")."""
        if not self.is_over():
            return []
        if not self.cfg.competitive:
            return list(range(self.players)) if self.result == "win" else []
        keys = [(self.vp[p], len(self.adv_taken[p]), sum(self.res[p])) for p in (0, 1)]
        best = max(keys)
        return [p for p in (0, 1) if keys[p] == best]

    def won_together(self) -> bool:
        """Cooperative: the city built is everyone's win (the final mail: "Winner: P1 and P2
        (together)")."""
        return not self.cfg.competitive and self.players > 1 and self.result == "win"

    def lost(self) -> str:
        """Solo/cooperative: why the city lost, as the final mail says it."""
        if self.cfg.competitive or self.result != "loss":
            return ""
        from mobadj.cards.microcity.render import loss_reason

        return f"{loss_reason(self)} before the Building was finished"

    def view(self, player: int | None) -> dict[str, Any]:
        from mobadj.cards.microcity.render import view

        return view(self, player)

    def render(self, player: int | None) -> str:
        from mobadj.cards.microcity.render import render

        return render(self, player)

    def screen(self, player: int) -> str:
        from mobadj.cards.microcity.render import render_screen

        return render_screen(self, player)

    def explain(self, player: int, topic: str) -> str:
        from mobadj.cards.microcity.render import explain

        return explain(self, player, topic)

    def check_invariants(self) -> list[str]:
        return checks.invariants(self)

    def hidden_from(self, player: int) -> Counter[tuple[str, Any]]:
        """The competitive Advantage deck (face down); the dice are chance (the RNG)."""
        return Counter(("advantage deck", a) for a in self.adv_deck)

    # -- helpers used by phases and effects -------------------------------------------------
    def clone(self) -> MicroCityState:
        """A copy for look-ahead (no events or action log): cheap, for the bot."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        d["events"] = []
        d["actions"] = []
        d["_cache"] = None
        for key in ("sides", "inv", "engineer", "dice", "used", "die_owner", "pools",
                    "stage_marks", "contract_marks", "goals", "adv_row", "adv_deck", "vp"):
            d[key] = list(d[key])
        for key in ("res", "hands", "discards", "goal_marks", "adv_taken"):
            d[key] = [list(x) for x in d[key]]
        d["rng"] = None  # look-ahead never rolls: it stops at the end of the turn
        return new

    def pool_of(self, player: int) -> int:
        """Index of the Investments pool ``player`` uses (shared unless competitive)."""
        return player if self.cfg.competitive else 0

    def hand_owner(self, player: int) -> int:
        return player if self.cfg.competitive else 0

    def project(self, card: str) -> Project:
        return phases.project_card(self, card)

    def own_dice(self, player: int) -> list[int]:
        """Indices of ``player``'s unused dice."""
        return [
            i for i, o in enumerate(self.die_owner) if o == player and not self.used[i]
        ]

    def changeable_dice(self, player: int) -> list[int]:
        """Unused dice ``player`` may change: own, or any die in the cooperative variant."""
        if self.cfg.coop:
            return [i for i in range(len(self.dice)) if not self.used[i] and self.die_owner[i] >= 0]
        return self.own_dice(player)

    def position_of_engineer(self, player: int) -> int | None:
        cell = self.engineer[player]
        return None if cell < 0 else position_of(cell)

    def position_name(self, pos: int) -> str:
        return position_word(pos)

    def position_exists(self, pos: int) -> bool:
        if pos < 4:
            return self.city.garden is None or position_of(self.city.garden) != pos
        return pos - 4 < len(self.city.seaports)

    def removable_areas(self, player: int) -> list[tuple[str, Op]]:
        """Areas whose Investment marker an effect may remove ("any area": rulebook "PROJECT
        CARDS"): Quarters, and completed Building stages only with ``stage_markers=removable``
        (line 326: unlike Goals, a Building card's markers are not placed and removed again);
        in the competitive mode also Goal areas and Contracts (either player's marker,
        rulebook "Retrieving Investment markers").  Ruling: solo Contracts keep theirs."""
        out: list[tuple[str, Op]] = [
            (CELL_NAMES[c], ("cell", c)) for c in range(18) if self.inv[c] >= 0
        ]
        if self.cfg.stage_markers == "removable":
            out += [
                (area_name(("stage", k)), ("stage", k))
                for k, o in enumerate(self.stage_marks) if o >= 0
            ]
        if self.cfg.competitive:
            for gi, marks in enumerate(self.goal_marks):
                out += [
                    (area_name(("goal", gi, ai)), ("goal", gi, ai))
                    for ai, o in enumerate(marks) if o >= 0
                ]
            out += [
                (area_name(("contract", ci)), ("contract", ci))
                for ci, o in enumerate(self.contract_marks) if o >= 0
            ]
        return out

    def build_options(self, player: int, builds: tuple[str, ...]) -> list[Option]:
        return operations.build_options(self, player, builds)

    def cell(self, name: str) -> int:
        return CELL_INDEX[name]

    def quarter_dice(self, cell: int) -> tuple[int, ...]:
        spec = self.city.specs[cell]
        assert spec is not None
        return spec.dice[self.sides[position_of(cell)]]

    def materials(self, player: int) -> int:
        r = self.res[player]
        return sum(r[RES_INDEX[m]] for m in MATERIALS)


def _normalise(action: Do, table: Table) -> Do:
    """Accept the arguments in any order when that names exactly one legal option."""
    key = sorted(action.args)
    same = [a for a, _ in table.values() if isinstance(a, Do) and a.level == action.level
            and sorted(a.args) == key]
    return same[0] if len(same) == 1 else action


__all__ = [
    "MicroCityState", "Start", "Assign", "ChangeDie", "RemoveMarker", "Sell", "Done", "Play",
    "Retrieve", "Do", "Pass", "Claim", "Take",
]
