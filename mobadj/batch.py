"""``mobadj batch``: adjudicate many phases in one process, one JSON object per line.

The contract (issue 2; documented in docs/adjudication.md):

input line::

    {"id", "map", "phase", "units": {power: ["A PAR", "F STP/SC"]},
     "centers": {power: ["PAR"]}, "dislodged": {power: [{"unit", "from", "convoyed"?}]},
     "standoffs": ["BUR"], "orders": {power: ["A PAR - BUR"]},
     "options"?: {"paradox": "1982", ...}}     # DATC rule options, docs/rulings.md

output line (same order as the input, one per input line, never a crash)::

    {"id", "phase", "next_phase", "orders": [{"power", "order", "result", "reason"}],
     "units", "dislodged": {power: [{"unit", "from", "retreats"}]}, "centers", "errors"}

Power names match case-insensitively; the output spells each power as the input first did.
Order strings are echoed exactly as given.  Parsed orders are cached by text, because the
same strings recur across phases.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import PositionError, position_from_data
from mobadj.engine.results import Outcome
from mobadj.engine.rules import coerce_options
from mobadj.engine.variants import UnknownVariantError, load_variant

KEYS = ("id", "phase", "next_phase", "orders", "units", "dislodged", "centers", "errors")


class _MapContext:
    """Per-map state kept for the whole batch: the map, its rules and a parse cache."""

    def __init__(self, name: str) -> None:
        from mobadj.orders.parser import parser_for

        self.game_map, self.rules = load_variant(name)
        self.parser = parser_for(self.game_map)
        self.cache: dict[str, Any] = {}
        self.powers: dict[str, str] = {}
        self.variants: dict[tuple[tuple[str, str], ...], Any] = {}

    def parse(self, text: str) -> Any:
        """The Order for ``text``, or the OrderError describing why it is not one."""
        got = self.cache.get(text)
        if got is None:
            try:
                got = self.parser.parse_order(text)
            except ValueError as exc:  # OrderError and friends are ValueErrors
                got = exc
            self.cache[text] = got
        return got

    def rules_with(self, options: Any) -> Any:
        """The map's rules, or a copy with the line's DATC rule ``options`` (docs/rulings.md),
        built once per distinct set of options."""
        if not options:
            return self.rules
        if not isinstance(options, Mapping):
            raise PositionError("'options' must map option names to values")
        key = tuple(sorted((str(k), str(v)) for k, v in options.items()))
        got = self.variants.get(key)
        if got is None:
            try:
                got = dataclasses.replace(self.rules, **coerce_options(options))
            except ValueError as exc:
                raise PositionError(str(exc)) from None
            self.variants[key] = got
        return got

    def power(self, text: str) -> str:
        pid = self.powers.get(text)
        if pid is None:
            try:
                pid = self.game_map.power_id(str(text))
            except Exception as exc:
                raise PositionError(f"unknown power {text!r}: {exc}") from None
            self.powers[text] = pid
        return pid


_CONTEXTS: dict[str, _MapContext] = {}


def _context(name: str) -> _MapContext:
    ctx = _CONTEXTS.get(name)
    if ctx is None:
        ctx = _CONTEXTS[name] = _MapContext(name)
    return ctx


def empty_output(case_id: Any, phase: Any, errors: list[str]) -> dict[str, Any]:
    """The output line for an input line that could not be adjudicated."""
    return {
        "id": case_id,
        "phase": phase,
        "next_phase": None,
        "orders": [],
        "units": {},
        "dislodged": {},
        "centers": {},
        "errors": errors,
    }


def run_case(case: Any) -> dict[str, Any]:
    """Adjudicate one input object; errors are reported in the output, never raised."""
    if not isinstance(case, Mapping):
        return empty_output(None, None, ["each line must be a JSON object"])
    case_id = case.get("id")
    phase_text = case.get("phase")
    try:
        return _run(case)
    except (PositionError, UnknownVariantError, FileNotFoundError) as exc:
        return empty_output(case_id, phase_text, [str(exc)])
    except Exception as exc:  # a bad line must never stop the batch
        return empty_output(case_id, phase_text, [f"internal error: {type(exc).__name__}: {exc}"])


def _run(case: Mapping[str, Any]) -> dict[str, Any]:
    map_name = str(case.get("map") or "standard").lower()
    ctx = _context(map_name)
    if ctx.rules.batch_keys:  # a variant that keeps more than the standard position
        from mobadj.batch_variant import run_line

        return run_line(case, ctx.game_map, ctx.rules)
    game_map = ctx.game_map
    spelling: dict[str, str] = {}
    for key in ("units", "centers", "dislodged", "orders"):
        block = case.get(key) or {}
        if not isinstance(block, Mapping):
            raise PositionError(f"{key!r} must map each power to a list")
        for name in block:
            spelling.setdefault(ctx.power(name), str(name))
    position = position_from_data(case, game_map)
    errors: list[str] = []
    pairs: list[tuple[str, Any]] = []
    texts: list[tuple[str, str]] = []  # (power as spelt, order text as given)
    bad: dict[int, str] = {}
    cache = ctx.cache
    orders = case.get("orders") or {}
    for name, items in orders.items():
        pid = ctx.power(name)
        shown = spelling[pid]
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise PositionError(f"orders of {name!r} must be a list of strings")
        for text in items:
            if type(text) is not str:
                text = str(text)
            got = cache.get(text)
            if got is None:
                got = ctx.parse(text)
            if isinstance(got, Exception):
                bad[len(texts)] = str(got)
                errors.append(f"{shown}: {text!r}: {got}")
            else:
                pairs.append((pid, got))
            texts.append((shown, text))
    result = adjudicate(position, pairs, game_map, ctx.rules_with(case.get("options")))
    # Outcome and Reason are str enums: JSON writes their values
    if not bad:
        out_orders = [
            {"power": shown, "order": text, "result": r.outcome, "reason": r.reason}
            for (shown, text), r in zip(texts, result.results, strict=True)
        ]
    else:
        out_orders = []
        it = iter(result.results)
        for i, (shown, text) in enumerate(texts):
            if i in bad:
                out_orders.append(
                    {"power": shown, "order": text, "result": "invalid", "reason": bad[i]}
                )
                continue
            r = next(it)
            out_orders.append(
                {"power": shown, "order": text, "result": r.outcome, "reason": r.reason}
            )
    after = result.position
    units: dict[str, list[str]] = {name: [] for name in spelling.values()}
    for u in after.units.values():
        name = spelling.get(u.power) or spelling.setdefault(u.power, u.power)
        lst = units.get(name)
        if lst is None:
            lst = units[name] = []
        lst.append(f"{u.kind} {u.location}")
    for lst in units.values():
        lst.sort()
    centers: dict[str, list[str]] = {name: [] for name in spelling.values()}
    for prov, owner in after.centers.items():
        name = spelling.get(owner) or spelling.setdefault(owner, owner)
        lst = centers.get(name)
        if lst is None:
            lst = centers[name] = []
        lst.append(prov)
    for lst in centers.values():
        lst.sort()
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(after.dislodged.values(), key=lambda d: str(d.unit)):
        dislodged.setdefault(spelling.get(d.unit.power, d.unit.power), []).append(
            {"unit": str(d.unit), "from": d.attacker_from, "retreats": list(d.retreats)}
        )
    return {
        "id": case.get("id"),
        "phase": str(result.phase),
        "next_phase": str(result.next_phase),
        "orders": out_orders,
        "units": units,
        "dislodged": dislodged,
        "centers": centers,
        "errors": errors,
    }


def run_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One output object per input line (blank lines included, as errors)."""
    for number, line in enumerate(lines, 1):
        try:
            case = json.loads(line)
        except ValueError as exc:
            yield empty_output(None, None, [f"line {number}: not JSON: {exc}"])
            continue
        yield run_case(case)


def run_batch(source: IO[str], sink: IO[str] = sys.stdout) -> int:
    """Read JSON lines from ``source``, write results to ``sink``; returns the line count."""
    n = 0
    write = sink.write
    dumps = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
    for out in run_lines(source):
        write(dumps(out))
        write("\n")
        n += 1
    return n


def main(argv: list[str] | None = None) -> None:
    """``python -m mobadj.batch CASES.jsonl`` (the CLI command calls :func:`run_batch`)."""
    args = sys.argv[1:] if argv is None else argv
    with open(args[0], encoding="utf-8") if args and args[0] != "-" else sys.stdin as src:
        run_batch(src)


__all__ = ["KEYS", "Outcome", "run_batch", "run_case", "run_lines"]

if __name__ == "__main__":
    main()
