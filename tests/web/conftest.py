"""A judge's store with a few games played by mail through the real judge: a Diplomacy game
with press (public, grey and private), a Mobtown II game, a finished card game, a forming
game and a private game."""

from __future__ import annotations

import random

import pytest

from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.store import Store
from mobadj.web.demo import Table, play_board, play_cards
from mobadj.web.pages import Site

START = 1_800_000_000.0
SECRET_PRESS = "PRIVATE-PLAN-7781: let us attack Munich together"
PUBLIC_PRESS = "PUBLIC-NOTICE-4410: England wants peace"
GREY_PRESS = "GREY-RUMOUR-2290: Russia cannot be trusted"


class World:
    def __init__(self, path) -> None:
        self.clock_now = START
        self.config = config_from_data({"judge": {
            "name": "Test Judge", "address": "judge@test.org", "data_dir": str(path),
            "gm_addresses": ["gm@test.org"]}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, clock=self.clock, kdf_n=2**10)
        rng = random.Random(5)
        self.dip = Table(self.judge, "dip", "standard", press="grey")
        self.dip.say("ENGLAND", f"PRESS TO ALL\n{PUBLIC_PRESS}\nENDPRESS")
        self.dip.say("FRANCE", f"PRESS TO ENGLAND\n{SECRET_PRESS}\nENDPRESS")
        play_board(self.dip, 3, rng)
        self.dip.say("TURKEY", f"PRESS TO ALL GREY\n{GREY_PRESS}\nENDPRESS")
        play_board(self.dip, 3, rng)
        self.dip.say("ENGLAND", "F EDI - NTH")  # given for the current phase: secret
        self.mob = Table(self.judge, "mob", "mobtown2")
        play_board(self.mob, 3, rng)
        self.cards = Table(self.judge, "cards", "micromob", seats=["P1", "P2", "P3"],
                           seed=1_234_567_890)
        play_cards(self.cards, rng)
        self.judge.create_game("newgame", "standard", "gm@test.org", "gm-secret", {}, seed=3)
        with self.store.transaction():
            self.judge.add_player(self.store.game("newgame"), "ann@test.org", "FRANCE", "pw",
                                  self.clock(), [])
        self.secret = Table(self.judge, "secret", "standard")
        play_board(self.secret, 1, rng)
        with self.store.transaction():
            self.store.set_web_key("secret", "the-right-key-123", self.clock())
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Test Judge", "Europe/London", clock=self.clock)

    def clock(self) -> float:
        return self.clock_now


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    w = World(tmp_path_factory.mktemp("web-world"))
    yield w
    w.readonly.close()
    w.store.close()
