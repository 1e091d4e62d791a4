"""Mobsters of the Iron Triangle: the game state and the rules of a round.

Phases of a round (rulebook "Game Play"): ``job`` (the Mob Boss plays a Job and names the
feature wanted) -> ``offer`` (every other player offers a card face down, simultaneously)
-> ``negotiate`` (anyone may talk; the boss ends it by picking) -> at the pick the tracks move,
the round's cards are discarded, hands are refilled and the next round starts.  The owners
of the offers that were not picked may ``reveal`` them until the next Job is played.  ``say`` and
``reveal`` are the two commands a player may give out of turn (they change no track).
Rulings for what the rulebook leaves open are in docs/cards/irontriangle.md and are named
"ruling" in the comments here.

Option ``refill``: ``after_discard`` (default, rules ``iron-triangle-2``: the round's cards
are discarded before the refill, rulebook "Picking and Scoring an Offer") or
``before_discard`` (the reading of ``iron-triangle-1``: they stay on the table until the
next Job is played, so the refill draws without them).  Games recorded under
``iron-triangle-1`` (or before versions were recorded) are replayed with the latter.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mobadj.cards.irontriangle.actions import Action, Offer, Pick, PlayJob, Reveal, Say
from mobadj.cards.irontriangle.cards import BACKS, FEATURES, Deck, load_deck
from mobadj.cards.irontriangle.parser import parse_command
from mobadj.cards.irontriangle.scoring import final_scores, role_met, track_notoriety
from mobadj.cards.protocol import Event, GameInfo, GameState, IllegalAction

HAND_SIZE = 3
_DECK = load_deck()
# every action object made once, so simulations do not rebuild them at each step
_JOBS = {c.index: [PlayJob(c.name, f) for f in FEATURES] for c in _DECK.cards}
_OFFERS = {c.index: Offer(c.name) for c in _DECK.cards}
_PICKS = [Pick(p) for p in range(_DECK.circles)]
_OUT_OF_TURN = (Say, Reveal)
_ONLY = [frozenset((p,)) for p in range(_DECK.circles)]  # private events' audiences
_OFFER_TEXT = [c.offer_text() for c in _DECK.cards]
_CARD_TEXT = [f"{c.name} [job {c.stars}*; offer ${c.price} {c.days}d {c.modifier:+d}*]"
              for c in _DECK.cards]
# events are immutable, so the private ones that recur are made once and shared
_DRAW_EVENT = [[Event(f"You draw {t}.", only) for t in _CARD_TEXT] for only in _ONLY]
_OFFER_EVENT = [[Event(f"You offer {t} face down.", only) for t in _OFFER_TEXT]
                for only in _ONLY]
_INDEX = {c.name: c.index for c in _DECK.cards}  # canonical name -> card
REFILLS = ("after_discard", "before_discard")  # option ``refill``: the rules 2 and 1 readings


@dataclass
class IronTriangleState(GameState):
    """One game of Iron Triangle; see the module docstring for the round's phases."""

    help_examples: ClassVar[tuple[str, ...]] = ("2", "role", "fast and good")
    info: ClassVar[GameInfo] = GameInfo(
        name="irontriangle",
        title="Mobsters of the Iron Triangle",
        min_players=3,  # ruling: with two players the boss would have no choice to make
        max_players=6,  # rulebook: four cubes each of six colours, six secret roles
        simultaneous=True,
        chance=True,
        hidden_information=True,
        rules_version="iron-triangle-2",  # 2: the round's cards are discarded before the refill
        deck_version=_DECK.version,
    )
    known_options: ClassVar[dict[str, str] | None] = {
        "refill": "after_discard (default: the round's cards are discarded before the refill) "
                  "or before_discard (the reading before rules iron-triangle-2: they stay on "
                  "the table until the next Job)",
    }
    earlier_rules: ClassVar[dict[str, dict[str, Any]]] = {
        "iron-triangle-1": {"refill": "before_discard"},
    }

    deck: Deck = field(init=False, repr=False)
    phase: str = field(init=False, default="job")
    round: int = field(init=False, default=0)
    boss: int = field(init=False, default=-1)
    job: int | None = field(init=False, default=None)
    feature: str | None = field(init=False, default=None)
    offers: dict[int, int] = field(init=False, default_factory=dict)  # player -> card
    pending: list[int] = field(init=False, default_factory=list)  # still to offer
    # the last round's offers, which their owners may reveal until the next Job is played
    last: dict[str, Any] = field(init=False, default_factory=dict)
    # refill=before_discard: the last round's cards, on the table until the next Job
    table: list[int] = field(init=False, default_factory=list)
    discard_first: bool = field(init=False, default=True)  # refill=after_discard
    hands: list[list[int]] = field(init=False, default_factory=list)
    draw_pile: list[int] = field(init=False, default_factory=list)
    discard: list[int] = field(init=False, default_factory=list)
    roles: list[int] = field(init=False, default_factory=list)
    money: list[int] = field(init=False, default_factory=list)
    quality: list[int] = field(init=False, default_factory=list)
    time_pos: list[int] = field(init=False, default_factory=list)
    # Time track: stacks[pos] lists cubes bottom -> top; stacks[0] are the starting circles,
    # leftmost first.  So reading stacks in order gives the cubes from last to first.
    stacks: list[list[int]] = field(init=False, default_factory=list)
    circle: list[int] = field(init=False, default_factory=list)  # starting circle, 1-based
    money_lost: int = field(init=False, default=0)  # paid past the last Money space
    stats: dict[str, int] = field(init=False, default_factory=dict)  # for balance figures
    _acting: list[int] = field(init=False, default_factory=list, repr=False)
    _n_cards: int = field(init=False, default=0, repr=False)
    _n_money: int = field(init=False, default=0, repr=False)
    _floor: int = field(init=False, default=1, repr=False)
    _money_last: int = field(init=False, default=0, repr=False)
    _quality_last: int = field(init=False, default=0, repr=False)

    # -- set-up -------------------------------------------------------------------------
    def setup(self) -> None:
        """Rulebook "Setup": tracks, random starting circles, secret roles, hands of 3."""
        deck = self.deck = load_deck()
        refill = str(self.options.get("refill", REFILLS[0])).strip().lower()
        if refill not in REFILLS:
            close = difflib.get_close_matches(refill, REFILLS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise IllegalAction(f"option refill={self.options['refill']} is not known; "
                                f"expected {' or '.join(REFILLS)}{hint}")
        self.discard_first = refill == REFILLS[0]
        n = self.players
        self._n_cards = len(deck.cards)
        self._n_money = deck.money.start * n
        self._floor, self._money_last = deck.money.floor, deck.money.last
        self._quality_last = deck.quality.last
        self.money = [deck.money.start] * n  # a cube on the $10 spot
        self.quality = [deck.quality.start] * n  # the empty space next to the track
        # ruling: the cubes take the n starting circles nearest the track in random order
        order = list(range(n))
        self.rng.shuffle(order)
        self.stacks = [[] for _ in range(deck.finish + 1)]
        self.stacks[0] = order
        self.time_pos = [0] * n
        self.circle = [0] * n
        for i, p in enumerate(order):
            self.circle[p] = deck.circles - n + i + 1
        self.log("Starting circles (leftmost first): "
                 + ", ".join(f"P{p + 1}" for p in order))
        roles = list(range(len(deck.roles)))
        self.rng.shuffle(roles)
        self.roles = roles[:n]
        for p in range(n):
            self.log(f"Your secret role: {self._role_text(p)}", visible_to=p)
        self.draw_pile = [c.index for c in deck.cards]
        self.rng.shuffle(self.draw_pile)
        self.hands = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for p in range(n):
                self.hands[p].append(self.draw_pile.pop())
        for p in range(n):
            self.log("You are dealt " + ", ".join(self._card(c) for c in self.hands[p]),
                     visible_to=p)
        self.log(f"Each player is dealt {HAND_SIZE} job cards; {len(self.draw_pile)} "
                 "remain in the draw pile.")
        self.stats = {"rounds": 0, "too_poor": 0, "shortfall": 0, "reshuffles": 0,
                      "pick_cheap_fast": 0, "pick_fast_good": 0, "pick_good_cheap": 0}
        self._start_round()

    # -- protocol -------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        return self._acting

    def legal_actions(self, player: int) -> list[Any]:
        """The moves that advance the game; ``say`` and ``reveal`` (free, out of turn) are
        shown in the rendered view instead (see :meth:`free_commands`)."""
        if player not in self._acting:
            return []
        phase = self.phase
        if phase == "offer":
            return [_OFFERS[c] for c in self.hands[player]]
        if phase == "negotiate":
            return [_PICKS[p] for p in self.offers]
        if phase == "job":
            return [a for c in self.hands[player] for a in _JOBS[c]]
        return []

    def free_commands(self, player: int | None) -> list[str]:
        """Commands ``player`` may give out of turn now: table talk and showing an offer."""
        free: list[str] = []
        if player is None or self.phase == "over":
            return free
        if self.phase == "negotiate":
            free.append("say <anything>")
        if self._may_reveal(player):
            free.append("reveal")
        return free

    def is_free(self, player: int, action: Any) -> bool:
        """``say`` and ``reveal`` always pass the protocol's turn check, so that the rules say
        why one is refused (the table is not talking yet, nothing to reveal)."""
        return type(action) in _OUT_OF_TURN

    def parse(self, player: int, text: str) -> Any:
        hand = self.hands[player] if 0 <= player < self.players else []
        return parse_command(text, self.deck, hand)

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        """Notoriety; the secret roles count only once the game is over (they are secret)."""
        if self.phase == "over":
            return [float(s) for s in final_scores(self.deck, self.roles, self.money,
                                                   self.quality)]
        return [float(track_notoriety(self.deck, m, q))
                for m, q in zip(self.money, self.quality, strict=True)]

    def winners(self) -> list[int]:
        """Most Notoriety; a tie goes to the tied player highest on the Time track."""
        if self.phase != "over":
            return []
        s = self.scores()
        best = max(s)
        tied = {p for p, v in enumerate(s) if v == best}
        for p in reversed(self.time_order()):  # the top cube of the finish stack first
            if p in tied:
                return [p]
        return sorted(tied)  # unreachable: every cube is on the Time track

    def turn_refusal(self, player: int, action: Any) -> str:
        """Why a move out of turn is refused, in the rules' words: the boss makes no offer,
        a Gangster offers once a round, only the boss plays a Job and picks."""
        kind, boss = type(action), f"P{self.boss + 1}"
        if kind is Offer:
            if self.phase != "offer":
                return f"you cannot offer now: {self._phase_text()}"
            if player == self.boss:
                return "the Mob Boss makes no offer: the Gangsters offer on your job"
            return "you have already made your offer this round (one sealed offer a round)"
        if kind is Pick:
            if self.phase != "negotiate":
                return f"you cannot pick an offer now: {self._phase_text()}"
            return f"only the Mob Boss picks an offer, and {boss} is the Mob Boss"
        if kind is PlayJob:
            if self.phase != "job":
                return f"you cannot play a job now: {self._phase_text()}"
            return f"only the Mob Boss plays a job, and {boss} is the Mob Boss"
        return ""

    def _may_undo(self, player: int, action: Any) -> bool:
        """Table talk has been heard and a revealed card seen: neither is taken back (draws
        and turned-up offers are refused for every game, see :meth:`hidden_from`)."""
        return not isinstance(action, Say | Reveal)

    def hidden_from(self, player: int) -> Counter[tuple[str, Any]]:
        """The draw and discard piles (the offers of the last round that were not picked
        lie face down there), the others' hands, roles and offers: sealed while offers are
        made, face down with the back shown once all are in."""
        hidden: Counter[tuple[str, Any]] = Counter(("draw pile", c) for c in self.draw_pile)
        hidden.update(("discard pile", c) for c in self.discard)
        # refill=before_discard: the last round's cards go on to the discard pile at the next
        # Job; counted as there already, so that moving them turns nothing up
        hidden.update(("discard pile", c) for c in self.table)
        offer_place = "sealed offer" if self.phase == "offer" else "face-down offer"
        for q in range(self.players):
            if q == player:
                continue
            hidden.update((f"P{q + 1} hand", c) for c in self.hands[q])
            if self.phase != "over":
                hidden[(f"P{q + 1} role", self.roles[q])] += 1
            if q in self.offers:
                hidden[(f"P{q + 1} {offer_place}", self.offers[q])] += 1
        return hidden

    def check_invariants(self) -> list[str]:
        """Cards and money conserved, no one below $1 (cheap: it runs at every step of a
        simulation; :meth:`deep_invariants` checks everything, for tests)."""
        n_cards = (len(self.draw_pile) + len(self.discard) + len(self.offers) + len(self.table)
                   + sum(map(len, self.hands)) + (self.job is not None))
        money = self.money
        if (n_cards == self._n_cards and sum(money) + self.money_lost == self._n_money
                and min(money) >= self._floor):
            return []
        bad = []
        if n_cards != self._n_cards:
            bad.append(f"{n_cards} cards instead of {self._n_cards}")
        if sum(money) + self.money_lost != self._n_money or min(money) < self._floor:
            bad.append("money is not conserved or a Money cube is below $1")
        return bad

    def deep_invariants(self) -> list[str]:
        """Slower checks for tests: every card once, one cube per player on Time."""
        bad = self.check_invariants()
        if max(self.money) > self._money_last:
            bad.append("a Money cube is past the last space")
        if max(self.quality) > self._quality_last or min(self.quality) < 0:
            bad.append("a Quality cube is off the track")
        cards = [*self.draw_pile, *self.discard, *self.offers.values(), *self.table,
                 *(c for h in self.hands for c in h)]
        if self.job is not None:
            cards.append(self.job)
        if sorted(cards) != list(range(len(self.deck.cards))):
            bad.append("a card is missing or doubled")
        if sorted(self.time_order()) != list(range(self.players)):
            bad.append("the Time track does not hold one cube per player")
        if any(p not in self.stacks[pos] for p, pos in enumerate(self.time_pos)):
            bad.append("a Time cube is not where its position says")
        if self.phase != "over" and any(len(h) > HAND_SIZE for h in self.hands):
            bad.append("a hand holds more than three cards")
        return bad

    def log(self, text: str, visible_to: int | Any = None) -> None:
        """The protocol's log, faster for the two cases used here (all, or one player)."""
        if visible_to is None:
            self.events.append(Event(text))
        elif type(visible_to) is int:
            self.events.append(Event(text, _ONLY[visible_to]))
        else:
            super().log(text, visible_to)

    # -- applying -------------------------------------------------------------------------
    def _apply(self, player: int, action: Any) -> None:
        kind = type(action)
        if kind is Offer:
            self._offer(player, action)
        elif kind is PlayJob:
            self._play_job(player, action)
        elif kind is Pick:
            self._pick(player, action.player)
        elif kind is Say:
            self._say(player, action.text)
        elif kind is Reveal:
            self._reveal(player)
        else:
            raise IllegalAction(f"'{action}' is not an Iron Triangle command")

    def _need_phase(self, phase: str, what: str) -> None:
        if self.phase != phase:
            raise IllegalAction(f"you cannot {what} now: {self._phase_text()}")

    def _card_in_hand(self, player: int, name: str) -> int:
        index = _INDEX.get(name)
        if index is None:
            card = self.deck.card_named(name)
            index = card.index if card is not None else -1
        if index not in self.hands[player]:
            held = ", ".join(self.deck.cards[c].name for c in self.hands[player])
            raise IllegalAction(f"you do not hold '{name}' (your hand: {held})")
        return index

    def _play_job(self, player: int, action: PlayJob) -> None:
        """Rulebook "When playing as the Mob Boss": play a Job face up, name one feature."""
        self._need_phase("job", "play a job")
        if action.feature not in FEATURES:
            raise IllegalAction(f"name one feature: {', '.join(FEATURES)}")
        card = self._card_in_hand(player, action.card)
        self.hands[player].remove(card)
        self.last = {}  # the time to reveal the last round's offers is over
        if self.table:  # refill=before_discard: the last round's cards leave the table now
            self.discard.extend(self.table)
            self.table = []
        self.job, self.feature = card, action.feature
        job = self.deck.cards[card]
        self.log(f"Round {self.round}: P{player + 1}, the Mob Boss, plays the job "
                 f"{job.name} ({job.stars} stars) and wants it {action.feature.upper()}.")
        # rule: every other player offers, secretly and simultaneously
        self.pending = [p for p in range(self.players) if p != player]
        self._acting = list(self.pending)
        self.phase = "offer"

    def _offer(self, player: int, action: Offer) -> None:
        """Rulebook "When playing as one of the Gangsters": an offer face down."""
        if self.phase != "offer":
            self._need_phase("offer", "offer")
        hand = self.hands[player]
        card = _INDEX.get(action.card, -1)
        if card not in hand:
            card = self._card_in_hand(player, action.card)  # other spellings, or the error
        hand.remove(card)
        self.offers[player] = card
        pending = self.pending
        pending.remove(player)
        self.events.append(_OFFER_EVENT[player][card])
        if pending:  # who has offered shows in to_act() and the view
            self._acting = pending[:]
            return
        # all sealed offers are in: their backs show, the negotiation window opens
        backs = ", ".join(f"P{p + 1} {BACKS[self.deck.cards[c].back]}"
                          for p, c in sorted(self.offers.items()))
        self.log(f"All offers are on the table, face down: {backs}. Anyone may talk "
                 "('say ...') until the Mob Boss picks ('pick P<n>').")
        self.phase = "negotiate"
        self._acting = [self.boss]

    def _say(self, player: int, text: str) -> None:
        """Table talk (press): anything, bluffs included; the judge relays it to all."""
        if self.phase != "negotiate":
            raise IllegalAction(f"you cannot talk now: {self._phase_text()}; the table talks "
                                "once all offers are in")
        text = " ".join(text.split())
        if not text:
            raise IllegalAction("say what? e.g. 'say it's a bargain, boss'")
        self.log(f"P{player + 1} says: {text}")

    def _pick(self, player: int, target: int) -> None:
        """Rulebook "Picking and Scoring an Offer": the boss accepts one offer."""
        self._need_phase("negotiate", "pick an offer")
        if player != self.boss:
            raise IllegalAction("only the Mob Boss picks an offer")
        if target not in self.offers:
            choices = ", ".join(f"P{p + 1}" for p in sorted(self.offers))
            if target == player:
                raise IllegalAction(f"you are the Mob Boss and made no offer: pick one of "
                                    f"{choices}")
            raise IllegalAction(f"P{target + 1} made no offer; pick one of {choices}")
        offer = self.deck.cards[self.offers[target]]
        self.stats[f"pick_{offer.back}"] += 1
        self._score_offer(player, target)
        # the others may reveal their offers "at this time" (ruling: until the next Job)
        assert self.job is not None
        self.last = {"boss": player, "job": self.job, "feature": self.feature,
                     "offers": dict(self.offers), "chosen": target,
                     "revealed": [target], "open": True}
        # "all cards played this round are discarded", then everyone draws back to three
        if self.discard_first:
            self.discard.append(self.job)
            self.discard.extend(self.offers.values())
        else:  # refill=before_discard: on the table until the next Job
            self.table = [self.job, *self.offers.values()]
        self.job = self.feature = None
        self.offers = {}
        self._end_round()

    def _score_offer(self, boss: int, gangster: int) -> None:
        """The accepted offer moves the three tracks exactly as the rulebook lists."""
        deck = self.deck
        job = deck.cards[self.job] if self.job is not None else None
        offer = deck.cards[self.offers[gangster]]
        assert job is not None
        # the Gangster's reward: one space forward on the Quality track
        self.quality[gangster] = min(self.quality[gangster] + 1, deck.quality.last)
        # payment, never below $1; the shortfall is exchanged for the boss's stars 1:1
        paid = min(offer.price, self.money[boss] - deck.money.floor)
        shortfall = offer.price - paid
        self.money[boss] -= paid
        received = min(paid, deck.money.last - self.money[gangster])  # ruling: track end
        self.money[gangster] += received
        self.money_lost += paid - received
        # the boss's stars: job stars modified by the offer's corner stars, less the shortfall;
        # ruling: a negative total moves the cube back, never behind the start space
        stars = job.stars + offer.modifier - shortfall
        self.quality[boss] = max(deck.quality.floor,
                                 min(self.quality[boss] + stars, deck.quality.last))
        self.stats["shortfall"] += shortfall > 0
        # time: forward by the hourglasses, stacking on top, never past the finish space
        where = self._move_time(boss, self.time_pos[boss] + offer.days)
        note = f" (${shortfall} short, paid in stars)" if shortfall else ""
        lost = f" ${paid - received} is lost past the last Money space." if paid > received else ""
        self.log(f"P{boss + 1} picks the offer of P{gangster + 1}: {_OFFER_TEXT[offer.index]}. "
                 f"P{gangster + 1} moves up 1 on Quality and is paid ${paid}{note}; "
                 f"P{boss + 1} moves {stars:+d} on Quality to {self.quality[boss]} stars, "
                 f"down to ${self.money[boss]}, and on the Time track to {where}.{lost}")

    def _move_time(self, player: int, pos: int) -> str:
        """Move a Time cube (on top of any cube there); returns where it landed, as text."""
        pos = min(pos, self.deck.finish)
        self.stacks[self.time_pos[player]].remove(player)
        self.stacks[pos].append(player)  # on top of any cube already there
        self.time_pos[player] = pos
        return "the finish space" if pos == self.deck.finish else f"day {pos}"

    def _reveal(self, player: int) -> None:
        """Rule: the offers not picked "may be revealed at this time if they wish"."""
        if not self._may_reveal(player):
            if player in self.offers:  # rule: not "until the Mob Boss chooses one"
                talk = "; you may describe it with 'say'" if self.phase == "negotiate" else ""
                raise IllegalAction("you may not show your offer until the Mob Boss picks one "
                                    f"(rulebook, 'When playing as one of the Gangsters'){talk}")
            raise IllegalAction("you have no face-down offer from the last round to reveal")
        self.last["revealed"].append(player)
        card = self.deck.cards[self.last["offers"][player]]
        self.log(f"P{player + 1} reveals the offer that was not picked: {card.offer_text()}.")

    def _may_reveal(self, player: int) -> bool:
        last = self.last
        return bool(last) and last["open"] and player in last["offers"] \
            and player not in last["revealed"]

    # -- round structure --------------------------------------------------------------------
    def _end_round(self) -> None:
        """Refill hands to three (the round's cards are already discarded, so they may be
        shuffled into a new draw pile) and start the next round."""
        self.stats["rounds"] += 1
        if len(self.stacks[-1]) == self.players:  # every cube is on the finish space
            self._end_game()
            return
        # ruling: players draw in seat order starting with the Mob Boss
        n, hands, events = self.players, self.hands, self.events
        for i in range(n):
            p = (self.boss + i) % n
            hand = hands[p]
            while len(hand) < HAND_SIZE:
                if not self.draw_pile:
                    self._reshuffle()
                card = self.draw_pile.pop()
                hand.append(card)
                events.append(_DRAW_EVENT[p][card])
        self._start_round()

    def _reshuffle(self) -> None:
        """Ruling: an empty draw pile is refilled by shuffling the discards, the round just
        played included.  Its offers go into the new pile, so the time to reveal them ends
        (a card may now be in someone's hand); what was shown of that round stays known."""
        self.draw_pile, self.discard = self.discard, []
        if self.last and self.discard_first:  # (before_discard: they are on the table)
            self.last["open"] = False
        self.rng.shuffle(self.draw_pile)
        self.stats["reshuffles"] += 1
        self.log("The discard pile is shuffled into a new draw pile.")

    def time_order(self) -> list[int]:
        """Cubes from last to first on the Time track (a stack from the bottom up)."""
        return [p for stack in self.stacks for p in stack]

    def _start_round(self) -> None:
        """Find the Mob Boss: the last cube on Time (bottom of a tied stack); a boss on $1 is
        too poor and moves one space ahead of the next-to-last cube(s)."""
        finish = self.deck.finish
        while True:
            boss = next(stack[0] for stack in self.stacks if stack)  # the last cube
            if self.time_pos[boss] == finish:  # every cube is on the finish space
                self._end_game()
                return
            if self.money[boss] > self._floor:
                break
            self.stats["too_poor"] += 1
            next_to_last = self.time_order()[1]
            where = self._move_time(boss, self.time_pos[next_to_last] + 1)
            self.log(f"P{boss + 1} sits at ${self.money[boss]} and is too poor to hire a job: "
                     f"the cube moves ahead of the next-to-last one, to {where}.")
        self.round += 1
        self.boss = boss
        self.phase = "job"
        self._acting = [boss]
        self.log(f"Everyone draws back up to three cards. Round {self.round}: P{boss + 1} is "
                 "the Mob Boss." if self.round > 1 else f"Round 1: P{boss + 1} is the Mob Boss.")

    def _end_game(self) -> None:
        """Rulebook "End of Game": Notoriety, roles revealed and scored, the tie-break."""
        self.phase = "over"
        self._acting = []
        if self.last:
            self.last["open"] = False  # ruling: nothing is revealed after the game ends
        deck = self.deck
        for p in range(self.players):
            role = deck.roles[self.roles[p]]
            met = role_met(deck, role, p, self.money, self.quality)
            self.log(f"P{p + 1} reveals {role.name}: {role.text} "
                     + (f"Met: +{role.bonus}." if met else "Not met."))
        scores = self.scores()
        self.log("Final Notoriety: " + ", ".join(f"P{p + 1} {s:g}" for p, s in enumerate(scores)))
        self.log("Winner: " + ", ".join(f"P{p + 1}" for p in self.winners()))

    # -- views ----------------------------------------------------------------------------
    def _card(self, card: int) -> str:
        return _CARD_TEXT[card]

    def _role_text(self, player: int) -> str:
        role = self.deck.roles[self.roles[player]]
        return f"{role.name} ({role.text} +{role.bonus})"

    def _phase_text(self) -> str:
        return {
            "job": f"P{self.boss + 1}, the Mob Boss, is choosing a job",
            "offer": "the Gangsters are making their offers",
            "negotiate": "the offers are in and the Mob Boss is listening",
            "over": "the game is over",
        }[self.phase]

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator): never another player's hand, role
        (before the end), or face-down offer; an offer's back only once all are in."""
        deck = self.deck
        over = self.phase == "over"
        seats = []
        for p in range(self.players):
            seat: dict[str, Any] = {
                "player": f"P{p + 1}",
                "money": self.money[p],
                "quality": self.quality[p],
                "time": self.time_pos[p],
                "circle": self.circle[p],
                "notoriety": track_notoriety(deck, self.money[p], self.quality[p]),
                "hand_size": len(self.hands[p]),
            }
            if p in self.offers:
                offer: dict[str, Any] = {"face_down": True}
                if self.phase == "negotiate" or p == player:
                    offer["back"] = BACKS[deck.cards[self.offers[p]].back]
                if p == player:
                    offer["card"] = _card_dict(deck, self.offers[p])
                seat["offer"] = offer
            elif self.phase == "offer" and p in self.to_act():
                seat["offer"] = None  # still choosing (not in a table ended before its end)
            if over:
                seat["role"] = deck.roles[self.roles[p]].name
            seats.append(seat)
        data: dict[str, Any] = {
            "game": self.info.name,
            "deck_version": deck.version,
            "round": self.round,
            "phase": self.phase,
            "boss": f"P{self.boss + 1}" if self.boss >= 0 else None,
            "job": _card_dict(deck, self.job) if self.job is not None else None,
            "feature": self.feature,
            "to_act": [f"P{p + 1}" for p in self.to_act()],
            "seats": seats,
            "time_track": [[f"P{p + 1}" for p in s] for s in self.stacks],
            "finish": deck.finish,
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard),
        }
        if self.last:
            data["last_round"] = self._last_view(player)
        if player is not None and 0 <= player < self.players:
            role = deck.roles[self.roles[player]]
            data["you"] = {
                "player": f"P{player + 1}",
                "hand": [_card_dict(deck, c) for c in self.hands[player]],
                "role": {"name": role.name, "text": role.text, "bonus": role.bonus},
                "may_also": self.free_commands(player),
            }
        if over:
            data["scores"] = self.scores()
            data["winners"] = [f"P{p + 1}" for p in self.winners()]
        return data

    def _last_view(self, player: int | None) -> dict[str, Any]:
        """The last round's cards: the job, the picked offer, and the others by choice."""
        last, deck = self.last, self.deck
        offers = []
        for p, card in sorted(last["offers"].items()):
            shown = p in last["revealed"]
            entry: dict[str, Any] = {"player": f"P{p + 1}", "back": BACKS[deck.cards[card].back],
                                     "picked": p == last["chosen"], "face_down": not shown}
            if shown or p == player:
                entry["card"] = _card_dict(deck, card)
            offers.append(entry)
        return {"boss": f"P{last['boss'] + 1}", "job": _card_dict(deck, last["job"]),
                "feature": last["feature"], "offers": offers}

    def screen(self, player: int) -> str:
        from mobadj.cards.irontriangle.render import render_screen

        return render_screen(self.view(player))

    def explain(self, player: int, topic: str) -> str:
        from mobadj.cards.irontriangle.render import explain

        return explain(self, player, topic)

    def render(self, player: int | None) -> str:
        from mobadj.cards.irontriangle.render import render_view

        return render_view(self.view(player))


def _card_dict(deck: Deck, card: int) -> dict[str, Any]:
    c = deck.cards[card]
    return {"name": c.name, "stars": c.stars, "back": BACKS[c.back], "price": c.price,
            "days": c.days, "modifier": c.modifier}


__all__ = ["IronTriangleState", "Action"]
