"""Undo a person can use, at the terminal: the bots wait for Enter while a human's move may
still be taken back; "nothing to undo" says why; in hot-seat the move is taken back at the
hand-over; and Iron Triangle's windows for talk and for showing a card give a human a prompt
before a bot's move closes them."""

from __future__ import annotations

import re

from mobadj.cards.registry import game_class
from mobadj.cards.terminal import UNDO_PAUSE, Session, window_message


class Keys:
    """Typed answers in order; Enter once they run out (and at every other prompt)."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers  # prompt pattern -> answers, in order
        self.prompts: list[str] = []
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        for pattern, queue in self.answers.items():
            if re.fullmatch(pattern, prompt) and queue:
                return queue.pop(0)
        if re.fullmatch(r"P\d+> ", prompt):
            return "quit"
        return ""

    def write(self, text: str) -> None:
        self.out.extend(text.split("\n"))


def _seed(game: str, players: int, test) -> int:
    return next(s for s in range(200) if test(game_class(game).new(players, s)))


def test_the_bots_wait_while_a_move_may_be_taken_back() -> None:
    """micro mob, P1 against a bot: P1's first draft may be taken back, so the bot waits."""
    state = game_class("micromob").new(2, 3)
    first = str(state.legal_actions(0)[0])
    keys = Keys({r"P1> ": [first], r"P1 \(Enter: play on\)> ": ["undo"]})
    session = Session.new("micromob", 2, 3, {1}, read=keys.read, write=keys.write)
    session.run()
    assert keys.prompts[:3] == ["P1> ", "P1 (Enter: play on)> ", "P1> "]
    assert UNDO_PAUSE in keys.out and "Undone." in keys.out
    assert session.state.actions == []  # the bot never moved
    # Enter: the bot plays on, and P1's move stands
    keys = Keys({r"P1> ": [first]})
    session = Session.new("micromob", 2, 3, {1}, read=keys.read, write=keys.write)
    session.run()
    assert session.state.actions[0] == (0, first) and session.state.actions[1][0] == 1


def test_no_pause_for_a_move_that_cannot_be_taken_back() -> None:
    """Mice Heist: the last bet draws the chips; the bots do not wait for it."""
    seed = _seed("miceheist", 2, lambda s: s.tester == 1)
    keys = Keys({r"P1> ": ["bet 0"]})
    session = Session.new("miceheist", 2, seed, {1}, read=keys.read, write=keys.write)
    session.run()
    assert "P1 (Enter: play on)> " not in keys.prompts


def test_nothing_to_undo_says_why() -> None:
    keys = Keys({r"P1> ": ["undo", "quit"]})
    Session.new("micromob", 2, 3, {1}, read=keys.read, write=keys.write).run()
    assert "! nothing to undo: you have made no move yet" in keys.out
    state = game_class("micromob").new(2, 3)
    first = str(state.legal_actions(0)[0])
    keys = Keys({r"P1> ": [first, "undo", "quit"]})
    Session.new("micromob", 2, 3, {1}, read=keys.read, write=keys.write).run()
    assert "! nothing to undo: P2 has moved since your last move" in keys.out


def test_hot_seat_takes_a_move_back_at_the_hand_over() -> None:
    state = game_class("micromob").new(2, 3)
    first = str(state.legal_actions(0)[0])
    keys = Keys({r"P1> ": [first, "quit"],
                 r"P1: press Enter to hide your screen \(or 'undo' to take your move back\) ":
                     ["undo"]})
    cleared: list[int] = []
    session = Session.new("micromob", 2, 3, set(), read=keys.read, write=keys.write,
                          clear=lambda: cleared.append(len(keys.prompts)))
    session.run()
    hide = next(p for p in keys.prompts if p.startswith("P1: press Enter"))
    # no clear at the undo: the only one is at the quit, after the last prompt
    assert "'undo'" in hide and "Undone." in keys.out and cleared == [len(keys.prompts)]
    assert keys.prompts[keys.prompts.index(hide) + 1] == "P1> "  # P1 again, no hand-over
    assert session.state.actions == []


def test_iron_triangle_gives_a_human_the_word_before_a_bot_boss_picks() -> None:
    """P1 a gangster, the bot the Mob Boss: once every offer is in, P1 may talk before the
    bot picks; and after the pick, P1 may show the offer that was not picked before the bot's
    next job."""
    seed = _seed("irontriangle", 3, lambda s: s.boss != 0)
    said = "say mine is the best"
    keys = Keys({r"P1> ": ["offer 1", "quit"],
                 r"P1 \(Enter: play on\)> ": ["", said, "", "reveal", ""]})
    session = Session.new("irontriangle", 3, seed, {1, 2}, read=keys.read, write=keys.write)
    session.run()
    actions = [a for p, a in session.state.actions if p == 0]
    assert actions[0] == "offer " + actions[0].split(" ", 1)[1] and said in actions
    assert window_message(["say <anything>"]) in keys.out
    picked = session.state.last and session.state.last["chosen"] == 0
    if not picked:
        assert "reveal" in actions
        assert window_message(["reveal"]) in keys.out
    texts = [a for _, a in session.state.actions]
    assert texts.index(said) < next(i for i, a in enumerate(texts) if a.startswith("pick"))


def test_a_game_resumed_where_the_bots_wait_shows_the_table_and_the_move(tmp_path) -> None:
    """P1 drafts, then stops at ``P1 (Enter: play on)>``; resumed days later, the prompt
    comes with P1's screen and the move that waits to be played on or taken back."""
    from mobadj.cards.saves import read_save

    state = game_class("micromob").new(2, 5)
    first = str(state.legal_actions(0)[0])
    path = tmp_path / "po.json"
    keys = Keys({r"P1> ": [first], r"P1 \(Enter: play on\)> ": ["quit"]})
    Session.new("micromob", 2, 5, {1}, read=keys.read, write=keys.write,
                save_to=path).run()
    opened = read_save(path)
    keys = Keys({r"P1 \(Enter: play on\)> ": ["quit"]})
    Session.resume(opened.content, read=keys.read, write=keys.write, save_to=path,
                   key=opened.key, saves=opened.number).run()
    assert keys.prompts[0] == "P1 (Enter: play on)> "
    assert f"Your last move: {first}" in keys.out and UNDO_PAUSE in keys.out
    assert any(line.startswith("Draft pool") for line in keys.out), keys.out
