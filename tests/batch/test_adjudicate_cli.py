"""``mobadj adjudicate``: the GM report, ``--json`` and clear errors."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.cli import main

ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "orders" / "standard" / "position-s1901.yaml"
ORDERS = ROOT / "orders" / "standard" / "s1901.txt"


def test_demo_report_reads_like_a_gm_report() -> None:
    result = CliRunner().invoke(main, ["adjudicate", "--map", "standard", str(POSITION),
                                       str(ORDERS)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Standard Diplomacy: Spring 1901 Movement (S1901M)")
    assert "A YOR - NWY" in out and "F NTH C A YOR - NWY" in out  # the convoy
    assert "A VIE - GAL                        fails: bounced" in out
    assert "A MAR S A PAR - BUR                succeeds" in out
    assert "Germany A BUR, attacked from PAR; may retreat to: BEL, GAS, PIC, RUH" in out
    assert out.rstrip().endswith("Next phase: Spring 1901 Retreats (S1901R)")


def test_mobtown_report_names_the_dons_that_got_no_order(tmp_path: Path) -> None:
    """A Don no order names (none of his own, no ``G+D`` from his space) holds, and the
    report lists him as it lists a Gang, but not as a missed order: a Don has no power of
    his own and moves only with a Gang (rule 3), so he needs no order (ruling 4).  The
    demo's opening orders every unit."""
    mob = ROOT / "orders" / "mobtown2"
    position = str(mob / "position-1919-07-W1-M.yaml")
    demo = CliRunner().invoke(main, ["adjudicate", "--map", "mobtown2", position,
                                     str(mob / "opening.txt")])
    assert demo.exit_code == 0, demo.output
    assert "no order given" not in demo.output
    assert "  D DtB H                            succeeds\n" in demo.output
    orders = tmp_path / "orders.txt"
    orders.write_text("Lepke:\nG(Pie)-RoE\nG(Que) H\nLucky Luciano:\nG+D(WCP)-U-Mem\n",
                      encoding="utf-8")
    out = CliRunner().invoke(main, ["adjudicate", "--map", "mobtown2", position,
                                    str(orders)]).output
    lepke = out[out.index("\nLepke:\n") + 1:out.index("\nLucky Luciano:")]
    assert lepke.splitlines()[1:] == [
        "  G Pie - RoE                        succeeds",
        "  G Que H                            succeeds",
        "  G P45 H                            succeeds (no order given)",
        "  D Pie H                            succeeds (no order needed: a Don moves only "
        "with a Gang)"]
    assert "D WCP H" not in out  # he went with his Gang
    assert ("  D DAN H                            succeeds (no order needed: a Don moves only "
            "with a Gang)\n") in out


def test_json_output() -> None:
    result = CliRunner().invoke(main, ["adjudicate", "--json", str(POSITION), str(ORDERS)])
    data = json.loads(result.output)
    assert data["next_phase"] == "S1901R"
    assert data["dislodged"]["GERMANY"][0]["retreats"] == ["BEL", "GAS", "PIC", "RUH"]
    assert {"power": "ENGLAND", "order": "A YOR - NWY", "result": "succeeds",
            "reason": None} in data["orders"]


def test_unreadable_orders_are_reported_and_the_rest_adjudicated(tmp_path) -> None:
    orders = tmp_path / "o.txt"
    orders.write_text("France:\nA PAR - BRU\nA MAR - BUR\n")
    result = CliRunner().invoke(main, ["adjudicate", str(POSITION), str(orders)])
    assert result.exit_code == 1  # the results are printed, and the status says a line was bad
    assert "Orders that could not be read (ignored):" in result.output
    assert "o.txt: line 2" in result.output
    assert "A MAR - BUR" in result.output


