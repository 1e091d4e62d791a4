"""Order files and batch inputs as Windows programs (Notepad, Word, Excel) save them, and
reports written where Windows writes them, run through ``mobadj`` as a real process: what
the GM finds in the report file and reads on the screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "orders" / "standard" / "position-s1901.yaml"


def mobadj(*args: str, cwd: Path, encoding: str = "utf-8",
           stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``mobadj ARGS`` run in ``cwd`` with standard output in ``encoding`` (``cp1252``: a
    Windows ``> results.txt``); the output as bytes."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run([sys.executable, "-m", "mobadj", *args], cwd=cwd, env=env,
                          capture_output=True, check=False, timeout=120, input=stdin)


def test_a_report_redirected_to_a_cp1252_file_is_written_with_question_marks(
        tmp_path: Path) -> None:
    """An emoji pasted into an order, and a Cyrillic file name, cannot be written in
    cp1252: the report is still written whole, each such character as ``?``."""
    (tmp_path / "t2.txt").write_bytes("France:\n\tA Par – Bux\n😀 A Mar - Spx\n".encode())
    (tmp_path / "Россия.txt").write_text("France:\nA Par - Bux\n", encoding="utf-8")
    run = mobadj("adjudicate", str(POSITION), "t2.txt", "Россия.txt", cwd=tmp_path,
                 encoding="cp1252")
    assert run.returncode == 1, run.stderr
    assert b"Traceback" not in run.stderr
    out = run.stdout.decode("cp1252")
    assert "t2.txt: line 3, column 1: unexpected '?'" in out
    assert "??????.txt: line 2, column 9: unknown province 'Bux'" in out
    assert "Next phase: Fall 1901 Movement (F1901M)" in out
    clean = mobadj("adjudicate", str(POSITION), str(ROOT / "orders" / "standard" /
                                                    "s1901.txt"), cwd=tmp_path,
                   encoding="cp1252")
    same = mobadj("adjudicate", str(POSITION), str(ROOT / "orders" / "standard" /
                                                   "s1901.txt"), cwd=tmp_path)
    assert clean.returncode == same.returncode == 0, clean.stderr
    assert clean.stdout == same.stdout


def _docx(path: Path) -> None:
    """A Word document holding "France:" / "A Par – Bur" (a zip, as Word saves it)."""
    import zipfile

    with zipfile.ZipFile(path, "w") as doc:
        doc.writestr("word/document.xml", "<w:t>France:</w:t><w:t>A Par – Bur</w:t>")


def test_a_word_document_or_a_picture_is_skipped_by_name(tmp_path: Path) -> None:
    """The wrong attachment is not read as remarks in Latin-1: one warning names each such
    file, and none of its bytes reach the terminal."""
    _docx(tmp_path / "France orders.docx")
    (tmp_path / "shot.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x1b[2J\x07")
    (tmp_path / "junk.txt").write_bytes(b"France:\x00\x1b]0;PWNED\x07\x00\x01\x02 A Par H\n")
    (tmp_path / "ok.txt").write_text("Germany:\nA Ber - Sil\n", encoding="utf-8")
    run = mobadj("adjudicate", str(POSITION), "France orders.docx", "shot.png", "junk.txt",
                 "ok.txt", "--next", "next.yaml", cwd=tmp_path)
    err = run.stderr.decode()
    assert err.splitlines()[:3] == [
        "warning: France orders.docx: a Word document or another zip file (.docx, .xlsx, "
        ".odt, .zip), not text: skipped (save the orders as Plain Text, .txt)",
        "warning: shot.png: a PNG picture, not text: skipped (save the orders as Plain Text, "
        ".txt)",
        "warning: junk.txt: not a text file (it holds NUL bytes): skipped (save the orders as "
        "Plain Text, .txt)"], err
    assert "Latin-1" not in err and "remark" not in err
    assert not any(byte < 32 and byte not in b"\n\t" for byte in run.stdout + run.stderr)
    assert "  A BER - SIL                        succeeds" in run.stdout.decode()
    assert not (tmp_path / "next.yaml").exists()  # the French orders are not in the game


def test_control_characters_quoted_from_a_file_are_shown_escaped(tmp_path: Path) -> None:
    """A remark line holding a terminal's escape sequence (it would set the window's title)
    is quoted with ``\\x1b`` and ``\\x07``, on the terminal and in ``--json``."""
    (tmp_path / "esc.txt").write_bytes(b"France:\nA Par H\n\x1b]0;PWNED\x07 hello\n")
    run = mobadj("adjudicate", str(POSITION), "esc.txt", cwd=tmp_path)
    assert run.returncode == 0
    assert run.stderr.decode() == ("note: esc.txt: line 3 set aside as a remark, not an order: "
                                   "\\x1b]0;PWNED\\x07 hello\n")
    as_json = mobadj("adjudicate", "--json", str(POSITION), "esc.txt", cwd=tmp_path)
    import json

    assert json.loads(as_json.stdout)["warnings"] == [
        "esc.txt: line 3 set aside as a remark, not an order: \\x1b]0;PWNED\\x07 hello"]


def test_a_non_breaking_space_is_a_space_and_the_real_mistake_is_told(
        tmp_path: Path) -> None:
    """Word and web mail put a non-breaking space between words: in a line with a
    misspelt province, the message is the one a plain space gets, with its did-you-mean,
    in a Notepad UTF-16 file as in UTF-8, and in a batch line."""
    said = ("line 2, column 9: unknown province 'Bux'; did you mean Burgundy (BUR) or "
            "Bulgaria (BUL) or Budapest (BUD)?")
    for line in ("A\u00a0Par - Bux", "A Par\u00a0- Bux", "A Par -\u00a0Bux"):
        (tmp_path / "u8.txt").write_text(f"France:\r\n{line}\r\n", encoding="utf-8")
        (tmp_path / "u16.txt").write_text(f"France:\r\n{line}\r\n", encoding="utf-16")
        run = mobadj("adjudicate", str(POSITION), "u8.txt", "u16.txt", cwd=tmp_path)
        out = run.stdout.decode()
        assert f"u8.txt: {said}" in out and f"u16.txt: {said}" in out, out
        assert "xa0" not in out
    case = ('{"phase":"S1901M","units":{"France":["A PAR"]},'
            '"orders":{"France":["A\\u00a0Par - Bux"]}}\n')
    batch = mobadj("batch", "-", cwd=tmp_path, stdin=case.encode())
    assert ("column 9: unknown province 'Bux'; did you mean Burgundy (BUR)"
            in batch.stdout.decode()), batch.stdout


def test_the_batch_exit_status_is_told_and_does_not_count_bad_lines(tmp_path: Path) -> None:
    """A .bat file or a script checks the status: ``--help`` says what it means, and a
    batch whose every line is bad still answers each line, with status 0."""
    help_text = mobadj("batch", "--help", cwd=tmp_path).stdout.decode()
    assert "Exit status: 0 when every line was answered, also when lines were answered" \
        in " ".join(help_text.split())
    cases = b'garbage\n{"phase":"S1901M","units":{"capone":["G MEM"]},"orders":{}}\n'
    run = mobadj("batch", "-", cwd=tmp_path, stdin=cases)
    assert run.returncode == 0
    assert [b'"errors":[]' not in line for line in run.stdout.splitlines()] == [True, True]
    assert mobadj("batch", "missing.jsonl", cwd=tmp_path).returncode == 2


def test_two_files_of_the_same_name_in_two_folders_are_told_apart(tmp_path: Path) -> None:
    """One folder per player, each with its orders.txt and an empty.txt: every message
    names the folder too; a file whose name is its own keeps its base name."""
    for power, line in (("france", "A Par - Bux"), ("germany", "A Ber - Mux")):
        (tmp_path / "mails" / power).mkdir(parents=True)
        (tmp_path / "mails" / power / "orders.txt").write_text(
            f"{power.title()}:\n{line}\n", encoding="utf-8")
        (tmp_path / "mails" / power / "empty.txt").write_bytes(b"")
    (tmp_path / "mails" / "italy.txt").write_text("Italy:\nA Rom - Apx\n", encoding="utf-8")
    run = mobadj("adjudicate", str(POSITION), "mails/france/empty.txt",
                 "mails/france/orders.txt", "mails/germany/empty.txt",
                 "mails/germany/orders.txt", "mails/italy.txt", cwd=tmp_path)
    assert run.stderr.decode().splitlines() == [
        "warning: mails/france/empty.txt: no order was read from this file (it is empty)",
        "warning: mails/germany/empty.txt: no order was read from this file (it is empty)"]
    out = run.stdout.decode()
    assert "  mails/france/orders.txt: line 2, column 9: unknown province 'Bux'" in out
    assert "  mails/germany/orders.txt: line 2, column 9: unknown province 'Mux'" in out
    assert "  italy.txt: line 2, column 9: unknown province 'Apx'" in out


def test_a_batch_saved_by_notepad_as_unicode_gets_one_answer_per_line(tmp_path: Path) -> None:
    """Notepad's "Unicode" is UTF-16 LE with a byte-order mark and CRLF: each of the two
    lines is told the file is UTF-16 (no word of carriage returns), and nothing more."""
    case = ('{"phase":"S1901M","units":{"France":["A PAR"]},'
            '"orders":{"France":["A Par – Bur"]}}')
    (tmp_path / "b.jsonl").write_bytes(f"{case}\r\n{case}\r\n".encode("utf-16"))
    (tmp_path / "be.jsonl").write_bytes(f"{case}\r\n{case}\r\n".encode("utf-16-be"))
    for name in ("b.jsonl", "be.jsonl"):
        run = mobadj("batch", name, cwd=tmp_path)
        lines = run.stdout.decode().splitlines()
        assert len(lines) == 2, lines
        for number, line in enumerate(lines, 1):
            assert (f"\"errors\":[\"line {number}: not UTF-8: the file is UTF-16 (Notepad's "
                    "'Unicode'; every other byte is 0): save it as UTF-8\"]") in line, line
    (tmp_path / "u8.jsonl").write_bytes(f"\ufeff{case}\r\n{case}\r\n".encode())
    good = mobadj("batch", "u8.jsonl", cwd=tmp_path).stdout.decode().splitlines()
    assert len(good) == 2 and all('"errors":[]' in line for line in good), good


def test_a_position_edited_in_word_is_read_as_typed(tmp_path: Path) -> None:
    """A non-breaking space after "France:", Word's en-dash list items and curly quotes:
    the position reads as the clean file does, with one note; the report is the same."""
    clean = POSITION.read_text(encoding="utf-8")
    assert "  France: [F BRE, A PAR, A MAR]\n" in clean
    edits = {
        "nbsp.yaml": clean.replace("  France: [F BRE", "  France:\u00a0[F BRE"),
        "dash.yaml": clean.replace("  France: [F BRE, A PAR, A MAR]\n",
                                   "  France:\n  \u2013 F BRE\n  \u2013 A PAR\n  \u2013 A MAR\n"),
        "curly.yaml": clean.replace("[F BRE, A PAR,", "[\u201cF BRE\u201d, \u2018A PAR\u2019,"),
    }
    orders = str(ROOT / "orders" / "standard" / "s1901.txt")
    want = mobadj("adjudicate", str(POSITION), orders, cwd=tmp_path)
    for name, text in edits.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        run = mobadj("adjudicate", name, orders, cwd=tmp_path)
        assert run.returncode == 0, (name, run.stderr)
        assert run.stdout == want.stdout, name
        assert run.stderr.decode().startswith(f"note: {name}: read "), run.stderr


def test_orders_given_as_the_position_are_told_to_come_second(tmp_path: Path) -> None:
    """``mobadj adjudicate orders.txt position.yaml``: the message says the arguments are
    swapped, quoting an order of the file."""
    (tmp_path / "orders.txt").write_text("Hi all,\nEngland:\nF NTH C A YOR - NWY\nA YOR - NWY\n",
                                         encoding="utf-8")
    run = mobadj("adjudicate", "orders.txt", str(POSITION), cwd=tmp_path)
    assert run.returncode == 2
    assert ("orders.txt looks like an order file (it holds orders such as "
            "'F NTH C A YOR - NWY'): the position comes first: mobadj adjudicate POSITION "
            "ORDERS...") in run.stderr.decode(), run.stderr
    assert b"--map" not in run.stderr


def test_a_folder_or_a_missing_windows_path_is_refused_as_typed(tmp_path: Path) -> None:
    """A folder of mails given as ORDERS gets how to give its files; a Windows path that is
    not there is quoted with its backslashes as typed."""
    (tmp_path / "mails").mkdir()
    run = mobadj("adjudicate", str(POSITION), "mails", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.decode().endswith(
        "Error: Invalid value for '[ORDERS]...': mails is a folder: give the files in it, "
        "e.g. mails/*\n"), run.stderr
    missing = mobadj("adjudicate", str(POSITION), "C:\\Users\\Bob\\Desktop\\orders.txt",
                     cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.decode().endswith(
        "Error: Invalid value for '[ORDERS]...': C:\\Users\\Bob\\Desktop\\orders.txt: "
        "no such file\n"), missing.stderr
    position = mobadj("adjudicate", "mails", cwd=tmp_path)
    assert "mails is a folder, not a position file" in position.stderr.decode()


def test_a_batch_line_with_mobtown_mobs_and_no_map_is_told_which_map(tmp_path: Path) -> None:
    """A Mobtown II line without ``"map"`` is read on the standard map: its error names
    the map whose power it is, as ``mobadj adjudicate`` does."""
    case = b'{"phase":"S1901M","units":{"capone":["G MEM"]},"orders":{}}\n'
    run = mobadj("batch", "-", cwd=tmp_path, stdin=case)
    assert (b'"errors":["unknown power \'capone\' (a power of the mobtown2 map: give '
            b'\\"map\\": \\"mobtown2\\")"]') in run.stdout, run.stdout
