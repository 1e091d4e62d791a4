"""Order and position files as a hobbyist GM writes them by hand or exports them from
another judge, run through ``mobadj adjudicate`` and ``mobadj map render`` as a real
process: what the GM reads on the screen and finds in the files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Spring 1901 retreats: the German army in Burgundy was dislodged from Paris
S1901R = """\
phase: S1901R
units:
  FRANCE: [A BUR, A MAR, F MAO]
  GERMANY: [A MUN, F DEN]
centers:
  FRANCE: [BRE, MAR, PAR]
  GERMANY: [BER, KIE, MUN]
dislodged:
  GERMANY:
  - unit: A BUR
    from: PAR
    retreats: [BEL, GAS, PIC, RUH]
"""


def mobadj(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``mobadj ARGS`` run in ``cwd`` as the GM runs it."""
    return subprocess.run([sys.executable, "-m", "mobadj", *args], cwd=cwd, text=True,
                          capture_output=True, check=False, timeout=120)


def write(folder: Path, name: str, text: str) -> str:
    (folder / name).write_text(text, encoding="utf-8")
    return name


def test_a_retreat_written_word_first_is_read(tmp_path: Path) -> None:
    """njudge's and DPjudge's ``Retreat A BUR - PIC`` (and njudge's ``R A BUR - PIC``) is a
    retreat, as ``Build A KIE`` and ``Disband A PIC`` are read word first."""
    write(tmp_path, "s1901r.yaml", S1901R)
    for text in ("Germany:\nRetreat A BUR - PIC\n", "Germany:\nretreat army burgundy to picardy\n",
                 "GERMANY\nR A Bur - Pic\n", "Germany Retreat A BUR - PIC\n"):
        write(tmp_path, "retreat.txt", text)
        run = mobadj("adjudicate", "s1901r.yaml", "retreat.txt", cwd=tmp_path)
        assert run.returncode == 0, (text, run.stdout, run.stderr)
        assert "  A BUR R PIC                        succeeds\n" in run.stdout, text
        assert "Germany               3 centres  A MUN, A PIC, F DEN" in run.stdout
    write(tmp_path, "remove.txt", "Germany:\nRetreat A BUR\n")
    run = mobadj("adjudicate", "s1901r.yaml", "remove.txt", cwd=tmp_path)
    assert run.returncode == 1
    assert ("remove.txt: line 2, column 14: the order stops too early after 'Retreat A BUR': "
            "expected '-' (move)") in run.stdout


