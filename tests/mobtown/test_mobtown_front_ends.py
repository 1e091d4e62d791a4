"""`mobadj batch` with "map": "mobtown2" (a real subprocess) and `mobadj adjudicate`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from mobadj.batch import run_case
from mobadj.cli import main
from mobadj.engine import rules_for

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "orders" / "mobtown2"

EXAMPLE_C = {
    "id": "c", "map": "mobtown2", "phase": "1919-07-W2-M",
    "units": {"Murder Inc.": ["G PPU", "G Pel", "G Mic"], "BABYFACE": ["G Bgt", "G Mem", "D Mem"]},
    "centers": {"murderinc": ["MaE"]},
    "orders": {"Murder Inc.": ["G(PPU) & G(Pel) S G(Mic)-Mem", "G(Mic)-Mem"],
               "BABYFACE": ["G(Bgt) S G(Mem)-U-Mic", "G(Mem)-U-Mic", "G(Bgt)-Zzz"]},
}


def _batch(lines: list[dict]) -> list[dict]:
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_batch_contract_subprocess():
    start = {"id": "s", "map": "mobtown2", "phase": "1919-06-START",
             "units": {"capone": ["G DAN", "G DAS", "G Bnx"]}, "centers": {"capone": ["DAN"]},
             "orders": {"Capone": ["D DAS"]}}
    retreat = {"id": "r", "map": "mobtown2", "phase": "1919-07-W1-R", "units": {},
               "dislodged": {"babyface": [{"unit": "G Mem", "from": "WCP", "via": "subway"}]},
               "orders": {"babyface": ["G(Mem)-PPL"]}}
    out_s, out_c, out_r = _batch([start, EXAMPLE_C, retreat])
    assert out_s["next_phase"] == "1919-07-W1-M"
    assert "D DAS" in out_s["units"]["capone"]  # spelt as the input first did
    assert out_s["units"]["lepke"] == ["D Pie"]  # no order: first home centre
    assert out_c["phase"] == "1919-07-W2-M" and out_c["next_phase"] == "1919-07-W2-R"
    orders = out_c["orders"]
    assert [o["order"] for o in orders[:2]] == ["G(PPU) & G(Pel) S G(Mic)-Mem"] * 2
    assert [o["part"] for o in orders[:2]] == ["G PPU S G Mic - Mem", "G Pel S G Mic - Mem"]
    assert {o["order"]: o["result"] for o in orders}["G(Mic)-Mem"] == "succeeds"
    assert orders[-1]["result"] == "invalid" and "Zzz" in orders[-1]["reason"]
    assert out_c["errors"] and "Zzz" in out_c["errors"][0]
    (d,) = out_c["dislodged"]["BABYFACE"]
    assert d == {"unit": "G Mem", "from": "Mic", "via": "ground",
                 "retreats": ["PPL", "U-WCP"]}
    assert out_c["units"]["BABYFACE"] == ["D Mem captive", "G Bgt"]
    assert out_r["orders"][0]["result"] == "invalid"
    assert "only by subway" in out_r["orders"][0]["reason"]


def test_batch_orders_with_the_mob_name_as_printed():
    case = {"id": "a", "map": "mobtown2", "phase": "1919-07-W1-M",
            "units": {"capone": ["G Mic"], "murderinc": ["G Mem"], "lepke": ["G Cit"]},
            "orders": {"capone": ["Al Capone G(Mic)-U-P49"],
                       "murderinc": ["Murder Inc. G(Mem)-U-WCP"],
                       "lepke": ["G(Cit)-U-Mic", "Al Capone G(Cit) H"]}}
    out = run_case(case)
    assert [o["result"] for o in out["orders"]] == ["succeeds"] * 3 + ["invalid"]
    assert "listed under lepke" in out["orders"][3]["reason"]


def test_batch_errors_never_crash():
    out = run_case({"id": 1, "map": "mobtown2", "phase": "S1901M"})
    assert out["next_phase"] is None and "1919-07-W1-M" in out["errors"][0]
    bad_option = run_case({"id": 2, "map": "mobtown2", "phase": "1919-07-W1-M",
                           "options": {"no_such": True}})
    assert "unknown Mobtown option" in bad_option["errors"][0]
    good = run_case({"id": 3, "map": "mobtown2", "phase": "1919-07-W1-M",
                     "options": {"captive_don_helps": True},
                     "units": {"capone": ["G Col"], "lepke": ["D Col", "G Lex"]},
                     "orders": {"capone": ["G+D(Col)-Lex"]}})
    assert good["orders"][0]["result"] == "succeeds"


def test_adjudicate_cli_report_and_picture(tmp_path):
    pic = tmp_path / "c.svg"
    result = CliRunner().invoke(main, [
        "adjudicate", "--map", "mobtown2", str(ORDERS / "example-c.yaml"),
        str(ORDERS / "example-c.txt"), "--picture", str(pic)])
    assert result.exit_code == 0, result.output
    assert "G Mic - Mem" in result.output and "Dislodged Gangs" in result.output
    assert "U-WCP" in result.output and "1919-07-W1-R" in result.output
    svg = pic.read_text()
    assert svg.startswith("<svg") and "Mem" in svg


def test_adjudicate_cli_json_and_options():
    result = CliRunner().invoke(main, [
        "adjudicate", "--map", "mobtown2", "--json", "--option", "subway_retreats=any",
        str(ORDERS / "example-b.yaml"), str(ORDERS / "example-b.txt")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [o["result"] for o in data["orders"]] == ["fails", "fails", "succeeds", "succeeds"]
    bad = CliRunner().invoke(main, ["adjudicate", "--map", "mobtown2", "--option", "x=1",
                                    str(ORDERS / "example-b.yaml")])
    assert bad.exit_code != 0 and "unknown Mobtown option" in bad.output


def test_batch_last_order_wins_as_on_the_standard_map():
    case = {"id": "d", "map": "mobtown2", "phase": "1919-07-W1-M",
            "units": {"capone": ["G Mic", "G Cit"]},
            "orders": {"capone": ["G(Mic)-Mem", "G(Cit) & G(Mic) H", "G(Mic)-U-P49"]}}
    out = run_case(case)
    assert out["orders"] == [
        {"power": "capone", "order": "G(Mic)-Mem", "result": "invalid",
         "reason": "replaced by the later order 'G(Cit) & G(Mic) H' for the same unit"},
        {"power": "capone", "order": "G(Cit) & G(Mic) H", "result": "succeeds", "reason": None,
         "part": "G Cit H"},
        {"power": "capone", "order": "G(Cit) & G(Mic) H", "result": "invalid",
         "reason": "replaced by the later order 'G(Mic)-U-P49' for the same unit",
         "part": "G Mic H"},
        {"power": "capone", "order": "G(Mic)-U-P49", "result": "succeeds", "reason": None}]
    assert out["units"]["capone"] == ["G Cit", "G P49"] and out["errors"] == []
    first = run_case({**case, "options": {"duplicate_orders": "first",
                                          "captive_don_helps": True}})
    assert [o["result"] for o in first["orders"]] == ["succeeds", "succeeds", "invalid",
                                                       "invalid"]
    assert first["orders"][3]["reason"] == "unit already ordered"
    assert first["units"]["capone"] == ["G Cit", "G Mem"]
    bad = run_case({**case, "options": {"duplicate_orders": "never"}})
    assert bad["errors"] == ["duplicate_orders must be last or first, not 'never'"]


def test_two_don_placements_the_later_counts_in_batch_and_order_files(tmp_path):
    """Rule 6 placements follow the rule of every order (docs/mobtown-rulings.md): the last
    of a mob's placements counts, the earlier is replaced with the same words as a move."""
    case = {"id": "p", "map": "mobtown2", "phase": "1919-06-START",
            "units": {"capone": ["G DAN", "G DAS", "G Bnx"]},
            "centers": {"capone": ["DAN", "DAS", "Bnx"]},
            "orders": {"capone": ["D DAN", "D Bnx"], "lepke": ["D Que"]}}
    (out,) = _batch([case])
    assert out["orders"][:2] == [
        {"power": "capone", "order": "D DAN", "result": "invalid",
         "reason": "replaced by the later order 'D Bnx' for the same unit"},
        {"power": "capone", "order": "D Bnx", "result": "succeeds", "reason": None}]
    assert "D Bnx" in out["units"]["capone"] and "D Que" in out["units"]["lepke"]
    first = run_case({**case, "options": {"duplicate_orders": "first"}})
    assert "D DAN" in first["units"]["capone"]
    orders = tmp_path / "place.txt"
    orders.write_text("Legs Diamond: D P37\nLegs Diamond: D Brk\nLepke: D Que\n")
    result = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", "--map", "mobtown2",
                             str(ORDERS / "position-1919-06-START.yaml"), str(orders)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "'D P37' is replaced by the later order 'D Brk' (line 2)" in result.stderr
    assert "already placed" not in result.stdout
    assert "Legs Diamond:\n  D Brk                              succeeds\n" in result.stdout


