"""Orders: the value types, the Lark grammar and the parser with friendly errors.

``parse_orders(text, game_map)`` reads a whole order file; ``parse_order`` one order.  A
variant's grammar extension subclasses :class:`OrderBuilder` and makes an :class:`OrderParser`
(mobadj.mobtown.notation).  What other packages may use is listed here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from mobadj.orders.duplicates import (
    DUPLICATE_RULES,
    ReplacedOrder,
    check_rule,
    last_order_wins,
    replaced_orders,
    split_rule,
)
from mobadj.orders.errors import (
    OrderError,
    OrderSyntaxError,
    UnknownPowerError,
    UnknownProvinceError,
    or_list,
)
from mobadj.orders.fastpath import FastPath, fast_path_for
from mobadj.orders.model import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    VariantOrder,
    Waive,
    register_route,
    route_mark,
)

if TYPE_CHECKING:
    from mobadj.orders.files import read_order_files
    from mobadj.orders.mailtext import mail_lines, strip_quotes_and_signature
    from mobadj.orders.parser import (
        Action,
        Children,
        HoldAction,
        MoveAction,
        OrderBuilder,
        OrderParser,
        ParsedOrder,
        ParseResult,
        RetreatAction,
        Subject,
        SupportHoldAction,
        SupportMoveAction,
        parse_order,
        parse_orders,
        parse_unit,
        parser_for,
    )
    from mobadj.orders.prose import is_remark, keyword_slip, set_aside_remarks
    from mobadj.orders.spelling import text_lines, without_list_mark
    from mobadj.orders.textfile import read_text_file

_PARSER = ("Action", "Children", "HoldAction", "MoveAction", "OrderBuilder", "OrderParser",
           "ParsedOrder", "ParseResult", "RetreatAction", "Subject", "SupportHoldAction",
           "SupportMoveAction", "parse_order",
           "parse_orders", "parse_unit", "parser_for")
_FILES = {"read_order_files": "mobadj.orders.files",
          "strip_quotes_and_signature": "mobadj.orders.mailtext",
          "mail_lines": "mobadj.orders.mailtext",
          "is_remark": "mobadj.orders.prose",
          "keyword_slip": "mobadj.orders.prose",
          "set_aside_remarks": "mobadj.orders.prose",
          "read_text_file": "mobadj.orders.textfile",
          "without_list_mark": "mobadj.orders.spelling",
          "text_lines": "mobadj.orders.spelling",
          **dict.fromkeys(_PARSER, "mobadj.orders.parser")}
"""The parser and the readers of order files and mails: imported when first asked for, so
that a batch, which reads JSON lines of everyday orders (mobadj.orders.fastpath), starts
without them."""


def __getattr__(name: str) -> object:
    if name in _FILES:
        return getattr(importlib.import_module(_FILES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DUPLICATE_RULES",
    "FastPath",
    "ReplacedOrder",
    "last_order_wins",
    "Action",
    "AnyOrder",
    "Build",
    "Children",
    "Convoy",
    "Disband",
    "Hold",
    "HoldAction",
    "Move",
    "MoveAction",
    "Order",
    "OrderBuilder",
    "OrderError",
    "OrderParser",
    "OrderSyntaxError",
    "ParseResult",
    "ParsedOrder",
    "Remove",
    "Retreat",
    "RetreatAction",
    "Subject",
    "SupportHold",
    "SupportHoldAction",
    "SupportMove",
    "SupportMoveAction",
    "Unit",
    "UnknownPowerError",
    "UnknownProvinceError",
    "VariantOrder",
    "Waive",
    "check_rule",
    "fast_path_for",
    "is_remark",
    "keyword_slip",
    "mail_lines",
    "or_list",
    "parse_order",
    "parse_orders",
    "parse_unit",
    "parser_for",
    "read_order_files",
    "read_text_file",
    "register_route",
    "replaced_orders",
    "route_mark",
    "set_aside_remarks",
    "split_rule",
    "strip_quotes_and_signature",
    "text_lines",
    "without_list_mark",
]