def test_a_mobtown_retreat_written_word_first_is_read(tmp_path: Path) -> None:
    """The same on Mobtown II, in the rulebook's notation, by road and by subway."""
    position = ROOT / "orders" / "mobtown2" / "example-c.yaml"
    after = mobadj("adjudicate", "--map", "mobtown2", str(position),
                   str(ROOT / "orders" / "mobtown2" / "example-c.txt"), "--next", "r.yaml",
                   cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    for text, said in (("Baby Face:\nRetreat G(Mem)-PPL\n", "G Mem R PPL"),
                       ("Baby Face Retreat G(Mem)-U-WCP\n", "G Mem R U WCP")):
        write(tmp_path, "retreat.txt", text)
        run = mobadj("adjudicate", "--map", "mobtown2", "r.yaml", "retreat.txt", cwd=tmp_path)
        assert run.returncode == 0, (text, run.stdout, run.stderr)
        assert f"  {said:<35}succeeds\n" in run.stdout, run.stdout


#: Winter 1901: Russia has two builds due
W1901A = """\
phase: W1901A
units:
  RUSSIA: [A MOS]
centers:
  RUSSIA: [MOS, SEV, STP]
"""


def test_a_build_in_st_petersburg_needs_a_unit_type(tmp_path: Path) -> None:
    """``Build StP`` could be an army or a fleet on either coast, as ``Build Sev`` could be an
    army or a fleet: both are refused, and no army is built in the player's name."""
    write(tmp_path, "w1901a.yaml", W1901A)
    for text in ("Russia:\nBuild StP\n", "Russia:\nBuild St Petersburg\n", "Russia:\nStP B\n"):
        write(tmp_path, "build.txt", text)
        run = mobadj("adjudicate", "w1901a.yaml", "build.txt", cwd=tmp_path)
        assert run.returncode == 1, (text, run.stdout)
        assert ("build.txt: line 2, column 1: a build needs a unit type (A, F): STP could hold "
                "either (a fleet on STP/NC or STP/SC)") in run.stdout, run.stdout
        assert "Build A STP" not in run.stdout
    write(tmp_path, "build.txt", "Russia:\nBuild Sev\nBuild StP/NC\n")
    run = mobadj("adjudicate", "w1901a.yaml", "build.txt", cwd=tmp_path)
    assert ("build.txt: line 2, column 1: a build needs a unit type (A, F): SEV could hold "
            "either (Russia's section ends here") in run.stdout
    assert "  Build F STP/NC                     succeeds\n" in run.stdout


def test_an_error_quotes_what_the_player_wrote(tmp_path: Path) -> None:
    """A remark in brackets after a name is quoted as written, not as the coast the reader
    tried (``Bur/if Germany agrees``), so the GM sees what the player wrote wrong."""
    start = mobadj("map", "start", "-o", "s1901m.yaml", cwd=tmp_path)
    assert start.returncode == 0, start.stderr
    write(tmp_path, "france.txt",
          "France:\nA Par - Bur (if Germany agrees)\nA Mar - Spa (Spain)\nF Bre - Mao (xc)\n")
    run = mobadj("adjudicate", "s1901m.yaml", "france.txt", cwd=tmp_path)
    assert run.returncode == 1
    unread = run.stdout[run.stdout.index("ignored):\n"):].split("\n\n")[0].splitlines()[1:]
    assert [line.split(" (France's section")[0] for line in unread] == [
        "  france.txt: line 2, column 9: unknown province 'Bur (if Germany agrees)'",
        "  france.txt: line 3, column 9: unknown province 'Spa (Spain)'; did you mean Spain (SPA)?",
        "  france.txt: line 4, column 9: unknown province 'Mao (xc)'; did you mean Mid-Atlantic "
        "Ocean (MAO)?"]
    assert "/" not in "".join(unread)


def test_an_empty_order_file_gets_a_warning(tmp_path: Path) -> None:
    """An empty order file (a save that failed, the wrong attachment) is warned of as a file
    of prose is: every unit would otherwise hold without a word."""
    start = mobadj("map", "start", "-o", "s1901m.yaml", cwd=tmp_path)
    assert start.returncode == 0, start.stderr
    write(tmp_path, "empty.txt", "")
    write(tmp_path, "blank.txt", "\n  \n")
    write(tmp_path, "prose.txt", "Hi GM\n\nthanks\n")
    run = mobadj("adjudicate", "s1901m.yaml", "empty.txt", "blank.txt", "prose.txt",
                 cwd=tmp_path)
    assert run.returncode == 0
    warnings = [line for line in run.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: empty.txt: no order was read from this file (it is empty)",
                        "warning: blank.txt: no order was read from this file (it is empty)",
                        "warning: prose.txt: no order was read from this file"]


def test_a_misspelt_option_gets_a_did_you_mean_that_knows_duplicate_orders(
        tmp_path: Path) -> None:
    """``duplicate_orders`` is an option as the rules' are (``--help`` names it): a typo of it
    is answered with a did-you-mean, and the list of known options names it, on the standard
    map, on Mobtown II and in a batch line."""
    write(tmp_path, "s1901r.yaml", S1901R)
    write(tmp_path, "o.txt", "Germany:\nA BUR - PIC\n")
    mobtown = str(ROOT / "orders" / "mobtown2" / "example-c.yaml")
    for args, title in ((["s1901r.yaml"], "rule"), (["--map", "mobtown2", mobtown], "Mobtown")):
        run = mobadj("adjudicate", "--option", "duplicate_order=first", *args, "o.txt",
                     cwd=tmp_path)
        assert run.returncode == 2
        error = run.stderr.strip()
        assert error.startswith(f"Error: unknown {title} option 'duplicate_order'; did you mean "
                                "duplicate_orders? (known: "), error
        assert error.endswith(", duplicate_orders)")
    line = ('{"id": "x", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {}, '
            '"orders": {"FRANCE": ["A PAR H"]}, "options": {"duplicate_order": "first"}}\n')
    batch = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], input=line,
                           cwd=tmp_path, text=True, capture_output=True, check=False,
                           timeout=120)
    assert "did you mean duplicate_orders?" in batch.stdout, batch.stdout


