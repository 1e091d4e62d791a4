"""The worked example of docs/maps.md, "Adding a variant", built from the page itself: one map
file and one hooks module in directories of their own, played through ``mobadj adjudicate``,
``mobadj batch`` and a judge game by mail (real SMTP and IMAP servers), no other file touched."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from .servers import IMAP_PASSWORD
from .test_e2e import make_config, send, text

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "maps.md"
ITALY_AND_AUSTRIA = {
    "phase": "S1901M",
    "units": {"ITALY": ["A VEN", "A ROM", "F NAP"], "AUSTRIA": ["F TRI", "A VIE", "A BUD"]},
    "centers": {"ITALY": ["VEN", "ROM", "NAP"], "AUSTRIA": ["TRI", "VIE", "BUD"]},
}
ORDERS = {"ITALY": ["A VEN - TYR", "A ROM - VEN"], "AUSTRIA": ["F TRI - VEN"]}


def _example() -> tuple[str, str]:
    """The map keys and the hooks module exactly as the page shows them."""
    section = DOC.read_text(encoding="utf-8").split("## Adding a variant", 1)[1]
    yaml_block = re.search(r"```yaml\n(.*?)```", section, re.S)
    python_block = re.search(r"```python\n(.*?)```", section, re.S)
    assert yaml_block and python_block, "docs/maps.md lost its worked example"
    return yaml_block.group(1), python_block.group(1)


@pytest.fixture(scope="module")
def variant(tmp_path_factory) -> dict[str, str]:
    """``maps/homeguard.yaml`` (the standard map with the page's first keys) and
    ``homeguard.py``, each in a directory of its own; the environment that finds them."""
    keys, module = _example()
    home = tmp_path_factory.mktemp("homeguard")
    (home / "maps").mkdir()
    (home / "hooks").mkdir()
    standard = (ROOT / "maps" / "standard.yaml").read_text(encoding="utf-8")
    body = re.sub(r"^(name|title|variant):.*\n", "", standard, flags=re.M)
    (home / "maps" / "homeguard.yaml").write_text(keys + body, encoding="utf-8")
    (home / "hooks" / "homeguard.py").write_text(module, encoding="utf-8")
    return {"MOBADJ_MAPS": str(home / "maps"), "PYTHONPATH": str(home / "hooks")}


def _run(variant: dict[str, str], *args: str, stdin: str | None = None) -> str:
    env = {**os.environ, **variant}
    env["PYTHONPATH"] = os.pathsep.join([variant["PYTHONPATH"], str(ROOT)])
    proc = subprocess.run([sys.executable, "-m", "mobadj", *args], input=stdin, env=env,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _fate(orders: list[dict], text: str) -> tuple[str, str | None]:
    found = next(o for o in orders if o["order"] == text)
    return found["result"], found["reason"]


def test_mobadj_adjudicate_plays_the_variant(variant, tmp_path):
    position = tmp_path / "position.yaml"
    position.write_text(json.dumps(ITALY_AND_AUSTRIA), encoding="utf-8")
    orders = tmp_path / "orders.txt"
    orders.write_text("Italy:\nA VEN - TYR\nA ROM - VEN\nAustria:\nF TRI - VEN\n")
    seen = {}
    for name in ("standard", "homeguard"):
        out = json.loads(_run(variant, "adjudicate", "--json", "--map", name, str(position),
                              str(orders)))
        seen[name] = _fate(out["orders"], "A ROM - VEN"), _fate(out["orders"], "F TRI - VEN")
    assert seen["standard"] == (("fails", "bounced"), ("fails", "bounced"))
    assert seen["homeguard"] == (("succeeds", None), ("fails", "bounced"))
    report = _run(variant, "adjudicate", "--map", "homeguard", str(position), str(orders))
    assert report.startswith("Home Guard: Spring 1901 Movement")


def test_mobadj_batch_plays_the_variant(variant):
    lines = [{"id": name, "map": name, **ITALY_AND_AUSTRIA, "orders": ORDERS}
             for name in ("standard", "homeguard")]
    out = [json.loads(line) for line in
           _run(variant, "batch", "-", stdin="\n".join(map(json.dumps, lines))).splitlines()]
    assert [o["id"] for o in out] == ["standard", "homeguard"]
    assert _fate(out[0]["orders"], "A ROM - VEN") == ("fails", "bounced")
    assert _fate(out[1]["orders"], "A ROM - VEN") == ("succeeds", None)
    assert "A VEN" in out[1]["units"]["ITALY"] and out[1]["errors"] == []


def test_a_judge_game_of_the_variant_by_mail(variant, tmp_path, mail_servers, clock,
                                            monkeypatch):
    monkeypatch.setenv("MOBADJ_MAPS", variant["MOBADJ_MAPS"])
    monkeypatch.syspath_prepend(variant["PYTHONPATH"])
    monkeypatch.setenv("E2E_IMAP_PW", IMAP_PASSWORD)
    cfg = make_config(tmp_path, mail_servers)
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=clock, kdf_n=2**10)
    service = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name, clock))
    try:
        S = mail_servers
        judge.create_game("hg", "homeguard", "gm@test.org", "gm-pw", {}, seed=5)
        send(S, "gm@test.org", "GM hg gm-pw\naddplayer ita@test.org Italy\n"
             "addplayer aut@test.org Austria\nstart")
        assert service.step() == 1
        pw = {who: re.search(r"Your password: (\S+)",
                             text(S.wait_for(f"{who}@test.org", 1)[0])).group(1)
              for who in ("ita", "aut")}
        send(S, "ita@test.org", f"SIGNON hg italy {pw['ita']}\nA VEN - TYR\nA ROM - VEN\nready")
        send(S, "aut@test.org", f"SIGNON hg austria {pw['aut']}\nF TRI - VEN\nready")
        service.step()
        assert judge.store.game("hg").phase == "F1901M"
        mails = S.wait_for("ita@test.org", 4)
        body = text(next(m for m in mails if "S1901M results" in m["Subject"]))
        assert "Variant: homeguard" in body
        assert re.search(r"A ROM - VEN\s+succeeds", body)
        assert re.search(r"F TRI - VEN\s+fails: bounced", body)
    finally:
        service.mailbox.close()
        store.close()
