"""One batch line in, its output object out: the one runner for every map and variant.

What a map does its own way comes from its rules (mobadj.engine.rules): how a position is
read (``position_from_data``; the standard reading is done here, compiled), how orders are
written (``split_power`` and the map's parser, with ``&`` groups: Mobtown II; the standard
notation is read by the fast path for everyday orders), what a power is called
(``power_noun``) and the keys a line carries beyond the standard ones (``batch_keys``).

Work that does not depend on the line is done once per map and remembered: each order text
is read once (:class:`Reading`), each power's name looked up once, each set of rule options
made once, each order entry's head (power and order text, as JSON) and what the engine is
given for it made once per power and text (:class:`Entry`).  A line's results go straight
into its output entries.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final, final

from mobadj.batch.serialize import (
    batch_board,
    destroyed_json,
    echo_json,
    empty_output,
    entry_head,
    invalid_tail,
    json_line,
    result_tails,
    standoffs_json,
    text_json,
    value_json,
    winner_json,
)
from mobadj.board import MapFileError
from mobadj.board.model import UnknownNameError
from mobadj.engine.hooks import standard, untyped
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import PositionError, unknown_keys
from mobadj.engine.reading import position_with_retreats
from mobadj.engine.rules import Rules, with_options
from mobadj.engine.variants import UnknownVariantError, VariantError, load_variant
from mobadj.orders.fastpath import fast_path_for
from mobadj.orders.model import Build, Unit

__all__ = ["BLOCKS", "CACHE_SIZE", "KEYS", "Entry", "MapContext", "Reading", "answer_case",
           "forget_orders", "map_context", "run_case", "short_json"]

KEYS: Final = ("id", "phase", "next_phase", "orders", "units", "dislodged", "centers", "errors")
"""The keys of every output line, in order (a line with units disbanded at once has
``destroyed`` after ``dislodged``; a variant adds its ``batch_keys``; a line with a key no
input line has, ``warnings`` before ``errors``)."""
CACHE_SIZE: Final = 100_000
"""Order texts remembered per map (the cache starts afresh when full: memory stays bounded
however long the batch)."""
BLOCKS: Final = ("units", "centers", "dislodged", "orders")
"""The blocks of an input line that map each power to a list."""
READ_BACK: Final = (*KEYS, "destroyed", "standoffs", "winner", "warnings")
"""The keys of an output line, taken without a word in an input line (a line's output reads
back as the next line's input) but never suggested for a misspelt key."""


@functools.lru_cache(maxsize=64)
def _map_of_power(name: str, tried: str) -> str:
    """For a power ``name`` the map ``tried`` does not know: the hint naming another map
    whose power it is (``capone``, a mob of Mobtown II, on a line without ``"map"``), else
    "".  (Looked for once per name and map in a batch.)"""
    from mobadj.board import load_map
    from mobadj.engine.variants import known_maps

    for other in known_maps():
        if other == tried:
            continue
        try:
            load_map(other).power_id(name)
        except (LookupError, MapFileError, OSError, ValueError):
            continue
        return f" (a power of the {other} map: give \"map\": \"{other}\")"
    return ""


@final
class Reading:
    """What one order text reads as on a map, remembered for every line that gives it.

    ``json`` is the text as a JSON string (an output line echoes it); ``order`` the order
    (the first of an ``&`` group); ``key`` the province of the unit it commands when a later
    order could replace it (mobadj.orders.duplicates), else None; ``group`` the orders of an
    ``&`` group of several units, else None; ``error`` why the text is no order (then order
    and key are None); ``prefix`` the power the text names at its start (a map whose orders
    may begin with their power's name), else None.  (Slots: a batch keeps one per distinct
    text, and a line reads each of its orders' from memory.)"""

    __slots__ = ("error", "group", "json", "key", "order", "prefix")

    def __init__(self, text: str, order: Any, key: str | None, error: str | None = None,
                 group: list[Any] | None = None, prefix: str | None = None) -> None:
        #: the text as a JSON string
        self.json = text_json(text)
        self.order = order
        self.key = key
        self.error = error
        self.group = group
        self.prefix = prefix


@final
class Entry:
    """An order text as a power of a line gives it, remembered for every line that gives it
    again: ``lead`` the start of its output entry (``},{"power":...,"order":...``, with the
    end of the entry before it), ``pair`` what the engine is given (power id, order), ``key``
    as :attr:`Reading.key`.  Made only for a text that reads as one order of any power."""

    __slots__ = ("key", "lead", "pair")

    def __init__(self, lead: bytes, pair: tuple[str, Any], key: str | None) -> None:
        self.lead = lead
        self.pair = pair
        self.key = key


def _unit_key(order: Any) -> str | None:
    """The province of the unit ``order`` commands, when a later order for that unit would
    replace it (mobadj.orders.duplicates: builds and waives are never replaced), or the
    ``piece`` it names instead (Mobtown's Don placement: one per mob, wherever he goes)."""
    unit = getattr(order, "unit", None)
    if not isinstance(unit, Unit) or type(order) is Build:
        return None
    piece = getattr(order, "piece", None)
    return piece if type(piece) is str else unit.province


class MapContext:
    """Per-map state kept for the whole batch: the map and its rules, the order texts and
    power names read so far, the rules made for each set of options."""

    def __init__(self, name: str) -> None:
        self.game_map, self.rules = load_variant(name)
        rules = self.rules
        self.fast = None if self._notation() else fast_path_for(self.game_map)
        self.noun: str = rules.power_noun
        self.keys: tuple[str, ...] = tuple(rules.batch_keys)
        #: the keys an input line has: a misspelt one is named with the one it resembles
        self.known: tuple[str, ...] = tuple(dict.fromkeys(
            ("id", "map", *rules.position_keys, "orders", "options")))
        #: every key an input line may carry without a warning
        self.accepted: frozenset[str] = frozenset((*self.known, *READ_BACK, *self.keys))
        self.cache: dict[str, Reading] = {}
        #: the texts of ``cache`` that read as one order of any power: most of them
        self.plain: dict[str, Reading] = {}
        self.powers: dict[str, str] = {}
        self.variants: dict[tuple[tuple[str, str], ...], tuple[Rules, str]] = {}
        #: the spelling of each power in a line, by the names of the line's blocks
        self.spellings: dict[tuple[tuple[Any, ...], ...], dict[str, str]] = {}
        #: power as a line spells it -> order text -> its entry (the texts of ``plain``)
        self.entries: dict[str, dict[str, Entry]] = {}
        self.entry_count = 0

    @property
    def parser(self) -> Any:
        """The map's order parser, for the texts the fast path declines: most batches of
        the standard notation never need it (nor the time to load it)."""
        return self.rules.order_parser(self.game_map)

    def read(self, text: str) -> Reading:
        """What ``text`` reads as (remembered)."""
        got = self.cache.get(text)
        if got is None:
            got = self._read(text)
            if len(self.cache) >= CACHE_SIZE:  # a long batch of ever new texts
                self.cache.clear()
                self.plain.clear()
            self.cache[text] = got
            if got.error is None and got.group is None and got.prefix is None:
                self.plain[text] = got
        return got

    def entry(self, shown: str, pid: str, text: str, reading: Reading) -> Entry:
        """The entry of ``text`` (one order of any power: ``reading``) given by the power
        ``pid``, spelt ``shown`` (remembered)."""
        got = Entry(entry_head(shown) + reading.json, (pid, reading.order), reading.key)
        if self.entry_count >= CACHE_SIZE:  # a long batch of ever new texts
            self.entries.clear()
            self.entry_count = 0
        mine = self.entries.get(shown)
        if mine is None:
            mine = self.entries[shown] = {}
        mine[text] = got
        self.entry_count += 1
        return got

    def _notation(self) -> bool:
        """Do the rules read orders their own way (a power's name before an order, ``&``
        groups), not as the standard notation?"""
        return type(self.rules).split_power is not Rules.split_power

    def _read(self, text: str) -> Reading:
        prefix: str | None = None
        try:
            if not self._notation():
                order = self.fast.parse_written(text) if self.fast is not None else None
                if order is None:
                    order = self.parser.parse_order(text, remember=False)
                return Reading(text, order, _unit_key(order))
            split = untyped(self.rules).split_power(text, self.game_map)  # "Lepke G(Cit)-U-Mic"
            prefix, rest = split[0], str(split[1])  # (a tuple or a list, on both builds)
            group = self.parser.parse_group(rest)
        except ValueError as exc:  # OrderError and friends are ValueErrors
            return Reading(text, None, None, self._explained(exc, text), prefix=prefix)
        if len(group) == 1:
            return Reading(text, group[0], _unit_key(group[0]), prefix=prefix)
        return Reading(text, group[0], None, group=group, prefix=prefix)

    def _explained(self, exc: ValueError, text: str) -> str:
        """The error of an order text as an order file's reader words it: a misspelt
        keyword named as one ("unknown word 'Biuld'; did you mean Build?"), not taken for
        the start of a province's name."""
        from mobadj.orders import OrderError, keyword_slip

        if isinstance(exc, OrderError) and exc.line == 1:
            return str(keyword_slip(exc, text, self.game_map))
        return str(exc)

    def rules_for(self, options: Any) -> tuple[Rules, str]:
        """(the map's rules with a line's DATC and variant rule ``options``
        (docs/rulings.md), how two orders for one unit are settled: ``last`` or
        ``first``), made once per distinct set of options."""
        if not options and (options is None or isinstance(options, Mapping)):
            return self.rules, "last"
        if not isinstance(options, Mapping):  # (an empty list too: no option is taken silently)
            raise PositionError("'options' must map option names to values")
        key = tuple(sorted((str(k), str(v)) for k, v in options.items()))
        got = self.variants.get(key)
        if got is None:
            from mobadj.orders.duplicates import split_rule

            try:
                rule_options, duplicates = split_rule(options)
                got = (with_options(self.rules, rule_options) if rule_options else self.rules,
                       duplicates)
            except ValueError as exc:
                raise PositionError(str(exc)) from None
            self.variants[key] = got
        return got

    def warnings(self, case: dict[str, Any]) -> list[str] | None:
        """A warning for each key of ``case`` that no input line has (it is ignored), else
        None: a misspelt ``orders`` would leave every unit holding without a word.  (A
        clean line's keys are only looked up: nothing is made for it.)"""
        if self.accepted.issuperset(case):
            return None
        return unknown_keys(case, self.known, self.accepted)

    def power(self, name: Any) -> str:
        """The id of the power (or mob) ``name``; PositionError with a did-you-mean for a
        name the map does not know."""
        pid = self.powers.get(name) if type(name) is str else None
        if pid is None:
            text = str(name)
            try:
                pid = self.game_map.power_id(text)
            except UnknownNameError as exc:  # "unknown power 'Frnace'; did you mean FRANCE?"
                raise PositionError(
                    str(exc).replace("unknown power", f"unknown {self.noun}", 1)
                    + _map_of_power(text, self.game_map.name)) from None
            except LookupError as exc:
                raise PositionError(f"unknown {self.noun} {text!r}: {exc}") from None
            if type(name) is str:
                self.powers[name] = pid
        return pid

    def spelling(self, case: dict[str, Any]) -> dict[str, str]:
        """Power id -> the power as ``case`` first spells it, in the power names of its
        blocks (units, centers, dislodged, orders), each checked to be a mapping first.
        (A copy of what the same names made before: lines of one game name their powers
        alike.)"""
        blocks: list[Any] = []
        for key in BLOCKS:
            block = case.get(key)
            if not block:  # absent or empty
                continue
            if type(block) is not dict:
                if not isinstance(block, Mapping):
                    raise PositionError(f"{key!r} must map each {self.noun} to a list")
                block = dict(block)
            blocks.append(tuple(block))
        names = tuple(blocks)
        got = self.spellings.get(names)
        if got is None:
            got = self._spelling(names)
            if len(self.spellings) >= CACHE_SIZE:
                self.spellings.clear()
            self.spellings[names] = got
        return dict(got)

    def _spelling(self, blocks: tuple[tuple[Any, ...], ...]) -> dict[str, str]:
        known: dict[str, str] = {}
        powers = self.powers
        for names in blocks:
            for name in names:
                pid = powers.get(name) if type(name) is str else None
                if pid is None:
                    pid = self.power(name)
                if pid not in known:
                    known[pid] = name if type(name) is str else str(name)
        return known


_CONTEXTS: Final[dict[str, MapContext]] = {}
_UNUSABLE: Final[dict[str, MapFileError | VariantError | UnknownVariantError]] = {}
"""Map names that cannot be used, with why: a map whose file has errors or a ``variant:``
that cannot be loaded (the file is read once per batch), or a name no map has (the search
of every map file and alias is made once per batch for each such name, not for each of the
lines, maybe a whole file of them, that repeat a typo).  Each line naming it gets the error."""
UNUSABLE_SIZE: Final = 10_000
"""Unusable names remembered (distinct unknown names are the input's: when that many have
come, the memory of them starts afresh)."""


def map_context(name: str) -> MapContext:
    """The batch's state for the map called ``name`` (lower case), made on first use;
    raises MapFileError or VariantError for a map file that cannot be used, or
    UnknownVariantError for a name no map has (remembered)."""
    ctx = _CONTEXTS.get(name)
    if ctx is None:
        failed = _UNUSABLE.get(name)
        if failed is not None:
            raise failed.with_traceback(None)  # (no traceback piling up line after line)
        try:
            ctx = _CONTEXTS[name] = MapContext(name)
        except (MapFileError, VariantError, UnknownVariantError) as exc:
            if len(_UNUSABLE) >= UNUSABLE_SIZE:
                _UNUSABLE.clear()
            _UNUSABLE[name] = exc
            raise
    return ctx


def forget_orders() -> None:
    """Empty every map's cache of order texts, so that the next lines are read afresh (a
    benchmark measures reading, not remembering)."""
    for ctx in _CONTEXTS.values():
        ctx.cache.clear()
        ctx.plain.clear()
        ctx.entries.clear()
        ctx.entry_count = 0


def run_case(case: Any) -> dict[str, Any]:
    """Adjudicate one input object: its output line as a dict (what :func:`answer_case` writes,
    read back); errors are reported in it, never raised."""
    value: dict[str, Any] = json.loads(answer_case(case))
    return value


def answer_case(case: Any) -> bytes:
    """The output line of one input object (a line's JSON value), UTF-8 encoded, with its
    line break; errors are reported in it, never raised."""
    if type(case) is not dict and not isinstance(case, Mapping):  # (dict: no ABC check)
        return json_line(empty_output(None, None, ["each line must be a JSON object"]))
    case_id = case.get("id")
    phase_text = case.get("phase")
    try:
        return _run(case if type(case) is dict else dict(case))
    except (PositionError, UnknownVariantError, VariantError, FileNotFoundError,
            MapFileError) as exc:  # the line's own input, or a map file's: no bug
        out = empty_output(case_id, phase_text, [str(exc)])
        warnings = _warnings_known(case)
        if warnings:  # (a misspelt key is often why: "phse", then "missing 'phase'")
            errors = out.pop("errors")
            out["warnings"] = warnings
            out["errors"] = errors
        return json_line(out)
    except Exception as exc:  # a bug must never stop the batch: the line says so, the log has it
        import logging  # only now: a batch starts without it

        logging.getLogger("mobadj.batch").exception("internal error on the line with id %r",
                                                    case_id)
        return json_line(empty_output(case_id, phase_text,
                                      [f"internal error: {type(exc).__name__}: {exc}"]))


def _warnings_known(case: Mapping[str, Any]) -> list[str] | None:
    """The warnings of a line that gives an error, when the map it names is in use (a line
    naming no map that can be used has no known keys to check)."""
    name = case.get("map") or "standard"
    ctx = _CONTEXTS.get(name.lower()) if type(name) is str else None
    return None if ctx is None else ctx.warnings(dict(case))


def short_json(value: Any) -> str:
    """``value`` as JSON, shortened for a message (a value of the input that is no text)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON, or nested about as deep as
        text = f"a {type(value).__name__}"  # the reader allows
    return text if len(text) <= 60 else text[:57] + "..."


def _run(case: dict[str, Any]) -> bytes:
    name = case.get("map") or "standard"
    if type(name) is not str:
        raise PositionError(f"'map' must be a map's name (a text), not {short_json(name)}")
    ctx = map_context(name.lower())
    warnings = ctx.warnings(case)
    game_map = ctx.game_map
    spelling = ctx.spelling(case)
    rules, duplicates = ctx.rules_for(case.get("options"))
    if standard(rules, "position_from_data"):  # the standard reading, compiled
        position = position_with_retreats(case, game_map, rules)
    else:
        position = rules.position_from_data(case, game_map)
    errors: list[str] = []
    # each entry of "orders" as two parts, written as they are: its lead (``},`` and the
    # power and order text) and its tail (result and reason), known once the phase is
    # adjudicated: an empty place till then
    parts: list[bytes] = []
    pairs: list[tuple[str, Any]] = []  # what the engine is given, in order
    texts: list[str] = []  # each pair's text
    keys: list[str | None] = []  # each pair's unit, when a later order could replace it
    nones = 0  # pairs whose order no later order replaces (builds, waives)
    odd: _Odd | None = None  # entries that are no order of their own (None: there are none)
    plain = ctx.plain
    powers = ctx.powers
    entries = ctx.entries
    orders = case.get("orders") or {}  # a mapping (ctx.spelling has checked)
    by_power: dict[Any, Any] = orders if type(orders) is dict else dict(orders)
    for pname, items in by_power.items():
        pid = powers.get(pname) if type(pname) is str else None
        if pid is None:
            pid = ctx.power(pname)
        shown = spelling[pid]
        head = entry_head(shown)
        if type(items) is not list:
            if not isinstance(items, str):
                raise PositionError(f"orders of {pname!r} must be a list of strings")
            items = [items]
        listed: list[Any] = items  # typed: the compiled build walks the list directly
        mine = entries.get(shown)
        for text in listed:
            entry = mine.get(text) if mine is not None and type(text) is str else None
            if entry is None and type(text) is str:
                reading = plain.get(text)
                if reading is None and text not in ctx.cache:  # a text never read before
                    ctx.read(text)
                    reading = plain.get(text)
                if reading is not None:  # one order of any power (the usual)
                    entry = ctx.entry(shown, pid, text, reading)
                    mine = entries[shown]
            if entry is not None:
                if odd is not None:
                    odd.slots.append(len(parts) >> 1)
                parts.append(entry.lead)
                parts.append(b"")
                pairs.append(entry.pair)
                texts.append(text)
                key = entry.key
                keys.append(key)
                if key is None:
                    nones += 1
                continue
            if odd is None:
                odd = _Odd(len(parts) >> 1)
            if type(text) is not str:  # null, a number, a list: echoed as JSON, not read
                shown_text = short_json(text)
                why = f"an order must be a text (a JSON string), not {shown_text}"
                errors.append(f"{shown}: {why}")
                odd.invalid(parts, head + text_json(shown_text), why)
                continue
            reading = ctx.read(text)
            error = reading.error
            prefix = reading.prefix
            if prefix is not None and prefix != pid:  # "Lepke G(Cit)-U-Mic" under Capone
                error = f"this order names {prefix}, but is listed under {pname}"
            if error is not None:
                errors.append(f"{shown}: {text!r}: {error}")
                odd.invalid(parts, head + reading.json, error)
                continue
            group = reading.group if reading.group is not None else [reading.order]
            for order in group:  # a group: one entry per unit, each with its part
                if reading.group is not None:
                    odd.parts[len(pairs)] = b',"part":' + text_json(str(order))
                odd.slots.append(len(parts) >> 1)
                parts += (head + reading.json, b"")
                pairs.append((pid, order))
                texts.append(text)
                key = _unit_key(order)
                keys.append(key)
                if key is None:
                    nones += 1
    dropped: dict[int, str] = {}
    if len(set(keys)) - (nones > 0) < len(keys) - nones and duplicates == "last":
        dropped = _replaced(pairs, texts, ctx.parser.builder.escorts)
        if dropped:
            pairs = [pair for j, pair in enumerate(pairs) if j not in dropped]
    result = adjudicate(position, pairs, game_map, rules)
    tails = result_tails(result.results)
    if odd is not None or dropped:
        tails = _tails(tails, odd or _Odd(len(parts) >> 1), dropped, len(texts))
    if parts:
        parts[1::2] = tails
        parts[0] = parts[0][2:]  # (no "}," before the first entry)
    after = result.position
    board = batch_board(after, spelling)
    out = [b'{"id":', echo_json(case.get("id")), b',"phase":', text_json(str(result.phase)),
           b',"next_phase":', text_json(str(result.next_phase)), b',"orders":[']
    out += parts
    out.append(b"}]" if parts else b"]")
    extra = ctx.keys
    if "defaults" in extra:
        out.append(b',"defaults":' + value_json(
            rules.batch_value("defaults", result, _Spell(spelling).spell)))
    out.append(b",")
    out.append(board[0])
    if result.settled:  # dislodged units with no retreat, disbanded at once
        out.append(destroyed_json(result, spelling))
    out.append(b",")
    out.append(board[1])
    if after.standoffs and "standoffs" not in extra:
        out.append(standoffs_json(after))
    if result.center_changes and "winner" not in extra:  # (only a change of owner can win)
        out.append(winner_json(rules.winner(after, game_map), spelling))
    for key in extra:
        if key != "defaults":
            out.append(b"," + text_json(key) + b":" + value_json(
                rules.batch_value(key, result, _Spell(spelling).spell)))
    if warnings is not None:
        out.append(b',"warnings":' + value_json(warnings))
    out.append(b',"errors":')
    out.append(value_json(errors) if errors else b"[]")
    out.append(b"}\n")
    return b"".join(out)


class _Odd:
    """A line's entries that are not one per order: the invalid ones (with their tails),
    each order's entry (``slots``: an ``&`` group has one per unit, with its ``parts``)."""

    def __init__(self, orders: int) -> None:
        self.first = orders  # entries (each an order's) before the first odd one
        self.slots: list[int] = []  # the entry of each order from there on
        self.tails: dict[int, bytes] = {}  # entry -> its tail (an invalid entry's)
        self.parts: dict[int, bytes] = {}  # order -> its "part" (an & group's unit)

    def invalid(self, parts: list[bytes], lead: bytes, why: str) -> None:
        """An entry that is invalid for ``why`` (no order is given to the engine)."""
        self.tails[len(parts) >> 1] = invalid_tail(why)
        parts += (lead, b"")


def _tails(results: list[bytes], odd: _Odd, dropped: dict[int, str], orders: int
           ) -> list[bytes]:
    """The tail of every entry: an order's from its result (``results``: those of the
    orders kept), a dropped order's the reason it was replaced, an invalid entry's its
    reason."""
    slots = list(range(odd.first)) + odd.slots
    tails = [odd.tails.get(i, b"") for i in range(len(odd.tails) + orders)]
    kept = iter(results)
    for j in range(orders):
        part = odd.parts.get(j, b"")
        why = dropped.get(j)
        tails[slots[j]] = (next(kept) if why is None else invalid_tail(why)) + part
    return tails


def _replaced(pairs: list[tuple[str, Any]], texts: list[str], escorts: Any) -> dict[int, str]:
    """The pairs a later order for the same unit replaces: index -> why (``escorts``: the
    kinds of piece that stand beside a unit, whose orders are their own)."""
    from mobadj.orders.duplicates import replaced_orders

    return replaced_orders(pairs, texts, escorts)


class _Spell:
    """A power as the input line first spelt it (a power it never named: its id)."""

    def __init__(self, spelling: dict[str, str]) -> None:
        self.spelling = spelling

    def spell(self, pid: str) -> str:
        return self.spelling.setdefault(pid, pid)
