"""The three classic variants of ``examples/variants`` (docs/maps.md, "Three classic
variants"), each a map file and at most one hooks module, played as a newcomer plays them:
``mobadj adjudicate``, ``mobadj batch`` and a judge game by mail through real mail servers,
with nothing but ``MOBADJ_MAPS`` and ``PYTHONPATH`` pointing at the folder."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from .e2e import make_config, send, text
from .servers import IMAP_PASSWORD

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "variants"
ENV = {"MOBADJ_MAPS": str(EXAMPLES), "PYTHONPATH": os.pathsep.join([str(EXAMPLES), str(ROOT)])}

#: map -> (a position, its orders, the order to watch, its fate in the standard game and in
#: the variant)
CASES = {
    "fleetrome": (
        {"phase": "S1901M", "units": {"ITALY": ["F NAP", "F ROM", "A VEN"]},
         "centers": {"ITALY": ["NAP", "ROM", "VEN"]}},
        {"ITALY": ["F ROM - TYS", "F NAP - ION"]},
        "F ROM - TYS", ("succeeds", None), ("succeeds", None)),
    "anywhere": (
        {"phase": "W1901A", "units": {"FRANCE": ["A PAR", "F BRE"]},
         "centers": {"FRANCE": ["PAR", "BRE", "MAR", "BEL", "SPA"]}},
        {"FRANCE": ["Build A BEL", "Build A MAR"]},
        "Build A BEL", ("invalid", "not a home supply centre"), ("succeeds", None)),
    "firmsupport": (
        {"phase": "S1901M", "units": {"GERMANY": ["A RUH", "A MUN"], "FRANCE": ["A BUR"],
                                      "AUSTRIA": ["A TYR"]}},
        {"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"], "AUSTRIA": ["A TYR - MUN"]},
        "A RUH - BUR", ("fails", "destination held"), ("succeeds", None)),
}


def _run(*args: str, stdin: str | None = None) -> str:
    proc = subprocess.run([sys.executable, "-m", "mobadj", *args], input=stdin,
                          env={**os.environ, **ENV}, capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _fate(orders: list[dict], text: str) -> tuple[str, str | None]:
    found = next(o for o in orders if o["order"] == text)
    return found["result"], found["reason"]


def _order_text(orders: dict[str, list[str]]) -> str:
    return "".join(f"{power}:\n" + "".join(f"{o}\n" for o in lines)
                   for power, lines in orders.items())


def test_each_example_is_a_map_file_and_at_most_one_hooks_module():
    files = sorted(p.name for p in EXAMPLES.iterdir() if not p.name.startswith((".", "__")))
    assert files == ["anywhere.py", "anywhere.yaml", "firmsupport.py", "firmsupport.yaml",
                     "fleetrome.yaml"]
    for name in CASES:
        assert "0 error(s), 0 warning(s)" in _run("map", "check", str(EXAMPLES / f"{name}.yaml"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_mobadj_adjudicate_plays_the_example(name, tmp_path):
    position, orders, watch, standard, variant = CASES[name]
    (tmp_path / "position.yaml").write_text(json.dumps(position), encoding="utf-8")
    (tmp_path / "orders.txt").write_text(_order_text(orders), encoding="utf-8")
    seen = {}
    for game in ("standard", name):
        out = json.loads(_run("adjudicate", "--json", "--map", game,
                              str(tmp_path / "position.yaml"), str(tmp_path / "orders.txt")))
        seen[game] = _fate(out["orders"], watch)
    assert (seen["standard"], seen[name]) == (standard, variant)
    report = _run("adjudicate", "--map", name, str(tmp_path / "position.yaml"),
                  str(tmp_path / "orders.txt"))
    title = {"fleetrome": "Fleet Rome", "anywhere": "Build Anywhere",
             "firmsupport": "Firm Support"}[name]
    assert report.startswith(f"{title}: ")


def test_mobadj_batch_plays_every_example():
    lines = [{"id": f"{game}/{name}", "map": game, **CASES[name][0], "orders": CASES[name][1]}
             for name in sorted(CASES) for game in ("standard", name)]
    out = [json.loads(line) for line in
           _run("batch", "-", stdin="\n".join(map(json.dumps, lines))).splitlines()]
    assert [o["id"] for o in out] == [line["id"] for line in lines]
    for name, standard, variant in zip(sorted(CASES), out[::2], out[1::2], strict=True):
        watch, want_standard, want_variant = CASES[name][2:]
        assert _fate(standard["orders"], watch) == want_standard
        assert _fate(variant["orders"], watch) == want_variant
        assert variant["errors"] == []


#: map -> the seats of a judge game, its turns (power -> orders), and what the last turn's
#: results mail says in the variant
GAMES = {
    "fleetrome": (("italy", "austria"),
                  [{"italy": "F ROM - TYS\nF NAP - ION"}],
                  [r"F ROM - TYS\s+succeeds", r"F NAP - ION\s+succeeds"]),
    "anywhere": (("france", "germany"),
                 [{"france": "A PAR - PIC"}, {"france": "A PIC - BEL"}, {"france": "Waive"},
                  {"france": "A BEL - HOL"}, {"france": "A HOL H"},
                  {"france": "Build A BEL\nBuild A PAR"}],
                 [r"Build A BEL\s+succeeds", r"Build A PAR\s+succeeds"]),
    "firmsupport": (("france", "germany", "italy"),
                    [{"italy": "A VEN - PIE"},
                     {"france": "A PAR - BUR\nA MAR S A PAR - BUR", "germany": "A MUN - BUR",
                      "italy": "A PIE - MAR"}],
                    [r"A PAR - BUR\s+succeeds", r"A MAR S A PAR - BUR\s+succeeds",
                     r"A PIE - MAR\s+fails"]),
}


def _results_mail(servers, address: str, phase: str) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for mail in servers.inbox(address):
            if f"{phase} results" in mail["Subject"]:
                return text(mail)
        time.sleep(0.05)
    raise AssertionError(f"no {phase} results mailed to {address}")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_judge_game_of_the_example_by_mail(name, tmp_path, mail_servers, clock,
                                             monkeypatch):
    seats, turns, last_results = GAMES[name]
    monkeypatch.setenv("MOBADJ_MAPS", ENV["MOBADJ_MAPS"])
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.setenv("E2E_IMAP_PW", IMAP_PASSWORD)
    cfg = make_config(tmp_path, mail_servers)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=clock, kdf_n=2**10)
    service = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock))
    S = mail_servers
    try:
        judge.create_game("ex", name, "gm@test.org", "gm-pw", {}, seed=5)
        send(S, "gm@test.org", "GM ex gm-pw\n" + "".join(
            f"addplayer {seat}@test.org {seat}\n" for seat in seats) + "start")
        assert service.step() == 1
        pw = {seat: re.search(r"Your password: (\S+)",
                              text(S.wait_for(f"{seat}@test.org", 1)[0])).group(1)
              for seat in seats}
        for turn in turns:
            phase = judge.store.game("ex").phase
            for seat in seats:
                send(S, f"{seat}@test.org",
                     f"SIGNON ex {seat} {pw[seat]}\n{turn.get(seat, '')}\nready")
            service.step()
            assert judge.store.game("ex").phase != phase, (phase, turn)
        body = _results_mail(S, f"{seats[0]}@test.org", phase)
        assert f"Variant: {name}" in body
        for pattern in last_results:
            assert re.search(pattern, body), (pattern, body)
    finally:
        service.mailbox.close()
        store.close()


def test_docs_show_the_hooks_as_the_examples_write_them():
    doc = (ROOT / "docs" / "maps.md").read_text(encoding="utf-8")
    section = doc.split("### Three classic variants", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    for block, module in zip(blocks, ("anywhere.py", "firmsupport.py"), strict=True):
        source = (EXAMPLES / module).read_text(encoding="utf-8")
        code = [line for line in block.splitlines() if not line.lstrip().startswith('"""')]
        assert all(line in source for line in code), module
