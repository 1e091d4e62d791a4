"""Mice Heist: the rules engine (``/work/shared/rules/mice-heist.md``).

A turn is one test: Select Obstacle, Get Help (sealed simultaneous bets by every other
player, revealed together), Draw Chips, Activate Skills, Calculate Result, Resolve,
Advance Obstacle, Cleanup.  The section names of the rulebook are quoted in comments;
rulings for what the rulebook leaves open are in ``docs/cards/miceheist.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from mobadj.cards.miceheist import tracks
from mobadj.cards.miceheist.actions import Action, Bet, Learn, Select, Test, Use
from mobadj.cards.miceheist.data import BUILTIN_DECKS, HeistData, Obstacle, deck_file, load_data
from mobadj.cards.protocol import Event, GameInfo, GameState, IllegalAction

SELECT, BET, ACTIVATE, LEARN, OVER = "select", "bet", "activate", "learn", "over"
RULES_VERSION = "mice-heist rulebook (shared/rules/mice-heist.md, 2026-11)"


SEATS = tuple(f"P{i + 1}" for i in range(8))


def seat(player: int) -> str:
    return SEATS[player]


def listed(words: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


_CACHE: dict[tuple, Any] = {}
_TEST = Test()  # interned actions: legal_actions runs on every simulated step


def _bet(amount: int, keys: tuple[str, ...] = ()) -> Bet:
    act = _CACHE.get(("bet", amount, keys))
    if act is None:
        act = _CACHE["bet", amount, keys] = Bet(amount, keys)
    return act


def _bet_options(stash: int, covered: tuple[str, ...]) -> list[Bet]:
    """Every distinct sealed bet for a stash and covered skills (memoised: hot in playouts).

    Each choice ends differently: a bet of fewer cheese than covered skills names the
    skills it uncovers, one choice per set of them (naming one skill of two would leave
    the other to ruling R4's order, so two such names could end the same); a bet of more
    uncovers them all and names none."""
    acts = _CACHE.get(("bets", stash, covered))
    if acts is None:
        if len(_CACHE) > 50_000:  # bounded: long simulations meet many covered-skill sets
            _CACHE.clear()
        top = stash + len(covered)
        acts = [_bet(0, (k,)) for k in covered] or [_bet(0)]
        for amount in range(1, top + 1):
            if amount < len(covered):  # which covered skills to uncover is a real choice
                acts.extend(_bet(amount, keys) for keys in combinations(covered, amount))
            else:
                acts.append(_bet(amount))
        _CACHE["bets", stash, covered] = acts
    return list(acts)


_PLAIN_USES: dict[str, Use] = {}


def _interned(cls: type, *args: Any) -> Any:
    """One shared instance per action value (creating actions is the costly part)."""
    act = _CACHE.get((cls, *args))
    if act is None:
        act = _CACHE[(cls, *args)] = cls(*args)
    return act


def _use(key: str, chip: int | None = None) -> Use:
    if chip is None:
        act = _PLAIN_USES.get(key)
        if act is None:
            act = _PLAIN_USES[key] = Use(key)
        return act
    act = _CACHE.get(("use", key, chip))
    if act is None:
        act = _CACHE["use", key, chip] = Use(key, chip)
    return act


@dataclass
class MiceHeistState(GameState):
    """One game of Mice Heist in progress (everything public except sealed bets)."""

    help_examples: ClassVar[tuple[str, ...]] = ("scurry", "A2", "chips")
    info: ClassVar[GameInfo] = GameInfo(
        name="miceheist",
        title="Mice Heist",
        min_players=2,
        max_players=6,
        simultaneous=True,
        chance=True,
        hidden_information=True,
        rules_version=RULES_VERSION,
        deck_version=load_data().version,
    )

    known_options: ClassVar[dict[str, str] | None] = {
        "deck": "a built-in deck (standard) or, at the terminal only, the path of another "
                "deck YAML (a GM's transcription of a printed deck)",
        "deck_sha256": "set by the game itself when it starts with a deck file: the file's "
                       "sha256, so that a game is never resumed or verified with another deck",
    }
    file_options: ClassVar[dict[str, tuple[str, ...]]] = {"deck": tuple(BUILTIN_DECKS)}

    data: HeistData = field(init=False, repr=False)
    colours: list[str] = field(init=False)
    skills: list[list[str]] = field(init=False)  # skill keys in the order they were gained
    covered: list[set[str]] = field(init=False)  # covered skills (one cheese on each)
    stash: list[int] = field(init=False)
    supply: int = field(init=False)
    stacks: dict[str, list[str]] = field(init=False)  # job -> obstacle ids, top first
    obstacle_cheese: dict[str, int] = field(init=False)
    track: dict[str, list[int | None]] = field(init=False)  # job -> occupant of space 1..L
    pos: dict[str, list[int]] = field(init=False)  # job -> space per player (0: off)
    food: dict[str, list[tuple[int, str]]] = field(init=False)  # job -> (value, item)
    deck: list[str] = field(init=False)
    market: list[str] = field(init=False)
    bag: list[int] = field(init=False)
    center: list[int] = field(init=False)  # the play area: chips of earlier tests
    tester: int = field(init=False)
    phase: str = field(init=False)
    turn: int = field(init=False)
    obstacle: Obstacle | None = field(init=False)
    sealed: dict[int, Bet] = field(init=False, repr=False)  # secret until all are in
    pending: list[int] = field(init=False)  # bettors who have not bet yet
    bets: dict[int, int] = field(init=False)  # revealed bets of this test
    assisting: list[int] = field(init=False)  # clockwise from the tester's left
    test_chips: list[list[int]] = field(init=False)  # [chip id, face, cancelled]
    modifier: int = field(init=False)  # sum of the activated skills' modifiers
    activated: list[str] = field(init=False)
    claims: list[list[tuple[int, str]]] = field(init=False)  # end-game food per player
    end_reason: str = field(init=False)
    _moved: set[str] = field(init=False, repr=False, default_factory=set)  # for the checks
    _skills_changed: bool = field(init=False, repr=False, default=True)
    _buffer: list[str] = field(init=False, repr=False, default_factory=list)
    _moves: list[tuple[str, int, int]] = field(init=False, repr=False, default_factory=list)

    # -- Set-up --
    def _pin_deck(self, path: str, sha256: str) -> None:
        """A game played with a deck file keeps the file's sha256 in its options (and so in
        its record): the same actions on another deck are another game, so a file changed
        since the game started is refused by name, never replayed into something else."""
        pinned = self.options.setdefault("deck_sha256", sha256)
        if str(pinned).lower() != sha256:
            raise IllegalAction(f"the deck file {path} is not the one this game was played "
                                f"with: its sha256 is {sha256[:16]}..., the game's "
                                f"{str(pinned)[:16]}... (the file has changed since)")

    def setup(self) -> None:
        """Rulebook "Setup": colours, skills, cheese, jobs, food, market, bag, first player."""
        path = deck_file(self.options.get("deck"))
        d = self.data = load_data(path)
        if path is not None:
            self._pin_deck(path, d.sha256)
        n, rng = self.players, self.rng
        self.colours = rng.sample(list(d.colours), n)  # "Randomly distribute a player chip"
        self.skills = [list(d.starting[c]) for c in self.colours]  # 3 starting skills
        self.covered = [set() for _ in range(n)]
        self.stash = [d.start_cheese] * n  # "Each player takes 3 cheese"
        self.supply = d.cheese_total - d.start_cheese * n
        self.stacks = {j: list(d.stacks[j]) for j in d.jobs}  # A1 on top ... A5
        self.obstacle_cheese = {}
        length = d.track_length
        self.track = {j: [None] * (length + 1) for j in d.jobs}
        self.pos = {j: [0] * n for j in d.jobs}
        self.food = {}
        pools = {v: list(names) for v, names in d.food.items()}
        for j in d.jobs:  # "For each job randomly select a 12, 6 and 3 point food item"
            items = []
            for value in sorted(pools, reverse=True):
                item = pools[value].pop(rng.randrange(len(pools[value])))
                items.append((value, item))
            self.food[j] = items
        self.deck = list(d.upgrades)
        rng.shuffle(self.deck)  # "Shuffle the upgrade skill cards"
        self.market = [self.deck.pop() for _ in range(min(d.market_size, len(self.deck)))]
        self.bag = [c.id for c in d.chips]  # "Place all modifier chips in the bag"
        self.center = []
        self.tester = rng.randrange(n)  # "Randomly determine a starting player"
        self.turn = 1
        self.claims = [[] for _ in range(n)]
        self.end_reason = ""
        self._reset_test()
        self.phase = SELECT
        for p in range(n):
            names = ", ".join(d.skills[k].name for k in self.skills[p])
            self.log(f"{seat(p)} is {self.colours[p]} with {names} and {d.start_cheese} cheese.")
        for j in d.jobs:
            foods = ", ".join(f"{item} ({v})" for v, item in self.food[j])
            self.log(f"Job {j} ({d.job_names[j]}) pays {foods}.")
        self.log("Market: " + ", ".join(d.skills[k].name for k in self.market) + ".")
        self.log(f"{seat(self.tester)} goes first and takes the bag.")

    def _reset_test(self) -> None:
        self.obstacle = None
        self.sealed = {}
        self.pending = []
        self.bets = {}
        self.assisting = []
        self.test_chips = []
        self.modifier = 0
        self.activated = []

    # -- protocol --
    def to_act(self) -> list[int]:
        if self.phase == BET:
            return list(self.pending)
        if self.phase == OVER:
            return []
        return [self.tester]

    def is_over(self) -> bool:
        return self.phase == OVER

    def parse(self, player: int, text: str) -> Action:
        from mobadj.cards.miceheist.parser import parse_command

        return parse_command(self, player, text)

    def legal_actions(self, player: int) -> list[Any]:
        phase = self.phase
        if phase == BET:
            if player not in self.pending:
                return []
            cov = self.covered[player]
            covered = tuple(k for k in self.skills[player] if k in cov) if cov else ()
            return _bet_options(self.stash[player], covered)
        if phase == OVER or player != self.tester:
            return []
        if phase == SELECT:
            return [_interned(Select, j) for j in self.data.jobs if self.stacks[j]]
        if phase == ACTIVATE:
            return self._legal_uses(player)
        # LEARN
        acts: list[Any] = [_interned(Learn)]
        full = len(self.skills[player]) >= self.data.max_skills
        for key in self.market:
            if full:
                acts.extend(_interned(Learn, key, old) for old in self.skills[player])
            else:
                acts.append(_interned(Learn, key))
        return acts

    def _legal_uses(self, player: int) -> list[Any]:
        acts: list[Any] = [_TEST]
        if self.stash[player] < 1:
            return acts
        ob = self.obstacle
        assert ob is not None
        covered = self.covered[player]
        live = [i + 1 for i, c in enumerate(self.test_chips) if not c[2]]
        targeting = self.data.targeting[ob.id]
        plain = _PLAIN_USES
        for k in self.skills[player]:
            if k in covered:
                continue
            if k in targeting:
                acts.extend(_use(k, i) for i in live)
            else:
                acts.append(plain.get(k) or _use(k))
        return acts

    def _apply(self, player: int, action: Any) -> None:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"not a Mice Heist action: {action!r}")
        try:
            handler(self, player, action)
        finally:
            if self._buffer:
                self._flush()

    def _say(self, text: str) -> None:
        """A public event; the sentences of one action are logged as one event."""
        self._tell_moves()
        self._buffer.append(text)

    def _tell_moves(self) -> None:
        """Moves on one track, one after another, told in one sentence: "On track A: P3
        moves to space 2, P4 to 3, P1 off the track."."""
        if not self._moves:
            return
        job = self._moves[0][0]
        parts = [f"{seat(p)} {'moves to ' if i == 0 else 'to '}"
                 + (f"space {at}" if at and i == 0 else str(at) if at else "off the track")
                 for i, (_, p, at) in enumerate(self._moves)]
        parts = [p.replace(" to off the track", " off the track") for p in parts]
        self._moves.clear()
        self._buffer.append(f"On track {job}: {', '.join(parts)}.")

    def _flush(self) -> None:
        self._tell_moves()
        if self._buffer:
            self.events.append(Event(" ".join(self._buffer)))  # public, as log(text) would
            self._buffer.clear()

    def history(self, player: int | None) -> list[str]:
        self._flush()
        return super().history(player)

    def need(self, phase: str, what: str, player: int) -> None:
        """Refuse a move of another phase with what the game waits for (the parser asks
        first, so that a skill named at the wrong time is not looked up where it is not)."""
        if self.phase != phase:
            raise IllegalAction(f"you cannot {what} now: {self._phase_text(player)}")

    def _phase_text(self, player: int) -> str:
        """What the game waits for, told to ``player`` (the tester hears of their own move
        in the second person, with what to type)."""
        if player == self.tester and self.phase in (SELECT, ACTIVATE, LEARN):
            if self.phase == SELECT:
                jobs = ", ".join(f"select {j}" for j in self.data.jobs if self.stacks[j])
                return f"you are selecting an obstacle ({jobs})"
            if self.phase == ACTIVATE:
                return "you are activating skills (use a skill, then test)"
            return "you may learn a skill (learn a market skill, or learn nothing)"
        return {
            SELECT: f"{seat(self.tester)} is selecting an obstacle",
            BET: "the other players are betting",
            ACTIVATE: f"{seat(self.tester)} is activating skills",
            LEARN: f"{seat(self.tester)} may learn a skill",
            OVER: "the game is over",
        }[self.phase]

    def not_due_note(self, player: int, action: Any) -> str:
        """After a select the others' sealed bets come before the tester's skills and test;
        after a test or learn that ends the turn, the bag has passed on."""
        if self.phase == BET and player == self.tester:
            bettors = listed([seat(p) for p in self.pending])
            bets = (f"{bettors}'s sealed bet" if len(self.pending) == 1
                    else f"the sealed bets of {bettors}")
            return (f"after your select the other players bet first: {bets}; your skills "
                    "and test come when the bets are revealed")
        if self.phase != OVER and player != self.tester:
            return f"your turn is over: the bag has passed to {seat(self.tester)}"
        return ""

    # -- Select Obstacle --
    def _select(self, player: int, action: Select) -> None:
        """ "Select Obstacle": the top obstacle of any job with obstacles left."""
        self.need(SELECT, "select an obstacle", player)
        stack = self.stacks.get(action.job)
        if not stack:
            jobs = ", ".join(j for j in self.data.jobs if self.stacks[j])
            raise IllegalAction(f"job '{action.job}' has no obstacle to select; choose {jobs}")
        ob = self.obstacle = self.data.obstacles[stack[0]]
        # "Get Help": every other player bets; a player with no cheese at all can only
        # abstain and has nothing to uncover, so they are not asked (ruling R3).
        self.phase = BET
        order = [(player + k) % self.players for k in range(1, self.players)]
        self.pending = [p for p in order if self.stash[p] or self.covered[p]]
        for p in order:
            if p not in self.pending:
                self.sealed[p] = Bet(0)
        text = f"Turn {self.turn}: {seat(player)} selects {ob.text}."
        idle = [p for p in order if p not in self.pending]
        if idle and self.pending:  # (by default everyone else bets)
            text += (" Betting: " + ", ".join(seat(p) for p in self.pending) + "; "
                     + ", ".join(seat(p) for p in idle) + " cannot bet.")
        self._say(text)
        if not self.pending:
            self._reveal()

    # -- Get Help --
    def _bet(self, player: int, action: Bet) -> None:
        """ "Get Help": a secret bet, held sealed until every bettor is in."""
        if self.phase != BET:
            self.need(BET, "bet", player)
        if player not in self.pending:
            raise IllegalAction("you have already bet on this test")
        covered = self.covered[player]
        top = self.stash[player] + len(covered)
        if action.amount < 0 or action.amount > top:
            raise IllegalAction(
                f"you can bet 0 to {top} cheese (stash {self.stash[player]}, "
                f"{len(covered)} on covered skills)"
            )
        if action.uncover:
            for key in action.uncover:
                if key not in covered:
                    raise IllegalAction(f"{self._name(key)} is not one of your covered skills")
            if len(set(action.uncover)) != len(action.uncover):
                raise IllegalAction("name each skill to uncover once")
            limit = max(action.amount, 1)
            if len(action.uncover) > limit:
                raise IllegalAction(f"a bet of {action.amount} uncovers at most {limit} skill(s)")
        self.sealed[player] = action
        self.pending.remove(player)
        self.events.append(Event(f"You seal a bet: {self.bet_text(player, action)}.",
                                 frozenset((player,))))  # private
        if not self.pending:
            self._reveal()

    def _reveal(self) -> None:
        """All bets are in: reveal them together; assisting players' cheese goes to the
        tester's stash (ruling R4); abstainers uncover one covered skill."""
        t = self.tester
        parts = []
        for k in range(1, self.players):
            p = (t + k) % self.players
            bet = self.sealed[p]
            covered = self.covered[p]
            from_skills, from_stash = self.bet_plan(p, bet)
            if bet.amount > 0:
                for s in from_skills:
                    covered.discard(s)
                self.stash[p] -= from_stash
                self.stash[t] += bet.amount
                self.bets[p] = bet.amount
                self.assisting.append(p)
                names = listed([self._name(k) for k in from_skills])
                note = f" (uncovering {names})" if from_skills else ""
                parts.append(f"{seat(p)} bets {bet.amount}{note}")
            else:
                self.bets[p] = 0
                if from_skills:  # "They may return one cheese from one of their covered skills"
                    covered.discard(from_skills[0])
                    self.stash[p] += 1
                    parts.append(f"{seat(p)} abstains and uncovers {self._name(from_skills[0])}")
                else:
                    parts.append(f"{seat(p)} abstains")
        self.sealed = {}
        if parts:
            self._say("Bets revealed: " + "; ".join(parts) + ".")
        # "Draw Chips"
        self._draw(self.data.chips_per_test)
        self.phase = ACTIVATE

    # -- Draw Chips --
    def _draw(self, count: int) -> None:
        """Draw chips with a random face up; an empty bag is refilled from the play area
        (never with this test's chips)."""
        chips = self.data.chips
        drawn = []
        for _ in range(count):
            if not self.bag:
                if not self.center:
                    self._say("No chip is left to draw.")
                    break
                self.bag, self.center = self.center, []
                self._say(f"The bag is empty: {len(self.bag)} chips return from the play area.")
            i = self.rng.randrange(len(self.bag))
            chip = self.bag[i]
            self.bag[i] = self.bag[-1]
            self.bag.pop()
            face = self.rng.randrange(2)
            self.test_chips.append([chip, face, 0])
            drawn.append(f"#{len(self.test_chips)} {chips[chip].labels[face]}")
        if drawn:
            self._say(f"{seat(self.tester)} draws " + ", ".join(drawn) + ".")

    # -- Activate Skills --
    def _use(self, player: int, action: Use) -> None:
        """ "Activate Skills": pay a cheese onto an uncovered skill, then its effects."""
        if self.phase != ACTIVATE:
            self.need(ACTIVATE, "activate a skill", player)
        key = action.skill
        if key not in self.skills[player]:
            raise IllegalAction(f"'{key}' is not one of your skills")
        if key in self.covered[player]:
            raise IllegalAction(f"{self._name(key)} is covered; only uncovered skills activate")
        if self.stash[player] < 1:
            raise IllegalAction("you need a cheese in your stash to activate a skill")
        skill = self.data.skills[key]
        ob = self.obstacle
        assert ob is not None
        if key in self.data.targeting[ob.id]:
            live = [i + 1 for i, c in enumerate(self.test_chips) if not c[2]]
            if action.chip not in live:
                raise IllegalAction(
                    f"{skill.name} needs a chip of this test: "
                    + ", ".join(f"'use {key} on {i}'" for i in live)
                )
        elif action.chip is not None:
            raise IllegalAction(f"{skill.name} does not act on a chip here; say 'use {key}'")
        self.stash[player] -= 1
        self.covered[player].add(key)
        self.activated.append(key)
        self._skills_changed = True
        self._say(f"{seat(player)} activates {skill.name} "
                  f"({', '.join(e.short() for e in skill.effects)}).")
        for e in skill.effects:
            if e.condition is not None and not ob.meets(e.condition):
                continue
            kind = e.kind
            if kind == "bonus":
                self.modifier += e.value
            elif kind == "per_icon":
                self.modifier += e.value * len(ob.icons)
            elif kind == "per_assist":
                self.modifier += e.value * len(self.assisting)
            elif kind == "flip":
                c = self.test_chips[action.chip - 1]  # type: ignore[operator]
                c[1] ^= 1
                self._say(f"Chip #{action.chip} flips to {self.data.chips[c[0]].label(c[1])}.")
            elif kind == "cancel":
                self.test_chips[action.chip - 1][2] = 1  # type: ignore[operator]
                self._say(f"Chip #{action.chip} is set aside and counts 0.")
            elif kind == "draw":
                self._draw(e.value)
            elif kind == "gain":
                got = min(e.value, self.supply)
                self.supply -= got
                self.stash[player] += got
                if got < e.value:
                    self._say(self._short_supply(e.value, got, f"for {seat(player)}"))
            elif kind == "advance":
                self._move(ob.job, player, e.value)
            elif kind == "retreat":
                self._move(ob.job, player, -e.value)
            elif kind == "bounty":
                got = min(e.value, self.supply)
                self.supply -= got
                self.obstacle_cheese[ob.id] = self.obstacle_cheese.get(ob.id, 0) + got
                if got < e.value:
                    self._say(self._short_supply(e.value, got, f"goes on {ob.id}"))

    def _short_supply(self, wanted: int, got: int, to: str) -> str:
        """A skill's cheese that the supply could not give (R12), said so that a shown "+1
        cheese" or "2 cheese bounty" that never came is not taken for a bug: "The supply is
        empty: no cheese for P4." or "The supply had only 1 cheese: 1 for P4, not 2."."""
        if not got:
            return f"The supply is empty: no cheese {to}."
        return f"The supply had only {got} cheese: {got} {to}, not {wanted}."

    def rating(self) -> int:
        """ "Calculate Result": the chips of this test plus the activated skills' modifiers."""
        chips = self.data.chips
        total = self.modifier
        for chip, face, cancelled in self.test_chips:
            if not cancelled:
                total += chips[chip].faces[face]
        return total

    # -- Calculate Result and Resolve --
    def _test(self, player: int, action: Test | None = None) -> None:
        self.need(ACTIVATE, "test", player)
        ob = self.obstacle
        assert ob is not None
        rating = self.rating()
        success = rating >= ob.target  # "less than the target rating you failed"
        verdict = "succeeds" if success else "fails"
        self._say(f"{seat(player)} {verdict}: rating {rating} against target {ob.target}.")
        if success:
            self._success(player, ob)
            return
        # "Failure": each assisting player takes one cheese from the supply (clockwise, while
        # the supply lasts: ruling R12) ...
        got = self.assisting[:self.supply]
        for p in got:
            self.supply -= 1
            self.stash[p] += 1
        if self.assisting:
            self._say(self._helpers_paid(got))
        if self.market:  # ... you may learn one skill from market ...
            self.phase = LEARN
        else:
            self._after_failure(player, ob)

    def _helpers_paid(self, got: list[int]) -> str:
        """What the assisting players of a failed test got: a cheese each while the supply
        lasted (R12), naming those who got none."""
        short = [seat(p) for p in self.assisting if p not in got]
        if not got:
            return f"The supply is empty: no cheese for the assisting players ({listed(short)})."
        takers = listed([seat(p) for p in got])
        text = (f"{takers} take a cheese each" if len(got) > 1 else f"{takers} takes a cheese")
        if not short:
            return f"{text} from the supply."
        return (f"{text} from the supply, which is then empty: {listed(short)} "
                f"get{'s' if len(short) == 1 else ''} none.")

    def _success(self, player: int, ob: Obstacle) -> None:
        """ "Success": the obstacle's cheese, assisting players' gains (clockwise), payout."""
        got = self.obstacle_cheese.pop(ob.id, 0)
        if got:
            self.stash[player] += got
            self._say(f"{seat(player)} takes the {got} cheese on {ob.id}.")
        for p in self.assisting:  # "one player at a time in clockwise order"
            self._move(ob.job, p, self.bets[p])
        self._move(ob.job, player, ob.payout)
        # "Advance Obstacle": beating a finale obstacle ends the game.
        if ob.finale:
            self.stacks[ob.job].remove(ob.id)
            self._end(f"{seat(player)} beat the finale {ob.id}")
            return
        self._advance(ob)

    def _learn(self, player: int, action: Learn) -> None:
        """ "Failure": you may learn one skill from the market (max 6, discard one first)."""
        self.need(LEARN, "learn a skill", player)
        ob = self.obstacle
        assert ob is not None
        if action.skill is not None:
            if action.skill not in self.market:
                raise IllegalAction(f"'{action.skill}' is not in the market")
            mine = self.skills[player]
            if len(mine) >= self.data.max_skills:
                if action.discard is None:
                    raise IllegalAction(
                        f"you have {len(mine)} skills: add 'discard <skill>' to return one "
                        "to the box first"
                    )
                if action.discard not in mine:
                    raise IllegalAction(f"'{action.discard}' is not one of your skills")
            elif action.discard is not None:
                raise IllegalAction("you have room for the skill; do not discard one")
            if action.discard is not None:
                mine.remove(action.discard)
                if action.discard in self.covered[player]:  # its cheese goes back (ruling R9)
                    self.covered[player].discard(action.discard)
                    self.supply += 1
                self._say(f"{seat(player)} returns {self._name(action.discard)} to the box.")
            self.market.remove(action.skill)
            mine.append(action.skill)
            self._skills_changed = True
            self._say(f"{seat(player)} learns {self._name(action.skill)}.")
            if self.deck:  # "deal out a new one from the deck to replace it"
                new = self.deck.pop()
                self.market.append(new)
                self._say(f"{self._name(new)} joins the market.")
        else:
            self._say(f"{seat(player)} learns no skill.")
        self._after_failure(player, ob)

    def _after_failure(self, player: int, ob: Obstacle) -> None:
        self._move(ob.job, player, 1)  # "Increase your place ... by 1"
        if ob.finale:  # "Failure: ... the obstacle remains in play"
            self._cleanup()
        else:
            self._advance(ob)

    # -- Advance Obstacle and Cleanup --
    def _advance(self, ob: Obstacle) -> None:
        """Return a non-finale obstacle to the box; its cheese goes to the supply."""
        self.stacks[ob.job].remove(ob.id)
        self.supply += self.obstacle_cheese.pop(ob.id, 0)
        if not self.stacks[ob.job]:  # "End Game": a job has no more obstacles
            self._end(f"job {ob.job} is complete")
            return
        self._cleanup()

    def _cleanup(self) -> None:
        """ "Cleanup": chips to the play area, the bag to the next player clockwise."""
        self.center.extend(c[0] for c in self.test_chips)
        self._reset_test()
        self.tester = (self.tester + 1) % self.players
        self.turn += 1
        self.phase = SELECT

    # -- contribution tracks --
    def _move(self, job: str, player: int, steps: int) -> None:
        self._moved.add(job)
        before = self.pos[job][player]
        after = tracks.move(self.track[job], self.pos[job], player, steps)
        if after != before:
            if self._moves and self._moves[0][0] != job:
                self._tell_moves()
            self._moves.append((job, player, after))

    # -- End Game and Scoring --
    def _end(self, reason: str) -> None:
        """ "End Game & Scoring": food per track in track order, a cheese when none is left."""
        self.center.extend(c[0] for c in self.test_chips)
        self.test_chips = []
        self.end_reason = reason
        self.phase = OVER
        self._say(f"The game ends: {reason}.")
        self._flush()
        for j in self.data.jobs:
            food = list(self.food[j])  # best first: first choice takes the best (ruling R11)
            unpaid = []
            for p in tracks.standing(self.pos[j]):
                if food:
                    value, item = food.pop(0)
                    self.claims[p].append((value, item))
                    self.log(f"Track {j}: {seat(p)} claims {item} ({value}).")
                elif self.supply:
                    self.supply -= 1
                    self.stash[p] += 1
                    self.log(f"Track {j}: {seat(p)} claims a cheese.")
                else:
                    unpaid.append(seat(p))
            if unpaid:  # R12: a claim on an empty supply is lost, and said so
                self.log(f"Track {j}: the supply is empty: no cheese for {listed(unpaid)}.")
            self.food[j] = food
        s = self.scores()
        self.log("Totals: " + ", ".join(f"{seat(p)} {s[p]:g}" for p in range(self.players)) + ".")
        self.log("Winner(s): " + ", ".join(seat(p) for p in self.winners()) + ".")

    def scores(self) -> list[float]:
        """Food value plus the cheese in the stash (cheese on skills does not count)."""
        return [
            float(sum(v for v, _ in self.claims[p]) + self.stash[p]) for p in range(self.players)
        ]

    def winners(self) -> list[int]:
        """Highest total; ties go to the most cheese; still tied, the victory is shared."""
        if not self.is_over():
            return []
        s = self.scores()
        best = max(s)
        tied = [p for p in range(self.players) if s[p] == best]
        most = max(self.stash[p] for p in tied)
        return [p for p in tied if self.stash[p] == most]

    # -- checks, what undo may not cross --
    def check_invariants(self) -> list[str]:
        """Cheese, chips and track markers are conserved; skill limits hold."""
        if self.phase == BET and self.pending:
            return []  # a sealed bet moves nothing until the reveal: nothing new to check
        bad = []
        cheese = sum(self.stash) + self.supply + sum(map(len, self.covered))
        if self.obstacle_cheese:
            cheese += sum(self.obstacle_cheese.values())
        if cheese != self.data.cheese_total or self.supply < 0 or min(self.stash) < 0:
            bad.append(f"cheese not conserved: {cheese} of {self.data.cheese_total}")
        if len(self.bag) + len(self.center) + len(self.test_chips) != len(self.data.chips):
            bad.append("chips not conserved")
        if self.phase in (SELECT, OVER):  # once a turn: broken markers or skills persist
            bad += self._check_tracks_and_skills()
        return bad

    def _check_tracks_and_skills(self) -> list[str]:
        """Markers agree with their spaces, and skill limits hold (what changed only)."""
        bad = []
        for j in self._moved:
            spaces, pos = self.track[j], self.pos[j]
            for p, at in enumerate(pos):
                if at and spaces[at] != p:
                    bad.append(f"track {j}: P{p + 1} marker lost")
            if len(spaces) - spaces.count(None) != len(pos) - pos.count(0):
                bad.append(f"track {j}: markers out of step")
        self._moved.clear()
        if self._skills_changed:
            limit = self.data.max_skills
            for p, mine in enumerate(self.skills):
                if len(mine) > limit or not self.covered[p].issubset(mine):
                    bad.append(f"P{p + 1} skills out of bounds")
            self._skills_changed = False
        return bad

    def hidden_from(self, player: int) -> Counter[tuple[str, Any]]:
        """The face-down upgrade deck, the bag, and the other players' sealed bets."""
        hidden: Counter[tuple[str, Any]] = Counter(("upgrade deck", k) for k in self.deck)
        hidden.update(("bag", c) for c in self.bag)
        hidden.update((f"{seat(q)} sealed bet", str(b)) for q, b in self.sealed.items()
                      if q != player)
        return hidden

    # -- views --
    def _name(self, key: str) -> str:
        skill = self.data.skills.get(key)
        return skill.name if skill else key

    def bet_plan(self, player: int, bet: Bet) -> tuple[list[str], int]:
        """Where ``player``'s ``bet`` takes its cheese at the reveal: the covered skills it
        uncovers, those named first, then the others in the order they lie (ruling R4), and
        the cheese from the stash; an abstainer uncovers the one named, or the first (R5).
        Nothing else the bettor holds changes while bets are sealed, so the plan told at
        sealing is what the reveal does."""
        covered = self.covered[player]
        if not covered:
            return [], bet.amount
        order = list(bet.uncover) + [s for s in self.skills[player]
                                     if s in covered and s not in bet.uncover]
        if not bet.amount:
            return order[:1], 0
        skills = order[:bet.amount]
        return skills, bet.amount - len(skills)

    def bet_text(self, player: int, bet: Bet) -> str:
        """A sealed bet in words, for its bettor, as the reveal will carry it out:
        ``2 cheese, uncovering Long Jump and Dig In``, ``3 cheese, uncovering Dig In and 2
        from your stash``, ``none (you abstain), uncovering Dig In``."""
        skills, stash = self.bet_plan(player, bet)
        names = listed([self._name(k) for k in skills])
        if not bet.amount:
            return "none (you abstain)" + (f", uncovering {names}" if skills else "")
        if not skills:
            return f"{bet.amount} cheese from your stash"
        return (f"{bet.amount} cheese, uncovering {names}"
                + (f"; {stash} from your stash" if stash else ""))

    def _names(self, keys: list[str]) -> str:
        return ", ".join(self._name(k) for k in keys)

    def view(self, player: int | None) -> dict[str, Any]:
        from mobadj.cards.miceheist.render import view

        return view(self, player)

    def render(self, player: int | None) -> str:
        from mobadj.cards.miceheist.render import render

        return render(self, player)

    def screen(self, player: int) -> str:
        from mobadj.cards.miceheist.render import render_screen

        return render_screen(self, player)

    def explain(self, player: int, topic: str) -> str:
        from mobadj.cards.miceheist.render import explain

        return explain(self, player, topic)


_HANDLERS: dict[type, Callable[[MiceHeistState, int, Any], None]] = {
    Select: MiceHeistState._select,
    Bet: MiceHeistState._bet,
    Use: MiceHeistState._use,
    Test: MiceHeistState._test,
    Learn: MiceHeistState._learn,
}
