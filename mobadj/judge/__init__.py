"""The email judge: store, command language, mail in and out, deadlines.

What other packages may use is listed here (the command line starts a :class:`Service`, the
pages read the :class:`Store` and ask :func:`host_for` about each game).
"""

from mobadj.judge import deletion, reports, storetools
from mobadj.judge.accounts import password_refusal
from mobadj.judge.cardhost import CardHost
from mobadj.judge.commands import Command, parse_duration
from mobadj.judge.config import ConfigError, JudgeConfig, load_config
from mobadj.judge.core import Judge, JudgeError
from mobadj.judge.hosts import Check, DiplomacyHost, Host, HostError, host_for
from mobadj.judge.links import game_path, game_url, phase_url, step_id
from mobadj.judge.logs import setup_logging
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.mailparse import UnreadableMailText, saved_mail_text
from mobadj.judge.overview import status_text, summary_text
from mobadj.judge.service import NETWORK_ERRORS, Service, describe, one_judge
from mobadj.judge.store import Game, Mail, Store, StoreError, damaged, quick_damage, store_trouble
from mobadj.judge.webplay import WebPlay, WebSeat, legal_choices

__all__ = [
    "NETWORK_ERRORS",
    "CardHost",
    "Check",
    "Command",
    "ConfigError",
    "DiplomacyHost",
    "Game",
    "Host",
    "HostError",
    "Judge",
    "JudgeConfig",
    "JudgeError",
    "Mail",
    "Mailbox",
    "Mailer",
    "Service",
    "Store",
    "StoreError",
    "UnreadableMailText",
    "WebPlay",
    "WebSeat",
    "damaged",
    "deletion",
    "describe",
    "game_path",
    "game_url",
    "host_for",
    "legal_choices",
    "load_config",
    "one_judge",
    "parse_duration",
    "password_refusal",
    "phase_url",
    "quick_damage",
    "reports",
    "saved_mail_text",
    "setup_logging",
    "status_text",
    "step_id",
    "store_trouble",
    "storetools",
    "summary_text",
]
