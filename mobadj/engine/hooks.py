"""Which of the rules' hooks (mobadj.engine.rules) a variant overrides, and what the engine
makes of a variant hook's answer.

The rules are not compiled, so that a variant can subclass them; every call into them is a
Python call.  Where the rules keep a standard hook that does nothing, or one whose work the
compiled engine can do itself, the engine asks here and skips the call.

A variant's hook may answer as Python code does (docs/maps.md, "What a hook may return"): a
list or a set where a tuple is annotated, a truthy value for yes, a float such as 2.0 for a
whole number.  The compiled build checks a typed call's answer against the annotation, so the
engine asks a variant's hook through :func:`untyped` and converts the answer once, at the
call site, with :func:`names`, :func:`whole` or ``bool``: both builds then take the same
answers, and refuse the same ones with the same :class:`VariantError`.  The standard rules'
hooks are asked as before (their answers have the annotated types).
"""

from __future__ import annotations

from typing import Any, Final

from mobadj.engine.position import PositionT
from mobadj.engine.rules import Rules
from mobadj.engine.variants import VariantError

__all__ = ["names", "standard", "untyped", "whole"]

_STANDARD: Final = {name: getattr(Rules, name) for name in (
    "adjustment_counts", "after_movement", "after_phase", "bind", "build_sites", "can_convoy",
    "check_move", "convoy_path", "convoy_seas", "convoyable", "cuts_support", "head_to_head",
    "hold_bonus", "move_bonus", "needs_adjustment", "position_from_data", "remove_order",
    "required_margin", "retreat_allowed", "retreat_choice", "retreat_options", "retreat_phase",
    "screen")}


def standard(rules: Rules[PositionT], hook: str) -> bool:
    """Do ``rules`` keep the standard rules' ``hook``?  (Asked anew each time, not kept per
    class: a hook put on a class at run time, as tests do, is seen at once.)"""
    return getattr(type(rules), hook) is _STANDARD[hook]


def untyped(rules: Rules[PositionT]) -> Any:
    """``rules`` for asking a variant's hook: its answer is taken as any Python value (the
    compiled build does not check it against the annotation), for the caller to convert."""
    return rules


def whole(value: object, hook: str) -> int:
    """A variant hook's number as the engine counts: an int (True and False count 1 and 0)
    or a float that is a whole number (2.0); anything else is a VariantError naming the
    hook, on both builds."""
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise VariantError(f"variant hook {hook} must return a whole number, not {value!r}")


def names(value: object, hook: str) -> tuple[str, ...]:
    """A variant hook's collection of names as a tuple: a tuple as it is, a set or frozenset
    sorted (its order would change from run to run), any other collection or iterable (a
    list, a generator) in its order.  A text, or a value that is no collection (None), is a
    VariantError naming the hook."""
    if type(value) is tuple:
        return value
    if isinstance(value, set | frozenset):
        return tuple(sorted(value))
    if not isinstance(value, str):
        try:
            return tuple(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise VariantError(f"variant hook {hook} must return a collection of names, "
                       f"not {value!r}")
