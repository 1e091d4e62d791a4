"""The map checker: each finding kind on a small broken map, with the right line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.board.check import check_map, inspect_map
from mobadj.board.findings import MapFileError
from mobadj.board.loader import load_map
from mobadj.cli import main

GOOD = """\
name: tiny
title: Tiny test map
unit_kinds: {A: Army, F: Fleet}
kinds_by_terrain: {land: [A], coast: [A, F], sea: [F]}
powers:
  NORTH:
    name: North
    aliases: [N]
    home: [AAA]
    units: [A AAA, F SEA]
provinces:
  AAA:
    name: Alpha
    terrain: coast
    supply: true
    home: NORTH
    adj:
      A: [BBB, CCC]
      F: [SEA, CCC]
  BBB:
    name: Bravo
    terrain: land
    adj:
      A: [AAA, CCC]
  CCC:
    name: Charlie
    terrain: coast
    supply: true
    adj:
      A: [AAA, BBB]
      F: [AAA, SEA]
  SEA:
    name: The Sea
    terrain: sea
    adj:
      F: [AAA, CCC]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "map.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def line_of(text: str, needle: str, nth: int = 1) -> int:
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    return hits[nth - 1]


def kinds(findings) -> set[str]:
    return {f.kind for f in findings}


def test_good_map_is_clean(tmp_path):
    assert check_map(write(tmp_path, GOOD)) == []


def test_asymmetric(tmp_path):
    text = GOOD.replace("      A: [AAA, CCC]\n", "      A: [AAA]\n")  # BBB forgets CCC
    findings = check_map(write(tmp_path, text))
    assert kinds(findings) == {"asymmetric"}
    (f,) = findings
    assert "CCC -> BBB" in f.message and f.line == line_of(text, "A: [AAA, BBB]")


def test_dangling_with_suggestion(tmp_path):
    text = GOOD.replace("      A: [AAA, CCC]\n", "      A: [AAA, CCC, CCD]\n")
    findings = [f for f in check_map(write(tmp_path, text)) if f.kind == "dangling"]
    assert len(findings) == 1
    assert "'CCD'" in findings[0].message and "did you mean CCC" in findings[0].message
    assert findings[0].line == line_of(text, "CCD")


def test_fleet_edge_into_inland_is_dangling(tmp_path):
    text = GOOD.replace("      F: [SEA, CCC]\n", "      F: [SEA, CCC, BBB]\n")
    findings = check_map(write(tmp_path, text))
    assert any(f.kind == "dangling" and "cannot stand" in f.message for f in findings)


def test_unknown_names(tmp_path):
    text = GOOD.replace("home: [AAA]", "home: [AAA, ZZZ]").replace("F: [AAA, SEA]", "X: [AAA]")
    findings = check_map(write(tmp_path, text))
    unknown = [f for f in findings if f.kind == "unknown-name"]
    assert {f.line for f in unknown} == {line_of(text, "ZZZ"), line_of(text, "X: [AAA]")}
    assert any("unknown unit kind 'X'" in f.message for f in unknown)


def test_duplicate_ids_case_insensitive(tmp_path):
    text = GOOD + "  aaa:\n    name: Other\n    terrain: land\n    adj:\n      A: []\n"
    findings = check_map(write(tmp_path, text))
    dups = [f for f in findings if f.kind == "duplicate-id"]
    assert dups and dups[0].line == line_of(text, "  aaa:")


def test_case_sensitive_ids_allow_case_variants(tmp_path):
    text = ("case_sensitive_ids: true\n" + GOOD
            .replace("      A: [AAA, CCC]\n", "      A: [AAA, CCC, Aaa]\n")
            + "  Aaa:\n    name: Lower Alpha\n    terrain: land\n    adj:\n      A: [BBB]\n")
    path = write(tmp_path, text)
    assert check_map(path) == []
    game_map = load_map(path)
    assert game_map.lookup("AAA") == "AAA" and game_map.lookup("Aaa") == "Aaa"
    assert game_map.adjacent("A", "BBB", "Aaa") and not game_map.adjacent("A", "AAA", "Aaa")


