"""Card games stored by a judge keep the rules they started with: the state names its rules
version, and a store of the old kind (no version, no salt: the game played under the old
readings) plays on by mail to its end, though the current rules could not replay its log."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.microcity.engine import MicroCityState
from mobadj.cards.protocol import GameError
from mobadj.cards.record import OLD_SCHEME, GameRecord, verify_record

from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def replays_now(kind: str, state: dict) -> bool:
    """Would later rules replay the stored log?  Iron Triangle's current rules; Micro City's
    rulings 2 (whose Seaport reading differs; rulings 3 came back to the first one)."""
    cls = {"irontriangle": IronTriangleState, "microcity": MicroCityState}[kind]
    version = (list(MicroCityState.earlier_rules)[1] if kind == "microcity"
               else cls.info.rules_version)
    try:
        GameRecord(kind, state["players"], state["seed"], {k: v for k, v in
                   state["options"].items() if k not in ("refill", "stage_markers",
                                                         "seaport_upgrade", "goals")},
                   state["actions"], version).replay()
    except GameError:
        return False
    return True


def make_it_old(judge, host) -> dict:
    """The store as the judge kept it before rules versions and salts: no version, no
    salt, the unsalted commitment, and no option naming the old readings."""
    game = judge.store.game("cg")
    state = dict(game.state)
    old = {"players": state["players"], "seed": state["seed"],
           "options": {k: v for k, v in state["options"].items()
                       if k not in ("refill", "stage_markers", "seaport_upgrade", "goals")},
           "actions": state["actions"],
           "commitment": hashlib.sha256(f"{host.kind}:{state['seed']}".encode()).hexdigest()}
    options = {k: v for k, v in game.options.items()
               if k not in ("game_refill", "game_stage_markers", "game_seaport_upgrade",
                             "game_goals")}
    judge.store.update_game("cg", state=old, options=options)
    return old


def mail_a_move(judge, host, moves) -> list:
    """Every due seat mails its next move (a sealed phase resolves with the last one)."""
    out: list = []
    for seat in host.due(judge.store.game("cg").state):
        out = act(judge, seat, moves(seat))
        assert "cannot be replayed" not in out[0].body and "internal error" not in out[0].body
        assert "Errors" not in out[0].body, out[0].body
    return out


def play_to_the_end(judge, host, moves) -> list:
    """Moves by mail until the game is over; returns the last mails."""
    out: list = []
    while not host.is_over(judge.store.game("cg").state):
        out = mail_a_move(judge, host, moves)
    return out


def check_final(judge, out, old, rules_version) -> None:
    final = next(m for m in out if m.to == "p1@test.org" and "results" in m.subject)
    assert "old scheme" in final.body and f"Seed: {old['seed']}" in final.body
    record = json.loads(dict((n, d) for n, _, d in final.attachments)["record.json"])
    assert record["rules_version"] == rules_version and record["commitment_scheme"] == OLD_SCHEME
    assert verify_record(record, old["commitment"]).ok


def test_a_new_game_records_its_rules_version(judge) -> None:
    setup_game(judge, "irontriangle", 3)
    state = judge.store.game("cg").state
    assert state["rules_version"] == IronTriangleState.info.rules_version


def test_an_old_iron_triangle_store_plays_on_by_mail_under_its_rules(judge) -> None:
    host = setup_game(judge, "irontriangle", 6, seed=5, game_refill="before_discard")
    rng = random.Random(5)

    def moves(seat: str) -> str:
        return rng.choice(legal(judge, host, seat))

    while replays_now("irontriangle", judge.store.game("cg").state):
        mail_a_move(judge, host, moves)
    old = make_it_old(judge, host)
    assert old["actions"] and not replays_now("irontriangle", old)
    status = act(judge, "P1", "LIST")[0].body  # the stored game still shows
    assert "old scheme" in status and "cannot be replayed" not in status
    out = play_to_the_end(judge, host, moves)
    check_final(judge, out, old, "iron-triangle-1")
    assert "refill" not in judge.store.game("cg").state["options"]  # stored as it was


def test_an_old_competitive_micro_city_store_plays_on_by_mail_under_its_rules(judge) -> None:
    """The moves of a game played under the earlier readings (Seaport markers stay at an
    upgrade), mailed one by one; the store is made old midway, after the upgrade."""
    options = {"mode": "competitive", "expansions": "seaport"}
    played = MicroCityState.new(2, 34, {**options, "stage_markers": "fixed",
                                        "seaport_upgrade": "keep", "goals": "architect"})
    rng = random.Random(34)
    while not played.is_over():
        p = played.to_act()[0]
        played.apply(p, rng.choice(played.legal_actions(p)))
    host = setup_game(judge, "microcity", 2, seed=34, game_mode="competitive",
                      game_expansions="seaport", game_stage_markers="fixed",
                      game_seaport_upgrade="keep", game_goals="architect")
    moves = iter(played.actions)

    def next_move(seat: str) -> str:
        player, text = next(moves)
        assert f"P{player + 1}" == seat
        return text

    while replays_now("microcity", judge.store.game("cg").state):
        mail_a_move(judge, host, next_move)
    old = make_it_old(judge, host)
    assert old["options"] == options and not replays_now("microcity", old)
    out = play_to_the_end(judge, host, next_move)
    assert next(moves, None) is None  # the whole game, move for move
    check_final(judge, out, old, next(iter(MicroCityState.earlier_rules)))
