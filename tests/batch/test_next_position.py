"""A game adjudicated from the command line, phase after phase: ``mobadj map start`` writes
the first position file, ``mobadj adjudicate ... --next FILE`` the one after each phase,
and the game goes on from those files exactly as the judge's games go on from the position
it stores (``to_data()``, read back each phase)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from mobadj.board import GameMap, load_map
from mobadj.engine import adjudicate, format_report, rules_for
from mobadj.engine.position import Position, position_from_data

ROOT = Path(__file__).resolve().parents[2]

#: what a GM of a standard game gets by mail, phase by phase (one file per phase)
STANDARD_TURNS = [
    "England:\n F LON - NTH\n F EDI - NWG\n A LVP - YOR\n"
    "France:\n A PAR - BUR\n A MAR S A PAR - BUR\n F BRE - MAO\n"
    "Germany:\n A MUN - BUR\n A BER - KIE\n F KIE - DEN\n",
    # S1901R: nobody is dislodged, so the judge goes straight to F1901M
    "England:\n F NTH C A YOR - NWY\n A YOR - NWY\n F NWG S A YOR - NWY\n"
    "France:\n A BUR - BEL\n F MAO - POR\n A MAR - SPA\n"
    "Germany:\n A KIE - HOL\n F DEN H\n",
    "England:\n Build F EDI\n Build F LON\n"  # one centre more: the second build fails
    "France:\n Build A PAR\n Build F BRE\n",
]


def stored(position: Position, game_map: GameMap) -> Position:
    """``position`` as the judge keeps it between phases: written and read back (the units
    with no order are reported in the order a position lists them)."""
    return position_from_data(position.to_data(), game_map)


def mobadj(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mobadj", *args], cwd=cwd, text=True,
                          capture_output=True, check=False)


def test_a_standard_game_goes_on_from_the_files_as_the_judge_s_games_go_on(tmp_path: Path) -> None:
    start = mobadj("map", "start", "-o", "game.yaml", cwd=tmp_path)
    assert start.returncode == 0, start.stderr
    assert (tmp_path / "game.yaml").read_text().startswith(
        "# Spring 1901 Movement (S1901M) on the standard map:\n")
    game_map = load_map("standard")
    rules = rules_for(game_map)
    position = stored(rules.initial_position(game_map), game_map)
    for turn, text in enumerate(STANDARD_TURNS):
        (tmp_path / f"turn{turn}.txt").write_text(text)
        # the position file moves on in place, as a GM keeps one game's file
        run = mobadj("adjudicate", "game.yaml", f"turn{turn}.txt", "--next", "game.yaml",
                     cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        result = adjudicate(position, rules.parse_orders(text, game_map).orders, game_map, rules)
        assert run.stdout == format_report(result, game_map, [], rules=rules)
        assert "The next position: game.yaml" in run.stderr
        position = stored(result.position, game_map)
        written = yaml.safe_load((tmp_path / "game.yaml").read_text())
        assert written == {**position.to_data(), "centers": written["centers"]}  # (by power)
        assert position_from_data(written, game_map) == position
    assert str(position.phase) == "S1902M"
    assert written["units"]["ENGLAND"] == ["A NWY", "F EDI", "F NTH", "F NWG"]  # one build
    assert written["units"]["FRANCE"] == ["A BEL", "A PAR", "A SPA", "F BRE", "F POR"]


def test_a_retreat_phase_file_keeps_the_dislodged_units_and_standoffs(tmp_path: Path) -> None:
    run = mobadj("adjudicate", str(ROOT / "orders/standard/position-s1901.yaml"),
                 str(ROOT / "orders/standard/s1901.txt"), "--next", "s1901r.yaml", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "s1901r.yaml").read_text()
    assert text.startswith("# Spring 1901 Retreats (S1901R) on the standard map:\n"
                           "# the position after Spring 1901 Movement (S1901M),\n"
                           "# written by `mobadj adjudicate --next` from position-s1901.yaml.\n"
                           "phase: S1901R\n")
    assert ("  GERMANY:\n  - unit: A BUR\n    from: PAR\n    retreats: [BEL, GAS, PIC, RUH]\n"
            in text)
    assert "standoffs: [BLA, GAL]\n" in text
    (tmp_path / "r.txt").write_text("Germany:\nA BUR - BEL\n")
    after = mobadj("adjudicate", "s1901r.yaml", "r.txt", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert "A BUR - BEL                        succeeds" in after.stdout


def test_an_unreadable_order_keeps_the_game_where_it_was(tmp_path: Path) -> None:
    game = tmp_path / "game.yaml"
    assert mobadj("map", "start", "-o", "game.yaml", cwd=tmp_path).returncode == 0
    before = game.read_bytes()
    (tmp_path / "france.txt").write_text("France:\nA PAR - BRU\nA MAR - BUR\n")
    run = mobadj("adjudicate", "game.yaml", "france.txt", "--next", "game.yaml", cwd=tmp_path)
    assert run.returncode == 1  # the results are printed all the same
    assert "A MAR - BUR" in run.stdout
    assert ("game.yaml: not written: some order lines could not be read; fix them and run "
            "the phase again") in run.stderr
    assert game.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["france.txt", "game.yaml"]


def test_next_into_a_missing_folder_is_refused_before_anything_is_done(tmp_path: Path) -> None:
    run = mobadj("adjudicate", str(ROOT / "orders/standard/position-s1901.yaml"),
                 "--next", "no/such/folder/next.yaml", cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert "Invalid value for --next: no/such/folder/next.yaml: no such folder" in run.stderr


def test_a_mobtown_game_goes_on_from_the_files(tmp_path: Path) -> None:
    game_map = load_map("mobtown2")
    rules = rules_for(game_map)
    source = ROOT / "orders/mobtown2/position-1919-07-W1-M.yaml"
    position = stored(rules.position_from_data(yaml.safe_load(source.read_text()), game_map),
                      game_map)
    opening = (ROOT / "orders/mobtown2/opening.txt").read_text()
    (tmp_path / "game.yaml").write_text(source.read_text())
    (tmp_path / "opening.txt").write_text(opening)
    (tmp_path / "none.txt").write_text("")
    for orders in ("opening.txt", "none.txt", "none.txt"):
        run = mobadj("adjudicate", "--map", "mobtown2", "game.yaml", orders, "--next",
                     "game.yaml", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        text = (tmp_path / orders).read_text()
        result = adjudicate(position, rules.parse_orders(text, game_map).orders, game_map,
                            rules)
        assert run.stdout == format_report(result, game_map, [], rules=rules)
        position = stored(result.position, game_map)
        written = yaml.safe_load((tmp_path / "game.yaml").read_text())
        assert rules.position_from_data(written, game_map) == position
    assert (tmp_path / "game.yaml").read_text().startswith(
        f"# {position.phase.long_name()} ({position.phase}) on the mobtown2 map:\n")


def test_map_start_prints_a_position_adjudicate_reads(tmp_path: Path) -> None:
    run = mobadj("map", "start", "mobtown2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    data = yaml.safe_load(run.stdout)
    assert data["phase"] == "1919-06-START"
    assert data["units"]["capone"] == ["G Bnx", "G DAN", "G DAS"]
    refused = mobadj("map", "start", "mobtown2", "--year", "1920", cwd=tmp_path)
    assert refused.returncode == 2
    assert "the mobtown2 map's games start in Weekend at the end of June 1919" in refused.stderr
    assert yaml.safe_load(mobadj("map", "start", "--year", "1950", cwd=tmp_path).stdout)[
        "phase"] == "S1950M"
    unknown = mobadj("map", "start", "standrd", cwd=tmp_path)
    assert unknown.returncode == 1 and "no map 'standrd'" in unknown.stderr
