"""The authored deck (mobadj/cards/data/iron_triangle.yaml) and its loader."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from mobadj.cards.irontriangle.cards import (
    DATA_FILE,
    RESERVED_WORDS,
    DeckError,
    load_deck,
    normalize,
    parse_deck,
)
from mobadj.cards.irontriangle.engine import IronTriangleState


def test_components_24_job_cards_and_6_roles() -> None:
    # rulebook "Components": 6 Secret Role cards, 24 Job cards
    deck = load_deck()
    assert len(deck.cards) == 24
    assert len(deck.roles) == 6
    assert len({normalize(c.name) for c in deck.cards}) == 24


def test_each_card_has_a_job_side_and_an_offer_side_with_a_pick_two_back() -> None:
    # rulebook "About the Job Cards": job side (name, base stars), offer side (price, days,
    # star modifier), the back shows Cheap and Fast, Fast and Good or Good and Cheap
    deck = load_deck()
    assert Counter(c.back for c in deck.cards) == {"cheap_fast": 8, "fast_good": 8,
                                                   "good_cheap": 8}
    for c in deck.cards:
        assert c.stars >= 1 and c.price >= 1 and c.days >= 1
    # the backs mean what they say: Cheap and Fast is the cheapest and quickest, and so on
    by_back = {b: [c for c in deck.cards if c.back == b] for b in ("cheap_fast", "fast_good",
                                                                   "good_cheap")}
    assert max(c.price for c in by_back["cheap_fast"]) < min(c.price for c in by_back["fast_good"])
    assert all(c.days == 1 for c in by_back["cheap_fast"])
    assert all(c.modifier <= 0 for c in by_back["cheap_fast"])
    assert all(c.modifier > 0 for c in by_back["fast_good"] + by_back["good_cheap"])
    assert min(c.days for c in by_back["good_cheap"]) >= 2
    assert max(c.price for c in by_back["good_cheap"]) < min(c.price for c in by_back["fast_good"])


def test_rulebook_notoriety_example() -> None:
    # rulebook "End of Game": $20 and 16 stars score 4 + 6 = 10 Notoriety
    deck = load_deck()
    assert deck.money.notoriety(20) == 4
    assert deck.quality.notoriety(16) == 6


def test_notoriety_never_falls_along_a_track() -> None:
    deck = load_deck()
    for track in (deck.money, deck.quality):
        values = [track.notoriety(s) for s in range(track.floor, track.last + 1)]
        assert values == sorted(values)


def test_tracks_start_where_the_rulebook_says() -> None:
    # rulebook "Setup": $10 on the Money track; the empty space next to the Quality track
    deck = load_deck()
    assert deck.money.start == 10 and deck.money.floor == 1
    assert deck.quality.start == 0
    assert deck.circles == 6  # up to six players, each on a starting circle


def test_card_names_avoid_command_words() -> None:
    # the command grammar reads these words as keywords, so a card name must not use them
    for c in load_deck().cards:
        assert not {w.lower() for w in c.name.split()} & RESERVED_WORDS


def test_file_says_a_gm_may_transcribe_a_deck() -> None:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert "GM" in text and "transcribe" in text


def test_deck_version_is_recorded_in_the_game_info() -> None:
    assert IronTriangleState.info.deck_version == load_deck().version


def _raw() -> dict:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["cards"][0].update(name="Fast Money"), "command word"),
        (lambda r: r["cards"][1].update(name=r["cards"][0]["name"]), "duplicate"),
        (lambda r: r["cards"][0].update(back="slow_dear"), "bad back"),
        (lambda r: r["roles"][0].update(condition={"luckiest": "money"}), "unknown condition"),
        (lambda r: r["roles"].pop(), "secret role"),
    ],
)
def test_a_malformed_deck_is_refused(change, message: str) -> None:
    raw = _raw()
    change(raw)
    with pytest.raises(DeckError, match=message):
        parse_deck(raw)
