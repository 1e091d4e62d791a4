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
     "destroyed"?: {power: ["A MUN"]}, "centers", "errors"}

``destroyed`` (only when there are some) lists the dislodged units that had no retreat and
were disbanded at once; ``next_phase`` then skips a retreat phase left with nothing to decide.

Power names match case-insensitively; the output spells each power as the input first did.
Order strings are echoed exactly as given.  Parsed orders are cached by text, because the
same strings recur across phases.  Two orders for one unit: the last one counts (the earlier
is ``invalid``, replaced), unless the line's options say ``"duplicate_orders": "first"``.

A batch cannot die: input is read as bytes and each line decoded on its own, so a line that
is not UTF-8, not JSON, nested too deeply or too long, or that fails in any way inside
adjudication, is answered by its own output line with ``errors`` and the next line runs.
Output is always strict UTF-8 JSON: no ``NaN``, no lone surrogates (they become U+FFFD).
"""

from __future__ import annotations

import dataclasses
import gc
import io
import json
import math
import os
import select
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from json.scanner import make_scanner
from typing import IO, Any, Final, NamedTuple, cast

from orjson import OPT_APPEND_NEWLINE
from orjson import dumps as _orjson_dumps
from orjson import loads as _orjson_loads

from mobadj.board.model import UnknownNameError
from mobadj.engine.hooks import standard
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import PositionError
from mobadj.engine.reading import position_with_retreats
from mobadj.engine.report import destroyed_data
from mobadj.engine.results import Outcome
from mobadj.engine.rules import coerce_options
from mobadj.engine.variants import UnknownVariantError, load_variant
from mobadj.orders.fastpath import fast_path_for
from mobadj.orders.model import Build, Unit

KEYS: Final = ("id", "phase", "next_phase", "orders", "units", "dislodged", "centers", "errors")
CACHE_SIZE: Final = 100_000
"""Order texts remembered per map (the cache starts afresh when full: memory stays bounded
however long the batch)."""
BLOCKS: Final = ("units", "centers", "dislodged", "orders")
"""The blocks of an input line that map each power to a list."""
MAX_LINE_BYTES: Final = 1_000_000
"""The longest input line read (a full 34-unit phase is about 3 KB); longer ones are
answered with an error and skipped without being held in memory."""


class _MapContext:
    """Per-map state kept for the whole batch: the map, its rules and a parse cache."""

    def __init__(self, name: str) -> None:
        self.game_map, self.rules = load_variant(name)
        self.fast = fast_path_for(self.game_map)
        self.cache: dict[str, Any] = {}
        self.powers: dict[str, str] = {}
        self.variants: dict[tuple[tuple[str, str], ...], Any] = {}

    @property
    def parser(self) -> Any:
        """The map's order parser, for the texts the fast path declines: most batches never
        need it (nor the time to load it)."""
        from mobadj.orders.parser import parser_for

        return parser_for(self.game_map)

    def parse(self, text: str) -> Any:
        """``(order, unit key)`` for ``text``, or the OrderError describing why it is no
        order.  The unit key is the province of the unit the order commands when a later
        order could replace it (mobadj.orders.duplicates), else None."""
        got = self.cache.get(text)
        if got is None:
            try:
                order = self.fast.parse_written(text) if self.fast is not None else None
                if order is None:
                    order = self.parser.parse_order(text, remember=False)
            except ValueError as exc:  # OrderError and friends are ValueErrors
                # cached: must not keep the parser's frames alive (nor those of the error
                # it was raised from)
                exc.__traceback__ = exc.__context__ = exc.__cause__ = None
                got = exc
            else:
                unit = getattr(order, "unit", None)
                key = unit.province if isinstance(unit, Unit) and type(order) is not Build \
                    else None
                got = (order, key)
            if len(self.cache) >= CACHE_SIZE:  # a long batch of ever new texts
                self.cache.clear()
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

    def spelling(self, case: dict[str, Any]) -> dict[str, str]:
        """Power id -> the power as ``case`` first spells it, in the power names of its
        blocks (units, centers, dislodged, orders), each checked to be a mapping first."""
        blocks: list[dict[Any, Any]] = []
        for key in BLOCKS:
            block = case.get(key)
            if not block:  # absent or empty
                continue
            if type(block) is not dict:
                if not isinstance(block, Mapping):
                    raise PositionError(f"{key!r} must map each power to a list")
                block = dict(block)
            blocks.append(block)
        powers = self.powers
        known: dict[str, str] = {}
        for names in blocks:
            for name in names:
                pid = powers.get(name) or self.power(name)
                if pid not in known:
                    known[pid] = str(name)
        return known

    def power(self, text: str) -> str:
        pid = self.powers.get(text)
        if pid is None:
            try:
                pid = self.game_map.power_id(str(text))
            except UnknownNameError as exc:  # "unknown power 'Frnace'; did you mean FRANCE?"
                raise PositionError(str(exc)) from None
            except LookupError as exc:
                raise PositionError(f"unknown power {text!r}: {exc}") from None
            self.powers[text] = pid
        return pid


_CONTEXTS: Final[dict[str, _MapContext]] = {}

def map_context(name: str) -> _MapContext:
    """The batch's state for the map called ``name`` (lower case), made on first use."""
    ctx = _CONTEXTS.get(name)
    if ctx is None:
        ctx = _CONTEXTS[name] = _MapContext(name)
    return ctx


