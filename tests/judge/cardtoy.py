"""A tiny card-protocol game with a *private* free command, to test how the judge relays
free commands: players pass in turn; at any time a player may ``wink P<n>``, seen only by the
two of them.  It relies on the protocol's default ``is_free`` (the command word)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from mobadj.cards.protocol import CommandError, GameInfo, GameState, IllegalAction


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Wink:
    target: int

    def __str__(self) -> str:
        return f"wink P{self.target + 1}"


@dataclass
class WinkState(GameState):
    info: ClassVar[GameInfo] = GameInfo("winktoy", "Wink", 2, 4, False, False, True, "1", "1")
    known_options: ClassVar[dict[str, str] | None] = {"turns": "how many passes end the game"}

    def setup(self) -> None:
        self.turn = 0

    def to_act(self) -> list[int]:
        return [] if self.is_over() else [self.turn % self.players]

    def legal_actions(self, player: int) -> list[Any]:
        return [Pass()] if player in self.to_act() else []

    def free_commands(self, player: int) -> list[str]:
        return [] if self.is_over() else ["wink P<n>"]

    def _apply(self, player: int, action: Any) -> None:
        if isinstance(action, Wink):
            if action.target == player or not 0 <= action.target < self.players:
                raise IllegalAction("wink at another player")
            self.log(f"P{player + 1} winks at P{action.target + 1}",
                     visible_to=[player, action.target])
            return
        self.turn += 1
        self.log(f"P{player + 1} passes")

    def parse(self, player: int, text: str) -> Any:
        words = text.lower().split()
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "wink" and words[1][1:].isdigit():
            return Wink(int(words[1][1:]) - 1)
        raise CommandError("not understood", text=text, expected=["pass", "wink P<n>"])

    def is_over(self) -> bool:
        return self.turn >= int(self.options.get("turns", 6))

    def scores(self) -> list[float]:
        return [0.0] * self.players

    def view(self, player: int | None) -> dict[str, Any]:
        return {"turn": self.turn}

    def render(self, player: int | None) -> str:
        return f"Turn {self.turn}"
