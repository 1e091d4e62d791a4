"""A card game's seed and salt reach no front end before the game is over: not the GM's
EXPORT (by mail or ``mobadj game export``: a GM who also plays would know every card
to come), not the GM's status, not the game's pages; the store keeps them, and once the
game is over the export and the pages show them."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from mobadj.judge.cardhost import WITHHELD
from mobadj.web.pages import Site

from .helpers import mail
from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build

SEED = 2**100 + 12345


def gm(judge, body: str):
    return judge.handle_mail(mail("gm@test.org", f"GM cg gm-pw\n{body}"))


def exported(judge) -> tuple[str, dict]:
    """The EXPORT attachment mailed to the GM, as text and as JSON."""
    out = gm(judge, "EXPORT")
    (attachment,) = [a for m in out if m.to == "gm@test.org" for a in m.attachments]
    text = attachment[2].decode()
    return text, json.loads(text)


def pages(judge, tmp_path) -> str:
    site = Site(judge.store, "Card Judge")
    return "\n".join(html.unescape(re.sub(r"<[^>]+>", " ", site.game_html("cg", sid) or ""))
                     for sid in [*site.steps("cg"), None])


def test_seed_and_salt_stay_out_of_every_front_end_until_the_end(judge, tmp_path) -> None:
    host = setup_game(judge, "miceheist", 2, seed=SEED)
    salt = judge.store.game("cg").state["salt"]
    secrets = (str(SEED), salt)
    moves = 0
    rng = random.Random(3)
    while not host.is_over(judge.store.game("cg").state):
        assert moves < 2000, "the game does not end"
        for seat in host.due(judge.store.game("cg").state):
            act(judge, seat, rng.choice(legal(judge, host, seat)))
        moves += 1
        if moves in (1, 7):  # with results stored (state before and after each move)
            text, data = exported(judge)
            assert data["results"] and not any(s in text for s in secrets)
            assert data["state"]["seed"] == data["state"]["salt"] == WITHHELD
            assert all(r[k]["seed"] == WITHHELD for r in data["results"]
                       for k in ("state_before", "state_after"))
            assert data["state"]["actions"]  # the rest of the game is all there
            assert not [a for _, a in data["state"]["actions"]  # sealed bets: as the table
                        if a.split()[0] in ("bet", "pass", "abstain")]  # heard of them
            status = gm(judge, "STATUS")[0].body + gm(judge, "LIST")[0].body
            assert not any(s in status for s in secrets)
            assert not any(s in pages(judge, tmp_path) for s in secrets)
            assert not any(s in str(judge.export("cg")) for s in secrets)  # the CLI's export
            stored = judge.store.game("cg").state
            assert (stored["seed"], stored["salt"]) == (SEED, salt)  # the store keeps them
    text, data = exported(judge)
    assert data["state"]["seed"] == SEED and data["state"]["salt"] == salt
    assert all(r["state_after"]["seed"] == SEED for r in data["results"])
    assert str(SEED) in pages(judge, tmp_path)


def test_a_game_the_gm_ended_exports_its_seed(judge) -> None:
    host = setup_game(judge, "micromob", 2, seed=SEED, game_modules="1")
    (seat,) = host.due(judge.store.game("cg").state)
    act(judge, seat, legal(judge, host, seat)[0])
    assert WITHHELD in exported(judge)[0]
    gm(judge, "ENDGAME")
    assert judge.store.game("cg").status == "ended"
    assert exported(judge)[1]["state"]["seed"] == SEED


def test_face_down_offers_stay_out_of_the_export_until_the_end(judge) -> None:
    """The same reason as the seed: a GM who also plays must not read the cards offered
    face down (nor a sealed bet sent and not yet revealed) in the export."""
    host = setup_game(judge, "irontriangle", 4, seed=SEED)
    rng = random.Random(5)
    hidden: set[str] = set()
    while True:
        game = host._game(judge.store.game("cg").state)
        if game.phase == "negotiate":
            break
        for seat in host.due(judge.store.game("cg").state):
            move = rng.choice(legal(judge, host, seat))
            act(judge, seat, move)
            if move.startswith("offer"):
                hidden.add(move)
    offered = {game.deck.cards[c].name for c in game.offers.values()}
    assert len(offered) == 3 and hidden
    text, data = exported(judge)
    assert not any(name in text for name in offered), text
    assert not any(move in text for move in hidden)
    told = [a for _, a in data["state"]["actions"] if a.startswith(WITHHELD)]
    assert told == [f"{WITHHELD}: P{p + 1} has made an offer, face down."
                    for p in sorted(game.offers)]
    assert data["state"]["actions"][0][1].startswith("job ")  # public moves are all there
    assert all(c["text"] == WITHHELD for c in data["commands"] if c["kind"] == "orders")
    gm(judge, "ENDGAME")
    text, data = exported(judge)
    assert all(name in text for name in offered)  # over: the record is whole again
