"""A screen that fits: every game at every player count, played at a terminal of 24 rows of
80 columns.  What one acts on (the game's short screen) takes at most 16 rows (18 for Micro
City's competitive mode with all three expansions), no printed row is wider than the
terminal, nothing printed between two prompts overflows the screen (a long stretch pauses:
``-- more --``), and the screen a seat is prompted at shows the whole of what it acts on,
right above the prompt.  After a move, what changed and what one acts on fit on one screen
without a pause at least 85 % of the time at two to four players (micro mob, Mice Heist),
three to five (Iron Triangle) and in Micro City; at more players a busy round between two
of a player's turns takes a screen of its own."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from mobadj.cards.screen import Pager
from mobadj.cards.terminal import Session

WIDTH, HEIGHT = 80, 24
MAX_SCREEN = 16
BUSY = {("micromob", 5), ("micromob", 6), ("miceheist", 5), ("miceheist", 6),
        ("irontriangle", 6)}  # where a round may take a screen of its own
TURN = re.compile(r"P(\d+)> ")
TABLES: list[tuple[str, int, dict[str, Any] | None]] = [
    *(("micromob", n, None) for n in range(2, 7)),
    ("micromob", 4, {"hands": "secret"}), ("micromob", 6, {"hands": "secret"}),
    *(("miceheist", n, None) for n in range(2, 7)),
    *(("irontriangle", n, None) for n in range(3, 7)),
    ("microcity", 1, None), ("microcity", 1, {"mode": "extended"}),
    ("microcity", 1, {"mode": "challenge", "building": "random"}),
    ("microcity", 1, {"expansions": "logistics,seaport,garden"}),
    ("microcity", 2, None), ("microcity", 2, {"mode": "competitive"}),
    ("microcity", 2, {"mode": "competitive", "expansions": "logistics,seaport,garden"}),
]


class Terminal:
    """A terminal of 24 x 80 and one person at it (P1, the other seats bots; Micro City solo
    and cooperative: every seat at the keyboard), typing random legal moves, sometimes
    ``board`` or ``help``."""

    def __init__(self, game: str, players: int, options: dict[str, Any] | None,
                 seed: int) -> None:
        self.rng = random.Random(seed)
        self.max_screen = MAX_SCREEN + 2 * (len(str((options or {}).get("expansions", "")))
                                           > 20)
        bots = set() if game == "microcity" and players == 2 and not options else set(
            range(1, players))
        levels = dict.fromkeys(bots, "basic") if game == "microcity" else None  # (fast)
        self.session = Session.new(game, players, seed, bots, options, read=self.read,
                                   write=self.write, size=(WIDTH, HEIGHT), bot_levels=levels)
        self.rows: list[str] = []  # printed since the last prompt
        self.screens = self.paused = self.longest = 0
        self.widest = 0
        self.asked_for = False  # the last command asked for a long text (board, help)

    def write(self, row: str) -> None:
        assert "\n" not in row
        self.widest = max(self.widest, len(row))
        self.rows.append(row)

    def read(self, prompt: str) -> str:
        shown = len(self.rows) + 1
        assert shown <= HEIGHT, (prompt, self.rows)
        self.longest = max(self.longest, shown)
        rows, self.rows = self.rows, []
        if prompt == Pager.MORE:
            self.paused += not self.asked_for and self.screens > 0  # (not the opening)
            return ""
        turn = TURN.fullmatch(prompt)
        if turn is None:
            return ""
        seat = int(turn.group(1)) - 1
        state = self.session.state
        screen = [row for line in state.screen(seat).split("\n")
                  for row in self.session.pager_rows(line)]
        assert len(screen) <= self.max_screen, screen
        if not self.asked_for:  # what one acts on, whole, right above the prompt
            self.screens += 1
            at = rows.index(screen[0], max(0, len(rows) - len(screen) - 4))
            assert rows[at:at + len(screen)] == screen, (rows, screen)
        roll = self.rng.random()
        self.asked_for = roll < 0.06
        if self.asked_for:
            return self.rng.choice(["board", "help", "history"])
        return str(self.rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_every_screen_fits_24_rows_of_80_columns(game, players, options) -> None:
    screens = paused = 0
    for seed in range(4):
        terminal = Terminal(game, players, options, seed)
        assert terminal.session.run().is_over() and terminal.widest <= WIDTH
        screens += terminal.screens
        paused += terminal.paused
    assert screens > 20
    if (game, players) not in BUSY:
        assert paused <= screens * 0.15, (paused, screens)


def test_the_end_of_input_at_a_pause_saves_the_game(tmp_path) -> None:
    """A small screen pauses at once; the input ends there: no traceback, the game is saved
    there and the session stops."""
    answers = ["", ""]
    out: list[str] = []

    def ended(prompt: str) -> str:
        if not answers:
            raise EOFError
        return answers.pop()

    path = tmp_path / "g.json"
    session = Session.new("micromob", 6, 3, {1, 2, 3, 4, 5}, read=ended, write=out.append,
                          size=(80, 10), save_to=path)
    assert not session.run().is_over()
    assert any(line.startswith("Game saved to") for line in out) and path.exists()


def test_micro_mob_names_the_hands_the_table_shows() -> None:
    """Hands are public (the ruling): the short screen names each other seat's goons while
    its row fits one line, and counts them when they are secret."""
    from mobadj.cards.registry import game_class

    for options in (None, {"hands": "secret"}):
        state = game_class("micromob").new(3, 8, options)
        while state.phase == "draft":
            state.command(state.current, f"draft {state.pool[0]}")
        p = state.current
        other = (p + 1) % 3
        row = next(r for r in state.screen(p).split("\n") if r.startswith(f"P{other + 1}:"))
        named = " ".join(state.hand[other])
        assert (f"hand {named}," in row) is (options is None), row
        if options:
            assert f"hand {len(state.hand[other])}," in row
