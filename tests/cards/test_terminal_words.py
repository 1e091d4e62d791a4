"""The terminal's own words typed as people type them: a typo of quit, history or board is
told the word it is close to (not a game command it is not), and ``board please`` is the
board."""

from __future__ import annotations

import pytest

from mobadj.cards.terminal import Session

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


@pytest.mark.parametrize("game", ["micromob", "irontriangle", "miceheist", "microcity"])
def test_typos_of_the_terminals_words_get_their_did_you_mean(game) -> None:
    typed = iter(["quitt", "histroy", "borad", "board please", "quit"])
    out: list[str] = []
    players = {"microcity": 1, "irontriangle": 3}.get(game, 2)
    Session.new(game, players, 1, set(range(1, players)), read=lambda _: next(typed),
                write=out.append).run()
    said = [line for line in out if line.startswith("! ")]
    assert said == [f"! '{typo}' is not understood; did you mean '{word}'? ('help' lists "
                    "the commands)" for typo, word in (("quitt", "quit"),
                                                       ("histroy", "history"),
                                                       ("borad", "board"))], said


def test_the_rules_in_brief_fill_the_screens_width() -> None:
    """'help' on a 60-column screen: the rules in brief wrapped once, to 60 columns (not to
    92 and then again, which left a short row after every long one)."""
    import textwrap

    from mobadj.cards import report

    typed = iter(["help", "quit"])
    out: list[str] = []
    session = Session.new("micromob", 2, 1, {1}, read=lambda _: next(typed), write=out.append,
                          size=(60, 500))
    session.run()
    summary = textwrap.wrap(report.summary(session.state), 60)
    first = out.index(summary[0])
    assert out[first:first + len(summary)] == summary
