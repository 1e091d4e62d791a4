"""A line that kills the process answering it (SIGKILL, as from a crash in C code or the
out-of-memory killer), and the answers a batch owes for it: the tests of ``--jobs`` over a
pool of workers and over a file cut into parts share them."""

from __future__ import annotations

import json
import os
import signal

from mobadj.batch import map_context

KILLER = json.dumps({"id": "kill", "phase": "S1901M"}).encode()
"""An input line the planted fault kills its process on."""


def plant_killer(monkeypatch) -> None:
    """Make every process that reads :data:`KILLER` die.  Planted in the rules' hook (the
    pure and the compiled batch call it); processes forked afterwards inherit it."""
    rules_class = type(map_context("standard").rules)
    read = rules_class.position_from_data

    def deadly(self, case, game_map):
        if case.get("id") == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        return read(self, case, game_map)

    monkeypatch.setattr(rules_class, "position_from_data", deadly)


def assert_killers_answered(output: bytes, expected: bytes, killers: set[int]) -> None:
    """``output`` has an error line for each line (0-based) in ``killers`` and the usual
    answer, as in ``expected``, for every other line, in order."""
    got = output.split(b"\n")
    usual = expected.split(b"\n")
    assert len(got) == len(usual)
    for i, (answer, want) in enumerate(zip(got[:-1], usual[:-1], strict=True)):
        if i in killers:
            assert json.loads(answer)["errors"] == [
                f"line {i + 1}: internal error: the process adjudicating this line stopped"]
        else:
            assert answer == want, i