def forget_orders() -> None:
    """Empty every map's cache of order texts, so that the next lines are read afresh (a
    benchmark measures reading, not remembering)."""
    for ctx in _CONTEXTS.values():
        ctx.cache.clear()


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
    if type(case) is not dict and not isinstance(case, Mapping):  # (dict: no ABC check)
        return empty_output(None, None, ["each line must be a JSON object"])
    case_id = case.get("id")
    phase_text = case.get("phase")
    try:
        return _run(case if type(case) is dict else dict(case))
    except (PositionError, UnknownVariantError, FileNotFoundError) as exc:
        return empty_output(case_id, phase_text, [str(exc)])
    except Exception as exc:  # a bug must never stop the batch: the line says so, the log has it
        import logging  # only now: a batch starts without it

        logging.getLogger("mobadj.batch").exception("internal error on the line with id %r",
                                                    case_id)
        return empty_output(case_id, phase_text, [f"internal error: {type(exc).__name__}: {exc}"])


def short_json(value: Any) -> str:
    """``value`` as JSON, shortened for a message (a value of the input that is no text)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON, or nested about as deep as
        text = f"a {type(value).__name__}"  # the reader allows
    return text if len(text) <= 60 else text[:57] + "..."


def _run(case: dict[str, Any]) -> dict[str, Any]:
    name = case.get("map") or "standard"
    if type(name) is not str:
        raise PositionError(f"'map' must be a map's name (a text), not {short_json(name)}")
    map_name = name.lower()
    ctx = map_context(map_name)
    if ctx.rules.batch_keys:  # a variant that keeps more than the standard position
        from mobadj.batch_variant import run_line

        return run_line(case, ctx.game_map, ctx.rules)
    game_map = ctx.game_map
    powers = ctx.powers  # power as written -> power id (ctx.power fills it)
    spelling = ctx.spelling(case)
    options = case.get("options")
    duplicates = "last"
    if options:  # no options: nothing to split
        options, duplicates = _duplicates_rule(options)
    rules = ctx.rules  # a variant's own reading is asked; the standard one is done here
    if standard(rules, "position_from_data"):
        position = position_with_retreats(case, game_map, rules)
    else:
        position = rules.position_from_data(case, game_map)
    errors: list[str] = []
    pairs: list[tuple[str, Any]] = []
    texts: list[tuple[str, str]] = []  # (power as spelt, order text as given)
    bad: dict[int, str] = {}
    cache = ctx.cache
    ordered: set[str] = set()  # the provinces of the units ordered so far
    twice = False  # some unit has two orders
    orders = case.get("orders") or {}  # a mapping (ctx.spelling has checked)
    by_power: dict[Any, Any] = orders if type(orders) is dict else dict(orders)
    for name, items in by_power.items():
        pid = powers.get(name) or ctx.power(name)
        shown = spelling[pid]
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise PositionError(f"orders of {name!r} must be a list of strings")
        given: list[Any] = items  # typed: the compiled build walks the list directly
        for text in given:
            if type(text) is not str:  # null, a number, a list: echoed as JSON, not read
                text = short_json(text)
                why = f"an order must be a text (a JSON string), not {text}"
                bad[len(texts)] = why
                errors.append(f"{shown}: {why}")
                texts.append((shown, text))
                continue
            got = cache.get(text)
            if got is None:
                got = ctx.parse(text)
            if type(got) is tuple:
                pairs.append((pid, got[0]))
                where = got[1]  # the province of the ordered unit
                if where is not None:
                    if where in ordered:
                        twice = True
                    else:
                        ordered.add(where)
            else:
                bad[len(texts)] = str(got)
                errors.append(f"{shown}: {text!r}: {got}")
            texts.append((shown, text))
    if twice and duplicates == "last":
        pairs = _last_order_wins(pairs, texts, bad)
    result = adjudicate(position, pairs, game_map, ctx.rules_with(options))
    # results and reasons are str enums: JSON writes their values
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
    # each power's list, by power id (a power the line never named is spelt as its id)
    units: dict[str, list[str]] = {name: [] for name in spelling.values()}
    units_of = {pid: units[name] for pid, name in spelling.items()}
    for u in after.units.values():
        lst = units_of.get(u.power)
        if lst is None:
            name = spelling.setdefault(u.power, u.power)
            lst = units_of[u.power] = units.setdefault(name, [])
        lst.append(f"{u.kind} {u.location}")
    for lst in units.values():
        lst.sort()
    centers: dict[str, list[str]] = {name: [] for name in spelling.values()}
    centers_of = {pid: centers[name] for pid, name in spelling.items()}
    for prov, owner in after.centers.items():
        lst = centers_of.get(owner)
        if lst is None:
            name = spelling.setdefault(owner, owner)
            lst = centers_of[owner] = centers.setdefault(name, [])
        lst.append(prov)
    for lst in centers.values():
        lst.sort()
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(after.dislodged.values(), key=lambda d: str(d.unit)):
        dislodged.setdefault(spelling.get(d.unit.power, d.unit.power), []).append(
            {"unit": str(d.unit), "from": d.attacker_from, "retreats": list(d.retreats)}
        )
    line = {
        "id": case.get("id"),
        "phase": str(result.phase),
        "next_phase": str(result.next_phase),
        "orders": out_orders,
        "units": units,
        "dislodged": dislodged,
        "centers": centers,
        "errors": errors,
    }
    if result.settled:  # dislodged units with no retreat, disbanded at once
        return with_destroyed(line, result, spelling)
    return line


def with_destroyed(line: dict[str, Any], result: Any, spelling: dict[str, str]
                   ) -> dict[str, Any]:
    """``line`` with ``destroyed`` (power -> units disbanded at once) after ``dislodged``;
    the key is left out when no unit was (docs/adjudication.md)."""
    gone = destroyed_data(result, lambda p: spelling.get(p) or spelling.setdefault(p, p))
    if not gone:
        return line
    out: dict[str, Any] = {}
    for key, value in line.items():
        out[key] = value
        if key == "dislodged":
            out["destroyed"] = gone
    return out


def _duplicates_rule(options: Any) -> tuple[Any, str]:
    """The line's options without ``duplicate_orders``, and its value (default ``last``)."""
    from mobadj.orders.duplicates import split_rule

    try:
        return split_rule(options)
    except ValueError as exc:
        raise PositionError(str(exc)) from None


