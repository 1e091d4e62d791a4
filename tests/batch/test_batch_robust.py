"""A batch that cannot die: every kind of broken line gets its own answer, and the lines
after it still run; the output is always strict UTF-8 JSON (docs/adjudication.md)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.batch import (
    KEYS,
    MAX_LINE_BYTES,
    answer_case,
    answer_line,
    json_line,
    map_context,
    read_case,
    run_batch,
    run_case,
    to_json,
)

GOOD = {"id": "good", "phase": "S1901M", "units": {"France": ["A PAR"]},
        "orders": {"France": ["A PAR - BUR"]}}
GOOD_LINE = json.dumps(GOOD).encode()


def batch(*lines: bytes) -> list[dict]:
    """Run lines (with a good line after each) in process; the output lines, parsed strictly."""
    source = io.BytesIO(b"\n".join(line + b"\n" + GOOD_LINE for line in lines) + b"\n")
    sink = io.BytesIO()
    assert run_batch(source, sink) == 2 * len(lines)
    text = sink.getvalue().decode("utf-8")  # strict UTF-8
    out = [json.loads(line, parse_constant=_no_constant) for line in text.split("\n")[:-1]]
    for answer, after in zip(out[::2], out[1::2], strict=True):
        assert tuple(answer) == KEYS
        assert after["id"] == "good" and after["orders"][0]["result"] == "succeeds"
    return out[::2]


def _no_constant(name: str) -> None:
    raise AssertionError(f"{name} in the output")


@pytest.mark.parametrize(("line", "error"), [
    (b"\xff\xfe{}", "line 1: not UTF-8 (byte 1 of the line)"),
    (b'{"id": "caf\xe9"}', "line 1: not UTF-8 (byte 12 of the line)"),
    (b"[" * 100_000, "line 1: not JSON: nested too deeply"),
    (b'{"id": NaN}', "line 1: not JSON: NaN is not JSON"),
    (b'{"id": -Infinity}', "line 1: not JSON: -Infinity is not JSON"),
    (b'{"id": 1e999}', "line 1: not JSON: number out of range: 1e999"),
    (b"{", "line 1: not JSON: Expecting property name enclosed in double quotes"),
    (b"", "line 1: not JSON: Expecting value: the line is empty"),
    (b" \t\r", "line 1: not JSON: Expecting value: the line is empty"),
    (b"x" * (MAX_LINE_BYTES + 5), f"line 1: too long: {MAX_LINE_BYTES + 5:,} bytes"),
])
def test_a_line_that_cannot_be_read(line, error) -> None:
    [answer] = batch(line)
    assert answer["errors"][0].startswith(error), answer
    assert answer["next_phase"] is None


@pytest.mark.parametrize("line", [
    b"  " + GOOD_LINE, GOOD_LINE + b" \t\r", b"\t" + GOOD_LINE + b"\r", b"\xef\xbb\xbf" + GOOD_LINE,
], ids=["leading blanks", "trailing blanks", "CRLF", "BOM"])
def test_json_whitespace_around_a_line_is_no_error(line) -> None:
    [answer] = batch(line)
    assert answer["id"] == "good" and answer["errors"] == [], answer


@pytest.mark.parametrize(("line", "error"), [
    (GOOD_LINE + b" x", f"line 1: not JSON: Extra data: line 1 column {len(GOOD_LINE) + 2}"),
    (GOOD_LINE + b"\x0b", f"line 1: not JSON: Extra data: line 1 column {len(GOOD_LINE) + 1}"),
    (b"1 2", "line 1: not JSON: Extra data: line 1 column 3"),
    (b'"id"', "each line must be a JSON object"),
])
def test_anything_after_the_value_is_an_error(line, error) -> None:
    [answer] = batch(line)
    assert answer["errors"][0].startswith(error), answer


def test_lines_ended_by_carriage_returns_alone_are_named(tmp_path) -> None:
    """An old Mac file: its CR-only line ends make one line, and the error says why."""
    [answer] = batch(GOOD_LINE + b"\r" + GOOD_LINE + b"\r")
    assert answer["errors"] == [
        f"line 1: not JSON: Extra data: line 1 column {len(GOOD_LINE) + 2} (char "
        f"{len(GOOD_LINE) + 1}) (the line holds a carriage return (CR) before its end: lines "
        "end with a line feed (LF); a file whose lines end with CR alone is one line)"]


def test_good_lines_before_a_bad_byte_are_kept() -> None:
    """The reader decodes line by line: nothing before a bad byte is lost."""
    source = io.BytesIO(GOOD_LINE + b"\n" + GOOD_LINE + b"\n\xff\n" + GOOD_LINE + b"\n")
    sink = io.StringIO()
    assert run_batch(source, sink) == 4
    ids = [json.loads(line)["id"] for line in sink.getvalue().splitlines()]
    assert ids == ["good", "good", None, "good"]


def test_lone_surrogates_become_replacement_characters() -> None:
    [answer] = batch(json.dumps({"id": "\ud800", "phase": "S1901M",
                                 "orders": {"France": ["A PAR - \udfff"]}}).encode())
    assert answer["id"] == "\ufffd"
    assert answer["orders"][0]["order"] == "A PAR - \ufffd"


def test_output_never_holds_a_line_break_but_its_own() -> None:
    text = to_json({"id": "a\u2028b\x85c\u2029", "x": float("nan")})
    assert text == '{"id":"a\\u2028b\\u0085c\\u2029","x":null}'
    assert len(text.splitlines()) == 1


@pytest.mark.parametrize(("phase", "error"), [
    ("S0M", "bad phase 'S0M': there is no year 0"),
    ("S\u0661\u0669\u0660\u0661M", "bad phase"),  # Arabic-Indic digits
    ("S１９０１M", "bad phase"),  # full-width digits
])
def test_phases_with_odd_years_are_refused(phase, error) -> None:
    out = run_case({"id": 1, "phase": phase, "units": {"France": ["A PAR"]}})
    assert out["errors"] and out["errors"][0].startswith(error)


@pytest.mark.parametrize(("entry", "error"), [
    ({"unit": "A PAR"}, "dislodged A PAR: 'from' is missing"),
    ({"unit": "A PAR", "from": "MOS"}, "its attacker cannot have come from MOS, which is not "
                                       "next to PAR"),
    ({"unit": "A PAR", "from": "XYZ"}, "unknown province 'XYZ'"),
    ({"unit": "A PAR", "from": "BUR", "convoyed": "false"},
     "dislodged A PAR: 'convoyed' must be true or false, not 'false'"),
    ({"unit": "A PAR", "from": "LON", "convoyed": 1},
     "dislodged A PAR: 'convoyed' must be true or false, not 1"),
])
def test_dislodged_entries_are_checked(entry, error) -> None:
    out = run_case({"id": 1, "phase": "F1901R", "units": {"England": ["A BUR"]},
                    "dislodged": {"France": [entry]}})
    assert any(error in e for e in out["errors"]), out["errors"]


def test_a_convoyed_attacker_may_come_from_afar() -> None:
    out = run_case({"id": 1, "phase": "F1901R", "units": {"England": ["A BRE"]},
                    "dislodged": {"France": [{"unit": "F BRE", "from": "LON",
                                              "convoyed": True}]},
                    "orders": {"France": ["F BRE - MAO"]}})
    assert out["errors"] == [] and out["units"]["France"] == ["F MAO"]


def test_any_exception_inside_is_answered_by_its_type(monkeypatch, caplog) -> None:
    """The last resort: whatever goes wrong in one line is that line's error, and the log
    has its traceback."""
    def broken(*_args, **_kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    # planted in the rules' hook, which the batch calls in the pure and the compiled build
    monkeypatch.setattr(type(map_context("standard").rules), "position_from_data", broken)
    out = run_case(GOOD)
    assert out["errors"] == ["internal error: RecursionError: maximum recursion depth exceeded"]
    assert out["id"] == "good" and out["next_phase"] is None
    (record,) = [r for r in caplog.records if r.name == "mobadj.batch"]
    assert "'good'" in record.getMessage() and record.exc_info[0] is RecursionError


def test_last_order_wins_in_a_batch() -> None:
    case = {"id": 1, "phase": "S1901M", "units": {"France": ["A PAR"]},
            "orders": {"France": ["A PAR - BUR", "A PAR - PIC"]}}
    out = run_case(case)
    assert out["orders"] == [
        {"power": "France", "order": "A PAR - BUR", "result": "invalid",
         "reason": "replaced by the later order 'A PAR - PIC' for the same unit"},
        {"power": "France", "order": "A PAR - PIC", "result": "succeeds", "reason": None}]
    assert out["units"]["France"] == ["A PIC"] and out["errors"] == []
    first = run_case({**case, "options": {"duplicate_orders": "first"}})
    assert [o["result"] for o in first["orders"]] == ["succeeds", "invalid"]
    assert first["orders"][1]["reason"] == "unit already ordered"
    assert first["units"]["France"] == ["A BUR"]
    bad = run_case({**case, "options": {"duplicate_orders": "never"}})
    assert bad["errors"] == ["duplicate_orders must be last or first, not 'never'"]


def test_a_later_order_that_corrects_the_unit_type_counts_in_a_batch() -> None:
    """``F PAR - BUR`` for the army in Paris, then ``A PAR - PIC``: one unit, the last
    order counts; on Mobtown II a Gang and the Don beside him are two pieces."""
    lines = [{"id": "std", "phase": "S1901M", "units": {"France": ["A PAR"]},
              "orders": {"France": ["F PAR - BUR", "A PAR - PIC"]}},
             {"id": "mob", "map": "mobtown2", "phase": "1919-07-W1-M",
              "units": {"capone": ["G Mic", "D Mic"]},
              "orders": {"capone": ["G(Mic)-Mem", "D(Mic) H"]}}]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], input=data,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
    std, mob = (json.loads(line) for line in proc.stdout.splitlines())
    assert std["orders"] == [
        {"power": "France", "order": "F PAR - BUR", "result": "invalid",
         "reason": "replaced by the later order 'A PAR - PIC' for the same unit"},
        {"power": "France", "order": "A PAR - PIC", "result": "succeeds", "reason": None}]
    assert std["units"]["France"] == ["A PIC"]
    assert [o["result"] for o in mob["orders"]] == ["succeeds", "succeeds"]
    assert mob["units"]["capone"] == ["D Mic", "G Mem"], mob


def test_the_batch_command_reads_bytes_from_stdin() -> None:
    data = GOOD_LINE + b"\n\xe9\xe9\n" + GOOD_LINE + b"\n"
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "-"], input=data,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [o["id"] for o in out] == ["good", None, "good"]
    assert out[1]["errors"] == ["line 2: not UTF-8 (byte 1 of the line)"]


def _json_module_line(out: dict) -> bytes:
    """The output line as the json module writes it (the contract orjson must keep)."""
    text = json.dumps(out, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for raw in ("\x85", "\u2028", "\u2029"):
        text = text.replace(raw, f"\\u{ord(raw):04x}")
    return text.encode("utf-8") + b"\n"


ODD_TEXTS = ["A PAR - BUR", "caf\u00e9 \U0001F600", "tab\there", "\x00\x1f\x7f", 'quote " \\',
             "next\x85line", "line\u2028sep", "para\u2029sep", "\u00a0\ufeff", ""]
ODD_IDS = [None, True, False, 0, -1, 2**63 - 1, 2**63, -(2**63) - 1, 2**70, 1.0, 1e-07, 1e16,
           0.1, 5e-324, -0.0, 1.5e300, "x", "\u2028", ["a", 1e-7, {"k": None}], {"a": [1.25]}]


@pytest.mark.parametrize("case_id", ODD_IDS, ids=repr)
def test_output_lines_are_written_as_the_json_module_would(case_id) -> None:
    """Whatever the id and whatever the order texts and power names, the line written value
    by value is byte for byte the json module's (with line breaks escaped), and so is what
    json_line writes of it."""
    odd_power = "Fr\u2028ance\x85"  # matches no power: its own line, with the error
    case = {"id": case_id, "phase": "S1901M", "units": {"France": ["A PAR", "F BRE"]},
            "orders": {"France": ["A PAR - BUR", *ODD_TEXTS]}}
    for given in (case, {**case, "units": {odd_power: ["A PAR"]}}):
        written = answer_case(given)
        out = json.loads(written)
        assert written == _json_module_line(out) == json_line(out)
    out = run_case(case)
    assert [o["order"] for o in out["orders"]] == ["A PAR - BUR", *ODD_TEXTS]
    assert out["id"] == case_id


@pytest.mark.parametrize("phase", [1e-07, 2.5, 2**70, None, [1e-7], {"p": 1e300}], ids=repr)
def test_an_unread_lines_echoed_phase_is_written_as_the_json_module_would(phase) -> None:
    written = answer_case({"id": "p", "phase": phase})
    out = json.loads(written)
    assert out["phase"] == phase and out["errors"]
    assert written == _json_module_line(out) == json_line(out)


def test_a_lone_surrogate_is_written_as_u_fffd() -> None:
    """orjson refuses a lone surrogate; the batch writes U+FFFD in its place, wherever it is
    (an order text, a power's name, the id), as json_line does."""
    case = {"id": "s\ud800", "phase": "S1901M", "units": {"France": ["A PAR"]},
            "orders": {"France": ["A PAR - BUR", "x\ud800"]}}
    written = answer_case(case)
    out = json.loads(written)
    assert out["id"] == "s\ufffd" and out["orders"][1]["order"] == "x\ufffd"
    assert written == json_line(out)
    assert out["errors"][0].startswith("France: 'x\\ud800': ")  # the text's repr: escaped


def _read(line: str | bytes) -> tuple[str, str]:
    """What the batch reads of ``line``: the value as JSON text (floats exactly, ints apart
    from floats, keys in order), or the error."""
    try:
        value = read_case(line)
    except ValueError as exc:
        return "error", str(exc)
    return "value", json.dumps(value, ensure_ascii=False)


READ_ALIKE = [
    GOOD_LINE, GOOD_LINE + b"\r\n", b"  " + GOOD_LINE + b" \t", b"\xef\xbb\xbf" + GOOD_LINE,
    b'{"id": 18446744073709551615}', b'{"id": 18446744073709551616}',
    b'{"id": -9223372036854775808}', b'{"id": -9223372036854775809}',
    b'{"id": 1' + b"0" * 40 + b"}",
    b'{"id": 0.1000000000000000055511151231257827}', b'{"id": 123456789012345678.5}',
    b'{"id": [1e-7, 5e-324, -0.0, 1.5e300, 1E5, -0, 2.5e-310]}', b'{"id": 1e999}',
    b'{"id": NaN}', b'{"a": 1, "b": 2, "a": 3}', b'{"id": "\\ud800"}', b'{"id": "\\ud83d\\ude00"}',
    b'{"id": "caf\xc3\xa9 \\u0000 \\/"}', b'{"id": "a\x01b"}', b'{"id": "caf\xe9"}',
    b'{"id": 1}\x0c', b"[" * 150 + b"]" * 150, b"[" * 499 + b"]" * 499, b"[" * 600 + b"]" * 600,
    b"[" * 1000 + b"]" * 1000, b"[" * 1020 + b"]" * 1020, b"[" * 1100 + b"]" * 1100,
    b'{"id": "' + b"[" * 990 + b'", "n": ' + b"[" * 30 + b"]" * 30 + b"}",
    *(b"[" * n + b"]" * n for n in (500, 501)),
    *(b'{"id": ' + b"[" * (n - 1) + b"]" * (n - 1) + b"}" for n in (499, 500, 501)),
    b'{"id": "\\"' + b"[" * 600 + b'", "n": [1]}', b'{"id": "' + b"{" * 600,
    b"{" * 120 + b"", b'{"id": 1} x', b"", b"\n", b"[1,]", b"tru",
]


@pytest.mark.parametrize("line", READ_ALIKE,
                         ids=lambda b: repr(b) if len(b) < 80 else f"{b[:8]!r}...{len(b)}")
def test_lines_of_bytes_are_read_as_the_json_module_reads_their_text(line) -> None:
    """A line of bytes is read by orjson when it can be (mobadj.batch.read_case), else by the
    json module, as a text line always is: the same value, or the same error, either way."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        assert _read(line)[0] == "error"
        return
    assert _read(line) == _read(text)


def test_generated_and_broken_lines_are_read_alike() -> None:
    from mobadj.orders.corpus import broken_batch_lines
    from tools.batch_sample import sample

    lines = [text.encode("utf-8") for text in sample(3, 400)] + broken_batch_lines(3, 400)
    for line in lines:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            continue
        assert _read(line) == _read(text)


class _BreaksAfter:
    """An input whose reading fails after ``count`` good lines (a disk that goes away)."""

    def __init__(self, count: int) -> None:
        self.left = count

    def readline(self, _size: int = -1) -> bytes:
        if not self.left:
            raise OSError("input/output error")
        self.left -= 1
        return GOOD_LINE + b"\n"


def test_answers_made_before_the_input_fails_are_written() -> None:
    sink = io.BytesIO()
    with pytest.raises(OSError, match="input/output error"):
        run_batch(_BreaksAfter(5), sink)
    assert [json.loads(line)["id"] for line in sink.getvalue().splitlines()] == ["good"] * 5


def test_the_batch_command_called_from_code_returns(tmp_path) -> None:
    """Only the mobadj program ends without the interpreter's teardown; ``main`` called from
    other code (here click's test runner, in this process) returns as usual."""
    from click.testing import CliRunner

    from mobadj.cli import main

    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(GOOD_LINE + b"\n" + GOOD_LINE + b"\n")
    result = CliRunner().invoke(main, ["batch", "--jobs", "1", str(cases)])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["id"] for line in result.output.splitlines()] == ["good", "good"]


def _batch_file(tmp_path, text: str) -> list[dict]:
    """``mobadj batch --jobs 1 FILE`` on ``text`` (the command line's runner): the output
    lines, read."""
    from click.testing import CliRunner

    from mobadj.cli import main

    cases = tmp_path / "cases.jsonl"
    cases.write_text(text)
    result = CliRunner().invoke(main, ["batch", "--jobs", "1", str(cases)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def test_a_number_too_long_to_read_is_named_with_its_column(tmp_path) -> None:
    """Said as the YAML reader says it, with its place: not Python's advice to call one of
    its functions (sys.set_int_max_str_digits)."""
    long_id = '{"id": ' + "9" * 10_000 + "}\n"
    paradox = '{"id": "x", "options": {"paradox": ' + "1" * 5_000 + "}}\n"
    digits_in_text = '{"id": "' + "7" * 5_000 + '", "n": ' + "1" * 4_400 + "}\n"
    outs = _batch_file(tmp_path, long_id + paradox + digits_in_text)
    assert [o["errors"] for o in outs] == [
        ["line 1, column 8: a number of 10,000 digits (at most 4,300)"],
        ["line 2, column 36: a number of 5,000 digits (at most 4,300)"],
        ["line 3, column 5017: a number of 4,400 digits (at most 4,300)"]]

def test_the_batch_program_ends_with_every_answer_written(tmp_path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes((GOOD_LINE + b"\n") * 3000)
    for jobs in ("1", "2"):
        run = subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", jobs,
                              str(cases)], capture_output=True, timeout=300)
        assert run.returncode == 0 and run.stderr == b""
        assert run.stdout.count(b"\n") == 3000 and run.stdout.endswith(b"\n")


def _batch_program(cases: Path | str, jobs: str, **how) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", jobs, str(cases)],
                          capture_output="stdout" not in how, timeout=300, **how)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_output_that_cannot_be_written_is_one_clear_error(tmp_path, jobs) -> None:
    """A full disk (here /dev/full): the batch says so in one line, without a traceback."""
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes((GOOD_LINE + b"\n") * 50)
    with open("/dev/full", "wb") as full:
        run = _batch_program(cases, jobs, stdout=full, stderr=subprocess.PIPE)
    assert run.returncode == 1
    assert run.stderr.decode() == ("Error: the batch stopped: cannot write the answers: "
                                   "No space left on device\n")


@pytest.mark.parametrize(("closed", "message"), [
    (0, "Error: Invalid value for 'CASES': standard input is closed\n"),
    (1, "Error: standard output is closed: there is nowhere to write the answers\n"),
])
def test_a_closed_standard_stream_is_one_clear_error(closed, message) -> None:
    run = _batch_program("-", "1", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=lambda: os.close(closed))
    assert run.returncode in (1, 2) and run.stderr.decode().endswith(message), run.stderr
    assert b"Traceback" not in run.stderr


@pytest.mark.parametrize("the_map", [None, "mobtown2"])
def test_an_order_that_is_no_text_is_invalid_and_echoed_as_json(the_map) -> None:
    """``null`` is not read as the order text "None" (an unknown province)."""
    line = ({"phase": "S1901M", "units": {"France": ["A PAR"]},
             "orders": {"France": [None, 1, ["A PAR H"], "A PAR H"]}} if the_map is None else
            {"map": the_map, "phase": "1919-07-W1-M", "units": {"Lepke": ["G Cit"]},
             "orders": {"Lepke": [None, 1, ["G Cit H"], "G Cit H"]}})
    answer = json.loads(answer_line(json.dumps(line).encode()))  # Mobtown's keys too
    shown = [(o["order"], o["result"], o["reason"]) for o in answer["orders"]]
    why = "an order must be a text (a JSON string), not "
    listed = json.dumps(next(iter(line["orders"].values()))[2])  # '["A PAR H"]'
    assert shown[:3] == [("null", "invalid", why + "null"), ("1", "invalid", why + "1"),
                         (listed, "invalid", why + listed)]
    assert shown[3][1] == "succeeds", shown
    assert answer["errors"][0].endswith(why + "null")


@pytest.mark.parametrize(("line", "error"), [
    ({"phase": "S1901M", "units": {"Frnace": ["A PAR"]}},
     "unknown power 'Frnace'; did you mean FRANCE?"),
    ({"map": "mobtown2", "phase": "1919-07-W1-M", "units": {"Lepk": ["G Cit"]}},
     "unknown mob 'Lepk'; did you mean lepke?"),
    ({"map": 5, "phase": "S1901M"}, "'map' must be a map's name (a text), not 5"),
])
def test_unknown_powers_and_odd_maps_are_named_once(line, error) -> None:
    answer = json.loads(answer_line(json.dumps(line).encode()))
    assert answer["errors"] == [error]


@pytest.mark.parametrize(("order", "error"), [
    ("Biuld F LON", "'Biuld F LON': line 1, column 1: unknown word 'Biuld'; did you mean Build?"),
    ("A LVP suport A LON",
     "'A LVP suport A LON': line 1, column 7: unknown word 'suport'; did you mean Support?"),
])
def test_a_misspelt_keyword_is_named_as_in_an_order_file(order, error) -> None:
    """As `mobadj adjudicate` and the judge say it (docs/orders.md), not 'unknown province
    Biuld F LON; did you mean Gulf of Lyon?'."""
    line = {"phase": "W1901A", "units": {"England": ["F EDI", "A LVP"]},
            "centers": {"England": ["LON", "EDI", "LVP"]}, "orders": {"England": [order]}}
    answer = json.loads(answer_line(json.dumps(line).encode()))
    assert answer["errors"] == [f"England: {error}"]


BROKEN_MAP = """\
name: tiny
title: A tiny board with an error
unit_kinds: {A: Army, F: Fleet}
calendar: standard
powers:
  NORTH: {name: North, home: [AAA], units: [A AAA]}
provinces:
  AAA: {name: Alpha, terrain: land, supply: true, home: NORTH, adj: {A: [~]}}
  ~: {name: Bravo, terrain: land, adj: {A: [AAA]}}
"""


def test_a_line_naming_a_map_whose_file_has_an_error_gets_that_error(tmp_path) -> None:
    """The map file is the user's input, as an unknown map's name is: each line naming it
    gets the file's errors as `mobadj map check` words them, with no traceback and no
    "internal error"; the file is read once (here it is gone before the second line), and
    the other lines run as always, an unknown map named as such."""
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "tiny.yaml").write_text(BROKEN_MAP)
    tiny = json.dumps({"id": "t", "map": "tiny", "phase": "S1901M",
                       "units": {"North": ["A AAA"]}, "orders": {"North": ["A AAA H"]}})
    env = {**os.environ, "MOBADJ_MAPS": str(maps)}
    with subprocess.Popen([sys.executable, "-m", "mobadj", "batch", "--jobs", "1", "-"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(tiny.encode() + b"\n")
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        (maps / "tiny.yaml").unlink()
        proc.stdin.write(b"\n".join([tiny.encode(), GOOD_LINE,
                                     b'{"id": "u", "map": "tinx", "phase": "S1901M"}']) + b"\n")
        proc.stdin.close()
        rest = [json.loads(line) for line in proc.stdout.read().splitlines()]
        stderr = proc.stderr.read() if proc.stderr else b""
    assert proc.returncode == 0 and stderr == b"", stderr.decode()
    why = f"{maps / 'tiny.yaml'}: 1 error(s) in map file:\n  line 9: error: ~: empty id [schema]"
    for answer in (first, rest[0]):
        assert answer["id"] == "t" and answer["next_phase"] is None
        assert answer["errors"] == [why]
    assert rest[1]["id"] == "good" and rest[1]["errors"] == []
    assert rest[2]["errors"][0].startswith("unknown map 'tinx'; known maps: ")


def _nested(levels: int, in_object: bool) -> bytes:
    """A line whose arrays (in an object: the value of its "id") nest ``levels`` deep."""
    if not in_object:
        return b"[" * levels + b"]" * levels
    inner = levels - 1
    return (b'{"id": ' + b"[" * inner + b"]" * inner
            + b', "phase": "S1901M", "units": {"France": ["A PAR"]}}')


def test_how_deep_a_line_may_nest_depends_on_the_line_alone(tmp_path) -> None:
    """500 levels are read, 501 are refused with the limit named, in arrays and inside an
    object's value, whatever the number of jobs (the json module's own limit depends on
    the calls under way); brackets inside a string do not count."""
    lines = [_nested(n, in_object) for in_object in (False, True) for n in (499, 500, 501)]
    lines.append(b'{"id": "\\"' + b"[" * 900 + b'", "phase": "S1901M"}')
    cases = tmp_path / "deep.jsonl"
    cases.write_bytes(b"\n".join(lines) + b"\n")
    outputs = [subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", jobs,
                               str(cases)], capture_output=True, timeout=120)
               for jobs in ("1", "2")]
    assert outputs[0].stdout == outputs[1].stdout
    assert all(run.returncode == 0 and run.stderr == b"" for run in outputs)
    answers = [json.loads(line) for line in outputs[0].stdout.splitlines()]
    too_deep = "not JSON: nested too deeply (more than 500 levels)"
    assert [a["errors"] for a in answers[:3]] == [
        ["each line must be a JSON object"], ["each line must be a JSON object"],
        [f"line 3: {too_deep}"]]
    assert [a["errors"] for a in answers[3:6]] == [[], [], [f"line 6: {too_deep}"]]
    assert answers[4]["id"] == json.loads(_nested(500, True))["id"]
    assert answers[4]["next_phase"] == "F1901M"
    assert answers[6]["id"] == '"' + "[" * 900 and answers[6]["errors"] == []


