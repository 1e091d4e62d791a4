"""Hidden information, replay and undo over whole games.

Hidden in micro mob: the draw pile, and with ``hands=secret`` each hand (others see its
size; by default hands are public, as at the table).  At every step of whole random games,
nothing produced for player q -- view, text, the events new to q, errors -- names a card
that is then in the pile or (secret hands) in another player's hand.  (A card that was
public earlier, e.g. in the city before someone hired it, may of course appear in events
from that earlier time.)
"""

from __future__ import annotations

import json
import random
import re

import pytest
from mm_helpers import DECK

from mobadj.cards.micromob.actions import Payroll
from mobadj.cards.micromob.bot import MicroMobBot
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import GameError, IllegalAction
from mobadj.cards.record import GameRecord, undo_last

IDS = re.compile(r"\b[A-Z]{1,2}\d{1,3}\b")


def ids_in(text: str) -> set[str]:
    return set(IDS.findall(text)) & set(DECK.cards)


def hidden_from(state: MicroMobState, q: int | None) -> set[str]:
    secret = set(state.pile)
    for p in range(state.players):
        if p != q and not state.hands_public:
            secret |= set(state.hand[p])
    return secret


GAMES = [(2, 1, 8), (3, 2, 4), (4, 4, 2), (5, 5, 1), (6, 6, 1)]  # players, modules, games


@pytest.mark.parametrize("hands", ["public", "secret"])
@pytest.mark.parametrize(("players", "modules", "games"), GAMES)
def test_no_view_text_event_or_error_names_a_hidden_card(players, modules, games, hands):
    for seed in range(games):
        state = MicroMobState.new(players, seed, {"modules": modules, "hands": hands})
        rng = random.Random(seed)
        seats: list[int | None] = [None, *range(players)]
        seen = {q: 0 for q in seats}
        bot = MicroMobBot()
        while True:
            for q in seats:
                secret = hidden_from(state, q)
                assert not ids_in(json.dumps(state.view(q))) & secret, (q, "view")
                assert not ids_in(state.render(q)) & secret, (q, "render")
                new = [e for e in state.events[seen[q]:] if e.visible(q)]
                seen[q] = len(state.events)
                for event in new:
                    assert not ids_in(event.text) & secret, (q, event.text)
            if state.is_over():
                break
            p = state.current
            probe_errors(state, p, rng)
            chooser = bot.choose(state, p, rng) if seed % 2 else rng.choice(
                state.legal_actions(p))
            state.apply(p, chooser)


def probe_errors(state: MicroMobState, p: int, rng: random.Random) -> None:
    """Bad commands by p naming others' secret cards: errors add no hidden card, and read
    the same when the secret cards are dealt differently among the hidden zones."""
    secret = sorted(hidden_from(state, p))
    if not secret:
        return
    x = rng.choice(secret)
    zones = [state.pile, *(state.hand[r] for r in range(state.players)
                           if r != p and not state.hands_public)]
    home = next(z for z in zones if x in z)
    elsewhere = next((z for z in zones if z is not home and z), None)
    c = state.city[0] if state.city else "D1"
    for template in ("hit {x}", "hire {c} with {x}", "draft {x}", "use {x}", "ally {x} {x}"):
        text = template.format(x=x, c=c)
        try:
            state.parse(p, text)
        except GameError as err:
            msg = str(err)
            assert not (ids_in(msg) - ids_in(text)) & set(secret), msg
            if elsewhere is not None:  # swap x with a card of another hidden zone
                y = elsewhere[0]
                i, j = home.index(x), 0
                home[i], elsewhere[j] = y, x
                try:
                    state.parse(p, text)
                except GameError as err2:
                    assert str(err2) == msg
                else:
                    raise AssertionError(f"'{text}' parsed after the swap") from None
                finally:
                    home[i], elsewhere[j] = x, y
        else:
            raise AssertionError(f"'{text}' parsed with {x} hidden")


def test_secret_hands_show_as_counts_to_others_and_in_full_to_the_owner():
    state = MicroMobState.new(3, 4, {"hands": "secret"})
    while state.phase == "draft":
        state.command(state.current, f"draft {state.pool[0]}")
    for q in range(3):
        view = state.view(q)
        for seat in view["players"]:
            assert seat["hand_size"] == 2
            assert ("hand" in seat) == (seat["player"] == q + 1)
        assert view["deck"] == len(state.pile) and "pile" not in view
    assert all("hand" not in s for s in state.view(None)["players"])


