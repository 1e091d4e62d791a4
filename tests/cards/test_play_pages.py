"""One game of each card game played entirely through the seats' own pages in Chromium
(tests/web/playing.py): every move a button of the seat's legal commands or its command
line, table talk out of turn, and after every move every seat's page read with its own
session: no card event hidden from a seat shows on its page.  (Here, not under tests/web:
the compiled build's run leaves the card games out, as they use none of it.)"""

from __future__ import annotations

import random

import pytest
from web.helpers import PageServer
from web.playing import World, make_room, no_leak_in_cards
from web.test_browser import browser, shots  # noqa: F401 (fixtures: one Chromium, the folder)

from mobadj.cards.registry import bot_class
from mobadj.web.cardview import replay

CARD_GAMES = [("micromob", 2, {"game_modules": "1"}), ("miceheist", 2, {}),
              ("irontriangle", 3, {}), ("microcity", 1, {})]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    w = World(tmp_path_factory.mktemp("play-cards"))
    yield w
    w.close()


@pytest.fixture(scope="module")
def room(browser, world):  # noqa: F811 - the fixture imported above
    with PageServer(world.site, play=world.play) as srv:
        yield make_room(browser, srv)


@pytest.mark.parametrize(("kind", "players", "options"), CARD_GAMES)
def test_a_card_game_on_the_pages(world, room, kind, players, options, shots):  # noqa: F811
    seats = [f"P{i + 1}" for i in range(players)]
    t = world.table(kind, kind, seats=seats, seed=4242, **options)
    for seat in seats:
        room.sign_in(kind, seat, t.passwords[seat])
    bot = bot_class(kind)()
    rng = random.Random(7)
    talked = shot = False
    for moved in range(400):
        g = t.game
        if g.status != "active" or not t.due():
            break
        game = replay(kind, g.started_state)
        given = world.store.orders(kind, g.phase)  # sealed choices waiting for the others
        seat = next(s for s in t.due() if s not in given)
        if not talked and players > 1:  # out of turn: table talk from a seat not due
            idle = [s for s in seats if s not in t.due()]
            free = game.free_commands(int(idle[0][1:]) - 1) if idle else []
            if any(f.startswith("say") for f in free):
                room.at(kind, idle[0])
                room.fill("command", "say HELLO-FROM-THE-PAGE")
                assert "Done at once" in room.click("textarea#command ~ button")
                talked = True
                no_leak_in_cards(world, room, kind)
        room.at(kind, seat)
        if kind == "irontriangle" and seat == "P1" and moved > 12 and not shot:
            room.shot(shots / "web-play-cards.png")
            shot = True
        action = str(bot.choose(game, int(seat[1:]) - 1, rng))
        buttons = room.d.execute_script(
            "return Array.from(document.querySelectorAll('form.legal button'), b => b.value);")
        before = t.game.state
        if action in buttons:
            said = room.click("form.legal button", action)
        else:
            room.fill("command", action)
            said = room.click("textarea#command ~ button")
        assert t.game.state != before or seat in world.store.orders(kind, g.phase), (
            seat, action, said)
        no_leak_in_cards(world, room, kind)
    assert t.game.status == "ended", f"{kind} did not end"
    moves = [c for c in world.store.commands(kind) if c["kind"] == "orders"]
    assert moves and all(c["message_id"].startswith("<web-") for c in moves)
