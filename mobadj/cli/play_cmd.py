"""``mobadj play``: card games at the terminal, saved games resumed, finished games verified,
and random-playout simulations.

Every mistake on the command line (unknown game, seat, option or value, a bad deck or saved
file) is one line on stderr and exit status 2, never a traceback.  A game stopped because the
same save was played on in another window ends with exit status 1 (its one line is on the
game's screen); quitting, or a game played to its end, with 0.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from mobadj.cards.protocol import GameError
from mobadj.cards.record import read_record_file, verify_record
from mobadj.cards.registry import (
    DEFAULT_BOT_LEVEL,
    GAMES,
    bot_of_level,
    canonical_name,
    game_class,
)
from mobadj.cards.saves import finished_record, read_save
from mobadj.cards.screen import clear_screen, printable
from mobadj.cards.simulate import simulate
from mobadj.cards.terminal import Session, default_save_path
from mobadj.cli import game_options, main

SIMULATE_SEED = 1  # --simulate without --seed: the benchmark's reproducible default


def _fail(message: str) -> NoReturn:
    """One clear line and exit status 2 (a usage error); what it quotes from the command
    line or a file cannot steer the terminal (:func:`printable`)."""
    click.echo(printable(f"Error: {message}"), err=True)
    raise click.exceptions.Exit(2)


def _bot_seats(given: tuple[str, ...], level: str, players: int) -> dict[int, str]:
    """``--bot N`` or ``--bot N:LEVEL`` -> seat (0-based) -> bot level (``--bot-level`` for
    the seats given without one)."""
    seats: dict[int, str] = {}
    for text in given:
        number, _, own = text.partition(":")
        try:
            seat = int(number)
        except ValueError:
            _fail(f"--bot {text}: expected a seat number, or a seat and a bot level "
                  "(--bot 2 or --bot 2:basic)")
        if not 1 <= seat <= players:
            _fail(f"--bot {seat}: there is no seat {seat} in a {players}-player game "
                  f"(seats 1-{players})")
        seats[seat - 1] = own.strip().lower() or level
    return seats


def _fewest_players(cls: Any, options: dict[str, Any] | None) -> int:
    """The players of a game without ``-p``: the fewest its options allow (Micro City's
    ``-o mode=competitive`` is for two)."""
    least = cls.info.min_players
    for n in range(least, cls.info.max_players + 1):
        try:
            cls.new(n, 1, options)
        except GameError:
            continue
        return n
    return least  # (none does: the error of the game itself is said below)


def _verify(file: str | None, commitment: str | None) -> None:
    if file is None:
        _fail("verify needs the record file: mobadj play verify FILE")
    try:
        data = read_record_file(file)
    except GameError as err:
        _fail(str(err))
    verdict = verify_record(data, commitment)
    for line in verdict.lines:  # a record to verify may come from anyone
        click.echo(printable(line))
    raise click.exceptions.Exit(0 if verdict.ok else 1)


@main.command()
@click.argument("game")
@click.argument("file", required=False)
@click.option("--players", "-p", type=int,
              help="Number of players (default: the fewest the game and its options "
                   "allow).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of the game RNG: a reproducible game that is NOT secret (default: a "
                   f"secret 128-bit seed; {SIMULATE_SEED} with --simulate).")
@click.option("--simulate", "games", type=click.IntRange(min=1),
              help="Play N random games; print one JSON object.")
@click.option("--bots", is_flag=True, help="With --simulate: every seat is played by the bot.")
@click.option("--bot", "bot_seats", multiple=True, metavar="SEAT[:LEVEL]",
              help="Seat (1-based) the bot plays; SEAT:basic, SEAT:intermediate or "
                   "SEAT:standard gives that seat its own bot level.")
@click.option("--bot-level", "bot_level", metavar="LEVEL",
              help=f"Level of the bots (default: {DEFAULT_BOT_LEVEL}; also for --simulate "
                   "--bots): basic is the first bot of each game, standard the best; Iron "
                   "Triangle and Micro City keep intermediate, the standard bot before.")
@click.option("--option", "-o", "option_pairs", multiple=True, help="Game option key=value.")
@click.option("--resume", "resume", type=click.Path(dir_okay=False),
              help="Continue the game saved in this file (by quit, Ctrl-C or end of input).")
@click.option("--save", "save", type=click.Path(dir_okay=False),
              help="Where quit and the end save the game (default: GAME-<date>-<time>.json "
                   "in $MOBADJ_SAVE_DIR, else ~/.local/share/mobadj/saves; with --resume, "
                   "the same file).")
@click.option("--commitment", help="With verify: the commitment published at the start.")
def play(
    game: str,
    file: str | None,
    players: int | None,
    seed: int | None,
    games: int | None,
    bots: bool,
    bot_seats: tuple[str, ...],
    bot_level: str | None,
    option_pairs: tuple[str, ...],
    resume: str | None,
    save: str | None,
    commitment: str | None,
) -> None:
    """Play GAME (micromob, miceheist, irontriangle, microcity) at the terminal, or check a
    finished game: mobadj play verify FILE."""
    if game.lower() == "verify":
        _verify(file, commitment)
    if file is not None:
        _fail(f"unexpected argument '{file}' (only 'mobadj play verify FILE' takes a file)")
    try:
        name = canonical_name(game)
        cls = game_class(name)
    except KeyError as err:
        _fail(str(err.args[0]))
    try:
        options = game_options(option_pairs)
    except click.BadParameter as exc:  # one line, as every other mistake here
        _fail(exc.format_message())
    if resume is not None:
        given = [flag for flag, value in (("--players", players), ("--seed", seed),
                                          ("--option", option_pairs), ("--bot", bot_seats),
                                          ("--bot-level", bot_level),
                                          ("--simulate", games)) if value]
        if given:
            _fail(f"--resume continues the saved game as it was: drop {', '.join(given)}")
        _resume(name, resume, save)
        return
    n = players or _fewest_players(cls, options)
    if not cls.info.min_players <= n <= cls.info.max_players:
        _fail(f"{cls.info.title} takes {cls.info.min_players}-{cls.info.max_players} players, "
              f"not {n}")
    level = (bot_level or DEFAULT_BOT_LEVEL).lower()
    seats = _bot_seats(bot_seats, level, n)
    for wanted in {level, *seats.values()}:  # a mistyped level is said even with no --bot
        try:
            bot_of_level(name, wanted)
        except KeyError as err:
            _fail(str(err.args[0]))
    try:
        if games is not None:
            result = simulate(name, games, seed=SIMULATE_SEED if seed is None else seed,
                              players=n, options=options, bots=bots, bot_level=level)
            click.echo(json.dumps(result))
            return
        path = save or default_save_path(name)
        session = Session.new(name, n, seed, set(seats), options, bot_levels=seats,
                              clear=clear_screen, save_to=path, size=_screen_size())
        _tolerant_terminal()
    except GameError as err:  # an option the game refuses, a bad deck file: one line
        _fail(str(err))
    except (OSError, ValueError) as err:  # e.g. a deck file that cannot be read
        _fail(f"cannot start {cls.info.title}: {err}")
    _run(session)


def _run(session: Session) -> None:
    """Play ``session``; exit status 1 when it stopped for a game played on in another
    window (the window did not go on as asked, and a script can tell it from a quit)."""
    session.run()
    if session.played_elsewhere is not None:
        raise click.exceptions.Exit(1)


def _tolerant_terminal() -> None:
    """A byte typed at the terminal that its encoding cannot read (another locale, a stray
    key) is read as a replacement character, a mistake like any, and a character it cannot
    show is shown as one: neither is an error that ends the game unsaved."""
    for stream in (sys.stdin, sys.stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def _resume(name: str, path: str, save: str | None) -> None:
    try:
        opened = read_save(path)
        data = opened.content
        if _game_of(data) != name:
            _fail(f"{path} holds a game of {data.get('game')}, not {name}")
        if data.get("over"):
            _fail(f"the game in {path} is over; check it with: mobadj play verify {path}")
        finished = finished_record(data) if opened.key is None else None
        if finished is not None:  # a record edited into the shape of an earlier save
            _fail(f"the game in {path} is over ({finished}: a finished game does not "
                  f"resume); check it with: mobadj play verify {path}")
        session = Session.resume(data, clear=clear_screen, save_to=Path(save or path),
                                 key=opened.key, saves=opened.number, size=_screen_size())
        _tolerant_terminal()
    except KeyError as err:
        _fail(str(err.args[0]))
    except GameError as err:
        _fail(f"cannot resume {path}: {err}")
    if opened.key is None:
        session.write("This game was saved by an earlier mobadj, whose saves kept the seed "
                      "readable: it is sealed from now on.")
    _run(session)


def _game_of(data: dict[str, Any]) -> str | None:
    """The game a saved file holds, by its canonical name; None for a name no game has."""
    try:
        return canonical_name(str(data.get("game", "")))
    except KeyError:
        return None


def _screen_size() -> tuple[int, int] | None:
    """The terminal's columns and rows when both ends are one (a pipe or a file: None, the
    lines as they are and never a pause)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    size = shutil.get_terminal_size()
    return max(size.columns, 40), max(size.lines, 10)


# (the docstring's lines joined first: click would keep their indent once a line without one
# follows, and print it within the sentence)
play.help = (" ".join(line.strip() for line in (play.help or "").splitlines())
             + "\n\nKnown games: " + ", ".join(sorted(GAMES)))