def test_duplicate_yaml_key_and_alias(tmp_path):
    text = GOOD.replace("    name: Bravo\n", "    name: Bravo\n    aliases: [Alpha]\n")
    text += "  SEA:\n    name: Again\n    terrain: sea\n"
    findings = [f for f in check_map(write(tmp_path, text)) if f.kind == "duplicate-id"]
    messages = " | ".join(f.message for f in findings)
    assert "'SEA' is defined twice" in messages and "alias 'Alpha' of BBB" in messages


def test_unreachable(tmp_path):
    text = GOOD + "  ISL:\n    name: Island\n    terrain: land\n    adj:\n      A: []\n"
    findings = check_map(write(tmp_path, text))
    assert kinds(findings) == {"unreachable"}
    assert findings[0].line == line_of(text, "  ISL:") and "no adjacencies" in findings[0].message


def test_home_not_supply(tmp_path):
    text = GOOD.replace("home: [AAA]", "home: [AAA, BBB]")
    findings = check_map(write(tmp_path, text))
    assert "home-not-supply" in kinds(findings)
    hit = next(f for f in findings if f.kind == "home-not-supply")
    assert hit.line == line_of(text, "home: [AAA, BBB]") and "BBB" in hit.message


def test_home_mismatch(tmp_path):
    text = GOOD.replace("    supply: true\n    adj:\n      A: [AAA, BBB]",
                        "    supply: true\n    home: NORTH\n    adj:\n      A: [AAA, BBB]")
    findings = check_map(write(tmp_path, text))
    assert kinds(findings) == {"home-mismatch"}


def test_impossible_units(tmp_path):
    text = GOOD.replace("units: [A AAA, F SEA]", "units: [A AAA, A SEA, F BBB, Q CCC]")
    findings = check_map(write(tmp_path, text))
    msgs = [f.message for f in findings if f.kind == "impossible-unit"]
    assert any("Army cannot stand on SEA" in m for m in msgs)
    assert any("Fleet cannot stand on BBB" in m for m in msgs)
    assert any("unknown unit kind 'Q'" in f.message for f in findings)


def test_army_adjacency_at_sea_is_terrain_error(tmp_path):
    text = GOOD.replace("      F: [AAA, CCC]\n", "      F: [AAA, CCC]\n      A: [AAA]\n")
    findings = check_map(write(tmp_path, text))
    assert any(f.kind == "impossible-unit" and "sea terrain" in f.message for f in findings)


def test_bad_yaml_reports_line(tmp_path):
    text = GOOD.replace("    name: Bravo\n", "    name: [Bravo\n")
    (f,) = check_map(write(tmp_path, text))
    assert f.kind == "yaml" and f.line >= line_of(text, "[Bravo")


def test_schema_errors(tmp_path):
    text = GOOD.replace("terrain: land", "terrain: lava")
    text = text.replace("supply: true", "supply: maybe", 1)
    findings = check_map(write(tmp_path, text))
    assert {f.line for f in findings if f.kind == "schema"} == {
        line_of(text, "lava"), line_of(text, "maybe")}


def test_a_route_kind_is_declared_by_the_map(tmp_path):
    """``via: tunnel`` is a way only a variant knows: the map declares it under ``routes``
    (with the mark its orders write), else the checker names the line and the fix."""
    text = GOOD.replace("      A: [AAA, CCC]\n", "      A: [AAA, {to: CCC, via: tunnel}]\n")
    text = text.replace("      A: [AAA, BBB]\n", "      A: [AAA, {to: BBB, via: tunnel}]\n")
    (first, second) = [f for f in check_map(write(tmp_path, text)) if f.kind == "schema"]
    assert first.line == line_of(text, "{to: CCC, via: tunnel}")
    assert ("via 'tunnel' is not one of plain, highway, junction, diagonal (a variant's own "
            "route kind is declared at the top of the map: routes: {tunnel: MARK})"
            ) in first.message
    declared = text.replace("unit_kinds:", "routes: {tunnel: T}\nunit_kinds:")
    assert check_map(write(tmp_path, declared)) == []
    game_map = load_map(write(tmp_path, declared))
    assert game_map.routes == {"tunnel": "T"}
    assert game_map.edge("A", "BBB", "CCC")["via"] == "tunnel"
    assert load_map("standard").routes == {} and load_map("mobtown2").routes == {"subway": "U"}
    clash = text.replace("unit_kinds:", "routes: {highway: H}\nunit_kinds:")
    assert any("routes: 'highway' is a way every map has" in f.message
               for f in check_map(write(tmp_path, clash)))