def _last_order_wins(pairs: list[tuple[str, Any]], texts: list[tuple[str, str]],
                     bad: dict[int, str]) -> list[tuple[str, Any]]:
    """``pairs`` without the orders a later order for the same unit replaces; each of those
    is marked in ``bad`` (by its index in ``texts``) as replaced."""
    from mobadj.orders.duplicates import replaced_orders

    indices = [i for i in range(len(texts)) if i not in bad]
    dropped = replaced_orders(pairs, [texts[i][1] for i in indices])
    if not dropped:
        return pairs
    for j, why in dropped.items():
        bad[indices[j]] = why
    return [pair for j, pair in enumerate(pairs) if j not in dropped]


class Unreadable(NamedTuple):
    """An input line that is not read (too long); ``why`` says so.  (A named tuple: it is
    sent to the worker processes of ``--jobs N``, and it pickles in the compiled build too.)"""

    why: str


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant)
_DECODE: Final = _DECODER.decode
"""json.loads with these hooks would make a decoder for every line."""
_SCAN: Final = make_scanner(cast(Any, _DECODER))
"""The decoder's scanner (C, with the decoder's hooks): a line that is one JSON value from its
first character is read by it alone, without the decoder's whitespace searches around it."""


_DIGITS: Final = bytes.maketrans(b"123456789{", b"000000000[")
"""Every digit made 0 and every brace a bracket: one copy of a line shows both a long
number and how many brackets open."""
_LONG_NUMBER: Final = b"0" * 19
_DEEP: Final = 500
"""orjson reads a line of bytes the json module reads to the same value, but for integers
beyond 64 bits (it makes them floats: a line with 19 digits in a row goes to the json
module) and nesting deeper than the json module allows (about 1,000 levels, less the calls
under way: a line with ``_DEEP`` brackets goes there too; one shorter than twice that
cannot nest so deep, and its brackets are not counted).  Everything orjson refuses (a
byte-order mark, NaN, a lone surrogate, ...) goes there as well;
tests/batch/test_batch_robust.py holds both readers to the same values."""


