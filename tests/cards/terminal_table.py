"""Players at the terminal front end, in-process: they type random commands (mostly legal,
some mistaken or hostile) and every line the terminal prints is checked against what the
seat at the keyboard may know at that moment.

A printed line must come from what the seat may see (its own view, the events it may see,
the commands it may give, the help, the end report once the game is over) or be an error,
which must name nothing secret: another seat's hand or sealed choice, a draw pile, the seed
or the salt.  The screens are checked too: a different seat's screen only after a cleared
screen (hot-seat hand-over).  Each seat's feed is recorded, to check that every event it
may see is shown to it exactly once, in order.
"""

from __future__ import annotations

import random
import re
import textwrap
from typing import Any

from mobadj.cards import report
from mobadj.cards.protocol import GameState
from mobadj.cards.registry import canonical_name, game_class
from mobadj.cards.terminal import (
    FEED_MARK,
    UNDO_PAUSE,
    Session,
    meta_help,
    window_message,
)

MAX_PROMPTS = 6000
PROMPT = re.compile(r"P(\d+)( \(Enter: play on\))?> ")  # a seat's prompt; where bots wait
EXAMPLES = re.compile(r"\(like [A-Z]\d+\)")  # an error's fixed example ("a card id (like D3)")


def _micromob_secrets(state: Any, viewer: int | None) -> set[str]:
    """Card ids in the draw pile, and with secret hands in the other seats' hands."""
    hidden = set(state.pile)
    for p in range(state.players):
        if p != viewer and not state.hands_public:
            hidden.update(state.hand[p])
    return hidden


def _irontriangle_secrets(state: Any, viewer: int | None) -> set[str]:
    """Names of cards in other hands, the draw pile and others' face-down offers; the other
    seats' secret roles until the end.  The last round's Job, picked and revealed offers
    and the viewer's own offer are known to the viewer wherever they went since (discarded
    before the refill, they may be shuffled and drawn at once)."""
    cards = state.deck.cards
    last = state.last
    known = set()
    if last:
        known = {last["job"], *(last["offers"][p] for p in last["revealed"])}
        if viewer in last["offers"]:
            known.add(last["offers"][viewer])
    if viewer is not None:  # its own hand (a card may have been someone's offer last round)
        known.update(state.hands[viewer])
    hidden = {cards[c].name for c in state.draw_pile if c not in known}
    for p in range(state.players):
        if p == viewer:
            continue
        hidden.update(cards[c].name for c in state.hands[p] if c not in known)
        if p in state.offers:
            hidden.add(cards[state.offers[p]].name)
        last = state.last
        if last and p in last["offers"] and p not in last["revealed"] \
                and last["offers"][p] not in known:
            hidden.add(cards[last["offers"][p]].name)
        if not state.is_over():
            hidden.add(state.deck.roles[state.roles[p]].name)
    return hidden


def _microcity_secrets(state: Any, viewer: int | None) -> set[str]:
    """The competitive Advantage cards still face down in their deck."""
    return {f"Advantage {a}" for a in getattr(state, "adv_deck", [])}


SECRETS = {
    "micromob": _micromob_secrets,
    "irontriangle": _irontriangle_secrets,
    "microcity": _microcity_secrets,
    "miceheist": lambda state, viewer: set(),  # sealed bets are private events: see below
}


def secret_tokens(state: GameState, viewer: int | None) -> set[str]:
    return SECRETS[type(state).info.name](state, viewer)


def hidden_texts(state: GameState, viewer: int | None, feed: list[Any]) -> set[str]:
    """Texts of events ``viewer`` may not see (and no event it may see says the same)."""
    mine = {e.text for e in feed if e.visible(viewer)}
    return {e.text for e in [*state.events, *feed] if not e.visible(viewer)} - mine