def test_bad_position_is_a_clear_error_not_a_traceback(tmp_path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_text("phase: S1901M\nunits: {France: [A XYZ]}\n")
    result = CliRunner().invoke(main, ["adjudicate", str(bad)])
    assert result.exit_code != 0
    assert "bad unit 'A XYZ'" in result.output and "Traceback" not in result.output


def test_fall_report_shows_centre_changes(tmp_path) -> None:
    pos = tmp_path / "f.yaml"
    pos.write_text("phase: F1901M\nunits: {France: [A BUR]}\ncenters: {France: [PAR]}\n")
    orders = tmp_path / "f.txt"
    orders.write_text("France: A BUR - BEL\n")
    out = CliRunner().invoke(main, ["adjudicate", str(pos), str(orders)]).output
    assert "France takes BEL (unowned before)" in out
    assert "France                2 centres  A BEL" in out
    assert ("Adjustments due in Winter 1901 Adjustments:\n  France: 2 centres, 1 unit: may "
            "build 1 (vacant home centres: PAR), or waive") in out
    assert "Next phase: Winter 1901 Adjustments (W1901A)" in out


def test_json_has_the_centres_owned_and_the_centres_that_changed(tmp_path) -> None:
    """``centers`` is who owns what after the phase; ``centre_changes`` the news of this
    phase (docs/adjudication.md): both keys stay in ``--json``."""
    pos = tmp_path / "f.yaml"
    pos.write_text("phase: F1901M\nunits: {France: [A BUR], Germany: [A MUN]}\n"
                   "centers: {France: [PAR], Germany: [MUN, BEL]}\n")
    orders = tmp_path / "f.txt"
    orders.write_text("France: A BUR - BEL\n")
    data = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", str(pos),
                                                str(orders)]).output)
    assert data["centers"] == {"FRANCE": ["BEL", "PAR"], "GERMANY": ["MUN"]}
    assert data["centre_changes"] == [{"province": "BEL", "from": "GERMANY", "to": "FRANCE"}]


def test_make_demo_command_runs_as_a_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", "--map", "standard",
                           str(POSITION), str(ORDERS)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and "Dislodged units:" in proc.stdout


def test_paradox_option_on_the_command_line(tmp_path) -> None:
    # DATC 6.F.14 under each convoy-paradox rule (docs/rulings.md)
    pos = tmp_path / "p.yaml"
    pos.write_text("phase: S1901M\nunits: {England: [F LON, F WAL], France: [A BRE, F ENG]}\n")
    orders = tmp_path / "o.txt"
    orders.write_text("England: F LON S F WAL - ENG\nEngland: F WAL - ENG\n"
                      "France: A BRE - LON\nFrance: F ENG C A BRE - LON\n")
    szykman = CliRunner().invoke(main, ["adjudicate", str(pos), str(orders)]).output
    assert "convoy paradox: convoy fails (Szykman rule)" in szykman
    assert "France A ENG" not in szykman and "France F ENG, attacked from WAL" in szykman
    all_hold = CliRunner().invoke(main, ["adjudicate", "--paradox", "all_hold", str(pos),
                                         str(orders)]).output
    assert "convoy paradox: all hold" in all_hold and "Dislodged units" not in all_hold


def test_picture_of_a_standard_phase_with_its_moves(tmp_path) -> None:
    svg, png = tmp_path / "after.svg", tmp_path / "after.png"
    for out in (svg, png):
        result = CliRunner().invoke(main, ["adjudicate", str(POSITION), str(ORDERS),
                                           "--picture", str(out)])
        assert result.exit_code == 0, result.output
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") or text.startswith("<?xml")
    assert "BUR" in text and "NWY" in text
    assert text.count("marker-end") > 0 or "arrow" in text  # the phase's moves are drawn
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_picture_of_a_map_without_a_layout_is_a_clear_error(tmp_path) -> None:
    source = Path(__file__).resolve().parents[2] / "maps" / "standard.yaml"
    own = tmp_path / "mine.yaml"
    own.write_text(source.read_text(encoding="utf-8").replace("name: standard", "name: mine", 1),
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["adjudicate", "--map", str(own), str(POSITION),
                                       str(ORDERS), "--picture", str(tmp_path / "x.svg")])
    assert result.exit_code != 0
    assert "cannot draw" in result.output and "Traceback" not in result.output


# -- files as GMs get them (docs/adjudication.md, "Exit status"; docs/orders.md) -------------
def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", *args],
                          capture_output=True, text=True, timeout=120)


