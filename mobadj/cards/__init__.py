"""Turn-based card games sharing one game protocol (see ``protocol``).

Adding a game is one line in ``registry``; what other packages may use is listed here.
"""

from mobadj.cards import report
from mobadj.cards.protocol import Bot, CommandError, GameError, GameState, stopped
from mobadj.cards.record import (
    GameRecord,
    ReplayCache,
    new_salt,
    new_seed,
    read_record_file,
    seed_commitment,
    verify_record,
)
from mobadj.cards.registry import (
    DEFAULT_BOT_LEVEL,
    GAMES,
    bot_class,
    bot_of_level,
    canonical_name,
    game_class,
)
from mobadj.cards.saves import finished_record, read_save
from mobadj.cards.screen import clear_screen, printable
from mobadj.cards.simulate import simulate
from mobadj.cards.terminal import Session, default_save_path
from mobadj.cards.words import command_words

__all__ = [
    "DEFAULT_BOT_LEVEL",
    "GAMES",
    "Bot",
    "CommandError",
    "GameError",
    "GameRecord",
    "GameState",
    "ReplayCache",
    "Session",
    "bot_class",
    "bot_of_level",
    "canonical_name",
    "clear_screen",
    "command_words",
    "default_save_path",
    "finished_record",
    "game_class",
    "new_salt",
    "new_seed",
    "printable",
    "read_record_file",
    "read_save",
    "report",
    "seed_commitment",
    "simulate",
    "stopped",
    "verify_record",
]