def _title(svg: str) -> str:
    """The heading of an SVG picture (its first bold text)."""
    head = svg[svg.index('font-weight="bold"'):]
    return head[head.index(">") + 1:head.index("<")]


def test_the_pictures_of_a_phase_are_titled_with_the_phase_adjudicated(tmp_path: Path) -> None:
    """``adjudicate --picture`` and ``map render --orders`` of the results name the phase
    whose orders they draw, on both maps (the Spring moves are not titled F1901M)."""
    start = mobadj("map", "start", "-o", "s1901m.yaml", cwd=tmp_path)
    assert start.returncode == 0, start.stderr
    write(tmp_path, "s1901m.txt", "France:\nA Par - Bur\nA Mar S A Par - Bur\n")
    mob = ROOT / "orders" / "mobtown2"
    for map_name, position, orders, title in (
            ("standard", "s1901m.yaml", "s1901m.txt",
             "Standard Diplomacy \u2014 Spring 1901 Movement (S1901M)"),
            ("mobtown2", str(mob / "example-c.yaml"), str(mob / "example-c.txt"),
             "Mobtown II \u2014 Week 1, July 1919: movement (1919-07-W1-M)")):
        run = mobadj("adjudicate", "--map", map_name, position, orders, "--picture", "p.svg",
                     cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        as_json = mobadj("adjudicate", "--map", map_name, "--json", position, orders,
                         cwd=tmp_path)
        write(tmp_path, "r.json", as_json.stdout)
        drawn = mobadj("map", "render", "--map", map_name, "--orders", "r.json", "-o", "q.svg",
                       cwd=tmp_path)
        assert drawn.returncode == 0, drawn.stderr
        assert _title((tmp_path / "p.svg").read_text(encoding="utf-8")) == title
        assert _title((tmp_path / "q.svg").read_text(encoding="utf-8")) == title


def test_the_map_follows_the_position_file_or_the_error_names_it(tmp_path: Path) -> None:
    """A position file written by ``map start`` or ``--next`` names its map on its first
    line: ``adjudicate`` and ``map render`` play and draw it on that map without ``--map``.
    A file that names none, read on the wrong map, gets an error that says which map was
    used and which ``--map`` its powers want."""
    assert mobadj("map", "start", "-o", "std.yaml", cwd=tmp_path).returncode == 0
    drawn = mobadj("map", "render", "std.yaml", "-o", "std.svg", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    assert _title((tmp_path / "std.svg").read_text(encoding="utf-8")).startswith(
        "Standard Diplomacy")
    assert mobadj("map", "start", "mobtown2", "-o", "mob.yaml", cwd=tmp_path).returncode == 0
    mob = ROOT / "orders" / "mobtown2"
    placed = mobadj("adjudicate", "mob.yaml", str(mob / "don-placement.txt"), "--next",
                    "mob.yaml", cwd=tmp_path)
    assert placed.returncode == 0, placed.stderr
    week1 = mobadj("adjudicate", "mob.yaml", str(mob / "opening.txt"), cwd=tmp_path)
    assert week1.returncode == 0, week1.stderr
    assert week1.stdout.startswith("Mobtown II: Week 1, July 1919: movement (1919-07-W1-M)")
    # the same files without their first lines: nothing names the map
    for name in ("std.yaml", "mob.yaml"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        write(tmp_path, f"bare-{name}", "".join(
            line for line in text.splitlines(keepends=True) if not line.startswith("#")))
    render = mobadj("map", "render", "bare-std.yaml", "-o", "std.svg", cwd=tmp_path)
    assert render.returncode == 1
    assert render.stderr.strip() == (
        "Error: bare-std.yaml: units: AUSTRIA: unknown power 'AUSTRIA' (drawn on the mobtown2 "
        "map; its powers are the standard map's: give --map standard)")
    run = mobadj("adjudicate", "bare-mob.yaml", str(mob / "opening.txt"), cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().endswith(
        "(read on the standard map; its powers are the mobtown2 map's: give --map mobtown2)")
    wrong = mobadj("adjudicate", "--map", "standard", "mob.yaml", str(mob / "opening.txt"),
                   cwd=tmp_path)
    assert wrong.returncode == 2
    assert wrong.stderr.strip().endswith(
        "(written on the mobtown2 map, read on the standard map (--map); give --map mobtown2)")
