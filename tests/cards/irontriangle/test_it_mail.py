"""Iron Triangle through the judge's card host: sealed offers by mail, secrets per seat."""

from __future__ import annotations

import json

from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.judge.cardhost import CardHost, seat_index, seat_name


def _names(state: IronTriangleState, cards) -> list[str]:
    return [state.deck.cards[c].name for c in cards]


def test_a_round_by_mail_keeps_offers_sealed_and_hands_private() -> None:
    host = CardHost("irontriangle")
    st = host.new_state(["P1", "P2", "P3", "P4"], seed=17, options={})
    game = host._game(st)
    boss = seat_name(game.boss)
    assert host.due(st) == [boss]
    res = host.resolve(st, {boss: "job 1 cheap"}, [])
    st = res.state
    gangsters = host.due(st)
    assert len(gangsters) == 3 and boss not in gangsters  # all offer at once
    game = host._game(st)
    hands = {s: _names(game, game.hands[seat_index(s)]) for s in gangsters}
    # an early offer is checked on a copy; nothing is applied until all are in
    check = host.check(st, gangsters[0], "offer 1")
    assert check.accepted == [f"offer {hands[gangsters[0]][0]}"] and not check.errors
    assert host.check(st, gangsters[0], "offer 1\noffer 2").errors  # one sealed choice
    res = host.resolve(st, {s: "offer 2" for s in gangsters}, [])
    offered = {s: hands[s][1] for s in gangsters}
    for s in gangsters:
        assert offered[s] in res.private[s]  # each sees their own offer
        for other in gangsters:
            if other != s:
                assert offered[other] not in res.private[s]
        assert offered[s] not in res.report
    for s in gangsters:  # the "pick two" backs are public once all offers are in
        back = game.deck.card_named(offered[s]).back_text
        assert f"{s} {back}" in res.report
    st = res.state
    assert host.due(st) == [boss]  # the boss alone, while the table talks
    pick = gangsters[1]
    res = host.resolve(st, {boss: f"pick {pick}"}, [])
    assert offered[pick] in res.report  # the picked offer is revealed to all
    for s in gangsters:
        if s != pick:
            assert offered[s] not in res.report
    json.dumps(res.state)  # the judge stores it as JSON


def test_a_missing_seat_gets_the_bot_move_by_mail() -> None:
    host = CardHost("irontriangle")
    st = host.new_state(["P1", "P2", "P3"], seed=4, options={})
    for _ in range(12):
        due = host.due(st)
        if not due:
            break
        st = host.resolve(st, {}, due).state  # everyone misses the deadline
    assert len(st["actions"]) >= 12
    assert host._game(st).deep_invariants() == []
