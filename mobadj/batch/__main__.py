"""``python -m mobadj.batch CASES.jsonl`` ("-" or nothing: standard input): a batch in this
process with one job, answers on standard output (``mobadj batch`` is the command)."""

from __future__ import annotations

import sys

from mobadj.batch.stream import run_batch


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    with open(args[0], "rb") if args and args[0] != "-" else sys.stdin.buffer as src:
        run_batch(src)


if __name__ == "__main__":
    main()
