"""The authored components in mice_heist.yaml, and the loader's checks (a GM's deck)."""

from __future__ import annotations

import copy

import pytest
import yaml
from mh_helpers import new

from mobadj.cards.miceheist.data import DATA_FILE, DeckError, load_data, parse_data


def raw() -> dict:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def test_component_counts() -> None:
    # Components: 18 starting skills (3 per colour), 37 upgrades, 20 obstacles (5 per job)
    d = load_data()
    assert len(d.colours) == 6
    assert all(len(d.starting[c]) == 3 for c in d.colours)
    assert len(d.upgrades) == 37 and len(d.skills) == 55
    assert d.jobs == ("A", "B", "C", "D")
    assert all(len(d.stacks[j]) == 5 for j in d.jobs) and len(d.obstacles) == 20
    assert d.cheese_total == 40 and d.start_cheese == 3 and d.market_size == 4
    assert d.max_skills == 6 and d.chips_per_test == 2 and len(d.chips) == 11


def test_obstacles_have_target_icons_payout_and_one_finale_per_job() -> None:
    d = load_data()
    for j in d.jobs:
        cards = [d.obstacles[o] for o in d.stacks[j]]
        assert [c.id for c in cards] == [f"{j}{i}" for i in range(1, 6)]
        assert [c.finale for c in cards] == [False] * 4 + [True]
        assert all(c.target > 0 and c.payout > 0 for c in cards)
        assert all(set(c.icons) <= set(d.icons) for c in cards)


def test_the_file_says_a_gm_may_transcribe_a_deck() -> None:
    assert "GM" in DATA_FILE.read_text(encoding="utf-8").split("version:")[0]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["starting_skills"]["grey"].pop(), "3 starting skills"),
        (lambda r: r["upgrade_skills"].pop(), "37 skills"),
        (lambda r: r["jobs"]["A"]["obstacles"].pop(), "5 obstacles"),
        (lambda r: r["upgrade_skills"][0].update(effects=["jump 2"]), "unknown effect"),
        (lambda r: r["upgrade_skills"][0].update(effects=["bonus 2 if tail"]), "condition"),
        (lambda r: r["upgrade_skills"][0].update(effects=["flip 2"]), "takes no number"),
        (lambda r: r["upgrade_skills"][1].update(name=r["upgrade_skills"][0]["name"]), "two"),
        (lambda r: r.update(track_length=4), "track_length"),
    ],
)
def test_loader_rejects_bad_decks(edit, message) -> None:
    data = copy.deepcopy(raw())
    edit(data)
    with pytest.raises(DeckError, match=message):
        parse_data(data)


def test_a_transcribed_deck_is_used_through_the_deck_option(tmp_path) -> None:
    data = raw()
    data["version"] = "gm-1"
    data["start_cheese"] = 5
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    s = type(new()).new(3, 1, {"deck": str(path)})
    assert s.stash == [5, 5, 5] and s.data.version == "gm-1" and not s.check_invariants()


def test_unknown_options_are_refused() -> None:
    from mobadj.cards.protocol import IllegalAction

    with pytest.raises(IllegalAction, match="did you mean 'deck'"):
        type(new()).new(3, 1, {"dek": "x.yaml"})
