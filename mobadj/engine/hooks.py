"""Which of the rules' hooks (mobadj.engine.rules) a variant overrides.

The rules are not compiled, so that a variant can subclass them; every call into them is a
Python call.  Where the rules keep a standard hook that does nothing, or one whose work the
compiled engine can do itself, the engine asks here and skips the call.
"""

from __future__ import annotations

from typing import Final

from mobadj.engine.rules import Rules

__all__ = ["standard"]

_STANDARD: Final = {name: getattr(Rules, name) for name in (
    "after_movement", "after_phase", "bind", "build_sites", "can_convoy", "check_move",
    "convoy_path", "convoy_seas", "convoyable", "cuts_support", "head_to_head", "hold_bonus",
    "move_bonus", "needs_adjustment", "position_from_data", "remove_order", "required_margin",
    "retreat_allowed", "retreat_options", "retreat_phase", "screen")}


def standard(rules: Rules, hook: str) -> bool:
    """Do ``rules`` keep the standard rules' ``hook``?  (Asked anew each time, not kept per
    class: a hook put on a class at run time, as tests do, is seen at once.)"""
    return getattr(type(rules), hook) is _STANDARD[hook]
