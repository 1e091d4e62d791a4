"""100,000 random and mutated order lines (mobadj.orders.corpus, seeded) through the parser
API and through a real ``mobadj batch`` process: nothing crashes, every bad line is
answered with an error, every good line is read and every readable phase adjudicated."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.orders.corpus import batch_cases, broken_batch_lines, fuzz_lines, good_lines
from mobadj.orders.errors import OrderError
from mobadj.orders.parser import MAX_LINE, OrderParser, parse_orders
from mobadj.orders.spelling import plain_characters, text_lines

SEED = 20261125
COUNT = 100_000


@pytest.fixture(scope="module")
def corpus(std) -> list[str]:
    return fuzz_lines(std, SEED, COUNT)


def test_the_corpus_is_what_it_says(std, corpus) -> None:
    assert len(corpus) == COUNT
    assert corpus == fuzz_lines(std, SEED, COUNT)  # seeded: a failure can be replayed
    assert sum(len(line) > MAX_LINE for line in corpus) > 10  # some lines are too long
    assert any("\ud800" in line for line in corpus)  # lone surrogates too


def test_every_line_of_a_file_is_answered(std, corpus) -> None:
    """The file API: each line gives orders, errors or a section; none raises."""
    parser = OrderParser(std)
    text = "\n".join(corpus)
    result = parse_orders(text, std, parser=parser)
    lines = text_lines(text)  # as parse_orders counts them (\x0b, \u2028, ... break none)
    answered = {p.line for p in result.orders} | {e.line for e in result.errors} | {
        w.line for w in result.warnings}
    for number, line in enumerate(lines, 1):
        body = plain_characters(line.split("#", 1)[0])  # invisible characters are blanks
        if number in answered or not body.replace(",", " ").replace(";", " ").strip():
            continue
        assert ":" in body or parser.bare_header(body) is not None, (number, line)
    for error in result.errors:
        assert 1 <= error.line <= len(lines) and error.column >= 1
        assert str(error) and error.message
    assert len(result.orders) > COUNT // 10 and len(result.errors) > COUNT // 4


def test_every_line_as_one_order(std, corpus) -> None:
    """The single-order API: an order, or an OrderError saying why not; never anything else."""
    parser = OrderParser(std)
    read = 0
    for line in corpus:
        try:
            orders = parser.parse_group(line)
        except OrderError as exc:
            assert str(exc)
            continue
        read += 1
        for order in orders:  # what was read prints as an order that reads back the same
            try:
                again = parser.parse_group(str(order))
            except OrderError as exc:
                raise AssertionError(f"{line!r} -> {order!r}: {exc}") from None
            assert again == [order], line
    assert read > COUNT // 4


def test_good_lines_are_all_read(std) -> None:
    import random

    lines = good_lines(std, random.Random(SEED), 5000)
    result = parse_orders("\n".join(lines), std)
    assert result.errors == [] and len(result.orders) == 5000


def test_mobtown_reader_never_crashes(corpus) -> None:
    from mobadj.board.loader import load_map

    mobtown = load_map("mobtown2")
    result = parse_mobtown_orders("\n".join(corpus[:10_000]), mobtown)
    assert result.errors


def test_batch_answers_every_line(std, corpus, tmp_path: Path) -> None:
    """One ``mobadj batch`` process: every case's orders are the fuzz lines; broken lines
    (not UTF-8, not JSON, deep, NaN, bad phases) are mixed in.  One strict JSON line out for
    each line in, the readable phases adjudicated, every broken line answered with errors."""
    cases = batch_cases(std, SEED, corpus[:COUNT // 2], per_case=20)  # 2,500 phases
    broken = broken_batch_lines(SEED, 1000)
    lines: list[bytes] = []
    is_case: list[bool] = []
    for i, case in enumerate(cases):
        lines.append(json.dumps(case).encode())
        is_case.append(True)
        if i % 5 == 0:
            lines.append(broken[i // 5])
            is_case.append(False)
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", str(path)],
                          capture_output=True, timeout=600)
    assert proc.returncode == 0 and proc.stderr == b""
    out = proc.stdout.decode("utf-8").splitlines()  # strict UTF-8
    assert len(out) == len(lines)
    given = iter(cases)
    for text, good in zip(out, is_case, strict=True):
        result = json.loads(text, parse_constant=_reject)  # strict JSON: no NaN
        if not good:
            assert result["errors"], text
            continue
        case = next(given)
        assert result["id"] == case["id"] and result["next_phase"] is not None, text
        sent = [_valid(o) for orders in case["orders"].values() for o in orders]
        assert [o["order"] for o in result["orders"]] == sent  # echoed (lone surrogates: U+FFFD)
        # each unreadable order is answered twice: as an invalid order and in errors
        unread = [o["reason"] for o in result["orders"]
                  if o["result"] == "invalid" and o["reason"].startswith("line 1, column ")]
        assert len(result["errors"]) == len(unread), text
        assert all(e.endswith(r) for e, r in zip(result["errors"], unread, strict=True)), text


def _valid(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _reject(name: str) -> None:
    raise ValueError(f"{name} in the output")
