"""micro mob rules engine (rules: shared/rules/micromob.md; rulings: docs/cards/micromob.md).

Zones hold card ids.  Public: the draft pool, the city, every fatigue, ally and hit area,
and every hand, as at the table (a ruling: the cards are double-sided, so a hand shows its
bosses' sides to everyone; drafts and hires are taken face up).  Hidden: the draw pile
(order and contents).  With the option ``hands=secret`` each hand is hidden as well (others
see only its size), and no event, view or error ever names a card while it sits in someone
else's hand.

Option ``expand``: ``capped`` (rulings 3, the default) lets "add a city card" make a 5th
(7th) city card and no more, as rulebook L156 says; ``unlimited`` is the reading of rulings
1 and 2, with which their games are replayed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from mobadj.cards.micromob import legal
from mobadj.cards.micromob.actions import KINDS, Action, Done, Draft, Pass, Payroll, Take, Use
from mobadj.cards.micromob.cards import POWER_NAME, SPECIAL_ABILITIES, Card, Deck, load_deck
from mobadj.cards.micromob.legal import (
    BONUS_CARDS,
    BOSS_BY_KIND,
    BOSS_TEXT,
    DONE,
    GOON_BY_KIND,
    GOON_TEXT,
    KIND_INDEX,
    PASS,
    PAYROLL,
    POWER_WORDS,
    SPECIAL_CARDS,
    thrifty,
)
from mobadj.cards.micromob.scoring import Score, score_player
from mobadj.cards.protocol import Event, GameInfo, GameState, IllegalAction

# rulebook, module table: modules -> (min players, max players)
PLAYERS_FOR_MODULES = {1: (2, 2), 2: (2, 3), 3: (2, 4), 4: (2, 5), 5: (3, 6), 6: (3, 6)}
DEFAULT_MODULES = {2: 2, 3: 3, 4: 4, 5: 5, 6: 6}  # a ruling: one module per player
GOONS_EACH = 2  # "each player will now draft the 2 goons"
MIN_DRAFT_MONEY = 2  # "Replace any cards that have a money (the middle #) of 1 or less"
OPTIONS = ("modules", "hands", "expand")
HANDS = ("public", "secret")  # option hands: public (a ruling, the default) or secret
# option expand: capped (rulebook L156, the default) or unlimited (rulings 1 and 2)
EXPANDS = ("capped", "unlimited")
# commands whose refusal says so when pass is the only action
PASS_HINTED = frozenset(("hit", "hire", "ally", "payroll", "pay", "done", "end"))
RULINGS_1 = "micromob rulebook (shared/rules/micromob.md), mobadj rulings 1"
RULINGS_2 = "micromob rulebook (shared/rules/micromob.md), mobadj rulings 2"


_DECK = load_deck()
_new_event = object.__new__
_set_text = Event.__dict__["text"].__set__  # the slot's own setter
_set_visible = Event.__dict__["visible_to"].__set__  # the slot's own setter


def city_size(players: int) -> int:
    """rulebook, set up city: 4 cards, 6 in a 4-6 player game."""
    return 6 if players >= 4 else 4


def draft_order(players: int) -> list[int]:
    """Seats in draft order: P1 first, then counter-clockwise (P1, Pn, ..., P2), twice."""
    lap = [0] + list(range(players - 1, 0, -1))
    return lap * GOONS_EACH


class MicroMobState(GameState):
    """A micro mob game: the draft, then turns of ally powers and one action each."""

    deck: Deck = _DECK
    help_examples: ClassVar[tuple[str, ...]] = ("D3", "swap with city")
    info: ClassVar[GameInfo] = GameInfo(
        name="micromob",
        title="micro mob",
        min_players=2,
        max_players=6,
        simultaneous=False,
        chance=True,
        hidden_information=True,
        rules_version="micromob rulebook (shared/rules/micromob.md), mobadj rulings 3",
        deck_version=deck.version,
    )
    # rulings 1 kept every hand secret; rulings 1 and 2 let `expand` grow the city past its
    # 5th (7th) card
    earlier_rules: ClassVar[dict[str, dict[str, Any]]] = {
        RULINGS_1: {"hands": "secret", "expand": "unlimited"},
        RULINGS_2: {"expand": "unlimited"},
    }

    # -- set-up -------------------------------------------------------------------------------
    def setup(self) -> None:
        self.modules = self._chosen_modules()
        self.hands_public = self._hands_public()
        self.city_most = self._city_most()
        n = self.players
        ids = [c.id for m in self.modules for c in self.deck.modules[m]]
        self.total_cards = len(ids)
        self.rng.shuffle(ids)
        self.pile: list[str] = ids  # the draw pile; its top is the end of the list
        self.pool: list[str] = []
        replaced: list[str] = []
        cards = self.deck.cards
        while len(self.pool) < GOONS_EACH * n:
            if not self.pile:
                raise IllegalAction("these modules have too few goons with money 2 or more")
            cid = self.pile.pop()
            (self.pool if cards[cid].goon_money >= MIN_DRAFT_MONEY else replaced).append(cid)
        if replaced:  # replaced goons go back into the pile, which is shuffled again
            self.pile.extend(replaced)
            self.rng.shuffle(self.pile)
        self.city: list[str] = []
        self.city_base = city_size(n)
        self.hand: list[list[str]] = [[] for _ in range(n)]
        self.fatigue: list[list[str]] = [[] for _ in range(n)]
        self.allies: list[list[str]] = [[] for _ in range(n)]
        self.hits: list[list[str]] = [[] for _ in range(n)]
        # every zone list (each is only ever changed in place)
        self._zones = [self.pile, self.pool, self.city, *self.hand, *self.fatigue,
                       *self.allies, *self.hits]
        self.phase = "draft"
        self.drafters = draft_order(n)
        self.draft_index = 0
        self.current = self.drafters[0]
        self.kingpin: str | None = None
        self.end_reason = ""
        self.turn = 0
        self.passes = 0  # consecutive turns that ended in a pass with nothing else done
        self._city_seen: list[str] | None = None  # the city _by_cost was sorted for
        self._by_cost: list[list[str]] = []
        self._reset_turn()
        self.log(
            f"micro mob, {n} players, modules {', '.join(self.modules)} "
            f"({self.total_cards} cards); city of {city_size(n)}"
        )
        if replaced:
            self.log(f"{len(replaced)} goon(s) with money 1 or less were replaced")
        self.log("Draft pool (goon side): " + ", ".join(self._goon_text(c) for c in self.pool))
        self.log(f"P{self.current + 1} drafts first; the draft goes counter-clockwise")

    def _hands_public(self) -> bool:
        """Option ``hands``: public (the default, as at the table) or secret."""
        raw = str(self.options.get("hands", "public")).strip().lower()
        if raw not in HANDS:
            raise IllegalAction(f"hands must be public or secret, not {raw[:40]!r}")
        return raw == "public"

    def _city_most(self) -> int | None:
        """Option ``expand``: the most cards ``expand`` may make the city hold, None for no
        limit (rulebook L156: "a 5th card in a 2-3p game or a 7th card in a 4-6p game")."""
        raw = str(self.options.get("expand", EXPANDS[0])).strip().lower()
        if raw not in EXPANDS:
            raise IllegalAction(f"expand must be capped or unlimited, not {raw[:40]!r}")
        return city_size(self.players) + 1 if raw == "capped" else None

    @classmethod
    def check_new_options(cls, options: dict[str, Any]) -> None:
        """A module named twice (``docks,docks``, ``docks,D``) is refused by name: the GM
        named two modules and would get one (a game recorded so still replays)."""
        raw = options.get("modules")
        items = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(items, list | tuple):
            return
        deck = _DECK
        letters = {cards[0].id[0]: m for m, cards in deck.modules.items()}
        seen: dict[str, str] = {}
        for item in (str(i).strip() for i in items if i is not None):
            if not item:
                continue  # set-up says what is wrong with an empty name
            name = letters.get(item.upper(), item.lower())
            if name in seen:
                twice = (f"'{seen[name]}' and '{item}'" if seen[name].lower() != item.lower()
                         else f"'{item}'")
                raise IllegalAction(f"module {name} is named twice ({twice}); name each "
                                    "module once")
            seen[name] = item

    def _chosen_modules(self) -> list[str]:
        """Option ``modules``: a count (first N modules) or names/letters, e.g. docks,casino."""
        unknown = sorted(set(self.options) - set(OPTIONS))
        if unknown:
            raise IllegalAction(f"unknown option {unknown[0]!r}; micro mob options: "
                                + ", ".join(OPTIONS))
        names = list(self.deck.modules)
        raw = self.options.get("modules", DEFAULT_MODULES[self.players])
        if isinstance(raw, int) and not isinstance(raw, bool):
            if not 1 <= raw <= len(names):
                raise IllegalAction(f"modules must be 1-{len(names)}, not {raw}")
            chosen = names[:raw]
        else:
            if isinstance(raw, str):
                items = raw.split(",")
            elif isinstance(raw, list | tuple):
                items = list(raw)
            else:
                items = []
            if not any(str(i).strip() for i in items if i is not None):
                given = ("no value" if raw is None or not str(raw).strip()
                         else repr(str(raw)[:40]))
                raise IllegalAction(f"modules must be a count 1-{len(names)} or module names "
                                    f"such as docks,casino; it was given {given}")
            letters = {self.deck.modules[m][0].id[0]: m for m in names}
            chosen = []
            for item in (str(i).strip().lower() for i in items):
                name = letters.get(item.upper(), item)
                if name not in names:
                    raise IllegalAction(f"unknown module {item[:40]!r}; "
                                        f"modules: {', '.join(names)}")
                if name not in chosen:
                    chosen.append(name)
        low, high = PLAYERS_FOR_MODULES[len(chosen)]
        if not low <= self.players <= high:  # the rulebook's table: "1 module  2 players"
            count = "1 module is" if len(chosen) == 1 else f"{len(chosen)} modules are"
            players = f"{low}" if low == high else f"{low}-{high}"
            raise IllegalAction(f"{count} for {players} players, not {self.players}")
        return chosen

    # -- small helpers ------------------------------------------------------------------------
    def card(self, cid: str) -> Card:
        return self.deck.cards[cid]

    def _goon_text(self, cid: str) -> str:
        return GOON_TEXT[cid]

    def _boss_text(self, cid: str) -> str:
        return BOSS_TEXT[cid]

    def _reset_turn(self) -> None:
        self.used: set[str] = set()  # allies whose special ability was used this turn
        self.bonus_used: set[str] = set()  # allies whose action bonus was used this turn
        self.kinds_taken: set[str] = set()  # hit/hire/ally actions taken this turn
        self.acted = False  # the turn's action is taken: no more special abilities
        self.did_something = False  # an ability was used (deadlock counting)

    def powers(self, player: int) -> list[str]:
        """The ally powers ``player`` holds (one per ally card)."""
        cards = self.deck.cards
        return [cards[a].power for a in self.allies[player]]

    def stat_bonus(self, player: int, kind: str) -> int:
        """Stat bonuses, added automatically (rulebook, "stat bonuses")."""
        return self._stat_bonuses(player)[KIND_INDEX[kind]]

    def _stat_bonuses(self, player: int) -> tuple[int, ...]:
        """(hit, hire, ally) stat bonuses of ``player``'s allies."""
        return legal.stat_bonuses(self.allies[player])

    def payment(self, player: int, kind: str, target: str) -> tuple[str, ...] | None:
        """A thrifty set of goons from the hand paying for ``kind`` on ``target``, or None.

        At least one goon is always spent (a ruling: stat bonuses add to goons, they do
        not replace them).  The same payment :meth:`legal_actions` lists.
        """
        k = KIND_INDEX[kind]
        value = GOON_BY_KIND[k]
        ids = sorted(self.hand[player], key=value.__getitem__)
        vals = list(map(value.__getitem__, ids))
        need = BOSS_BY_KIND[k][target] - self.stat_bonus(player, kind)
        return thrifty(vals, ids, sum(vals), need)

    def cannot_pay(self, player: int, kind: str, target: str) -> str:
        """Why a take named without goons (``ally C2``) cannot be paid, with the numbers, as
        a take that names its goons is refused (``ally C2 needs 7; your goons make 3``)."""
        k = KIND_INDEX[kind]
        need = BOSS_BY_KIND[k][target]
        hand = self.hand[player]
        if not hand:
            return f"{kind} {target} needs {need}; you have no goon in hand to pay with"
        total = sum(GOON_BY_KIND[k][g] for g in hand) + self.stat_bonus(player, kind)
        return f"{kind} {target} needs {need}; your whole hand makes {total}"

    def bonus_left(self, player: int) -> dict[str, list[str]]:
        """After the turn's action: each ally whose action bonus allows one more take now,
        with the kinds it allows that the hand can pay for (``{"D5": ["hit"]}``)."""
        left: dict[str, list[str]] = {}
        if self.phase != "play" or player != self.current or not self.acted:
            return left
        for kind in KINDS:
            ally = self.bonus_ally(player, kind)
            if ally is not None and self._takes(player, [kind]):
                left.setdefault(ally, []).append(kind)
        return left

    def _city_by_cost(self) -> list[list[str]]:
        """The city's ids per kind, cheapest first; kept while the city is unchanged."""
        if self.city != self._city_seen:
            self._city_seen = list(self.city)
            self._by_cost = legal.city_by_cost(self.city)
        return self._by_cost

    def bonus_ally(self, player: int, kind: str) -> str | None:
        """The ally whose action bonus allows one more ``kind`` now (specific one first)."""
        if not self.kinds_taken or BONUS_CARDS.isdisjoint(self.allies[player]):
            return None
        cards = self.deck.cards
        fallback = None
        for a in self.allies[player]:
            if a in self.bonus_used:
                continue
            p = cards[a].power
            if p == "extra_" + kind and kind in self.kinds_taken:
                return a
            if p == "extra_action" and fallback is None:
                fallback = a
        return fallback

    # -- protocol -----------------------------------------------------------------------------
    def apply(self, player: int, action: Any) -> None:
        """:meth:`GameState.apply` with its turn check done without building ``to_act()``
        (it runs once per simulated action)."""
        if player != self.current or self.phase == "over":
            raise IllegalAction("it is not your turn")
        try:
            self._apply(player, action)
        except IllegalAction as err:
            if isinstance(action, Done) and self.must_pass(player):  # nothing to end yet
                raise IllegalAction("you can neither hit, hire, ally nor payroll this turn, "
                                    "so your action is pass: say 'pass'") from None
            if isinstance(action, Take | Payroll | Done):
                raise self._pass_hint(player, err) from None
            raise
        self.actions.append((player, str(action)))

    def must_pass(self, player: int) -> bool:
        """``player`` is to act and can neither hit, hire, ally nor payroll: pass (a ruling)
        is their action (abilities may still come first)."""
        return (self.phase == "play" and player == self.current and not self.acted
                and not self.fatigue[player] and not self._takes(player, KINDS))

    def not_due_note(self, player: int, action: Any) -> str:
        """A hit, hire or ally that ended the turn: no ally's action bonus gave another."""
        if self.phase == "play" and player != self.current and isinstance(action, Take):
            return "your turn ended with it: no ally's action bonus lets you act again"
        return ""

    def _pass_hint(self, player: int, err: IllegalAction) -> IllegalAction:
        """``err``, for a hit, hire, ally, payroll or done refused while pass is the only
        action: saying so, since nothing else would be accepted."""
        if not self.must_pass(player):
            return err
        return IllegalAction(f"{err}; you can neither hit, hire, ally nor payroll this "
                             "turn: your action is pass")

    def log(self, text: str, visible_to: int | Sequence[int] | None = None) -> None:
        """:meth:`GameState.log`, building the Event without its frozen ``__init__``."""
        event = _new_event(Event)
        _set_text(event, text)
        if visible_to is None:
            _set_visible(event, None)
        elif isinstance(visible_to, int):
            _set_visible(event, frozenset((visible_to,)))
        else:
            _set_visible(event, frozenset(visible_to))
        self.events.append(event)

    def to_act(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, player: int) -> list[Any]:
        """Every distinct choice: each target and ability use, with one thrifty payment.

        Order: ability uses (ally area order, each target in zone order), then takes (hit,
        hire, ally; cheapest boss first), then payroll, or pass when nothing else is legal.
        """
        if player != self.current or self.phase != "play":
            if self.phase == "draft" and player == self.current:
                return [Draft(c) for c in self.pool]
            return []
        allies = self.allies[player]
        if self.acted:
            kinds = tuple(k for k in (0, 1, 2) if self.bonus_ally(player, KINDS[k]) is not None)
            return [*legal.takes(self.hand[player], legal.stat_bonuses(allies),
                                 self._city_by_cost(), kinds), DONE]
        if SPECIAL_CARDS.isdisjoint(allies):
            actions: list[Any] = []
        else:
            actions = legal.abilities(allies, self.used, self.fatigue[player],
                                      self.hand[player], self.city, self.pile,
                                      self.city_most)
        takes: list[Any] = legal.takes(self.hand[player], legal.stat_bonuses(allies),
                            self._city_by_cost(), (0, 1, 2))
        if actions:
            actions.extend(takes)
        else:
            actions = takes
        if self.fatigue[player]:
            actions.append(PAYROLL)
        elif not takes:
            actions.append(PASS)
        return actions

    def _takes(self, player: int, kinds: list[str] | tuple[str, ...]) -> list[Take]:
        """One Take per affordable (kind, city boss), paid thriftily."""
        return legal.takes(self.hand[player], legal.stat_bonuses(self.allies[player]),
                           self._city_by_cost(), tuple(KIND_INDEX[k] for k in kinds))

    def parse(self, player: int, text: str) -> Action:
        from mobadj.cards.micromob.parser import parse_command

        try:
            return parse_command(self, player, text)
        except IllegalAction as err:
            if text.split()[:1] and text.split()[0].lower() in PASS_HINTED:
                raise self._pass_hint(player, err) from None
            raise

    def _apply(self, player: int, action: Any) -> None:
        if action.__class__ is Take and self.phase == "play":  # the common case first
            self._take(player, action)
            return
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if isinstance(action, Draft):
            self._draft(player, action)
        elif self.phase == "draft":
            raise IllegalAction("the goon draft is on: draft a goon from the pool")
        elif isinstance(action, Take):
            self._take(player, action)
        elif isinstance(action, Use):
            self._use(player, action)
        elif isinstance(action, Payroll):
            self._payroll(player)
        elif isinstance(action, Done):
            if not self.acted:
                raise IllegalAction("take your action first (hit, hire, ally or payroll)")
            self.log(f"P{player + 1} ends the turn, leaving the bonus actions unused")
            self._end_turn(player)
        elif isinstance(action, Pass):
            self._pass(player)
        else:
            raise IllegalAction(f"not a micro mob action: {action!r}")

    # -- set-up draft (rulebook, "Setup") ---------------------------------------------------------
    def _draft(self, player: int, action: Draft) -> None:
        if self.phase != "draft":
            raise IllegalAction("the draft is over")
        if action.card not in self.pool:
            raise IllegalAction(f"{action.card} is not in the draft pool")
        self.pool.remove(action.card)
        self.hand[player].append(action.card)
        if self.hands_public:
            self.log(f"P{player + 1} drafts {self._goon_text(action.card)}")
        else:
            self.log(f"P{player + 1} drafts a goon")
            self.log(f"You draft {self._goon_text(action.card)}", visible_to=player)
        self.draft_index += 1
        if self.draft_index < len(self.drafters):
            self.current = self.drafters[self.draft_index]
            return
        # set up the city, then "starting with the player who drafted last"
        self.phase = "play"
        self._refill()
        self.log("The city: " + ", ".join(self._boss_text(c) for c in self.city))
        self._start_turn(self.drafters[-1])

    # -- turns -----------------------------------------------------------------------------------
    def _start_turn(self, player: int) -> None:
        self.current = player
        self.turn += 1
        self._reset_turn()

    def _end_turn(self, player: int) -> None:
        """Play passes clockwise (seat order P1, P2, ...)."""
        self._start_turn((player + 1) % self.players)

    def _refill(self) -> str:
        """Whenever a card leaves the city, replace it immediately (up to 4, or 6).

        Returns the public text naming the new cards ("" if none) for the caller's event.
        """
        city, pile, size = self.city, self.pile, self.city_base
        if len(city) >= size or not pile:
            return ""
        new = []
        while len(city) < size and pile:
            cid = pile.pop()
            city.append(cid)
            new.append(BOSS_TEXT[cid])
        return "; " + ", ".join(new) + " comes into the city"

    def _check_end(self) -> bool:
        """The game ends as soon as only 1 boss is left in the city: the kingpin."""
        if self.pile or len(self.city) > 1:
            return False
        self.kingpin = self.city[0] if self.city else None
        self._finish("only one boss is left in the city")
        return True

    def _finish(self, reason: str) -> None:
        self.phase = "over"
        self.end_reason = reason
        if self.kingpin:
            self.log(f"Game over: {reason}; the kingpin is {self._boss_text(self.kingpin)}")
        else:
            self.log(f"Game over: {reason}; there is no kingpin")
        for p, s in enumerate(self.score_details()):
            self.log(
                f"P{p + 1}: {s.total} v.p. (goons {s.goons}, allies {s.allies}, "
                f"hits {s.hits}, bonuses {s.bonuses})"
            )
        self.log("Winner(s): " + ", ".join(f"P{p + 1}" for p in self.winners()))

    def _take(self, player: int, action: Take) -> None:
        """hit / hire / ally (rulebook, "gameplay"), base action or an action bonus."""
        kind, target, goons = action.kind, action.target, action.goons
        if kind not in KINDS:
            raise IllegalAction(f"unknown action {kind!r}")
        bonus_from = None
        if self.acted:
            bonus_from = self.bonus_ally(player, kind)
            if bonus_from is None:
                raise IllegalAction(f"you have taken your action; no ally lets you {kind} again")
        if target not in self.city:
            raise IllegalAction(f"{target} is not in the city")
        hand = self.hand[player]
        if not goons:
            raise IllegalAction("spend at least one goon")
        if (goons[0] not in hand if len(goons) == 1
                else len(set(goons)) != len(goons) or not set(goons).issubset(hand)):
            raise IllegalAction("spend goons from your own hand, each once")
        k = KIND_INDEX[kind]
        need = BOSS_BY_KIND[k][target]
        total = sum(map(GOON_BY_KIND[k].__getitem__, goons))
        total += legal.stat_bonuses(self.allies[player])[k]
        if total < need:
            raise IllegalAction(f"{kind} {target} needs {need}; your goons make {total}")
        for g in goons:
            hand.remove(g)
        self.fatigue[player].extend(goons)
        self.city.remove(target)
        spent = " ".join(goons)
        refilled = self._refill()
        extra = f" (an extra action thanks to {bonus_from})" if bonus_from else ""
        if kind == "hit":
            self.hits[player].append(target)
            self.log(f"P{player + 1} hits {BOSS_TEXT[target]} with {spent}{extra}{refilled}")
        elif kind == "ally":
            self.allies[player].append(target)
            self.log(
                f"P{player + 1} allies with {BOSS_TEXT[target]} "
                f"({POWER_WORDS[target]}) with {spent}{extra}{refilled}"
            )
        elif self.hands_public:
            hand.append(target)
            self.log(f"P{player + 1} hires {GOON_TEXT[target]} from the city with "
                     f"{spent}{extra}{refilled}")
        else:
            hand.append(target)
            self.log(f"P{player + 1} hires a goon from the city with {spent}{extra}{refilled}")
            self.log(f"You hire {GOON_TEXT[target]}", visible_to=player)
        if bonus_from is not None:
            self.bonus_used.add(bonus_from)
        self.acted = True
        self.kinds_taken.add(kind)
        self.passes = 0
        if not self.pile and len(self.city) <= 1 and self._check_end():
            return
        if BONUS_CARDS.isdisjoint(self.allies[player]) or not any(
            self.bonus_ally(player, k) and self._takes(player, [k]) for k in KINDS
        ):
            self._end_turn(player)

    def _payroll(self, player: int) -> None:
        """Pick up every goon in your fatigue area and return them to your hand."""
        if self.acted:
            raise IllegalAction("you have taken your action this turn")
        if not self.fatigue[player]:
            raise IllegalAction("your fatigue area is empty: nobody to pay")
        back = list(self.fatigue[player])
        self.hand[player].extend(back)
        self.fatigue[player].clear()
        self.log(f"P{player + 1} pays the payroll: {len(back)} goon(s) back to hand")
        self.passes = 0
        self._end_turn(player)

    def _pass(self, player: int) -> None:
        """A ruling: pass only when no action is possible; a full round of passes ends it."""
        if self.acted:
            raise IllegalAction("your action is taken; say 'done' to end your turn")
        if self.fatigue[player] or self._takes(player, KINDS):
            raise IllegalAction("you can still act (hit, hire, ally or payroll): no passing")
        self.passes = 0 if self.did_something else self.passes + 1
        self.log(f"P{player + 1} cannot act and passes")
        if self.passes >= self.players:
            self._finish("nobody could act for a whole round")
            return
        self._end_turn(player)

    # -- special abilities (rulebook, "special abilities") -----------------------------------
    def _use(self, player: int, action: Use) -> None:
        a, target, give = action.card, action.target, action.give
        if self.acted:
            raise IllegalAction("special abilities are used before your action")
        if a not in self.allies[player]:
            raise IllegalAction(f"{a} is not in your ally area")
        power = self.deck.cards[a].power
        if power not in SPECIAL_ABILITIES:
            raise IllegalAction(f"{a}'s power ({POWER_NAME[power]}) is not a special ability")
        if a in self.used:
            raise IllegalAction(f"you have used {a} this turn (once per turn)")
        wants = 2 if power == "swap" else 0 if power == "expand" else 1
        got = (target is not None) + (give is not None)
        if got != wants or (wants == 1 and give is not None):
            form = {0: f"use {a}", 1: f"use {a} on CARD", 2: f"use {a} take CARD give CARD"}
            raise IllegalAction(f"{a} ({POWER_NAME[power]}) is used as: {form[wants]}")
        p = player + 1
        if power in ("fatigue_to_hit", "rest"):
            if target not in self.fatigue[player]:
                raise IllegalAction(f"{target} is not in your fatigue area")
            self.fatigue[player].remove(target)
            if power == "rest":
                self.hand[player].append(target)
                if self.hands_public:
                    self.log(f"P{p} uses {a}: {self._goon_text(target)} goes from fatigue "
                             "back to hand")
                else:
                    self.log(f"P{p} uses {a}: a goon goes from fatigue back to hand")
                    self.log(f"You rest {target}", visible_to=player)
            else:
                self.hits[player].append(target)
                self.log(f"P{p} uses {a}: {self._boss_text(target)} goes from fatigue to hits")
        elif power in ("ally_to_hit", "ally_to_hand"):
            if target not in self.allies[player]:
                raise IllegalAction(f"{target} is not in your ally area")
            self.allies[player].remove(target)
            if power == "ally_to_hit":
                self.hits[player].append(target)
                self.log(f"P{p} uses {a}: ally {self._boss_text(target)} goes to hits")
            elif self.hands_public:
                self.hand[player].append(target)
                self.log(f"P{p} uses {a}: ally {target} goes to hand as "
                         f"{self._goon_text(target)}")
            else:
                self.hand[player].append(target)
                user = "an ally" if target == a else a  # a card in a hand is never named
                self.log(f"P{p} uses {user}: an ally goes to hand as a goon")
                self.log(f"You take {self._goon_text(target)} into your hand", visible_to=player)
        elif power == "expand":
            if not self.pile:
                raise IllegalAction("the pile is empty: no card to add to the city")
            if self.city_most is not None and len(self.city) >= self.city_most:
                raise IllegalAction(
                    f"the city already holds {len(self.city)} cards: {a} adds only a "
                    f"{self.city_most}th card in a {self.players}-player game")
            cid = self.pile.pop()
            self.city.append(cid)
            self.log(f"P{p} uses {a}: {self._boss_text(cid)} is drawn into the city")
        else:  # swap
            if target not in self.city:
                raise IllegalAction(f"{target} is not in the city")
            if give not in self.hand[player]:
                raise IllegalAction(f"{give} is not in your hand")
            self.city.remove(target)
            self.hand[player].remove(give)
            self.hand[player].append(target)
            self.city.append(give)
            if self.hands_public:
                self.log(f"P{p} uses {a}: takes {self._goon_text(target)} from the city, puts "
                         f"{self._boss_text(give)} in the city")
            else:
                self.log(f"P{p} uses {a}: takes a city card, puts {self._boss_text(give)} in "
                         "the city")
                self.log(f"You take {self._goon_text(target)} into your hand",
                         visible_to=player)
        self.used.add(a)
        self.did_something = True

    # -- results ----------------------------------------------------------------------------------
    def score_details(self) -> list[Score]:
        """Per player, term by term; the kingpin rule applies once the game is over."""
        cards = self.deck.cards
        king = cards[self.kingpin] if self.kingpin else None
        return [
            score_player(
                len(self.hand[p]) + len(self.fatigue[p]),
                [cards[a] for a in self.allies[p]],
                [cards[h] for h in self.hits[p]],
                king,
            )
            for p in range(self.players)
        ]

    def scores(self) -> list[float]:
        return [float(s.total) for s in self.score_details()]

    def winners(self) -> list[int]:
        """Most v.p.; ties: most allies, then most v.p. from hits; then a shared win."""
        if not self.is_over():
            return []
        details = self.score_details()
        keys = [(s.total, len(self.allies[p]), s.hits) for p, s in enumerate(details)]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def check_invariants(self) -> list[str]:
        """Every card is in exactly one zone (counted cheaply); the city is kept full."""
        count = sum(map(len, self._zones))
        problems = []
        if count != self.total_cards:
            problems.append(f"{count} cards in play, expected {self.total_cards}")
        if self.phase == "play" and self.pile and len(self.city) < self.city_base:
            problems.append("the city was not refilled")
        return problems

    def hidden_from(self, player: int) -> Counter[tuple[str, Any]]:
        """The draw pile, and with secret hands the other players' hands (undo never
        crosses a draw)."""
        hidden: Counter[tuple[str, Any]] = Counter(("pile", c) for c in self.pile)
        if not self.hands_public:
            for q, hand in enumerate(self.hand):
                if q != player:
                    hidden.update((f"P{q + 1} hand", c) for c in hand)
        return hidden

    # -- what a player sees ------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        from mobadj.cards.micromob.render import build_view

        return build_view(self, player)

    def render(self, player: int | None) -> str:
        from mobadj.cards.micromob.render import render_view

        return render_view(self.view(player))

    def screen(self, player: int) -> str:
        from mobadj.cards.micromob.render import render_screen

        return render_screen(self.view(player))

    def explain(self, player: int, topic: str) -> str:
        from mobadj.cards.micromob.render import explain, explain_powers

        return explain_powers() if topic.strip().lower() == "powers" else explain(
            self, player, topic)

    def snapshot(self) -> dict[str, Any]:
        """The whole state (secrets included), for replay tests and debugging only."""
        return {
            "phase": self.phase,
            "current": self.current,
            "turn": self.turn,
            "pile": list(self.pile),
            "pool": list(self.pool),
            "city": list(self.city),
            "hand": [list(h) for h in self.hand],
            "fatigue": [list(f) for f in self.fatigue],
            "allies": [list(a) for a in self.allies],
            "hits": [list(h) for h in self.hits],
            "used": sorted(self.used),
            "bonus_used": sorted(self.bonus_used),
            "kinds_taken": sorted(self.kinds_taken),
            "acted": self.acted,
            "passes": self.passes,
            "kingpin": self.kingpin,
            "events": [(e.text, sorted(e.visible_to or ())) for e in self.events],
        }
