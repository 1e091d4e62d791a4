"""``mobadj adjudicate --map mobtown2 POSITION.yaml ORDERS... [--picture out.svg]``.

The command itself lives in mobadj/cli/adjudicate_cmd.py; for a map whose rules offer
``cli_adjudicate`` (Mobtown II) it hands over to :func:`adjudicate_files`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import yaml

from mobadj.engine.position import PositionError
from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.mobtown.rules import MobtownRules
from mobadj.mobtown.state import position_from_data
from mobadj.orders.files import OrderFiles, read_order_files
from mobadj.orders.textfile import read_text_file


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` strings -> option values (true/false become booleans)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r}: expected NAME=VALUE", param_hint="--option")
        low = value.strip().lower()
        out[name.strip()] = {"true": True, "yes": True, "false": False, "no": False}.get(
            low, value.strip())
    return out


def make_rules(options: dict[str, Any]) -> MobtownRules:
    """MobtownRules with options; a friendly error for unknown names or values."""
    known = set(MobtownRules().options())
    unknown = sorted(set(options) - known)
    if unknown:
        raise PositionError(f"unknown Mobtown option(s) {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(known))}")
    try:
        return MobtownRules(**options)
    except (TypeError, ValueError) as exc:
        raise PositionError(str(exc)) from None


def adjudicate_files(game_map: Any, position: Path, orders: Sequence[Path], as_json: bool,
                     picture: Path | None, options: dict[str, Any]) -> tuple[str, OrderFiles]:
    """Read, adjudicate, report (and draw): the report and what was read from the order
    files (mobadj.orders.files); raises click.ClickException on bad input."""
    from mobadj.mobtown.report import format_report, picture_data, write_picture
    from mobadj.mobtown.turn import adjudicate

    options = dict(options)
    duplicates = str(options.pop("duplicate_orders", "last"))
    try:
        rules = make_rules(options)
        data = yaml.safe_load(read_text_file(position)[0])
        pos = position_from_data(data, game_map, rules)
        files = read_order_files(orders, game_map, parse_mobtown_orders, duplicates)
    except (yaml.YAMLError, PositionError, OSError) as exc:
        raise click.ClickException(f"{position}: {exc}") from None
    errors = files.errors
    result = adjudicate(pos, files.orders, game_map, rules)
    if picture is not None:
        try:
            write_picture(result, game_map, str(picture))
        except Exception as exc:  # a missing PNG converter, an unwritable path
            raise click.ClickException(f"cannot write {picture}: {exc}") from None
    if as_json:
        data = result.position.to_data()
        data.update(phase=str(result.phase), next_phase=str(result.next_phase),
                    orders=[r.as_dict() for r in result.results],
                    defaults=[r.as_dict() for r in result.defaults],
                    centre_changes=[{"province": p, "from": a, "to": b}
                                    for p, a, b in result.centre_changes],
                    events=result.events, moves=picture_data(result)["moves"],
                    errors=errors)
        return json.dumps(data, indent=2) + "\n", files
    return format_report(result, game_map, errors, rules), files