def read_case(line: str | bytes | Unreadable) -> Any:
    """The JSON value of one input line; raises ValueError saying why there is none."""
    if isinstance(line, Unreadable):
        raise ValueError(line.why)
    if type(line) is bytes:
        plain = line.translate(_DIGITS)
        if _LONG_NUMBER not in plain and (len(line) < 2 * _DEEP or plain.count(b"[") < _DEEP):
            try:
                return _orjson_loads(line)  # twice as fast as the json module
            except ValueError:
                pass  # the json module reads it, or says why not
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 (byte {exc.start + 1} of the line)") from None
    if line.startswith("\ufeff"):
        line = line[1:]
    try:
        value, end = _SCAN(line, 0)
    except (StopIteration, ValueError, RecursionError):
        pass  # the decoder below says why
    else:
        if end == len(line) or not line[end:].strip(" \t\n\r"):  # JSON's whitespace
            return value
    try:
        return _DECODE(line)
    except RecursionError:
        raise ValueError("not JSON: nested too deeply") from None
    except ValueError as exc:
        raise ValueError(f"not JSON: {exc}") from None


def run_lines(lines: Iterable[str | bytes | Unreadable], start: int = 1
              ) -> Iterator[dict[str, Any]]:
    """One output object per input line (blank lines included, as errors); ``lines`` may be
    text or bytes (each bytes line is decoded on its own); the first is line ``start`` of
    the input (error messages name lines)."""
    for number, line in enumerate(lines, start):
        yield _answer(line, number)


def answer_line(line: str | bytes | Unreadable, number: int = 1) -> bytes:
    """What ``mobadj batch`` writes for one input line, line ``number`` of its input: the
    output line, UTF-8 encoded, with its line break.  Every line of a batch goes through
    here, however it runs: one process, ``--jobs N``, or a distributed engine mapping it
    over the lines of JSONL files (docs/performance.md)."""
    if not isinstance(line, Unreadable) and len(line) > MAX_LINE_BYTES:
        line = _too_long(line)
    return json_line(_answer(line, number))


def _too_long(line: str | bytes) -> str | bytes | Unreadable:
    """``line``, or the Unreadable that read_lines makes of it when it is too long."""
    data = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    size = len(data) - data.endswith(b"\n")
    if size <= MAX_LINE_BYTES:
        return line
    return Unreadable(f"too long: {size:,} bytes (at most {MAX_LINE_BYTES:,}); not read")


def _answer(line: str | bytes | Unreadable, number: int) -> dict[str, Any]:
    try:
        case = read_case(line)
    except ValueError as exc:
        return empty_output(None, None, [f"line {number}: {exc}{_cr_inside(line)}"])
    except Exception as exc:  # e.g. MemoryError: this line's answer, not the batch's end
        return empty_output(None, None, [f"line {number}: internal error: "
                                         f"{type(exc).__name__}: {exc}"])
    return run_case(case)