def test_files_in_any_encoding_with_a_notice(tmp_path) -> None:
    position = tmp_path / "p.yaml"
    position.write_bytes("phase: S1901M\nunits: {Germany: [A MUN]}\n".encode("utf-16"))
    orders = tmp_path / "o.txt"
    orders.write_bytes("Germany:\nA München - Ruh\n".encode("cp1252"))
    proc = run(str(position), str(orders))
    assert proc.returncode == 0, proc.stderr
    assert "A MUN - RUH                        succeeds" in proc.stdout
    assert proc.stderr.splitlines() == [
        "note: p.yaml: read as UTF-16 (byte-order mark)",
        "note: o.txt: not UTF-8 (byte 13); read as Windows-1252 (cp1252)"]


def test_a_pasted_mail_is_read_like_the_judge_reads_it(tmp_path) -> None:
    orders = tmp_path / "mail.txt"
    orders.write_text("Hi GM,\n\nFrance:\nA PAR - BUR\n> A PAR - PIC\nA MAR S A PAR - BUR\n\n"
                      "Cheers,\nAnn\nSent from my iPhone\n\nOn Monday Bob wrote:\n"
                      "> England: F LON - NTH\n", encoding="utf-8")
    proc = run(str(POSITION), str(orders))
    assert proc.returncode == 0
    assert proc.stderr.splitlines() == [  # every line dropped is named
        "note: mail.txt: line 1 set aside as a greeting: Hi GM,",
        "note: mail.txt: line 5 set aside as quoted text: > A PAR - PIC",
        "note: mail.txt: lines 8-13 set aside as a sign-off and what follows it: Cheers,"]
    assert "could not be read" not in proc.stdout
    assert "A MAR S A PAR - BUR                succeeds" in proc.stdout


def test_a_file_of_mails_pasted_one_after_another_loses_no_player(tmp_path) -> None:
    """The GM pastes four players' mails into one file, each under its power's name: a
    player's sign-off and signature end that player's mail, not the file."""
    orders = tmp_path / "spring.txt"
    orders.write_text(
        "England:\nHi GM,\nF Lon \u2013 Nth\nA Yor - Edi\n\nCheers,\nAnn\n--\n"
        "Sent from my iPhone\n\nFrance\nA PAR-BUR\nF Brest to Mid-Atlantic Ocean\nThanks\n"
        "Bob\n\nGermany:\nGood morning GM,\nA Bur - Pic.\nBest,\nGerd\n"
        "Russia:\nF Sev-Bla\n", encoding="utf-8")
    proc = run(str(POSITION), str(orders))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for result in ("F LON - NTH                        fails: cannot dislodge own unit",
                   "A YOR - EDI                        succeeds",
                   "A PAR - BUR                        succeeds",
                   "F BRE - MAO                        succeeds",
                   "A BUR - PIC                        succeeds",
                   "F SEV - BLA                        succeeds"):
        assert result in proc.stdout
    assert proc.stderr.splitlines() == [
        "note: spring.txt: line 2 set aside as a greeting: Hi GM,",
        "note: spring.txt: lines 6-9 set aside as a sign-off and what follows it: Cheers,",
        "note: spring.txt: lines 14-15 set aside as a sign-off and what follows it: Thanks",
        "note: spring.txt: line 18 set aside as a remark, not an order: Good morning GM,",
        "note: spring.txt: lines 20-21 set aside as a sign-off and what follows it: Best,"]


def test_mobtown_mails_pasted_under_the_mobs_names(tmp_path) -> None:
    position = ROOT / "orders" / "mobtown2" / "position-1919-07-W1-M.yaml"
    orders = tmp_path / "week1.txt"
    orders.write_text("Al Capone:\nG(DAS)-Col\nRegards,\nAl\n--\nSent from my iPhone\n"
                      "Baby Face Nelson\nG(Sun)-Pla\nCheers,\nBaby Face\n", encoding="utf-8")
    proc = run("--map", "mobtown2", str(position), str(orders))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "G DAS - Col                        succeeds" in proc.stdout
    assert "G Sun - Pla                        succeeds" in proc.stdout
    # the name under a sign-off is the writer's, even when it is the mob's ("Al", "Baby
    # Face"): Nelson's heading, after the signature, starts his mail
    assert proc.stderr.splitlines() == [
        "note: week1.txt: lines 3-6 set aside as a sign-off and what follows it: Regards,",
        "note: week1.txt: lines 9-10 set aside as a sign-off and what follows it: Cheers,"]