def test_split_coast_fleet_needs_coast(tmp_path):
    text = GOOD.replace("    terrain: coast\n    supply: true\n    adj:",
                        "    terrain: coast\n    supply: true\n    coasts: [NC, SC]\n    adj:")
    findings = check_map(write(tmp_path, text))
    assert any("give F adjacencies per coast" in f.message for f in findings)


def test_load_map_raises_with_findings(tmp_path):
    path = write(tmp_path, GOOD.replace("      A: [AAA, CCC]\n", "      A: [AAA]\n"))
    with pytest.raises(MapFileError) as err:
        load_map(path)
    assert err.value.findings[0].kind == "asymmetric" and "asymmetric" in str(err.value)


def test_edges_with_attributes(tmp_path):
    text = GOOD.replace("      A: [AAA, CCC]\n",
                        "      A: [AAA, {to: CCC, via: highway, highway: Main}]\n").replace(
        "      A: [AAA, BBB]\n", "      A: [AAA, {to: BBB, via: highway, highway: Main}]\n")
    path = write(tmp_path, text)
    assert check_map(path) == []
    game_map = load_map(path)
    assert game_map.edge("A", "BBB", "CCC")["highway"] == "Main"
    assert game_map.edge("A", "CCC", "BBB")["via"] == "highway"
    bad = text.replace("via: highway, highway: Main}]\n      F", "via: road}]\n      F")
    findings = check_map(write(tmp_path, bad))
    assert {"schema", "asymmetric"} <= kinds(findings)


def test_report_summary():
    report = inspect_map(load_map("standard").source)
    text = "\n".join(report.summary_lines())
    assert "provinces: 75 (42 coast, 14 land, 19 sea)" in text
    assert "supply centres: 34 (22 home, 12 neutral)" in text and "powers: 7" in text


def test_cli_check_ok():
    result = CliRunner().invoke(main, ["map", "check", "standard"])
    assert result.exit_code == 0, result.output
    assert "provinces: 75" in result.output and "0 error(s)" in result.output


