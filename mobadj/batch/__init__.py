"""``mobadj batch``: adjudicate many phases in one process, one JSON object per line.

The contract (documented in docs/adjudication.md):

input line::

    {"id", "map", "phase", "units": {power: ["A PAR", "F STP/SC"]},
     "centers": {power: ["PAR"]}, "dislodged": {power: [{"unit", "from", "convoyed"?}]},
     "standoffs": ["BUR"], "orders": {power: ["A PAR - BUR"]},
     "options"?: {"paradox": "1982", ...}}     # DATC rule options, docs/rulings.md

output line (same order as the input, one per input line, never a crash)::

    {"id", "phase", "next_phase", "orders": [{"power", "order", "result", "reason"}],
     "units", "dislodged": {power: [{"unit", "from", "retreats"}]},
     "destroyed"?: {power: ["A MUN"]}, "centers", "warnings"?: ["unknown key ..."],
     "errors"}

``destroyed`` (only when there are some) lists the dislodged units that had no retreat and
were disbanded at once; ``next_phase`` then skips a retreat phase left with nothing to decide.
A variant adds its own keys (Mobtown II: docs/mobtown-rulings.md).  ``warnings`` (only when
there are some) names each key of the input line that no line has, ignored (a misspelt
``orders`` would leave every unit holding without a word).

Power names match case-insensitively; the output spells each power as the input first did.
Order strings are echoed exactly as given.  Each order text is read once per batch, because
the same strings recur across phases.  Two orders for one unit: the last one counts (the
earlier is ``invalid``, replaced), unless the line's options say ``"duplicate_orders":
"first"``.

A batch cannot die: input is read as bytes and each line decoded on its own, so a line that
is not UTF-8, not JSON, nested too deeply or too long, or that fails in any way inside
adjudication, is answered by its own output line with ``errors`` and the next line runs.
Output is always strict UTF-8 JSON: no ``NaN``, no lone surrogates (they become U+FFFD).

The package, one job per module:

- :mod:`~mobadj.batch.runner`: one line in, its output object out, for every map;
- :mod:`~mobadj.batch.serialize`: results as JSON, for the batch, ``adjudicate --json`` and
  the judge's ``result.json``;
- :mod:`~mobadj.batch.reading`: input lines and their JSON values;
- :mod:`~mobadj.batch.stream`: a whole input to its output, line by line;
- :mod:`~mobadj.batch.jobs`: the same over worker processes, and how many a batch takes;
- :mod:`~mobadj.batch.split`: ``--jobs`` over a file, its lines cut into one part per job;
- :mod:`~mobadj.batch.command`: ``mobadj batch`` as a whole process.

Names are imported from their module when first asked for: a batch starts without the
modules it does not use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mobadj.batch.command import (
        DEFERRED,
        MAX_JOBS,
        BatchStopped,
        Output,
        OutputError,
        answer_all,
        defer,
        jobs_refused,
        quick_arguments,
        quick_start,
    )
    from mobadj.batch.jobs import (
        CHUNK_BYTES,
        CHUNK_LINES,
        IN_FLIGHT,
        WORTH_SECONDS,
        Filling,
        ReadAhead,
        answer_chunk,
        free_workers,
        run_parallel,
        worth_workers,
    )
    from mobadj.batch.reading import MAX_LINE_BYTES, SkippedLine, read_case, read_lines
    from mobadj.batch.runner import (
        KEYS,
        MapContext,
        Reading,
        answer_case,
        forget_orders,
        map_context,
        run_case,
        short_json,
    )
    from mobadj.batch.serialize import (
        empty_output,
        json_line,
        judge_result,
        order_entries,
        phase_result,
        to_json,
    )
    from mobadj.batch.stream import (
        COLLECT_EVERY,
        OUTPUT_CHUNK,
        SOLO_LINES,
        answer_line,
        cores,
        quiet_collector,
        run_batch,
        run_lines,
    )

_MODULES = {
    "command": ("DEFERRED", "MAX_JOBS", "BatchStopped", "Output", "OutputError", "answer_all",
                "defer", "jobs_refused", "quick_arguments", "quick_start"),
    "jobs": ("CHUNK_BYTES", "CHUNK_LINES", "IN_FLIGHT", "WORTH_SECONDS", "Filling",
             "ReadAhead", "answer_chunk", "free_workers", "run_parallel", "worth_workers"),
    "reading": ("MAX_LINE_BYTES", "SkippedLine", "read_case", "read_lines"),
    "runner": ("KEYS", "MapContext", "Reading", "answer_case", "forget_orders", "map_context",
               "run_case", "short_json"),
    "serialize": ("empty_output", "json_line", "judge_result", "order_entries",
                  "phase_result", "to_json"),
    "stream": ("COLLECT_EVERY", "OUTPUT_CHUNK", "SOLO_LINES", "answer_line", "cores",
               "quiet_collector", "run_batch", "run_lines"),
}
_WHERE = {name: f"mobadj.batch.{module}" for module, names in _MODULES.items()
          for name in names}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BatchStopped", "CHUNK_BYTES", "CHUNK_LINES", "COLLECT_EVERY", "DEFERRED", "Filling",
    "IN_FLIGHT", "KEYS", "MAX_JOBS", "MAX_LINE_BYTES", "MapContext", "OUTPUT_CHUNK", "Output",
    "OutputError", "ReadAhead", "Reading", "SOLO_LINES", "SkippedLine", "WORTH_SECONDS",
    "answer_all", "answer_case", "answer_chunk", "answer_line", "cores", "defer", "empty_output",
    "forget_orders", "free_workers", "jobs_refused", "json_line", "judge_result", "map_context",
    "order_entries", "phase_result", "quick_arguments", "quick_start", "quiet_collector",
    "read_case", "read_lines", "run_batch", "run_case", "run_lines", "run_parallel", "short_json",
    "to_json", "worth_workers"]
