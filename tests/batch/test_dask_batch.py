"""tools/dask_batch.py: the batch on Dask bag, over JSONL files split by lines, on Dask's
local process scheduler, writes what ``mobadj batch`` writes."""

from __future__ import annotations

import io
from pathlib import Path

from mobadj.batch import run_batch
from mobadj.orders.corpus import broken_batch_lines
from tools.batch_sample import sample
from tools.dask_batch import first_line, run

LINES_PER_FILE = 40


def test_dask_bag_over_split_files_writes_the_batch_bytes(tmp_path: Path) -> None:
    lines = [line.encode() for line in sample(15, 150)]
    for i, bad in enumerate(broken_batch_lines(15, 4)):  # not UTF-8, not JSON, ...
        lines.insert(37 * i + 5, bad[:2000])
    archive = b"\n".join(lines) + b"\n"
    expected = io.BytesIO()
    run_batch(io.BytesIO(archive), expected, jobs=1)
    parts = tmp_path / "parts"
    parts.mkdir()
    for index, start in enumerate(range(0, len(lines), LINES_PER_FILE)):  # split -l 40 -d
        chunk = lines[start:start + LINES_PER_FILE]
        (parts / f"{index:06d}.jsonl").write_bytes(b"\n".join(chunk) + b"\n")
    written = run(str(parts / "*.jsonl"), str(tmp_path / "answers"), LINES_PER_FILE,
                  scheduler="processes", num_workers=2)
    assert len(written) == len(list(parts.iterdir())) == 4
    got = b"".join(Path(path).read_bytes() for path in sorted(written))
    assert got == expected.getvalue()
    assert b'"errors":["line 6: ' in got  # the lines keep their numbers


def test_a_part_file_is_named_by_its_index() -> None:
    assert first_line("/data/parts/000000.jsonl", 1000) == 1
    assert first_line("s3://bucket/parts/000003.jsonl", 1000) == 3001
