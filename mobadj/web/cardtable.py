"""A card game's public table as HTML tables, read from the game's view with no seat (the
card protocol's ``view(None)``: what a spectator may see, as the mails' text is).

Any game's view is laid out by the same rules: its plain facts in a list, a list of records
(the city, the seats, the jobs) as a table with a column per field, a record holding lists of
records (a player's hits and allies) as a section with its own tables, a mapping of records
(projects by number) as a table with their names in the first column.  Each game only names,
in ``cardtables.yaml``, the fields to leave out, their headings, and the fields whose
numbers are seats.  Every value is escaped.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup

HINTS = Path(__file__).with_name("cardtables.yaml")


@functools.cache
def _hints() -> dict[str, dict[str, Any]]:
    with HINTS.open(encoding="utf-8") as fh:
        return dict(yaml.safe_load(fh) or {})


class _Layout:
    """One game's hints."""

    def __init__(self, kind: str) -> None:
        hints = _hints().get(kind) or {}
        self.hide = set(hints.get("hide") or [])
        self.labels: dict[str, str] = dict(hints.get("labels") or {})
        self.seats = set(hints.get("seats") or [])
        self.seat_rows = set(hints.get("seat_rows") or [])  # lists with a list per seat
        self.unset: dict[str, str] = dict(hints.get("unset") or {})  # None said in words

    def label(self, key: str) -> str:
        return self.labels.get(key) or key.replace("_", " ").capitalize()

    def scalar(self, key: str, value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if key in self.seats and isinstance(value, int):
            return f"P{value}"
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)


def _empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, (list, dict)) and not value)


def _plain(value: Any) -> bool:
    """A value shown as text: a scalar, or a list of scalars."""
    if isinstance(value, list):
        return all(not isinstance(v, (list, dict)) for v in value)
    return not isinstance(value, dict)


def _text(lay: _Layout, key: str, value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(lay.scalar(key, v) for v in value)
    return lay.scalar(key, value)


def card_table(kind: str, view: Mapping[str, Any]) -> Markup:
    """The view as HTML: a list of its facts, then a part for each list or record."""
    lay = _Layout(kind)
    facts, parts = [], []
    for key, value in view.items():
        if key in lay.hide or _empty(value):
            continue
        if _plain(value):
            facts.append((key, value))
        else:
            parts.append(f'<section class="part"><h4>{escape(lay.label(key))}</h4>'
                         f"{_block(lay, key, value)}</section>")
    out = [_facts(lay, facts)] if facts else []
    return Markup('<div class="card-table">' + "".join(out + parts) + "</div>")


def _facts(lay: _Layout, items: list[tuple[str, Any]]) -> str:
    rows = "".join(f"<div><dt>{escape(lay.label(k))}</dt> <dd>{escape(_text(lay, k, v))}"
                   "</dd></div>" for k, v in items)
    return f'<dl class="facts">{rows}</dl>'


def _block(lay: _Layout, key: str, value: Any) -> str:
    """A list or record that is not plain text."""
    if isinstance(value, Mapping):
        if all(isinstance(v, Mapping) for v in value.values()):
            return _records(lay, [{"": k, **v} for k, v in value.items()])
        plain = [(k, v) for k, v in value.items() if k not in lay.hide and not _empty(v)
                 and _plain(v)]
        rest = [(k, v) for k, v in value.items() if k not in lay.hide and not _empty(v)
                and not _plain(v)]
        return ((_facts(lay, plain) if plain else "")
                + "".join(f"<h5>{escape(lay.label(k))}</h5>{_block(lay, k, v)}"
                          for k, v in rest))
    if all(isinstance(v, Mapping) for v in value):
        deep = any(isinstance(v, list) and any(isinstance(x, Mapping) for x in v)
                   for rec in value for v in rec.values())
        return _sections(lay, value) if deep else _records(lay, value)
    # a list of lists (a track: its places in order; a list per seat) or of mixed things
    def name(i: int) -> str:
        return f"P{i + 1}" if key in lay.seat_rows else str(i)

    rows = "".join(f'<tr><th scope="row">{name(i)}</th><td>'
                   f"{escape(_text(lay, key, v)) if _plain(v) else _block(lay, key, v)}</td></tr>"
                   for i, v in enumerate(value) if not _empty(v))
    return f'<div class="wide"><table class="track"><tbody>{rows}</tbody></table></div>'


def _inline(lay: _Layout, record: Mapping[str, Any]) -> str:
    """A small record in a table's cell: ``field value; field value``."""
    def word(k: str) -> str:
        return lay.labels.get(k) or k.replace("_", " ")

    return "; ".join(f"{word(k)} {_text(lay, k, v)}" if not isinstance(v, bool)
                     else (word(k) if v else f"not {word(k)}")
                     for k, v in record.items()
                     if k not in lay.hide and not _empty(v) and _plain(v))


def _records(lay: _Layout, records: list[Mapping[str, Any]]) -> str:
    """Records as a table: a column for each field any of them has."""
    keys: list[str] = []
    for rec in records:
        keys += [k for k in rec if k not in keys and k not in lay.hide]
    keys = [k for k in keys if any(not _empty(rec.get(k)) or _said_unset(lay, rec, k)
                                   for rec in records)]
    head = "".join(f'<th scope="col">{escape(lay.label(k)) if k else ""}</th>' for k in keys)
    body = []
    for rec in records:
        cells = []
        for i, k in enumerate(keys):
            v = rec.get(k)
            shown = (escape(lay.unset[k]) if _said_unset(lay, rec, k)
                     else "" if _empty(v) else escape(_text(lay, k, v)) if _plain(v)
                     else escape(_inline(lay, v)) if isinstance(v, Mapping)
                     else _block(lay, k, v))
            num = ' class="num"' if isinstance(v, (int, float)) and not isinstance(v, bool) \
                else ""
            cells.append(f'<th scope="row">{shown}</th>' if i == 0
                         else f"<td{num}>{shown}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="wide"><table class="records"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def _said_unset(lay: _Layout, rec: Mapping[str, Any], key: str) -> bool:
    """A field the record holds as None that the game names in words (an offer still being
    chosen), rather than a blank a reader could take for "none"."""
    return key in lay.unset and key in rec and rec[key] is None


def _sections(lay: _Layout, records: list[Mapping[str, Any]]) -> str:
    """Records that hold lists of records (a player's hits, fatigue, allies): a section
    each, named by its first field, with its facts and its tables."""
    out = []
    for rec in records:
        items = [(k, v) for k, v in rec.items() if k not in lay.hide]
        if not items:
            continue
        (first, name), rest = items[0], items[1:]
        plain = [(k, v) for k, v in rest if not _empty(v) and _plain(v)]
        deep = [(k, v) for k, v in rest if not _empty(v) and not _plain(v)]
        body = (_facts(lay, plain) if plain else "") + "".join(
            f"<h6>{escape(lay.label(k))}</h6>{_block(lay, k, v)}" for k, v in deep)
        out.append(f'<div class="record"><p class="record-name">'
                   f"{escape(lay.scalar(first, name))}</p>{body}</div>")
    return "".join(out)
