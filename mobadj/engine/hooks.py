"""Which of the rules' hooks (mobadj.engine.rules) a variant overrides.

The rules are not compiled, so that a variant can subclass them; every call into them is a
Python call.  Where the rules keep a standard hook that does nothing, or one whose work the
compiled engine can do itself, the engine asks here and skips the call.
"""

from __future__ import annotations

from typing import Final

from mobadj.engine.rules import Rules

__all__ = ["overridden", "standard"]

_STANDARD: Final = {name: getattr(Rules, name) for name in (
    "after_movement", "after_phase", "bind", "build_sites", "can_convoy", "check_move",
    "convoy_path", "convoy_seas", "convoyable", "cuts_support", "head_to_head", "hold_bonus",
    "move_bonus", "needs_adjustment", "position_from_data", "remove_order", "required_margin",
    "retreat_allowed", "retreat_options", "retreat_phase", "screen")}


#: rules class -> the hooks of _STANDARD it overrides (worked out once per class)
_OVERRIDDEN: Final[dict[type, frozenset[str]]] = {Rules: frozenset()}


def overridden(rules: Rules) -> frozenset[str]:
    """The hooks of :data:`_STANDARD` that ``rules`` override (none for the standard rules)."""
    cls = type(rules)
    got = _OVERRIDDEN.get(cls)
    if got is None:
        got = _OVERRIDDEN[cls] = frozenset(
            hook for hook, plain in _STANDARD.items() if getattr(cls, hook) is not plain)
    return got


def standard(rules: Rules, hook: str) -> bool:
    """Do ``rules`` keep the standard rules' ``hook``?"""
    got = _OVERRIDDEN.get(type(rules))
    return hook not in (overridden(rules) if got is None else got)
