"""Mice Heist's deck option on a judge: only the built-in decks.  A GM cannot make the judge
read a file of its machine, whatever it holds (a secret, or a valid deck); the terminal still
takes a deck file."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from mobadj.cards.miceheist.data import DATA_FILE
from mobadj.cards.miceheist.engine import MiceHeistState
from mobadj.cards.protocol import IllegalAction
from mobadj.cli import main
from mobadj.judge.hosts import HostError, host_for

from .helpers import mail
from .test_cards import setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def gm_mail(judge, body: str):
    return judge.handle_mail(mail("gm@test.org", body))


def create_by_mail(judge, deck: str) -> str:
    """CREATE, two players and START, all by mail from the judge's GM; the START reply (or
    the CREATE reply, when CREATE is refused)."""
    reply = gm_mail(judge, f"CREATE mh miceheist gm-pw-1 game_deck={deck}\n"
                           "ADDPLAYER p1@test.org P1\nADDPLAYER p2@test.org P2")[0].body
    if "CREATE refused" in reply:
        return reply
    assert "Game mh (miceheist) created" in reply, reply
    return gm_mail(judge, "GM mh gm-pw-1\nSTART")[0].body


@pytest.mark.parametrize("kind", ["a secret", "a valid deck"])
def test_a_gm_cannot_make_the_judge_read_a_file(judge, tmp_path, kind) -> None:
    path = tmp_path / "deck.yaml"
    if kind == "a secret":
        path.write_text("root:TOP-SECRET-TOKEN:0:0\nversion: 1\n")
    else:
        shutil.copy(DATA_FILE, path)
    reply = create_by_mail(judge, str(path))
    assert ("CREATE refused: Mice Heist does not take these options: option deck: a judge "
            "plays only the built-in decks (standard)") in reply
    assert "TOP-SECRET" not in reply
    assert judge.store.game("mh") is None  # no game is made
    assert all("TOP-SECRET" not in m.body for m in judge.store.all_mail())


def test_a_built_in_deck_by_name(judge) -> None:
    reply = create_by_mail(judge, "standard")
    assert "Game started" in reply, reply
    state = judge.store.game("mh").state
    assert state["options"] == {"deck": "standard"}


def test_any_judge_path_refuses_a_deck_file(judge, tmp_path) -> None:
    """Not only by mail: a game created from the command line starts through the same host."""
    path = tmp_path / "deck.yaml"
    shutil.copy(DATA_FILE, path)
    with pytest.raises(HostError, match="a judge plays only the built-in decks"):
        setup_game(judge, "miceheist", 2, game_deck=str(path))
    assert judge.store.game("cg") is None  # refused when it is created
    host = host_for("miceheist")
    state = host.new_state(["P1", "P2"], 1, {"game_deck": "Standard"})  # any case
    assert host.due(state)


def test_the_hosted_check_and_the_terminal(tmp_path) -> None:
    MiceHeistState.check_hosted_options({"deck": "standard"})
    MiceHeistState.check_hosted_options({})
    with pytest.raises(IllegalAction, match="never a file of its machine"):
        MiceHeistState.check_hosted_options({"deck": str(DATA_FILE)})
    assert MiceHeistState.new(2, 1, {"deck": "standard"}).data is MiceHeistState.new(2, 1).data
    path = tmp_path / "deck.yaml"
    shutil.copy(DATA_FILE, path)
    for deck in ("standard", str(path)):  # the terminal takes a name or a file
        result = CliRunner().invoke(main, ["play", "miceheist", "-o", f"deck={deck}",
                                           "--simulate", "1"])
        assert result.exit_code == 0, result.output
