"""``mobadj batch`` beyond one machine: the same batch on Dask bag, over JSONL files split by
lines (docs/performance.md, "Beyond one machine").

Split the archive into files of N lines, named by their index, so that every line keeps
its number (error messages name it)::

    split -l 100000 -d -a 6 --additional-suffix=.jsonl archive.jsonl parts/
    python -m tools.dask_batch 'parts/*.jsonl' answers/ --lines-per-file 100000

Each file is one partition; each line is answered by :func:`mobadj.batch.answer_line`, the
very function ``mobadj batch`` calls for every line, so ``cat answers/*.jsonl`` is byte for
byte what ``mobadj batch archive.jsonl`` writes.  Dask runs it on its local process
scheduler, or on a cluster when a ``dask.distributed`` client is connected (``--scheduler
ADDRESS``); mobadj must be installed on the workers.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import dask.bag as db

from mobadj.batch import answer_line


def first_line(path: str, lines_per_file: int) -> int:
    """The number, in the whole archive, of the first line of part file ``path``."""
    index = re.match(r"\d+", Path(path).name)
    if index is None:
        raise ValueError(f"{path}: a part file is named by its index (split -d)")
    return int(index.group()) * lines_per_file + 1


def answer_part(lines: list[tuple[str, str]], lines_per_file: int) -> list[str]:
    """The output lines of one part file's ``(line, path)`` pairs (without line breaks).
    Lines are read with ``surrogateescape`` and turned back into their bytes, so a line
    that is not UTF-8 is answered as ``mobadj batch`` answers it."""
    out = []
    for i, (line, path) in enumerate(lines):
        number = first_line(path, lines_per_file) + i
        out.append(answer_line(line.encode("utf-8", "surrogateescape"), number)[:-1]
                   .decode("utf-8"))
    return out


def answers(pattern: str, lines_per_file: int) -> db.Bag:
    """The bag of output lines for the part files matching ``pattern`` (any path Dask
    reads: local, s3://, hdfs://, ...), in order: one partition per file."""
    lines = db.read_text(pattern, encoding="utf-8", errors="surrogateescape",
                         linedelimiter="\n", include_path=True)
    return lines.map_partitions(answer_part, lines_per_file)


def run(pattern: str, out_dir: str, lines_per_file: int, **compute: object) -> list[str]:
    """Write the answers to ``out_dir`` (one file per part, same order); returns their
    paths.  ``compute`` goes to Dask (e.g. ``scheduler="processes", num_workers=2``)."""
    return answers(pattern, lines_per_file).to_textfiles(
        f"{out_dir.rstrip('/')}/*.jsonl", name_function=_name, encoding="utf-8",
        last_endline=True, **compute)


def _name(index: int) -> str:
    return f"{index:06d}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parts", help="the part files, e.g. 'parts/*.jsonl'")
    ap.add_argument("out", help="the directory for the answers")
    ap.add_argument("--lines-per-file", type=int, required=True, help="split -l N")
    ap.add_argument("--scheduler", help="a dask.distributed scheduler's address")
    args = ap.parse_args(argv)
    if args.scheduler:
        from dask.distributed import Client

        with Client(args.scheduler):
            run(args.parts, args.out, args.lines_per_file)
    else:
        run(args.parts, args.out, args.lines_per_file, scheduler="processes")


if __name__ == "__main__":
    main()
