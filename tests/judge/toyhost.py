"""A tiny simultaneous game used to test the judge's own logic apart from any engine.

Seats NORTH, EAST, SOUTH, WEST; each turn every seat orders ``hold`` or ``go N`` (1-9);
resolution adds N to the seat's score; the game ends after ``turns`` turns (option).
A missing seat holds (the default).  Each seat also has a secret (its private text).
"""

from __future__ import annotations

import difflib
from typing import Any

from mobadj.judge.hosts import Check, Host, Resolution

SEATS = ["NORTH", "EAST", "SOUTH", "WEST"]


class ToyHost(Host):
    kind = "toy"
    title = "Toy"

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SEATS)

    def rule_options(self) -> dict[str, tuple[Any, ...]]:
        return {"turns": ()}  # how many turns the game lasts (any number)

    def new_state(self, seats: list[str], seed: int, options: dict[str, Any]) -> Any:
        return {"turn": 1, "scores": {s: 0 for s in SEATS}, "turns": int(options.get("turns", 5)),
                "secret": {s: f"secret-{s.lower()}-{seed % 1000}" for s in SEATS}}

    def phase(self, state: Any) -> str:
        return f"T{state['turn']}"

    def phase_label(self, state: Any) -> str:
        return f"Turn {state['turn']}"

    def due(self, state: Any) -> list[str]:
        return [] if self.is_over(state) else list(SEATS)

    def check(self, state: Any, seat: str, text: str) -> Check:
        out = Check()
        for number, line in enumerate(text.splitlines(), start=1):
            words = line.lower().split()
            if not words:  # the mail's other lines are left empty: they keep their numbers
                continue
            if words == ["hold"]:
                out.accepted.append("hold")
            elif len(words) == 2 and words[0] == "go" and words[1] in "123456789":
                out.accepted.append(f"go {words[1]}")
            else:
                near = difflib.get_close_matches(words[0] if words else "", ["hold", "go"], 1)
                hint = f" (did you mean '{near[0]}'?)" if near else ""
                out.errors.append(f"line {number}: cannot read {line!r}; expected 'hold' or "
                                  f"'go N'{hint}")
        return out

    def resolve(self, state: Any, orders: dict[str, str], missing: list[str]) -> Resolution:
        scores = dict(state["scores"])
        lines = []
        for seat in SEATS:
            text = orders.get(seat, "")
            n = sum(int(w.split()[1]) for w in text.splitlines() if w.startswith("go "))
            scores[seat] += n
            shown = text.replace("\n", ", ") or "hold (no orders)"
            lines.append(f"{seat}: {shown} -> {scores[seat]}")
        new = dict(state, turn=state["turn"] + 1, scores=scores)
        over = new["turn"] > new["turns"]
        return Resolution(new, "\n".join(lines), {"scores": scores},
                          private={s: f"Your secret is {state['secret'][s]}" for s in SEATS},
                          over=over)

    def preview(self, state: Any, seat: str, text: str) -> str:
        return f"{seat} would score {sum(int(w.split()[1]) for w in text.splitlines() if ' ' in w)}"

    def status(self, state: Any, seat: str | None) -> str:
        return "Scores: " + ", ".join(f"{s} {v}" for s, v in state["scores"].items())

    def is_over(self, state: Any) -> bool:
        return state["turn"] > state["turns"]