def test_the_last_order_wins_with_a_warning(tmp_path) -> None:
    orders = tmp_path / "o.txt"
    orders.write_text("France:\nA PAR - BUR\nA MAR S A PAR - BUR\nA PAR - PIC\n")
    proc = run(str(POSITION), str(orders))
    assert proc.returncode == 0
    assert proc.stderr == ("warning: o.txt: line 2, column 1: 'A PAR - BUR' is replaced by the "
                           "later order 'A PAR - PIC' (line 4): the last order for a unit "
                           "counts\n")
    assert "A PAR - PIC                        succeeds" in proc.stdout
    first = run("--option", "duplicate_orders=first", str(POSITION), str(orders))
    assert first.returncode == 0 and first.stderr == ""
    assert "A PAR - PIC                        invalid: unit already ordered" in first.stdout
    data = json.loads(run("--json", str(POSITION), str(orders)).stdout)
    assert data["warnings"][0].startswith("o.txt: line 2, column 1: 'A PAR - BUR' is replaced")


def test_a_later_order_that_corrects_the_unit_type_counts(tmp_path) -> None:
    """Monday's mail says ``F Par - Bur`` (Paris holds an army), Tuesday's ``A Par - Pic``:
    both are orders for the one unit in Paris, and the later one counts."""
    monday, tuesday = tmp_path / "monday.txt", tmp_path / "tuesday.txt"
    monday.write_text("France:\nF Par - Bur\n")
    tuesday.write_text("France:\nA Par - Pic\n")
    proc = run(str(POSITION), str(monday), str(tuesday))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ("warning: monday.txt: line 2, column 1: 'F Par - Bur' is replaced "
                           "by the later order 'A Par - Pic' (line 2 of tuesday.txt): the last "
                           "order for a unit counts\n")
    assert "A PAR - PIC                        succeeds" in proc.stdout
    assert "PAR - BUR" not in proc.stdout
    first = run("--option", "duplicate_orders=first", str(POSITION), str(monday), str(tuesday))
    assert "A PAR - PIC                        invalid: unit already ordered" in first.stdout


FRANCE = "phase: S1901M\nunits: {France: [A PAR, A MAR, F BRE]}\n"
MAIL_HEADER = ("From: Jean <jp@example.org>\nTo: gm@example.org\nSubject: S1901 orders France\n"
               "MIME-Version: 1.0\n")


def test_a_mail_saved_whole_with_a_base64_body_is_decoded(tmp_path) -> None:
    """Gmail sends a text with an accent ("Amitiés") as base64: saved as .eml, its orders
    are read as the judge reads that mail."""
    body = "Bonjour GM,\n\nFrance:\nA Par - Bur\nA Mar - Spa\nF Bre - Mao\n\nAmitiés,\nJean\n"
    encoded = base64.encodebytes(body.encode("utf-8")).decode("ascii")
    mail = tmp_path / "gmail.eml"
    mail.write_text(MAIL_HEADER + 'Content-Type: text/plain; charset="utf-8"\n'
                    "Content-Transfer-Encoding: base64\n\n" + encoded)
    position = tmp_path / "france.yaml"
    position.write_text(FRANCE)
    proc = run(str(position), str(mail))
    assert proc.returncode == 0, proc.stderr
    for order in ("A PAR - BUR", "A MAR - SPA", "F BRE - MAO"):
        assert f"  {order}                        succeeds" in proc.stdout
    assert proc.stderr.splitlines() == [
        "note: gmail.eml: read as a mail: its text part, decoded as a mail program does (the "
        "line numbers below count that text)",
        "note: gmail.eml: lines 1-6 set aside as the mail's own header: From: Jean "
        "<jp@example.org>",
        "note: gmail.eml: line 8 set aside as a greeting: Bonjour GM,",
        "note: gmail.eml: lines 15-16 set aside as a sign-off and what follows it: Amitiés,"]


