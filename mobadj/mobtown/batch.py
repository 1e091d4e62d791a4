"""``mobadj batch`` lines with ``"map": "mobtown2"`` (the issue-3 contract).

Input: ``{"id", "map": "mobtown2", "phase": "1919-07-W1-M", "units": {mob: ["G Lex", "D Lex"]},
"centers", "dislodged": {mob: [{"unit", "from", "via": "ground"|"subway"}]}, "standoffs",
"disorder", "rebuilt_dons", "orders": {mob: ["G(Tam)-U-Ext", "G(PPU) & G(Pel) S G(Mic)-Mem"]}}``
(position keys as in :mod:`mobadj.mobtown.state`).

Output: the standard batch keys, plus ``disorder``, ``rebuilt_dons``, ``events`` and ``winner``.
Each order string is echoed exactly as given; an ``&`` group gives one result per unit, each
with the group's text and ``"part"`` (that unit's canonical order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mobadj.engine.position import PositionError
from mobadj.mobtown.notation import mobtown_parser, split_mob
from mobadj.mobtown.rules import MobtownRules
from mobadj.mobtown.state import dislodged_entry, position_from_data
from mobadj.mobtown.turn import adjudicate


def run_case(case: Mapping[str, Any], game_map: Any, rules: MobtownRules | None = None
             ) -> dict[str, Any]:
    """Adjudicate one Mobtown input object; raises PositionError for a bad position."""
    if case.get("options"):
        from mobadj.mobtown.cli import make_rules

        if not isinstance(case["options"], Mapping):
            raise PositionError("'options' must map option names to values")
        rules = make_rules(dict(case["options"]))
    rules = rules or MobtownRules()
    parser = mobtown_parser(game_map)
    spelling: dict[str, str] = {}
    for key in ("units", "centers", "dislodged", "orders"):
        block = case.get(key) or {}
        if not isinstance(block, Mapping):
            raise PositionError(f"{key!r} must map each mob to a list")
        for name in block:
            try:
                spelling.setdefault(game_map.power_id(str(name)), str(name))
            except Exception as exc:
                raise PositionError(f"unknown mob {name!r}: {exc}") from None
    position = position_from_data(case, game_map, rules)
    errors: list[str] = []
    pairs: list[tuple[str, Any]] = []
    texts: list[tuple[str, str, Any]] = []  # (mob, text, order or error text)
    for name, items in (case.get("orders") or {}).items():
        pid = game_map.power_id(str(name))
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise PositionError(f"orders of {name!r} must be a list of strings")
        for text in items:
            named, order_text = split_mob(str(text), game_map)  # "Lepke G(Cit)-U-Mic"
            if named is not None and named != pid:
                message = f"this order names {named}, but is listed under {name}"
                errors.append(f"{spelling[pid]}: {text!r}: {message}")
                texts.append((pid, str(text), message))
                continue
            try:
                group = parser.parse_group(order_text)
            except ValueError as exc:
                errors.append(f"{spelling[pid]}: {text!r}: {exc}")
                texts.append((pid, str(text), str(exc)))
                continue
            for order in group:
                pairs.append((pid, order))
                texts.append((pid, str(text), order if len(group) > 1 else None))
    result = adjudicate(position, pairs, game_map, rules)
    out_orders: list[dict[str, Any]] = []
    it = iter(result.results)
    for pid, text, extra in texts:
        if isinstance(extra, str):
            out_orders.append({"power": spelling[pid], "order": text, "result": "invalid",
                               "reason": extra})
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

    def named(block: Mapping[str, Any]) -> dict[str, Any]:
        """Keys spelt as the input first spelt each mob."""
        return {spelling.setdefault(p, p): v for p, v in block.items()}

    units = {name: [] for name in spelling.values()} | named(data["units"])
    centers = {name: [] for name in spelling.values()} | named(data["centers"])
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(after.dislodged.values(), key=lambda d: str(d.unit)):
        dislodged.setdefault(spelling.get(d.unit.power, d.unit.power), []).append(
            dislodged_entry(d))
    return {
        "id": case.get("id"),
        "phase": str(result.phase),
        "next_phase": str(result.next_phase),
        "orders": out_orders,
        "defaults": [r.as_dict() for r in result.defaults],
        "units": units,
        "dislodged": dislodged,
        "centers": centers,
        "standoffs": data["standoffs"],
        "disorder": [spelling.get(p, p) for p in data["disorder"]],
        "rebuilt_dons": [spelling.get(p, p) for p in data["rebuilt_dons"]],
        "events": result.events,
        "winner": spelling.get(after.winner, after.winner) if after.winner else None,
        "errors": errors,
    }
