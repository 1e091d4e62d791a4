"""Games keep the rules they started with: every record names its rules version, and a game
of earlier rules (or of no version: recorded before versions were) is replayed with the
options that give the earlier readings.  Iron Triangle's games of rules iron-triangle-1 were
played by that engine (rules1_games.json); none of them replays under the current rules.
A terminal save file of the old kind plays on to its end through ``mobadj play --resume``."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.cards.irontriangle.engine import IronTriangleState
from mobadj.cards.miceheist.engine import MiceHeistState
from mobadj.cards.microcity.engine import MicroCityState
from mobadj.cards.micromob.engine import MicroMobState
from mobadj.cards.protocol import GameError, IllegalAction
from mobadj.cards.record import GameRecord, verify_record
from mobadj.cards.saves import read_save
from mobadj.cards.terminal import Session
from mobadj.cli import main

RULES1 = json.loads((Path(__file__).parent / "irontriangle" / "rules1_games.json").read_text())
IT_NOW = IronTriangleState.info.rules_version
MC_RULINGS_1, MC_RULINGS_2 = list(MicroCityState.earlier_rules)
MM_RULINGS_1, MM_RULINGS_2 = list(MicroMobState.earlier_rules)


def _events_digest(state) -> str:
    return hashlib.sha256("\n".join(e.text for e in state.events).encode()).hexdigest()


@pytest.mark.parametrize("game", RULES1["games"], ids=lambda g: f"{g['players']}p")
def test_iron_triangle_games_of_rules_1_replay_as_they_were_played(game) -> None:
    actions = [(p, a) for p, a in game["actions"]]
    for version in ("iron-triangle-1", ""):  # named, or recorded before versions were
        record = GameRecord("irontriangle", game["players"], game["seed"], {}, actions,
                            version)
        state = record.replay()
        assert state.is_over() and state.scores() == game["scores"]
        assert len(state.events) == game["events"]
        assert _events_digest(state) == game["events_sha256"]  # every event, word for word
        assert state.options == {"refill": "before_discard"}
        assert not state.deep_invariants()
    with pytest.raises(GameError):  # under the current rules the log stops replaying
        GameRecord("irontriangle", game["players"], game["seed"], {}, actions,
                   IT_NOW).replay()
    explicit = GameRecord("irontriangle", game["players"], game["seed"],
                          {"refill": "before_discard"}, actions, IT_NOW).replay()
    assert _events_digest(explicit) == game["events_sha256"]  # the option is that reading


def test_the_versions_a_record_can_name() -> None:
    assert IronTriangleState.rules_of("") == "iron-triangle-1"
    assert IronTriangleState.rules_of(IT_NOW) == IT_NOW
    assert IronTriangleState.options_for_rules(IT_NOW, {}) == {}
    assert MicroCityState.options_for_rules(None, {"mode": "competitive"}) == {
        "mode": "competitive", "stage_markers": "fixed", "seaport_upgrade": "keep",
        "goals": "architect", "unused_options": "ignore"}
    assert MicroCityState.rules_of("") == MC_RULINGS_1
    # micro mob's hands were secret under its rulings 1
    assert MicroMobState.rules_of("") == MM_RULINGS_1
    assert MicroMobState.options_for_rules("", {"modules": 1}) == {
        "modules": 1, "hands": "secret", "expand": "unlimited"}
    # and 'add a city card' had no limit under rulings 1 and 2
    assert MicroMobState.options_for_rules(MM_RULINGS_2, {}) == {"expand": "unlimited"}
    assert MicroMobState.options_for_rules(MicroMobState.info.rules_version, {}) == {}
    # games whose readings never changed: no version is the current one
    assert MiceHeistState.rules_of("") == MiceHeistState.info.rules_version
    with pytest.raises(IllegalAction, match="played under the rules 'iron-triangle-9', which "
                                            "this mobadj does not play"):
        IronTriangleState.options_for_rules("iron-triangle-9", {})
    with pytest.raises(GameError, match="iron-triangle-9"):
        GameRecord("irontriangle", 3, 1, {}, [], "iron-triangle-9").replay()


def test_an_old_record_names_its_version_and_verifies() -> None:
    game = RULES1["games"][0]
    record = GameRecord("irontriangle", game["players"], game["seed"], {},
                        [(p, a) for p, a in game["actions"]], "", salt="cd" * 32)
    data = record.to_json(reveal_seed=True)
    assert data["rules_version"] == "iron-triangle-1" and data["options"] == {}
    assert verify_record(data).ok
    del data["rules_version"]  # an old record that names none
    assert verify_record(data).ok
    data["rules_version"] = IT_NOW
    verdict = verify_record(data)
    assert not verdict.ok and "do not replay" in verdict.lines[-1]


def test_micro_city_of_rulings_1_replays_with_the_earlier_readings() -> None:
    """A competitive Seaport game of the earlier readings (the markers stay on an upgraded
    Seaport) that the current rules cannot replay."""
    options = {"mode": "competitive", "expansions": "seaport"}
    old = MicroCityState.new(2, 34, {**options, **MicroCityState.earlier_rules[MC_RULINGS_1]})
    rng = random.Random(34)
    while not old.is_over():
        p = old.to_act()[0]
        old.apply(p, rng.choice(old.legal_actions(p)))
    for version in (MC_RULINGS_1, ""):
        again = GameRecord("microcity", 2, 34, options, old.actions, version).replay()
        assert again.scores() == old.scores() and _events_digest(again) == _events_digest(old)
    with pytest.raises(GameError):
        GameRecord("microcity", 2, 34, options, old.actions, MC_RULINGS_2).replay()


def test_micro_city_of_rulings_2_replays_with_its_readings() -> None:
    """Rulings 2 let "remove ... from any area" take a built stage's marker; a game of them
    is replayed with that reading, a game of the current rules keeps stage markers (line
    326), and the game's own option wins."""
    def cfg(version: str, options: dict):
        return GameRecord("microcity", 1, 5, options, [], version).replay().cfg
    assert cfg(MC_RULINGS_2, {}).stage_markers == "removable"
    assert cfg(MicroCityState.info.rules_version, {}).stage_markers == "fixed"
    # and emptied an upgraded competitive Seaport (line 471 puts the markers back)
    comp = {"mode": "competitive", "expansions": "seaport"}
    assert GameRecord("microcity", 2, 5, comp, [], MC_RULINGS_2).replay(
    ).cfg.seaport_upgrade == "return"
    assert GameRecord("microcity", 2, 5, comp, [], MicroCityState.info.rules_version).replay(
    ).cfg.seaport_upgrade == "keep"
    # both let the Architect complete a Goal from any Quarter (line 324: residential only)
    assert GameRecord("microcity", 2, 5, comp, [], MC_RULINGS_2).replay().cfg.goals == \
        "architect"
    assert GameRecord("microcity", 2, 5, comp, [], MicroCityState.info.rules_version
                      ).replay().cfg.goals == "residential"
    assert cfg(MC_RULINGS_2, {"stage_markers": "fixed"}).stage_markers == "fixed"