def test_a_multipart_mail_is_read_from_its_text_part_not_its_html(tmp_path) -> None:
    mail = tmp_path / "thunder.eml"
    mail.write_text(
        MAIL_HEADER + 'Content-Type: multipart/alternative;\n boundary="XYZ"\n\n'
        '--XYZ\nContent-Type: text/plain; charset="utf-8"\n'
        "Content-Transfer-Encoding: quoted-printable\n\n"
        "France:\nA Par - Bur\nF Bre - Mao\n\nAmiti=C3=A9s,\nJean-Pierre\n\n"
        '--XYZ\nContent-Type: text/html; charset="utf-8"\n'
        "Content-Transfer-Encoding: quoted-printable\n\n"
        "<html><body><p>France:<br>A Par - Bur<br>F B=\nre - Mao</p></body></html>\n\n"
        "--XYZ--\n")
    position = tmp_path / "france.yaml"
    position.write_text(FRANCE)
    proc = run("--json", str(position), str(mail))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["errors"] == []
    assert [(o["order"], o["result"]) for o in data["orders"]] == [
        ("A PAR - BUR", "succeeds"), ("F BRE - MAO", "succeeds")]
    assert "set aside as a sign-off and what follows it: Amitiés," in proc.stderr


def test_next_is_not_written_when_a_file_gave_no_order(tmp_path) -> None:
    """A mail with no text of its own (only an attachment) is an error; a mail, or any
    file, from which no order was read leaves the position as it was: moving the game on
    would lose its player's orders."""
    position = tmp_path / "game.yaml"
    position.write_bytes(POSITION.read_bytes())
    attached = tmp_path / "attached.eml"
    attached.write_text(
        MAIL_HEADER + 'Content-Type: multipart/mixed; boundary="B"\n\n--B\n'
        'Content-Type: application/pdf\nContent-Disposition: attachment; filename="o.pdf"\n'
        "Content-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n--B--\n")
    proc = run(str(position), str(attached), "--next", str(position))
    assert proc.returncode == 1
    assert ("attached.eml: a mail saved whole, but its text cannot be read: it has no text "
            "of its own, only attachments") in proc.stdout
    assert "game.yaml: not written: some order lines could not be read" in proc.stderr
    prose = tmp_path / "prose.eml"
    prose.write_text(MAIL_HEADER + "Content-Transfer-Encoding: base64\n\n"
                     + base64.encodebytes(b"See you on Friday!\n").decode("ascii"))
    proc = run(str(position), str(prose), "--next", str(position))
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-2:] == [
        "warning: prose.eml: no order was read from this file",
        f"{position}: not written: no order was read from prose.eml; check the file (a "
        "player's orders would be lost) and run the phase again"]
    assert position.read_bytes() == POSITION.read_bytes()


def test_json_names_the_winner_of_the_phase_that_won(tmp_path) -> None:
    position = tmp_path / "f1905.yaml"
    position.write_text(
        "phase: F1905M\nunits: {France: [A BUR, A PIC, A GAS], Germany: [A PAR], "
        "England: [A BRE]}\ncenters:\n  France: [MAR, BEL, HOL, SPA, POR, TUN, NAP, ROM, VEN, "
        "MUN, KIE, BER, DEN, SWE, NWY, LON, LVP]\n  Germany: [PAR]\n  England: [BRE, EDI]\n")
    orders = tmp_path / "o.txt"
    orders.write_text("France:\nA BUR - PAR\nA PIC S A BUR - PAR\nA GAS S A BUR - PAR\n")
    report = run(str(position), str(orders))
    assert report.stdout.rstrip().endswith("France has 18 supply centres and wins the game.")
    data = json.loads(run("--json", str(position), str(orders)).stdout)
    assert data["winner"] == "FRANCE"
    orders.write_text("France:\nA BUR H\n")
    assert "winner" not in json.loads(run("--json", str(position), str(orders)).stdout)