def _cr_inside(line: str | bytes | Unreadable) -> str:
    """A note for a line that is no JSON and holds a carriage return before its end (a file
    whose lines end with CR alone is read as one line), else ""."""
    if isinstance(line, Unreadable):
        return ""
    text = line.decode("latin-1") if isinstance(line, bytes) else line
    if "\r" not in text.rstrip("\r\n"):
        return ""
    return (" (the line holds a carriage return (CR) before its end: lines end with a line "
            "feed (LF); a file whose lines end with CR alone is one line)")


def read_lines(source: IO[Any]) -> Iterator[bytes | str | Unreadable]:
    """The lines of ``source`` as bytes when it has them (a binary file, or the buffer under
    a text file), so nothing is decoded ahead of its line; a line longer than
    :data:`MAX_LINE_BYTES` is skipped and given as :class:`Unreadable`."""
    stream = source
    if isinstance(source, io.TextIOBase) and hasattr(source, "buffer"):
        stream = source.buffer
    readline = stream.readline
    while True:
        line = readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) <= MAX_LINE_BYTES or line[-1:] in (b"\n", "\n"):
            yield line
            continue
        size = len(line)
        while line and line[-1:] not in (b"\n", "\n"):
            line = readline(1 << 16)
            size += len(line)
        size -= line[-1:] in (b"\n", "\n")  # the line break is not the line's
        yield Unreadable(f"too long: {size:,} bytes (at most {MAX_LINE_BYTES:,}); not read")


_DUMPS: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False, allow_nan=False,
                          separators=(",", ":")).encode


_RAW_BREAKS = (("\x85", "\\u0085"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))
"""Characters some line readers take for a line break, and how output lines write them."""
_RAW_BREAK_BYTES: Final = tuple((raw.encode("utf-8"), escaped.encode("ascii"))
                         for raw, escaped in _RAW_BREAKS)
_LINE_BREAKS: Final = str.maketrans(dict(_RAW_BREAKS))


def _escape_breaks(text: str) -> str:
    if text.isascii():
        return text
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        return text.translate(_LINE_BREAKS)
    return text


def to_json(out: dict[str, Any]) -> str:
    """One output line: strict JSON that encodes as UTF-8 and holds no character that a
    line reader could take for a line break (never raises)."""
    return json_line(out)[:-1].decode("utf-8")


_AS_JSON_WRITES: Final = (str, int, bool, type(None))
"""Types orjson writes exactly as the json module does (it writes some floats otherwise:
``1e-7`` for ``1e-07``).  An output line echoes two values of its input, the id and, for a
line that could not be adjudicated, the phase; all else in it is made here: texts, integers,
lists and dicts."""


def json_line(out: dict[str, Any]) -> bytes:
    """One output line as :func:`to_json` writes it, UTF-8 encoded, with its line break.

    orjson writes it (three times faster than the json module, the same bytes); what it
    declines (a lone surrogate, an integer beyond 64 bits, an echoed value it would write
    otherwise)
    goes to the json module and the careful writer behind it."""
    if type(out.get("id")) in _AS_JSON_WRITES and type(out.get("phase")) in _AS_JSON_WRITES:
        try:
            data = _orjson_dumps(out, option=OPT_APPEND_NEWLINE)
        except TypeError:
            pass
        else:
            if not data.isascii():  # most lines are: no search needed
                for raw, escaped in _RAW_BREAK_BYTES:
                    if raw in data:
                        data = data.replace(raw, escaped)
            return data
    try:
        return _escape_breaks(_DUMPS(out)).encode("utf-8") + b"\n"
    except (ValueError, UnicodeEncodeError, RecursionError):
        pass
    try:
        return _escape_breaks(_DUMPS(_clean(out))).encode("utf-8") + b"\n"
    except (ValueError, UnicodeEncodeError, RecursionError, TypeError) as exc:
        return _DUMPS(empty_output(None, None, [
            "internal error: the result could not be written as JSON: "
            f"{type(exc).__name__}"])).encode("utf-8") + b"\n"