COUNT_MAP_READS = """\
import sys
from pathlib import Path
folder = sys.argv.pop(1)
read_bytes = Path.read_bytes
def told(path):
    if str(path).startswith(folder):
        print("read", path.name, file=sys.stderr, flush=True)
    return read_bytes(path)
Path.read_bytes = told
from mobadj.program import run
run()
"""
"""``mobadj ARGS...`` that writes a line to standard error for each read of a map file of the
folder given before ARGS."""


def test_each_unknown_map_name_is_looked_for_once_per_batch(tmp_path) -> None:
    """A file of many lines with a misspelt map ("standrad", a typo pasted down a whole file)
    answers each with the same unknown-map error, and the maps are searched for that name
    once: the map files (a broken one among them, read on each search) are not read again
    line after line. Another misspelling costs one search of its own."""
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "tiny.yaml").write_text(BROKEN_MAP)
    typo = {"id": "t", "map": "standrad", "phase": "S1901M",
            "units": {"France": ["A PAR"]}, "orders": {"France": ["A PAR-BUR"]}}
    other = {**typo, "id": "u", "map": "Standart"}
    lines = [json.dumps(typo).encode()] * 1000 + [GOOD_LINE, json.dumps(other).encode()] * 3
    proc = subprocess.run([sys.executable, "-c", COUNT_MAP_READS, str(maps), "batch",
                           "--jobs", "1", "-"], input=b"\n".join(lines) + b"\n",
                          capture_output=True, env={**os.environ, "MOBADJ_MAPS": str(maps)},
                          timeout=60, check=True)
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    known = "known maps: mobtown2, standard, tiny"
    for answer in out[:1000]:
        assert answer["errors"] == [f"unknown map 'standrad'; {known}"]
    assert [a["errors"] for a in out[1000:]] == [[], [f"unknown map 'standart'; {known}"]] * 3
    reads = proc.stderr.decode().splitlines()
    assert (len(reads), set(reads)) == (2, {"read tiny.yaml"})  # a search per misspelling