def test_game_page_table_of_the_dons_and_the_gaol():
    rules = rules_for("mobtown2")
    names = {"capone": "Al Capone", "lepke": "Lepke", "luciano": "Lucky Luciano"}
    data = {"units": {"capone": ["G Har", "G Lex", "D Lex"], "lepke": ["D Har captive"],
                      "luciano": ["G MTPD", "G MTPD", "D WCP"]}}
    (table,) = rules.page_tables(data, names)
    assert (table.title, table.columns) == ("Dons and the gaol", ("Mob", "Don"))
    assert table.rows == (("Al Capone", "Lex"), ("Lepke", "Har — captive of Al Capone"),
                          ("Lucky Luciano", "WCP"))
    assert table.note == "In gaol (MTPD) at the start of the phase: Lucky Luciano 2 Gangs."
    assert rules.page_tables({"units": {}}, names) == []
    assert rules_for("standard").page_tables(data, names) == []
    assert rules.page_words["calendar"] == "Calendar" and rules.page_legend


def test_a_highway_crossing_with_one_support_is_not_told_it_lacks_one():
    """Rule 4's own example: G(P22) S G(GoG)-Bur gives the extra support, and the move into
    a held Burbank still fails; the reason says what it needed, not that the support is
    missing."""
    (out,) = _batch([{"id": "h", "map": "mobtown2", "phase": "1919-07-W1-M",
                      "units": {"capone": ["G GoG", "G P22"], "diamond": ["G Bur"]},
                      "orders": {"capone": ["G(GoG)-Bur", "G(P22) S G(GoG)-Bur"]}}])
    move = out["orders"][0]
    assert move["result"] == "fails"
    assert move["reason"] == (
        "not strong enough to cross a highway where no junction is: that needs an extra "
        "support, one more than an ordinary move (1 into an empty space, 2 against a Gang "
        "holding alone; rule 4, ruling 15)")