def _clean(value: Any) -> Any:
    """``value`` with lone surrogates replaced by U+FFFD and non-finite numbers by null."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {_clean(str(k)): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _writer(sink: IO[Any]) -> tuple[Callable[[bytes], Any], Callable[[], Any]]:
    """(write UTF-8 bytes to ``sink`` whatever its own encoding, flush it)."""
    if isinstance(sink, io.TextIOBase):
        buffer = getattr(sink, "buffer", None)
        if buffer is None:
            def write_text(data: bytes) -> Any:
                return sink.write(data.decode("utf-8"))

            return write_text, sink.flush
        sink.flush()
        return buffer.write, buffer.flush
    return sink.write, getattr(sink, "flush", _no_flush)


def _no_flush() -> None:
    """The flush of a sink that has none."""


def cores() -> int:
    """The cores this process may run on (``mobadj batch``'s default number of jobs)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_batch(source: IO[Any], sink: IO[Any] = sys.stdout, jobs: int = 1,
              own_process: bool = False) -> int:
    """Read JSON lines from ``source``, write results to ``sink``; returns the line count.
    Either may be a text or a binary file.  ``jobs`` > 1 adjudicates in that many worker
    processes (mobadj.batch_jobs), with the same output.  The first result is flushed at
    once (a reader sees it while the rest runs).

    ``own_process``: the batch is all this process does (``mobadj batch``), so what it holds
    once the map is loaded (code, map, parser) is frozen out of garbage collection, and
    collections are rare (:func:`quiet_collector`)."""
    write, flush = _writer(sink)
    lines = read_lines(source)
    if jobs > 1:
        from mobadj.batch_jobs import run_parallel

        n = run_parallel(lines, write, flush, jobs, own_process)
    else:
        n = _run_here(lines, write, flush, _input_waits(source), own_process)
    flush()
    return n


OUTPUT_CHUNK: Final = 1 << 18
"""Bytes of answers one job holds back and then writes at once: a reader at the other end
of a pipe is woken a few times per megabyte instead of at every 8 KB."""


def _run_here(lines: Iterable[str | bytes | Unreadable], write: Callable[[bytes], Any],
              flush: Callable[[], Any], waits: Callable[[], bool], own_process: bool) -> int:
    """``--jobs 1``: answer each line in this process.  The first answer is written at once;
    the next ones by :data:`OUTPUT_CHUNK`, and whenever reading on would wait for input
    (``waits``), so that a program feeding lines one at a time through a pipe reads each
    answer before it sends the next line."""
    n = 0
    held: list[bytes] = []
    size = 0
    try:
        for n, line in enumerate(lines, 1):
            answer = answer_line(line, n)
            if n == 1:
                write(answer)
                flush()
                if own_process:
                    quiet_collector()
                continue
            held.append(answer)
            size += len(answer)
            if size >= OUTPUT_CHUNK or waits():
                write(b"".join(held))
                held.clear()
                size = 0
                flush()
    finally:  # the answers made are written, even when reading the input fails
        if held:
            write(b"".join(held))
    return n


COLLECT_EVERY: Final = 100_000
"""Objects made (and not yet freed) between two collections of a batch's own process: its
lines make no reference cycles (movement orders drop their links once read), so the usual
700 runs a collection that finds nothing about every ten lines; a collection still runs now
and then, which keeps any cyclic garbage bounded."""


def quiet_collector() -> None:
    """For a process that is only a batch: what it holds now (code, maps, parsers) is frozen
    out of garbage collection (``gc.freeze``), and collections run every
    :data:`COLLECT_EVERY` objects."""
    gc.freeze()
    gc.set_threshold(COLLECT_EVERY, *gc.get_threshold()[1:])


def _input_waits(source: IO[Any]) -> Callable[[], bool]:
    """A test whether reading ``source`` on would now wait: a pipe or a terminal with no
    bytes ready.  A file never waits, nor does a stream without a file descriptor."""
    try:
        fd = source.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return _never
    if regular:
        return _never

    def waits() -> bool:
        try:
            ready, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError):  # no select on this descriptor: take it as waiting
            return True
        return not ready

    return waits


def _never() -> bool:
    """The input never waits."""
    return False


def main(argv: list[str] | None = None) -> None:
    """``python -m mobadj.batch CASES.jsonl`` (the CLI command calls :func:`run_batch`)."""
    args = sys.argv[1:] if argv is None else argv
    with open(args[0], "rb") if args and args[0] != "-" else sys.stdin.buffer as src:
        run_batch(src)


__all__ = ["KEYS", "Outcome", "answer_line", "cores", "json_line", "read_case", "run_batch",
           "run_case", "run_lines"]

if __name__ == "__main__":
    main()