def test_micro_mob_of_rulings_2_replays_with_a_city_past_its_fifth_card() -> None:
    """A 2-player game of rulings 2 in which 'add a city card' made a 6th city card, which
    the current rules (rulebook L156: a 5th card at most) refuse."""
    old = MicroMobState.new(2, 19, {"expand": "unlimited"})
    rng = random.Random(19)
    biggest = 0
    while not old.is_over():
        p = old.to_act()[0]
        old.apply(p, rng.choice(old.legal_actions(p)))
        biggest = max(biggest, len(old.city))
    assert biggest == 6
    for version in (MM_RULINGS_2, MM_RULINGS_1, ""):
        again = GameRecord("micromob", 2, 19, {}, old.actions, version).replay()
        assert again.scores() == old.scores() and len(again.city) == len(old.city)
    with pytest.raises(GameError):
        GameRecord("micromob", 2, 19, {}, old.actions,
                   MicroMobState.info.rules_version).replay()


# -- a terminal save file of the old kind ---------------------------------------------------

def _replays_now(game: str, data: dict) -> bool:
    try:
        GameRecord(game, data["players"], data["seed"], {}, data["actions"],
                   IronTriangleState.info.rules_version).replay()
    except GameError:
        return False
    return True


class Player:
    """P1 at the keyboard: a random legal move at each prompt (Enter at any other prompt),
    or ``quit`` once ``stop`` says so; keeps every answer typed."""

    def __init__(self, seed: int, stop=lambda session: False) -> None:
        self.rng = random.Random(seed)
        self.stop = stop
        self.session: Session | None = None
        self.typed: list[str] = []

    def read(self, prompt: str) -> str:
        answer = ""
        if re.fullmatch(r"P\d+> ", prompt):
            assert self.session is not None
            if self.stop(self.session):
                answer = "quit"
            else:
                state = self.session.state
                answer = str(self.rng.choice(state.legal_actions(int(prompt[1:-2]) - 1)))
        self.typed.append(answer)
        return answer


def test_an_old_terminal_save_file_resumes_under_its_rules_to_the_end(tmp_path) -> None:
    """Saved with the old refill order and stripped of its version and option, as a save
    file of those rules would be; ``--resume`` plays it on to the end and it verifies."""
    path = tmp_path / "old.json"
    bots = {1, 2, 3, 4, 5}
    first = Player(1, stop=lambda s: not _replays_now("irontriangle", s.to_json()))
    session = Session.new("irontriangle", 6, None, bots, {"refill": "before_discard"},
                          read=first.read, write=lambda _: None, save_to=path)
    first.session = session
    assert not session.run().is_over()
    data = read_save(path).content  # the whole game, as an earlier mobadj saved it
    assert data["rules_version"] == IT_NOW and data["options"] == {"refill": "before_discard"}
    del data["rules_version"]
    data["options"] = {}
    path.write_text(json.dumps(data))
    assert not _replays_now("irontriangle", data)  # the current rules could not go on
    # where the game goes from here, played in-process: the same answers drive the CLI
    rest = Player(2)
    resumed = Session.resume(json.loads(path.read_text()), read=rest.read,
                             write=lambda _: None)
    rest.session = resumed
    assert resumed.state.options == {"refill": "before_discard"}
    final = resumed.run()
    assert final.is_over()
    result = CliRunner().invoke(main, ["play", "irontriangle", "--resume", str(path)],
                                input="\n".join(rest.typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "Game saved" not in result.output and "=== Mobsters of the Iron Triangle" \
        in result.output
    saved = json.loads(path.read_text())
    assert saved["over"] and saved["scores"] == final.scores()
    assert saved["rules_version"] == IT_NOW and saved["options"] == {"refill": "before_discard"}
    assert verify_record(saved).ok
