"""Cards explained in the game: ``help CARD`` for any card in view gives its effect in plain
words; a card out of view (in a pile, another secret hand) gets the same answer as a name
that is nothing; no text a player reads names a power, skill or effect by its code name."""

from __future__ import annotations

import random
import re

import pytest

from mobadj.cards import report
from mobadj.cards.registry import game_class
from mobadj.cards.terminal import Session

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # fatigue_to_hit, per_icon: code, not words


def _play(game: str, players: int, options: dict | None, seed: int, steps: int):
    state = game_class(game).new(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        p = state.to_act()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state


def test_micro_mob_explains_every_card_in_view_and_no_card_out_of_it() -> None:
    for seed in range(6):
        state = _play("micromob", 3, {"hands": "secret"}, seed, 25 + seed * 5)
        p = state.to_act()[0]
        view = state.view(p)
        in_view = {c["id"] for c in view["city"] + view["pool"]}
        for seat in view["players"]:
            in_view |= {c["id"] for zone in ("hand", "fatigue", "allies", "hits")
                        for c in seat.get(zone, [])}
        for cid in in_view:
            text = state.explain(p, cid.lower())
            card = state.card(cid)
            assert text.startswith(f"{cid} {card.name}") and f"hit {card.boss_hit}" in text
            assert f"adds {card.goon_hit} to a hit" in text and not SNAKE.search(text)
        hidden = set(state.pile) | {c for q in range(3) if q != p for c in state.hand[q]}
        answers = {state.explain(p, cid).replace(cid, "X") for cid in hidden}
        assert len(answers) <= 1  # a hidden card: where it is, is never told
        assert "not on the table where you can see it" in answers.pop() if answers else True
    swap = state.explain(0, "swap with city")
    assert swap.startswith("swap with city: once a turn") and "special ability" in swap
    assert "fatigue to hits" in state.explain(0, "powers")


def test_mice_heist_explains_skills_obstacles_jobs_and_the_chips() -> None:
    state = _play("miceheist", 3, None, 4, 20)
    p = 0
    for k in {k for q in range(3) for k in state.skills[q]} | set(state.market):
        name = state.data.skills[k].name
        text = state.explain(p, name.lower())
        assert text.startswith(name) and state.data.skills[k].text in text
        assert not SNAKE.search(text)
    top = state.data.obstacles[next(s for s in state.stacks.values() if s)[0]]
    assert f"rating of {top.target} or more" in state.explain(p, top.id)
    chips = state.explain(p, "chips")
    assert "In the bag:" in chips and "yellow +1/-1" in chips
    hidden = [state.data.skills[k].name for k in state.deck]
    assert all("is not a skill, obstacle or job in view" in state.explain(p, n) for n in hidden)
    assert "there is" not in state.explain(p, "A")  # a job
    assert "Job A" in state.explain(p, "a")


def test_iron_triangle_explains_the_hand_the_job_and_ones_role_only() -> None:
    state = _play("irontriangle", 4, None, 2, 3)
    p = state.boss
    hand = [state.deck.cards[c] for c in state.hands[p]]
    for slot, card in enumerate(hand, 1):
        for topic in (card.name, str(slot)):
            text = state.explain(p, topic)
            assert text.startswith(card.name) and f"${card.price}" in text
    role = state.deck.roles[state.roles[p]]
    assert role.name in state.explain(p, "role")
    other = next(q for q in range(4) if q != p)
    theirs = state.deck.cards[state.hands[other][0]]
    if theirs.name not in {c.name for c in hand}:
        assert "is not a card you can see" in state.explain(p, theirs.name)
    assert "Cheap and Fast" in state.explain(p, "fast and good")


def test_micro_city_help_says_any_project_card_may_be_played() -> None:
    """The rulebook: play a Project card and take its basic action, or its advanced one with
    a die of its value; the old summary said a card needed its die to be played."""
    state = _play("microcity", 1, None, 3, 2)
    text = state.explain(0, "4")
    assert "Any card in your hand can be played; only the advanced action needs the die" in text
    assert "Architect" in state.explain(0, "architect")
    summary = report.summary(state)
    assert "whose die you hold" not in summary
    assert "play any Project card from your hand" in summary
    assert "residential" in state.explain(0, "a1") or "Quarter a1" in state.explain(0, "a1")
    assert "stage 1" in state.explain(0, "stage 1").lower()


@pytest.mark.parametrize(("game", "players", "options"), [
    ("micromob", 3, None), ("micromob", 3, {"hands": "secret"}), ("miceheist", 4, None),
    ("irontriangle", 4, None), ("microcity", 1, {"mode": "challenge", "building": "random"}),
    ("microcity", 2, {"mode": "competitive", "expansions": "logistics,seaport,garden"}),
])
def test_no_text_a_player_reads_names_a_code(game, players, options) -> None:
    for seed in range(3):
        state = game_class(game).new(players, seed, options)
        rng = random.Random(seed)
        while not state.is_over():
            p = state.to_act()[0]
            for text in (state.render(p), state.screen(p)):
                assert not SNAKE.search(text), SNAKE.search(text)
            state.apply(p, rng.choice(state.legal_actions(p)))
        texts = [e.text for e in state.events] + report.end_report(state)
        assert not [t for t in texts if SNAKE.search(t)]
        if game == "miceheist":  # nor a skill by its key (nimble-paws for Nimble Paws)
            slugs = "|".join(k for k in state.data.skills if "-" in k)
            keys = re.compile(rf"\b({slugs})\b")
            seen = [state.render(p) for p in range(players)] + texts
            assert not [t for t in seen if keys.search(t)]


def test_help_card_at_the_terminal() -> None:
    """``help C1`` used to be read as a command ("did you mean 'hire'?")."""
    out: list[str] = []
    typed = iter([])
    session = Session.new("micromob", 2, 5, {1}, read=lambda prompt: next(typed),
                          write=out.append)
    card = session.state.pool[0]
    typed = iter([f"help {card}", "? nothing", "quit"])
    session.run()
    text = "\n".join(out)
    assert f"{card} {session.state.card(card).name}" in text and "did you mean" not in text
    assert "'nothing' is neither a card in view nor an ally power" in text


@pytest.mark.parametrize(("game", "players", "options"), [
    ("miceheist", 2, None), ("miceheist", 5, None), ("microcity", 1, None),
    ("microcity", 1, {"mode": "challenge", "building": "random"}),
    ("microcity", 2, {"mode": "competitive"}),
    ("microcity", 2, {"mode": "competitive", "expansions": "logistics,seaport,garden"}),
])
def test_what_help_can_explain_is_told_with_examples_that_work(game, players, options) -> None:
    """A topic that is nothing in view gets a hint whose every example is explained, so a
    competitive Micro City (no Building) is never told to try a stage, nor a Mice Heist
    player a skill nobody holds."""
    for seed in range(3):
        state = _play(game, players, options, seed, 12 * seed)
        p = state.to_act()[0]
        hint = state.explain(p, "nothing at all")
        examples = re.findall(r"\(help ([^,)]+)(?:, help ([^)]+))?\)", hint)
        assert len(examples) >= 3, hint
        for found in examples:
            for topic in filter(None, found):
                assert "in view" not in state.explain(p, topic), (topic, hint)
        if options and options.get("mode") == "competitive":
            assert "stage" not in hint and "Goal area" in hint


@pytest.mark.parametrize(("game", "players", "options"), [
    ("micromob", 3, None), ("miceheist", 4, None), ("irontriangle", 4, None),
    ("microcity", 2, {"mode": "competitive", "expansions": "logistics,seaport,garden"}),
])
def test_no_game_page_names_a_code(game, players, options) -> None:
    """The game pages' table of a card game (mobadj/web) names powers in words too."""
    import html

    from mobadj.web.cardtable import card_table

    state = game_class(game).new(players, 2, options)
    rng = random.Random(2)
    pages = 0
    while not state.is_over():
        page = html.unescape(re.sub(r"<[^>]+>", " ", str(card_table(game, state.view(None)))))
        assert not SNAKE.search(page), SNAKE.search(page)
        pages += 1
        p = state.to_act()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    assert pages > 20


@pytest.mark.parametrize(("game", "args", "first", "examples"), [
    ("micromob", ["-p", "3", "--bot", "2", "--bot", "3"], "micro mob: 3 players:",
     "help D3, help swap with city"),
    ("miceheist", ["-p", "3", "--bot", "2", "--bot", "3"], "Mice Heist: 3 players:",
     "help scurry, help A2, help chips"),
    ("irontriangle", ["-p", "3", "--bot", "2", "--bot", "3"],
     "Mobsters of the Iron Triangle: 3 players:", "help 2, help role, help fast and good"),
    ("microcity", [], "Micro City: 1 player: P1", "help 4, help architect"),
])
def test_help_at_the_terminal_gives_the_games_own_card_examples(game, args, first,
                                                                 examples) -> None:
    """``help`` names cards of the game being played (never micro mob's D3 in Micro City),
    and a game of one is of "1 player"."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "mobadj", "play", game, *args],
                          input="help\nquit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(first)
    line = next(t for t in done.stdout.splitlines() if "help CARD" in t)
    assert line.endswith(f"(any card you can see: {examples})")