MOBTOWN_RETREAT = """phase: 1919-07-W1-R
units:
  babyface: [G Bgt]
  murderinc: [G Mem, G PPU, G Pel]
centers:
  babyface: [DtB, Sun, Wal]
  murderinc: [MaE, Man, Sho]
dislodged:
  babyface:
  - {unit: G Mem, from: Mic, via: ground, retreats: [PPL, U-WCP]}
"""


@pytest.mark.parametrize("order", ["G(Mem)-Mic", "G(Mem)-WCP", "G(Mem)-U-Mic"])
def test_a_mobtown_gang_with_an_invalid_retreat_is_reported_once(tmp_path, order) -> None:
    """Baby Face orders his dislodged Gang back to where the attack came from (or to a
    subway stop without its U): one line, the invalid order, as on the standard map; no
    "no order" line, nor a ``defaults`` entry, for a Gang that was ordered."""
    position, orders = tmp_path / "w1r.yaml", tmp_path / "retreat.txt"
    position.write_text(MOBTOWN_RETREAT)
    orders.write_text(f"Baby Face:\n{order}\n")
    proc = run("--map", "mobtown2", str(position), str(orders))
    assert proc.returncode == 0, proc.stderr
    section = proc.stdout.split('"Baby Face" Nelson:\n', 1)[1].split("\n\n", 1)[0]
    assert len(section.splitlines()) == 1 and " invalid: " in section, section
    assert "no order" not in proc.stdout
    data = json.loads(run("--json", "--map", "mobtown2", str(position), str(orders)).stdout)
    assert [o["result"] for o in data["orders"]] == ["invalid"] and data["defaults"] == []
    assert data["units"]["babyface"] == ["G Bgt"]


def test_misspelt_power_warning_is_shown(tmp_path) -> None:
    orders = tmp_path / "o.txt"
    orders.write_text("Germnay:\nA BER - MUN\n")
    proc = run(str(POSITION), str(orders))
    assert proc.returncode == 0
    assert proc.stderr == "warning: o.txt: line 1, column 1: unknown power 'Germnay', read as " \
                          "Germany\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--map", "atlantis"], "no map 'atlantis'"),
    (["--option", "duplicate_orders=sometimes"], "duplicate_orders must be last or first"),
    (["--option", "paradox=never"], "paradox"),
    (["--option", "nonsense"], "expected NAME=VALUE"),
    (["--bogus"], "No such option"),
    (["--picture", "after.gif"], "'after.gif': the picture file must end in .svg or .png"),
])
def test_usage_errors_exit_2(args, message) -> None:
    proc = run(*args, str(POSITION), str(ORDERS))
    assert proc.returncode == 2 and message in proc.stderr and proc.stdout == ""
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("content", [b"phase: S0M\n", b"phase: [\n", b"units: {}\n",
                                     b"- " * 5000 + b"x\n", b"\xff\xfe\x00\xd8\n"])
def test_a_bad_position_file_exits_2_without_a_traceback(tmp_path, content) -> None:
    position = tmp_path / "p.yaml"
    position.write_bytes(content)
    proc = run(str(position), str(ORDERS))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "p.yaml" in proc.stderr


def test_unreadable_lines_exit_1_with_the_results_printed(tmp_path) -> None:
    orders = tmp_path / "o.txt"
    orders.write_text("France:\nA PAR - Burgandy\nA MAR H\n")
    proc = run(str(POSITION), str(orders))
    assert proc.returncode == 1
    assert "o.txt: line 2, column 9: unknown province 'Burgandy'" in proc.stdout
    assert "A MAR H" in proc.stdout and "Next phase" in proc.stdout


def test_mobtown_files_get_the_same_reading(tmp_path) -> None:
    position = ROOT / "orders" / "mobtown2" / "position-1919-07-W1-M.yaml"
    orders = tmp_path / "o.txt"
    orders.write_bytes("Al Capone:\nG(Lex) \u2013 Col.\nCaf\xe9 - Col\nMerci\n".encode("cp1252"))
    proc = run("--map", "mobtown2", str(position), str(orders))
    assert proc.returncode == 1  # "Café" is no province
    assert proc.stderr.startswith("note: o.txt: not UTF-8")
    assert "o.txt: line 3, column 1: unknown province 'Café'" in proc.stdout
    # a remark after the last order is set aside, with a note
    assert "note: o.txt: line 4 set aside as a remark, not an order: Merci" in proc.stderr
    bad = run("--map", "mobtown2", "--option", "duplicate_orders=x", str(position), str(orders))
    assert bad.returncode == 2


