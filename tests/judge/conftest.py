"""Fixtures: a judge on a real SQLite file with an injected clock; the real mail servers
(pymap IMAP + aiosmtpd SMTP) live in servers.py and start only for the tests that use them."""

from __future__ import annotations

import pytest
import yaml

from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.hosts import register
from mobadj.judge.store import Store

from .e2e import service  # noqa: F401  (fixture)
from .helpers import Clock
from .servers import _servers, mail_servers  # noqa: F401  (fixtures)
from .toyhost import ToyHost

register(ToyHost())


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def config(tmp_path):
    return config_from_data({
        "judge": {"name": "Test Judge", "address": "judge@test.org", "data_dir": str(tmp_path),
                  "timezone": "Europe/London", "gm_addresses": ["gm@test.org"]},
    })


@pytest.fixture
def cfg(tmp_path):
    """A judge.yaml of the least a GM writes (the store in d/), for the command line."""
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d",
                                              "timezone": "UTC"}}))
    return path


@pytest.fixture
def judge(tmp_path, config, clock):
    store = Store(tmp_path / "judge.sqlite")
    j = Judge(store, config, clock=clock, kdf_n=2**10)
    yield j
    store.close()


class Table:
    """A started toy game with four players whose passwords the test knows."""

    def __init__(self, judge: Judge, kind: str = "toy", **options: object) -> None:
        self.judge = judge
        self.game, self.gm_password = judge.create_game(
            "g1", kind, "gm@test.org", "gm-secret", dict(options), seed=7)
        self.emails = {}
        self.passwords = {}
        with judge.store.transaction():
            out: list = []
            for seat in judge_seats(judge, kind, self.game.options):
                email = f"{seat.lower()}@test.org"
                pw = f"pw-{seat.lower()}"
                judge.add_player(self.game, email, seat, pw, judge.clock(), out)
                self.emails[seat] = email
                self.passwords[seat] = pw
            judge.start(judge.store.game("g1"), judge.clock(), out)
            judge.queue(out, judge.clock())

    def signon(self, seat: str) -> str:
        return f"SIGNON g1 {seat} {self.passwords[seat]}\n"


def judge_seats(judge: Judge, kind: str, options: dict) -> list[str]:
    from mobadj.judge.hosts import host_for

    return host_for(kind).seats(options)


@pytest.fixture
def table(judge):
    return Table(judge)
