"""The results of a phase as JSON: the one writer behind ``mobadj batch``, ``mobadj
adjudicate --json`` and the judge's ``result.json``.

Each front end keeps its own documented shape (docs/adjudication.md: the batch line and
``--json``; the judge's result data), built here from the same pieces: an order's result as
``{power, order, result, reason}``, each power's units and centres (sorted; a power as its
caller spells it), the dislodged units with their retreats, the units disbanded at once.
A batch line's units and centres are written straight from the board after the phase, by
power as the input line first spelt it, with nothing copied twice.

:func:`json_line` writes one batch output line: strict UTF-8 JSON that no line reader takes
for two lines.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from orjson import OPT_APPEND_NEWLINE
from orjson import dumps as _orjson_dumps

from mobadj.engine.hooks import untyped
from mobadj.engine.position import Position
from mobadj.engine.report import destroyed_data
from mobadj.engine.results import OrderResult

__all__ = ["batch_board", "destroyed_json", "echo_json", "empty_output", "entry_head",
           "invalid_tail", "json_line", "judge_result", "order_entries", "phase_result",
           "result_tails", "standoffs_json", "text_json", "to_json", "value_json",
           "winner_json"]


# ---- an order's result -------------------------------------------------------------------------


def order_entries(results: Sequence[Any]) -> list[dict[str, Any]]:
    """Engine results (OrderResult) as ``{power, order, result, reason}``: the power's id,
    the order as the engine writes it, the published wording of outcome and reason."""
    return [{"power": r.power, "order": r.order, "result": r.outcome.value,
             "reason": r.reason.value if r.reason is not None else None} for r in results]


# ---- a batch line ------------------------------------------------------------------------------


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


# ---- a batch line, written as JSON bytes -------------------------------------------------------
#
# A line is written value by value: each value as json_line would write it in its place
# (orjson and the json module write every text and integer alike; a text with a lone
# surrogate is cleaned as json_line cleans it), texts the batch writes again and again
# (order texts, powers, unit texts, results) once per distinct text.


_TEXTS: Final[dict[str, bytes]] = {}
"""Texts as JSON, made once (bounded: the cache starts afresh when full)."""
TEXTS_KEPT: Final = 100_000


def text_json(text: str) -> bytes:
    """``text`` as a JSON string, as a batch line writes it (remembered)."""
    got = _TEXTS.get(text)
    if got is None:
        got = value_json(text)
        if len(_TEXTS) >= TEXTS_KEPT:
            _TEXTS.clear()
        _TEXTS[text] = got
    return got


def value_json(value: Any) -> bytes:
    """A value the engine or the batch made (texts, integers, lists and dicts of them) as
    JSON, as a batch line writes it: orjson's bytes, the json module's where orjson
    declines (an integer beyond 64 bits), a lone surrogate as U+FFFD."""
    try:
        return _line_breaks(_orjson_dumps(value))
    except TypeError:
        pass
    try:
        return _escape_breaks(_DUMPS(value)).encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError):
        return _escape_breaks(_DUMPS(_clean(value))).encode("utf-8")


def echo_json(value: Any) -> bytes:
    """A value of the input echoed in an output line (its ``id``) as JSON: as
    :func:`value_json`, but anything orjson would write otherwise (a float: ``1e-07``) as the
    json module writes it."""
    if type(value) in _AS_JSON_WRITES:
        return value_json(value)
    try:
        return _escape_breaks(_DUMPS(value)).encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError):
        return _escape_breaks(_DUMPS(_clean(value))).encode("utf-8")


def _line_breaks(data: bytes) -> bytes:
    """``data`` with the characters a line reader could take for a line break escaped."""
    if not data.isascii():  # most are: no search needed
        for raw, escaped in _RAW_BREAK_BYTES:
            if raw in data:
                data = data.replace(raw, escaped)
    return data


_TAILS: Final[dict[Any, dict[Any, bytes]]] = {}
"""``,"result":...,"reason":...`` of an order entry, by outcome and reason."""


def result_tails(results: list[OrderResult]) -> list[bytes]:
    """The tail of the entry of each result (``,"result":...,"reason":...``)."""
    tails = _TAILS
    out: list[bytes] = []
    for r in results:
        by_reason = tails.get(r.outcome)
        got = by_reason.get(r.reason) if by_reason is not None else None
        if got is None:
            got = tails.setdefault(r.outcome, {})[r.reason] = (
                b',"result":' + text_json(str(r.outcome)) + b',"reason":'
                + (b"null" if r.reason is None else text_json(str(r.reason))))
        out.append(got)
    return out


def invalid_tail(why: str) -> bytes:
    """The tail of an order entry that is ``invalid`` for ``why`` (without its brace)."""
    return b',"result":"invalid","reason":' + text_json(why)


_HEADS: Final[dict[str, bytes]] = {}


def entry_head(power: str) -> bytes:
    """``},{"power":...,"order":`` of an order entry of ``power`` (as the line spells it;
    remembered), with the end of the entry before it."""
    got = _HEADS.get(power)
    if got is None:
        got = b'},{"power":' + text_json(power) + b',"order":'
        if len(_HEADS) >= TEXTS_KEPT:
            _HEADS.clear()
        _HEADS[power] = got
    return got


def batch_board(after: Position, spelling: dict[str, str]) -> list[bytes]:
    """``"units":{...},"dislodged":{...}`` and ``"centers":{...}`` of a batch line (a list of
    the two): each power as ``spelling`` (power id -> as the input line first spelt it) names
    it, every power of ``spelling`` listed in ``units`` and ``centers`` (perhaps with an
    empty list), lists sorted.  A power the line never named is spelt as its id (and added
    to ``spelling``).  A variant's position writes its own unit texts and dislodged entries
    (``Position.unit_lists``, ``dislodged_entry``); a standard dislodged entry is ``{unit,
    from, retreats}``."""
    lists: dict[str, list[str]] = {pid: [] for pid in spelling}
    if type(after).unit_lists is Position.unit_lists:
        try:  # every power named by the line (the usual)
            for u in after.units.values():
                lists[u.power].append(u.text)
        except KeyError:
            lists = _grouped([(u.power, u.text) for u in after.units.values()], spelling)
        for texts in lists.values():
            texts.sort()
    else:  # already sorted
        for power, texts in after.unit_lists().items():
            got = lists.get(power)
            if got is None:
                got = _other(power, lists, spelling)
            got += texts
    units = value_json({spelling[pid]: texts for pid, texts in lists.items()})
    centers = _centers_json(after.centers, spelling)
    dislodged: dict[str, Any] = {}
    if after.dislodged:
        own = type(after).dislodged_entry is not Position.dislodged_entry
        for d in sorted(after.dislodged.values(), key=_dislodged_unit):
            # (the standard entry without the call into the position's class)
            entry = after.dislodged_entry(d) if own else d.as_data()
            dislodged.setdefault(_spell(spelling, d.unit.power), []).append(entry)
    return [b'"units":' + units + b',"dislodged":'
            + (value_json(dislodged) if dislodged else b"{}"), centers]


_CENTERS: Final[dict[tuple[tuple[str, ...], ...], bytes]] = {}
"""``"centers":{...}`` by the powers' spellings and the centres' owners: most phases change
no owner, and the lines of a game name their powers alike, so a game's lines write the same
centres again and again."""
CENTERS_KEPT: Final = 10_000


def _centers_json(centers: dict[str, str], spelling: dict[str, str]) -> bytes:
    """``"centers":{...}``: each power of ``spelling`` (perhaps with an empty list), then any
    other owner, spelt as its id; lists sorted (remembered)."""
    key = (tuple(spelling), tuple(spelling.values()), tuple(centers), tuple(centers.values()))
    got = _CENTERS.get(key)
    if got is not None:  # (an owner the line never named is left out of ``spelling``:
        return got  # later look-ups spell it as its id all the same, through _spell)
    lists: dict[str, list[str]] = {pid: [] for pid in spelling}
    try:
        for prov, owner in centers.items():
            lists[owner].append(prov)
    except KeyError:
        lists = _grouped([(owner, prov) for prov, owner in centers.items()], spelling)
    for texts in lists.values():
        texts.sort()
    got = b'"centers":' + value_json({spelling[pid]: texts for pid, texts in lists.items()})
    if len(_CENTERS) >= CENTERS_KEPT:
        _CENTERS.clear()
    _CENTERS[key] = got
    return got


def _grouped(items: list[tuple[str, str]], spelling: dict[str, str]) -> dict[str, list[str]]:
    """The texts of ``items`` (power id, text) by power: every power of ``spelling`` first,
    then the powers the line never named, as they come."""
    lists: dict[str, list[str]] = {pid: [] for pid in spelling}
    for pid, text in items:
        got = lists.get(pid)
        if got is None:
            got = _other(pid, lists, spelling)
        got.append(text)
    return lists


def _other(pid: str, lists: dict[str, list[str]], spelling: dict[str, str]) -> list[str]:
    """The list of a power the line never named (spelt as its id from now on)."""
    _spell(spelling, pid)
    got: list[str] = []
    lists[pid] = got
    return got


def _dislodged_unit(d: Any) -> str:
    return str(d.unit)


def _spell(spelling: dict[str, str], pid: str) -> str:
    """``pid`` as the line spelt it; a power the line never named is spelt as its id."""
    got = spelling.get(pid)
    if got is None:
        got = spelling[pid] = pid
    return got


def destroyed_json(result: Any, spelling: dict[str, str]) -> bytes:
    """``,"destroyed":{...}`` of a line where some unit was disbanded at once (power ->
    its units, as the line spells the power), else nothing."""
    gone = destroyed_data(result, lambda p: _spell(spelling, p))
    return b',"destroyed":' + value_json(gone) if gone else b""


def standoffs_json(after: Position) -> bytes:
    """``,"standoffs":[...]`` of a line whose next phase is a retreat phase with standoffs
    (the provinces a bounce left empty, where no unit may retreat), else nothing: a line's
    output reads back as the next line's input."""
    if not after.standoffs:  # (the usual line: the engine keeps them only for a retreat)
        return b""
    return b',"standoffs":' + value_json(sorted(after.standoffs))


def winner_json(winner: str | None, spelling: dict[str, str]) -> bytes:
    """``,"winner":"France"`` (the power as the line spells it) of the line of a phase that
    won the game, else nothing."""
    return b',"winner":' + text_json(_spell(spelling, winner)) if winner else b""


# ---- adjudicate --json and the judge -----------------------------------------------------------


def phase_result(result: Any, errors: list[str] | None = None, rules: Any = None,
                 game_map: Any = None) -> dict[str, Any]:
    """``mobadj adjudicate --json``: the batch output keys (powers by id, the orders as the
    engine reads them) plus ``defaults``, ``standoffs``, ``destroyed``, ``skipped``,
    ``centre_changes``, any key a variant's position has, the rules' ``json_extras`` and,
    given the map, ``winner`` when a power has won (as the report announces it)."""
    data = result.position.to_data()
    out: dict[str, Any] = {
        "phase": str(result.phase),
        "next_phase": str(result.next_phase),
        "orders": order_entries(result.results),
        "defaults": order_entries(result.defaults),
        "units": data["units"],
        "dislodged": data["dislodged"],
        "standoffs": data["standoffs"],
        "centers": data["centers"],
    }
    out.update((k, v) for k, v in data.items() if k not in out)
    out["destroyed"] = destroyed_data(result)
    out["skipped"] = [str(p) for p in result.skipped]
    out["centre_changes"] = [
        {"province": p, "from": old, "to": new} for p, old, new in result.center_changes
    ]
    if rules is not None:
        out.update(untyped(rules).json_extras(result))  # (any mapping, on both builds)
        winner = untyped(rules).winner(result.position, game_map) if game_map else None
        if winner and "winner" not in out:
            out["winner"] = winner
    out["errors"] = list(errors or [])
    return out


def judge_result(result: Any, winner: str | None) -> dict[str, Any]:
    """The result data the judge stores and attaches as ``result.json``: every order with its
    result, the defaults, the units disbanded at once, the phases skipped, centre changes,
    the variant's news, the position after the phase, the winner (or None)."""
    after = result.position
    return {
        "phase": str(result.phase),
        "results": order_entries(result.results),
        "defaults": order_entries(result.defaults),
        "destroyed": destroyed_data(result),
        "skipped": [str(p) for p in result.skipped],
        "centre_changes": [list(c) for c in result.center_changes],
        "events": list(result.events),
        "position": after.to_data(),
        "winner": winner,
    }


# ---- one output line as bytes ------------------------------------------------------------------


_DUMPS: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False, allow_nan=False,
                                 separators=(",", ":")).encode

_RAW_BREAKS: Final = (("\x85", "\\u0085"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))
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


def to_json(out: Mapping[str, Any]) -> str:
    """One output line: strict JSON that encodes as UTF-8 and holds no character that a
    line reader could take for a line break (never raises)."""
    return json_line(out)[:-1].decode("utf-8")


_AS_JSON_WRITES: Final = (str, int, bool, type(None))
"""Types orjson writes exactly as the json module does (it writes some floats otherwise:
``1e-7`` for ``1e-07``).  An output line echoes two values of its input, the id and, for a
line that could not be adjudicated, the phase; all else in it is made here: texts, integers,
lists and dicts."""


def json_line(out: Mapping[str, Any]) -> bytes:
    """One output line as :func:`to_json` writes it, UTF-8 encoded, with its line break.

    orjson writes it (three times faster than the json module, the same bytes); what it
    declines (a lone surrogate, an integer beyond 64 bits, an echoed value it would write
    otherwise) goes to the json module and the careful writer behind it."""
    if type(out.get("id")) in _AS_JSON_WRITES and type(out.get("phase")) in _AS_JSON_WRITES:
        try:
            data: bytes = _orjson_dumps(out, option=OPT_APPEND_NEWLINE)
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

