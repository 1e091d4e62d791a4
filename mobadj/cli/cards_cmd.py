"""``mobadj cards balance GAME``: the balance figures of a card game's deck (who wins, by
seat, colour, role or card), from many seeded games played by its bots or at random.

Each game's ``balance`` module lists the reports it can make (``REPORTS``, the first the
default), the game options they take (``OPTIONS``) and how many games and players they play
unless told; the figures in docs/cards/ come from here.  Every mistake on the command line is
one line, never a traceback.
"""

from __future__ import annotations

import importlib
import json

import click

from mobadj.cli import game_options, main


@main.group()
def cards() -> None:
    """Card games: the figures behind their decks (play them with `mobadj play`)."""


@cards.command()
@click.argument("game")
@click.option("--report", "-r", "which", help="Which figures (default: the game's first).")
@click.option("--games", "-g", type=click.IntRange(min=1),
              help="How many seeded games (default: the game's own).")
@click.option("--players", "-p", type=int, help="Players in each game (default: the game's).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. modules=4 or deck=FILE.")
def balance(game: str, which: str | None, games: int | None, players: int | None,
            options: tuple[str, ...]) -> None:
    """Print the balance figures of GAME as one JSON object (a deck's designer, or a GM who
    transcribed a deck, checks it is fair)."""
    from mobadj.cards import canonical_name, game_class

    try:
        name = canonical_name(game)
    except KeyError as err:
        raise click.BadParameter(str(err.args[0]), param_hint="GAME") from None
    try:
        module = importlib.import_module(f"mobadj.cards.{name}.balance")
    except ModuleNotFoundError:
        raise click.BadParameter(f"{name} has no balance report (try mobadj play {name} "
                                 "--simulate N)", param_hint="GAME") from None
    reports = module.REPORTS
    which = which or next(iter(reports))
    if which not in reports:
        raise click.BadParameter(f"{which!r}: {name} reports {', '.join(reports)}",
                                 param_hint="--report")
    given = game_options(options)
    for key in given:
        if key not in module.OPTIONS:
            known = ", ".join(module.OPTIONS) or "none"
            raise click.BadParameter(f"{name}'s balance takes no option {key!r} (its options: "
                                     f"{known})", param_hint="--option")
    info = game_class(name).info
    n = players or module.DEFAULT_PLAYERS
    if not info.min_players <= n <= info.max_players:
        raise click.BadParameter(f"{info.title} takes {info.min_players}-{info.max_players} "
                                 f"players, not {n}", param_hint="--players")
    try:
        figures = reports[which](games or module.DEFAULT_GAMES, n, given)
    except (OSError, ValueError) as err:  # an option the game refuses, a bad deck file
        raise click.ClickException(f"cannot play {info.title}: {err}") from None
    click.echo(json.dumps(figures, indent=1))
