"""Orders: the value types, the Lark grammar and the parser with friendly errors.

``parse_orders(text, game_map)`` reads a whole order file; ``parse_order`` one order.
"""

from mobadj.orders.errors import (
    OrderError,
    OrderSyntaxError,
    UnknownPowerError,
    UnknownProvinceError,
)
from mobadj.orders.parser import ParsedOrder, ParseResult, parse_order, parse_orders, parse_unit

__all__ = [
    "OrderError",
    "OrderSyntaxError",
    "ParseResult",
    "ParsedOrder",
    "UnknownPowerError",
    "UnknownProvinceError",
    "parse_order",
    "parse_orders",
    "parse_unit",
]
