"""``mobadj batch`` lines of a map whose rules keep more than the standard position
(``Rules.batch_keys``, e.g. Mobtown II's Dons, gaol and news), through the map's hooks.

Input: the standard batch line (docs/adjudication.md) with the position keys of the map's
rules (``Rules.position_from_data``); an order text may begin with its power's name
(``Rules.split_power``) and may be an ``&`` group of orders (``G(PPU) & G(Pel) S G(Mic)-Mem``).

Output: the standard keys, with ``Rules.batch_keys`` beside them (``defaults`` right after the
orders, the others after ``centers``).  Each order string is echoed exactly as given; an ``&``
group gives one result per unit, each with the group's text and ``"part"`` (that unit's
canonical order).  Two orders for one unit: the last one counts, as on every map
(mobadj.orders.duplicates; ``"duplicate_orders": "first"`` in the line's options keeps the
first legal one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mobadj.batch import BLOCKS, short_json
from mobadj.board import UnknownNameError
from mobadj.engine import PositionError, Rules, adjudicate, with_options
from mobadj.orders.duplicates import replaced_orders, split_rule

if TYPE_CHECKING:
    from mobadj.board import GameMap


def run_line(case: Mapping[str, Any], game_map: GameMap, rules: Rules) -> dict[str, Any]:
    """Adjudicate one input object; raises PositionError for a bad position."""
    options = case.get("options")
    if options:
        if not isinstance(options, Mapping):
            raise PositionError("'options' must map option names to values")
        try:
            rule_options, duplicates = split_rule(options)
            rules = with_options(rules, rule_options)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
    else:
        duplicates = "last"
    noun = rules.power_noun
    spelling: dict[str, str] = {}
    for key in BLOCKS:
        block = case.get(key) or {}
        if not isinstance(block, Mapping):
            raise PositionError(f"{key!r} must map each {noun} to a list")
        for name in block:
            try:
                spelling.setdefault(game_map.power_id(str(name)), str(name))
            except UnknownNameError as exc:  # "unknown mob 'x'; did you mean ...?"
                raise PositionError(str(exc).replace("unknown power", f"unknown {noun}", 1)
                                    ) from None
    position = rules.position_from_data(case, game_map)
    parser = rules.order_parser(game_map)
    errors: list[str] = []
    pairs: list[tuple[str, Any]] = []
    texts: list[tuple[str, str, Any]] = []  # (power, text, the group's order or error text)
    given: list[int] = []  # the index in ``texts`` of each order in ``pairs``
    for name, items in (case.get("orders") or {}).items():
        pid = game_map.power_id(str(name))
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise PositionError(f"orders of {name!r} must be a list of strings")
        for text in items:
            if type(text) is not str:  # null, a number, a list: echoed as JSON, not read
                text = short_json(text)
                message = f"an order must be a text (a JSON string), not {text}"
                errors.append(f"{spelling[pid]}: {message}")
                texts.append((pid, text, message))
                continue
            prefix, order_text = rules.split_power(text, game_map)  # "Lepke G(Cit)-U-Mic"
            if prefix is not None and prefix != pid:
                message = f"this order names {prefix}, but is listed under {name}"
                errors.append(f"{spelling[pid]}: {text!r}: {message}")
                texts.append((pid, str(text), message))
                continue
            try:
                group = parser.parse_group(order_text)
            except ValueError as exc:  # OrderError and friends
                errors.append(f"{spelling[pid]}: {text!r}: {exc}")
                texts.append((pid, str(text), str(exc)))
                continue
            for order in group:
                given.append(len(texts))
                pairs.append((pid, order))
                texts.append((pid, str(text), order if len(group) > 1 else None))
    replaced: dict[int, str] = {}  # index in ``texts`` -> why a later order replaced it
    if duplicates == "last":
        dropped = replaced_orders(pairs, [texts[i][1] for i in given])
        replaced = {given[j]: why for j, why in dropped.items()}
        pairs = [pair for j, pair in enumerate(pairs) if j not in dropped]
    result = adjudicate(position, pairs, game_map, rules)
    out_orders: list[dict[str, Any]] = []
    it = iter(result.results)
    for i, (pid, text, extra) in enumerate(texts):
        if isinstance(extra, str) or i in replaced:
            entry = {"power": spelling[pid], "order": text, "result": "invalid",
                     "reason": replaced.get(i, extra)}
            if i in replaced and extra is not None:
                entry["part"] = str(extra)
            out_orders.append(entry)
            continue
        r = next(it)
        entry = {"power": spelling.get(r.power, r.power), "order": text,
                 "result": r.outcome.value,
                 "reason": r.reason.value if r.reason is not None else None}
        if extra is not None:
            entry["part"] = str(extra)
        out_orders.append(entry)
    after = result.position
    data = after.to_data()

    def spell(pid: str) -> str:
        """A power as the input first spelt it."""
        return spelling.setdefault(pid, pid)

    def named(block: Mapping[str, Any]) -> dict[str, Any]:
        return {spell(p): v for p, v in block.items()}

    empty: dict[str, Any] = {name: [] for name in spelling.values()}
    units = empty | named(data["units"])
    centers = empty | named(data["centers"])
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(after.dislodged.values(), key=lambda d: str(d.unit)):
        dislodged.setdefault(spelling.get(d.unit.power, d.unit.power), []).append(
            after.dislodged_entry(d))
    line: dict[str, Any] = {
        "id": case.get("id"),
        "phase": str(result.phase),
        "next_phase": str(result.next_phase),
        "orders": out_orders,
    }
    if "defaults" in rules.batch_keys:
        line["defaults"] = rules.batch_value("defaults", result, spell)
    line.update(units=units, dislodged=dislodged, centers=centers)
    for key in rules.batch_keys:
        if key != "defaults":
            line[key] = rules.batch_value(key, result, spell)
    line["errors"] = errors
    if result.settled:  # dislodged units with no retreat, disbanded at once
        from mobadj.batch import with_destroyed

        return with_destroyed(line, result, spelling)
    return line