BOMB = "x0: &a0 [A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR, A PAR]\n" + "".join(
    f"x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 7))


@pytest.mark.parametrize(("content", "message"), [
    (BOMB + "phase: S1901M\nunits: {France: *a6}\n",
     "p.yaml: line 6, column 5: its aliases repeat more than 1,000,000 values (each alias is "
     "read as a copy of what it names)"),
    ("phase: S1901M\nunits: " + "[" * 5000 + "]" * 5000 + "\n",
     "p.yaml: line 2, column "),
    ("phase: S1901M\nnote: " + "9" * 5000 + "\n",
     "p.yaml: line 2, column 7: a number of 5,000 digits (at most 4,300)"),
    # a power written twice: YAML would keep the last and lose F LON without a word
    ("phase: S1901M\nunits:\n  England: [F LON]\n  England: [A LVP]\n",
     "p.yaml: line 4, column 3: 'England' is given twice (first at line 3): write its entries "
     "under one 'England'"),
    ("phase: S1901M\nunits: {}\nphase: F1901M\n",
     "p.yaml: line 3, column 1: 'phase' is given twice (first at line 1)"),
    ("phase: !!python/object/apply:os.system ['echo owned']\n",
     "p.yaml: line 1, column 8: could not determine a constructor for the tag "
     "'tag:yaml.org,2002:python/object/apply:os.system'"),
])
def test_a_hostile_position_file_is_one_short_error(tmp_path, content, message) -> None:
    """YAML bombs, deep nesting, endless numbers and Python tags: one line naming the
    place, quickly, never a traceback (and a tag never runs anything)."""
    position = tmp_path / "p.yaml"
    position.write_text(content, encoding="utf-8")
    proc = run(str(position), str(ORDERS))
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr[:500]
    assert proc.stderr.startswith(f"Error: {position.parent}/{message}"), proc.stderr[:500]
    assert len(proc.stderr) < 1000 and "owned" not in proc.stderr


def test_an_unknown_key_in_a_position_file_is_a_warning_with_a_did_you_mean(tmp_path) -> None:
    """A misspelt ``unitz`` leaves the board empty: the GM is told, the phase still runs."""
    position = tmp_path / "p.yaml"
    position.write_text("phase: S1901M\nunitz: {France: [A PAR]}\ncenters: {France: [PAR]}\n"
                        "notes: first game\n")
    proc = run("--json", str(position))
    assert proc.returncode == 0, proc.stderr
    assert "warning: p.yaml: unknown key 'unitz' ignored (did you mean 'units'?)" in proc.stderr
    assert ("warning: p.yaml: unknown key 'notes' ignored (known: phase, units, centers, "
            "dislodged, standoffs)") in proc.stderr
    assert json.loads(proc.stdout)["warnings"][0].startswith("p.yaml: unknown key 'unitz'")


@pytest.mark.parametrize("path", [POSITION, *sorted((ROOT / "orders" / "mobtown2").glob("*.yaml"))])
def test_the_example_positions_have_no_unknown_key(path) -> None:
    map_name = "mobtown2" if "mobtown2" in path.parts else "standard"
    result = CliRunner().invoke(main, ["adjudicate", "--map", map_name, str(path)])
    assert result.exit_code == 0, result.output
    assert "unknown key" not in result.output


@pytest.mark.parametrize(("map_name", "phase"), [("standard", "1901-01-01"),
                                                 ("mobtown2", "1919-07-01")])
def test_a_phase_that_yaml_would_read_as_a_date_is_echoed_as_written(tmp_path, map_name,
                                                                     phase) -> None:
    position = tmp_path / "p.yaml"
    position.write_text(f"phase: {phase}\nunits: {{}}\n")
    proc = run("--map", map_name, str(position))
    assert proc.returncode == 2
    assert f"p.yaml: bad phase '{phase}': expected" in proc.stderr
    assert "datetime" not in proc.stderr
