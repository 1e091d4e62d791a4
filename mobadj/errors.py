"""Every error mobadj raises on purpose has one root, :class:`MobadjError`, and one family per
layer beneath it, so a front end (or a program using mobadj) catches what it means to::

    MobadjError
    ├── MapError          mobadj.board: map files, names of provinces and powers
    ├── OrdersError       mobadj.orders: an order, an order file (OrderError and its kinds)
    ├── EngineError       mobadj.engine, mobadj.mobtown: positions, variants, rules
    ├── RenderError       mobadj.render: layouts, views, PNG output
    ├── BatchError        mobadj batch: a stopped run, output that cannot be written
    ├── CommandLineError  mobadj.cli: bad input to a command
    ├── JudgeServiceError mobadj.judge: the email judge (configuration, store, mail, hosts)
    ├── WebError          mobadj.web: the game pages
    └── CardGameError     mobadj.cards: the card games

Each class also keeps the built-in base it always had (``ValueError``, ``LookupError``,
...), so code that caught those still does.
"""

from __future__ import annotations

__all__ = [
    "BatchError",
    "CardGameError",
    "CommandLineError",
    "EngineError",
    "JudgeServiceError",
    "MapError",
    "MobadjError",
    "OrdersError",
    "RenderError",
    "WebError",
]


class MobadjError(Exception):
    """An error mobadj raises on purpose: its message is for the person who caused it."""


class MapError(MobadjError):
    """A map file or a name on a map (mobadj.board)."""


class OrdersError(MobadjError):
    """An order or an order file that cannot be read (mobadj.orders)."""


class EngineError(MobadjError):
    """A position, a variant or a rule option that cannot be used (mobadj.engine)."""


class RenderError(MobadjError):
    """A picture that cannot be drawn (mobadj.render)."""


class BatchError(MobadjError):
    """A batch run that stops or cannot write its output (mobadj batch)."""


class CommandLineError(MobadjError):
    """Bad input to a command of mobadj's command line (mobadj.cli)."""


class JudgeServiceError(MobadjError):
    """The email judge: its configuration, store, mail servers and game hosts
    (mobadj.judge)."""


class WebError(MobadjError):
    """The game pages (mobadj.web)."""


class CardGameError(MobadjError):
    """A card game: a rule broken, a deck file, a command (mobadj.cards)."""