def test_hands_are_public_as_at_the_table_and_drafts_and_hires_name_the_card():
    """Ruling (docs/cards/micromob.md, "Hands are public"): a card's boss side shows while
    its goon side is in a hand, and drafts and hires are taken face up."""
    state = MicroMobState.new(3, 4)
    card = state.pool[0]
    state.command(state.current, f"draft {card}")
    assert state.events[-1].visible_to is None
    assert state.events[-1].text == f"P1 drafts {state.card(card).id} (" + \
        f"{state.card(card).goon_hit}/{state.card(card).goon_money}/{state.card(card).goon_ally})"
    while state.phase == "draft":
        state.command(state.current, f"draft {state.pool[0]}")
    for q in (None, 0, 1, 2):
        view = state.view(q)
        assert all(len(seat["hand"]) == 2 for seat in view["players"])
        assert view["hands"] == "public"
    assert "P2: " in state.render(None) and all(
        c in state.render(None) for hand in state.hand for c in hand)
    hires = [a for a in state.legal_actions(state.current) if str(a).startswith("hire")]
    if hires:
        state.apply(state.current, hires[0])
        told = next(e.text for e in reversed(state.events) if " hires " in e.text)
        assert f"hires {hires[0].target} (" in told
    assert MicroMobState.new(3, 4, {"hands": "Secret"}).hands_public is False
    with pytest.raises(IllegalAction, match="hands must be public or secret, not 'open'"):
        MicroMobState.new(3, 4, {"hands": "open"})


def play_out(players: int, seed: int, modules: int, bots: bool = False) -> MicroMobState:
    state = MicroMobState.new(players, seed, {"modules": modules})
    rng = random.Random(seed * 7)
    bot = MicroMobBot()
    while not state.is_over():
        p = state.current
        state.apply(p, bot.choose(state, p, rng) if bots else rng.choice(state.legal_actions(p)))
    return state


@pytest.mark.parametrize(("players", "seed", "modules", "bots"),
                         [(2, 3, 2, False), (4, 8, 4, True), (6, 1, 6, False)])
def test_a_logged_game_replays_to_the_same_state_and_views(players, seed, modules, bots):
    state = play_out(players, seed, modules, bots)
    record = GameRecord.of("micromob", state)
    data = json.loads(json.dumps(record.to_json(reveal_seed=True)))
    again = GameRecord(data["game"], data["players"], data["seed"], data["options"],
                       [tuple(a) for a in data["actions"]], data["rules_version"]).replay()
    assert again.snapshot() == state.snapshot()
    for q in [None, *range(players)]:
        assert again.view(q) == state.view(q)
        assert again.render(q) == state.render(q)
        assert again.history(q) == state.history(q)
    assert again.scores() == state.scores() and again.winners() == state.winners()
    middle = record.replay(len(record.actions) // 2)
    assert middle.actions == record.actions[: len(record.actions) // 2]


def test_record_keeps_rules_and_deck_versions_and_commits_to_the_seed():
    state = play_out(2, 5, 2)
    record = GameRecord.of("micromob", state)
    data = record.to_json()
    assert "seed" not in data and data["deck_version"] == DECK.version
    assert data["rules_version"] == MicroMobState.info.rules_version


def test_undo_of_payroll_and_draft_but_not_of_a_draw():
    state = MicroMobState.new(2, 6)
    first = state.pool[0]
    state.command(0, f"draft {first}")
    back = undo_last("micromob", state, 0)
    assert first in back.pool and back.current == 0 and not back.actions
    while back.phase == "draft":
        back.command(back.current, f"draft {back.pool[0]}")
    with pytest.raises(IllegalAction, match="cannot be undone"):  # it dealt the city
        undo_last("micromob", back, back.actions[-1][0])
    p = back.current
    take = next(a for a in back.legal_actions(p) if str(a).startswith(("hit", "hire", "ally")))
    back.apply(p, take)
    with pytest.raises(IllegalAction, match="cannot be undone"):
        undo_last("micromob", back, p)
    while back.current == p:
        back.command(p, "done")
    q = back.current
    back.command(q, "payroll" if back.fatigue[q] else str(back.legal_actions(q)[0]))
    if back.actions[-1][1] == str(Payroll()):
        assert undo_last("micromob", back, q).current == q
    with pytest.raises(IllegalAction, match="your own last action"):
        undo_last("micromob", back, p)


def test_by_mail_every_player_sees_the_hands_and_the_draft_names_the_card() -> None:
    """The judge's mails follow the ruling: a draft is told with its card, and each
    player's mail shows the others' hands (with hands=secret: neither)."""
    from mobadj.judge.cardhost import CardHost

    for options, public in (({}, True), ({"game_hands": "secret"}, False)):
        host = CardHost("micromob")
        state = host.new_state(["P1", "P2"], 1, options)
        game = host._game(state)
        card = game.pool[0]
        result = host.resolve(state, {"P1": f"draft {card}"}, [])
        assert (f"P1 drafts {card} (" in result.report) is public
        named = re.compile(rf"\b{card}\b")  # the card, not one whose id begins with it
        assert bool(named.search(result.private["P2"])) is public
        assert named.search(result.private["P1"])
