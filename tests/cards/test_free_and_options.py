"""Protocol: free commands (out of turn) at the terminal and in ``apply``, and the refusal
of unknown game options for games that list theirs (``known_options``)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.protocol import GameState, IllegalAction
from mobadj.cards.terminal import play_terminal
from mobadj.cli import main
from mobadj.judge.cardhost import CardHost
from mobadj.judge.hosts import HostError


class Scripted:
    """A ``read`` that checks whose prompt it is and answers the next scripted line."""

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines = list(lines)
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        if not prompt.endswith("> "):  # hot-seat: the screen is handed over
            return ""
        if not self.lines:
            return "quit"
        seat, text = self.lines.pop(0)
        assert prompt == f"P{seat + 1}> ", (prompt, text)
        return text

    def write(self, text: str) -> None:
        self.out.append(text)


def _round_script(seed: int) -> tuple[list[tuple[int, str]], dict[str, Any]]:
    """A round of a 3-player game at the terminal, found on a copy of the same game: table
    talk by a gangster at the boss's prompt, then a reveal at the next boss's prompt."""
    s = IronTriangleState.new(3, seed)
    boss = s.boss
    lines = [(boss, "job 1 cheap")]
    s.command(boss, "job 1 cheap")
    gangsters = list(s.to_act())
    for g in gangsters:
        lines.append((g, "offer 1"))
        s.command(g, "offer 1")
    talker, other = gangsters
    lines += [(boss, f"P{talker + 1}: say I can do it cheap"),
              (boss, f"P{boss + 1}: reveal"),  # not free for the boss: refused with a reason
              (boss, "help"),
              (boss, f"pick P{talker + 1}")]
    s.command(talker, "say I can do it cheap")
    s.command(boss, f"pick P{talker + 1}")
    # then: a reveal by another seat, another seat's move (refused), a seat that is not there
    lines += [(s.boss, f"P{other + 1}: reveal"),
              (s.boss, f"P{next(p for p in range(3) if p != s.boss) + 1}: job 1 fast"),
              (s.boss, "P9: say hello")]
    return lines, {"boss": boss, "talker": talker, "other": other, "next": s.boss}


def test_hot_seat_players_give_free_commands_with_a_seat_prefix() -> None:
    lines, who = _round_script(seed=5)
    script = Scripted(lines)
    state = play_terminal("irontriangle", 3, 5, bots=set(), read=script.read,
                          write=script.write)
    text = "\n".join(script.out)
    talker, other = who["talker"], who["other"]
    assert (talker, "say I can do it cheap") in state.actions
    assert (other, "reveal") in state.actions
    # the talk is shown to the player at the prompt as a public event
    assert f"  - P{talker + 1} says: I can do it cheap" in script.out
    assert f"  - P{other + 1} reveals the offer that was not picked: " in text
    # the prompt names what the others may do out of turn, and how
    hint = "Out of turn (type 'P<n>: <command>'): "
    assert any(line.startswith(hint) and f"P{talker + 1} say <anything>" in line
               for line in script.out)
    assert "Also, out of turn: say <anything>" in script.out  # help at the boss's prompt
    assert "! you have no face-down offer from the last round to reveal" in script.out
    assert any(line.startswith(f"! P{who['next'] % 3 + 1}") or "may give only table commands"
               in line for line in script.out)  # another seat's move: not by prefix
    assert "! there is no player P9" in script.out
    assert not state.is_over() and script.lines == []


def test_apply_lets_only_free_commands_through_out_of_turn() -> None:
    s = IronTriangleState.new(3, 2)
    s.command(s.boss, "job 1 good")
    for g in list(s.to_act()):
        s.command(g, "offer 1")
    g = next(p for p in range(3) if p != s.boss)
    assert s.free_commands(g) == ["say <anything>"]
    assert s.free_commands(s.boss) == ["say <anything>"]
    with pytest.raises(IllegalAction, match=r"only the Mob Boss picks an offer, and P\d is "
                                            r"the Mob Boss \(you may now: say <anything>\)"):
        s.command(g, f"pick P{g + 1}")
    with pytest.raises(IllegalAction, match="not your turn: there is no player P7"):
        s.command(6, "say hi")


_OPTIONS = {"deck": "which deck file", "speed": "fast or slow"}


def test_default_is_free_matches_the_command_word() -> None:
    class Action:
        def __init__(self, text: str) -> None:
            self.text = text

        def __str__(self) -> str:
            return self.text

    class Game:
        free_commands = staticmethod(lambda player: ["say <anything>", "reveal"])

    assert GameState.is_free(Game(), 0, Action("say hello"))  # type: ignore[arg-type]
    assert GameState.is_free(Game(), 0, Action("Reveal"))  # type: ignore[arg-type]
    assert not GameState.is_free(Game(), 0, Action("pick P2"))  # type: ignore[arg-type]
    assert GameState.free_commands(Game(), 0) == []  # type: ignore[arg-type]


def test_unknown_options_are_refused_with_a_did_you_mean() -> None:
    with pytest.raises(IllegalAction, match="unknown option 'modules' for Mobsters of the Iron "
                                            "Triangle; its options: refill"):
        IronTriangleState.new(4, 1, {"modules": 3})
    with pytest.raises(IllegalAction, match="refill=after_dicsard is not known; expected "
                                            "after_discard or before_discard "
                                            r"\(did you mean 'after_discard'\?\)"):
        IronTriangleState.new(4, 1, {"refill": "after_dicsard"})

    class Plain(IronTriangleState):
        known_options: ClassVar[dict[str, str] | None] = {}

    with pytest.raises(IllegalAction, match="it takes no options"):
        Plain.new(4, 1, {"refill": "before_discard"})

    class WithDeck(IronTriangleState):
        known_options: ClassVar[dict[str, str] | None] = _OPTIONS

    with pytest.raises(IllegalAction, match=r"unknown option 'dek' .*\(did you mean 'deck'\?\); "
                                            r"its options: deck, speed"):
        WithDeck.new(4, 1, {"dek": "x"})
    assert WithDeck.new(4, 1, {"deck": "x"}).options == {"deck": "x"}
    assert GameState.known_options is None  # games that check their own options: unchanged


def test_unknown_options_are_refused_by_the_judge_and_the_cli() -> None:
    with pytest.raises(HostError, match="unknown option 'modules'"):
        CardHost("irontriangle").new_state(["P1", "P2", "P3"], 1, {"game_modules": "2"})
    result = CliRunner().invoke(main, ["play", "irontriangle", "--players", "3",
                                       "--option", "modulse=2"])
    assert result.exit_code != 0 and "unknown option 'modulse'" in result.output
    assert "Traceback" not in result.output
