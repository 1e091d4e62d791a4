"""``--jobs N`` over a file (mobadj/batch/split.py): the lines cut into parts at line
breaks, one process per part, the bytes of one job in input order, and no line lost when a
part's process dies."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.batch import MAX_LINE_BYTES, SkippedLine, run_batch
from mobadj.batch.split import (
    MIN_PART,
    Part,
    copier,
    cut,
    file_at,
    forks,
    lines_in,
    part_lines,
    run_split,
)
from tools.batch_sample import sample

from .killing import KILLER, assert_killers_answered, plant_killer


def _lines_file(path: Path, seed: int, count: int, last_break: bool = True) -> Path:
    """``count`` lines of random lengths (1 to 3,000 bytes), the last without its line
    break unless ``last_break``."""
    rng = random.Random(seed)
    lines = [bytes(rng.choice(b"abc{}[] ") for _ in range(rng.randint(1, 3000)))
             for _ in range(count)]
    path.write_bytes(b"\n".join(lines) + (b"\n" if last_break else b""))
    return path


@pytest.mark.parametrize("last_break", [True, False])
def test_parts_end_after_line_breaks_and_hold_every_line_once(tmp_path: Path,
                                                              last_break: bool) -> None:
    path = _lines_file(tmp_path / "lines.txt", 1, 400, last_break)
    data = path.read_bytes()
    with path.open("rb") as f:
        fd = f.fileno()
        for begin in (0, data.index(b"\n") + 1):
            for jobs in (1, 2, 3, 7):
                parts = cut(fd, begin, len(data), jobs)
                assert len(parts) == min(jobs, (len(data) - begin) // MIN_PART)
                assert parts[0].begin == begin and parts[-1].end == len(data)
                assert all(a.end == b.begin for a, b in zip(parts, parts[1:], strict=False))
                assert all(data[p.end - 1:p.end] == b"\n" for p in parts[:-1])
                sizes = [p.end - p.begin for p in parts]
                assert max(sizes) - min(sizes) < 2 * 3001 + len(data) // 100
                got = [line for p in parts for line in part_lines(fd, p.begin, p.end)]
                assert got == data[begin:].splitlines(keepends=True)
                assert sum(lines_in(fd, p.begin, p.end) for p in parts) == len(got)
        assert f.tell() == 0  # the descriptor's own position never moves


def test_a_short_file_is_one_part_and_an_empty_rest_none(tmp_path: Path) -> None:
    path = tmp_path / "short.jsonl"
    path.write_bytes(b"x\n" * (MIN_PART // 2))
    with path.open("rb") as f:
        assert cut(f.fileno(), 0, MIN_PART, 4) == [Part(0, MIN_PART)]
        assert cut(f.fileno(), MIN_PART, MIN_PART, 4) == []
        assert run_split(f.fileno(), 0, print, print, print, 2) is None  # nothing read


def test_a_too_long_line_in_a_part_is_skipped_without_being_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"a\n" + b"x" * (MAX_LINE_BYTES + 5) + b"\nb\n")
    with path.open("rb") as f:
        got = list(part_lines(f.fileno(), 0, path.stat().st_size))
    assert got[0] == b"a\n" and got[2] == b"b\n" and isinstance(got[1], SkippedLine)
    assert f"{MAX_LINE_BYTES + 5:,} bytes" in got[1].why


def test_where_a_file_is_read_from(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_bytes(b"one\ntwo\n")
    with path.open("rb") as f:
        f.readline()  # buffered: the descriptor has read further than the line
        assert file_at(f) == (f.fileno(), 4)
    with path.open("r", encoding="utf-8") as text:
        assert file_at(text) == (text.fileno(), 0)
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as pipe, os.fdopen(write_end, "wb"):
        assert file_at(pipe) is None
    assert file_at(io.BytesIO(b"x\n")) is None


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> tuple[Path, bytes]:
    """3,000 phases of both maps with broken lines among them, and what one job writes."""
    lines = [line.encode() for line in sample(21, 3000)]
    for i in range(0, 3000, 211):
        lines[i] = b'{"id": "broken", "units": ['
    path = tmp_path_factory.mktemp("split") / "games.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    one = io.BytesIO()
    with path.open("rb") as source:
        run_batch(source, one, jobs=1)
    return path, one.getvalue()


@pytest.mark.skipif(not forks(), reason="parts are answered by forked processes")
@pytest.mark.parametrize("jobs", [2, 3, 5])
def test_parts_write_the_bytes_of_one_job(games: tuple[Path, bytes], tmp_path: Path,
                                          jobs: int) -> None:
    """To a stream in memory (answers written) and to a file (answers copied by the
    kernel): the same bytes as one job, broken lines' numbers included."""
    path, expected = games
    assert b'"errors":["line 2533: not JSON' in expected  # a broken line in a later part
    sink = io.BytesIO()
    with path.open("rb") as source:
        assert run_batch(source, sink, jobs=jobs) == 3000
    assert sink.getvalue() == expected
    out = tmp_path / "out.jsonl"
    with path.open("rb") as source, out.open("wb") as written:
        assert run_batch(source, written, jobs=jobs) == 3000
    assert out.read_bytes() == expected


@pytest.mark.skipif(not forks(), reason="parts are answered by forked processes")
def test_from_the_middle_of_a_file_the_lines_are_numbered_from_there(
        games: tuple[Path, bytes]) -> None:
    path, expected = games
    answers = expected.splitlines(keepends=True)
    with path.open("rb") as source:
        skipped = [source.readline() for _ in range(500)]
        fd, begin = file_at(source)
        assert begin == sum(map(len, skipped))
        sink = io.BytesIO()
        assert run_split(fd, begin, sink.write, sink.flush, copier(sink, sink.write), 2,
                         start=501) == 2500
    assert sink.getvalue() == b"".join(answers[500:])


@pytest.mark.skipif(not forks(), reason="the fault is planted in processes forked from the test")
def test_a_part_whose_process_dies_is_answered_again_and_no_line_is_lost(
        games: tuple[Path, bytes], tmp_path: Path, monkeypatch) -> None:
    """A line kills the process of its part (SIGKILL, as from a crash or the out-of-memory
    killer): the part is answered again, that line with an error line, every other line
    with its usual answer, in order."""
    path, expected = games
    lines = path.read_bytes().split(b"\n")
    killers = {1700, 2900}  # in the second part of two
    for i in killers:
        lines[i] = KILLER
    deadly_file = tmp_path / "deadly.jsonl"
    deadly_file.write_bytes(b"\n".join(lines))
    plant_killer(monkeypatch)
    sink = io.BytesIO()
    with deadly_file.open("rb") as source:
        assert run_batch(source, sink, jobs=2) == 3000
    assert_killers_answered(sink.getvalue(), expected, killers)


def test_the_command_line_cuts_a_file_given_on_standard_input(games: tuple[Path, bytes]
                                                              ) -> None:
    """``mobadj batch --jobs 2 - < file``: standard input is the file itself, cut into
    parts; the answers go to a pipe."""
    path, expected = games
    with path.open("rb") as stdin:
        proc = subprocess.run([sys.executable, "-m", "mobadj", "batch", "--jobs", "2", "-"],
                              stdin=stdin, capture_output=True, timeout=300)
    assert proc.returncode == 0 and proc.stderr == b""
    assert proc.stdout == expected