def leaks(line: str, state: GameState, viewer: int | None, feed: list[Any],
          typed: str = "") -> list[str]:
    """What secret of the others ``line`` names (for ``viewer``), ignoring what the seat
    typed itself."""
    found = [t for t in hidden_texts(state, viewer, feed) if len(t) >= 12 and t in line]
    line = EXAMPLES.sub("", line)
    said = typed.lower()
    lower = line.lower()
    for token in secret_tokens(state, viewer):
        if token.lower() not in lower or token.lower() in said:  # (the quick test first)
            continue
        if re.search(rf"(?<![\w']){re.escape(token)}(?![\w'])", line, re.I):
            found.append(token)
    return found


class Leak(AssertionError):
    pass


class Table:
    """One game at the terminal with simulated players; :meth:`play` runs it to the end."""

    def __init__(self, game: str, players: int, bots: set[int], number: int,
                 options: dict[str, Any] | None = None, *, mischief: float = 0.15,
                 undo: bool = False) -> None:
        name = canonical_name(game)
        rng = random.Random(f"{name}-{players}-{sorted(bots)}-{number}")
        self.rng = rng
        state = game_class(name).new(players, rng.getrandbits(128), options)
        salt = f"{rng.getrandbits(256):064x}"
        # Micro City's standard bot thinks for a second a game: its first bot plays here
        levels = dict.fromkeys(bots, "basic") if name == "microcity" else None
        self.session = Session(name, state, salt, bots, secret=True, read=self.read,
                               write=self.write, clear=self.clear, bot_levels=levels)
        self.secret_words = (str(state.seed), salt)
        self.mischief = mischief
        self.undo = undo
        self.undone = 0
        self.lines: list[tuple[int | None, str]] = []
        self.prompts = 0
        self.typed = ""
        self.cleared = True
        self.last_viewer: int | None = None
        self._trusted_key: tuple | None = None
        self._trusted: set[str] = set()
        self._visible: dict[int | None, tuple[int, set[str], int]] = {}
        summary = textwrap.fill(report.summary(state), 92).split("\n")
        self.templates = {
            "Since your last turn:", "The game is over. Since your last turn:", "Undone.",
            "(nothing yet)", "Last events:", *meta_help(state).split("\n"), *summary,
            UNDO_PAUSE,
        }

    # -- the players ------------------------------------------------------------------------
    def play(self) -> GameState:
        state = self.session.run()
        assert state.is_over(), "the game did not reach its end"
        return state

    def _memo_render(self) -> None:
        """The board text of a state is the same until it changes: render it once for the
        terminal and the checks (a speed-up only; keyed by viewer and the state's length)."""
        state = self.session.state
        if "render" in vars(state):
            return
        plain = type(state).render
        memo: dict[tuple[int, int, int | None], str] = {}

        def render(viewer: int | None) -> str:
            key = (len(state.actions), len(state.events), viewer)
            if key not in memo:
                memo.clear()
                memo[key] = plain(state, viewer)
            return memo[key]

        state.render = render  # type: ignore[method-assign]

    def read(self, prompt: str) -> str:
        self._memo_render()
        self.prompts += 1
        if self.prompts > MAX_PROMPTS:
            raise AssertionError("the game does not end")
        turn = PROMPT.fullmatch(prompt)
        if turn is None:  # a hand-over, a pause: press Enter (or take the move back)
            self.typed = "undo" if self.undo and self.rng.random() < 0.2 else ""
            return self.typed
        seat = int(turn.group(1)) - 1
        if turn.group(2):  # the bots wait: play on, mostly
            self.typed = self._aside(seat)
        else:
            self.typed = self._command(seat)
        return self.typed

    def _aside(self, seat: int) -> str:
        """At the prompt where the bots wait: Enter, or take the move back, talk, look."""
        roll = self.rng.random()
        if roll < 0.6:
            return ""
        if roll < 0.75 and self.undo:
            return "undo"
        free = self.session.state.free_commands(seat)
        if free and roll < 0.9:
            word = free[0].split()[0]
            return "say psst, over here" if word == "say" else word
        return self.rng.choice(["board", "history", "help", "xyzzy", "done"])

    def _command(self, seat: int) -> str:
        state, rng = self.session.state, self.rng
        legal = [str(a) for a in state.legal_actions(seat)]
        if rng.random() >= self.mischief or not legal:
            free = state.free_commands(seat)
            if free and rng.random() < 0.1:
                word = free[0].split()[0]
                return "say psst, over here" if word == "say" else word
            return rng.choice(legal) if legal else "help"
        others = [q for q in range(state.players) if q != seat]
        q = rng.choice(others)
        theirs = [str(a) for a in state.legal_actions(q)] or ["pass"]
        kind = rng.randrange(10)
        if kind == 0 and rng.random() < 0.5:  # help on a card: in view, or someone's secret
            words = re.findall(r"[A-Z]\d+|[A-Z][a-z]+(?: [A-Z][a-z]+)*", state.screen(seat))
            secret = sorted(secret_tokens(state, seat))
            return "help " + rng.choice(words + secret[:3] or ["x"])
        if kind == 0:
            return rng.choice(["help", "HELP", "?", "Board", "history", "HISTORY"])
        if kind == 1 and self.undo:
            return "undo"
        if kind == 2:
            return rng.choice(theirs)  # another seat's move, typed as one's own
        if kind == 3:
            return f"P{q + 1}: {rng.choice(theirs)}"  # ... or with its seat as prefix
        if kind == 4:
            return f"p{q + 1}: " + rng.choice(["history", "say psst", "reveal", "show"])
        if kind == 5:
            return rng.choice(legal).upper()
        if kind == 6:
            return "P9: say hello"
        junk = ["xyzzy", "hit", "bet", "offer", "start zz", "pass pass", "use", "play 9 to q9",
                "offer Truck Heist", "job Bank Robbery fast", "draft Z99", "select Q", ""]
        if kind == 7:  # a mistaken move of another seat: its error must not show its hand
            return f"P{q + 1}: " + rng.choice(junk)
        return rng.choice(junk)

    # -- the screen -------------------------------------------------------------------------
    def clear(self) -> None:
        self.cleared = True

    def write(self, text: str) -> None:
        self._memo_render()
        viewer = self.session.holder
        if viewer is not None and viewer != self.last_viewer and not self.cleared \
                and self.session.hot_seat:
            raise Leak(f"P{viewer + 1}'s screen follows P{(self.last_viewer or 0) + 1}'s "
                       "without a cleared screen")
        if viewer is not None:
            self.last_viewer = viewer
            self.cleared = False
        for line in text.split("\n"):
            self.check(viewer, line)
            self.lines.append((viewer, line))
            self.undone += line == "Undone."

    def visible(self, viewer: int | None) -> set[str]:
        """Texts of the feed's events ``viewer`` may see (kept up to date as it grows)."""
        feed = self.session.feed
        seen, texts, undone = self._visible.get(viewer, (0, set(), self.undone))
        if undone != self.undone or seen > len(feed):  # an undo shortened the feed
            seen, texts = 0, set()
        texts.update(e.text for e in feed[seen:] if e.visible(viewer))
        self._visible[viewer] = (len(feed), texts, self.undone)
        return texts

    def split_line(self, line: str, texts: set[str] | list[str]) -> list[str] | None:
        """The events of ``texts`` that one feed line is made of, in order (hidden moves told
        together; the sentences of one player's moves in a row); None if it is none."""
        apart = report.told_apart(self.session.state, line)
        if apart is not None:
            return apart if all(t in texts for t in apart) else None
        found: list[str] = []
        rest = line
        while rest:
            match = max((t for t in texts if rest.startswith(t)), key=len, default=None)
            if match is None:
                return None
            found.append(match)
            rest = rest[len(match):]
            if rest.startswith(".") and not match.endswith((".", "!", "?", ")")):
                rest = rest[1:]  # the full stop joined() adds
            if rest:
                if not rest.startswith(" "):
                    return None
                rest = rest[1:]
        return found

    def trusted(self, viewer: int | None, line: str) -> bool:
        """May the seat be shown ``line`` now: from its view, the events it may see, its
        commands, the help; the end report once the game is over?"""
        s = self.session
        state = s.state
        if line in self.templates:
            return True
        if self.typed and viewer is not None and line in (
                f"P{viewer + 1}> {self.typed}", f"P{viewer + 1} (Enter: play on)> {self.typed}"):
            return True  # what the seat typed at its hand-over, shown after its prompt
        texts = self.visible(viewer)
        if line in texts or (line.startswith(FEED_MARK) and line[len(FEED_MARK):] in texts):
            return True
        if line.startswith(FEED_MARK) and self.split_line(line[len(FEED_MARK):],
                                                          texts) is not None:
            return True  # one player's moves, or hidden moves of one kind, in one line
        key = (id(state), len(state.actions), len(s.feed), viewer, state.is_over())
        if key != self._trusted_key:
            lines: set[str] = set()
            if viewer is not None:
                lines.update(state.render(viewer).split("\n"))
                lines.update(state.screen(viewer).split("\n"))
                lines.add(s._free_hint(viewer))
                lines.add(s._prefix_help(viewer))
                lines.add(window_message(state.free_commands(viewer)))
            if state.is_over():
                lines.update(report.end_report(state))
                lines.update(report.seed_lines(s.record, s.secret))
                lines.add(f"=== {state.info.title}: the end ===")
            self._trusted_key, self._trusted = key, lines
        return line in self._trusted

    def check(self, viewer: int | None, line: str) -> None:
        s = self.session
        state = s.state
        who = "the table" if viewer is None else f"P{viewer + 1}"
        if not state.is_over():
            for word in self.secret_words:
                if word in line:
                    raise Leak(f"{who} is shown the seed or salt: {line!r}")
        if self.trusted(viewer, line):
            return
        if viewer is not None and line in (
                "You can: " + ("; ".join(str(a) for a in state.legal_actions(viewer))
                               or "nothing now"),
                "Also, out of turn: " + "; ".join(state.free_commands(viewer))):
            return
        word, _, topic = self.typed.partition(" ")
        if viewer is not None and word.lower() in ("help", "?") and topic and line in \
                state.explain(viewer, topic).split("\n"):  # help CARD: shown, never a secret
            found = leaks(line, state, viewer, s.feed, self.typed)
            if found:
                raise Leak(f"{who} is shown {found} in {line!r} (typed {self.typed!r})")
            return
        opening = not state.actions and viewer is None
        if not (line.startswith("! ") or opening):
            raise Leak(f"{who} is shown a line from nowhere it may see: {line!r}")
        found = leaks(line, state, viewer, s.feed, self.typed if line.startswith("! ") else "")
        if found:
            raise Leak(f"{who} is shown {found} in {line!r} (typed {self.typed!r})")

    # -- the feed ---------------------------------------------------------------------------
    def feed_problems(self) -> dict[int, tuple[int, int]]:
        """Per human seat: (missing, repeated) events of its feed; all zero when each event
        it may see was shown to it exactly once, in order."""
        s = self.session
        out = {}
        for p in s.humans:
            mine = {e.text for e in s.feed if e.visible(p)}
            shown = [text for v, line in self.lines if v == p and line.startswith(FEED_MARK)
                     for text in (self.split_line(line[len(FEED_MARK):], mine)
                                  or [line[len(FEED_MARK):]])]
            expected = [e.text for e in s.feed
                        if e.visible(p) and not report.superseded(s.state, e)]
            missing = repeated = 0
            rest = list(shown)
            for text in expected:
                if text in rest:
                    rest.remove(text)
                else:
                    missing += 1
            repeated = len(rest)
            if not missing and not repeated:
                assert shown == expected, f"P{p + 1}'s feed is out of order"
            out[p] = (missing, repeated)
        return out