def test_cli_check_errors(tmp_path):
    path = write(tmp_path, GOOD.replace("      A: [AAA, CCC]\n", "      A: [AAA]\n"))
    result = CliRunner().invoke(main, ["map", "check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:{line_of(GOOD, 'A: [AAA, BBB]')}: error:" in result.output
    assert "1 error(s)" in result.output


def test_cli_missing_file(tmp_path):
    result = CliRunner().invoke(main, ["map", "check", str(tmp_path / "none.yaml")])
    assert result.exit_code == 2 and "no such map file" in result.output


def test_cli_a_name_that_is_no_map_says_where_names_are_looked_up(tmp_path, monkeypatch):
    """``mobadj map check mymap`` with maps/mymap.yaml in the user's own folder: the error
    names MOBADJ_MAPS and the path form; with MOBADJ_MAPS=maps the name is found."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "mymap.yaml").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MOBADJ_MAPS", raising=False)
    result = CliRunner().invoke(main, ["map", "check", "mymap"])
    assert result.exit_code == 2 and "no such map file" in result.output
    assert "MOBADJ_MAPS" in result.output and "maps/mymap.yaml" in result.output
    monkeypatch.setenv("MOBADJ_MAPS", "maps")
    result = CliRunner().invoke(main, ["map", "check", "-q", "mymap"])
    assert result.exit_code == 0, result.output


def test_map_group_importable():
    from mobadj.cli.map_cmd import map_group

    assert "check" in map_group.commands


def test_subprocess_run(tmp_path):
    path = write(tmp_path, GOOD.replace("home: [AAA]", "home: [AAA, BBB]"))
    proc = subprocess.run([sys.executable, "-m", "mobadj", "map", "check", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "home-not-supply" in proc.stdout and "Traceback" not in proc.stderr


def test_not_utf8(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_bytes(b"name: x\ntitle: \xff\xfe\n")
    (f,) = check_map(path)
    assert f.kind == "yaml" and "UTF-8" in f.message


def test_recursive_alias(tmp_path):
    (f,) = check_map(write(tmp_path, "provinces: &p\n  X: *p\n"))
    assert f.kind == "yaml" and "refers to itself" in f.message


def test_aliases_that_expand_without_end_are_refused(tmp_path):
    """A "billion laughs" file: ten aliases of ten aliases of ... would be 10**9 values."""
    text = "x0: &a0 [a, a, a, a, a, a, a, a, a, a]\n" + "".join(
        f"x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10))
    (f,) = check_map(write(tmp_path, text + "name: bomb\n"))
    assert f.kind == "yaml" and f.line == 6
    assert f.message == ("not valid YAML: its aliases repeat more than 1,000,000 values "
                         "(each alias is read as a copy of what it names)")


@pytest.mark.parametrize("reference", ["':::'", ":Rules", "'os:'", "a b:C", "x.:Y"])
def test_a_variant_that_is_no_module_name_is_a_clear_error(tmp_path, reference):
    path = write(tmp_path, GOOD.replace("title: Tiny test map", f"variant: {reference}"))
    proc = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", "--map", str(path),
                           str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "cannot be loaded: expected module:Class" in proc.stderr


@pytest.mark.parametrize(("reference", "says"), [
    ("homeguard:HomeGuardRules", "No module named 'homeguard'"),
    ("mobadj.mobtown.rules:NoSuchRules", "has no attribute 'NoSuchRules'"),
    ("':::'", "expected module:Class"),
])
def test_map_check_reports_a_variant_it_cannot_import_at_its_line(tmp_path, reference, says):
    """A map whose rules cannot be loaded fails ``map check`` as it would fail to adjudicate."""
    text = GOOD.replace("title: Tiny test map", f"title: Tiny test map\nvariant: {reference}")
    path = write(tmp_path, text)
    proc = subprocess.run([sys.executable, "-m", "mobadj", "map", "check", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = line_of(text, "variant:")
    assert f"{path}:{line}: error: variant " in proc.stdout
    assert says in proc.stdout and "[variant]" in proc.stdout
    assert "1 error(s)" in proc.stdout


@pytest.mark.parametrize(("module", "says"), [
    ("def (\n", "cannot be loaded: invalid syntax (tinyrules.py, line 1)"),
    ("raise ValueError('oops')\n", "cannot be loaded: its module raised ValueError: oops"),
])
def test_a_variant_module_that_fails_as_it_loads_is_one_clear_error(tmp_path, module, says):
    """A variant author's first typo: a syntax error, or a module that raises as it is run,
    is one line naming the variant and the cause, in adjudicate (exit 2: nothing was
    adjudicated) and for a batch line, never a traceback or an "internal error"."""
    (tmp_path / "tinyrules.py").write_text(module)
    path = write(tmp_path, GOOD.replace("title: Tiny test map",
                                        "title: Tiny test map\nvariant: tinyrules:TinyRules"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
           "MOBADJ_MAPS": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", "--map", str(path),
                          str(path)], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip() == f"Error: variant 'tinyrules:TinyRules' {says}"
    line = json.dumps({"id": "x", "map": "map", "phase": "S1901M", "orders": {}})
    batch = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], input=line + "\n",
                           capture_output=True, text=True, timeout=60, env=env)
    assert batch.returncode == 0 and batch.stderr == "", batch.stderr
    assert json.loads(batch.stdout)["errors"] == [f"variant 'tinyrules:TinyRules' {says}"]


def test_map_check_passes_a_variant_it_can_import():
    result = CliRunner().invoke(main, ["map", "check", "mobtown2"])
    assert result.exit_code == 0, result.output
    assert "[variant]" not in result.output


def test_wrong_shapes(tmp_path):
    findings = check_map(write(tmp_path, "provinces: [A, B]\npowers: 3\n"))
    assert {f.kind for f in findings} == {"schema"}
    assert {f.line for f in findings} == {1, 2}


def test_cli_directory_is_a_clean_error(tmp_path):
    (tmp_path / "d.yaml").mkdir()
    result = CliRunner().invoke(main, ["map", "check", str(tmp_path / "d.yaml")])
    assert result.exit_code == 1 and "cannot read" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- repeated units, coasts with no adjacency, causes first, articles, map plan -------------
SPLIT = GOOD.replace(
    "  CCC:\n    name: Charlie\n    terrain: coast\n    supply: true\n    adj:\n"
    "      A: [AAA, BBB]\n      F: [AAA, SEA]\n",
    "  CCC:\n    name: Charlie\n    terrain: coast\n    supply: true\n    coasts: [NC, SC]\n"
    "    adj:\n      A: [AAA, BBB]\n      F/NC: [AAA, SEA]\n      F/SC: [SEA]\n").replace(
    "      F: [SEA, CCC]\n", "      F: [SEA, CCC/NC]\n").replace(
    "      F: [AAA, CCC]\n", "      F: [AAA, CCC/NC, CCC/SC]\n")


def test_a_split_coast_map_is_clean(tmp_path):
    assert check_map(write(tmp_path, SPLIT)) == []


def test_same_unit_listed_twice(tmp_path):
    text = GOOD.replace("    units: [A AAA, F SEA]\n", "    units:\n      - A AAA\n      - F SEA\n"
                        "      - A AAA\n")
    (finding,) = check_map(write(tmp_path, text))
    assert finding.kind == "duplicate-unit"
    assert finding.message == f"NORTH: the unit A AAA is listed twice (first on line " \
                              f"{line_of(text, '- A AAA')})"
    assert finding.line == line_of(text, "- A AAA", 2)


def test_coast_without_adjacency_is_the_root_cause_printed_first(tmp_path):
    """CCC declares a south coast but no F/SC list: AAA's and SEA's fleet adjacencies to it
    and a fleet starting there all follow from that one mistake, which is printed first."""
    text = SPLIT.replace("      F/SC: [SEA]\n", "").replace(
        "      F: [SEA, CCC/NC]\n", "      F: [SEA, CCC/NC, CCC/SC]\n").replace(
        "units: [A AAA, F SEA]", "units: [A AAA, F SEA, F CCC/SC]")
    findings = check_map(write(tmp_path, text))
    assert [f.kind for f in findings] == ["dead-coast", "dangling", "dangling", "impossible-unit"]
    root = findings[0]
    assert root.line == line_of(text, "    adj:", 3)
    assert root.message == ("CCC: coast SC is declared but has no adjacency, so no unit can "
                            "stand on CCC/SC (add 'F/SC: [...]' under CCC's adj)")
    for consequence in findings[1:]:
        assert consequence.message.endswith("(because CCC/SC has no adjacency list of its own: "
                                            "see above)")
    assert findings[1].line < root.line  # printed after its cause although it comes first
    result = CliRunner().invoke(main, ["map", "check", "-q", str(write(tmp_path, text))])
    assert result.output.splitlines()[0].endswith("[dead-coast]")


def test_an_army_not_a_army(tmp_path):
    text = GOOD.replace("units: [A AAA, F SEA]", "units: [A AAA, A SEA]")
    messages = [f.message for f in check_map(write(tmp_path, text))]
    assert any("an Army cannot stand on SEA" in m for m in messages)
    assert not any(" a Army" in m for m in messages)
    text = GOOD.replace("      F: [AAA, CCC]\n", "      F: [AAA, CCC]\n      A: [AAA]\n")
    messages = [f.message for f in check_map(write(tmp_path, text))]
    assert any("an Army (A) cannot stand on sea terrain" in m for m in messages)


def test_map_plan_on_a_map_without_a_city_plan(tmp_path):
    result = CliRunner().invoke(main, ["map", "plan", "standard"])
    assert result.exit_code == 0
    assert result.output.startswith("standard has no city plan to check: ")
    no_layout = write(tmp_path, GOOD)
    result = CliRunner().invoke(main, ["map", "plan", str(no_layout)])
    assert result.exit_code == 0 and "it has no layout file" in result.output
    result = CliRunner().invoke(main, ["map", "plan", "mobtown2"])
    assert result.exit_code == 0 and "0 difference(s)" in result.output
