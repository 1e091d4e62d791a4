"""``mobadj cards balance GAME``: each game's balance figures as one JSON object, and every
mistake on the command line as one line (real subprocesses)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from mobadj.cards.irontriangle.balance import balance
from mobadj.cards.micromob.balance import report


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobadj", "cards", "balance", *args],
                          capture_output=True, text=True, timeout=120)


def test_the_figures_are_the_balance_modules_own():
    proc = run("micromob", "--games", "6", "--players", "3", "-o", "modules=3")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(json.dumps(report(6, 3, 3)))
    proc = run("mobsters", "-g", "4", "-p", "3", "--report", "mixed")  # an alias
    assert json.loads(proc.stdout) == json.loads(json.dumps(balance(4, 3, "mixed")))


def test_every_report_of_every_game_runs():
    for game in ("irontriangle", "miceheist", "micromob"):
        module = importlib.import_module(f"mobadj.cards.{game}.balance")
        for which, report_of in module.REPORTS.items():
            figures = report_of(2, 3, {})
            assert isinstance(figures, dict) and figures, (game, which)
            json.dumps(figures)


@pytest.mark.parametrize(("args", "words"), [
    (("chess",), "unknown game 'chess'"),
    (("microcity",), "microcity has no balance report"),
    (("micromob", "-r", "best"), "micromob reports bots, versus"),
    (("micromob", "-p", "9"), "takes 2-6 players, not 9"),
    (("micromob", "-o", "modules"), "expected key=value"),
    (("micromob", "-o", "modules=four"), "modules must be a whole number"),
    (("irontriangle", "-o", "deck=x.yaml"), "takes no option 'deck'"),
    (("miceheist", "-g", "1", "-o", "deck=/no/such/deck.yaml"), "cannot read the deck file"),
])
def test_a_mistake_is_one_line(args, words):
    proc = run(*args)
    assert proc.returncode != 0 and words in proc.stderr
    assert "Traceback" not in proc.stderr


def test_best_allies_come_best_first_and_worst_allies_worst_first():
    """docs/cards/micromob.md: the card whose takers won most is the first of
    ``best_allies``, as the least is the first of ``worst_allies``."""
    proc = run("micromob", "-g", "400", "-p", "4", "-o", "modules=4")
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    best = [rate for _, rate, _ in figures["best_allies"]]
    worst = [rate for _, rate, _ in figures["worst_allies"]]
    assert len(best) == len(worst) == 3
    assert best == sorted(best, reverse=True) and worst == sorted(worst)
    assert best[0] > worst[0]
    assert figures["best_allies"][0] == ["M14", 0.61, 77]  # as the page gives it