def _line(units: dict, orders: dict, **more) -> dict:
    return run_case({"id": "x", "map": "mobtown2", "phase": "1919-07-W1-M", "units": units,
                     "orders": orders, **more})


def _said(out: dict, order: str) -> tuple[str, str | None]:
    return next((o["result"], o["reason"]) for o in out["orders"] if o["order"] == order)


def test_a_support_naming_a_don_is_read_as_one_for_the_gang_beside_him():
    """Ruling 29: G(Pel) S D(Mic) supports Al Capone's Gang in Mic, and the result says so;
    with the Don alone there is nothing to support (rule 3, ruling 4)."""
    attack = {"diamond": ["G(Bgt)-Mic", "G(Kin) S G(Bgt)-Mic"]}
    held = _line({"capone": ["G Mic", "D Mic", "G Pel"], "diamond": ["G Bgt", "G Kin"]},
                 {"capone": ["G(Pel) S D(Mic)"], **attack})
    assert _said(held, "G(Pel) S D(Mic)") == (
        "succeeds", "supports the Gang standing with the Don: an order naming a Don is read by "
        "his space (ruling 29)")
    assert _said(held, "G(Bgt)-Mic")[0] == "fails" and "G Mic" in held["units"]["capone"]
    moved = _line({"capone": ["G Mic", "D Mic", "G Pel"], "diamond": ["G Mem"]},
                  {"capone": ["G(Pel) S D(Mic)-Mem", "G+D(Mic)-Mem"]})
    assert _said(moved, "G(Pel) S D(Mic)-Mem")[0] == "succeeds"
    assert "ruling 29" in str(_said(moved, "G(Pel) S D(Mic)-Mem")[1])
    alone = _line({"capone": ["D Mic", "G Pel"], "diamond": ["G Bgt"]},
                  {"capone": ["G(Pel) S D(Mic)"], "diamond": ["G(Bgt)-Mic"]})
    assert _said(alone, "G(Pel) S D(Mic)") == (
        "invalid", "a Don alone has no strength and cannot be supported (rule 3, ruling 4)")


def test_supports_of_the_gaol_quote_the_rule():
    """Rule 7, ruling 6: a gaoled Gang cannot be supported, nor a move into MTPD."""
    gaoled = _line({"capone": ["G Riv"], "diamond": ["G MTPD"]},
                   {"capone": ["G(Riv) S G(MTPD)"]})
    assert _said(gaoled, "G(Riv) S G(MTPD)") == (
        "invalid", "a gaoled Gang can be neither ordered nor supported nor attacked (rule 7, "
        "ruling 6)")
    into = _line({"capone": ["G Riv", "G DSt"], "diamond": ["G MTPD"]},
                 {"capone": ["G(DSt) S G(Riv)-MTPD", "G(Riv)-MTPD"]})
    assert _said(into, "G(DSt) S G(Riv)-MTPD") == (
        "fails", "nobody enters MTPD by a movement, so no move there can be supported (rule 7, "
        "ruling 6)")


def test_the_player_guides_mobtown_examples_are_legal_orders():
    """A player who copies the guide's examples of the rulebook notation gets orders the
    board takes, each for a Gang standing where it names."""
    guide = (ROOT / "docs" / "player-guide.md").read_text()
    text = guide.split("Mobtown II uses the rulebook's notation:")[1].split(", and at the")[0]
    examples = re.findall(r"`(G[^`]*)`", text)
    assert len(examples) >= 4, examples
    for order in examples:
        space = re.match(r"G(?:\+D)?\((\w+)\)", order)
        assert space is not None, order
        units, orders = ["G " + space[1], "D " + space[1]], [order]
        supported = re.search(r"S G\((\w+)\)-(\w+)$", order)
        if supported is not None:  # the supported Gang and its move
            units.append("G " + supported[1])
            orders.append(f"G({supported[1]})-{supported[2]}")
        out = _line({"capone": units}, {"capone": orders})
        assert all(o["result"] != "invalid" for o in out["orders"]), (order, out["orders"])
