"""bench/peers/agree.py: mobadj's answers against godip's and dipcc's, and every disagreement
named.  The peers' answers are recorded (tests/bench_agree/, written by the drivers of
bench/peers/ for fourteen phases of bench/games.py, seed 1: ids "g..." from before its
phases stopped following the hash seed, "h..." from after); mobadj answers for real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.peers.agree import (
    OPTIONS,
    compare,
    dipcc_board,
    disagreement,
    godip_board,
    mobadj_answers,
    mobadj_board,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "bench_agree"
PHASES = DATA / "phases.jsonl"


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(text) for text in path.read_text().splitlines()]


def test_every_disagreement_gets_its_class() -> None:
    lines = _lines(PHASES)
    ours = mobadj_answers(lines)
    optioned = {kind: mobadj_answers(lines, options) for kind, options in OPTIONS.items()}
    godip = compare(lines, ours, _lines(DATA / "godip.jsonl"), "godip", optioned)
    assert (godip.compared, godip.agreeing) == (14, 8)
    assert godip.classes == {"convoyed-dislodger-dropped": ["g2-16"],
                             "via-convoy-over-land": ["g1-3", "g26-35"],
                             "head-to-head-own-support": ["g3-28", "h60-11"],
                             "convoyed-attack-cuts-support": ["h15-38"]}
    dipcc = compare(lines, ours, _lines(DATA / "dipcc.jsonl"), "dipcc", optioned)
    assert (dipcc.compared, dipcc.agreeing) == (14, 8)
    # g0-19: a convoy paradox only when the army may fall back on its land route
    assert dipcc.classes == {"convoyed-dislodger-dropped": ["g2-16"],
                             "via-convoy-over-land": ["g1-3", "g0-19", "g26-35"],
                             "convoy-target-supports-attack-on-fleet": ["g2-15", "h31-20"]}
    # the dipcc driver before it wrote the coast dipcc needs (F NWY - STP refused) and
    # passed on that an attacker came by convoy (the retreat to its origin refused)
    coastless = compare(lines, ours, _lines(DATA / "dipcc-coastless.jsonl"), "dipcc", optioned)
    assert coastless.classes["coast-implied"] == ["g1-18"]
    assert coastless.classes["unexplained"] == ["h11-18"]
    # without mobadj's answers under the option, the VIA CONVOY phases are unexplained
    assert compare(lines, ours, _lines(DATA / "godip.jsonl"), "godip", {}).classes[
        "unexplained"] == ["g1-3", "g26-35"]


def test_a_disagreement_no_class_explains_is_unexplained() -> None:
    lines = _lines(PHASES)
    godip = _lines(DATA / "godip.jsonl")
    units = godip[0]["units"]
    assert isinstance(units, dict)
    units["France"] = ["A BUR" if u == "A PAR" else u for u in units["France"]]
    optioned = {kind: mobadj_answers(lines, options) for kind, options in OPTIONS.items()}
    assert compare(lines, mobadj_answers(lines), godip, "godip", optioned).classes[
        "unexplained"] == ["g0-0"]


def test_a_line_a_peer_could_not_answer_is_counted_and_the_rest_compared() -> None:
    lines = _lines(PHASES)
    godip, dipcc = _lines(DATA / "godip.jsonl"), _lines(DATA / "dipcc.jsonl")
    godip[1] = {"id": None, "units": None, "errors": ["unexpected end of JSON input"]}
    dipcc[1] = {"errors": ["[json.exception.parse_error.101]"]}
    ours = mobadj_answers(lines)
    for peer, answers in (("godip", godip), ("dipcc", dipcc)):
        tally = compare(lines, ours, answers, peer, {})
        assert tally.classes["peer-error"] == ["g0-1"]
        assert tally.compared == 14


def test_each_side_is_read_in_its_own_notation() -> None:
    """godip's names of the seas and nations, dipcc's dislodged units (marked "*", with
    their retreats, none when the unit is disbanded), mobadj's."""
    ours = mobadj_board({"units": {"FRANCE": ["F MAO", "F SPA/SC"]},
                         "dislodged": {"ITALY": [{"unit": "F LYO", "from": "MAR",
                                                  "retreats": ["TYS"]}]},
                         "destroyed": {"ITALY": ["A PIE"]},
                         "orders": [{"order": "F POR - MAO", "result": "succeeds"},
                                    {"order": "F MAO S F POR - SPA", "result": "fails"}]})
    godip = godip_board({"units": {"France": ["F MID", "F SPA/SC"]},
                         "dislodged": {"Italy": ["F GOL"]},
                         "orders": {"F POR - MAO": "succeeds", "mid": "succeeds"}})
    dipcc = dipcc_board({"units": {"FRANCE": ["F MAO", "F SPA/SC"],
                                   "ITALY": ["*F LYO", "*A PIE"]},
                         "retreats": {"FRANCE": {}, "ITALY": {"F LYO": ["TYS"], "A PIE": []}}})
    assert ours.units == godip.units == dipcc.units
    assert ours.dislodged == godip.dislodged == dipcc.dislodged == {("ITALY", "F LYO")}
    assert ours.moved == godip.moved == {"F POR - MAO": True}
    assert dipcc.moved is None
    assert disagreement(ours, godip) == disagreement(ours, dipcc) == set()
    bounced = godip_board({"units": {"France": ["F MID", "F SPA/SC"]},
                           "dislodged": {"Italy": ["F GOL"]},
                           "orders": {"F POR - MAO": "ErrBounce:mid"}})
    assert disagreement(ours, bounced) == {"POR"}


def test_the_command_prints_the_counts_and_an_example_of_each_class() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench.peers.agree", "--godip", f"cat {DATA / 'godip.jsonl'}",
         "--dipcc", f"cat {DATA / 'dipcc.jsonl'}", str(PHASES)],
        cwd=ROOT, check=True, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    assert lines[0] == "godip: 14 phases compared, 8 agree"
    assert lines[1].startswith("  convoyed-dislodger-dropped: 1 (e.g. g2-16): mobadj rejects")
    assert lines[2].startswith("  via-convoy-over-land: 2 (e.g. g1-3): ")
    assert "dipcc: 14 phases compared, 8 agree" in lines
    assert "unexplained" not in run.stdout
