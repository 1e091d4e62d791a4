"""Orders: the value types, the Lark grammar and the parser with friendly errors.

``parse_orders(text, game_map)`` reads a whole order file; ``parse_order`` one order.  A
variant's grammar extension subclasses :class:`OrderBuilder` and makes an :class:`OrderParser`
(mobadj.mobtown.notation).  What other packages may use is listed here.
"""

from mobadj.orders.duplicates import (
    DUPLICATE_RULES,
    ReplacedOrder,
    check_rule,
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
from mobadj.orders.files import read_order_files
from mobadj.orders.mailtext import strip_quotes_and_signature
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
)
from mobadj.orders.parser import (
    Action,
    Children,
    OrderBuilder,
    OrderParser,
    ParsedOrder,
    ParseResult,
    Subject,
    parse_order,
    parse_orders,
    parse_unit,
    parser_for,
)
from mobadj.orders.textfile import read_text_file

__all__ = [
    "DUPLICATE_RULES",
    "ReplacedOrder",
    "Action",
    "AnyOrder",
    "Build",
    "Children",
    "Convoy",
    "Disband",
    "Hold",
    "Move",
    "Order",
    "OrderBuilder",
    "OrderError",
    "OrderParser",
    "OrderSyntaxError",
    "ParseResult",
    "ParsedOrder",
    "Remove",
    "Retreat",
    "Subject",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnknownPowerError",
    "UnknownProvinceError",
    "VariantOrder",
    "Waive",
    "check_rule",
    "or_list",
    "parse_order",
    "parse_orders",
    "parse_unit",
    "parser_for",
    "read_order_files",
    "read_text_file",
    "replaced_orders",
    "split_rule",
    "strip_quotes_and_signature",
]
